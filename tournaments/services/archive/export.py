"""Exporting an event as one archive document (docs/archive.md).

Every row of the event is written with a **local id** (1, 2, ... per kind, in a fixed order) instead of its
database id, and every reference uses those local ids, so the document means the same on any server.
What is left out on purpose: tokens and their digests, device keys and labels, pairing codes, idempotency
keys, password hashes, e-mail addresses, the audit trail, the outbox and the late-hands inbox (who did
what is kept on each hand and confirmation as ``by``: the table of the tablet, or an account's name).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping
from decimal import Decimal
from typing import Any

from django.db.models import F
from django.utils import timezone

from tournaments.actors import Actor
from tournaments.models import (
    Availability,
    Board,
    Club,
    Entry,
    EntrySubstitution,
    Game,
    GameConfirmation,
    Hand,
    Pair,
    Player,
    Prize,
    Round,
    TeamMatch,
    Tournament,
)

from .._common import require_role
from ..errors import ValidationFailed
from ..standings import snapshot_rows, standings_compute, standings_input
from .league_export import fixture_fields, league_part, paper_fields, register_teams, season_tables

ARCHIVE_FORMAT = "hangjack-archive"
ARCHIVE_VERSION = 1

#: The tournament's settings the archive carries (the organiser's settings and what finishing recorded).
SETTINGS = (
    "name", "slug", "venue", "starts_on", "ends_on", "status", "published", "rules", "rules_resolved",
    "entrant_type", "pairing_system", "match_format", "team_format", "rounds_planned", "tiebreaks", "bye_policy",
    "forfeit_policy", "grace_minutes", "late_entry_bye", "club_avoidance", "time_called", "third_place_match",
    "round_minutes", "time_zone", "requires_check_in", "entry_fee", "currency", "one_prize_per_pair",
    "prize_ties", "finished_at", "season",
)
ROUND_FIELDS = ("number", "status", "match_format", "needs_review", "feasibility", "feasibility_note",
                "published_at", "ends_at", "closed_at", "reopened_at", "date", "venue")
#: A standings row's ids (replaced by local ids in the archive).
ROW_IDS = ("entrant_id", "entry_id", "club_id")


def plain(value: Any) -> Any:
    """A model value as JSON: datetimes in ISO 8601 (UTC), dates as YYYY-MM-DD, decimals as strings."""
    if isinstance(value, dt.datetime):
        return value.astimezone(dt.UTC).isoformat().replace("+00:00", "Z")
    if isinstance(value, dt.date):
        return value.isoformat()
    if isinstance(value, Decimal):
        return str(value)
    return value


def who(device: Any, user: Any) -> dict[str, Any] | None:
    """Who wrote a hand or a confirmation: a tablet (its table only) or an account (its name, never an
    address: a name with an ``@`` becomes "an organiser")."""
    if device is not None:
        return {"kind": "tablet", "table": device.table}
    if user is not None:
        name = (user.get_full_name() or user.get_username() or "").strip()
        return {"kind": "account", "name": name if name and "@" not in name else "an organiser"}
    return None


class LocalIds:
    """Database ids -> local ids (1, 2, ...) per kind, in the order first seen."""

    def __init__(self) -> None:
        self.ids: dict[str, dict[int, int]] = {}

    def add(self, kind: str, pk: int) -> int:
        table = self.ids.setdefault(kind, {})
        if pk not in table:
            table[pk] = len(table) + 1
        return table[pk]

    def get(self, kind: str, pk: int | None) -> int | None:
        return None if pk is None else self.ids.get(kind, {}).get(pk)


def archive_filename(tournament: Tournament) -> str:
    """The file name a download offers: ``<slug>.hangjack-archive.json``."""
    return f"{tournament.slug}.{ARCHIVE_FORMAT}.json"


def archive_export(*, tournament: Tournament, user: Actor = None) -> dict[str, Any]:
    """The event as an archive document (a plain JSON-ready dict). Any role on the event may export it
    (``read``; ``user`` None: the system, e.g. the management command). Reads only."""
    if user is not None:
        require_role(user, tournament.pk, "read")
    tournament = Tournament.objects.get(pk=tournament.pk)
    return _Exporter(tournament).document()


class _Exporter:
    def __init__(self, tournament: Tournament) -> None:
        self.t = tournament
        self.ids = LocalIds()

    def document(self) -> dict[str, Any]:
        entries = list(Entry.objects.filter(tournament=self.t).order_by(F("seed").asc(nulls_last=True), "id"))
        rounds = list(Round.objects.filter(tournament=self.t).order_by("number"))
        team_matches = list(TeamMatch.objects.filter(round__tournament=self.t)
                            .select_related("round", "entered_by", "confirmed_by")
                            .order_by("round__number", "id"))
        boards = list(Board.objects.filter(round__tournament=self.t).select_related("round")
                      .order_by("round__number", F("table").asc(nulls_last=True), "id"))
        games = list(Game.objects.filter(board__round__tournament=self.t).select_related("entered_by", "confirmed_by")
                     .order_by("board_id", "number", "id"))
        board_order = {b.pk: i for i, b in enumerate(boards)}
        games.sort(key=lambda g: (board_order[g.board_id], g.number, g.pk))
        team_clubs = register_teams(self.t, self.ids.add)
        people = self._people(entries, boards, team_matches, team_clubs)
        for e in entries:
            self.ids.add("entry", e.pk)
        for m in team_matches:
            self.ids.add("team_match", m.pk)
        for b in boards:
            self.ids.add("board", b.pk)
        for g in games:
            self.ids.add("game", g.pk)
        hands = self._hands(games)
        confirmations = self._confirmations(games)
        return {
            "format": ARCHIVE_FORMAT,
            "version": ARCHIVE_VERSION,
            "exported_at": plain(timezone.now()),
            "tournament": {name: plain(getattr(self.t, name)) for name in SETTINGS},
            "people": people,
            "entries": [self._entry(e) for e in entries],
            "availability": self._availability(),
            "rounds": [self._round(r) for r in rounds],
            "team_matches": [self._team_match(m) for m in team_matches],
            "boards": [self._board(b) for b in boards],
            "games": [self._game(g) for g in games],
            "hands": hands,
            "confirmations": confirmations,
            "prizes": [self._prize(p) for p in Prize.objects.filter(tournament=self.t).order_by("order", "id")],
            "standings": self._standings(),
            **league_part(self.t, self.ids.get, plain, who),
        }

    # ---- people --------------------------------------------------------------------------------------
    def _people(self, entries: list[Entry], boards: list[Board], matches: list[TeamMatch],
                team_clubs: set[int]) -> dict[str, Any]:
        pair_ids = [e.pair_id for e in entries]
        pairs = {p.pk: p for p in Pair.objects.filter(pk__in=pair_ids)}
        player_ids: set[int] = set()
        club_ids: set[int] = set(team_clubs)
        for e in entries:
            pair = pairs[e.pair_id]
            player_ids.update(x for x in (pair.player_1_id, pair.player_2_id, e.player_1_id, e.player_2_id) if x)
            club_ids.update(x for x in (pair.club_id, e.club_id) if x)
        for sub in EntrySubstitution.objects.filter(entry__tournament=self.t):
            player_ids.update((sub.in_player_id, sub.out_player_id))
        for b in boards:
            player_ids.update(int(v) for v in (b.seating or {}).values() if isinstance(v, int))
        for m in matches:
            club_ids.update(x for x in (m.club_a_id, m.club_b_id) if x)
        players = list(Player.objects.filter(pk__in=player_ids).order_by("name", "id"))
        club_ids.update(p.club_id for p in players if p.club_id)
        clubs = list(Club.objects.filter(pk__in=club_ids).order_by("name", "id"))
        for c in clubs:
            self.ids.add("club", c.pk)
        for p in players:
            self.ids.add("player", p.pk)
        ordered_pairs = [pairs[pk] for pk in dict.fromkeys(pair_ids)]
        for p in ordered_pairs:
            self.ids.add("pair", p.pk)
        return {
            "clubs": [{"id": self.ids.get("club", c.pk), "name": c.name, "short_name": c.short_name, "town": c.town}
                      for c in clubs],
            "players": [{"id": self.ids.get("player", p.pk), "name": p.name, "club": self.ids.get("club", p.club_id)}
                        for p in players],
            "pairs": [{"id": self.ids.get("pair", p.pk), "name": p.name, "player_1": self.ids.get("player", p.player_1_id),
                       "player_2": self.ids.get("player", p.player_2_id), "club": self.ids.get("club", p.club_id),
                       "seed": p.seed} for p in ordered_pairs],
        }

    # ---- the field -----------------------------------------------------------------------------------
    def _entry(self, e: Entry) -> dict[str, Any]:
        subs = EntrySubstitution.objects.filter(entry=e).order_by("round_from", "id") if e.substitutions_count else []
        return {
            "id": self.ids.get("entry", e.pk), "pair": self.ids.get("pair", e.pair_id), "seed": e.seed,
            "withdrawn": e.withdrawn, "withdrawn_from": e.withdrawn_from, "joins_from": e.joins_from,
            "tags": list(e.tags or []), "fee_paid": e.fee_paid, "club": self.ids.get("club", e.club_id),
            "club_name": e.club_name,
            "player_1": self.ids.get("player", e.player_1_id), "player_2": self.ids.get("player", e.player_2_id),
            "team": self.ids.get("team", e.team_id),
            "substitutions": [{"round_from": s.round_from, "out_player": self.ids.get("player", s.out_player_id),
                               "in_player": self.ids.get("player", s.in_player_id), "reason": s.reason,
                               "at": plain(s.created_at)} for s in subs],
        }

    def _availability(self) -> list[dict[str, Any]]:
        rows = Availability.objects.filter(entry__tournament=self.t).order_by("round_number", "entry_id")
        return [{"entry": self.ids.get("entry", a.entry_id), "round": a.round_number, "state": a.state} for a in rows]

    def _round(self, r: Round) -> dict[str, Any]:
        out = {name: plain(getattr(r, name)) for name in ROUND_FIELDS}
        out["close_record"] = self._close_record(r.close_record)
        return out

    def _close_record(self, record: Any) -> dict[str, Any] | None:
        """What closing changed (``Round.close_record``), its ids as local ids, so that the round can still be
        reopened exactly after an import. Confirmations are named by (game, party)."""
        if not isinstance(record, Mapping):
            return None
        games = lambda pks: [x for x in (self.ids.get("game", pk) for pk in pks or []) if x is not None]  # noqa: E731
        made = GameConfirmation.objects.filter(pk__in=record.get("confirmations") or []).order_by("id")
        return {
            "status_before": record.get("status_before"),
            "confirmations": [{"game": self.ids.get("game", c.game_id), "party": c.party} for c in made],
            "confirmed": games(record.get("confirmed")), "awarded": games(record.get("awarded")),
            "voided": games(record.get("voided")),
            "time_called_boards": [x for x in (self.ids.get("board", pk) for pk in record.get("time_called_boards") or [])
                                   if x is not None],
            "games_after": {str(self.ids.get("game", int(pk))): state
                            for pk, state in (record.get("games_after") or {}).items()
                            if self.ids.get("game", int(pk)) is not None},
        }

    def _team_match(self, m: TeamMatch) -> dict[str, Any]:
        return {
            "id": self.ids.get("team_match", m.pk), "round": m.round.number, "club_a": self.ids.get("club", m.club_a_id),
            "club_b": self.ids.get("club", m.club_b_id), "team_format": m.team_format,
            "lineup_a": [self.ids.get("entry", pk) for pk in m.lineup_a or []],
            "lineup_b": [self.ids.get("entry", pk) for pk in m.lineup_b or []],
            **fixture_fields(m, self.ids.get, plain, who),
            "result": {"bullseyes": [m.bullseyes_a, m.bullseyes_b], "hang_jacks": [m.hang_jacks_a, m.hang_jacks_b],
                       "decided": m.decided, "winner": m.winner, "explanation": m.explanation},
        }

    def _board(self, b: Board) -> dict[str, Any]:
        seating = None
        if isinstance(b.seating, Mapping):
            seating = {str(seat): self.ids.get("player", pk) for seat, pk in b.seating.items()}
        return {
            "id": self.ids.get("board", b.pk), "round": b.round.number, "table": b.table,
            "pair_a": self.ids.get("entry", b.pair_a_id), "pair_b": self.ids.get("entry", b.pair_b_id),
            "team_match": self.ids.get("team_match", b.team_match_id), "slot": b.slot, "match_format": b.match_format,
            "seating": seating, "first_dealer": b.first_dealer, "help_called": b.help_called,
            "needs_review": b.needs_review, "explanation": b.explanation, "result_source": b.result_source,
            "forfeited": b.forfeited,
            "result": {"bullseyes": [b.bullseyes_a, b.bullseyes_b], "chalks": [b.chalks_a, b.chalks_b],
                       "hang_jacks": [b.hang_jacks_a, b.hang_jacks_b], "decided": b.decided, "winner": b.winner,
                       "is_draw": b.is_draw, "all_confirmed": b.all_confirmed, "disputed": b.disputed},
        }

    def _game(self, g: Game) -> dict[str, Any]:
        return {
            "id": self.ids.get("game", g.pk), "board": self.ids.get("board", g.board_id), "number": g.number,
            "first_dealer": g.first_dealer, "rules": g.rules, "status": g.status, "awarded": g.awarded,
            "confirmed": g.confirmed, "started_at": plain(g.started_at), "ended_at": plain(g.ended_at),
            **paper_fields(g, who),
            "result": {"score": list(g.score), "winner": g.winner, "next_dealer": g.next_dealer,
                       "last_hand": g.last_hand_number},
        }

    def _hands(self, games: Iterable[Game]) -> list[dict[str, Any]]:
        order = {g.pk: i for i, g in enumerate(games)}
        hands = list(Hand.objects.filter(game_id__in=order).select_related("device", "user"))
        hands.sort(key=lambda h: (order[h.game_id], h.number, h.version, h.pk))
        version_of = {h.pk: h.version for h in hands}
        return [{
            "game": self.ids.get("game", h.game_id), "number": h.number, "version": h.version, "status": h.status,
            "supersedes": version_of.get(h.supersedes_id) if h.supersedes_id else None, "dealer": h.dealer,
            "form": h.form, "record": h.record,
            "result": {"trump": h.trump or None, "events": h.events, "score": list(h.score_after), "winner": h.winner,
                       "next_dealer": h.next_dealer},
            "at": plain(h.created_at), "voided_at": plain(h.voided_at), "by": who(h.device, h.user),
        } for h in hands]

    def _confirmations(self, games: Iterable[Game]) -> list[dict[str, Any]]:
        order = {g.pk: i for i, g in enumerate(games)}
        rows = list(GameConfirmation.objects.filter(game_id__in=order).select_related("device", "user"))
        rows.sort(key=lambda c: (order[c.game_id], c.created_at, c.pk))
        return [{"game": self.ids.get("game", c.game_id), "party": c.party, "agrees": c.agrees, "reason": c.reason,
                 "cleared": c.cleared, "at": plain(c.created_at), "by": who(c.device, c.user)} for c in rows]

    def _prize(self, p: Prize) -> dict[str, Any]:
        return {"category": p.category, "place": p.place, "tag": p.tag, "label": p.label, "amount": plain(p.amount),
                "order": p.order}

    # ---- the standings the archive's results give ---------------------------------------------------------
    def _standings(self) -> dict[str, Any]:
        """The standings derived now from the stored results (what an import must derive again)."""
        data = standings_input(self.t)
        pairs, clubs = standings_compute(self.t, data)
        rows, club_rows = snapshot_rows(pairs, clubs, dict(data.entries))
        try:
            tables = season_tables(self.t, self.ids.get)
        except ValidationFailed:  # the season's tie-breaks cannot rank its results: no table to compare
            tables = None
        return {"after_round": data.after_round,
                "pairs": [self.local_row(row, "entry") for row in rows],
                "clubs": [self.local_row(row, "club") for row in club_rows],
                "league_tables": tables}

    def local_row(self, row: Mapping[str, Any], kind: str) -> dict[str, Any]:
        return local_row(row, kind, lambda k, pk: self.ids.get(k, pk))


def local_row(row: Mapping[str, Any], kind: str, local: Any) -> dict[str, Any]:
    """A standings row with its ids replaced: ``entry`` and ``club`` (pairs) or ``club`` (clubs) as local ids."""
    out = {key: value for key, value in row.items() if key not in ROW_IDS}
    if kind == "entry":
        out["entry"] = local("entry", row.get("entry_id", row.get("entrant_id")))
        out["club"] = local("club", row.get("club_id"))
    else:
        out["club"] = local("club", row.get("club_id", row.get("entrant_id")))
    return out


__all__ = ["ARCHIVE_FORMAT", "ARCHIVE_VERSION", "LocalIds", "archive_export", "archive_filename", "local_row",
           "plain", "who"]
