"""Issue 16 in Chromium: the organiser corrects a card-by-card hand with the tablet's card picker.

"In the console, a disputed card-by-card hand can be corrected only by editing JSON": now the correction
form shows the card picker (static/js/card-picker.js, the tablet's); the organiser takes back the last two
tricks, plays them again in another order, sees the engine's reading of the new cards (each event with
its side and points) and only then can save; the saved version holds the new tricks.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from .tablet_browser import browser, new_page  # noqa: F401 (browser is a fixture)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def shots() -> Path:
    """docs/screenshots/console-cards/ with KEEP_SCREENSHOTS=1 (judged in its README), else test-artifacts."""
    root = Path(__file__).resolve().parents[2]
    folder = root / ("docs/screenshots/console-cards" if os.environ.get("KEEP_SCREENSHOTS") else "test-artifacts/console-cards")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def login(page: Any, live_server: Any, path: str, username: str, password: str) -> None:
    page.goto(live_server.url + path)
    page.fill("#id_username", username)
    page.fill("#id_password", password)
    page.click("form.stack button[type=submit]")


def play_one(page: Any, grid: str, avoid: str | None = None) -> str:
    """Tap a legal card of the seat to play (another than ``avoid`` when it has one); returns the card."""
    legal = page.locator(f"[id^='{grid}-']:not([disabled]):not(.illegal)")
    ids = [legal.nth(i).get_attribute("id") for i in range(legal.count())]
    choice = next((i for i in ids if i.split("-")[-1] != avoid), ids[0])
    page.click(f"#{choice}")
    return choice.split("-")[-1]


def test_a_card_by_card_hand_is_corrected_with_the_card_picker_not_json(browser, live_server):  # noqa: F811
    from django.contrib.auth.models import User

    from scoring.simulate import simulate_game
    from tests.tournaments.factories import make_board, submit
    from tournaments import adapters
    from tournaments.models import Hand, TournamentRole
    from web.play_form import PlayCorrectionForm
    from web.views.corrections import event_text

    board = make_board()
    original = simulate_game("trinidad-tournament", seed=3, first_dealer=0).hands[0].play
    hand = submit(board, original)
    user = User.objects.create_user("fixer", password="pw-fixer-1")
    TournamentRole.objects.create(tournament=board.round.tournament, user=user)
    ctx, page, errors = new_page(browser, 1280, 900)
    try:
        login(page, live_server, f"/console/t/{board.round.tournament.slug}/boards/{board.pk}/", "fixer", "pw-fixer-1")
        page.click(f"#fix-{hand.pk} summary")
        form = page.locator(f"#fix-{hand.pk} form")
        assert form.locator("[data-picker]").is_visible()
        assert form.locator("textarea[name=record]").count() == 0  # no JSON box
        assert form.locator("[data-typed]").is_hidden()  # the typed fields fold away under the picker
        save = form.locator("button[data-save]")
        assert save.is_disabled()  # Save waits for the reading
        p = f"hand{hand.pk}-"
        tricks = original["tricks"]
        for _ in range(8):  # take back the last two tricks
            page.click(f"#{p}take-back")
        page.set_viewport_size({"width": 360, "height": 740})
        form.locator("[data-picker]").screenshot(path=str(shots() / "card-correction-picker-360.png"))
        page.set_viewport_size({"width": 1280, "height": 900})
        lead = play_one(page, f"{p}play", avoid=tricks[-2][0])  # lead the other card this time
        for _ in range(7):
            play_one(page, f"{p}play")
        page.wait_for_selector(f"#fix-{hand.pk} >> text=All 6 tricks are in.")
        typed = page.input_value(f"#id_{p}tricks").splitlines()
        assert len(typed) == 6 and typed[:4] == [" ".join(t) for t in tricks[:4]] and typed[4].split()[0] == lead
        assert typed[4:] != [" ".join(t) for t in tricks[4:]]
        form.locator("button[data-check]").click()
        form.locator("[data-reading] ul.events li").first.wait_for()
        shown = [li.inner_text() for li in form.locator("[data-reading] ul.events li").all()]
        assert save.is_enabled()
        form.screenshot(path=str(shots() / "card-correction-reading-1280.png"))
        page.set_viewport_size({"width": 360, "height": 740})
        form.screenshot(path=str(shots() / "card-correction-reading-360.png"))
        page.set_viewport_size({"width": 1280, "height": 900})

        # What the engine reads from the new cards, computed here: the page shows exactly that.
        data = {k: page.input_value(f"#id_{p}{k}") for k in ("kicks", "abandoned", "tricks", "held_0", "held_1", "held_2",
                                                             "held_3")}
        data["beg"] = page.input_value(f"#id_{p}beg")
        card_form = PlayCorrectionForm(data)
        assert card_form.is_valid()
        record = card_form.record(hand.dealer)
        result = adapters.result_dict(adapters.hand_score(adapters.rules_for_game(hand.game), [0, 0], record,
                                                          dealer=hand.dealer))
        assert shown == [f"{event_text(e)}: {'AB'[e['side']]} +{e['points']}" for e in result["events"]]
        score = form.locator("[data-reading] p").first.inner_text()
        assert f"{result['score'][0]}-{result['score'][1]}" in score

        save.click()
        page.wait_for_selector("text=Hand 1 of game 1 corrected (version 2)")
        corrected = Hand.objects.get(game__board=board, number=1, status="active")
        assert corrected.version == 2 and corrected.form == "play"
        assert corrected.record["tricks"] == record["tricks"] and corrected.events == result["events"]
        assert not errors, errors
    finally:
        ctx.close()
