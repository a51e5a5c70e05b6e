"""Rounds: create, seat boards from pairings, publish, start play; a stand-in rotation pairing.

A round is ``pending``, ``drafted`` (boards seated from pairings, the organiser may still adjust),
``published`` (tablets and public pages see it), ``in_play``, ``closed`` (``closing.round_close``).
The real pairing (Swiss, round robin, knockout) lives with its own module and calls
``round_seat_boards`` / ``round_seat_team_matches``; ``round_pair_rotation`` is a simple stand-in.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.db import transaction
from django.db.models import Max, Q
from django.utils import timezone

from tournaments import adapters
from tournaments.actors import Actor
from tournaments.formats import DEFAULT_TEAM_FORMAT, FormatError, MatchFormat
from tournaments.models import Board, BoardPair, Club, Entry, Round, Team, TeamMatch, Tournament
from tournaments.pairing import PairingError, TeamBoard, team_match_boards

from ._common import actor
from ._rules import check_four_players
from .audit import audit_record
from .boards import board_results_refresh
from .closing import round_clock_start
from .errors import Conflict, ValidationFailed
from .field import round_absent_forfeits
from .publication import public_change

SEATABLE = (Round.Status.PENDING, Round.Status.DRAFTED)


@transaction.atomic
def tournament_rules_resolve(*, tournament: Tournament) -> Tournament:
    """Resolve the tournament's rules (a preset or options) and store every option in ``rules_resolved``.

    A bad rule set is a 400 with the engine's code and the field at fault; a pairs event takes 4-player
    rule sets only (``rules_players``).
    """
    rules = adapters.rules_from_spec(tournament.rules or adapters.DEFAULT_TOURNAMENT_RULES)
    check_four_players(rules)
    resolved = rules.to_dict()
    if tournament.rules_resolved != resolved:
        tournament.rules_resolved = resolved
        tournament.save(update_fields=["rules_resolved"])
    return tournament


@transaction.atomic
def round_create(*, tournament: Tournament, number: int | None = None) -> Round:
    """A new pending round (numbered after the last one unless ``number`` is given)."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if number is None:
        number = (tournament.rounds.aggregate(m=Max("number"))["m"] or 0) + 1
    if tournament.rounds.filter(number=number).exists():
        raise Conflict("round_exists", f"Round {number} already exists.")
    return Round.objects.create(tournament=tournament, number=number)


def _match_format(round_: Round) -> dict[str, Any]:
    """The format the round's boards play: the round's override, else the tournament's (canonical form)."""
    if not round_.match_format:
        return round_.tournament.board_format().to_dict()
    try:
        return MatchFormat.from_dict(round_.match_format).to_dict()
    except FormatError as exc:
        raise ValidationFailed("match_format_invalid", exc.message, fields={exc.path: exc.message}) from exc


def _lock_seatable(round_: Round) -> Round:
    round_ = Round.objects.select_for_update(of=("self",)).select_related("tournament").get(pk=round_.pk)
    if round_.status not in SEATABLE:
        raise Conflict("round_not_draft", f"Round {round_.number} is {round_.status}: its boards are fixed.")
    return round_


def _seat(round_: Round, a: Entry, b: Entry | None, table: int | None, fmt: dict[str, Any], explanation: str,
          team_match: TeamMatch | None = None, slot: int | None = None) -> Board:
    board = Board.objects.create(round=round_, table=table, pair_a=a, pair_b=b, match_format=fmt,
                                 explanation=explanation[:300], team_match=team_match, slot=slot,
                                 result_source=Board.Source.HANDS if b is not None else Board.Source.BYE)
    BoardPair.objects.create(board=board, round=round_, entry=a, side=0)
    if b is not None:
        BoardPair.objects.create(board=board, round=round_, entry=b, side=1)
    return board


def _first_table(round_: Round) -> int:
    return (Board.objects.filter(round=round_).aggregate(m=Max("table"))["m"] or 0) + 1


@transaction.atomic
def round_seat_boards(
    *, round: Round, pairings: Sequence[tuple[Entry, Entry | None]],  # noqa: A002
    explanations: Sequence[str] | None = None,
) -> list[Board]:
    """Create one board per pairing (pair A on side 0), tables numbered from 1 in order; a pairing with
    no second pair is a bye (no table). Copies the match format onto each board; the round is drafted.

    The database refuses a pair seated twice in a round (``one_board_per_pair_per_round``).
    """
    round_ = _lock_seatable(round)
    tournament = round_.tournament
    fmt = _match_format(round_)
    entries = [e for pair in pairings for e in pair if e is not None]
    if len({e.pk for e in entries}) != len(entries):
        raise ValidationFailed("pair_seated_twice", "A pair sits at one board per round.", fields={"pairings": "each pair once"})
    if any(e.tournament_id != tournament.pk for e in entries):
        raise ValidationFailed("entry_not_in_tournament", "Every pair must be entered in this tournament.",
                               fields={"pairings": "entries of this tournament"})
    table = _first_table(round_)
    boards: list[Board] = []
    for i, (a, b) in enumerate(pairings):
        explanation = explanations[i] if explanations and i < len(explanations) else ""
        boards.append(_seat(round_, a, b, table if b is not None else None, fmt, explanation))
        if b is not None:
            table += 1
    for board in boards:
        if board.is_bye:
            board_results_refresh(board)
    if round_.status == Round.Status.PENDING:
        round_.status = Round.Status.DRAFTED
        round_.save(update_fields=["status"])
    audit_record(action="round.seat_boards", obj=round_, tournament_id=tournament.pk,
                 after={"boards": [[b.pair_a_id, b.pair_b_id, b.table] for b in boards]})
    return boards


def team_match_layout(team_match: TeamMatch) -> tuple[TeamBoard, ...]:
    """The boards of a team match from its clubs' line-ups, as the pure core lays them out
    (``pairing.team_match_boards``): slot i of club A's line-up meets slot i of club B's, and the sides
    alternate down the boards, club A's pair on side 0 at boards 1, 3, 5... and club B's at boards 2, 4...
    ``TeamBoard.slot`` counts from 1 (``Board.slot`` from 0). Refuses a club against itself."""
    try:
        return team_match_boards(team_match.club_a_id, team_match.lineup_a, team_match.club_b_id,  # type: ignore[arg-type]
                                 team_match.lineup_b)
    except PairingError as exc:
        raise ValidationFailed(exc.code, f"{exc.message}.", fields={"matches": exc.message}) from exc


def _lineup(tournament: Tournament, club: Club, k: int, given: Sequence[Entry] | None) -> list[Entry]:
    if given is not None:
        lineup = list(given)
    else:
        lineup = list(Entry.objects.filter(tournament=tournament, pair__club=club, withdrawn=False)
                      .select_related("pair").order_by("pair__seed", "seed", "id")[:k])
    if len(lineup) != k or any(e.pair.club_id != club.pk for e in lineup):
        raise ValidationFailed("lineup_invalid", f"{club.name} needs a line-up of {k} of its own pairs.",
                               fields={f"lineups.{club.pk}": f"{k} pairs of the club"})
    return lineup


def _club_team(tournament: Tournament, club: Club, lineup: Sequence[Entry]) -> Team:
    """The club's team in a club-team event (docs/leagues-model.md: one team per club, made when first
    needed; where a club fields several, its first by seed), with the club's pairs not yet on a roster on it."""
    team = Team.objects.filter(tournament=tournament, club=club).order_by("seed", "id").first()
    if team is None:
        name, n = club.name, 1
        while Team.objects.filter(tournament=tournament, name=name).exists():
            n += 1
            name = f"{club.name} ({n})"
        team = Team.objects.create(tournament=tournament, club=club, name=name,
                                   seed=Team.objects.filter(tournament=tournament).count() + 1)
    Entry.objects.filter(tournament=tournament, team__isnull=True).filter(
        Q(pk__in=[e.pk for e in lineup]) | Q(club=club) | Q(club__isnull=True, pair__club=club)).update(team=team)
    return team


@transaction.atomic
def round_seat_team_matches(
    *, round: Round, matches: Sequence[tuple[Club, Club | None]],  # noqa: A002
    lineups: Mapping[int, Sequence[Entry]] | None = None, explanations: Sequence[str] | None = None,
) -> list[TeamMatch]:
    """Club-team events: one team match per pairing of clubs, K boards each, slot i of one club's line-up
    against slot i of the other's (default line-up: the club's first K pairs by seed), sides alternating
    down the boards as the pure core lays them out (``team_match_layout``): club A's pair on side 0 at
    boards 1, 3, 5..., club B's at boards 2, 4... ``lineup_a``/``lineup_b`` keep each club's pairs in board
    order whatever side they sit on.

    Boards of a ``games`` team match play ``games`` N each; boards of a ``first_to_total`` race play on
    (``{"kind": "race"}``) until one club reaches N bullseyes. A club without an opponent has a bye.
    """
    round_ = _lock_seatable(round)
    tournament = round_.tournament
    fmt = tournament.team_format_value() or DEFAULT_TEAM_FORMAT
    team_format, k, board_format = fmt.to_dict(), fmt.boards, fmt.board_format.to_dict()
    lineups = lineups or {}
    table = _first_table(round_)
    made: list[TeamMatch] = []
    for i, (club_a, club_b) in enumerate(matches):
        explanation = explanations[i] if explanations and i < len(explanations) else ""
        lineup_a = _lineup(tournament, club_a, k, lineups.get(club_a.pk))
        lineup_b = _lineup(tournament, club_b, k, lineups.get(club_b.pk)) if club_b is not None else []
        team_a = _club_team(tournament, club_a, lineup_a)
        team_b = _club_team(tournament, club_b, lineup_b) if club_b is not None else None
        team_match = TeamMatch(
            round=round_, club_a=club_a, club_b=club_b, team_format=team_format, explanation=explanation[:300],
            lineup_a=[e.pk for e in lineup_a], lineup_b=[e.pk for e in lineup_b], team_a=team_a, team_b=team_b,
        )
        if club_b is None:  # a bye: the club's pairs sit alone, without a table
            team_match.save()
            for slot, entry in enumerate(lineup_a):
                _seat(round_, entry, None, None, board_format, "", team_match, slot)
        else:
            entries = {e.pk: e for e in (*lineup_a, *lineup_b)}
            boards = team_match_layout(team_match)  # checked before anything is written
            team_match.save()
            for board in boards:
                _seat(round_, entries[board.side0], entries[board.side1], table, board_format, "", team_match,
                      board.slot - 1)
                table += 1
        if club_b is None:
            team_match.decided, team_match.winner, team_match.explanation = True, 0, "bye"
            team_match.result_source = TeamMatch.Source.BYE
            team_match.save(update_fields=["decided", "winner", "explanation", "result_source"])
        made.append(team_match)
    if round_.status == Round.Status.PENDING:
        round_.status = Round.Status.DRAFTED
        round_.save(update_fields=["status"])
    audit_record(action="round.seat_team_matches", obj=round_, tournament_id=tournament.pk,
                 after={"team_matches": [[m.club_a_id, m.club_b_id] for m in made]})
    return made


@transaction.atomic
def round_publish(*, round: Round, user: Actor = None) -> Round:  # noqa: A002
    """Drafted -> published: tablets and public pages see the boards. Resolves and stores the rules."""
    round_ = Round.objects.select_for_update(of=("self",)).select_related("tournament").get(pk=round.pk)
    if round_.status != Round.Status.DRAFTED:
        raise Conflict("round_not_draft", f"Round {round_.number} is {round_.status}: only a drafted round is published.")
    if not Board.objects.filter(round=round_).exists():
        raise Conflict("round_empty", "Seat the boards before publishing the round.")
    tournament = tournament_rules_resolve(tournament=round_.tournament)
    if tournament.status == Tournament.Status.DRAFT:
        tournament.status = Tournament.Status.RUNNING
        tournament.save(update_fields=["status"])
    round_.status, round_.published_at = Round.Status.PUBLISHED, timezone.now()
    round_.save(update_fields=["status", "published_at"])
    round_clock_start(round_)
    audit_record(action="round.publish", obj=round_, tournament_id=tournament.pk, user=actor(user))
    round_absent_forfeits(round=round_, user=user)
    public_change(tournament.pk, round_number=round_.number)
    return round_


@transaction.atomic
def round_start_play(*, round: Round, user: Actor = None) -> Round:  # noqa: A002
    """Published -> in play (the organiser starts the clock). Tablets may score from publication."""
    round_ = Round.objects.select_for_update().get(pk=round.pk)
    if round_.status == Round.Status.IN_PLAY:
        return round_
    if round_.status != Round.Status.PUBLISHED:
        raise Conflict("round_not_published", f"Round {round_.number} is {round_.status}: publish it first.")
    round_.status = Round.Status.IN_PLAY
    round_.save(update_fields=["status"])
    audit_record(action="round.start_play", obj=round_, tournament_id=round_.tournament_id, user=actor(user))
    public_change(round_.tournament_id, round_number=round_.number)
    return round_


def _rotation(items: list[Any], round_number: int) -> list[tuple[Any, Any | None]]:
    """The circle method: round r of a round robin over ``items`` (a bye for the odd one out)."""
    players: list[Any | None] = list(items) + ([None] if len(items) % 2 else [])
    if not players:
        return []
    fixed, rest = players[0], players[1:]
    shift = (round_number - 1) % len(rest) if rest else 0
    rest = rest[shift:] + rest[:shift]
    ring = [fixed, *rest]
    half = len(ring) // 2
    out: list[tuple[Any, Any | None]] = []
    for i in range(half):
        a, b = ring[i], ring[-1 - i]
        if a is None:
            a, b = b, None
        elif b is None:
            pass
        out.append((a, b))
    out.sort(key=lambda p: p[1] is None)  # byes last
    return out


def round_pair_rotation(round: Round) -> list[Board] | list[TeamMatch]:  # noqa: A002
    """A stand-in pairing until the real one lands: a round-robin rotation by seed (clubs for club-team
    events), then ``round_seat_boards`` / ``round_seat_team_matches``."""
    round_ = Round.objects.select_related("tournament").get(pk=round.pk)
    tournament = round_.tournament
    if tournament.entrant_type == Tournament.EntrantType.CLUB_TEAMS:
        clubs = list(Club.objects.filter(pairs__entries__tournament=tournament).distinct().order_by("name"))
        return round_seat_team_matches(round=round_, matches=_rotation(clubs, round_.number),
                                       explanations=["rotation"] * len(clubs))
    entries = list(tournament.entries.filter(withdrawn=False).order_by("seed", "id"))
    pairings = _rotation(entries, round_.number)
    return round_seat_boards(round=round_, pairings=pairings, explanations=["rotation"] * len(pairings))
