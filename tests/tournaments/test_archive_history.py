"""What an archive keeps beyond the results (docs/archive.md): a closed round of the copy reopens exactly as the
original's would (``close_record`` travels by local ids), and a finished event's copy is finished with the same
final results frozen again from its own standings."""

from __future__ import annotations

from typing import Any

import pytest

from tournaments import selectors
from tournaments.models import Board, Game, GameConfirmation, Round, Tournament
from tournaments.services import round_reopen, tournament_finish
from tournaments.services.archive import archive_export, archive_import
from tournaments.services.standings import tournament_standings_recompute

from .archive_helpers import organiser
from .closing_helpers import ClosingEvent

pytestmark = pytest.mark.django_db


def round_state(round_: Round) -> dict[str, Any]:
    """The round's boards and games as the organiser sees them, keyed by table and game number."""
    boards = {}
    for board in Board.objects.filter(round=round_).order_by("table"):
        games = [(g.number, g.status, g.winner, g.awarded, g.confirmed, g.score)
                 for g in Game.objects.filter(board=board).order_by("number", "id")]
        words = sorted((c.game.number, c.party, c.agrees, c.cleared)
                       for c in GameConfirmation.objects.filter(game__board=board).select_related("game"))
        boards[board.table] = (board.decided, board.winner, board.all_confirmed, board.result_source, games, words)
    return {"status": round_.status, "boards": boards}


@pytest.fixture
def event() -> ClosingEvent:
    event = ClosingEvent()
    event.close()
    tournament_standings_recompute(tournament_id=event.tournament.pk)
    return event


def test_a_closed_round_of_the_copy_reopens_as_the_original_would(event):
    document = archive_export(tournament=event.tournament)
    importer = organiser("importer")
    copy_ = archive_import(document=document, user=importer)
    copy_round = Round.objects.get(tournament=copy_, number=1)
    assert round_state(copy_round) == round_state(Round.objects.get(pk=event.round.pk))
    record, own = copy_round.close_record, Round.objects.get(pk=event.round.pk).close_record
    assert record["confirmations"] and record["voided"]  # what closing confirmed and voided travels
    assert {k: len(v) for k, v in record.items() if k != "status_before"} == \
        {k: len(v) for k, v in own.items() if k != "status_before"}
    reopened_copy = round_reopen(round=copy_round, user=importer)
    reopened = round_reopen(round=event.round, user=event.organiser)
    assert reopened_copy.status == reopened.status == Round.Status.IN_PLAY
    assert round_state(reopened_copy) == round_state(reopened)


def test_a_finished_events_copy_is_finished_with_the_same_final_results(event):
    tournament_finish(tournament=event.tournament, user=event.organiser)
    original = Tournament.objects.get(pk=event.tournament.pk)
    copy_ = archive_import(document=archive_export(tournament=original), user=organiser("importer"))
    assert copy_.status == Tournament.Status.FINISHED and copy_.finished_at == original.finished_at

    def final(t: Tournament) -> Any:
        results = t.final_results or {}
        return ([(r["rank"], r["name"], r["match_points"], r["bullseyes_won"]) for r in results["standings"]],
                results["after_round"], results["tie_breaks"], results["finished_at"])

    assert final(copy_) == final(original)
    assert [(r.rank, r.name, r.values) for r in selectors.standings(copy_).rows] == \
        [(r.rank, r.name, r.values) for r in selectors.standings(original).rows]
