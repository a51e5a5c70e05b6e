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


# ---- actions through the real services ---------------------------------------------------------


@pytest.fixture
def served(organiser):
    """A fresh tournament the organiser runs, with no round yet (everything else goes through services)."""
    t = make_tournament(pairs=4, name="Service Cup")
    TournamentRole.objects.create(tournament=t, user=organiser)
    return t


def _messages(response) -> str:
    return " ".join(str(m) for m in response.context["messages"]) if response.context else ""


def test_pair_publish_and_start_a_round(org_client, served):
    r = org_client.post(url("console_round_action", served.slug, 1), {"action": "draft"}, follow=True)
    assert "Round 1 drafted" in _messages(r) and "started" not in _messages(r)  # a draft is not started (issue 17)
    assert Round.objects.get(tournament=served, number=1).boards.count() == 2
    r = org_client.post(url("console_round_action", served.slug, 1), {"action": "publish_start"}, follow=True)
    assert "published and in play" in _messages(r)
    assert Round.objects.get(tournament=served, number=1).status == Round.Status.IN_PLAY
    assert "Round 1 pairings" in org_client.get(url("pairings", served.slug, 1)).content.decode()


def test_the_draft_is_shown_and_tables_or_pairs_can_be_swapped_before_publishing(org_client, served):
    org_client.post(url("console_round_action", served.slug, 1), {"action": "draft"})
    page = org_client.get(url("console_tournament", served.slug)).content.decode()
    assert "Draft of round 1" in page and "Swap tables" in page
    before = dict(Board.objects.filter(round__tournament=served).values_list("table", "pair_a_id"))
    r = org_client.post(url("console_round_action", served.slug, 1),
                        {"action": "swap_tables", "table_a": 1, "table_b": 2}, follow=True)
    assert "tables 1 and 2 swapped" in _messages(r)
    after = dict(Board.objects.filter(round__tournament=served).values_list("table", "pair_a_id"))
    assert after[1] == before[2] and after[2] == before[1]
    assert "swapped tables 1 and 2" in r.content.decode()
    r = org_client.post(url("console_round_action", served.slug, 1),
                        {"action": "swap_tables", "table_a": 1, "table_b": 9}, follow=True)
    assert "no table 9" in _messages(r)


def test_a_refused_action_shows_the_services_sentence(org_client, served):
    org_client.post(url("console_round_action", served.slug, 1), {"action": "draft"})
    org_client.post(url("console_round_action", served.slug, 1), {"action": "publish_start"})
    r = org_client.post(url("console_round_action", served.slug, 1), {"action": "draft"}, follow=True)
    assert "already exists" in _messages(r)


def test_organiser_confirms_a_finished_game_and_clears_a_help_call(org_client, served):
    from scoring.simulate import simulate_game
    from tournaments import services
    from tournaments.models import Game

    org_client.post(url("console_round_action", served.slug, 1), {"action": "draft"})
    org_client.post(url("console_round_action", served.slug, 1), {"action": "publish_start"})
    board = Board.objects.get(round__tournament=served, table=1)
    services.board_seat(board=board, seating=None, first_dealer=0)
    for n, rec in enumerate(simulate_game("trinidad-tournament", seed=13, first_dealer=0).tally_hands, 1):
        services.hand_submit(board=board, game_number=1, hand_number=n, record=rec)
    services.board_call_help(board=board)
    game = Game.objects.get(board=board, number=1)
    page = org_client.get(url("console_board", served.slug, board.id)).content.decode()
    assert "Confirm game 1 as organiser" in page and "calling for the organiser" in page
    r = org_client.post(url("console_board_action", served.slug, board.id), {"action": "confirm_game", "game": game.id},
                        follow=True)
    assert "confirmed by the organiser" in _messages(r)
    game.refresh_from_db()
    assert game.confirmed
    org_client.post(url("console_board_action", served.slug, board.id), {"action": "clear_help"})
    board.refresh_from_db()
    assert not board.help_called


def test_organiser_voids_and_corrects_a_hand(org_client, served):
    """A simulated game's hands through the console (the tally form itself: test_console_corrections.py)."""
    from scoring.simulate import simulate_game
    from tournaments import services
    from tournaments.models import Hand

    org_client.post(url("console_round_action", served.slug, 1), {"action": "draft"})
    org_client.post(url("console_round_action", served.slug, 1), {"action": "publish_start"})
    board = Board.objects.get(round__tournament=served, table=1)
    services.board_seat(board=board, seating=None, first_dealer=0)
    hands = simulate_game("trinidad-tournament", seed=0, first_dealer=0).tally_hands
    for n, rec in enumerate(hands[:2], 1):
        services.hand_submit(board=board, game_number=1, hand_number=n, record=rec)
    second = Hand.objects.get(game__board=board, number=2, status="active")
    r = org_client.post(url("console_board_action", served.slug, board.id),
                        {"action": "void_hand", "hand": second.id, "version": second.version}, follow=True)
    assert "voided" in _messages(r)
    first = Hand.objects.get(game__board=board, number=1, status="active")
    page = org_client.get(url("console_board", served.slug, board.id))
    form = next(line.editor_value for g in page.context["games"] for line in g.lines if line.hand_id == first.id)
    fields = {f"hand{first.id}-{k}": v for k, v in form.initial.items() if v is not None and v is not False}
    fields |= {f"hand{first.id}-game_a": 40, f"hand{first.id}-game_b": 17}  # the table miscounted
    r = org_client.post(url("console_board_action", served.slug, board.id),
                        {"action": "correct_hand", "hand": first.id, "version": first.version, **fields}, follow=True)
    assert "corrected" in _messages(r)
    current = Hand.objects.get(game__board=board, number=1, status="active")
    assert current.version == 2 and current.record["game"] == [40, 17]
    assert {k: v for k, v in current.record.items() if k != "game"} == {k: v for k, v in first.record.items() if k != "game"}
