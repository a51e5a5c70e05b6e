"""Boards as the public reads them: who sits where and how each board stands, live.

``BoardSummary`` is what the public pages, the console and the public API all show for a board (the API
serializes it as it is): games won per side live (every finished game) and confirmed (what the standings
count) kept apart, the game in play and its score.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from django.db import connection
from django.db.models import Prefetch, Q

from tournaments.models import Board, Entry, Game, Hand, Round, TeamMatch, Tournament
from tournaments.models.querysets import RoundQuerySet

from .memo import Kept, active, remembered
from .public import forget_lazy, tournament_entries

STATUS_LABELS = {
    "waiting": "waiting",
    "in_play": "in play",
    "awaiting_confirmation": "awaiting confirmation",
    "disputed": "disputed",
    "done": "done",
    "forfeited": "forfeit",
}


def entry_players(entry: Entry | None) -> str:
    if entry is None:
        return ""
    return f"{entry.pair.player_1.name} & {entry.pair.player_2.name}"


def _side_letter(side: Any) -> str:
    return ("A", "B")[side] if isinstance(side, int) and 0 <= side < 2 else "?"


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
        if self.board.forfeited is not None:  # the match score is the board's: kept games and those awarded
            if self.board.winner is None:
                return "forfeit: neither pair played"
            a, b = self.board.bullseyes_a, self.board.bullseyes_b
            return f"{_side_letter(self.board.winner)} won {max(a, b)}-{min(a, b)} by forfeit"
        a, b = self.games_won
        if self.board.decided and self.board.is_draw:
            return f"drawn {a}-{b}"
        if self.board.decided and self.board.winner is not None:
            return f"{_side_letter(self.board.winner)} won {max(a, b)}-{min(a, b)}"
        if a == b == 0 and self.current_score is None:
            return "not started"
        if a == b:
            return f"level {a}-{b}"
        return f"{'A' if a > b else 'B'} leads {max(a, b)}-{min(a, b)}"

    def names(self) -> str:
        """Every pair, player and club name on the board (what a search looks in)."""
        return " ".join(
            [
                self.pair_a.pair.display_name,
                entry_players(self.pair_a),
                self.pair_b.pair.display_name if self.pair_b else "",
                entry_players(self.pair_b),
                self.pair_a.club_label,
                self.pair_b.club_label if self.pair_b else "",
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
    # prefetched (``_live_games``) even when empty: a board not started has no games, and asking again would
    # cost a query per board (the public pages list every board)
    prefetched: list[Game] | None = getattr(board, "live_games", None)
    games = prefetched if prefetched is not None else list(board.games.exclude(status=Game.Status.VOIDED))
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


def board_summary(board: Board) -> BoardSummary:
    """One board's summary, its pairs taken from the board itself (load them with ``select_related``). Inside
    a publisher's render, its round's summary of it (``round_boards``: read once per render and kept across
    renders), where summarising it alone cost two or more queries (its games, each game's hands) for each
    of the board's page and live part: about a third of a changed board's render on the national day."""
    if active() and board.round_id is not None:
        by_id = remembered(("round_boards_by_id", board.round_id),
                           lambda: {s.board.id: s for s in round_boards(board.round)})
        summary = by_id.get(board.id)
        if summary is not None:
            return summary
    return summarise(board, {board.pair_a_id: board.pair_a, **({board.pair_b_id: board.pair_b} if board.pair_b else {})})


def round_boards(round_: Round, entries: Mapping[int, Entry] | None = None) -> list[BoardSummary]:
    """Every board of a round, tables in order and the bye last (read once per publisher's render when
    ``entries`` is not given: ``memo``; on PostgreSQL each board's summary kept across renders while its rows
    are the same: ``_kept_summaries``)."""
    def read() -> list[BoardSummary]:
        pairs = entries if entries is not None else tournament_entries(round_.tournament)
        digests = _boards_digests(round_) if entries is None else None
        if digests is not None:
            summaries = _kept_summaries(round_, pairs, digests)
        else:
            boards = Board.objects.filter(round=round_).prefetch_related(_live_games())
            summaries = [summarise(b, pairs) for b in boards]
        summaries.sort(key=lambda s: (s.table is None, s.table or 0, s.board.id))
        return summaries

    return read() if entries is not None else remembered(("round_boards", round_.pk), read)


# ---- a round's boards kept across renders (the publisher's process) ---------------------------------------
#: At 1,000 pairs a round's 500 boards with their games and hands are about 6,000 model instances, 100-190 ms
#: of CPU a render, while a render on the national day follows the hands of about twenty boards. Inside a
#: render on PostgreSQL each board's summary is kept with a digest of the rows it was made from (the board's,
#: its games' and the number of its active hands: ``_BOARDS_DIGEST``, each row's ``xmin`` and ``ctid`` as the
#: entries' digest in ``public.py``), and only the boards whose digest moved are read again. The summaries
#: name the render's entries, so new entries (a name changed) make every board's summary again. Relations a
#: page loaded lazily are dropped before each reuse. Requests (no memo) and SQLite never keep anything.
KEPT_ROUNDS = 8
_kept_rounds: Kept[int, tuple[Mapping[int, Entry], dict[int, tuple[str, BoardSummary]]]] = Kept(KEPT_ROUNDS)
_BOARDS_DIGEST = """
SELECT b.id, concat_ws(',', b.xmin, b.ctid, g.games, h.hands)
FROM {board} b
LEFT JOIN LATERAL (SELECT string_agg(concat_ws(':', x.id, x.xmin, x.ctid), ';' ORDER BY x.id) AS games
                   FROM {game} x WHERE x.board_id = b.id) g ON true
LEFT JOIN LATERAL (SELECT count(*) AS hands FROM {hand} y JOIN {game} z ON z.id = y.game_id
                   WHERE z.board_id = b.id AND y.status = %s) h ON true
WHERE b.round_id = %s
"""


def _boards_digests(round_: Round) -> dict[int, str] | None:
    if not active() or connection.vendor != "postgresql":
        return None
    q = connection.ops.quote_name
    sql = _BOARDS_DIGEST.format(board=q(Board._meta.db_table), game=q(Game._meta.db_table),
                                hand=q(Hand._meta.db_table))
    with connection.cursor() as cursor:
        cursor.execute(sql, [Hand.Status.ACTIVE, round_.pk])
        return {int(board_id): str(digest) for board_id, digest in cursor.fetchall()}


def _kept_summaries(round_: Round, entries: Mapping[int, Entry], digests: dict[int, str]) -> list[BoardSummary]:
    """The round's summaries: those kept whose board's digest is the same (read before the boards, so a change
    between the two is read again next time), the others read and summarised now."""
    kept_entries, kept = _kept_rounds.take(round_.pk) or (None, {})
    if kept_entries is not entries:
        kept = {}
    summaries: dict[int, tuple[str, BoardSummary]] = {}
    for board_id, digest in digests.items():
        old = kept.get(board_id)
        if old is not None and old[0] == digest:
            forget_lazy(old[1].board, keep=())
            summaries[board_id] = old
    missing = [board_id for board_id in digests if board_id not in summaries]
    if missing:
        for board in Board.objects.filter(round=round_, pk__in=missing).prefetch_related(_live_games()):
            summaries[board.pk] = (digests[board.pk], summarise(board, entries))
    _kept_rounds.keep(round_.pk, (entries, summaries))
    return [summary for _digest, summary in summaries.values()]


def round_team_matches(round_: Round) -> list[TeamMatch]:
    """The round's team matches (club v club) with their clubs, in id order; empty in a pairs event."""
    return list(TeamMatch.objects.filter(round=round_).select_related("club_a", "club_b", "team_a", "team_b").order_by("id"))


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
    """The pair's boards in the public rounds, round by round."""
    entries = entries if entries is not None else tournament_entries(tournament)
    boards = (
        Board.objects.filter(round__tournament=tournament, round__status__in=RoundQuerySet.PUBLIC_STATUSES)
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
