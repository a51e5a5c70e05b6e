"""What an archive keeps beyond the results (docs/archive.md): a closed round of the copy reopens exactly as the
original's would (``close_record`` travels by local ids), and a finished event's copy is finished with the same
final results frozen again from its own standings."""

from __future__ import annotations

from typing import Any

import pytest

from tournaments import selectors
from tournaments.models import Board, Game, GameConfirmation, Round, TeamMatch, Tournament
from tournaments.services import (
    game_confirm,
    round_close,
    round_close_preview,
    round_reopen,
    tournament_finish,
)
from tournaments.services.archive import archive_export, archive_import
from tournaments.services.standings import tournament_standings_recompute

from .archive_helpers import organiser
from .closing_helpers import ClosingEvent
from .factories import (
    make_club,
    make_entries,
    make_organiser,
    make_team_round,
    make_tournament,
    seat,
    win_game,
)

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


def test_a_club_team_event_played_on_tablets_round_trips():
    tournament = make_tournament(entrant_type="club_teams", team_format={"boards": 2, "kind": "games", "n": 1})
    boss = make_organiser(tournament)
    clubs = [make_club(), make_club()]
    for club in clubs:
        make_entries(tournament, 2, club=club)
    round_ = make_team_round(tournament, clubs)
    boards = list(Board.objects.filter(round=round_).order_by("slot"))
    for board, side in zip(boards, (0, 1), strict=True):
        seat(board)
        win_game(board, to=side, hands=2 if side else 4)
    for game in Game.objects.filter(board__round=round_, status="finished"):
        game_confirm(game=game, party="organiser", user=boss)
    tournament_standings_recompute(tournament_id=tournament.pk)
    document = archive_export(tournament=tournament)
    assert len(document["team_matches"]) == 1 and document["team_matches"][0]["result"]["decided"]
    copy_ = archive_import(document=document, user=organiser("importer"))

    def view(t: Tournament) -> Any:
        match = TeamMatch.objects.get(round__tournament=t)
        clubs_table = [(r.rank, r.name, r.values) for r in selectors.club_standings(t).rows]
        return ((match.bullseyes_a, match.bullseyes_b, match.hang_jacks_a, match.hang_jacks_b, match.decided,
                 match.winner, match.explanation), round_state(Round.objects.get(tournament=t, number=1)), clubs_table,
                [(r.rank, r.name, r.values) for r in selectors.standings(t).rows])

    mine, theirs = view(copy_), view(tournament)
    assert mine == theirs  # hang jacks included: a confirmation refreshes the board's team match too
    assert theirs[0][2:4] == (2, 0)
    token = round_close_preview(round=round_, user=boss).token
    round_close(round=round_, user=boss, token=token)
    tournament_standings_recompute(tournament_id=tournament.pk)
    closed = archive_import(document=archive_export(tournament=tournament), user=organiser("another"))
    assert view(closed) == view(tournament) and view(tournament)[0][2:4] == (2, 0)
