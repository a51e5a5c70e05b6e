"""Public lookups: published tournaments, and the rounds, boards, pairs and clubs the public may see.

A draft tournament is never public; a round is public once published (published, in play or closed:
``Round.objects.public()``). A lookup that finds nothing public raises the domain's ``NotFound``; the
pages answer it with a 404, the API with its 404 body.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from django.db import connection
from django.db.models import Prefetch, QuerySet

from tournaments.errors import NotFound
from tournaments.models import (
    Board,
    Club,
    Entry,
    Game,
    GameConfirmation,
    Hand,
    Pair,
    Player,
    Round,
    Tournament,
)
from tournaments.models.querysets import RoundQuerySet

from .memo import Kept, active, prime, remembered

# ---- tournaments and rounds ----------------------------------------------------------------------


def published_tournaments_query() -> QuerySet[Tournament]:
    """Published tournaments, the latest first (a queryset, for the API's filters and pages)."""
    return Tournament.objects.filter(published=True).order_by("-starts_on", "name")


def published_tournaments() -> list[Tournament]:
    return list(published_tournaments_query())


def public_tournament(slug: str) -> Tournament:
    """The published tournament with this slug (a draft is never public; read once per publisher's render:
    ``memo``)."""
    def read() -> Tournament:
        try:
            return Tournament.objects.get(slug=slug, published=True)
        except Tournament.DoesNotExist:
            raise NotFound(message="No such tournament") from None

    return remembered(("tournament", slug), read)


def public_rounds(tournament: Tournament) -> list[Round]:
    """The public rounds in order (read once per publisher's render: ``memo``)."""
    return remembered(("rounds", tournament.pk), lambda: list(tournament.rounds.public().order_by("number")))


def public_round(tournament: Tournament, number: int) -> Round:
    try:
        return tournament.rounds.public().get(number=number)
    except Round.DoesNotExist:
        raise NotFound(message="No such round") from None


def round_to_show(tournament: Tournament, rounds: Sequence[Round] | None = None) -> Round | None:
    """The round a public page shows: the one being played (published or in play), else the last
    closed one. ``rounds`` are the tournament's public rounds in order, when already read."""
    rounds = list(rounds) if rounds is not None else public_rounds(tournament)
    live = [r for r in rounds if r.status in RoundQuerySet.LIVE_STATUSES]
    if live:
        return live[-1]
    return rounds[-1] if rounds else None


# ---- entries, boards and clubs -------------------------------------------------------------------


def tournament_entries(tournament: Tournament) -> dict[int, Entry]:
    """Every entry of the tournament by id, with its pair, players and club (read once per publisher's
    render: ``memo``; on PostgreSQL kept across renders while their rows are the same: ``kept_entries``)."""
    def read() -> dict[int, Entry]:
        digest = _entries_digest(tournament)  # before the read: a change between the two reads again next time
        kept = kept_entries(tournament, digest)
        if kept is not None:
            return kept
        qs = Entry.objects.filter(tournament=tournament).select_related("pair__player_1", "pair__player_2",
                                                                        "pair__club", "club")
        entries = {e.id: e for e in qs}
        if digest is not None:
            _kept.keep(tournament.pk, (digest, entries))
        return entries

    return remembered(("entries", tournament.pk), read)


# ---- the entries kept across renders (the publisher's and the worker's processes) --------------------------
#: At 1,000 pairs the entries' read is 6,000 model instances, about 100 ms of CPU: half of a standings render,
#: made again by every render although names change a few times a day. Inside a render (``memo.active()``) on
#: PostgreSQL, the read is kept with a digest of the rows it reads (the entries, their pairs, players and
#: clubs: ``_ENTRIES_DIGEST``) and reused while the digest is the same. The digest is of each row's ``xmin``
#: and ``ctid``, the transaction that wrote its current version and where: any UPDATE writes a new version
#: (a new ``ctid``, and a new ``xmin`` unless in the same transaction), an entry added or removed changes the
#: list, a pair moved to another player or club changes its own row. (A
#: digest of every column as text cost PostgreSQL 26 ms a call at 1,000 pairs on the national day; this one
#: reads no column.) Relations not read with them (loaded lazily by a page) are dropped before each reuse,
#: and the tournament is the render's own. Requests (no memo) and SQLite never keep anything.
KEPT_EVENTS = 8
_kept: Kept[int, tuple[str, dict[int, Entry]]] = Kept(KEPT_EVENTS)
_ENTRIES_DIGEST = """
SELECT md5(string_agg(concat_ws(',', e.id, e.xmin, e.ctid, p.xmin, p.ctid, p1.xmin, p1.ctid, p2.xmin, p2.ctid,
                                 pc.xmin, pc.ctid, ec.xmin, ec.ctid), ';' ORDER BY e.id))
FROM {entry} e LEFT JOIN {pair} p ON p.id = e.pair_id LEFT JOIN {player} p1 ON p1.id = p.player_1_id
LEFT JOIN {player} p2 ON p2.id = p.player_2_id LEFT JOIN {club} pc ON pc.id = p.club_id
LEFT JOIN {club} ec ON ec.id = e.club_id WHERE e.tournament_id = %s
"""


def _entries_digest(tournament: Tournament) -> str | None:
    if not active() or connection.vendor != "postgresql":
        return None
    q = connection.ops.quote_name
    sql = _ENTRIES_DIGEST.format(entry=q(Entry._meta.db_table), pair=q(Pair._meta.db_table),
                                 player=q(Player._meta.db_table), club=q(Club._meta.db_table))
    with connection.cursor() as cursor:
        cursor.execute(sql, [tournament.pk])
        row = cursor.fetchone()
    return str(row[0]) if row else ""


def kept_entries(tournament: Tournament, digest: str | None) -> dict[int, Entry] | None:
    """The entries kept from an earlier render when their rows' ``digest`` is still the same (else None),
    their lazily loaded relations dropped and the tournament set to this render's."""
    kept = _kept.take(tournament.pk)
    if digest is None or kept is None or kept[0] != digest:
        _kept.pop(tournament.pk, None)
        return None
    for entry in kept[1].values():
        forget_lazy(entry, keep=("pair", "club"))
        entry._state.fields_cache["tournament"] = tournament
        forget_lazy(entry.pair, keep=("player_1", "player_2", "club"))
        for other in (entry.pair.player_1, entry.pair.player_2, entry.pair.club, entry.club):
            if other is not None:
                forget_lazy(other, keep=())
    return kept[1]


def forget_lazy(instance: object, keep: tuple[str, ...]) -> None:
    """Drop the relations loaded on ``instance`` but those in ``keep``, and its prefetched lists."""
    cache = instance._state.fields_cache  # type: ignore[attr-defined]
    for name in [name for name in cache if name not in keep]:
        del cache[name]
    instance.__dict__.pop("_prefetched_objects_cache", None)


def active_entry_count(tournament: Tournament) -> int:
    """How many pairs still play (not withdrawn)."""
    return tournament.entries.filter(withdrawn=False).count()


def public_entry(tournament: Tournament, entry_id: int) -> Entry:
    try:
        return Entry.objects.select_related("pair__player_1", "pair__player_2", "pair__club").get(
            id=entry_id, tournament=tournament
        )
    except Entry.DoesNotExist:
        raise NotFound(message="No such pair") from None


def public_board(tournament: Tournament, board_id: int) -> Board:
    """A board of a public round, with its round, team match, pairs, players and clubs (read once per
    publisher's render for the board's page, its live part and its JSON: ``memo``).

    Inside a render the pairs come from the render's entries (``tournament_entries``, kept across renders):
    the board's own read joins four tables, not thirteen, which PostgreSQL planned in about 8 ms a call (its
    genetic optimiser starts at twelve), more than the read itself, for each of a national day's five changed
    boards a second (docs/operations.md)."""
    def read() -> Board:
        try:
            if active():
                board = Board.objects.select_related("round", "team_match__club_a", "team_match__club_b").get(
                    id=board_id, round__tournament=tournament, round__status__in=RoundQuerySet.PUBLIC_STATUSES)
                entries = tournament_entries(tournament)
                if board.pair_a_id in entries and (board.pair_b_id is None or board.pair_b_id in entries):
                    board.pair_a = entries[board.pair_a_id]
                    board.pair_b = entries[board.pair_b_id] if board.pair_b_id is not None else None
                    return board
            return Board.objects.select_related(
                "round", "team_match__club_a", "team_match__club_b", "pair_a__pair__player_1",
                "pair_a__pair__player_2", "pair_a__pair__club", "pair_b__pair__player_1", "pair_b__pair__player_2",
                "pair_b__pair__club",
            ).get(id=board_id, round__tournament=tournament, round__status__in=RoundQuerySet.PUBLIC_STATUSES)
        except Board.DoesNotExist:
            raise NotFound(message="No such board") from None

    return remembered(("public_board", tournament.pk, board_id), read)


def public_club(tournament: Tournament, club_id: int) -> tuple[Club, list[Entry]]:
    """The club and its pairs in this tournament (seed order); NotFound unless a pair of it plays here."""
    club = Club.objects.filter(id=club_id).first()
    if club is None:
        raise NotFound(message="No such club")
    # the club recorded on the entry (its club when entered), not the pair's club today
    members = [e for e in tournament_entries(tournament).values() if (e.club_id or e.pair.club_id) == club.id]
    if not members:
        raise NotFound(message="No pair of this club plays here")
    return club, sorted(members, key=lambda e: (e.seed or 0, e.id))


@dataclass(frozen=True)
class EventClub:
    """A club as an event shows it: the name it played under there (``Entry.club_label``, kept when the
    club is renamed later; docs/leagues-model.md, "Club and player identity")."""

    id: int
    name: str
    town: str


def tournament_clubs(tournament: Tournament) -> list[tuple[EventClub, int]]:
    """Each club with a pair in the tournament (the club recorded on the entry) and how many pairs it has,
    by the name it played under."""
    counts: dict[int, int] = defaultdict(int)
    clubs: dict[int, EventClub] = {}
    for e in tournament_entries(tournament).values():
        club = e.club if e.club_id else e.pair.club
        if club is not None:
            clubs.setdefault(club.pk, EventClub(id=club.pk, name=e.club_name or club.name, town=club.town))
            counts[club.pk] += 1
    return sorted(((c, counts[cid]) for cid, c in clubs.items()), key=lambda t: t[0].name)


# ---- who plays for an entry ------------------------------------------------------------------------


@dataclass(frozen=True)
class EntrySeat:
    """One of the two players who play for an entry in a round; ``replaced`` is the player a substitute
    plays for (``EntrySubstitution``), from ``from_round``."""

    player: Player
    replaced: Player | None = None
    from_round: int | None = None

    @property
    def label(self) -> str:
        """The name as scorecards show it: "Ria Mohammed (sub for Kenrick Baptiste)"."""
        return self.player.name if self.replaced is None else f"{self.player.name} (sub for {self.replaced.name})"


def entry_seats(entry: Entry, number: int | None) -> list[EntrySeat]:
    """The two players of ``entry`` in round ``number`` (None: the latest), substitutes in place. No query
    for an entry without substitutes (its pair's players, loaded with it, are the ones it recorded)."""
    if not entry.substitutions_count:
        return [EntrySeat(entry.pair.player_1), EntrySeat(entry.pair.player_2)]
    since: dict[int, int] = {}
    for sub in entry.substitutions.order_by("round_from", "id"):
        if number is None or sub.round_from <= number:
            since[sub.in_player_id] = sub.round_from
    return [EntrySeat(player, replaced, since.get(player.pk) if replaced else None)
            for player, replaced in entry.players_in_round(number)]


# ---- scorecards ----------------------------------------------------------------------------------


def seat_names(board: Board) -> dict[int, str]:
    """Seat -> the name of the player seated there, as the board's seating records it; a substitute as
    "Ria Mohammed (sub for Kenrick Baptiste)" (on the boards from the substitute's round). Inside a render,
    read once per board, or for all the render's boards at once (``prefetch_boards``)."""
    def read() -> dict[int, str]:
        return _seat_names(board, dict(Player.objects.filter(id__in=_seated(board)).values_list("id", "name")))

    return remembered(("seat_names", board.pk), read)


def _seated(board: Board) -> set[int]:
    """The ids of the players the board's seating names."""
    return {int(v) for v in (board.seating or {}).values() if isinstance(v, int) or (isinstance(v, str) and v.isdigit())}


def _seat_names(board: Board, players: dict[int, str]) -> dict[int, str]:
    names = {pid: players[pid] for pid in _seated(board) if pid in players}
    for entry in (board.pair_a, board.pair_b if board.pair_b_id else None):
        if entry is not None and entry.substitutions_count:
            for seat in entry_seats(entry, board.round.number):
                if seat.replaced is not None:
                    # the substitute, or the player they replace when seated before the substitute was recorded
                    names[seat.player.pk] = names[seat.replaced.pk] = seat.label
    out: dict[int, str] = {}
    for seat, pid in (board.seating or {}).items():
        try:
            out[int(seat)] = names.get(int(pid), "")
        except (TypeError, ValueError):
            continue
    return out


def scorecard_games(board: Board, *, confirmations: bool = False) -> list[Game] | QuerySet[Game]:
    """The board's games (voided games left out) in order, each with its active hands in order as
    ``active_hands``; with ``confirmations``, also its standing (uncleared) confirmations in order as
    ``open_confirmations``. Inside a render: a list, read once per board with the confirmations (the board's
    page and its JSON share it), or for all the render's boards at once (``prefetch_boards``)."""
    if active():
        return remembered(("scorecard_games", board.pk), lambda: list(_scorecard_games(board.games.all(), True)))
    return _scorecard_games(board.games.all(), confirmations)


def _scorecard_games(games: QuerySet[Game], confirmations: bool) -> QuerySet[Game]:
    prefetches = [Prefetch("hands", queryset=Hand.objects.filter(status=Hand.Status.ACTIVE).order_by("number"),
                           to_attr="active_hands")]
    if confirmations:
        prefetches.append(Prefetch("confirmations", to_attr="open_confirmations",
                                   queryset=GameConfirmation.objects.filter(cleared=False).order_by("created_at")))
    return games.exclude(status=Game.Status.VOIDED).order_by("number").prefetch_related(*prefetches)


def prefetch_boards(tournament: Tournament, board_ids: Iterable[int]) -> int:
    """Inside a render's memo, the reads of the boards' pages (``public_board``, ``scorecard_games``,
    ``seat_names``) made for all of ``board_ids`` at once: six queries for a change's twenty boards, where
    each board's page and JSON read them alone (seven queries a board, about 60 % of a board's render at
    1,000 pairs: docs/operations.md). Boards not public, or whose pairs are not among the render's entries,
    are left to their own reads. Returns how many boards were read."""
    ids = sorted(set(board_ids))
    if not active() or not ids:
        return 0
    entries = tournament_entries(tournament)
    boards: dict[int, Board] = {}
    for board in Board.objects.select_related("round", "team_match__club_a", "team_match__club_b").filter(
            id__in=ids, round__tournament=tournament, round__status__in=RoundQuerySet.PUBLIC_STATUSES):
        if board.pair_a_id in entries and (board.pair_b_id is None or board.pair_b_id in entries):
            board.pair_a = entries[board.pair_a_id]
            board.pair_b = entries[board.pair_b_id] if board.pair_b_id is not None else None
            boards[board.pk] = board
    if not boards:
        return 0
    by_board: dict[int, list[Game]] = {pk: [] for pk in boards}
    for game in _scorecard_games(Game.objects.filter(board_id__in=list(boards)), True).order_by("board_id", "number"):
        game.board = boards[game.board_id]  # as ``board.games`` would have it: no read of the board again
        by_board[game.board_id].append(game)
    seated = set().union(*(_seated(b) for b in boards.values()))
    players = dict(Player.objects.filter(id__in=seated).values_list("id", "name")) if seated else {}
    for pk, board in boards.items():
        prime(("public_board", tournament.pk, pk), board)
        prime(("scorecard_games", pk), by_board[pk])
        prime(("seat_names", pk), _seat_names(board, players))
    return len(boards)


