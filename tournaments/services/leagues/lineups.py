"""A team's line-up for one fixture (K pairs of its roster in board order), the boards it seats, and recorded
substitutions (docs/leagues-model.md)."""

from __future__ import annotations

from collections.abc import Sequence

from django.db import transaction

from tournaments.actors import Actor
from tournaments.models import Board, BoardPair, Entry, Game, LineupSubstitution, Team, TeamMatch

from .._common import actor
from ..audit import audit_record
from ..errors import Conflict, ValidationFailed
from ._base import fixture_or_404, next_table, organiser
from .fixtures import refuse_with_result


def _roster_entries(team: Team, entries: Sequence[Entry | int], k: int, field: str) -> list[int]:
    ids = [e if isinstance(e, int) else e.pk for e in entries]
    if len(ids) != k or len(set(ids)) != k:
        raise ValidationFailed("lineup_invalid", f"{team.name} fields {k} different pairs.", fields={field: f"{k} pairs"})
    roster = set(Entry.objects.filter(team=team, withdrawn=False).values_list("pk", flat=True))
    strangers = [i for i in ids if i not in roster]
    if strangers:
        raise ValidationFailed("lineup_invalid", f"Only pairs on {team.name}'s roster play for it.",
                               fields={field: "pairs of the team's roster"})
    return ids


def _seat_boards(match: TeamMatch) -> None:
    """Seat the K boards of a fixture once both line-ups are in: slot i against slot i, the home pair on side
    0 at boards 1, 3, 5... (as ``rounds.team_match_layout``), on the day's next free tables."""
    round_ = match.round
    fmt = match.format_value().board_format.to_dict()
    table = next_table(round_)
    for slot, (a, b) in enumerate(zip(match.lineup_a, match.lineup_b, strict=True)):
        side0, side1 = (a, b) if slot % 2 == 0 else (b, a)
        board = Board.objects.create(round=round_, table=table, pair_a_id=side0, pair_b_id=side1, team_match=match,
                                     slot=slot, match_format=fmt)
        BoardPair.objects.bulk_create([BoardPair(board=board, round=round_, entry_id=side0, side=0),
                                       BoardPair(board=board, round=round_, entry_id=side1, side=1)])
        table += 1


def _side_of(match: TeamMatch, team: Team | int) -> int:
    team_id = team if isinstance(team, int) else team.pk
    if team_id == match.team_a_id:
        return 0
    if team_id == match.team_b_id:
        return 1
    raise ValidationFailed("not_in_fixture", "That team does not play this fixture.", fields={"team": "a team of the fixture"})


@transaction.atomic
def lineup_set(*, team_match: TeamMatch | int, team: Team | int, entries: Sequence[Entry | int], user: Actor) -> TeamMatch:
    """A team's line-up for one fixture: K pairs of its roster in board order. When both line-ups are in, the
    fixture's K boards are seated (tablets or paper then score them). Before seating the line-up may be
    given again; after, a change is a ``lineup_substitute``. 409 ``lineup_fixed``, ``fixture_has_result``;
    400 ``lineup_invalid``, ``not_in_fixture``."""
    match = fixture_or_404(team_match)
    tournament = match.round.tournament
    organiser(user, tournament)
    refuse_with_result(match, "given a line-up")
    if match.team_b_id is None:
        raise ValidationFailed("bye_no_lineup", "A bye has no boards.", fields={"team_match": "a fixture"})
    side = _side_of(match, team)
    if match.boards.exists():
        raise Conflict("lineup_fixed", "The boards are seated: change a pair with a substitution.")
    own = match.team_a if side == 0 else match.team_b
    assert own is not None
    ids = _roster_entries(own, entries, match.format_value().boards, "entries")
    if side == 0:
        match.lineup_a = ids
    else:
        match.lineup_b = ids
    match.save(update_fields=["lineup_a", "lineup_b"])
    if match.lineup_a and match.lineup_b:
        _seat_boards(match)
    audit_record(action="fixture.lineup", obj=match, tournament_id=tournament.pk, user=user,
                 after={"team": own.pk, "entries": ids})
    return match


@transaction.atomic
def lineup_substitute(*, team_match: TeamMatch | int, team: Team | int, slot: int, entry: Entry | int, user: Actor,
                      reason: str = "") -> LineupSubstitution:
    """Put roster pair ``entry`` at board ``slot`` (from 0) of a team's line-up for one fixture, recorded as a
    ``LineupSubstitution``. On a seated board the pair takes its seat while the board has no game under way.
    409 ``board_started``; 400 ``lineup_invalid``."""
    match = fixture_or_404(team_match)
    tournament = match.round.tournament
    organiser(user, tournament)
    side = _side_of(match, team)
    own = match.team_a if side == 0 else match.team_b
    assert own is not None
    lineup = list(match.lineup_a if side == 0 else match.lineup_b)
    k = match.format_value().boards
    if not isinstance(slot, int) or not 0 <= slot < k:
        raise ValidationFailed("lineup_invalid", f"A board from 0 to {k - 1}.", fields={"slot": f"0 to {k - 1}"})
    entry_id = _roster_entries(own, [entry], 1, "entry")[0]
    lineup += [0] * (k - len(lineup))
    if entry_id in lineup:
        raise ValidationFailed("lineup_invalid", "That pair is in the line-up already.", fields={"entry": "another pair"})
    out = lineup[slot] or None
    lineup[slot] = entry_id
    board = Board.objects.select_for_update().filter(team_match=match, slot=slot).first()
    if board is not None:
        if Game.objects.filter(board=board).exclude(status=Game.Status.VOIDED).exists():
            raise Conflict("board_started", f"Board {slot + 1} has a game under way: it keeps its pairs.")
        on_a = board.pair_a_id == out
        if on_a:
            board.pair_a_id = entry_id
        else:
            board.pair_b_id = entry_id
        board.seating = None
        board.save(update_fields=["pair_a", "pair_b", "seating", "updated_at"])
        BoardPair.objects.filter(board=board, side=0 if on_a else 1).update(entry_id=entry_id)
    if side == 0:
        match.lineup_a = lineup
    else:
        match.lineup_b = lineup
    match.save(update_fields=["lineup_a", "lineup_b"])
    row = LineupSubstitution.objects.create(team_match=match, team=own, slot=slot, out_entry_id=out, in_entry_id=entry_id,
                                            reason=reason[:200], user=actor(user))
    audit_record(action="fixture.substitute", obj=match, tournament_id=tournament.pk, user=user,
                 after={"team": own.pk, "slot": slot, "out": out, "in": entry_id, "reason": reason})
    return row
