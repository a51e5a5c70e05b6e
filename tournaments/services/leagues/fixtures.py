"""Match days and fixtures of a season: generate, enter, move, postpone, replay, byes, walkovers, voids, point
deductions, line-ups and substitutions (docs/leagues-model.md).

A team plays at most once on a day: every service that puts a fixture on a day checks it first
(``fixture_clash``, naming both fixtures). A match day without a date is a day of its own.
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from typing import Any

from django.db import transaction
from django.db.models import Q

from tournaments.actors import Actor
from tournaments.formats import TeamKind
from tournaments.models import (
    Board,
    BoardPair,
    Division,
    EnteredAs,
    Game,
    Round,
    Team,
    TeamMatch,
    Tournament,
)
from tournaments.pairing import PairingError, round_robin_round, round_robin_rounds

from .._common import actor
from ..audit import audit_record
from ..errors import Conflict, NotFound, ValidationFailed
from ..rounds import round_create
from ._base import (
    describe_fixture,
    division_of,
    fixture_format,
    fixture_or_404,
    next_table,
    organiser,
    require_season,
    standings_changed,
    team_of,
)

Status = TeamMatch.Status
#: Fixtures that hold their day (a postponed or void fixture frees it).
_ON_THE_DAY = (Status.SCHEDULED, Status.PLAYED, Status.WALKOVER)


# ---- match days -------------------------------------------------------------------------------------------
@transaction.atomic
def match_day_create(*, tournament: Tournament, user: Actor, date: datetime.date | None = None, venue: str = "",
                     number: int | None = None) -> Round:
    """A match day: a round of the season (numbered after the last unless ``number``) with its date and venue."""
    organiser(user, tournament)
    require_season(tournament)
    round_ = round_create(tournament=tournament, number=number)
    round_.date, round_.venue = date, venue[:200]
    round_.save(update_fields=["date", "venue"])
    audit_record(action="match_day.create", obj=round_, tournament_id=tournament.pk, user=user,
                 after={"number": round_.number, "date": date.isoformat() if date else None, "venue": venue})
    return round_


@transaction.atomic
def match_day_update(*, round: Round, user: Actor, **changes: Any) -> Round:  # noqa: A002
    """Change a match day's ``date`` or ``venue``. Moving the date is clash-checked for every fixture on it."""
    round_ = Round.objects.select_for_update().select_related("tournament").get(pk=round.pk)
    organiser(user, round_.tournament)
    unknown = set(changes) - {"date", "venue"}
    if unknown:
        raise ValidationFailed("unknown_field", "Only date and venue change here.", fields={k: "unknown" for k in unknown})
    if "venue" in changes:
        round_.venue = str(changes["venue"] or "")[:200]
    if "date" in changes:
        round_.date = changes["date"]
    round_.save(update_fields=["date", "venue"])
    for match in TeamMatch.objects.filter(round=round_, status__in=_ON_THE_DAY).select_related("round", "team_a", "team_b"):
        _check_clash(round_, [match.team_a_id, match.team_b_id], exclude=match, fixture=describe_fixture(match))
    audit_record(action="match_day.update", obj=round_, tournament_id=round_.tournament_id, user=user,
                 after={"date": round_.date.isoformat() if round_.date else None, "venue": round_.venue})
    return round_


def _match_day(tournament: Tournament, round_: Round | int) -> Round:
    pk = round_ if isinstance(round_, int) else round_.pk
    found = Round.objects.filter(pk=pk, tournament_id=tournament.pk).first()
    if found is None:
        raise NotFound("match_day_not_found", "No such match day in this season.")
    return found


# ---- the clash check ----------------------------------------------------------------------------------------
def _check_clash(round_: Round, team_ids: Sequence[int | None], *, exclude: TeamMatch | None = None,
                 fixture: str = "") -> None:
    """409 ``fixture_clash`` when a team of ``team_ids`` already has a fixture on ``round_``'s day, naming
    both fixtures."""
    ids = [t for t in team_ids if t is not None]
    same_day = Q(round__date=round_.date) if round_.date is not None else Q(round=round_)
    others = (TeamMatch.objects.filter(same_day, round__tournament_id=round_.tournament_id, status__in=_ON_THE_DAY)
              .filter(Q(team_a_id__in=ids) | Q(team_b_id__in=ids))
              .select_related("round", "team_a", "team_b"))
    if exclude is not None and exclude.pk is not None:
        others = others.exclude(pk=exclude.pk)
    other = others.order_by("round__number", "id").first()
    if other is None:
        return
    team = other.team_a if other.team_a_id in ids else other.team_b
    day = round_.date.isoformat() if round_.date else f"match day {round_.number}"
    message = f"{team} would play twice on {day}: {describe_fixture(other)} and {fixture}."
    raise Conflict("fixture_clash", message, fields={"round": message})


# ---- fixtures ---------------------------------------------------------------------------------------------
def _new_fixture(round_: Round, home: Team, away: Team | None, explanation: str = "") -> TeamMatch:
    tournament = round_.tournament
    if away is not None and away.pk == home.pk:
        raise ValidationFailed("same_team", "A team cannot play itself.", fields={"away": "another team"})
    fmt = fixture_format(tournament, home, away)
    match = TeamMatch(round=round_, club_a_id=home.club_id, club_b_id=away.club_id if away else None, team_a=home,
                      team_b=away, team_format=fmt.to_dict(), explanation=explanation[:300])
    _check_clash(round_, [home.pk, away.pk if away else None], fixture=describe_fixture(match))
    if away is None:
        match.result_source, match.decided, match.winner = TeamMatch.Source.BYE, True, 0
        match.explanation = match.explanation or "bye"
    match.save()
    if round_.status == Round.Status.PENDING:
        round_.status = Round.Status.DRAFTED
        round_.save(update_fields=["status"])
    return match


@transaction.atomic
def fixture_create(*, round: Round, home: Team | int, away: Team | int | None, user: Actor) -> TeamMatch:  # noqa: A002
    """Enter one fixture on a match day, as the league published it: ``home`` v ``away`` (``away`` None: a
    bye). Its format is the season's with the division's K and race target (``fixture_format``). 409
    ``fixture_clash``; 400 ``same_team``, ``team_not_in_season``."""
    round_ = Round.objects.select_for_update().select_related("tournament").get(pk=round.pk)
    tournament = round_.tournament
    organiser(user, tournament)
    require_season(tournament)
    home_team = team_of(tournament, home, "home")
    assert home_team is not None
    match = _new_fixture(round_, home_team, team_of(tournament, away, "away"))
    audit_record(action="fixture.create", obj=match, tournament_id=tournament.pk, user=user,
                 after={"round": round_.number, "home": match.team_a_id, "away": match.team_b_id})
    standings_changed(tournament.pk)
    return match


def _groups(tournament: Tournament, division: Division | None) -> list[list[Team]]:
    teams = Team.objects.filter(tournament=tournament, withdrawn=False).order_by("seed", "id")
    if division is not None:
        return [list(teams.filter(division=division))]
    divisions = list(tournament.divisions.order_by("order", "id"))
    if not divisions:
        return [list(teams)]
    return [list(teams.filter(division=d)) for d in divisions]


@transaction.atomic
def fixtures_generate(*, tournament: Tournament, user: Actor, division: Division | int | None = None,
                      double: bool = False, first_round: int = 1, dates: Sequence[datetime.date] = (),
                      venue: str = "") -> list[TeamMatch]:
    """A round robin per division (or of ``division`` only; of every team when the season has no divisions):
    the Berger tables of ``pairing.round_robin_round`` over the teams in seed order, side 0 at home, single or
    ``double`` (the second half with home and away swapped); an odd division gives a bye each round. Round r
    goes on match day ``first_round + r - 1`` (made when missing, dated from ``dates`` and at ``venue``).
    Every fixture is clash-checked (409 ``fixture_clash``: nothing is written)."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    organiser(user, tournament)
    require_season(tournament)
    cycles = 2 if double else 1
    made: list[TeamMatch] = []
    days: dict[int, Round] = {r.number: r for r in tournament.rounds.all()}
    for group in _groups(tournament, division_of(tournament, division)):
        if len(group) < 2:
            continue
        by_id = {t.pk: t for t in group}
        ids = list(by_id)
        for r in range(1, round_robin_rounds(ids, cycles=cycles) + 1):
            try:
                draft = round_robin_round(ids, r, cycles=cycles)
            except PairingError as exc:  # pragma: no cover - the sizes above are valid
                raise ValidationFailed(exc.code, exc.message) from exc
            number = first_round + r - 1
            if number not in days:
                when = dates[number - first_round] if number - first_round < len(dates) else None
                day = round_create(tournament=tournament, number=number)
                day.date, day.venue = when, venue[:200]
                day.save(update_fields=["date", "venue"])
                days[number] = day
            day = days[number]
            day.tournament = tournament
            for board in draft.boards:
                made.append(_new_fixture(day, by_id[board.side0], by_id[board.side1], board.explanation))
            if draft.bye is not None:
                made.append(_new_fixture(day, by_id[draft.bye.entrant], None, draft.bye.explanation))
    audit_record(action="fixtures.generate", obj=tournament, tournament_id=tournament.pk, user=user,
                 after={"fixtures": [[m.round.number, m.team_a_id, m.team_b_id] for m in made], "double": double})
    standings_changed(tournament.pk)
    return made


def _has_result(match: TeamMatch) -> bool:
    return match.status in (Status.PLAYED, Status.WALKOVER) or Game.objects.filter(
        board__team_match=match).exclude(status=Game.Status.VOIDED).filter(
        Q(status=Game.Status.FINISHED) | Q(hands__isnull=False)).exists()


def refuse_with_result(match: TeamMatch, what: str) -> None:
    if match.status == Status.VOID:
        raise Conflict("fixture_void", f"{describe_fixture(match)} is void: {what} its replay instead.")
    if _has_result(match):
        raise Conflict("fixture_has_result", f"{describe_fixture(match)} has a result: it cannot be {what}.")


@transaction.atomic
def fixture_move(*, team_match: TeamMatch | int, round: Round | int, user: Actor) -> TeamMatch:  # noqa: A002
    """Move a fixture (scheduled or postponed, no game played) to another match day; it is scheduled again.
    Its seated boards move with it, on the new day's next free tables. 409 ``fixture_has_result``,
    ``fixture_clash``."""
    match = fixture_or_404(team_match)
    tournament = match.round.tournament
    organiser(user, tournament)
    refuse_with_result(match, "moved")
    day = _match_day(tournament, round)
    before = match.round.number
    _check_clash(day, [match.team_a_id, match.team_b_id], exclude=match, fixture=describe_fixture(match))
    table = next_table(day)
    for board in Board.objects.filter(team_match=match).order_by("slot", "id"):
        board.round, board.table = day, (table if board.pair_b_id else None)
        table += 1 if board.pair_b_id else 0
        board.save(update_fields=["round", "table", "updated_at"])
        BoardPair.objects.filter(board=board).update(round=day)
    match.round, match.status = day, Status.SCHEDULED
    match.save(update_fields=["round", "status"])
    if day.status == Round.Status.PENDING:
        day.status = Round.Status.DRAFTED
        day.save(update_fields=["status"])
    audit_record(action="fixture.move", obj=match, tournament_id=tournament.pk, user=user,
                 before={"round": before}, after={"round": day.number})
    standings_changed(tournament.pk)
    return match


@transaction.atomic
def fixture_postpone(*, team_match: TeamMatch | int, user: Actor, reason: str = "") -> TeamMatch:
    """A scheduled fixture is postponed: it frees its day and waits for ``fixture_move`` to a new one. 409
    ``fixture_has_result``."""
    match = fixture_or_404(team_match)
    tournament = match.round.tournament
    organiser(user, tournament)
    refuse_with_result(match, "postponed")
    if match.team_b_id is None:
        raise ValidationFailed("bye_not_postponed", "A bye is not postponed.", fields={"team_match": "a fixture"})
    match.status = Status.POSTPONED
    match.save(update_fields=["status"])
    audit_record(action="fixture.postpone", obj=match, tournament_id=tournament.pk, user=user, after={"reason": reason})
    standings_changed(tournament.pk)
    return match


@transaction.atomic
def fixture_replay(*, team_match: TeamMatch | int, round: Round | int, user: Actor, reason: str) -> TeamMatch:  # noqa: A002
    """Order a fixture replayed on another match day: the original becomes void (its figures kept, counted
    nowhere) and a new fixture of the same teams, home and away, points back to it (``replay_of``). 409
    ``fixture_void``, ``fixture_clash``; 400 ``reason_required``."""
    match = fixture_or_404(team_match)
    tournament = match.round.tournament
    organiser(user, tournament)
    if not reason.strip():
        raise ValidationFailed("reason_required", "Say why the fixture is replayed.", fields={"reason": "required"})
    if match.status == Status.VOID:
        raise Conflict("fixture_void", f"{describe_fixture(match)} is void already.")
    if match.team_a is None or match.team_b is None:
        raise ValidationFailed("bye_not_replayed", "A bye is not replayed.", fields={"team_match": "a fixture"})
    day = _match_day(tournament, round)
    match.status = Status.VOID
    match.save(update_fields=["status"])
    replay = _new_fixture(day, match.team_a, match.team_b, f"replay of {describe_fixture(match)}")
    replay.replay_of = match
    replay.save(update_fields=["replay_of"])
    audit_record(action="fixture.replay", obj=replay, tournament_id=tournament.pk, user=user,
                 after={"replay_of": match.pk, "round": day.number, "reason": reason})
    standings_changed(tournament.pk)
    return replay


@transaction.atomic
def fixture_void(*, team_match: TeamMatch | int, user: Actor, reason: str) -> TeamMatch:
    """A fixture that does not count (cancelled by the league): kept, counted nowhere."""
    match = fixture_or_404(team_match)
    tournament = match.round.tournament
    organiser(user, tournament)
    if not reason.strip():
        raise ValidationFailed("reason_required", "Say why the fixture is void.", fields={"reason": "required"})
    before = match.status
    match.status = Status.VOID
    match.save(update_fields=["status"])
    audit_record(action="fixture.void", obj=match, tournament_id=tournament.pk, user=user,
                 before={"status": before}, after={"reason": reason})
    standings_changed(tournament.pk)
    return match


_ABSENT = {"home": 0, "away": 1, "both": 2}


@transaction.atomic
def fixture_walkover(*, team_match: TeamMatch | int, absent: str, user: Actor, reason: str = "") -> TeamMatch:
    """A walkover: ``absent`` is ``home``, ``away`` or ``both``. The team present wins by the format's full
    score (a race: N-0; K boards of n games: K*n-0) and is credited chalks and hang jacks by the season's
    forfeit policy; neither came: two losses. The organiser's entry is confirmed. 409 ``fixture_has_result``."""
    match = fixture_or_404(team_match)
    tournament = match.round.tournament
    organiser(user, tournament)
    if absent not in _ABSENT:
        raise ValidationFailed("invalid_absent", "home, away or both.", fields={"absent": "home, away or both"})
    if match.team_b_id is None:
        raise ValidationFailed("bye_not_walkover", "A bye has no opponent.", fields={"team_match": "a fixture"})
    refuse_with_result(match, "given as a walkover")
    side = _ABSENT[absent]
    fmt = match.format_value()
    full = fmt.n if fmt.kind is TeamKind.FIRST_TO_TOTAL else fmt.boards * fmt.n
    winner = None if side == 2 else 1 - side
    bullseyes = [0, 0]
    if winner is not None:
        bullseyes[winner] = full
    match.status, match.walkover_by, match.result_source = Status.WALKOVER, side, TeamMatch.Source.FORFEIT
    match.bullseyes_a, match.bullseyes_b = bullseyes
    match.hang_jacks_a = match.hang_jacks_b = 0
    match.decided, match.winner, match.confirmed = True, winner, True
    match.entered_by, match.entered_as, match.confirmed_by = actor(user), EnteredAs.ORGANISER, actor(user)
    match.explanation = f"walkover ({absent} absent)" + (f": {reason}" if reason else "")
    match.explanation = match.explanation[:300]
    match.save()
    audit_record(action="fixture.walkover", obj=match, tournament_id=tournament.pk, user=user,
                 after={"absent": absent, "reason": reason})
    standings_changed(tournament.pk)
    return match
