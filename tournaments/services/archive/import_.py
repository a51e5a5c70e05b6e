"""Importing an archive: a preview of what would be created, and the import itself in one transaction.

Order (docs/archive.md, "Importing"): the shape (``schema``), the references (``refs``), every live hand
replayed by the engine (``replay``), all before any write; then, in one transaction, the people matched or
created in the importer's organisation (``people``), the tournament (a new slug when its own is taken) with
the importer as its organiser, the entries, rounds, team matches, boards, games, every version of every hand
and the confirmations; then every board and team match derived again by the services that derive them at
the table (``board_results_refresh``, ``team_match_refresh``) and the standings recomputed, each compared with
the archive's figures. The first difference refuses the whole import (400 ``archive_mismatch``).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from django.db import DEFAULT_DB_ALIAS, connections, transaction
from django.utils.dateparse import parse_date, parse_datetime

from tournaments.actors import Actor
from tournaments.models import (
    Availability,
    Board,
    BoardPair,
    Entry,
    EntrySubstitution,
    Game,
    GameConfirmation,
    Hand,
    Organisation,
    Prize,
    Round,
    TeamMatch,
    Tournament,
)
from tournaments.selectors.final import final_results_data

from .._common import actor
from ..accounts import may_organise
from ..audit import audit_record
from ..boards import board_results_refresh, team_match_refresh
from ..errors import NotAllowed, ValidationFailed
from ..events import tournament_create
from ..organisations import organisation_personal, require_member
from ..publication import public_change
from ..standings import standings_latest
from .export import SETTINGS, local_row
from .league_import import (
    DERIVED_SOURCE,
    fixture_values,
    league_after,
    league_tables_compare,
    league_write,
    paper_values,
)
from .people import PeoplePlan, people_plan, people_write
from .refs import archive_check_references
from .replay import Replayed, archive_replay, board_label, mismatch
from .schema import archive_validate

#: Settings written after ``tournament_create`` (recorded, not chosen).
_RECORDED = ("rules_resolved", "one_prize_per_pair", "prize_ties", "finished_at", "season")


@dataclass
class ArchivePreview:
    """What an import would create: the event's name and (free) slug, the organisation, counts per kind, and
    the people matched or created. ``slug_changed`` says the archive's own slug is taken here."""

    name: str
    slug: str
    slug_changed: bool
    organisation: str
    exported_at: str
    counts: dict[str, int] = field(default_factory=dict)
    people: dict[str, dict[str, int]] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "slug": self.slug, "slug_changed": self.slug_changed,
                "organisation": self.organisation, "exported_at": self.exported_at, "counts": self.counts,
                "people": self.people}


def _organisation(user: Actor, owner: Organisation | None) -> Organisation:
    if owner is None:
        if actor(user) is None:
            raise ValidationFailed("owner_required", "Name the organisation the archive goes into.",
                                   fields={"owner": "an organisation"})
        return organisation_personal(user=user)
    require_member(user, owner.pk, field="owner", what="This organisation")
    return owner


def _free_slug(slug: str) -> str:
    if not Tournament.objects.filter(slug=slug).exists():
        return slug
    n = 2
    while Tournament.objects.filter(slug=f"{slug[:72]}-{n}").exists():
        n += 1
    return f"{slug[:72]}-{n}"


def _checked(document: Any, user: Actor) -> tuple[dict[str, Any], Replayed]:
    if actor(user) is not None and not may_organise(user):
        raise NotAllowed("not_organiser", "Importing an archive creates an event: it needs an account that may "
                         "organise.")
    archive_validate(document)
    archive_check_references(document)
    return document, archive_replay(document)


def _counts(doc: dict[str, Any]) -> dict[str, int]:
    return {"entries": len(doc["entries"]), "rounds": len(doc["rounds"]), "team_matches": len(doc["team_matches"]),
            "boards": len(doc["boards"]), "games": len(doc["games"]), "hands": len(doc["hands"]),
            "live_hands": sum(1 for h in doc["hands"] if h["status"] == "active"),
            "confirmations": len(doc["confirmations"]), "prizes": len(doc["prizes"])}


def archive_preview(*, document: Any, user: Actor, owner: Organisation | None = None) -> ArchivePreview:
    """Check the archive as the import would (shape, references, every live hand replayed) and say what it
    would create, writing nothing. Refusals as ``archive_import``'s."""
    doc, _ = _checked(document, user)
    org = _organisation(user, owner)
    plan = people_plan(doc["people"], org.pk)
    slug = _free_slug(doc["tournament"]["slug"])
    return ArchivePreview(name=doc["tournament"]["name"], slug=slug, slug_changed=slug != doc["tournament"]["slug"],
                          organisation=org.name, exported_at=doc["exported_at"], counts=_counts(doc),
                          people=plan.counts())


def archive_import(*, document: Any, user: Actor, owner: Organisation | None = None) -> Tournament:
    """Import an archive as a new event of ``owner`` (default: the importer's personal organisation), the
    importer its organiser. All or nothing; refusals: 400 ``archive_not_json``, ``archive_format``,
    ``archive_version``, ``archive_invalid`` (shape or references, naming the path), ``archive_mismatch``
    (a derived result differs, naming the board, game and hand), ``owner_required``; 403 ``not_owner``,
    ``not_organiser``."""
    return archive_import_summary(document=document, user=user, owner=owner)[0]


@transaction.atomic
def archive_import_summary(*, document: Any, user: Actor,
                           owner: Organisation | None = None) -> tuple[Tournament, ArchivePreview]:
    """``archive_import``, also returning what it created as the preview counts it (one check, one replay)."""
    doc, replayed = _checked(document, user)
    org = _organisation(user, owner)
    plan = people_plan(doc["people"], org.pk)
    slug = _free_slug(doc["tournament"]["slug"])
    summary = ArchivePreview(name=doc["tournament"]["name"], slug=slug, slug_changed=slug != doc["tournament"]["slug"],
                             organisation=org.name, exported_at=doc["exported_at"], counts=_counts(doc),
                             people=plan.counts())
    return _Importer(doc, replayed, user, org, plan).run(), summary


def _when(value: Any) -> dt.datetime | None:
    return parse_datetime(value) if isinstance(value, str) else None


class _Importer:
    def __init__(self, doc: dict[str, Any], replayed: Replayed, user: Actor, org: Organisation,
                 plan: PeoplePlan) -> None:
        self.doc, self.replayed, self.user, self.org, self.plan = doc, replayed, user, org, plan
        self.ids: dict[str, dict[int, int]] = {}

    def run(self) -> Tournament:
        self.ids = people_write(self.doc["people"], self.plan, self.org.pk)
        t = self._tournament()
        league_write(self.doc, t, self.org, self.ids)
        self._entries(t)
        rounds = self._rounds(t)
        self._boards(rounds)
        self._games()
        self._hands()
        self._confirmations()
        self._close_records(rounds)
        league_after(self.doc, t, self.ids)
        self._derive(t, rounds)
        Prize.objects.bulk_create([Prize(tournament=t, category=p["category"], place=p.get("place"),
                                         tag=p.get("tag", ""), label=p.get("label", ""), order=p.get("order", 0),
                                         amount=Decimal(p["amount"]) if p.get("amount") is not None else None)
                                   for p in self.doc["prizes"]])
        self._standings(t)
        audit_record(action="archive.import", obj=t, tournament_id=t.pk, user=actor(self.user),
                     after={"archive_slug": self.doc["tournament"]["slug"], "exported_at": self.doc["exported_at"],
                            "organisation": self.org.pk, **_counts(self.doc)})
        public_change(t.pk, full=True, standings=True)  # a published event's public pages (docs/adr/0013)
        return t

    # ---- the event and its field ---------------------------------------------------------------------
    def _tournament(self) -> Tournament:
        src = self.doc["tournament"]
        settings = {k: v for k, v in src.items() if k in SETTINGS and k not in ("name", "slug", *_RECORDED)}
        for key in ("starts_on", "ends_on"):
            if isinstance(settings.get(key), str):
                settings[key] = parse_date(settings[key])
        if isinstance(settings.get("entry_fee"), str):
            settings["entry_fee"] = Decimal(settings["entry_fee"])
        t = tournament_create(user=self.user, name=src["name"], slug=_free_slug(src["slug"]), **settings)
        recorded = {k: src[k] for k in _RECORDED if k in src}
        if "finished_at" in recorded:
            recorded["finished_at"] = _when(recorded["finished_at"])
        if not recorded.get("rules_resolved"):
            recorded.pop("rules_resolved", None)
        Tournament.objects.filter(pk=t.pk).update(**recorded)
        t.refresh_from_db()
        return t

    def _entries(self, t: Tournament) -> None:
        rows = self.doc["entries"]
        player = self.ids["player"].get
        # The club's name of the day (``club_name``); an archive without it (older) or with it empty: the name
        # the archive gives the club, i.e. its name when exported.
        club_names = {c["id"]: c["name"].strip() for c in self.doc["people"]["clubs"]}
        made = Entry.objects.bulk_create([Entry(
            tournament=t, pair_id=self.ids["pair"][e["pair"]], seed=e.get("seed"), withdrawn=e.get("withdrawn", False),
            withdrawn_from=e.get("withdrawn_from"), joins_from=e.get("joins_from"), tags=e.get("tags", []),
            fee_paid=e.get("fee_paid", False), club_id=self.ids["club"].get(e.get("club")),
            club_name=e.get("club_name") or club_names.get(e.get("club"), ""),
            player_1_id=player(e.get("player_1")), player_2_id=player(e.get("player_2")),
            team_id=self.ids["team"].get(e.get("team")),
            substitutions_count=len(e.get("substitutions", []))) for e in rows])
        self.ids["entry"] = {e["id"]: row.pk for e, row in zip(rows, made, strict=True)}
        subs = [(EntrySubstitution(entry_id=self.ids["entry"][e["id"]], round_from=s["round_from"],
                                   out_player_id=player(s["out_player"]), in_player_id=player(s["in_player"]),
                                   reason=s.get("reason", "")), s.get("at"))
                for e in rows for s in e.get("substitutions", [])]
        EntrySubstitution.objects.bulk_create([s for s, _ in subs])
        _restamp([(s, "created_at", at) for s, at in subs], EntrySubstitution)
        Availability.objects.bulk_create([Availability(entry_id=self.ids["entry"][a["entry"]], round_number=a["round"],
                                                       state=a["state"]) for a in self.doc["availability"]])

    def _rounds(self, t: Tournament) -> dict[int, Round]:
        rows = [Round(tournament=t, number=r["number"], status=r["status"], match_format=r.get("match_format"),
                      needs_review=r.get("needs_review", False), feasibility=r.get("feasibility", ""),
                      feasibility_note=r.get("feasibility_note", ""), published_at=_when(r.get("published_at")),
                      ends_at=_when(r.get("ends_at")), closed_at=_when(r.get("closed_at")),
                      reopened_at=_when(r.get("reopened_at")), venue=r.get("venue", ""),
                      date=parse_date(r["date"]) if r.get("date") else None) for r in self.doc["rounds"]]
        Round.objects.bulk_create(rows)
        for r in rows:
            r.tournament = t
        return {r.number: r for r in rows}

    def _boards(self, rounds: dict[int, Round]) -> None:
        club, entry = self.ids["club"], self.ids["entry"]
        matches = [TeamMatch(round=rounds[m["round"]], club_a_id=club[m["club_a"]], club_b_id=club.get(m["club_b"]),
                             team_format=m.get("team_format") or {}, lineup_a=[entry[x] for x in m.get("lineup_a", [])],
                             lineup_b=[entry[x] for x in m.get("lineup_b", [])], **fixture_values(m, self.ids))
                   for m in self.doc["team_matches"]]
        TeamMatch.objects.bulk_create(matches)
        self.ids["team_match"] = {m["id"]: row.pk for m, row in zip(self.doc["team_matches"], matches, strict=True)}
        self.team_matches = matches
        boards = []
        for b in self.doc["boards"]:
            seating = b.get("seating")
            if isinstance(seating, dict):
                seating = {seat: self.ids["player"].get(pk) for seat, pk in seating.items()}
            boards.append(Board(
                round=rounds[b["round"]], table=b.get("table"), pair_a_id=entry[b["pair_a"]],
                pair_b_id=entry.get(b["pair_b"]), team_match_id=self.ids["team_match"].get(b.get("team_match")),
                slot=b.get("slot"), match_format=b.get("match_format") or {}, seating=seating,
                first_dealer=b.get("first_dealer"), help_called=b.get("help_called", False),
                needs_review=b.get("needs_review", False), explanation=b.get("explanation", ""),
                result_source=b.get("result_source", Board.Source.HANDS), forfeited=b.get("forfeited")))
        Board.objects.bulk_create(boards)
        self.boards = boards
        self.ids["board"] = {b["id"]: row.pk for b, row in zip(self.doc["boards"], boards, strict=True)}
        BoardPair.objects.bulk_create([BoardPair(board=row, round=row.round, entry_id=pk, side=side)
                                       for row in boards
                                       for side, pk in ((0, row.pair_a_id), (1, row.pair_b_id)) if pk is not None])

    # ---- play --------------------------------------------------------------------------------------------
    def _games(self) -> None:
        rows = []
        for i, g in enumerate(self.doc["games"]):
            derived = self.replayed.games[i] if g["status"] != "voided" else {
                "score": g["result"]["score"], "winner": g["result"]["winner"],
                "next_dealer": g["result"]["next_dealer"],
                "last_hand_number": g["result"].get("last_hand", self.replayed.games[i]["last_hand_number"])}
            rows.append(Game(board_id=self.ids["board"][g["board"]], number=g["number"], first_dealer=g["first_dealer"],
                             rules=g["rules"], status=g["status"], awarded=g.get("awarded", False),
                             confirmed=g.get("confirmed", False), ended_at=_when(g.get("ended_at")), **derived,
                             **paper_values(g)))
        Game.objects.bulk_create(rows)
        _restamp([(row, "started_at", g.get("started_at")) for g, row in zip(self.doc["games"], rows, strict=True)], Game)
        self.ids["game"] = {g["id"]: row.pk for g, row in zip(self.doc["games"], rows, strict=True)}

    def _hands(self) -> None:
        hands = self.doc["hands"]
        made: dict[tuple[int, int, int], Hand] = {}
        stamps: list[tuple[Hand, str, Any]] = []
        for version in sorted({h["version"] for h in hands}):
            level = []
            for i, h in enumerate(hands):
                if h["version"] != version:
                    continue
                stored = h["result"]
                fields = self.replayed.hands.get(i) or {
                    "events": stored["events"], "trump": stored.get("trump") or "", "score_after": stored["score"],
                    "winner": stored["winner"], "next_dealer": stored["next_dealer"], "form": h.get("form", "tally")}
                before = made.get((h["game"], h["number"], h["supersedes"])) if h.get("supersedes") else None
                row = Hand(game_id=self.ids["game"][h["game"]], number=h["number"], record=h["record"],
                           dealer=h["dealer"], version=version, status=h["status"], supersedes=before,
                           voided_at=_when(h.get("voided_at")), **fields)
                made[(h["game"], h["number"], version)] = row
                level.append(row)
                stamps.append((row, "created_at", h.get("at")))
            Hand.objects.bulk_create(level)
        _restamp(stamps, Hand)

    def _confirmations(self) -> None:
        rows = [GameConfirmation(game_id=self.ids["game"][c["game"]], party=c["party"], agrees=c["agrees"],
                                 reason=c.get("reason", ""), cleared=c.get("cleared", False))
                for c in self.doc["confirmations"]]
        GameConfirmation.objects.bulk_create(rows)
        _restamp([(row, "created_at", c.get("at")) for c, row in zip(self.doc["confirmations"], rows, strict=True)],
                 GameConfirmation)
        self.confirmation_of = {(c["game"], c["party"]): row.pk
                                for c, row in zip(self.doc["confirmations"], rows, strict=True)}

    def _close_records(self, rounds: dict[int, Round]) -> None:
        game, board = self.ids["game"], self.ids["board"]
        for r in self.doc["rounds"]:
            record = r.get("close_record")
            if not isinstance(record, dict):
                continue
            ids = lambda xs, table: [table[x] for x in xs or [] if x in table]  # noqa: E731
            made = [self.confirmation_of[(c.get("game"), c.get("party"))] for c in record.get("confirmations", [])
                    if (c.get("game"), c.get("party")) in self.confirmation_of]
            rounds[r["number"]].close_record = {
                "status_before": record.get("status_before"), "confirmations": sorted(made),
                "confirmed": ids(record.get("confirmed"), game), "awarded": ids(record.get("awarded"), game),
                "voided": ids(record.get("voided"), game),
                "time_called_boards": ids(record.get("time_called_boards"), board),
                "games_after": {str(game[int(k)]): v for k, v in (record.get("games_after") or {}).items()
                                if k.isdigit() and int(k) in game}}
            rounds[r["number"]].save(update_fields=["close_record"])

    # ---- derived again, and compared -----------------------------------------------------------------------
    def _derive(self, t: Tournament, rounds: dict[int, Round]) -> None:
        for row in self.boards:
            row.round.tournament = t
            board_results_refresh(row, keep_games=False)
        for m in self.team_matches:
            if m.result_source == DERIVED_SOURCE:
                m.round.tournament = t
                team_match_refresh(m)
        by_pk = {b.pk: b for b in Board.objects.filter(pk__in=[b.pk for b in self.boards])}
        for i, b in enumerate(self.doc["boards"]):
            row = by_pk[self.ids["board"][b["id"]]]
            derived = {"bullseyes": [row.bullseyes_a, row.bullseyes_b], "chalks": [row.chalks_a, row.chalks_b],
                       "hang_jacks": [row.hang_jacks_a, row.hang_jacks_b], "decided": row.decided,
                       "winner": row.winner, "is_draw": row.is_draw, "all_confirmed": row.all_confirmed,
                       "disputed": row.disputed}
            for name, value in derived.items():
                if b["result"][name] != value:
                    raise mismatch(board_label(b), f"boards[{i}].result.{name}",
                                   f"the archive says {name} {b['result'][name]}, its games give {value}")
        by_match = {m.pk: m for m in TeamMatch.objects.filter(pk__in=[m.pk for m in self.team_matches])}
        for i, m in enumerate(self.doc["team_matches"]):
            row = by_match[self.ids["team_match"][m["id"]]]
            derived = {"bullseyes": [row.bullseyes_a, row.bullseyes_b], "decided": row.decided, "winner": row.winner}
            if "hang_jacks" in m["result"]:
                derived["hang_jacks"] = [row.hang_jacks_a, row.hang_jacks_b]
            stored = dict(m["result"])
            if "status" in m:
                derived["status"], stored["status"] = row.status, m["status"]
            for name, value in derived.items():
                if stored[name] != value:
                    path = f"team_matches[{i}]." + ("status" if name == "status" else f"result.{name}")
                    raise mismatch(f"round {m['round']}, team match {i + 1}", path,
                                   f"the archive says {name} {stored[name]}, its boards give {value}")

    def _standings(self, t: Tournament) -> None:
        snapshot = standings_latest(tournament=t, fresh=True)
        local = {kind: {pk: lid for lid, pk in table.items()} for kind, table in self.ids.items()}
        pairs = [local_row(r, "entry", lambda k, pk: local[k].get(pk)) for r in (snapshot.rows if snapshot else [])]
        clubs = [local_row(r, "club", lambda k, pk: local[k].get(pk)) for r in (snapshot.clubs if snapshot else [])]
        expected = self.doc["standings"]
        for name, derived in (("pairs", pairs), ("clubs", clubs)):
            rows = expected[name]
            if len(rows) != len(derived):
                raise mismatch("the standings", f"standings.{name}", f"the archive has {len(rows)} rows, its "
                               f"results give {len(derived)}")
            for i, (want, got) in enumerate(zip(rows, derived, strict=True)):
                if want != got:
                    key = next((k for k in want if want.get(k) != got.get(k)), next(iter(got), ""))
                    raise mismatch(f"the standings, row {i + 1}", f"standings.{name}[{i}].{key}",
                                   f"the archive says {key} {want.get(key)}, its results give {got.get(key)}")
        league_tables_compare(self.doc, t, self.ids)
        if t.status == Tournament.Status.FINISHED and snapshot is not None:
            t.final_results = final_results_data(t, snapshot, finished_at=t.finished_at or snapshot.created_at)
            t.save(update_fields=["final_results"])


def _restamp(rows: list[tuple[Any, str, Any]], model: Any) -> None:
    """Give rows their archived time (``auto_now_add`` fields take "now" on insert): one prepared UPDATE run
    for every row (``executemany``)."""
    if not rows:
        return
    name = rows[0][1]
    column = model._meta.get_field(name)
    connection = connections[DEFAULT_DB_ALIAS]
    params = []
    for row, _, value in rows:
        when = _when(value)
        if when is not None:
            params.append((column.get_db_prep_save(when, connection), row.pk))
    if params:
        q = connection.ops.quote_name
        sql = f"UPDATE {q(model._meta.db_table)} SET {q(column.column)} = %s WHERE {q(model._meta.pk.column)} = %s"
        with connection.cursor() as cursor:
            cursor.executemany(sql, params)


__all__ = ["ArchivePreview", "archive_import", "archive_import_summary", "archive_preview"]
