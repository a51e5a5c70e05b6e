"""Standings: one batched recomputation from confirmed games, stored as a snapshot keyed by its input.

``tournament_standings_recompute(tournament_id=...)`` reads a tournament's published rounds in a fixed
number of queries whatever the field's size (entries, rounds, boards, team matches, the latest digest),
turns the boards' derived results into ``ranking.BoardResult``s and ranks them with the tournament's
tie-break order (``ranking.compute_standings``). What counts (docs/decisions.md):

* bullseyes, chalks and hang jacks per confirmed game: the board's derived fields
  (``services.boards.board_results_refresh`` counts confirmed games only);
* match points once the board's match is decided and all its games are confirmed (``all_confirmed``);
* a bye (a board without pair B) as ``tournament.bye_policy`` says: by default a win with the round's
  average per pair over its confirmed boards, never more than a real win gives;
* boards of pending or drafted rounds never count (a draft may still change).

Clubs are ranked from their pairs' rows in a pairs event (``ranking.club_standings``) and from team
matches in a club-team event (``ranking.team_match_result`` then ``compute_standings``, so head-to-head
and Buchholz apply at club level); a team match counts once it is decided and every board's games are
confirmed.

The input is digested (SHA-256 of its canonical JSON): the same input stores nothing new, so the task
may run any number of times. The tournament row is locked for the whole recomputation, so two
recomputations of one tournament never interleave (and a pairing waits for it).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.db.models import Exists, F, OuterRef

from tournaments.formats import FormatError
from tournaments.models import Board, Entry, Game, Round, StandingsSnapshot, TeamMatch, Tournament
from tournaments.models.querysets import RoundQuerySet
from tournaments.ranking import (
    BoardResult,
    ByeRecord,
    RankingConfig,
    RankingError,
    Standings,
    club_standings,
    compute_standings,
    team_match_result,
)

from .errors import ValidationFailed
from .outbox import outbox_enqueue

#: The published results' render of a new snapshot's standings (``publishing.tasks``; named, not imported:
#: ``publishing`` sits above this app).
PUBLISH_STANDINGS_TASK = "publishing.tasks.publish_standings"

#: Rounds whose boards count: a pending or drafted round may still change.
COUNTED_ROUNDS = RoundQuerySet.PUBLIC_STATUSES

#: A board as the standings read it: the first ten as they are, then "counts for match points", who
#: forfeited and whether the forfeit's figures are awarded (no game kept).
_BOARD_FIELDS = (
    "round__number", "pair_a_id", "pair_b_id", "team_match_id", "bullseyes_a", "bullseyes_b", "chalks_a",
    "chalks_b", "hang_jacks_a", "hang_jacks_b", "decided", "all_confirmed", "forfeited",
)


@dataclass(frozen=True)
class StandingsInput:
    """Everything the standings are computed from, as plain data (what the digest covers).

    ``entries``: (entry id, club id) by seed; ``clubs``: club ids in their tie order; ``boards``: one
    tuple per board (round, pair A, pair B or None, team match id or None, bullseyes, chalks and hang
    jacks per side, counts for match points); ``team_matches``: (id, round, club A, club B or None,
    decided); ``after_round``: the last closed round.
    """

    entries: tuple[tuple[int, int | None], ...]
    clubs: tuple[int, ...]
    boards: tuple[tuple[Any, ...], ...]
    team_matches: tuple[tuple[Any, ...], ...]
    club_teams: bool
    tie_breaks: tuple[str, ...]
    bye_policy: dict[str, Any]
    after_round: int
    race_target: int | None = None
    forfeit_policy: dict[str, Any] | None = None

    def digest(self) -> str:
        """SHA-256 of the canonical JSON of this input."""
        raw = json.dumps(
            [self.entries, self.clubs, self.boards, self.team_matches, self.club_teams, self.tie_breaks,
             self.bye_policy, self.after_round, self.race_target, self.forfeit_policy],
            separators=(",", ":"),
        )
        return hashlib.sha256(raw.encode()).hexdigest()


def ranking_config(tournament: Tournament) -> RankingConfig:
    """The tournament's tie-break order, bye policy and race target as a ``RankingConfig`` (400 when the
    stored settings do not fit together)."""
    try:
        return RankingConfig(
            tie_breaks=tournament.tie_break_order(), bye=tournament.bye_policy_value(),
            race_target=tournament.race_target(), forfeit=tournament.forfeit_policy_value(),
        )
    except FormatError as exc:  # a stored setting the registry refuses (written around the services)
        field = exc.path or "tiebreaks"
        code = f"{field.split('.')[0].split('[')[0]}_invalid"
        raise ValidationFailed(code, exc.message, fields={field: exc.message}) from exc
    except RankingError as exc:
        raise ValidationFailed("bye_policy_invalid", exc.message, fields={"bye_policy": exc.message}) from exc


def standings_input(tournament: Tournament) -> StandingsInput:
    """Read what the standings count: four queries (five in a club-team event), whatever the field's size."""
    club_teams = tournament.is_club_teams
    rounds = list(Round.objects.filter(tournament=tournament).order_by().values_list("number", "status"))
    counted = [number for number, status in rounds if status in COUNTED_ROUNDS]
    after_round = max((number for number, status in rounds if status == Round.Status.CLOSED), default=0)
    entries = tuple(
        (row[0], row[1]) for row in Entry.objects.filter(tournament=tournament)
        .order_by(F("seed").asc(nulls_last=True), "id").values_list("id", "pair__club_id")
    )
    boards: tuple[tuple[Any, ...], ...] = ()
    team_matches: tuple[tuple[Any, ...], ...] = ()
    if counted:
        kept = Game.objects.filter(board=OuterRef("pk"), status=Game.Status.FINISHED, confirmed=True)
        boards = tuple(
            (*row[:10], bool(row[10] and row[11]), row[12], row[12] is not None and not row[13])
            for row in Board.objects.filter(round__tournament=tournament, round__number__in=counted)
            .annotate(kept=Exists(kept)).order_by("round__number", "id").values_list(*_BOARD_FIELDS, "kept")
        )
        if club_teams:
            team_matches = tuple(
                TeamMatch.objects.filter(round__tournament=tournament, round__number__in=counted)
                .order_by("round__number", "id").values_list("id", "round__number", "club_a_id", "club_b_id", "decided")
            )
    clubs: list[int] = []
    for _, club in entries:  # clubs in the order of their best-seeded pair
        if club is not None and club not in clubs:
            clubs.append(club)
    config = ranking_config(tournament)
    return StandingsInput(
        entries=entries, clubs=tuple(clubs), boards=boards, team_matches=team_matches, club_teams=club_teams,
        tie_breaks=config.tie_breaks, bye_policy=config.bye.to_dict(), after_round=after_round,
        race_target=config.race_target, forfeit_policy=config.forfeit.to_dict(),
    )


def standings_compute(tournament: Tournament, data: StandingsInput) -> tuple[Standings, Standings]:
    """Pairs' and clubs' standings from ``data`` (pure: no queries)."""
    config = ranking_config(tournament)
    results: list[BoardResult] = []
    byes: list[ByeRecord] = []
    by_match: dict[int, list[BoardResult]] = {}
    match_confirmed: dict[int, bool] = {}
    for (rnd, a, b, team_match, ba, bb, ca, cb, ha, hb, counts, forfeited, awarded) in data.boards:
        if b is None:
            byes.append(ByeRecord(rnd, a))
            continue
        result = BoardResult(rnd, a, b, (ba, bb), (ca, cb), (ha, hb), counts, forfeited, awarded)
        results.append(result)
        if team_match is not None:
            by_match.setdefault(team_match, []).append(result)
            match_confirmed[team_match] = match_confirmed.get(team_match, True) and counts
    entry_ids = [entry for entry, _ in data.entries]
    club_of = {entry: club for entry, club in data.entries if club is not None}
    pairs = compute_standings(entry_ids, results, byes, config)
    if not data.club_teams:
        clubs = club_standings(pairs, club_of, clubs=list(data.clubs)) if data.clubs else Standings((), ())
        return pairs, clubs
    club_results: list[BoardResult] = []
    club_byes: list[ByeRecord] = []
    for (match_id, rnd, club_a, club_b, decided) in data.team_matches:
        if club_b is None:
            club_byes.append(ByeRecord(rnd, club_a))
            continue
        boards = by_match.get(match_id, [])
        if not boards:
            continue
        counts = bool(decided and match_confirmed.get(match_id, False))
        club_results.append(team_match_result(rnd, club_a, club_b, boards, club_of, decided=counts))
    clubs = compute_standings(list(data.clubs), club_results, club_byes, config)
    return pairs, clubs


def snapshot_rows(pairs: Standings, clubs: Standings, club_of: Mapping[int, int | None]) -> tuple[list[Any], list[Any]]:
    """JSON rows: each pair row carries ``entry_id`` and ``club_id``, each club row ``club_id``."""
    rows = [{"entry_id": r.entrant_id, "club_id": club_of.get(r.entrant_id), **r.as_dict()} for r in pairs.rows]
    club_rows = [{"club_id": r.entrant_id, **r.as_dict()} for r in clubs.rows]
    return rows, club_rows


@transaction.atomic
def tournament_standings_recompute(*, tournament_id: int, nowait: bool = False) -> bool:
    """Recompute the tournament's standings from confirmed games; True when a new snapshot was stored.

    Locks the tournament row (one recomputation per tournament at a time); with ``nowait`` a row another
    transaction holds raises OperationalError at once instead of waiting (PostgreSQL; SQLite has no row
    locks). A constant number of queries whatever the number of pairs; the same input as the latest snapshot
    stores nothing.

    The lock is ``FOR NO KEY UPDATE``, not ``FOR UPDATE``: it excludes other recomputations all the same, but
    not the foreign-key check (``FOR KEY SHARE``) that every committing hand and confirmation makes on this
    row through its audit record. With ``FOR UPDATE`` each tablet write committing during a recomputation
    (0.05-0.8 s, several a second at a national day) waited for it: the tablets' p99 (docs/operations.md).
    """
    tournament = Tournament.objects.select_for_update(nowait=nowait, no_key=True).filter(pk=tournament_id).first()
    if tournament is None:
        return False
    data = standings_input(tournament)
    digest = data.digest()
    latest = (
        StandingsSnapshot.objects.filter(tournament_id=tournament.pk).order_by("-created_at", "-id")
        .values_list("source_hash", flat=True).first()
    )
    if latest == digest:
        return False
    pairs, clubs = standings_compute(tournament, data)
    rows, club_rows = snapshot_rows(pairs, clubs, dict(data.entries))
    StandingsSnapshot.objects.create(
        tournament=tournament, after_round=data.after_round, source_hash=digest, rows=rows, clubs=club_rows,
    )
    if tournament.published:  # its standings' files, rendered by the worker once this commits (docs/adr/0013)
        outbox_enqueue(PUBLISH_STANDINGS_TASK, [tournament.pk], coalesce_key=f"publish-standings:{tournament.pk}")
    return True


def standings_latest(*, tournament: Tournament, fresh: bool = False) -> StandingsSnapshot | None:
    """The latest snapshot of ``tournament`` (recomputed first when ``fresh``)."""
    if fresh:
        tournament_standings_recompute(tournament_id=tournament.pk)
    return StandingsSnapshot.objects.filter(tournament=tournament).order_by("-created_at", "-id").first()


def standings_order(snapshot: StandingsSnapshot | None, *, clubs: bool = False) -> Sequence[Mapping[str, Any]]:
    """The snapshot's rows best first (pairs, or clubs with ``clubs``); empty without a snapshot."""
    if snapshot is None:
        return []
    return list(snapshot.clubs if clubs else snapshot.rows)


__all__ = [
    "COUNTED_ROUNDS", "StandingsInput", "ranking_config", "standings_compute", "standings_input",
    "standings_latest", "standings_order", "tournament_standings_recompute",
]
