"""Issue 16 in Chromium: "help calls make no sound and raise no notification" in the console.

The console's live board list (static/js/console-alerts.js over static/js/live.js's polling) now plays a
short chime made with the Web Audio API and, when the organiser allowed notifications, raises one naming
the table, for each help call or dispute that arrives while the page is open. Window.Notification and
AudioContext are stubbed in the page so the test sees the calls (a headless browser has no speaker).
"""

from __future__ import annotations

from typing import Any

import pytest

from .tablet_browser import browser, finish_game, new_page, wait_until  # noqa: F401 (browser is a fixture)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

STUBS = """
window.__calls = {notifications: [], tones: 0, permissionAsked: 0};
window.Notification = function (title, options) { window.__calls.notifications.push({title: title, body: options && options.body}); };
window.Notification.permission = "default";
window.Notification.requestPermission = function () {
  window.__calls.permissionAsked += 1; window.Notification.permission = "granted"; return Promise.resolve("granted");
};
window.AudioContext = function () {
  this.state = "running"; this.currentTime = 0; this.destination = {};
  this.resume = function () {};
  this.createGain = function () { return {gain: {setValueAtTime: function () {}, exponentialRampToValueAtTime: function () {}}, connect: function () {}}; };
  this.createOscillator = function () {
    return {frequency: {}, connect: function () {}, start: function () { window.__calls.tones += 1; }, stop: function () {}};
  };
};
"""


def calls(page: Any) -> dict[str, Any]:
    return page.evaluate("window.__calls")


def test_help_calls_and_disputes_make_a_sound_and_raise_a_notification_in_the_console(browser, live_server):  # noqa: F811
    from django.contrib.auth.models import User

    from tests.tournaments.factories import make_board
    from tournaments.models import Game, TournamentRole
    from tournaments.services import board_call_help, game_confirm

    board = make_board()
    user = User.objects.create_user("watcher", password="pw-watch-1")
    TournamentRole.objects.create(tournament=board.round.tournament, user=user)
    ctx, page, errors = new_page(browser, 1280, 900)
    ctx.add_init_script(STUBS)
    try:
        page.goto(f"{live_server.url}/console/t/{board.round.tournament.slug}/")
        page.fill("#id_username", "watcher")
        page.fill("#id_password", "pw-watch-1")
        page.click("form.stack button[type=submit]")
        button = page.locator("#alerts-on")
        # The login redirects to the console, whose script then unhides the control: wait for both rather
        # than look once (under CI's load the look came before the script ran).
        button.wait_for(state="visible", timeout=15_000)
        assert button.is_visible()  # the visible button that allows notifications (and sound)
        button.click()
        wait_until(page, "window.Notification.permission === 'granted'")
        assert calls(page)["permissionAsked"] == 1
        wait_until(page, "document.getElementById('alerts-state').textContent.indexOf('Notifications on') !== -1")
        before = calls(page)
        assert before["notifications"] == []  # nothing to announce yet (the button's sample chime only)

        board_call_help(board=board, user=user)  # a table calls: the live list shows it within a poll
        wait_until(page, "window.__calls.notifications.length > 0", timeout=20)
        after = calls(page)
        assert after["notifications"] == [{"title": "Hang Jack console",
                                           "body": f"Table {board.table} is calling for the organiser."}]
        assert after["tones"] >= before["tones"] + 2  # the two-tone chime
        page.wait_for_timeout(6_000)  # a later refresh with the same call announces nothing again
        assert len(calls(page)["notifications"]) == 1

        # A pair refuses a finished game: the dispute is announced too (the help call, still up, is not again).
        number = finish_game(board)
        game_confirm(game=Game.objects.get(board=board, number=number), party="b", agrees=False,
                     reason="Low was ours", user=user)
        wait_until(page, "window.__calls.notifications.length > 1", timeout=20)
        assert calls(page)["notifications"][1:] == [{"title": "Hang Jack console",
                                                     "body": f"Table {board.table}: a result is disputed."}]
        assert not errors, errors
    finally:
        ctx.close()
