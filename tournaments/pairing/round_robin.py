"""Round robin by the circle method, in the order of the FIDE Berger tables.

With n entrants (one more, the bye, when n is odd) there are n - 1 rounds; entrant n stays put and the
others turn round the circle. In round r the fixed entrant meets seat p = (r - 1) * n/2 mod (n - 1) + 1,
and board k (k = 2 .. n/2) joins seats p + (k - 1) and p - (k - 1), counted round the circle of seats
1 .. n - 1. The fixed entrant alternates sides (side 0 in odd rounds). A double round robin repeats
the tables with sides swapped. In a club-team event the entrants are clubs and each fixture becomes a
team match (``team.team_match_boards``).
"""

from __future__ import annotations

from collections.abc import Sequence

from .types import DraftBoard, DraftBye, DraftRound, PairingError, check_unique_ids


def berger_round(size: int, round_number: int) -> tuple[tuple[int, int], ...]:
    """Round ``round_number`` of the Berger table for ``size`` seats (even), as (side 0, side 1)
    seat numbers from 1, board 1 first."""
    if size < 2 or size % 2:
        raise PairingError("bad_size", "a Berger table has an even number of seats, at least 2")
    if not 1 <= round_number <= size - 1:
        raise PairingError("bad_round", f"a Berger table for {size} has rounds 1 to {size - 1}")
    ring = size - 1
    half = size // 2
    p = (round_number - 1) * half % ring + 1

    def seat(x: int) -> int:
        return (x - 1) % ring + 1

    boards = [(p, size) if round_number % 2 else (size, p)]
    for k in range(2, half + 1):
        boards.append((seat(p + k - 1), seat(p - k + 1)))
    return tuple(boards)


def round_robin_rounds(entrant_ids: Sequence[int], *, cycles: int = 1) -> int:
    """How many rounds a round robin of these entrants takes."""
    n = len(entrant_ids)
    return (n - 1 + n % 2) * cycles


def round_robin_round(entrant_ids: Sequence[int], round_number: int, *, cycles: int = 1) -> DraftRound:
    """Round ``round_number`` of a round robin; ``entrant_ids`` in seed order give the seats.

    An odd field's bye is the entrant drawn against the extra seat. In the second cycle of a double
    round robin the tables repeat with sides swapped.
    """
    ids = list(entrant_ids)
    check_unique_ids(ids)
    if len(ids) < 2:
        raise PairingError("field_too_small", "a round robin needs at least two entrants")
    if cycles < 1:
        raise PairingError("bad_cycles", "a round robin has at least one cycle")
    size = len(ids) + len(ids) % 2
    per_cycle = size - 1
    if not 1 <= round_number <= per_cycle * cycles:
        raise PairingError("bad_round", f"this round robin has rounds 1 to {per_cycle * cycles}")
    cycle, within = divmod(round_number - 1, per_cycle)
    seats = berger_round(size, within + 1)
    boards: list[DraftBoard] = []
    bye: DraftBye | None = None
    for number, (s0, s1) in enumerate(seats, start=1):
        if cycle % 2:
            s0, s1 = s1, s0
        if max(s0, s1) > len(ids):
            sitting = ids[min(s0, s1) - 1]
            bye = DraftBye(sitting, f"Berger table round {within + 1}: drawn against the bye")
            continue
        where = f"Berger table round {within + 1}, board {number}"
        if cycles > 1:
            where += f", cycle {cycle + 1}"
        boards.append(
            DraftBoard(table=len(boards) + 1, side0=ids[s0 - 1], side1=ids[s1 - 1], explanation=where)
        )
    return DraftRound(round_number=round_number, boards=tuple(boards), bye=bye)


def round_robin(entrant_ids: Sequence[int], *, cycles: int = 1) -> tuple[DraftRound, ...]:
    """Every round of a round robin, first to last."""
    return tuple(
        round_robin_round(entrant_ids, r, cycles=cycles)
        for r in range(1, round_robin_rounds(entrant_ids, cycles=cycles) + 1)
    )
