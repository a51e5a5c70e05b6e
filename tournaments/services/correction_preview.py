"""The organiser's dry run of a correction: the engine's reading of a corrected hand, nothing stored.

The console shows it before the organiser saves (issue 16): the same engine call as ``hand_correct``
(the score before the hand, the hand's own dealer), the same refusals, but no write, no lock and no
replay of the later hands (saving says when a later hand no longer fits). Like the tablet's
``hand_preview``, it returns the engine's result with the score before the hand.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tournaments import adapters
from tournaments.actors import Actor
from tournaments.models import Hand

from ._common import require_organiser
from .errors import Conflict, NotFound, ValidationFailed


def hand_correction_preview(*, hand: Hand, record: Mapping[str, Any], user: Actor) -> dict[str, Any]:
    """The engine's reading of ``record`` in place of ``hand`` (an active hand): ``{"game_number",
    "hand_number", "dealer", "score_before", "result", "ends_game"}`` as ``hand_preview`` gives.

    Refusals: 404 ``hand_not_found``, 409 ``hand_not_active``, 422 ``wrong_dealer`` and the engine's own.
    """
    current = Hand.objects.select_related("game__board__round").filter(pk=hand.pk).first()
    if current is None:
        raise NotFound("hand_not_found", "No such hand.")
    require_organiser(user, current.game.board.round.tournament_id)
    if current.status != Hand.Status.ACTIVE:
        raise Conflict("hand_not_active", f"Hand {current.number} was voided or replaced: reload the page.")
    game = current.game
    rules = adapters.rules_for_game(game)
    before = (Hand.objects.filter(game=game, status=Hand.Status.ACTIVE, number__lt=current.number)
              .order_by("-number").first())
    score = before.score_after if before else adapters.starting_score(rules)
    if isinstance(record, Mapping) and record.get("dealer") != current.dealer:
        message = f"A correction keeps the dealer: seat {current.dealer} dealt hand {current.number}."
        raise ValidationFailed("wrong_dealer", message, fields={"hand.dealer": message})
    result = adapters.hand_score(rules, score, record, dealer=current.dealer)
    return {
        "game_number": game.number,
        "hand_number": current.number,
        "dealer": current.dealer,
        "score_before": list(score),
        "result": adapters.result_dict(result),
        "ends_game": result.winner is not None,
    }
