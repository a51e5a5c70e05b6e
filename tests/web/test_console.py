"""The organisers' console through the test client: login, roles on every object, CSRF, prints, CSV."""

from __future__ import annotations

import csv
import io

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from tournaments.models import Board, Device, PairingCode, Round, TournamentRole

from .factories import finish_board, make_round, make_snapshot, make_tournament, play_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def event():
    t = make_tournament(pairs=4)
    r1 = make_round(t, 1, Round.Status.CLOSED)
    for i, b in enumerate(r1.boards.all(), 1):
        finish_board(b, seed=i)
    make_snapshot(t, 1)
    r2 = make_round(t, 2, Round.Status.IN_PLAY)
    b = r2.boards.get(table=1)
    play_game(b, 1, seed=4, hands=2)
    b.help_called = True
    b.save()
    return t


@pytest.fixture
def organiser(event):
    user = User.objects.create_user("org", password="pw-organiser-1")
    TournamentRole.objects.create(tournament=event, user=user)
    return user


@pytest.fixture
def org_client(organiser):
    c = Client()
    c.force_login(organiser)
    return c


def url(name, *args):
    return reverse(f"web:{name}", args=args)


def test_console_needs_login(client, event):
    response = client.get(url("console_tournament", event.slug))
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/")


def test_login_page_renders_and_signs_in(client, organiser):
    page = client.get("/accounts/login/")
    assert page.status_code == 200 and "csrfmiddlewaretoken" in page.content.decode()
    response = client.post("/accounts/login/", {"username": "org", "password": "pw-organiser-1"})
    assert response.status_code == 302 and response["Location"] == "/console/"


def test_organiser_of_another_tournament_is_refused(event):
    other = make_tournament(name="Other Cup")
    user = User.objects.create_user("stranger", password="x")
    TournamentRole.objects.create(tournament=other, user=user)
    c = Client()
    c.force_login(user)
    assert c.get(url("console_tournament", event.slug)).status_code == 403
    board = Board.objects.filter(round__tournament=event).first()
    assert c.get(url("console_board", event.slug, board.id)).status_code == 403
    assert c.get(url("console_export_results", event.slug)).status_code == 403
    index = c.get(url("console")).content.decode()
    assert other.name in index and event.name not in index


def test_dashboard_shows_every_board_live_and_who_needs_help(org_client, event):
    body = org_client.get(url("console_tournament", event.slug)).content.decode()
    assert "Round 2: every board, live" in body
    assert "help called" in body and "Needs you" in body
    assert "Close round 2" in body
    live = org_client.get(url("console_live", event.slug))
    assert live.status_code == 200 and "<html" not in live.content.decode()


def test_every_console_form_carries_csrf(org_client, event):
    board = Board.objects.get(round__tournament=event, round__number=2, table=1)
    for page in (url("console_tournament", event.slug), url("console_board", event.slug, board.id),
                 url("console_devices", event.slug)):
        body = org_client.get(page).content.decode()
        forms = body.count("<form")
        assert forms and body.count("csrfmiddlewaretoken") == forms, page


def test_actions_refuse_without_csrf_token(organiser, event):
    c = Client(enforce_csrf_checks=True)
    c.force_login(organiser)
    response = c.post(url("console_round_action", event.slug, 2), {"action": "close"})
    assert response.status_code == 403


def test_actions_are_post_only(org_client, event):
    assert org_client.get(url("console_round_action", event.slug, 2)).status_code == 405


def test_pairing_codes_print_with_qr_and_no_token(org_client, event):
    response = org_client.post(url("console_pairing_codes", event.slug), {"tables": "1-2"})
    body = response.content.decode()
    assert response.status_code == 200
    assert body.count("<svg") >= 2 and "/tablet/pair/" in body
    assert PairingCode.objects.filter(tournament=event).count() == 2
    assert response["Cache-Control"].startswith("no-store") or "no-store" in response["Cache-Control"]


def test_revoke_device(org_client, event):
    from tournaments.services.devices import device_pair, pairing_code_create

    _, code = pairing_code_create(tournament=event, table=1, user=None)
    device, _ = device_pair(code=code)
    page = org_client.get(url("console_devices", event.slug)).content.decode()
    assert "Revoke" in page
    org_client.post(url("console_revoke_device", event.slug, device.id))
    device.refresh_from_db()
    assert device.revoked_at is not None


def test_print_pages(org_client, event):
    for page in (url("console_print_pairings", event.slug, 2), url("console_print_standings", event.slug),
                 url("console_print_scoresheets", event.slug, 1)):
        response = org_client.get(page)
        assert response.status_code == 200, page
        assert "print.css" in response.content.decode()


def test_csv_exports(org_client, event):
    standings = org_client.get(url("console_export_standings", event.slug))
    assert standings["Content-Type"].startswith("text/csv")
    rows = list(csv.reader(io.StringIO(standings.content.decode("utf-8-sig"))))
    assert rows[0][:4] == ["rank", "pair", "players", "club"]
    assert len(rows) == 1 + event.entries.count()
    results = org_client.get(url("console_export_results", event.slug))
    rows = list(csv.reader(io.StringIO(results.content.decode("utf-8-sig"))))
    assert rows[0][0] == "round" and len(rows) > 2
    assert {r[0] for r in rows[1:]} == {"1", "2"}


def test_board_console_lists_hands_with_correct_and_void(org_client, event):
    board = Board.objects.get(round__tournament=event, round__number=1, table=1)
    body = org_client.get(url("console_board", event.slug, board.id)).content.decode()
    assert "Correct or void hand 1" in body and "Void this hand" in body


def test_no_device_token_in_console_pages(org_client, event):
    Device.objects.create(tournament=event, table=1, token_digest="d" * 64, token_prefix="abcdefgh")
    body = org_client.get(url("console_devices", event.slug)).content.decode()
    assert "d" * 64 not in body
