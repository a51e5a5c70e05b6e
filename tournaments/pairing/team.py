"""Club team matches: line-ups, the boards of a team match, and who takes it.

Each club fields K pairs in board order; slot i of one club meets slot i of the other. Without a
line-up a club plays its first K pairs by seed. Sides alternate down the boards (the home club's pair
on side 0 at boards 1, 3, 5, ...). The match goes to the club with more bullseyes over all its boards:
after a fixed number of games per board, or as a race (``first_to_total`` N) that ends as soon as one
club's boards have won N games together. Win 2, draw 1, loss 0; a level knockout team match is decided
by one more game on its first board.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from .match_format import BoardStatus
from .types import PairingError


def default_lineup(roster_by_seed: Sequence[int], k: int) -> tuple[int, ...]:
    """The club's first ``k`` pairs by seed."""
    if k < 1:
        raise PairingError("bad_lineup_size", "a line-up has at least one pair")
    if len(roster_by_seed) < k:
        raise PairingError("short_roster", f"the club has {len(roster_by_seed)} pairs and needs {k}")
    return tuple(roster_by_seed[:k])


def check_lineup(lineup: Sequence[int], roster: Sequence[int], k: int) -> tuple[int, ...]:
    """``lineup`` as a tuple if it is K different pairs of the club's roster; else ``PairingError``."""
    if len(lineup) != k:
        raise PairingError("bad_lineup_size", f"a line-up has {k} pairs, not {len(lineup)}")
    members = set(roster)
    seen: set[int] = set()
    for pair in lineup:
        if pair not in members:
            raise PairingError("not_on_roster", f"pair {pair} is not on the club's roster")
        if pair in seen:
            raise PairingError("duplicate_in_lineup", f"pair {pair} appears twice in the line-up")
        seen.add(pair)
    return tuple(lineup)


@dataclass(frozen=True, slots=True)
class TeamBoard:
    """One board of a team match: ``slot`` counts from 1 down the line-ups."""

    slot: int
    side0: int
    side1: int
    side0_club: int
    side1_club: int


def team_match_boards(
    home_club: int, home_lineup: Sequence[int], away_club: int, away_lineup: Sequence[int]
) -> tuple[TeamBoard, ...]:
    """The boards of a team match: slot i against slot i, sides alternating from the home club."""
    if len(home_lineup) != len(away_lineup):
        raise PairingError("lineup_mismatch", "both clubs field the same number of pairs")
    if home_club == away_club:
        raise PairingError("same_club", "a club cannot play a team match against itself")
    boards = []
    for slot, (home, away) in enumerate(zip(home_lineup, away_lineup, strict=True), start=1):
        if slot % 2:
            boards.append(TeamBoard(slot, home, away, home_club, away_club))
        else:
            boards.append(TeamBoard(slot, away, home, away_club, home_club))
    return tuple(boards)


class TeamRuleKind(StrEnum):
    """``games_per_board``: every board plays N games, totals decide. ``first_to_total``: a race to N
    bullseyes over all boards."""

    GAMES_PER_BOARD = "games_per_board"
    FIRST_TO_TOTAL = "first_to_total"


@dataclass(frozen=True, slots=True)
class TeamMatchRule:
    """How a team match is decided, e.g. ``TeamMatchRule.first_to_total(17)``."""

    kind: TeamRuleKind
    n: int

    def __post_init__(self) -> None:
        if self.n < 1:
            raise PairingError("bad_format", "a team match rule needs N of at least 1")

    @classmethod
    def games_per_board(cls, n: int) -> TeamMatchRule:
        """Each board plays ``n`` games; the club with more bullseyes in total wins."""
        return cls(TeamRuleKind.GAMES_PER_BOARD, n)

    @classmethod
    def first_to_total(cls, n: int) -> TeamMatchRule:
        """The first club whose boards win ``n`` games together wins; the other boards stop."""
        return cls(TeamRuleKind.FIRST_TO_TOTAL, n)


@dataclass(frozen=True, slots=True)
class TeamMatchOutcome:
    """``totals`` are the home and away clubs' bullseyes; ``winner`` 0 (home), 1 (away) or None;
    ``stop_boards`` tells the service to stop the boards still playing (a race is over)."""

    status: BoardStatus
    totals: tuple[int, int]
    winner: int | None = None
    match_points: tuple[int, int] | None = None
    stop_boards: bool = False


def team_match_outcome(
    rule: TeamMatchRule,
    board_bullseyes: Sequence[tuple[int, int]],
    *,
    knockout: bool = False,
    time_called: bool = False,
    points: tuple[int, int, int] = (2, 1, 0),
) -> TeamMatchOutcome:
    """Where a team match stands, from each board's confirmed games won by (home, away) pair.

    Give the bullseyes per club (home first) whatever side the pairs sit on at each board.
    """
    if not board_bullseyes:
        raise PairingError("no_boards", "a team match has at least one board")
    home = sum(b[0] for b in board_bullseyes)
    away = sum(b[1] for b in board_bullseyes)
    if min(min(b) for b in board_bullseyes) < 0:
        raise PairingError("bad_score", "games won cannot be negative")
    totals = (home, away)
    win, draw, loss = points
    if rule.kind is TeamRuleKind.FIRST_TO_TOTAL:
        if home >= rule.n and away >= rule.n:
            raise PairingError("bad_score", f"both clubs cannot reach {rule.n} in a race")
        finished = home >= rule.n or away >= rule.n
        stop = finished
    else:
        for number, board in enumerate(board_bullseyes, start=1):
            allowed = rule.n + (1 if knockout and number == 1 else 0)  # the decider is on board 1
            if sum(board) > allowed:
                raise PairingError("bad_score", f"board {number} played more than {allowed} games")
        finished = all(sum(board) >= rule.n for board in board_bullseyes)
        stop = False
    if not finished and not time_called:
        return TeamMatchOutcome(BoardStatus.IN_PLAY, totals)
    if home == away:
        if knockout:
            return TeamMatchOutcome(BoardStatus.NEEDS_DECIDER, totals)
        return TeamMatchOutcome(BoardStatus.DECIDED, totals, None, (draw, draw))
    side = 0 if home > away else 1
    mp = (win, loss) if side == 0 else (loss, win)
    return TeamMatchOutcome(BoardStatus.DECIDED, totals, side, mp, stop_boards=stop)
