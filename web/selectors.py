"""Reads for the pages: public tournaments, live boards, pairings, scorecards, pair, club and statistics.

Pages never write. Public reads see published tournaments only, and only rounds that tablets and the
public may see (published, in play, closed). Standings come from the latest standings snapshot, which
counts confirmed games only; boards in play are read live from their games, and the pages keep the two
apart.
"""

from __future__ import annotations

import dataclasses
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from django.db.models import Prefetch, Q
from django.http import Http404

from tournaments.models import (
    Board,
    Club,
    Entry,
    Game,
    GameConfirmation,
    Hand,
    Player,
    Round,
    StandingsSnapshot,
    TeamMatch,
    Tournament,
)

from .chalk import ChalkLine, chalk_line, side_letter
from .charts import game_chart

PUBLIC_ROUND_STATUSES = (Round.Status.PUBLISHED, Round.Status.IN_PLAY, Round.Status.CLOSED)
LIVE_ROUND_STATUSES = (Round.Status.PUBLISHED, Round.Status.IN_PLAY)

STATUS_LABELS = {
    "waiting": "waiting",
    "in_play": "in play",
    "awaiting_confirmation": "awaiting confirmation",
    "disputed": "disputed",
    "done": "done",
}

#: Standings columns: key -> (short heading, full name). Tie-break keys come from the tournament.
COLUMN_LABELS: dict[str, tuple[str, str]] = {
    "played": ("P", "boards played"),
    "match_points": ("MP", "match points"),
    "wins": ("W", "boards won"),
    "draws": ("D", "boards drawn"),
    "losses": ("L", "boards lost"),
    "bullseyes_won": ("Bulls", "bullseyes (games) won"),
    "bullseyes_lost": ("Bulls ag.", "bullseyes (games) lost"),
    "bullseye_difference": ("Bulls ±", "bullseye difference"),
    "chalks_for": ("Chalks", "chalks for"),
    "chalks_against": ("Ch. ag.", "chalks against"),
    "chalk_difference": ("Chalk ±", "chalk difference"),
    "hang_jacks_for": ("HJ", "hang jacks for"),
    "hang_jacks_against": ("HJ ag.", "hang jacks against"),
    "buchholz": ("Buch.", "Buchholz (opponents' match points)"),
    "sonneborn_berger": ("SB", "Sonneborn-Berger"),
    "head_to_head": ("H2H", "head to head"),
}

#: A club-team event's club table counts team matches, not boards.
TEAM_COLUMN_LABELS: dict[str, tuple[str, str]] = {
    "played": ("P", "team matches played"),
    "wins": ("W", "team matches won"),
    "draws": ("D", "team matches drawn"),
    "losses": ("L", "team matches lost"),
}


# ---- tournaments and rounds ----------------------------------------------------------------------


def published_tournaments() -> list[Tournament]:
    return list(Tournament.objects.filter(published=True).order_by("-starts_on", "name"))


def public_tournament(slug: str) -> Tournament:
    """The published tournament with this slug, or 404 (a draft is never public)."""
    try:
        return Tournament.objects.get(slug=slug, published=True)
    except Tournament.DoesNotExist:
        raise Http404("No such tournament") from None


def public_rounds(tournament: Tournament) -> list[Round]:
    return list(tournament.rounds.filter(status__in=PUBLIC_ROUND_STATUSES).order_by("number"))


def public_round(tournament: Tournament, number: int) -> Round:
    try:
        return tournament.rounds.get(number=number, status__in=PUBLIC_ROUND_STATUSES)
    except Round.DoesNotExist:
        raise Http404("No such round") from None


def current_round(tournament: Tournament, rounds: Sequence[Round] | None = None) -> Round | None:
    """The round being played (published or in play), else the last closed one."""
    rounds = list(rounds) if rounds is not None else public_rounds(tournament)
    live = [r for r in rounds if r.status in LIVE_ROUND_STATUSES]
    if live:
        return live[-1]
    return rounds[-1] if rounds else None


# ---- entries and boards --------------------------------------------------------------------------


def _entries(tournament: Tournament) -> dict[int, Entry]:
    qs = Entry.objects.filter(tournament=tournament).select_related("pair__player_1", "pair__player_2", "pair__club")
    return {e.id: e for e in qs}


def entry_players(entry: Entry | None) -> str:
    if entry is None:
        return ""
    return f"{entry.pair.player_1.name} & {entry.pair.player_2.name}"


@dataclasses.dataclass
class BoardSummary:
    """A board as the public pages show it: who sits where and how it stands, live."""

    board: Board
    pair_a: Entry
    pair_b: Entry | None
    status: str
    #: Games won per side, every finished game (confirmed or not): the live count.
    games_won: tuple[int, int]
    #: Games won per side, confirmed games only: what the standings count.
    confirmed_won: tuple[int, int]
    games_confirmed: int
    games_finished: int
    current_game: int | None
    current_score: tuple[int, int] | None
    hands_played: int

    @property
    def table(self) -> int | None:
        return self.board.table

    @property
    def is_bye(self) -> bool:
        return self.pair_b is None

    @property
    def status_label(self) -> str:
        return STATUS_LABELS.get(self.status, self.status.replace("_", " "))

    @property
    def help_called(self) -> bool:
        return self.board.help_called

    @property
    def result(self) -> str:
        """``A won 2-1``, ``B leads 1-0``, ``level 1-1``, ``drawn 1-1`` or ``not started``."""
        if self.is_bye:
            return "bye"
        a, b = self.games_won
        if self.board.decided and self.board.is_draw:
            return f"drawn {a}-{b}"
        if self.board.decided and self.board.winner is not None:
            return f"{side_letter(self.board.winner)} won {max(a, b)}-{min(a, b)}"
        if a == b == 0 and self.current_score is None:
            return "not started"
        if a == b:
            return f"level {a}-{b}"
        return f"{'A' if a > b else 'B'} leads {max(a, b)}-{min(a, b)}"

    def names(self) -> str:
        return " ".join(
            [
                self.pair_a.pair.display_name,
                entry_players(self.pair_a),
                self.pair_b.pair.display_name if self.pair_b else "",
                entry_players(self.pair_b),
                (self.pair_a.pair.club.name if self.pair_a.pair.club else ""),
                (self.pair_b.pair.club.name if self.pair_b and self.pair_b.pair.club else ""),
            ]
        )


def _live_games() -> Prefetch[Game]:
    return Prefetch(
        "games",
        queryset=Game.objects.exclude(status=Game.Status.VOIDED)
        .order_by("number")
        .prefetch_related(Prefetch("hands", queryset=Hand.objects.filter(status=Hand.Status.ACTIVE).only("id", "game_id"))),
        to_attr="live_games",
    )


def summarise(board: Board, entries: Mapping[int, Entry]) -> BoardSummary:
    games: list[Game] = getattr(board, "live_games", None) or list(board.games.exclude(status=Game.Status.VOIDED))
    won = [0, 0]
    confirmed = [0, 0]
    finished = n_confirmed = hands = 0
    current: Game | None = None
    for game in games:
        hands += len(game.hands.all())
        if game.status == Game.Status.FINISHED:
            finished += 1
            if game.winner in (0, 1):
                won[game.winner] += 1
                if game.confirmed:
                    confirmed[game.winner] += 1
            if game.confirmed:
                n_confirmed += 1
        elif game.status == Game.Status.IN_PLAY:
            current = game
    score = None
    if current is not None:
        s = current.score or [0, 0]
        score = (int(s[0]), int(s[1])) if len(s) >= 2 else (0, 0)
    return BoardSummary(
        board=board,
        pair_a=entries[board.pair_a_id],
        pair_b=entries.get(board.pair_b_id) if board.pair_b_id else None,
        status=board.status,
        games_won=(won[0], won[1]),
        confirmed_won=(confirmed[0], confirmed[1]),
        games_confirmed=n_confirmed,
        games_finished=finished,
        current_game=current.number if current else None,
        current_score=score,
        hands_played=hands,
    )


def round_boards(round_: Round, entries: Mapping[int, Entry] | None = None) -> list[BoardSummary]:
    """Every board of a round, tables in order and the bye last."""
    entries = entries if entries is not None else _entries(round_.tournament)
    boards = Board.objects.filter(round=round_).prefetch_related(_live_games())
    summaries = [summarise(b, entries) for b in boards]
    summaries.sort(key=lambda s: (s.table is None, s.table or 0, s.board.id))
    return summaries


def search_boards(summaries: Iterable[BoardSummary], query: str) -> list[BoardSummary]:
    """Boards where a pair, player or club name contains every word of ``query`` (any case)."""
    words = [w.casefold() for w in query.split() if w]
    if not words:
        return list(summaries)
    return [s for s in summaries if all(w in s.names().casefold() for w in words)]


# ---- team matches (club-team events) --------------------------------------------------------------


@dataclasses.dataclass
class TeamMatchSummary:
    """Club v club in one round, as the public pages show it: K boards, bullseyes totalled per club.

    ``totals`` are the team match's own figures (every finished game, as the race counts them);
    ``confirmed`` counts confirmed games only, which is what the club standings count.
    """

    match: TeamMatch
    boards: list[BoardSummary]
    confirmed: tuple[int, int]

    @property
    def club_a(self) -> Club:
        return self.match.club_a

    @property
    def club_b(self) -> Club | None:
        return self.match.club_b

    @property
    def is_bye(self) -> bool:
        return self.match.club_b_id is None

    @property
    def kind(self) -> str:
        return str((self.match.team_format or {}).get("kind", "games"))

    @property
    def is_race(self) -> bool:
        return self.kind == "first_to_total"

    @property
    def target(self) -> int:
        """N: the bullseyes a club needs to win a race, or the games each board plays."""
        return int((self.match.team_format or {}).get("n", 1))

    @property
    def board_count(self) -> int:
        return int((self.match.team_format or {}).get("boards", len(self.boards)))

    @property
    def totals(self) -> tuple[int, int]:
        return (self.match.bullseyes_a, self.match.bullseyes_b)

    @property
    def to_go(self) -> tuple[int, int]:
        """Bullseyes each club still needs to win the race."""
        return (max(0, self.target - self.totals[0]), max(0, self.target - self.totals[1]))

    @property
    def boards_done(self) -> int:
        return sum(1 for b in self.boards if b.board.decided)

    @property
    def status(self) -> str:
        if self.is_bye or self.match.decided:
            return "done"
        if any(b.status in ("in_play", "awaiting_confirmation", "disputed") for b in self.boards):
            return "in_play"
        return "waiting"

    @property
    def status_label(self) -> str:
        return "decided" if self.status == "done" and not self.is_bye else STATUS_LABELS.get(self.status, self.status)

    @property
    def winner_club(self) -> Club | None:
        if not self.match.decided or self.match.winner is None:
            return None
        return self.club_a if self.match.winner == 0 else self.club_b

    @property
    def format_text(self) -> str:
        if self.is_race:
            return f"race to {self.target} bullseyes over {self.board_count} boards"
        games = "game" if self.target == 1 else "games"
        return f"{self.board_count} boards of {self.target} {games}, most bullseyes wins"

    @property
    def result(self) -> str:
        """``Couva Jacks won 17-12``, ``drawn 8-8``, ``Couva Jacks lead 5-3``, ``level 2-2`` or ``not started``."""
        if self.is_bye:
            return "bye"
        a, b = self.totals
        winner = self.winner_club
        if self.match.decided:
            return f"{winner.name} won {max(a, b)}-{min(a, b)}" if winner else f"drawn {a}-{b}"
        if a == b == 0 and not any(s.current_score or s.games_finished for s in self.boards):
            return "not started"
        if a == b:
            return f"level {a}-{b}"
        leader = self.club_a if a > b else self.club_b
        return f"{leader.name if leader else '?'} lead {max(a, b)}-{min(a, b)}"


def team_matches(round_: Round, summaries: Sequence[BoardSummary]) -> list[TeamMatchSummary]:
    """The round's team matches with their boards (in slot order); one query. Empty in a pairs event."""
    matches = list(TeamMatch.objects.filter(round=round_).select_related("club_a", "club_b").order_by("id"))
    if not matches:
        return []
    by_match: dict[int, list[BoardSummary]] = defaultdict(list)
    for s in summaries:
        if s.board.team_match_id is not None:
            by_match[s.board.team_match_id].append(s)
    out = []
    for m in matches:
        boards = sorted(by_match.get(m.id, []), key=lambda s: (s.board.slot or 0, s.board.id))
        confirmed = [0, 0]
        for s in boards:
            for side, entry in ((0, s.pair_a), (1, s.pair_b)):
                if entry is None:
                    continue
                club_side = 0 if entry.pair.club_id == m.club_a_id else 1
                confirmed[club_side] += s.confirmed_won[side]
        out.append(TeamMatchSummary(match=m, boards=boards, confirmed=(confirmed[0], confirmed[1])))
    return out


# ---- standings -----------------------------------------------------------------------------------


@dataclasses.dataclass
class StandingsRow:
    rank: int | str
    entry: Entry | None
    name: str
    club: str
    values: list[Any]
    raw: Mapping[str, Any]
    columns: list[tuple[str, str, str]] = dataclasses.field(default_factory=list)
    #: The club of a club standings row (None in the pairs' table).
    club_ref: Club | None = None

    @property
    def cells(self) -> list[tuple[str, str, str, Any]]:
        """(key, short heading, full name, value) for each column."""
        return [(*c, v) for c, v in zip(self.columns, self.values, strict=False)]


@dataclasses.dataclass
class Standings:
    snapshot: StandingsSnapshot | None
    columns: list[tuple[str, str, str]]  # key, short heading, full name
    rows: list[StandingsRow]

    @property
    def after_round(self) -> int:
        return self.snapshot.after_round if self.snapshot else 0


def _entry_id(row: Mapping[str, Any]) -> int | None:
    for key in ("entrant_id", "entry_id", "entry", "id"):
        value = row.get(key)
        if isinstance(value, int):
            return value
        if isinstance(value, Mapping) and isinstance(value.get("id"), int):
            return int(value["id"])
    return None


def _value(row: Mapping[str, Any], key: str) -> Any:
    """A row's figure for a column; differences are derived when the row does not carry them."""
    if key in row:
        return row[key]
    pairs = {"bullseye_difference": ("bullseyes_won", "bullseyes_lost"), "chalk_difference": ("chalks_for", "chalks_against")}
    if key in pairs and all(isinstance(row.get(k), int | float) for k in pairs[key]):
        return row[pairs[key][0]] - row[pairs[key][1]]
    return ""


def _fmt_value(value: Any) -> Any:
    if value is None:
        return ""
    if isinstance(value, float):
        return int(value) if value.is_integer() else round(value, 2)
    return value


def latest_snapshot(tournament: Tournament) -> StandingsSnapshot | None:
    return StandingsSnapshot.objects.filter(tournament=tournament).order_by("-created_at", "-id").first()


_UNSET: Any = object()


def _columns(tournament: Tournament, raw_rows: Sequence[Mapping[str, Any]]) -> list[tuple[str, str, str]]:
    keys: list[str] = []
    for key in ["played", *(tournament.tiebreaks or [])]:
        if key in keys:
            continue
        if key == "played" and raw_rows and "played" not in raw_rows[0]:
            continue
        keys.append(key)
    for key in ("chalks_for", "chalks_against", "hang_jacks_against"):
        if raw_rows and key in raw_rows[0] and key not in keys:
            keys.append(key)
    return [(k, *COLUMN_LABELS.get(k, (k.replace("_", " "), k.replace("_", " ")))) for k in keys]


def standings(
    tournament: Tournament, entries: Mapping[int, Entry] | None = None, snapshot: StandingsSnapshot | None = _UNSET,
) -> Standings:
    """The latest snapshot's rows (confirmed games only), with the tournament's tie-break columns."""
    entries = entries if entries is not None else _entries(tournament)
    if snapshot is _UNSET:
        snapshot = latest_snapshot(tournament)
    raw_rows: list[Mapping[str, Any]] = [r for r in (snapshot.rows if snapshot else []) if isinstance(r, Mapping)]
    columns = _columns(tournament, raw_rows)
    keys = [c[0] for c in columns]
    rows: list[StandingsRow] = []
    for i, raw in enumerate(raw_rows, 1):
        entry = entries.get(_entry_id(raw) or -1)
        name = entry.pair.display_name if entry else str(raw.get("name") or raw.get("pair") or "?")
        club = entry.pair.club.name if entry and entry.pair.club else str(raw.get("club") or "")
        rank = raw.get("rank", i)
        rows.append(
            StandingsRow(
                rank=f"{rank}=" if raw.get("tied") else rank,
                entry=entry,
                name=name,
                club=club,
                values=[_fmt_value(_value(raw, k)) for k in keys],
                raw=raw,
                columns=columns,
            )
        )
    return Standings(snapshot=snapshot, columns=columns, rows=rows)


def club_standings(tournament: Tournament, snapshot: StandingsSnapshot | None = _UNSET) -> Standings:
    """The latest snapshot's club rows: from team matches in a club-team event, from the pairs' rows
    summed per club otherwise (confirmed games only). Rows carry ``club_ref`` for links."""
    if snapshot is _UNSET:
        snapshot = latest_snapshot(tournament)
    raw_rows: list[Mapping[str, Any]] = [r for r in (snapshot.clubs if snapshot else []) or [] if isinstance(r, Mapping)]
    columns = _columns(tournament, raw_rows)
    if tournament.entrant_type == Tournament.EntrantType.CLUB_TEAMS:
        columns = [(k, *TEAM_COLUMN_LABELS.get(k, (short, full))) for k, short, full in columns]
    keys = [c[0] for c in columns]
    ids = {r.get("club_id", r.get("entrant_id")) for r in raw_rows}
    clubs = Club.objects.in_bulk([i for i in ids if isinstance(i, int)]) if ids else {}
    rows: list[StandingsRow] = []
    for i, raw in enumerate(raw_rows, 1):
        club_id = raw.get("club_id", raw.get("entrant_id"))
        club = clubs.get(club_id) if isinstance(club_id, int) else None
        rank = raw.get("rank", i)
        rows.append(
            StandingsRow(
                rank=f"{rank}=" if raw.get("tied") else rank,
                entry=None,
                name=club.name if club else str(raw.get("name") or "?"),
                club="",
                values=[_fmt_value(_value(raw, k)) for k in keys],
                raw=raw,
                columns=columns,
                club_ref=club,
            )
        )
    return Standings(snapshot=snapshot, columns=columns, rows=rows)


# ---- scorecards ----------------------------------------------------------------------------------


@dataclasses.dataclass
class GameCard:
    game: Game
    lines: list[ChalkLine]
    chart: str
    confirmations: list[GameConfirmation]
    target: int

    @property
    def score(self) -> tuple[int, int]:
        s = self.game.score or [0, 0]
        return (int(s[0]), int(s[1])) if len(s) >= 2 else (0, 0)

    @property
    def parties_confirmed(self) -> list[str]:
        return [c.get_party_display() for c in self.confirmations if c.agrees and not c.cleared]

    @property
    def refusals(self) -> list[GameConfirmation]:
        return [c for c in self.confirmations if not c.agrees and not c.cleared]


def seat_names(board: Board) -> dict[int, str]:
    seating = board.seating or {}
    ids = {int(v) for v in seating.values() if isinstance(v, int) or (isinstance(v, str) and v.isdigit())}
    names = dict(Player.objects.filter(id__in=ids).values_list("id", "name"))
    out: dict[int, str] = {}
    for seat, pid in seating.items():
        try:
            out[int(seat)] = names.get(int(pid), "")
        except (TypeError, ValueError):
            continue
    return out


def board_scorecard(board: Board) -> list[GameCard]:
    """Each game of the board (voided games left out), hand by hand as a chalk sheet."""
    names = seat_names(board)
    games = (
        board.games.exclude(status=Game.Status.VOIDED)
        .order_by("number")
        .prefetch_related(
            Prefetch("hands", queryset=Hand.objects.filter(status=Hand.Status.ACTIVE).order_by("number")),
            Prefetch("confirmations", queryset=GameConfirmation.objects.filter(cleared=False).order_by("created_at")),
        )
    )
    a_name = board.pair_a.pair.display_name
    b_name = board.pair_b.pair.display_name if board.pair_b else "bye"
    cards: list[GameCard] = []
    for game in games:
        lines = [
            chalk_line(
                number=h.number,
                dealer=h.dealer,
                record=h.record,
                events=h.events or [],
                score_after=h.score_after,
                winner=h.winner,
                seat_names=names,
                version=h.version,
            )
            for h in game.hands.all()
        ]
        target = int((game.rules or {}).get("target", 14))
        chart = game_chart(
            [line.score for line in lines],
            target=target,
            label_a=a_name,
            label_b=b_name,
            title=f"Game {game.number}: score by hand",
            ident=f"g{game.id}",
        )
        cards.append(GameCard(game=game, lines=lines, chart=chart, confirmations=list(game.confirmations.all()), target=target))
    return cards


def public_board(tournament: Tournament, board_id: int) -> Board:
    try:
        return Board.objects.select_related(
            "round", "team_match__club_a", "team_match__club_b", "pair_a__pair__player_1", "pair_a__pair__player_2", "pair_a__pair__club",
            "pair_b__pair__player_1", "pair_b__pair__player_2", "pair_b__pair__club",
        ).get(id=board_id, round__tournament=tournament, round__status__in=PUBLIC_ROUND_STATUSES)
    except Board.DoesNotExist:
        raise Http404("No such board") from None


# ---- pairs and clubs -----------------------------------------------------------------------------


def public_entry(tournament: Tournament, entry_id: int) -> Entry:
    try:
        return Entry.objects.select_related("pair__player_1", "pair__player_2", "pair__club").get(
            id=entry_id, tournament=tournament
        )
    except Entry.DoesNotExist:
        raise Http404("No such pair") from None


@dataclasses.dataclass
class PairBoard:
    """One board from one pair's point of view."""

    round: Round
    summary: BoardSummary
    side: int
    opponent: Entry | None

    @property
    def games_for(self) -> int:
        return self.summary.games_won[self.side]

    @property
    def games_against(self) -> int:
        return self.summary.games_won[1 - self.side]

    @property
    def outcome(self) -> str:
        b = self.summary.board
        if self.summary.is_bye:
            return "bye"
        if not b.decided:
            return self.summary.status_label
        if b.is_draw:
            return "drawn"
        return "won" if b.winner == self.side else "lost"


def entry_boards(tournament: Tournament, entry: Entry, entries: Mapping[int, Entry] | None = None) -> list[PairBoard]:
    entries = entries if entries is not None else _entries(tournament)
    boards = (
        Board.objects.filter(round__tournament=tournament, round__status__in=PUBLIC_ROUND_STATUSES)
        .filter(Q(pair_a=entry) | Q(pair_b=entry))
        .select_related("round")
        .prefetch_related(_live_games())
        .order_by("round__number")
    )
    out = []
    for b in boards:
        side = 0 if b.pair_a_id == entry.id else 1
        opponent_id = b.pair_b_id if side == 0 else b.pair_a_id
        out.append(PairBoard(round=b.round, summary=summarise(b, entries), side=side, opponent=entries.get(opponent_id or -1)))
    return out


def public_club(tournament: Tournament, club_id: int) -> tuple[Club, list[Entry]]:
    club = Club.objects.filter(id=club_id).first()
    if club is None:
        raise Http404("No such club")
    members = [e for e in _entries(tournament).values() if e.pair.club_id == club.id]
    if not members:
        raise Http404("No pair of this club plays here")
    return club, sorted(members, key=lambda e: (e.seed or 0, e.id))


def tournament_clubs(tournament: Tournament) -> list[tuple[Club, int]]:
    counts: dict[int, int] = defaultdict(int)
    clubs: dict[int, Club] = {}
    for e in _entries(tournament).values():
        if e.pair.club:
            clubs[e.pair.club_id] = e.pair.club
            counts[e.pair.club_id] += 1
    return sorted(((c, counts[cid]) for cid, c in clubs.items()), key=lambda t: t[0].name)


# ---- statistics ----------------------------------------------------------------------------------


@dataclasses.dataclass
class PairStats:
    entry: Entry
    games: int = 0
    bullseyes: int = 0
    hang_jacks_for: int = 0
    hang_jacks_against: int = 0
    kicks: int = 0
    kick_chalks: int = 0
    jacks_kicked: int = 0
    highest_game_count: int = 0
    longest_straight: int = 0
    _streak: int = 0


@dataclasses.dataclass
class Record:
    """One headline figure: what, how many, by whom, where."""

    label: str
    value: int
    entries: list[Entry]
    detail: str = ""


def tournament_stats(tournament: Tournament) -> tuple[list[PairStats], list[Record]]:
    """Per-pair figures over confirmed games, and the headline records.

    Straight games: the longest run of games a pair won one after another, in playing order.
    """
    entries = _entries(tournament)
    stats = {eid: PairStats(entry=e) for eid, e in entries.items()}
    games = (
        Game.objects.filter(
            board__round__tournament=tournament,
            board__round__status__in=PUBLIC_ROUND_STATUSES,
            status=Game.Status.FINISHED,
            confirmed=True,
        )
        .select_related("board", "board__round")
        .prefetch_related(Prefetch("hands", queryset=Hand.objects.filter(status=Hand.Status.ACTIVE).order_by("number")))
        .order_by("board__round__number", "board__table", "number")
    )
    best_count: tuple[int, list[Entry], str] = (0, [], "")
    for game in games:
        board = game.board
        side_entry = [board.pair_a_id, board.pair_b_id]
        for side in (0, 1):
            s = stats.get(side_entry[side] or -1)
            if s is None:
                continue
            s.games += 1
            if game.winner == side:
                s.bullseyes += 1
                s._streak += 1
                s.longest_straight = max(s.longest_straight, s._streak)
            elif game.winner is not None:
                s._streak = 0
        for hand in game.hands.all():
            for event in hand.events or []:
                side = event.get("side")
                if side not in (0, 1):
                    continue
                mine = stats.get(side_entry[side] or -1)
                theirs = stats.get(side_entry[1 - side] or -1)
                if event.get("kind") == "hang_jack":
                    if mine:
                        mine.hang_jacks_for += 1
                    if theirs:
                        theirs.hang_jacks_against += 1
                elif event.get("kind") == "kick" and mine:
                    mine.kicks += 1
                    mine.kick_chalks += int(event.get("points", 0))
                    if str(event.get("card", "")).upper().startswith("J"):
                        mine.jacks_kicked += 1
            counts = (hand.record or {}).get("game") if isinstance(hand.record, dict) else None
            if isinstance(counts, list) and len(counts) == 2:
                for side in (0, 1):
                    s = stats.get(side_entry[side] or -1)
                    value = counts[side] if isinstance(counts[side], int) else 0
                    if s is None:
                        continue
                    s.highest_game_count = max(s.highest_game_count, value)
                    where = f"round {board.round.number}, table {board.table}, game {game.number}, hand {hand.number}"
                    if value > best_count[0]:
                        best_count = (value, [s.entry], where)
                    elif value == best_count[0] and value and s.entry not in best_count[1]:
                        best_count = (value, [*best_count[1], s.entry], best_count[2])
    rows = sorted(stats.values(), key=lambda s: (-s.bullseyes, -s.hang_jacks_for, s.entry.pair.display_name))

    def leaders(attr: str, label: str) -> Record:
        top = max((getattr(s, attr) for s in rows), default=0)
        return Record(label, top, [s.entry for s in rows if top and getattr(s, attr) == top])

    records = [
        leaders("hang_jacks_for", "Most hang jacks"),
        leaders("bullseyes", "Most bullseyes"),
        leaders("longest_straight", "Most straight games"),
        leaders("kick_chalks", "Most chalks from the kick"),
        Record("Highest count for game", best_count[0], best_count[1], best_count[2]),
        leaders("hang_jacks_against", "Hanged most often"),
    ]
    return rows, records
