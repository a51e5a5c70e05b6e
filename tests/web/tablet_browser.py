"""Shared by the tablet's browser tests (issue 16): the browser, a small event, pairing, entering hands,
and the checks every tablet state must pass.

The scorer's view is read from the page (what is visible and enabled), the server's from the database
through the ORM (the live server runs in this process, in its own thread).
"""

from __future__ import annotations

import json
import os
import re
import time
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import chromium_path

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

ROOT = Path(__file__).resolve().parents[2]
LAUNCH_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]
TIMEOUT = 10_000


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=chromium_path(), args=LAUNCH_ARGS)
        yield b
        b.close()


def new_page(browser: Any, width: int = 820, height: int = 1180) -> tuple[Any, Any, list[str]]:
    """A fresh context (its own storage and service workers) and page; JavaScript errors are collected."""
    ctx = browser.new_context(viewport={"width": width, "height": height}, device_scale_factor=1)
    ctx.set_default_timeout(TIMEOUT)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    return ctx, page, errors


def small_event(pairs: int = 4, name: str = "Tablet Open") -> Any:
    """A published Swiss of ``pairs`` pairs, round 1 in play (pairs/2 boards), with its organiser."""
    from django.contrib.auth.models import User

    from tournaments import services
    from tournaments.models import TournamentRole

    from .factories import make_tournament

    t = make_tournament(pairs=pairs, name=name)
    r = services.round_create(tournament=t)
    services.round_pair_rotation(r)
    services.round_publish(round=r)
    services.round_start_play(round=r)
    user = User.objects.create_user(f"organiser-{t.pk}", password="pw-organiser-1")
    TournamentRole.objects.create(tournament=t, user=user)
    t.organiser_user = user
    return t


def pairing_code(tournament: Any, table: int = 1) -> str:
    from tournaments.services.devices import pairing_code_create

    _, code = pairing_code_create(tournament=tournament, table=table, user=None)
    return code


def pair_tablet(page: Any, live_server: Any, tournament: Any, table: int = 1) -> None:
    page.goto(f"{live_server.url}/tablet/pair/{pairing_code(tournament, table)}")
    page.wait_for_url(re.compile(r"/tablet/$"))
    wait_until(page, "document.getElementById('app').getAttribute('data-page') !== 'loading'")


def wait_until(page: Any, expression: str, timeout: float = TIMEOUT / 1000) -> None:
    """Poll a JavaScript expression (one evaluate per poll: wait_for_function breaks under our CSP)."""
    deadline = time.monotonic() + timeout
    while not page.evaluate(expression):
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {expression}")
        page.wait_for_timeout(50)


def state(page: Any) -> dict[str, str]:
    return page.evaluate("(function (a) { return {page: a.getAttribute('data-page'), entry: a.getAttribute('data-entry'),"
                         " queue: a.getAttribute('data-queue')}; })(document.getElementById('app'))")


def queue(page: Any) -> list[dict[str, Any]]:
    return page.evaluate("JSON.parse(localStorage.getItem('hangjack.queue') || '[]')")


def wait_sent(page: Any, timeout: float = TIMEOUT / 1000) -> None:
    wait_until(page, "JSON.parse(localStorage.getItem('hangjack.queue') || '[]').length === 0", timeout)


def go_online(page: Any, context: Any) -> None:
    context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")


def go_offline(page: Any, context: Any) -> None:
    context.set_offline(True)
    page.evaluate("window.dispatchEvent(new Event('offline'))")


def wait_for_shell(page: Any) -> None:
    """The service worker controls the page: it activates (clients.claim) only once its install has put
    every shell file in its cache, so from here a reload works with no network."""
    wait_until(page, "!!(navigator.serviceWorker && navigator.serviceWorker.controller)", timeout=15)


def seat(page: Any, first_dealer: int = 0) -> None:
    page.wait_for_selector("#seating-panel:not([hidden])")
    page.click(f"label[for=fd-{first_dealer}]")
    page.click("#seating-form button[type=submit]")
    page.wait_for_selector("#hand-form:not([hidden])")


def rank(card: str) -> str:
    return card[:-1]


def fill_hand(page: Any, rec: dict[str, Any]) -> None:
    """Enter a tally-form hand as a scorer does, tap by tap."""
    if rec.get("misdeal"):
        page.click("label[for=misdeal-yes]")
        return
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
        jack = rec.get("jack")
        if page.locator("label[for=jack-none]").count():
            choice = ("none" if jack is None else "ab"[jack["won_by"]] if jack["held_by"] == jack["won_by"]
                      else "hang_" + "ab"[jack["won_by"]])
            page.click(f"label[for=jack-{choice}]")
    page.fill("#game-0", str(rec["game"][0]))
    page.fill("#game-1", str(rec["game"][1]))


def check_and_send(page: Any, *, engine: bool = True) -> str:
    """Check, wait for the reading beside an enabled Send, send; returns the reading."""
    page.click("#check")
    page.wait_for_selector("#send:not([disabled]), #hand-form .field-error:not([hidden])")
    errors = page.locator("#hand-form .field-error:not([hidden])")
    assert not errors.count(), "refused: " + " | ".join(errors.all_inner_texts())
    reading = page.inner_text("#reading")
    assert ("Engine's reading" in reading) is engine, reading
    page.click("#send")
    return reading


#: A hand of a standing beg to side ``to`` (High A♥, Low 2♥, Game), counts 40-20.
def plain_hand(dealer: int, to: int = 0, counts: tuple[int, int] | None = None) -> dict[str, Any]:
    return {"dealer": dealer, "kicks": ["9H"], "beg": "stand", "high": {"side": to, "card": "AH"},
            "low": {"side": to, "card": "2H"}, "jack": None,
            "game": list(counts) if counts else ([40, 20] if to == 0 else [20, 40])}


def simulated(seed: int, first_dealer: int = 0):
    from scoring.simulate import simulate_game

    return simulate_game("trinidad-tournament", seed=seed, first_dealer=first_dealer)


def active_hands(board: Any) -> list[tuple[int, int]]:
    from tournaments.models import Hand

    return list(Hand.objects.filter(game__board=board, status=Hand.Status.ACTIVE).order_by("game__number", "number")
                .values_list("game__number", "number"))


#: The page's own account of what it offers: visible enabled controls, and visible waiting messages.
OFFERS_JS = """(function () {
  function shown(el) { return !!(el.offsetWidth || el.offsetHeight || el.getClientRects().length) &&
                       getComputedStyle(el).visibility !== 'hidden'; }
  var app = document.getElementById('app');
  var actions = Array.prototype.filter.call(app.querySelectorAll('button, a[href], input, select, textarea, summary'),
    function (el) { return !el.disabled && shown(el) && (el.tagName !== 'INPUT' || el.type !== 'hidden'); })
    .map(function (el) { return (el.id || el.tagName) + ':' + (el.textContent || el.value || '').trim().slice(0, 40); });
  var waiting = Array.prototype.filter.call(app.querySelectorAll('[data-waiting]'), shown)
    .map(function (el) { return el.textContent.trim(); }).filter(function (t) { return t.length > 12; });
  return {actions: actions, waiting: waiting, text: app.innerText.trim().slice(0, 400)};
})()"""


def assert_never_stuck(page: Any, where: str = "") -> dict[str, Any]:
    """Every state shows at least one enabled action or a waiting message that says why."""
    offers = page.evaluate(OFFERS_JS)
    assert offers["actions"] or offers["waiting"], f"{where}: nothing to do and no reason given: {offers['text']!r}"
    assert offers["text"], f"{where}: a blank screen"
    return offers


def shots_folder(name: str) -> Path:
    keep = os.environ.get("KEEP_SCREENSHOTS")
    folder = ROOT / ("docs/screenshots/tablet" if keep else f"test-artifacts/{name}")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def json_of(value: Any) -> str:
    return json.dumps(value, sort_keys=True)


def finish_game(board: Any, to: int = 0) -> int:
    """Play the board's current game to its end through the services, side ``to`` taking every hand;
    returns the game's number."""
    from tests.tournaments.factories import current_game, submit, tally

    game = current_game(board)
    number = game.number
    for _ in range(20):
        hand = submit(board, tally(current_game(board).next_dealer, to))
        if hand.winner is not None:
            return number
    raise AssertionError("the game did not end")
