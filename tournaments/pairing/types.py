"""Plain value types that the pairing functions take and return.

Everything here is a frozen dataclass or an enum built from ints and strings, so the Django service
can build the inputs from rows and store the outputs without this package knowing about models.
Entrant ids are the database ids of pairs (or of clubs, in a club-team event).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from tournaments.formats.events import ClubAvoidance as ClubAvoidance


class PairingError(ValueError):
    """A pairing request that cannot be served: ``code`` is stable, ``message`` says why in words."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def __repr__(self) -> str:
        return f"PairingError({self.code!r}, {self.message!r})"


@dataclass(frozen=True, slots=True)
class Entrant:
    """A pair (or a club team) as the pairing sees it before a round.

    ``points`` are the match points in the current standings (win 2, draw 1, loss 0; a bye as
    configured); ``record`` is an optional label such as ``"2-0"`` used in board explanations.
    A Swiss takes its entrants in standings order: the list position is the rank.
    """

    id: int
    club_id: int | None = None
    points: int = 0
    record: str = ""

    @property
    def label(self) -> str:
        """The record if known, else the points: what a board explanation prints."""
        return self.record or f"{self.points} pts"


@dataclass(frozen=True, slots=True)
class PastBoard:
    """A board already played (or drafted): ``side0`` is pair A, ``side1`` pair B."""

    round_number: int
    side0: int
    side1: int


@dataclass(frozen=True, slots=True)
class PastBye:
    """A bye already given."""

    round_number: int
    entrant: int


class FloatDirection(StrEnum):
    """Which way an entrant left its score group: ``down`` (it met lower points) or ``up`` (higher)."""

    DOWN = "down"
    UP = "up"


@dataclass(frozen=True, slots=True)
class PastFloat:
    """An entrant paired outside its score group in a round (see ``round_floats``)."""

    round_number: int
    entrant: int
    direction: FloatDirection


def _key(a: int, b: int) -> tuple[int, int]:
    return (a, b) if a < b else (b, a)


@dataclass(frozen=True)
class History:
    """Who met whom, on which side, who had a bye and who floated: the only memory a pairing needs.

    Build it with ``History(boards=..., byes=..., floats=...)`` or ``History.empty()``; the lookups
    are precomputed once. ``floats`` (optional) feed the Swiss float rule: an entrant that floated in
    the latest round is kept in its score group when an equal draft allows (``round_floats`` makes
    them from a round's boards and the points the round was paired on).
    """

    boards: tuple[PastBoard, ...] = ()
    byes: tuple[PastBye, ...] = ()
    floats: tuple[PastFloat, ...] = ()
    _met: dict[tuple[int, int], list[int]] = field(init=False, repr=False, compare=False)
    _opponents: dict[int, set[int]] = field(init=False, repr=False, compare=False)
    _bye_count: dict[int, int] = field(init=False, repr=False, compare=False)
    _sides: dict[int, list[int]] = field(init=False, repr=False, compare=False)
    _floats: dict[tuple[int, int], FloatDirection] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "boards", tuple(self.boards))
        object.__setattr__(self, "byes", tuple(self.byes))
        object.__setattr__(self, "floats", tuple(self.floats))
        object.__setattr__(self, "_floats", {(f.round_number, f.entrant): f.direction for f in self.floats})
        met: dict[tuple[int, int], list[int]] = {}
        opponents: dict[int, set[int]] = {}
        sides: dict[int, list[int]] = {}
        for board in sorted(self.boards, key=lambda b: b.round_number):
            if board.side0 == board.side1:
                raise PairingError("self_board", f"entrant {board.side0} cannot meet itself")
            met.setdefault(_key(board.side0, board.side1), []).append(board.round_number)
            opponents.setdefault(board.side0, set()).add(board.side1)
            opponents.setdefault(board.side1, set()).add(board.side0)
            sides.setdefault(board.side0, []).append(0)
            sides.setdefault(board.side1, []).append(1)
        bye_count: dict[int, int] = {}
        for bye in self.byes:
            bye_count[bye.entrant] = bye_count.get(bye.entrant, 0) + 1
        object.__setattr__(self, "_met", met)
        object.__setattr__(self, "_opponents", opponents)
        object.__setattr__(self, "_bye_count", bye_count)
        object.__setattr__(self, "_sides", sides)

    @classmethod
    def empty(cls) -> History:
        """No rounds played yet."""
        return cls()

    def times_met(self, a: int, b: int) -> int:
        """How many boards ``a`` and ``b`` have shared."""
        return len(self._met.get(_key(a, b), ()))

    def rounds_met(self, a: int, b: int) -> tuple[int, ...]:
        """The rounds in which ``a`` and ``b`` met, oldest first."""
        return tuple(self._met.get(_key(a, b), ()))

    def opponents(self, a: int) -> frozenset[int]:
        """Everyone ``a`` has met at least once."""
        return frozenset(self._opponents.get(a, ()))

    def bye_count(self, a: int) -> int:
        """How many byes ``a`` has had."""
        return self._bye_count.get(a, 0)

    def side_balance(self, a: int) -> int:
        """Boards on side 0 minus boards on side 1."""
        sides = self._sides.get(a, [])
        return len(sides) - 2 * sum(sides)

    def last_side(self, a: int) -> int | None:
        """The side ``a`` sat on at its latest board, or None before its first."""
        sides = self._sides.get(a)
        return sides[-1] if sides else None

    def float_in(self, a: int, round_number: int) -> FloatDirection | None:
        """Which way ``a`` floated in round ``round_number``, or None (stayed in its group, or unknown)."""
        return self._floats.get((round_number, a))

    @property
    def rounds_played(self) -> int:
        """The highest round number seen (0 before round 1)."""
        numbers = [b.round_number for b in self.boards] + [b.round_number for b in self.byes]
        return max(numbers, default=0)

    def met_pairs(self) -> Mapping[tuple[int, int], int]:
        """Every pair of ids (smaller first) that met, with the number of meetings."""
        return {key: len(rounds) for key, rounds in self._met.items()}

    def extended(
        self, boards: Iterable[PastBoard], byes: Iterable[PastBye] = (), floats: Iterable[PastFloat] = ()
    ) -> History:
        """This history plus more boards, byes and floats (a drafted round, for instance)."""
        return History(
            boards=self.boards + tuple(boards),
            byes=self.byes + tuple(byes),
            floats=self.floats + tuple(floats),
        )


class GroupPairing(StrEnum):
    """Who meets whom inside a score group: ``fold`` (top half v bottom half, 1 v 5, 2 v 6, ...; the
    Swiss default) or ``adjacent`` (1 v 2, 3 v 4, ...)."""

    FOLD = "fold"
    ADJACENT = "adjacent"


@dataclass(frozen=True, slots=True)
class SwissConfig:
    """The knobs of a Swiss pairing.

    ``full_graph_limit``: fields up to this size are matched on the complete graph; larger ones on the
    candidate graph of docs/pairing.md (same optimum on rematches, bye and score groups).
    ``min_window``: the least number of standings places a cross-group candidate edge may span.
    """

    club_avoidance: ClubAvoidance = ClubAvoidance.PREFER
    group_pairing: GroupPairing = GroupPairing.FOLD
    full_graph_limit: int = 128
    min_window: int = 16


@dataclass(frozen=True, slots=True)
class PairingCost:
    """The pairing's cost, tier by tier, most important first (all lower is better).

    ``rematches``: sum over boards of (times met before) squared. ``bye_rank``: how many pairs eligible
    for the bye are ranked below the one that got it. ``same_club``: boards between club-mates.
    ``score_spread``: sum over boards of (points difference) squared. ``tidiness``: distance from the
    ideal rank order inside score groups (fold or adjacent) and across them. ``repeat_floats``:
    entrants paired outside their score group who floated in the latest round too (its tier sits
    between ``same_club`` under ``prefer`` and ``tidiness``; last here so older positional uses stand).
    """

    rematches: int = 0
    bye_rank: int = 0
    same_club: int = 0
    score_spread: int = 0
    tidiness: int = 0
    repeat_floats: int = 0


@dataclass(frozen=True, slots=True)
class DraftBoard:
    """One board of a drafted round: ``side0`` is pair A (seats 0 and 2), ``side1`` pair B."""

    table: int
    side0: int
    side1: int
    explanation: str
    times_met: int = 0
    same_club: bool = False

    @property
    def entrants(self) -> tuple[int, int]:
        """Both entrants, side 0 first."""
        return (self.side0, self.side1)


@dataclass(frozen=True, slots=True)
class DraftBye:
    """The entrant sitting out this round, and why it was chosen."""

    entrant: int
    explanation: str


@dataclass(frozen=True, slots=True)
class PairingWarning:
    """Something an organiser should look at before publishing (a rematch, club-mates, ...)."""

    code: str
    message: str
    entrants: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class DraftRound:
    """A round as computed, before the organiser adjusts and publishes it.

    ``cost`` is filled by the Swiss (zero elsewhere); ``notes`` say how the draft was made.
    """

    round_number: int
    boards: tuple[DraftBoard, ...]
    bye: DraftBye | None = None
    warnings: tuple[PairingWarning, ...] = ()
    cost: PairingCost = PairingCost()
    notes: tuple[str, ...] = ()

    def as_past(self) -> tuple[tuple[PastBoard, ...], tuple[PastBye, ...]]:
        """This round as history, to check what comes after it (see ``rematch_outlook``)."""
        boards = tuple(PastBoard(self.round_number, b.side0, b.side1) for b in self.boards)
        byes = (PastBye(self.round_number, self.bye.entrant),) if self.bye else ()
        return boards, byes

    def entrant_ids(self) -> tuple[int, ...]:
        """Everyone placed in this round, board by board, then the bye."""
        ids = [e for b in self.boards for e in b.entrants]
        if self.bye:
            ids.append(self.bye.entrant)
        return tuple(ids)


def check_unique_ids(ids: Sequence[int], what: str = "entrant") -> None:
    """Raise ``duplicate_entrant`` if an id appears twice."""
    seen: set[int] = set()
    for i in ids:
        if i in seen:
            raise PairingError(f"duplicate_{what}", f"{what} {i} appears twice")
        seen.add(i)
