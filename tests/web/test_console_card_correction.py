"""Issue 16: a card-by-card hand is corrected in the console with the card form, not JSON.

The form shows the cards each seat held and the tricks (the card picker of static/js/card-picker.js fills
the same fields; tests/web/test_console_card_correction_browser.py taps them); "Check the reading" shows
the engine's reading (each event with its points) before saving, as the page (without JavaScript) and as
JSON (``console_hand_reading``, for the picker); saving goes through ``hand_correct``.
"""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from scoring.simulate import simulate_game
from tests.tournaments.factories import make_board, make_organiser, submit
from tournaments.models import Hand
from web.play_form import PlayCorrectionForm, fits_play_form, held, play_field_for_path

pytestmark = pytest.mark.django_db


@pytest.fixture
def board():
    return make_board()


@pytest.fixture
def organiser(board):
    client = Client()
    client.force_login(make_organiser(board.round.tournament))
    return client


def simulated(seed: int = 3):
    return simulate_game("trinidad-tournament", seed=seed, first_dealer=0).hands[0]


def fields(hand: Hand, record: dict) -> dict:
    initial = PlayCorrectionForm.initial_from(record)
    return {"hand": hand.pk, "version": hand.version, **{f"hand{hand.pk}-{k}": v for k, v in initial.items()}}


def action_url(board) -> str:
    return reverse("web:console_board_action", args=[board.round.tournament.slug, board.pk])


def reading_url(board, hand) -> str:
    return reverse("web:console_hand_reading", args=[board.round.tournament.slug, board.pk, hand.pk])


def test_a_card_by_card_hand_gets_the_card_form_not_json(organiser, board):
    sim = simulated()
    hand = submit(board, sim.play)
    assert hand.form == "play" and fits_play_form(sim.play)
    body = organiser.get(reverse("web:console_board", args=[board.round.tournament.slug, board.pk])).content.decode()
    editor = body.split(f'<details id="fix-{hand.pk}"')[1].split("</form>")[0]
    assert 'name="record"' not in editor
    for seat in range(4):
        assert f'name="hand{hand.pk}-held_{seat}"' in editor
        assert " ".join(held(sim.play, seat)) in editor
    assert f'name="hand{hand.pk}-tricks"' in editor and "data-play" in editor
    assert 'value="check_hand"' in editor and "card-picker.js" in body


def test_the_form_gives_back_the_card_by_card_record_unchanged():
    for seed in range(12):
        for h in simulate_game("trinidad-tournament", seed=seed, first_dealer=0).hands:
            if not fits_play_form(h.play):
                continue
            form = PlayCorrectionForm({k: v for k, v in PlayCorrectionForm.initial_from(h.play).items()})
            assert form.is_valid(), form.errors
            assert form.record(h.play["dealer"]) == h.play


def test_check_the_reading_shows_each_event_with_its_points_and_stores_nothing(organiser, board):
    sim = simulated()
    hand = submit(board, sim.play)
    response = organiser.post(reading_url(board, hand), fields(hand, sim.play))
    assert response.status_code == 200
    reading = response.json()["reading"]
    assert reading["score"] == list(hand.score_after) and reading["score_before"] == [0, 0]
    assert sum(e["points"] for e in reading["events"]) == sum(hand.score_after)
    assert all(e["side"] in ("A", "B") and e["text"] for e in reading["events"])
    page = organiser.post(action_url(board), {**fields(hand, sim.play), "action": "check_hand"})
    assert page.status_code == 200
    text = page.content.decode()
    assert "The engine reads hand 1" in text
    assert f'{reading["events"][0]["text"]}: {reading["events"][0]["side"]} +{reading["events"][0]["points"]}' in text
    assert Hand.objects.filter(game__board=board).count() == 1


def test_a_card_not_held_is_refused_next_to_the_seat(organiser, board):
    sim = simulated()
    hand = submit(board, sim.play)
    data = fields(hand, sim.play)
    first = sim.play["tricks"][0][0]
    data[f"hand{hand.pk}-tricks"] = data[f"hand{hand.pk}-tricks"].replace(first, "ZZ", 1)
    response = organiser.post(reading_url(board, hand), data)
    assert response.status_code in (400, 422)
    error = response.json()["error"]
    assert error["message"] and error["code"]


def test_a_correction_through_the_card_form_saves_a_new_version(organiser, board):
    sims = simulate_game("trinidad-tournament", seed=3, first_dealer=0).hands
    hand = submit(board, sims[0].play)
    other = next(h.play for seed in range(40) for h in simulate_game("trinidad-tournament", seed=seed, first_dealer=0).hands[:1]
                 if fits_play_form(h.play) and h.play != sims[0].play and h.play["dealer"] == 0)
    response = organiser.post(action_url(board), {**fields(hand, other), "action": "correct_hand"})
    assert response.status_code == 302, response.content.decode()[:2000]
    new = Hand.objects.get(game__board=board, number=1, status="active")
    assert new.version == 2 and new.form == "play" and new.record == other


@pytest.mark.parametrize(("path", "field"), [
    ("hand.deal[2][1]", "held_2"), ("hand.runs[0][3][1]", "held_3"), ("hand.tricks[4][1]", "tricks"),
    ("hand.kicks[0]", "kicks"), ("hand.beg", "beg"), ("hand.dealer", None), ("hand", None),
])
def test_an_engine_error_path_names_a_card_field(path, field):
    assert play_field_for_path(path) == field
