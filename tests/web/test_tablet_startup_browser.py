"""The tablet's start-up in Chromium: one board-state request and one icon request, and the conditional
board read (If-None-Match, 304) keeping the board on screen.

Before: start-up read the board, then sent the (empty) queue, whose "emptied" step read the board again;
and the 192 px icon was fetched by the page's icon link and again by the service worker's install (which
downloaded every shell file with ``cache: "reload"``). The page's requests are counted with
``page.on("request")``; the service worker's are seen on the context (``request.service_worker``).
"""

from __future__ import annotations

from typing import Any

import pytest

from .tablet_browser import (
    browser,  # noqa: F401 (a fixture)
    new_page,
    pair_tablet,
    seat,
    small_event,
    wait_sent,
    wait_until,
)

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

BOARD = "/api/v1/tablet/board/"


def fresh_load(browser: Any, live_server: Any, device: str, *, keep_board: str | None = None) -> tuple[Any, Any, list[Any], list[str]]:  # noqa: F811
    """A new context (no HTTP cache, no service worker) holding only the device token (and, if given, the
    board state kept by an earlier load); every request the page makes on loading /tablet/ is recorded."""
    ctx, page, errors = new_page(browser, 1024, 768)
    page.goto(f"{live_server.url}/tablet/pair/")  # an empty origin: nothing cached
    # the pairing page's own icon read comes after its load event (Chromium fetches an icon late); it must
    # not be counted as the board page's, so the page settles before anything is recorded
    page.wait_for_load_state("networkidle")
    page.evaluate("(d) => localStorage.setItem('hangjack.device', d)", device)
    if keep_board is not None:
        page.evaluate("(b) => localStorage.setItem('hangjack.board', b)", keep_board)
    requests: list[Any] = []
    page.on("request", lambda r: requests.append(r))
    ctx.on("request", lambda r: requests.append(r) if r.service_worker is not None else None)
    page.goto(f"{live_server.url}/tablet/")
    wait_until(page, "document.getElementById('app').getAttribute('data-page') === 'board'")
    page.wait_for_timeout(2500)  # anything start-up would still fetch (the service worker's install too)
    return ctx, page, from_board_page(requests, live_server.url), errors


def from_board_page(requests: list[Any], origin: str) -> list[Any]:
    """The requests from the navigation to /tablet/ onward: a late read of the page before (seen in CI's
    Chromium 156, whose pairing page's icon request landed after the listener was set) is not start-up's."""
    for i, r in enumerate(requests):
        if r.url == f"{origin}/tablet/" and r.is_navigation_request():
            return requests[i:]
    return requests


def paired(browser: Any, live_server: Any) -> tuple[Any, Any, str]:  # noqa: F811
    ctx, page, errors = new_page(browser, 1024, 768)
    event = small_event(name="Startup Open")
    pair_tablet(page, live_server, event)
    seat(page)
    wait_sent(page)
    # the read after the seating was sent: the state kept now carries the read's ETag
    wait_until(page, "(JSON.parse(localStorage.getItem('hangjack.board') || '{}') || {}).etag")
    assert not errors, errors
    return ctx, page, page.evaluate("localStorage.getItem('hangjack.device')")


def test_start_up_reads_the_board_once_and_the_icon_once(browser, live_server):  # noqa: F811
    ctx, page, device = paired(browser, live_server)
    try:
        fresh, tab, requests, errors = fresh_load(browser, live_server, device)
        urls = [r.url.replace(live_server.url, "") for r in requests]
        board_reads = [u for u in urls if u == BOARD]
        icons = [u for u in urls if "/tablet/icon-" in u]
        assert len(board_reads) == 1, " ".join(urls)
        assert len(icons) == 1, " ".join(urls)
        fresh.close()
        assert not errors, errors
    finally:
        ctx.close()


def test_an_unchanged_board_is_answered_304_and_stays_on_screen(browser, live_server):  # noqa: F811
    """The page sends the ETag of the board it keeps; an unchanged board costs a 304, the board stays."""
    ctx, page, device = paired(browser, live_server)
    try:
        kept = page.evaluate("localStorage.getItem('hangjack.board')")
        fresh, tab, requests, errors = fresh_load(browser, live_server, device, keep_board=kept)
        reads = [r for r in requests if r.url.endswith(BOARD)]
        assert len(reads) == 1
        assert reads[0].all_headers().get("if-none-match", "").startswith('W/"b'), reads[0].all_headers()
        assert reads[0].response().status == 304
        assert tab.is_visible("#hand-form")
        assert "Offline" not in tab.inner_text("#app")
        # a change on the server (a help call from the console's side) shows at the next poll: 200
        from tournaments.models import Board

        board = Board.objects.get(round__tournament__name="Startup Open", table=1)
        board.help_called = True
        board.save(update_fields=["help_called", "updated_at"])
        with tab.expect_response(lambda r: r.url.endswith(BOARD)) as answer:
            tab.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
        assert answer.value.status == 200
        fresh.close()
        assert not errors, errors
    finally:
        ctx.close()
