"""The tablet's two shells and the rules every page keeps: no inline script (CSP), no secret in a URL."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from tournaments.models import Round

from .factories import make_round, make_snapshot, make_tournament, play_game

pytestmark = pytest.mark.django_db

INLINE_SCRIPT = re.compile(r"<script(?![^>]*\bsrc=)[^>]*>", re.I)
INLINE_HANDLER = re.compile(r"\son[a-z]+\s*=", re.I)


def test_tablet_page_is_a_shell_wired_to_the_api(client):
    response = client.get(reverse("web:tablet"))
    body = response.content.decode()
    assert response.status_code == 200
    assert 'data-api-board="/api/v1/tablet/board/"' in body
    assert 'data-api-hands="/api/v1/tablet/boards/{id}/hands/"' in body
    assert 'data-api-preview="/api/v1/tablet/boards/{id}/preview/"' in body
    assert "no-store" in response["Cache-Control"]
    assert response["Referrer-Policy"] == "no-referrer"
    assert "/static/js/tablet.js" in body


def test_pairing_page_never_echoes_the_code_nor_leaks_it_as_a_referer(client):
    code = "7KQ2M9XD4R"
    response = client.get(reverse("web:tablet_pair", args=[code]))
    body = response.content.decode()
    assert response.status_code == 200
    assert code not in body
    assert response["Referrer-Policy"] == "no-referrer"
    assert '<meta name="referrer" content="no-referrer">' in body
    assert "no-store" in response["Cache-Control"]
    assert 'data-api-pair="/api/v1/tablet/pair/"' in body
    # The form to type a code lives at the address the script moves to.
    assert client.get(reverse("web:tablet_pair_form")).status_code == 200


def test_no_page_has_inline_script_or_handlers(client):
    """script-src 'self': every script is a static file, no inline <script> and no on*= attribute."""
    t = make_tournament()
    make_round(t, 1, Round.Status.IN_PLAY)
    board = t.rounds.get(number=1).boards.first()
    play_game(board, 1, seed=2, hands=2)
    make_snapshot(t)
    entry = t.entries.first()
    pages = [
        "/", f"/t/{t.slug}/", f"/t/{t.slug}/standings/", f"/t/{t.slug}/standings/live/", f"/t/{t.slug}/rounds/",
        f"/t/{t.slug}/rounds/1/", f"/t/{t.slug}/boards/{board.id}/", f"/t/{t.slug}/pairs/{entry.id}/",
        f"/t/{t.slug}/clubs/", f"/t/{t.slug}/stats/", "/tablet/", "/tablet/pair/", "/accounts/login/",
    ]
    for path in pages:
        response = client.get(path)
        assert response.status_code == 200, path
        body = response.content.decode()
        assert not INLINE_SCRIPT.search(body), path
        assert not INLINE_HANDLER.search(body), path
        assert "script-src 'self'" in response["Content-Security-Policy"], path


def test_browser_tests_poll_without_eval():
    """Under our CSP (script-src 'self', no 'unsafe-eval') Playwright's wait_for_function passes when its
    predicate is already true at the first check and throws EvalError ("'unsafe-eval' is not an allowed
    source") when it has to poll: a failure that comes and goes with timing. Browser tests poll with
    ``wait_until`` (one page.evaluate per poll) instead; the app itself never evaluates strings."""
    from pathlib import Path

    banned = "wait_for" + "_function("
    for path in Path(__file__).parent.glob("*.py"):
        assert banned not in path.read_text(), f"{path.name}: use wait_until, not {banned[:-1]}"
    for path in (Path(__file__).parents[2] / "static" / "js").glob("*.js"):
        source = path.read_text()
        assert "eval(" not in source and "new Function" not in source, path.name
