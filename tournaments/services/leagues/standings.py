"""A season's tables (per division and overall) and its statistics, from every kind of result
(docs/adr/0012-result-source.md): standings count every source; statistics count only what each source holds.

A fixture counts when its result is in: a walkover; match totals once confirmed; boards (from hands or paper
games) once the match is decided and every board's games are confirmed. A bye counts once its match day has a
counted result (or is closed), valued by the season's bye policy and shown as a bye, never as a played match.
Void and postponed fixtures count nowhere. A division's table counts the fixtures between its teams, and a
fixture against another division when the division's ``cross_overall_only`` is off; the overall table counts
every fixture, byes valued with the season's race target (a division's own race target values its byes in its
own table).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from django.db.models import OuterRef, Subquery

from tournaments.formats import TIE_BREAKS, FormatError
from tournaments.models import (
    Board,
    Division,
    Entry,
    Game,
    Hand,
    PointDeduction,
    Round,
    Team,
    TeamMatch,
    Tournament,
)
from tournaments.ranking import FixtureResult, RankingConfig, RankingError, league_table, unfed_tie_breaks

from ..errors import ValidationFailed

Status = TeamMatch.Status
Source = TeamMatch.Source


@dataclass
class _Season:
    teams: list[Team]
    results: list[FixtureResult]
    #: Per counted fixture (same order as ``results``): the match id and the sources its figures come from.
    matches: list[tuple[int | None, frozenset[str]]]
    deductions: dict[int, tuple[int, int]]
    reasons: dict[int, list[dict[str, Any]]] = field(default_factory=dict)


def _board_fixture(match: TeamMatch, boards: list[Board]) -> tuple[FixtureResult, frozenset[str]] | None:
    if not boards or not match.decided:
        return None
    if not all(b.all_confirmed or b.forfeited is not None for b in boards):
        return None
    bulls, chalks, hangs = [0, 0], [0, 0], [0, 0]
    for b in boards:
        home_side = 1 if b.pair_a_id in (match.lineup_b or []) else 0
        for side, figures in ((0, (b.bullseyes_a, b.chalks_a, b.hang_jacks_a)), (1, (b.bullseyes_b, b.chalks_b, b.hang_jacks_b))):
            team = 0 if side == home_side else 1
            bulls[team] += figures[0]
            chalks[team] += figures[1]
            hangs[team] += figures[2]
    sources = frozenset(b.result_source for b in boards)
    assert match.team_b_id is not None
    return (FixtureResult(match.round.number, match.team_a_id, match.team_b_id, (bulls[0], bulls[1]),
                          (hangs[0], hangs[1]), (chalks[0], chalks[1])), sources)


def _read(tournament: Tournament) -> _Season:
    # the club's name on the team's first entry: the name the season was played under (a later rename of
    # the club does not reach a season's table; docs/leagues-model.md, "Club and player identity")
    played_as = Entry.objects.filter(team=OuterRef("pk")).exclude(club_name="").order_by("id").values("club_name")[:1]
    teams = list(Team.objects.filter(tournament=tournament).select_related("division", "club")
                 .annotate(club_played_as=Subquery(played_as)).order_by("division__order", "seed", "id"))
    matches = list(TeamMatch.objects.filter(round__tournament=tournament, team_a__isnull=False)
                   .exclude(status__in=(Status.VOID, Status.POSTPONED)).select_related("round")
                   .order_by("round__number", "id"))
    boards: dict[int, list[Board]] = {}
    for board in Board.objects.filter(team_match__in=[m.pk for m in matches]).order_by("slot", "id"):
        boards.setdefault(board.team_match_id or 0, []).append(board)
    results: list[FixtureResult] = []
    kinds: list[tuple[int | None, frozenset[str]]] = []
    days: set[int] = {m.round_id for m in matches if m.round.status == Round.Status.CLOSED}
    byes: list[TeamMatch] = []
    for m in matches:
        assert m.team_a_id is not None
        if m.team_b_id is None:
            byes.append(m)
            continue
        if m.status == Status.WALKOVER:
            found: tuple[FixtureResult, frozenset[str]] | None = (FixtureResult(
                m.round.number, m.team_a_id, m.team_b_id, (m.bullseyes_a, m.bullseyes_b), (0, 0), (0, 0),
                walkover_by=m.walkover_by), frozenset({"walkover"}))
        elif m.result_source == Source.MATCH_TOTALS:
            found = (FixtureResult(m.round.number, m.team_a_id, m.team_b_id, (m.bullseyes_a, m.bullseyes_b),
                                   (m.hang_jacks_a, m.hang_jacks_b), None), frozenset({Source.MATCH_TOTALS.value}))
            found = found if m.confirmed else None
        else:
            found = _board_fixture(m, boards.get(m.pk, []))
        if found is not None:
            results.append(found[0])
            kinds.append((m.pk, found[1]))
            days.add(m.round_id)
    for m in byes:
        if m.round_id in days:
            assert m.team_a_id is not None
            results.append(FixtureResult(m.round.number, m.team_a_id, None))
            kinds.append((m.pk, frozenset({"bye"})))
    deductions: dict[int, tuple[int, int]] = {}
    reasons: dict[int, list[dict[str, Any]]] = {}
    for d in PointDeduction.objects.filter(tournament=tournament, voided=False).order_by("created_at", "id"):
        mp, bulls = deductions.get(d.team_id, (0, 0))
        deductions[d.team_id] = (mp + d.match_points, bulls + d.bullseyes)
        reasons.setdefault(d.team_id, []).append({"match_points": d.match_points, "bullseyes": d.bullseyes,
                                                  "reason": d.reason, "team_match": d.team_match_id})
    return _Season(teams, results, kinds, deductions, reasons)


def _config(tournament: Tournament, race_target: int | None) -> RankingConfig:
    try:
        return RankingConfig(tie_breaks=tournament.tie_break_order(), bye=tournament.bye_policy_value(),
                             race_target=race_target, forfeit=tournament.forfeit_policy_value())
    except FormatError as exc:
        raise ValidationFailed(f"{(exc.path or 'tiebreaks').split('.')[0].split('[')[0]}_invalid", exc.message,
                               fields={exc.path or "tiebreaks": exc.message}) from exc
    except RankingError as exc:
        raise ValidationFailed(exc.code, exc.message, fields={"bye_policy": exc.message}) from exc


def _table(tournament: Tournament, season: _Season, division: Division | None) -> dict[str, Any]:
    by_id = {t.pk: t for t in season.teams}
    if division is None:
        members = [t.pk for t in season.teams]
        chosen = list(zip(season.results, season.matches, strict=True))
        race = tournament.race_target()
    else:
        members = [t.pk for t in season.teams if t.division_id == division.pk]
        inside = set(members)
        chosen = []
        for result, kind in zip(season.results, season.matches, strict=True):
            ends = {result.home} | ({result.away} if result.away is not None else set())
            if ends <= inside or (ends & inside and not division.cross_overall_only):
                chosen.append((result, kind))
        race = division.race_target or tournament.race_target()
    entrants = list(members)
    for result, _ in chosen:
        for who in (result.home, result.away):
            if who is not None and who not in entrants:
                entrants.append(who)
    results = [r for r, _ in chosen]
    try:
        standings = league_table(entrants, results, _config(tournament, race),
                                 deductions={k: v for k, v in season.deductions.items() if k in entrants},
                                 only=set(members))
    except RankingError as exc:
        raise ValidationFailed(exc.code, exc.message, fields={"tiebreaks": exc.message}) from exc
    sources: dict[int, Counter[str]] = {t: Counter() for t in members}
    for result, (_, kind) in chosen:
        for who in (result.home, result.away):
            if who in sources:
                sources[who].update(kind)
    rows = []
    for row in standings.rows:
        team = by_id[row.entrant_id]
        data: dict[str, Any] = row.as_dict()
        data.pop("entrant_id")
        if sources[team.pk].get(Source.MATCH_TOTALS.value):  # no game scores behind some of its results
            data["chalks_for"] = data["chalks_against"] = data["chalk_difference"] = None
        data.update({
            "team_id": team.pk, "team": team.name, "club_id": team.club_id,
            "club": team.club_played_as or team.club.name,
            "division_id": team.division_id, "sources": dict(sorted(sources[team.pk].items())),
            "deductions": season.reasons.get(team.pk, []),
        })
        rows.append(data)
    return {
        "division": None if division is None else {"id": division.pk, "name": division.name, "order": division.order},
        "tie_breaks": list(standings.tie_breaks),
        "bye_policy": tournament.bye_policy_value().describe(),
        "race_target": race,
        "rows": rows,
    }


def league_standings(*, tournament: Tournament, division: Division | None = None) -> dict[str, Any]:
    """One table of the season: ``division``'s, or the overall table (``division`` None). Each row is the
    ranking core's row (``played`` counts matches, never byes; ``byes`` apart; ``wins`` include a bye the
    policy counts as a win) with ``team``, ``club``, ``division_id``, ``sources`` (how many of its counted
    fixtures came from ``hands``, ``paper_game``, ``match_totals``, ``forfeit``/``walkover``, ``bye``) and its
    ``deductions``; chalk columns are None for a team with a result known by its totals only. 400
    ``tie_break_not_fed`` when the season's tie-breaks need game scores that some result lacks."""
    tournament = Tournament.objects.get(pk=tournament.pk)  # the stored settings, not the caller's copy
    if division is not None:
        division = Division.objects.get(pk=division.pk, tournament_id=tournament.pk)
    return _table(tournament, _read(tournament), division)


def league_tables(*, tournament: Tournament) -> dict[str, Any]:
    """Every table of the season: ``overall`` and ``divisions`` (in their order), read once."""
    tournament = Tournament.objects.get(pk=tournament.pk)
    season = _read(tournament)
    return {
        "season": {"id": tournament.pk, "name": tournament.name, "label": tournament.season,
                   "league": tournament.league_id, "finished": tournament.status == Tournament.Status.FINISHED},
        "overall": _table(tournament, season, None),
        "divisions": [_table(tournament, season, d) for d in tournament.divisions.order_by("order", "id")],
    }


def season_tie_breaks_check(*, tournament: Tournament, tiebreaks: list[str] | None = None) -> None:
    """400 ``tie_break_not_fed`` when ``tiebreaks`` (default: the season's) need game scores and some counted
    result of the season is known by its totals only; for the console and the API before a change."""
    tournament = Tournament.objects.get(pk=tournament.pk)
    try:
        config = RankingConfig(tie_breaks=tuple(tiebreaks) if tiebreaks is not None else tournament.tie_break_order())
    except (FormatError, RankingError) as exc:
        raise ValidationFailed("tiebreaks_invalid", str(exc), fields={"tiebreaks": str(exc)}) from exc
    unfed = unfed_tie_breaks(config, _read(tournament).results)
    if unfed:
        labels = ", ".join(TIE_BREAKS.get(tb).label for tb in unfed)
        message = (f"{labels} needs each game's score, and some of this season's results are known by their match "
                   "totals only: choose tie-breaks without chalks for this season.")
        raise ValidationFailed("tie_break_not_fed", message, fields={"tiebreaks": message})


def league_statistics(*, tournament: Tournament) -> list[dict[str, Any]]:
    """Per team, each figure from the results that hold it (docs/adr/0012-result-source.md), never invented:

    * ``games_won``/``games_lost`` and ``hang_jacks_for``/``against``: every played result (hands, paper
      games, match totals); walkovers and byes add none;
    * ``chalks_for``/``against``: game scores only (hands and paper games), over ``chalks_over`` fixtures;
      ``chalks_unknown_in`` counts the fixtures known by their totals (None when no fixture feeds them);
    * ``hands``: the hands of its games scored from hands (``games_from_hands``); games typed from paper
      (``games_from_paper``) and fixtures known by their totals (``fixtures_from_totals``) have none;
    * ``kicks`` and ``game_counts``: from hands, and from paper games whose sheet had them
      (``kicks_unknown_games``, ``game_counts_unknown_games``: paper games without them).

    ``fixtures`` counts the team's counted fixtures by source."""
    season = _read(tournament)
    stats: dict[int, dict[str, Any]] = {}
    for team in season.teams:
        stats[team.pk] = {"team_id": team.pk, "team": team.name, "fixtures": Counter(), "games_won": 0, "games_lost": 0,
                          "hang_jacks_for": 0, "hang_jacks_against": 0, "chalks_for": 0, "chalks_against": 0,
                          "chalks_over": 0, "chalks_unknown_in": 0, "fixtures_from_totals": 0, "games_from_hands": 0,
                          "games_from_paper": 0, "hands": 0, "kicks": 0, "kicks_unknown_games": 0, "game_counts": 0,
                          "game_counts_unknown_games": 0}
    played_ids = []
    for result, (match_id, kind) in zip(season.results, season.matches, strict=True):
        sides = [(result.home, 0), (result.away, 1)] if result.away is not None else [(result.home, 0)]
        for who, side in sides:
            row = stats.get(who)
            if row is None:
                continue
            row["fixtures"].update(kind)
            if kind & {"bye", "walkover"}:
                continue
            row["games_won"] += result.bullseyes[side]
            row["games_lost"] += result.bullseyes[1 - side]
            row["hang_jacks_for"] += result.hang_jacks[side]
            row["hang_jacks_against"] += result.hang_jacks[1 - side]
            if result.chalks is None:
                row["chalks_unknown_in"] += 1
                row["fixtures_from_totals"] += 1
            else:
                row["chalks_for"] += result.chalks[side]
                row["chalks_against"] += result.chalks[1 - side]
                row["chalks_over"] += 1
        if not kind & {"bye", "walkover", Source.MATCH_TOTALS.value} and match_id is not None:
            played_ids.append(match_id)
    _game_figures(stats, played_ids)
    out = []
    for row in stats.values():
        row["fixtures"] = dict(sorted(row["fixtures"].items()))
        if not row["chalks_over"]:
            row["chalks_for"] = row["chalks_against"] = None
        out.append(row)
    return out


def _game_figures(stats: dict[int, dict[str, Any]], match_ids: list[int]) -> None:
    """Games by source, hands, kicks and Game counts per team over the confirmed games of ``match_ids``' boards."""
    matches = {m.pk: m for m in TeamMatch.objects.filter(pk__in=match_ids)}
    games = list(Game.objects.filter(board__team_match__in=match_ids, status=Game.Status.FINISHED,
                                     confirmed=True).select_related("board"))
    events_of: dict[int, list[Any]] = {}
    hands = Hand.objects.filter(game__in=[g.pk for g in games if g.result_source != Game.Source.PAPER_GAME],
                                status=Hand.Status.ACTIVE).values_list("game_id", "events")
    for game_id, events in hands:
        events_of.setdefault(game_id, []).append(events or [])
    for game in games:
        board = game.board
        match = matches[board.team_match_id or 0]
        home_side = 1 if board.pair_a_id in (match.lineup_b or []) else 0
        team_of_side = {home_side: match.team_a_id, 1 - home_side: match.team_b_id}
        rows = {side: stats.get(team or 0) for side, team in team_of_side.items()}
        if game.result_source == Game.Source.PAPER_GAME:
            for side, kicks, counts in ((0, game.kicks_a, game.game_counts_a), (1, game.kicks_b, game.game_counts_b)):
                row = rows[side]
                if row is None:
                    continue
                row["games_from_paper"] += 1
                if kicks is None:
                    row["kicks_unknown_games"] += 1
                else:
                    row["kicks"] += kicks
                if counts is None:
                    row["game_counts_unknown_games"] += 1
                else:
                    row["game_counts"] += counts
            continue
        for row in rows.values():
            if row is not None:
                row["games_from_hands"] += 1
                row["hands"] += len(events_of.get(game.pk, []))
        for events in events_of.get(game.pk, []):
            for event in events:
                row = rows.get(int(event.get("side", -1)))
                if row is None:
                    continue
                if event.get("kind") == "kick":
                    row["kicks"] += 1
                elif event.get("kind") == "game":
                    row["game_counts"] += 1
