"""The organiser corrects a hand with a tally form (Django's test client against the real services).

The form is filled from the stored record; a correction posts to ``hand_correct`` with the version the
organiser saw; the engine's refusal sits next to the field it names; a correction that breaks later
hands is refused naming the hand, with a button that voids it and every later hand and saves the
correction in one go; a card-by-card hand gets the card form (web/play_form.py).
"""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from scoring.simulate import simulate_game
from tests.tournaments.factories import make_board, make_organiser, submit, tally
from tournaments.models import Game, Hand
from web.forms import field_for_path

pytestmark = pytest.mark.django_db

#: A hand with everything the form shows: kick, beg, High and Low with cards, a hang jack, counts and a
#: renege. Dealt by seat 0 at 0-0 under trinidad-tournament: A takes High, hang jack 3, Game 2 and the
#: renege's point (7); B takes Low (1).
FULL = {
    "dealer": 0, "kicks": ["9H"], "beg": "stand", "high": {"side": 0, "card": "AH"}, "low": {"side": 1, "card": "2H"},
    "jack": {"held_by": 1, "won_by": 0}, "game": [40, 20], "penalties": [{"kind": "revoke", "side": 1}],
}


@pytest.fixture
def board():
    return make_board()


@pytest.fixture
def organiser(board):
    user = make_organiser(board.round.tournament)
    client = Client()
    client.force_login(user)
    return client


def page_url(board) -> str:
    return reverse("web:console_board", args=[board.round.tournament.slug, board.pk])


def post(client, board, hand, data, **extra):
    fields = {f"hand{hand.pk}-{k}": v for k, v in data.items()}
    body = {"hand": hand.pk, "version": hand.version, **fields, **extra}
    return client.post(reverse("web:console_board_action", args=[board.round.tournament.slug, board.pk]), body)


def tally_fields(record: dict) -> dict:
    """The form's fields for a tally record, as a browser posts them."""
    out = {"kicks": " ".join(record["kicks"]), "beg": record.get("beg", ""), "jack": "none"}
    for name in ("high", "low"):
        award = record.get(name)
        out[f"{name}_side"] = "" if award is None else str(award["side"])
        out[f"{name}_card"] = "" if award is None else award.get("card", "")
    jack = record.get("jack")
    if jack:
        out["jack"] = {(0, 0): "a", (1, 1): "b", (1, 0): "hang_a", (0, 1): "hang_b"}[(jack["held_by"], jack["won_by"])]
    out["game_a"], out["game_b"] = record["game"]
    for i, p in enumerate(record.get("penalties", [])):
        out[f"pen_kind_{i}"], out[f"pen_side_{i}"] = p["kind"], str(p["side"])
    return out


def selected(body: str, name: str) -> str:
    select = re.search(rf'<select name="{re.escape(name)}"[^>]*>(.*?)</select>', body, re.S)
    assert select, name
    chosen = re.search(r'<option value="([^"]*)" selected>', select.group(1))
    return chosen.group(1) if chosen else ""


def value(body: str, name: str) -> str:
    field = re.search(rf'<input type="\w+" name="{re.escape(name)}"[^>]*?(?: value="([^"]*)")?[^>]*>', body)
    assert field, name
    return field.group(1) or ""


def test_the_form_is_filled_from_the_stored_record(organiser, board):
    hand = submit(board, FULL)
    body = organiser.get(page_url(board)).content.decode()
    p = f"hand{hand.pk}-"
    assert value(body, p + "kicks") == "9H"
    assert selected(body, p + "beg") == "stand"
    assert (selected(body, p + "high_side"), value(body, p + "high_card")) == ("0", "AH")
    assert (selected(body, p + "low_side"), value(body, p + "low_card")) == ("1", "2H")
    assert selected(body, p + "jack") == "hang_a"
    assert (value(body, p + "game_a"), value(body, p + "game_b")) == ("40", "20")
    assert (selected(body, p + "pen_kind_0"), selected(body, p + "pen_side_0")) == ("revoke", "1")
    assert selected(body, p + "pen_kind_1") == ""
    assert 'name="record"' not in body  # a tally hand has no JSON editor


def test_a_correction_through_the_form_replaces_the_hand_with_a_new_version(organiser, board):
    hand = submit(board, FULL)
    fields = tally_fields(FULL) | {"game_a": 20, "game_b": 40, "jack": "b", "pen_kind_0": "", "pen_side_0": ""}
    response = post(organiser, board, hand, fields, action="correct_hand")
    assert response.status_code == 302
    current = Hand.objects.get(game__board=board, number=1, status="active")
    assert current.version == 2 and current.supersedes_id == hand.pk
    assert current.record == {
        "dealer": 0, "kicks": ["9H"], "beg": "stand", "high": {"side": 0, "card": "AH"},
        "low": {"side": 1, "card": "2H"}, "jack": {"held_by": 1, "won_by": 1}, "game": [20, 40],
    }
    assert current.score_after == [1, 4]  # High A; Low B, jack B, Game B (2)
    messages = " ".join(str(m) for m in organiser.get(page_url(board)).context["messages"])
    assert "Hand 1 of game 1 corrected (version 2)" in messages


def test_the_engines_refusal_sits_next_to_the_field_it_names(organiser, board):
    hand = submit(board, FULL)
    fields = tally_fields(FULL) | {"high_card": "5H", "low_card": "7H", "low_side": "0"}
    response = post(organiser, board, hand, fields, action="correct_hand")
    assert response.status_code == 400
    body = response.content.decode()
    error = re.search(rf'<span class="field-error" id="id_hand{hand.pk}-low_card_error">([^<]*)</span>', body)
    assert error and error.group(1) == "7H cannot be Low: it is above the High card 5H"
    low_card = re.search(rf'<input [^>]*name="hand{hand.pk}-low_card"[^>]*>', body).group(0)
    assert 'aria-invalid="true"' in low_card and f"id_hand{hand.pk}-low_card_error" in low_card
    assert value(body, f"hand{hand.pk}-low_card") == "7H"  # what the organiser typed stays
    assert f'<details id="fix-{hand.pk}" class="fix" open>' in body
    assert "Not saved:" in body
    assert Hand.objects.get(pk=hand.pk).status == "active" and Hand.objects.filter(game__board=board).count() == 1


def test_a_count_that_is_not_a_number_is_refused_by_the_form(organiser, board):
    hand = submit(board, FULL)
    response = post(organiser, board, hand, tally_fields(FULL) | {"game_a": "many"}, action="correct_hand")
    assert response.status_code == 400
    assert f'id="id_hand{hand.pk}-game_a_error">Enter a whole number.' in response.content.decode()
    assert Hand.objects.get(pk=hand.pk).version == 1


def test_a_stale_version_is_refused(organiser, board):
    hand = submit(board, FULL)
    post(organiser, board, hand, tally_fields(FULL) | {"game_a": 41}, action="correct_hand")
    response = post(organiser, board, hand, tally_fields(FULL) | {"game_a": 42}, action="correct_hand")  # version 1
    assert response.status_code == 412
    body = response.content.decode()
    current = Hand.objects.get(game__board=board, number=1, status="active")
    panel = body.split(f'<details id="fix-{current.pk}" class="fix" open>')[1].split("</form>")[0]
    assert "Hand 1 is at version 2, not 1" in panel
    assert value(panel, f"hand{current.pk}-game_a") == "41"  # filled again from the version now stored
    assert Hand.objects.get(game__board=board, number=1, status="active").record["game"] == [41, 20]


def test_the_correction_form_needs_the_csrf_token(board):
    hand = submit(board, FULL)
    client = Client(enforce_csrf_checks=True)
    client.force_login(make_organiser(board.round.tournament))
    assert post(client, board, hand, tally_fields(FULL), action="correct_hand").status_code == 403
    body = client.get(page_url(board)).content.decode()
    form = body.split(f'<details id="fix-{hand.pk}"')[1].split("</form>")[0]
    assert "csrfmiddlewaretoken" in form


@pytest.fixture
def game_of_five(board):
    """A wins hands 1-3 (12-0), B hand 4 (12-4), A hand 5 and the game (14-4)."""
    hands = [submit(board, tally(d, to=s)) for d, s in [(0, 0), (1, 0), (2, 0), (3, 1), (0, 0)]]
    assert hands[-1].winner == 0
    return hands


def test_a_correction_that_ends_the_game_sooner_names_the_later_hand_and_voids_it_on_request(organiser, board,
                                                                                           game_of_five):
    fourth, fifth = game_of_five[3], game_of_five[4]
    fields = tally_fields(tally(3, to=0))  # hand 4 was A's after all: A reaches 14 at hand 4
    response = post(organiser, board, fourth, fields, action="correct_hand")
    assert response.status_code == 409
    body = response.content.decode()
    panel = body.split('<div class="refusal" role="alert">')[1].split("</div>")[0]
    assert "Hand 5 of game 1 no longer fits" in panel and "game 1 now ends at hand 4" in panel
    assert f'name="void_from" value="{fifth.pk}"' in panel
    assert Hand.objects.get(pk=fifth.pk).status == "active"  # nothing changed yet

    response = post(organiser, board, fourth, fields, void_from=fifth.pk)
    assert response.status_code == 302
    assert Hand.objects.get(pk=fifth.pk).status == "voided"
    corrected = Hand.objects.get(game__board=board, number=4, status="active")
    assert corrected.version == 2 and corrected.winner == 0
    game = Game.objects.get(board=board, number=1)
    assert (game.status, game.winner, game.score) == ("finished", 0, [14, 0])


def test_voiding_a_middle_hand_is_refused_and_can_take_every_later_hand_with_it(organiser, board, game_of_five):
    third = game_of_five[2]
    response = post(organiser, board, third, {}, action="void_hand")
    assert response.status_code == 409
    body = response.content.decode()
    assert "Not voided:" in body and "the dealer order breaks" in body
    assert 'name="void_with_later" value="1"' in body
    assert post(organiser, board, third, {}, void_with_later="1").status_code == 302
    active = list(Hand.objects.filter(game__board=board, status="active").order_by("number").values_list("number", flat=True))
    assert active == [1, 2]
    assert Game.objects.get(board=board, number=1).status == "in_play"


def test_a_card_by_card_hand_gets_the_card_form_not_the_json_editor(organiser, board):
    """Issue 16: no JSON box for a card-by-card hand (tests/web/test_console_card_correction.py has the rest)."""
    simulated = simulate_game("trinidad-tournament", seed=3, first_dealer=0).hands[0]
    hand = submit(board, simulated.play)
    assert hand.form == "play"
    body = organiser.get(page_url(board)).content.decode()
    editor = body.split(f'<details id="fix-{hand.pk}"')[1].split("</form>")[0]
    assert 'name="record"' not in editor and f'name="hand{hand.pk}-held_0"' in editor
    assert f'name="hand{hand.pk}-tricks"' in editor and f"hand{hand.pk}-high_side" not in editor


@pytest.mark.parametrize(("path", "field"), [
    ("hand.low.card", "low_card"), ("hand.low.side", "low_side"), ("hand.high", "high_side"),
    ("hand.kicks[1]", "kicks"), ("hand.abandoned[0][2]", "abandoned"), ("hand.beg", "beg"),
    ("hand.jack.held_by", "jack"), ("hand.game[1]", "game_b"), ("hand.game", "game_a"),
    ("hand.penalties[1].side", "pen_kind_1"), ("hand.misdeal", "misdeal"), ("hand.dealer", None), ("hand", None),
])
def test_an_engine_error_path_names_a_form_field(path, field):
    assert field_for_path(path) == field


def test_the_form_gives_back_every_simulated_tally_record_unchanged():
    """Fields from a record and back: the same record, for misdeals, redeals, runs, reneges and games won
    on a kick alike (a correction that changes nothing changes nothing)."""
    from django.http import QueryDict

    from web.forms import HandCorrectionForm, fits_tally_form, penalty_rows_for

    seen = set()
    for seed in range(40):
        for hand in simulate_game("trinidad-tournament", seed=seed, first_dealer=seed % 4, renege_rate=0.05,
                                   misdeal_rate=0.05).hands:
            record = hand.tally
            assert fits_tally_form(record)
            seen.update(k for k in record if record.get(k))
            initial = HandCorrectionForm.initial_from(record)
            data = QueryDict(mutable=True)
            for k, v in initial.items():
                if v is not None and v is not False:
                    data[f"h-{k}"] = "on" if v is True else str(v)
            form = HandCorrectionForm(data, prefix="h", penalty_rows=penalty_rows_for(record))
            assert form.is_valid(), (record, form.errors)
            assert form.record(record["dealer"]) == record
    assert {"misdeal", "abandoned", "penalties", "kicks", "jack"} <= seen
