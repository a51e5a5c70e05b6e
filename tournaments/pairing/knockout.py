"""Knockout brackets: seeding, byes to the top seeds, winners advancing, an optional third place.

The bracket has as many slots as the next power of two; seed s meets seed (size + 1 - s) in the first
round, and the standard order (1, 8, 4, 5, 2, 7, 3, 6 for eight) keeps the top seeds apart until late.
Missing seeds are byes, so the byes fall to the top seeds. Seeds come from the organiser, or from the
final standings of this or another tournament (the service passes the ids in rank order). A match
advances only on a confirmed winner given by the service; a level match is decided by one more game
(``tournaments.formats.match_outcome`` with ``knockout=True``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum

from .types import PairingError, check_unique_ids


def seeding_order(size: int) -> tuple[int, ...]:
    """Seeds in bracket order for ``size`` slots (a power of two): 1, 8, 4, 5, 2, 7, 3, 6 for 8."""
    if size < 1 or size & (size - 1):
        raise PairingError("bad_size", "a bracket has a power-of-two number of slots")
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [x for s in order for x in (s, total - s)]
    return tuple(order)


class Take(StrEnum):
    """What a slot of a later match takes from an earlier one."""

    WINNER = "winner"
    LOSER = "loser"


@dataclass(frozen=True, slots=True)
class Slot:
    """One side of a bracket match: a seeded entrant (or a bye, ``entrant`` None, in round 1), or
    the winner or loser of an earlier match."""

    entrant: int | None = None
    seed: int | None = None
    from_match: int | None = None
    take: Take = Take.WINNER


@dataclass(frozen=True, slots=True)
class KnockoutMatch:
    """A match of the bracket; ``number`` counts from 1 through all rounds, the third-place match
    last. ``slots[0]`` plays on side 0."""

    number: int
    round_number: int
    slots: tuple[Slot, Slot]
    third_place: bool = False


@dataclass(frozen=True, slots=True)
class Bracket:
    """A whole knockout: ``rounds`` rounds, the final in the last, the third-place match with it."""

    size: int
    rounds: int
    seeds: tuple[int, ...]
    matches: tuple[KnockoutMatch, ...]

    def match(self, number: int) -> KnockoutMatch:
        """The match numbered ``number``."""
        if not 1 <= number <= len(self.matches):
            raise PairingError("no_such_match", f"there is no match {number}")
        return self.matches[number - 1]

    @property
    def final(self) -> KnockoutMatch:
        """The final."""
        return next(m for m in reversed(self.matches) if not m.third_place)


def round_name(bracket: Bracket, round_number: int) -> str:
    """'final', 'semi-finals', 'quarter-finals', else 'round of N'."""
    left = bracket.rounds - round_number
    return {0: "final", 1: "semi-finals", 2: "quarter-finals"}.get(left, f"round of {2 ** (left + 1)}")


def knockout_bracket(seeded: Sequence[int], *, third_place: bool = False) -> Bracket:
    """A bracket for ``seeded`` entrant ids, best seed first."""
    ids = list(seeded)
    check_unique_ids(ids)
    if len(ids) < 2:
        raise PairingError("field_too_small", "a knockout needs at least two entrants")
    size = 1
    while size < len(ids):
        size *= 2
    rounds = size.bit_length() - 1
    order = seeding_order(size)
    matches: list[KnockoutMatch] = []
    previous: list[int] = []
    for k in range(0, size, 2):
        slots = []
        for seed in order[k : k + 2]:
            present = seed <= len(ids)
            slots.append(Slot(entrant=ids[seed - 1] if present else None, seed=seed))
        matches.append(KnockoutMatch(len(matches) + 1, 1, (slots[0], slots[1])))
        previous.append(len(matches))
    semis: list[int] = previous if rounds == 2 else []
    for rnd in range(2, rounds + 1):
        current = []
        for k in range(0, len(previous), 2):
            slots2 = (Slot(from_match=previous[k]), Slot(from_match=previous[k + 1]))
            matches.append(KnockoutMatch(len(matches) + 1, rnd, slots2))
            current.append(len(matches))
        if rnd == rounds - 1:
            semis = current
        previous = current
    if third_place and rounds >= 2:
        losers = (Slot(from_match=semis[0], take=Take.LOSER), Slot(from_match=semis[1], take=Take.LOSER))
        matches.append(KnockoutMatch(len(matches) + 1, rounds, losers, third_place=True))
    return Bracket(size=size, rounds=rounds, seeds=tuple(ids), matches=tuple(matches))


class MatchStatus(StrEnum):
    """``bye``: one entrant and no opponent, it advances without a board. ``waiting``: an earlier match
    is undecided. ``ready``: both entrants known, the service may put it on a table. ``decided``."""

    BYE = "bye"
    WAITING = "waiting"
    READY = "ready"
    DECIDED = "decided"


@dataclass(frozen=True, slots=True)
class MatchState:
    """A bracket match as things stand: its entrants (None while unknown), status, winner, loser."""

    match: KnockoutMatch
    side0: int | None
    side1: int | None
    status: MatchStatus
    winner: int | None = None
    loser: int | None = None


def bracket_state(bracket: Bracket, winners: Mapping[int, int]) -> tuple[MatchState, ...]:
    """Every match of ``bracket`` given the confirmed ``winners`` (match number -> entrant id).

    Raises ``PairingError`` for a winner given to a match that is not ready or who is not in it.
    """
    for number in winners:
        bracket.match(number)
    states: list[MatchState] = []

    def resolve(slot: Slot) -> int | None:
        if slot.from_match is None:
            return slot.entrant
        earlier = states[slot.from_match - 1]
        return earlier.winner if slot.take is Take.WINNER else earlier.loser

    for m in bracket.matches:
        a, b = resolve(m.slots[0]), resolve(m.slots[1])
        first_round_bye = m.round_number == 1 and (a is None) != (b is None)
        given = winners.get(m.number)
        if first_round_bye:
            if given is not None:
                raise PairingError("bye_match", f"match {m.number} is a bye and takes no result")
            states.append(MatchState(m, a, b, MatchStatus.BYE, winner=a if a is not None else b))
            continue
        if a is None or b is None:
            if given is not None:
                raise PairingError("match_not_ready", f"match {m.number} does not have both entrants yet")
            states.append(MatchState(m, a, b, MatchStatus.WAITING))
            continue
        if given is None:
            states.append(MatchState(m, a, b, MatchStatus.READY))
            continue
        if given not in (a, b):
            raise PairingError("not_in_match", f"{given} does not play in match {m.number}")
        states.append(MatchState(m, a, b, MatchStatus.DECIDED, winner=given, loser=b if given == a else a))
    return tuple(states)


def ready_matches(bracket: Bracket, winners: Mapping[int, int]) -> tuple[MatchState, ...]:
    """The matches that can go on a table now."""
    return tuple(s for s in bracket_state(bracket, winners) if s.status is MatchStatus.READY)


def placings(bracket: Bracket, winners: Mapping[int, int]) -> dict[int, int]:
    """Places decided so far: {1: champion, 2: runner-up, 3: third (with a third-place match)}."""
    states = bracket_state(bracket, winners)
    result: dict[int, int] = {}
    final = states[bracket.final.number - 1]
    if final.status is MatchStatus.DECIDED and final.winner is not None and final.loser is not None:
        result[1], result[2] = final.winner, final.loser
    for s in states:
        if s.match.third_place and s.status is MatchStatus.DECIDED and s.winner is not None:
            result[3] = s.winner
    return result
