"""The tablet's main states photographed at 360 px and 1024 px wide (issue 16), with the checks a person
would make looking at them: no sideways scroll, never a blank screen, something to do in every state, and
axe-core on each state.

Screenshots go to test-artifacts/tablet/, or to docs/screenshots/tablet/ with KEEP_SCREENSHOTS=1 (the
judged copies; docs/pages.md says what each shows). Also measures the first load's transfer size
(docs/pages.md, "Weight of the first load"): every response of a fresh load of /tablet/ summed.
"""

from __future__ import annotations

import gzip
from typing import Any

import pytest

from .tablet_browser import (
    assert_never_stuck,
    browser,  # noqa: F401 (a fixture)
    check_and_send,
    fill_hand,
    finish_game,
    go_offline,
    go_online,
    new_page,
    pair_tablet,
    plain_hand,
    seat,
    shots_folder,
    small_event,
    wait_sent,
    wait_until,
)

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.django_db(transaction=True)]
WIDTHS = {"360": (360, 640), "1024": (1024, 768)}


def shoot(page: Any, name: str, focus: str | None = None) -> None:
    """The viewport at each width (what the scorer sees), scrolled to ``focus``; the passing flash hidden."""
    folder = shots_folder("tablet")
    page.evaluate("document.getElementById('flash').hidden = true")
    for label, (w, h) in WIDTHS.items():
        page.set_viewport_size({"width": w, "height": h})
        page.evaluate("window.scrollTo(0, 0)")
        if focus:
            page.locator(focus).first.scroll_into_view_if_needed()
            page.evaluate(f"window.scrollBy(0, document.querySelector({focus!r}).getBoundingClientRect().top - 60)")
        page.wait_for_timeout(60)
        overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
        assert overflow <= 0, f"{name} at {label} px scrolls sideways by {overflow}px"
        assert_never_stuck(page, f"{name} at {label} px")
        page.screenshot(path=str(folder / f"tablet-{name}-{label}.png"))
    page.set_viewport_size({"width": 1024, "height": 768})
    axe(page, name)


def axe(page: Any, name: str) -> None:
    """axe-core on the state (labels, contrast, roles); "region" is advisory, as in test_browser.py."""
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page)
    violations = [v for v in results.response["violations"] if v["id"] != "region"]
    assert not violations, f"{name}: " + "; ".join(f"{v['id']} ({v['nodes'][0]['target']})" for v in violations)


def test_the_tablets_main_states_at_360_and_1024_px(browser, live_server):  # noqa: F811
    from tournaments.models import Board, Game, Round
    from tournaments.services import game_confirm

    ctx, page, errors = new_page(browser, 1024, 768)
    event = small_event(name="Screenshot Open")
    board = Board.objects.get(round__tournament=event, table=1)
    try:
        from datetime import timedelta

        from django.utils import timezone

        Round.objects.filter(pk=board.round_id).update(ends_at=timezone.now() + timedelta(minutes=42))
        pair_tablet(page, live_server, event)
        page.wait_for_selector("#seating-panel:not([hidden])")
        shoot(page, "seating")
        seat(page)
        wait_sent(page)
        fill_hand(page, {"dealer": 0, "kicks": ["6S"], "beg": "stand", "high": {"side": 1, "card": "AS"},
                         "low": {"side": 0, "card": "2S"}, "jack": {"held_by": 0, "won_by": 1}, "game": [25, 45]})
        page.click("#check")
        page.wait_for_selector("#send:not([disabled])")
        shoot(page, "reading", "#hand-form .fsec[data-field=\"hand.game\"]")
        page.click("#send")
        wait_sent(page)

        go_offline(page, ctx)
        fill_hand(page, plain_hand(1, to=0, counts=(60, 40)))
        check_and_send(page, engine=False)
        fill_hand(page, plain_hand(2, to=1))
        page.click("#check")
        page.wait_for_selector("#send:not([disabled])")
        shoot(page, "offline-queue", "#hand-form .fsec[data-field=\"hand.game\"]")
        page.click("#send")
        go_online(page, ctx)
        page.wait_for_selector("#refused:not([hidden])")
        shoot(page, "refused")
        page.click("#refused-drop")
        # The hand behind it was numbered after the discarded one: refused in turn (entered again, or dropped).
        wait_until(page, "!document.getElementById('refused').hidden || "
                         "JSON.parse(localStorage.getItem('hangjack.queue') || '[]').length === 0")
        if page.locator("#refused:not([hidden])").count():
            assert "next hand" in page.inner_text("#refused-fix")
            page.click("#refused-drop")
        wait_sent(page)

        board.refresh_from_db()
        finish_game(board, to=0)
        page.click("#help")
        wait_sent(page)
        page.wait_for_selector("#confirm-panel:not([hidden])")
        shoot(page, "confirm", "#confirm-panel")

        finish_game(board, to=0)
        for game in Game.objects.filter(board=board, confirmed=False, status="finished"):
            game_confirm(game=game, party="organiser", user=event.organiser_user)
        page.reload()
        wait_until(page, "document.getElementById('app').getAttribute('data-page') === 'match_over'")
        shoot(page, "board-finished")

        from tournaments.models import Device
        from tournaments.services.devices import device_revoke

        go_offline(page, ctx)
        page.click("#help")  # waiting to be sent when the tablet is revoked: it goes to the late hands
        device_revoke(device=Device.objects.get(tournament=event, table=1, revoked_at__isnull=True), user=None)
        go_online(page, ctx)
        page.wait_for_selector("#pair-again:not([hidden])")
        page.wait_for_selector("#late-list [data-late=delivered]")
        shoot(page, "pair-again")
    finally:
        ctx.close()
    assert not errors, errors


def test_first_load_weight_of_the_tablet_page(browser, live_server):  # noqa: F811
    """Every response of a fresh load (page, script, style, icon, manifest, the service worker, the board
    state) summed, as sent here and as gzip would send it (WhiteNoise serves .gz in production)."""
    ctx, page, errors = new_page(browser, 1024, 768)
    event = small_event(name="Weight Open")
    try:
        pair_tablet(page, live_server, event)
        seat(page)
        wait_sent(page)
        ctx2, fresh, errors2 = new_page(browser, 1024, 768)
        fresh.goto(f"{live_server.url}/tablet/pair/")  # an empty origin: nothing cached
        fresh.evaluate("(d) => localStorage.setItem('hangjack.device', d)",
                       page.evaluate("localStorage.getItem('hangjack.device')"))
        sizes: dict[str, tuple[int, int]] = {}

        def record(response: Any) -> None:
            try:
                body = response.body()
            except Exception:  # a redirect or an aborted request has no body
                return
            sizes[response.url.replace(live_server.url, "")] = (len(body), len(gzip.compress(body, 6)))

        fresh.on("response", record)
        fresh.goto(f"{live_server.url}/tablet/")
        wait_until(fresh, "document.getElementById('app').getAttribute('data-page') === 'board'")
        fresh.wait_for_timeout(1500)  # the service worker's install fetches the shell too
        raw = sum(s[0] for s in sizes.values())
        zipped = sum(s[1] for s in sizes.values())
        report = "\n".join(f"{url}: {r} B raw, {z} B gzip" for url, (r, z) in sorted(sizes.items()))
        (shots_folder("tablet") / "first-load-weight.txt").write_text(f"{report}\ntotal: {raw} B raw, {zipped} B gzip\n")
        assert "/api/v1/tablet/board/" in sizes and "/static/js/tablet.js" in sizes, report
        assert zipped < 100_000, report
        ctx2.close()
        assert not errors2, errors2
    finally:
        ctx.close()
    assert not errors, errors
