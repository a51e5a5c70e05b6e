"""The pages in a real browser (Chromium through Playwright) against a live server and the real API.

A tablet is paired with a code and a scorer enters a whole game; both pairs confirm it and the standings
show it; the connection drops mid-game and the queued hands arrive once, in order; the engine's refusal
sits next to the field at fault; an organiser starts a round and the pairings page shows it. Each page
is checked with axe-core (labels, contrast) and photographed under test-artifacts/ (git-ignored).
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import chromium_path

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

# Playwright's sync API runs an event loop in this thread; the ORM calls below are plain synchronous code.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
LAUNCH_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]
#: axe rules that judge the page; "region" is advisory and ignored.
AXE_IGNORE = {"region"}
TIMEOUT = 10_000


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=chromium_path(), args=LAUNCH_ARGS)
        yield b
        b.close()


@pytest.fixture
def context(browser):
    ctx = browser.new_context(viewport={"width": 820, "height": 1180}, device_scale_factor=1)
    ctx.set_default_timeout(TIMEOUT)
    yield ctx
    ctx.close()


@pytest.fixture
def page(context):
    p = context.new_page()
    errors: list[str] = []
    p.on("pageerror", lambda e: errors.append(str(e)))
    yield p
    assert not errors, f"JavaScript errors on the page: {errors}"


def shoot(page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)
    # A full-page shot leaves Chromium's compositor with stale sticky positions (a click on the sticky
    # action bar then misses it): one scroll puts them back.
    page.mouse.wheel(0, 1)
    page.mouse.wheel(0, -1)


def check_axe(page, name: str) -> None:
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page)
    violations = [v for v in results.response["violations"] if v["id"] not in AXE_IGNORE]
    if violations:
        ARTIFACTS.mkdir(exist_ok=True)
        (ARTIFACTS / f"{name}-axe.txt").write_text(results.generate_report())
    assert not violations, f"{name}: axe found " + "; ".join(
        f"{v['id']} ({len(v['nodes'])}: {v['nodes'][0]['target']})" for v in violations
    )


# ---- the event --------------------------------------------------------------------------------------


@pytest.fixture
def event():
    """A published Swiss of 4 pairs with round 1 in play (2 boards), paired and started by the services."""
    from django.contrib.auth.models import User

    from tournaments import services
    from tournaments.models import TournamentRole

    from .factories import make_tournament

    t = make_tournament(pairs=4, name="Browser Open")
    r = services.round_create(tournament=t)
    services.round_pair_rotation(r)
    services.round_publish(round=r)
    services.round_start_play(round=r)
    user = User.objects.create_user("organiser", password="pw-organiser-1")
    TournamentRole.objects.create(tournament=t, user=user)
    return t


def pairing_code(tournament, table: int = 1) -> str:
    from tournaments.services.devices import pairing_code_create

    _, code = pairing_code_create(tournament=tournament, table=table, user=None)
    return code


def pair_tablet(page, live_server, tournament, table: int = 1) -> None:
    code = pairing_code(tournament, table)
    page.goto(f"{live_server.url}/tablet/pair/{code}")
    page.wait_for_url(re.compile(r"/tablet/$"))
    assert code not in page.url
    stored = page.evaluate("localStorage.getItem('hangjack.device')")
    assert stored and '"token"' in stored
    token = page.evaluate("JSON.parse(localStorage.getItem('hangjack.device')).token")
    assert token not in page.url


def seat(page, first_dealer: int = 0) -> None:
    page.wait_for_selector("#seating-panel:not([hidden])")
    page.click(f"label[for=fd-{first_dealer}]")
    page.click("#seating-form button[type=submit]")
    page.wait_for_selector("#hand-form:not([hidden])")


def rank(card: str) -> str:
    return card[:-1]


def fill_hand(page, rec: dict[str, Any]) -> None:
    """Enter a tally-form hand the way a scorer does, tap by tap."""
    if rec.get("misdeal"):
        page.click("label[for=misdeal-yes]")
        return
    assert not rec.get("abandoned"), "choose a simulated game without a redeal"
    kicks = rec["kicks"]
    page.click(f"label[for=k0r-{rank(kicks[0])}]")
    page.click(f"label[for=k0s-{kicks[0][-1]}]")
    if "beg" not in rec:
        return
    page.click(f"label[for=beg-{rec['beg']}]")
    for i, card in enumerate(kicks[1:], 1):
        page.click(f"label[for=k{i}r-{rank(card)}]")
        page.click(f"label[for=k{i}s-{card[-1]}]")
    if "high" not in rec:
        return
    if rec["high"] is None:
        page.click("label[for=notrump-no]")
    else:
        for name in ("high", "low"):
            award = rec[name]
            page.click(f"label[for={name}s-{award['side']}]")
            if award.get("card"):
                page.click(f"label[for={name}r-{rank(award['card'])}]")
        jack = rec["jack"]
        if page.locator("label[for=jack-none]").count():
            if jack is None:
                choice = "none"
            elif jack["held_by"] == jack["won_by"]:
                choice = "ab"[jack["won_by"]]
            else:
                choice = "hang_" + "ab"[jack["won_by"]]
            page.click(f"label[for=jack-{choice}]")
    page.fill("#game-0", str(rec["game"][0]))
    page.fill("#game-1", str(rec["game"][1]))


def send_hand(page, *, expect_engine: bool = True) -> str:
    """Check the hand (the engine's preview when online), then send it; returns the reading shown."""
    page.click("#check")
    # Send is on screen but disabled until the reading of this entry is shown beside it (issue 16).
    page.wait_for_selector("#send:not([disabled]), #hand-form .field-error:not([hidden])")
    errors = page.locator("#hand-form .field-error:not([hidden])")
    assert not errors.count(), "refused: " + " | ".join(errors.all_inner_texts())
    reading = page.inner_text("#reading")
    if expect_engine:
        assert "Engine's reading" in reading, reading
    page.click("#send")
    return reading


#: The "Bulls" (bullseyes won) figure of a pair's standings row, or null: a JS expression over a pair name.
BULLSEYES_JS = """(function (name) {
  var heads = Array.prototype.map.call(document.querySelectorAll('table.standings thead th'), function (th) { return th.textContent.trim(); });
  var col = heads.indexOf('Bulls');
  var rows = Array.prototype.filter.call(document.querySelectorAll('table.standings tbody tr'), function (tr) { return tr.textContent.indexOf(name) !== -1; });
  return rows.length && col >= 0 ? rows[0].children[col].textContent.trim() : null;
})(%s)"""


def bullseyes_shown(page, name: str) -> str | None:
    return page.evaluate(BULLSEYES_JS % json.dumps(name))


def wait_until(page, expression: str, timeout: float = TIMEOUT / 1000) -> None:
    """Poll a JavaScript expression until it is true, one page.evaluate per poll.

    Not page.wait_for_function: under our CSP (no 'unsafe-eval') it throws EvalError as soon as it has to
    poll, so it fails only when the page is slower than the first check (test_tablet_pages.py pins this).
    """
    import time

    deadline = time.monotonic() + timeout
    while not page.evaluate(expression):
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {expression}")
        page.wait_for_timeout(50)


def wait_sent(page) -> None:
    wait_until(page, "JSON.parse(localStorage.getItem('hangjack.queue') || '[]').length === 0")


def answer_slowly(monkeypatch, view_class, method: str, seconds: float = 0.5) -> None:
    """The live server answers this API view ``seconds`` late (a busy server): the delay is in the
    server's thread, so the browser and the test go on meanwhile."""
    import time

    original = getattr(view_class, method)

    def slow(self, request, *args, **kwargs):
        time.sleep(seconds)
        return original(self, request, *args, **kwargs)

    monkeypatch.setattr(view_class, method, slow)


def active_hands(board) -> list[tuple[int, int]]:
    from tournaments.models import Hand

    return list(
        Hand.objects.filter(game__board=board, status=Hand.Status.ACTIVE).order_by("game__number", "number")
        .values_list("game__number", "number")
    )


def simulated(seed: int, first_dealer: int = 0):
    from scoring.simulate import simulate_game

    return simulate_game("trinidad-tournament", seed=seed, first_dealer=first_dealer)


# ---- the tests ----------------------------------------------------------------------------------------


def test_scorer_enters_a_whole_game_both_pairs_confirm_and_standings_show_it(page, context, live_server, event):
    from tournaments.models import Board, Game

    board = Board.objects.get(round__tournament=event, table=1)
    pair_tablet(page, live_server, event)
    check_axe(page, "tablet-seating")
    shoot(page, "tablet-seating")
    seat(page, first_dealer=0)
    game = simulated(13)
    for i, rec in enumerate(game.tally_hands):
        fill_hand(page, rec)
        if i == 0:
            check_axe(page, "tablet-hand-entry")
            shoot(page, "tablet-hand-entry")
        reading = send_hand(page)
        if i == 0:
            assert re.search(r"(Kick|High|Low|Game|Gave one)", reading)
        wait_sent(page)
    stored = Game.objects.get(board=board, number=1)
    assert stored.status == Game.Status.FINISHED and stored.winner == game.winner
    assert list(stored.score) == list(game.score)

    # The standings page is open before the confirmations: it must update itself (no reload).
    standings = context.new_page()
    standings.goto(f"{live_server.url}/t/{event.slug}/standings/")
    winner = board.pair_a if game.winner == 0 else board.pair_b
    assert bullseyes_shown(standings, winner.pair.display_name) in (None, "0")

    page.wait_for_selector("#confirm-panel:not([hidden])")
    shoot(page, "tablet-confirm")
    page.get_by_role("button", name=re.compile(r"Pair A .*confirm game 1")).click()
    wait_sent(page)
    page.get_by_role("button", name=re.compile(r"Pair B .*confirm game 1")).click()
    wait_sent(page)
    stored.refresh_from_db()
    assert stored.confirmed
    page.wait_for_selector("#confirm-panel", state="hidden")

    wait_until(standings, BULLSEYES_JS % json.dumps(winner.pair.display_name) + " === '1'", timeout=15)
    assert "confirmed games only" in standings.inner_text("#standings-caption")
    assert standings.locator("aside.inplay").inner_text().count("Table 1") == 1  # still in play: game 2 next
    check_axe(standings, "public-standings")
    shoot(standings, "public-standings")
    board_page = context.new_page()
    board_page.goto(f"{live_server.url}/t/{event.slug}/boards/{board.id}/")
    assert "bullseye to " + "AB"[game.winner] in board_page.inner_text("main")
    check_axe(board_page, "public-scorecard")
    shoot(board_page, "public-scorecard")


def test_hands_queued_offline_arrive_once_in_order(page, context, live_server, event, monkeypatch):
    from tournaments.models import Board, IdempotencyRecord

    board = Board.objects.get(round__tournament=event, table=1)
    pair_tablet(page, live_server, event)
    seat(page, first_dealer=0)
    hands = simulated(0).tally_hands
    fill_hand(page, hands[0])
    send_hand(page)
    wait_sent(page)
    assert active_hands(board) == [(1, 1)]

    context.set_offline(True)
    for rec in hands[1:3]:
        fill_hand(page, rec)
        reading = send_hand(page, expect_engine=False)
        assert "As entered" in reading
    page.wait_for_selector("#queue-panel:not([hidden])")
    assert page.locator("#queue-list li").count() == 2
    assert "Offline" in page.inner_text("#net")
    shoot(page, "tablet-offline-queue")
    assert active_hands(board) == [(1, 1)]  # nothing reached the server

    # The board is read again slowly once the queue has emptied (a busy server): the undo below must
    # still name hand 3, the last one sent, not the last hand the tablet had read (it did, and was refused).
    from api.views.tablet import CurrentBoardView

    answer_slowly(monkeypatch, CurrentBoardView, "get")
    context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")
    wait_sent(page)
    assert active_hands(board) == [(1, 1), (1, 2), (1, 3)]
    assert IdempotencyRecord.objects.filter(device__table=1).count() == 4  # seating + three hands, once each
    wait_until(page, "document.querySelector('#net').textContent.indexOf('Online') === 0")

    # Undo takes two taps and voids exactly the last hand.
    page.click("#undo")
    page.click("#undo")
    wait_sent(page)
    assert active_hands(board) == [(1, 1), (1, 2)]


def test_an_invalid_hand_shows_the_engines_sentence_at_the_field(page, context, live_server, event, monkeypatch):
    from tournaments.models import Board

    board = Board.objects.get(round__tournament=event, table=1)
    pair_tablet(page, live_server, event)
    seat(page, first_dealer=0)
    # One trump (K♥) cannot be High for A and Low for B.
    fill_hand(page, {"dealer": 0, "kicks": ["9H"], "beg": "stand", "high": {"side": 0, "card": "KH"},
                     "low": {"side": 1, "card": "KH"}, "jack": None, "game": [30, 20]})
    page.click("#check")
    error = page.locator('[data-field="hand.low"] .field-error')
    error.wait_for()
    assert "KH" in error.inner_text()
    assert page.locator("#send").is_disabled()
    check_axe(page, "tablet-invalid-hand")
    shoot(page, "tablet-invalid-hand")
    assert active_hands(board) == []

    # Offline nothing can check it: it is queued with a valid hand behind it. Back online the server
    # refuses it, the queue stops there, and the scorer fixes it; then both go, in order.
    context.set_offline(True)
    send_hand(page, expect_engine=False)
    fill_hand(page, simulated(0, first_dealer=1).tally_hands[0])
    send_hand(page, expect_engine=False)
    context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")
    page.wait_for_selector("#refused:not([hidden])")
    assert "KH" in page.inner_text("#refused-text")
    assert page.locator("#queue-list li").count() == 2
    assert active_hands(board) == []
    page.click("#refused-fix")
    page.locator('[data-field="hand.low"] .field-error').wait_for()
    page.click("label[for=lows-0]")
    page.click("label[for=lowr-2]")
    # The engine takes a moment to answer the check of the fixed hand: the refusal being fixed must not
    # stand beside it meanwhile as if it were the answer (it did, and this test failed now and then).
    from api.views.tablet import PreviewView

    answer_slowly(monkeypatch, PreviewView, "post")
    send_hand(page)
    wait_sent(page)
    assert active_hands(board) == [(1, 1), (1, 2)]


def test_card_by_card_marks_an_illegal_card_and_a_second_tap_records_the_renege(page, live_server, event):
    from scoring.simulate import simulate_game
    from tournaments.models import Board, Hand

    board = Board.objects.get(round__tournament=event, table=1)
    pair_tablet(page, live_server, event)
    seat(page, first_dealer=0)
    hand = simulate_game("trinidad-tournament", seed=29, first_dealer=0, renege_rate=0.08).hands[0]
    rec = hand.play  # kicks AH then QD (ran the pack), one renege by side B
    for i, card in enumerate(rec["kicks"]):
        if i == 1:
            page.click("label[for=beg-run]")
        page.click(f"label[for=k{i}r-{rank(card)}]")
        page.click(f"label[for=k{i}s-{card[-1]}]")
    page.click("label[for=mode-cards]")
    for seat_no in range(4):
        held = rec["deal"][seat_no] + [c for run in rec.get("runs", []) for c in run[seat_no]]
        page.click(f"label[for=seatedit-{seat_no}]")
        for card in held:
            page.click(f"#hold-{card}")
    reneges = 0
    for trick in rec["tricks"]:
        for card in trick:
            button = page.locator(f"#play-{card}")
            if "illegal" in (button.get_attribute("class") or ""):
                reneges += 1
                button.click()  # the first tap only warns
                assert "armed" in (page.locator(f"#play-{card}").get_attribute("class") or "")
                if reneges == 1:
                    shoot(page, "tablet-card-by-card")
            page.locator(f"#play-{card}").click()
    assert reneges == 1
    reading = send_hand(page)
    assert "Renege by B" in reading
    wait_sent(page)
    stored = Hand.objects.get(game__board=board, number=1)
    assert stored.form == "play"
    assert [e["kind"] for e in stored.events] == [e.kind for e in hand.result.events]
    assert list(stored.score_after) == list(hand.score)


def test_organiser_starts_a_round_and_the_pairings_page_shows_it(page, context, live_server):
    from django.contrib.auth.models import User

    from tournaments.models import Round, TournamentRole

    from .factories import make_tournament

    t = make_tournament(pairs=4, name="Console Cup")
    User.objects.create_user("boss", password="pw-boss-1")
    TournamentRole.objects.create(tournament=t, user=User.objects.get(username="boss"))
    page.goto(f"{live_server.url}/console/t/{t.slug}/")
    page.wait_for_url(re.compile(r"/accounts/login/"))
    check_axe(page, "login")
    page.fill("#id_username", "boss")
    page.fill("#id_password", "pw-boss-1")
    page.click("form.stack button[type=submit]")
    page.wait_for_url(re.compile(rf"/console/t/{t.slug}/$"))
    page.get_by_role("button", name="Pair round 1").click()
    page.get_by_role("button", name="Publish and start round 1").click()
    page.wait_for_selector("text=Round 1 published and in play.")
    assert Round.objects.get(tournament=t, number=1).status == Round.Status.IN_PLAY
    check_axe(page, "console")
    shoot(page, "console")

    public = context.new_page()
    public.goto(f"{live_server.url}/t/{t.slug}/rounds/1/")
    body = public.inner_text("main")
    assert "Round 1 pairings" in body
    for entry in t.entries.all():
        assert entry.pair.display_name in body
    public.fill("#q", "Persad")
    wait_until(public, "document.querySelectorAll('#pairings-body [data-search]:not([hidden])').length === 1")
    check_axe(public, "public-pairings")
    shoot(public, "public-pairings")


def test_public_pages_pass_axe(page, live_server, event):
    for name, path in [("public-home", "/"), ("public-tournament", f"/t/{event.slug}/"),
                       ("public-stats", f"/t/{event.slug}/stats/"), ("tablet-pair", "/tablet/pair/")]:
        page.goto(live_server.url + path)
        check_axe(page, name)
        shoot(page, name)


def test_organiser_corrects_a_hand_with_the_tally_form(page, live_server):
    """The console's correction form: the engine's refusal next to the field, then the fixed hand saved."""
    from django.contrib.auth.models import User

    from tests.tournaments.factories import make_board, submit, tally
    from tournaments.models import Hand, TournamentRole

    board = make_board()
    submit(board, tally(0, to=0))
    User.objects.create_user("fixer", password="pw-fixer-1")
    TournamentRole.objects.create(tournament=board.round.tournament, user=User.objects.get(username="fixer"))
    hand = Hand.objects.get(game__board=board, number=1)
    page.goto(f"{live_server.url}/console/t/{board.round.tournament.slug}/boards/{board.pk}/")
    page.fill("#id_username", "fixer")
    page.fill("#id_password", "pw-fixer-1")
    page.click("form.stack button[type=submit]")
    page.click(f"#fix-{hand.pk} summary")
    page.fill(f"#id_hand{hand.pk}-high_card", "QH")
    page.fill(f"#id_hand{hand.pk}-low_card", "KH")  # the organiser typed them the wrong way round
    page.click(f"#fix-{hand.pk} button[value=correct_hand]")
    error = page.locator(f"#id_hand{hand.pk}-low_card_error")
    error.wait_for()
    assert "KH cannot be Low" in error.inner_text()
    check_axe(page, "console-correction")
    shoot(page, "console-correction")
    page.fill(f"#id_hand{hand.pk}-high_card", "AH")
    page.fill(f"#id_hand{hand.pk}-low_card", "2H")
    page.fill(f"#id_hand{hand.pk}-game_a", "20")  # and the counts for game were the other way round too
    page.fill(f"#id_hand{hand.pk}-game_b", "40")
    page.click(f"#fix-{hand.pk} button[value=correct_hand]")
    page.wait_for_selector("text=Hand 1 of game 1 corrected (version 2).")
    corrected = Hand.objects.get(game__board=board, number=1, status="active")
    assert corrected.record["game"] == [20, 40] and corrected.record["high"] == {"side": 0, "card": "AH"}


def test_club_team_pages_pass_axe(page, live_server, league):
    t = league["tournament"]
    for name, path in [("public-team-pairings", f"/t/{t.slug}/rounds/2/"),
                       ("public-team-standings", f"/t/{t.slug}/standings/"), ("public-team-tournament", f"/t/{t.slug}/")]:
        page.goto(live_server.url + path)
        check_axe(page, name)
        shoot(page, name)
