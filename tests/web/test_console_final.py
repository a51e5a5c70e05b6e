"""Issue 14 in the console and on the public pages: the prizes page (add, change, remove, how prizes are
shared, the awards as they stand), finishing (the confirmation page, its refusals) and reopening, the
payout sheet, the final report with the results to copy, the results as text; a finished event's public
pages say "Final results"; and, in a browser at 360 px, no page scrolls sideways and the buttons stack.

The event is the service tests' (tests/tournaments/test_services_prizes_finish.py): four pairs, round 1
closed, A and C level for 1st after every tie-break, B and D level for 3rd.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse
from django.utils.html import escape

from tests.tournaments.factories import make_round, make_user
from tests.tournaments.test_services_prizes_finish import Event, places
from tournaments.models import Device, Prize, Tournament
from tournaments.services.devices import device_authenticate, device_pair, pairing_code_create
from tournaments.services.finish import tournament_finish

pytestmark = pytest.mark.django_db


@pytest.fixture
def event() -> Event:
    return Event()


@pytest.fixture
def org(event: Event) -> Client:
    client = Client()
    client.force_login(event.organiser)
    return client


def url(name: str, event: Event, *args: object) -> str:
    return reverse(f"web:{name}", args=[event.tournament.slug, *args])


def text(response) -> str:
    return response.content.decode()


# ---- who may -------------------------------------------------------------------------------------------


def test_the_pages_need_a_role_and_the_changes_need_manage(client, event):
    pages = ["console_prizes", "console_finish", "console_reopen", "console_print_payout", "console_print_final",
             "console_results_text"]
    for name in pages:
        assert client.get(url(name, event)).status_code == 302, name  # to the login page
    stranger = Client()
    stranger.force_login(make_user())
    for name in pages:
        assert stranger.get(url(name, event)).status_code == 403, name
    scorekeeper = make_user()
    event.tournament.roles.create(user=scorekeeper, role="scorekeeper")
    reader = Client()
    reader.force_login(scorekeeper)
    for name in pages:
        assert reader.get(url(name, event)).status_code == 200, name
    page = text(reader.get(url("console_prizes", event)))
    assert "Add the prize" not in page and "Finish the event…" not in page
    assert reader.post(url("console_prize_add", event), {"new-category": "place", "new-place": "1"}).status_code == 403
    assert reader.post(url("console_finish", event)).status_code == 403
    assert event.refresh().status == "running" and not Prize.objects.exists()


# ---- prizes --------------------------------------------------------------------------------------------


def test_the_prizes_page_adds_changes_and_removes_prizes(org, event):
    page = org.get(url("console_prizes", event))
    assert page.status_code == 200 and "No prize yet" in text(page)
    assert 'aria-current="page">Prizes &amp; finish' in text(page)  # the console's tab

    response = org.post(url("console_prize_add", event), {"new-category": "place", "new-place": "1",
                                                          "new-amount": "1,000"})
    assert response.status_code == 302
    prize = Prize.objects.get(tournament=event.tournament)
    assert (prize.place, str(prize.amount)) == (1, "1000.00")
    page = text(org.get(url("console_prizes", event)))
    assert "Prize added: 1st place." in page and "TTD 1,000.00" in page
    assert escape(event.name(event.a)) in page and "the seed order decides" in page  # the award as it stands

    # a refusal sits next to its field, and nothing is stored
    response = org.post(url("console_prize_add", event), {"new-category": "tag", "new-place": "1"})
    assert response.status_code == 400
    assert re.search(r'id="id_new-tag".*?class="field-error" role="alert">Which tag', text(response), re.S)
    response = org.post(url("console_prize_add", event), {"new-category": "place", "new-place": "2",
                                                          "new-amount": "12.345"})
    assert response.status_code == 400 and "at most two decimals" in text(response)
    assert Prize.objects.count() == 1

    prefix = f"p{prize.pk}"
    response = org.post(url("console_prize_edit", event, prize.pk), {
        f"{prefix}-category": "tag", f"{prefix}-place": "1", f"{prefix}-tag": "", f"{prefix}-amount": "5"})
    assert response.status_code == 400 and "<details open>" in text(response)
    response = org.post(url("console_prize_edit", event, prize.pk), {
        f"{prefix}-category": "most_hang_jacks", f"{prefix}-amount": "75", f"{prefix}-label": "Hang jack king"})
    assert response.status_code == 302
    prize.refresh_from_db()
    assert (prize.category, prize.label, str(prize.amount)) == ("most_hang_jacks", "Hang jack king", "75.00")

    assert org.post(url("console_prize_remove", event, prize.pk)).status_code == 302
    assert not Prize.objects.exists()
    assert org.post(url("console_prize_remove", event, prize.pk)).status_code == 404
    other = Event()
    foreign = other.prize(category="place", place=1)
    assert org.post(url("console_prize_remove", event, foreign.pk)).status_code == 404


def test_how_prizes_are_shared(org, event):
    places(event)
    response = org.post(url("console_prize_settings", event), {"prize_ties": "split"})  # box unticked: False
    assert response.status_code == 302
    tournament = event.refresh()
    assert (tournament.one_prize_per_pair, tournament.prize_ties) == (False, "split")
    page = text(org.get(url("console_prizes", event)))
    assert "they share 1st place and 2nd place equally" in page and "TTD 750.00" in page
    assert org.post(url("console_prize_settings", event), {"prize_ties": "coin"}).status_code == 400


# ---- finishing and reopening -------------------------------------------------------------------------------


def test_finishing_is_refused_with_the_reason_while_a_round_is_in_play(org, event):
    make_round(event.tournament, [(event.a, event.c), (event.b, event.d)])
    page = org.get(url("console_finish", event))
    assert page.status_code == 200
    assert "Round 2 is still in play: close it first." in text(page) and "Finish the event now" not in text(page)
    response = org.post(url("console_finish", event))
    assert response.status_code == 409 and "Round 2 is still in play: close it first." in text(response)
    assert event.refresh().status == "running"


def test_finish_confirm_then_reopen(org, event):
    places(event)
    _, code = pairing_code_create(tournament=event.tournament, table=1, user=event.organiser)
    _, token = device_pair(code=code)
    page = text(org.get(url("console_finish", event)))
    assert "What finishing does" in page and "Every tablet of the event is revoked (1 in use now)" in page
    assert "TTD 1,700.01" in page and 'class="danger">Finish the event now' in page

    response = org.post(url("console_finish", event))
    assert response.status_code == 302 and response["Location"] == url("console_prizes", event)
    assert event.refresh().status == "finished" and device_authenticate(token) is None
    page = text(org.get(url("console_prizes", event)))
    assert "The event is finished" in page and "Prizes awarded" in page and "Reopen the event…" in page
    assert "Add the prize" not in page
    response = org.post(url("console_finish", event))
    assert response.status_code == 409 and "already finished" in text(response)

    page = text(org.get(url("console_reopen", event)))
    assert "What reopening does" in page and "tablets stay revoked" in page
    assert org.post(url("console_reopen", event)).status_code == 302
    assert event.refresh().status == "running" and event.tournament.final_results["reopened_at"]
    assert not Device.objects.filter(tournament=event.tournament, revoked_at__isnull=True).exists()
    response = org.post(url("console_reopen", event))
    assert response.status_code == 409 and "not finished" in text(response)


# ---- print and share --------------------------------------------------------------------------------------


def test_payout_sheet_final_report_and_results_text(org, event):
    places(event)
    Tournament.objects.filter(pk=event.tournament.pk).update(venue="Couva Community Centre")
    from tournaments.services import entry_fee_paid_set

    entry_fee_paid_set(entry=event.a, paid=True, user=event.organiser)
    payout = org.get(url("console_print_payout", event))
    assert payout.status_code == 200
    page = text(payout)
    assert "Provisional" in page and "TTD 1,700.01" in page and "TTD 100.00" in page and "TTD -1,600.01" in page
    assert "css/final.css" in page and "@media print" not in page  # print rules live in the stylesheet

    tournament_finish(tournament=event.tournament, user=event.organiser)
    page = text(org.get(url("console_print_final", event)))
    assert "final results" in page and "Final standings" in page and "How ties were broken" in page
    assert "Crosstable" in page and "W 2-0 v " in page and "Most hang jacks" in page
    assert 'data-copy="results-text"' in page and "js/copy-link.js" in page
    assert not re.search(r"<script(?![^>]*\bsrc=)", page)  # no inline script (the CSP forbids it)
    assert "Full results: http://testserver/t/" in page

    response = org.get(url("console_results_text", event))
    assert response.status_code == 200 and response["Content-Type"].startswith("text/plain")
    body = response.content.decode()
    assert body.startswith(f"{event.tournament.name}: final results\nCouva Community Centre")
    assert f"Full results: http://testserver/t/{event.tournament.slug}/" in body


# ---- the public pages -----------------------------------------------------------------------------------


def test_a_finished_event_shows_final_results_on_its_public_pages(client, event):
    places(event)
    home = reverse("web:tournament", args=[event.tournament.slug])
    standings = reverse("web:standings", args=[event.tournament.slug])
    before = text(client.get(standings))
    assert "In play" in before and "Final results" not in before
    assert "in play" in text(client.get(home))  # "with boards in play"; the page is now in the cache

    tournament_finish(tournament=event.tournament, user=event.organiser)
    page = text(client.get(home))  # the cached page is not served: the fingerprint moved
    assert "Final results" in page and "in play" not in page.lower()
    assert "Prizes" in page and f"{escape(event.name(event.a))}</a>" in page and "(TTD 1,000.00)" in page
    assert "Final standings after round 1" in page
    page = text(client.get(standings))
    assert "Final standings" in page and "In play" not in page and 'data-poll-seconds="0"' in page
    assert "How ties were broken" in page
    listing = text(client.get(reverse("web:home")))
    assert "Final results" in listing


def test_a_reopened_event_reads_live_again(client, event):
    tournament_finish(tournament=event.tournament, user=event.organiser)
    from tournaments.services.finish import tournament_reopen

    tournament_reopen(tournament=event.tournament, user=event.organiser)
    page = text(client.get(reverse("web:tournament", args=[event.tournament.slug])))
    assert "Final results" not in page


# ---- a phone, in a browser -------------------------------------------------------------------------------


ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


@pytest.mark.browser
@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_the_pages_fit_a_phone_and_print_on_a4(live_server):
    """At 360 px: no sideways scroll on any of the pages, and the buttons of the prizes and finish pages are
    stacked (one per line, full width). The payout sheet and the final report are printed to PDF (A4) under
    test-artifacts/ to be looked at."""
    os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    from playwright.sync_api import sync_playwright

    from tests.conftest import chromium_path

    event = Event()
    places(event)
    event.prize(category="tag", tag="ladies", place=1, amount="300", label="Best ladies pair")
    event.prize(category="most_hang_jacks", amount="100")
    User = type(event.organiser)  # noqa: N806
    user = User.objects.get(pk=event.organiser.pk)
    user.set_password("pw-final-1")
    user.save()
    slug = event.tournament.slug
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_path(), args=["--headless", "--no-sandbox", "--disable-gpu"])
        try:
            context = browser.new_context(viewport={"width": 360, "height": 740}, device_scale_factor=1)
            page = context.new_page()
            page.goto(f"{live_server.url}/accounts/login/")
            page.fill("#id_username", user.get_username())
            page.fill("#id_password", "pw-final-1")
            page.click("form.stack button[type=submit]")
            page.wait_for_url(re.compile(r"/console/"))
            ARTIFACTS.mkdir(exist_ok=True)

            def phone(name: str, path: str) -> None:
                page.goto(live_server.url + path)
                page.evaluate("document.querySelectorAll('details').forEach(d => d.open = true)")
                wide = page.evaluate("document.documentElement.scrollWidth")
                assert wide <= 360, (path, wide)
                page.screenshot(path=str(ARTIFACTS / f"final-360-{name}.png"), full_page=True)
                for row in page.query_selector_all(".button-row"):
                    boxes = [b.bounding_box() for b in row.query_selector_all(":scope > .button, :scope > button")]
                    boxes = [b for b in boxes if b and b["width"]]
                    lefts = {round(b["x"]) for b in boxes}
                    assert len(lefts) <= 1, (path, boxes)  # stacked: one above the other

            for name, path in (("prizes", f"/console/t/{slug}/prizes/"), ("finish", f"/console/t/{slug}/finish/"),
                               ("payout", f"/console/t/{slug}/print/payout/"),
                               ("report", f"/console/t/{slug}/print/final/")):
                phone(name, path)
            page.goto(f"{live_server.url}/console/t/{slug}/finish/")
            page.get_by_role("button", name="Finish the event now").click()
            page.wait_for_url(re.compile(r"/prizes/$"))
            assert Tournament.objects.get(pk=event.tournament.pk).status == "finished"
            for name, path in (("prizes-finished", f"/console/t/{slug}/prizes/"),
                               ("reopen", f"/console/t/{slug}/reopen/"), ("public-final", f"/t/{slug}/"),
                               ("public-standings-final", f"/t/{slug}/standings/")):
                phone(name, path)
            a4 = browser.new_context(viewport={"width": 820, "height": 1180})
            a4.add_cookies(context.cookies())
            printer = a4.new_page()
            for name, path in (("payout", "print/payout/"), ("final-report", "print/final/")):
                printer.goto(f"{live_server.url}/console/t/{slug}/{path}")
                printer.emulate_media(media="print")
                assert printer.evaluate("getComputedStyle(document.querySelector('nav.tabs')).display") == "none"
                printer.pdf(path=str(ARTIFACTS / f"{name}.pdf"), format="A4", print_background=True)
                printer.screenshot(path=str(ARTIFACTS / f"{name}-print.png"), full_page=True)
                assert (ARTIFACTS / f"{name}.pdf").stat().st_size > 1000
        finally:
            browser.close()
