"""Correcting a hand in the console: which editor a hand gets, and the engine's reading before saving.

A tally hand gets the tally form (``web.forms``), a four-seat card-by-card hand the card form
(``web.play_form``) that the card picker (static/js/card-picker.js, the tablet's; static/js/console-cards.js
wires it) fills by tapping cards, anything else the JSON editor. ``hand_reading`` answers the picker's
"Check the reading" with the engine's reading (``services.hand_correction_preview``: the same engine call
as saving, nothing stored); without JavaScript the board page's "Check the reading" button shows it.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, JsonResponse
from django.views.decorators.http import require_POST

from tournaments import selectors
from tournaments.errors import DomainError, ValidationFailed
from tournaments.models import Board, Hand
from tournaments.services.correction_preview import hand_correction_preview
from web.cards import card_label
from web.chalk import PENALTY_WORDS, capfirst, chalk_line, reading, side_letter
from web.forms import HandCorrectionForm, fits_tally_form, parse_record_json, penalty_rows_for, record_json
from web.http import found
from web.permissions import organiser_tournament
from web.play_form import PlayCorrectionForm, fits_play_form


def seat_labels(board: Board) -> dict[int, str]:
    """Seat -> ``seat 1 (A) · Kenrick Baptiste`` (the player when the seating is recorded)."""
    names = selectors.seat_names(board)
    return {s: f"seat {s + 1} ({side_letter(s % 2)})" + (f" · {names[s]}" if names.get(s) else "") for s in range(4)}


def correction_editor(hand: Hand, names: dict[int, str], seats: dict[int, str], data: Any = None) -> tuple[str, Any]:
    """("tally", form), ("play", form) for a card-by-card hand the card form can show, else ("json", text)."""
    prefix = f"hand{hand.id}"
    if hand.form == "tally" and fits_tally_form(hand.record):
        form = HandCorrectionForm(
            data, names=names, prefix=prefix, penalty_rows=penalty_rows_for(hand.record),
            initial=HandCorrectionForm.initial_from(hand.record) if data is None else None,
        )
        return "tally", form
    if hand.form == "play" and fits_play_form(hand.record):
        return "play", PlayCorrectionForm(data, seat_names=seats, prefix=prefix,
                                          initial=PlayCorrectionForm.initial_from(hand.record) if data is None else None)
    return "json", (data.get("record", "") if data is not None else record_json(hand.record))


def record_of(editor: str, value: Any, dealer: int) -> tuple[Any, DomainError | None]:
    """The record the organiser's editor holds, or the refusal that stops it before the engine (None, error)."""
    if editor in ("tally", "play"):
        if not value.is_valid():
            return None, ValidationFailed("form_invalid", "Some fields need correcting (see below).")
        return value.record(dealer), None
    record, problem = parse_record_json(value)
    if problem:
        return None, DomainError("record_not_json", problem)
    return record, None


def event_text(event: dict[str, Any]) -> str:
    """One event of the engine's reading as the tablet says it: ``Kick 9♥``, ``Renege by B``, ``Hang jack``."""
    kind = str(event.get("kind", ""))
    card = card_label(event.get("card")) if event.get("card") else ""
    if kind in PENALTY_WORDS and kind != "misdeal":
        return capfirst(f"{PENALTY_WORDS[kind]} by {side_letter(event.get('offender'))}")
    words = {"kick": f"Kick {card}", "gift": "Gave one", "misdeal": "Misdeal", "high": f"High {card}".strip(),
             "low": f"Low {card}".strip(), "jack": "Jack", "hang_jack": "Hang jack", "game": "Game"}
    return words.get(kind, capfirst(kind.replace("_", " ")))


def reading_view(hand: Hand, record: Any, preview: dict[str, Any]) -> dict[str, Any]:
    """The preview as the page shows it: each event with its side and points, the score, a sentence."""
    result = preview["result"]
    events = [{"text": event_text(e), "side": side_letter(e.get("side")), "points": int(e.get("points", 0))}
              for e in result.get("events", [])]
    line = chalk_line(number=hand.number, dealer=hand.dealer, record=record, events=result.get("events", []),
                      score_after=result.get("score"), winner=result.get("winner"))
    winner = result.get("winner")
    return {
        "hand": hand.number, "score_before": preview["score_before"], "score": result.get("score"),
        "winner": side_letter(winner) if winner is not None else None, "ends_game": preview["ends_game"],
        "events": events, "sentence": reading(line),
    }


def check(request: HttpRequest, hand: Hand, names: dict[int, str], seats: dict[int, str]) -> tuple[Any, Any, Any]:
    """(editor value, reading or None, refusal or None) for the organiser's posted correction."""
    editor, value = correction_editor(hand, names, seats, request.POST)
    record, problem = record_of(editor, value, hand.dealer)
    if problem is not None:
        return value, None, problem
    try:
        preview = hand_correction_preview(hand=hand, record=record, user=request.user)
    except DomainError as exc:
        if editor != "json":
            value.add_refusal(exc.fields)
        return value, None, exc
    return value, reading_view(hand, record, preview), None


@login_required
@require_POST
def hand_reading(request: HttpRequest, slug: str, board_id: int, hand_id: int) -> JsonResponse:
    """POST the correction's fields: ``{"reading": {...}}``, or the one error shape
    ``{"error": {"code", "message", "fields"}}`` (``fields`` by form field where one matches)."""
    tournament = organiser_tournament(request.user, slug, "manage")
    board = found(selectors.tournament_board, tournament, board_id)
    hand = found(selectors.board_hand, board, hand_id)
    names = {0: f"A {board.pair_a.pair.display_name}", 1: f"B {board.pair_b.pair.display_name}" if board.pair_b else "B"}
    value, shown, refusal = check(request, hand, names, seat_labels(board))
    if refusal is not None:
        fields = dict(refusal.fields or {})
        if not isinstance(value, str):
            fields.update({name: " ".join(str(m) for m in errors) for name, errors in value.errors.items()})
        return JsonResponse({"error": {"code": refusal.code, "message": refusal.message, "fields": fields}},
                            status=refusal.status_code)
    return JsonResponse({"reading": shown})
