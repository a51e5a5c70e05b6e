"""Seeded random tournaments and an independent checker for the pairing tests.

The generator plays whole events through the pure core (pair, play random boards, rank, pair again)
from one seed, so a failing case replays exactly. The checker shares no code with
``tournaments.pairing``: it recomputes what a round must satisfy from first principles with networkx
(the reference blossom implementation) and plain Python.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

import networkx as nx

from tournaments.pairing import (
    ClubAvoidance,
    DraftRound,
    Entrant,
    History,
    PastBoard,
    PastBye,
    SwissConfig,
    pair_swiss,
)
from tournaments.ranking import BoardResult, ByeRecord, RankingConfig, compute_standings

# --- generator -----------------------------------------------------------------------------------


def random_field(rng: random.Random, n: int, clubs: int = 4, first_id: int = 101) -> list[Entrant]:
    """``n`` entrants in seed order; ``clubs`` clubs (0 for none) assigned at random."""
    return [Entrant(id=first_id + i, club_id=rng.randrange(clubs) if clubs else None) for i in range(n)]


def random_board(
    rng: random.Random, round_number: int, side0: int, side1: int, first_to: int = 2
) -> BoardResult:
    """A decided ``first_to`` board: games to 14 chalks, the odd hang jack, a rare draw on time."""
    wins = [0, 0]
    chalks = [0, 0]
    hang = [0, 0]
    if rng.random() < 0.05:  # time called level: a draw
        wins = [first_to - 1, first_to - 1]
    while max(wins) < first_to and wins[0] + wins[1] < 2 * first_to - 1:
        w = rng.randrange(2)
        wins[w] += 1
        chalks[w] += 14
        chalks[1 - w] += rng.randrange(14)
        if rng.random() < 0.3:
            hang[rng.randrange(2)] += 1
    return BoardResult(
        round_number, side0, side1, (wins[0], wins[1]), (chalks[0], chalks[1]), (hang[0], hang[1]), True
    )


@dataclass
class Tournament:
    """A played event: its field, its drafted rounds, results and byes, and the history they make."""

    field: list[Entrant]
    rounds: list[DraftRound] = field(default_factory=list)
    results: list[BoardResult] = field(default_factory=list)
    byes: list[ByeRecord] = field(default_factory=list)
    history: History = field(default_factory=History)
    standing_fields: list[list[Entrant]] = field(default_factory=list)


def ranked_field(t: Tournament, ranking: RankingConfig | None = None) -> list[Entrant]:
    """The field in standings order with points and records, as a Swiss takes it."""
    standings = compute_standings([e.id for e in t.field], t.results, t.byes, ranking or RankingConfig())
    club = {e.id: e.club_id for e in t.field}
    return [Entrant(r.entrant_id, club[r.entrant_id], r.match_points, r.record) for r in standings.rows]


def play_swiss(
    seed: int,
    n: int,
    rounds: int,
    *,
    clubs: int = 4,
    config: SwissConfig | None = None,
    check: bool = True,
) -> Tournament:
    """A Swiss of ``n`` entrants over ``rounds`` rounds with random results; each round is checked
    by ``check_swiss_round`` as it is drafted (``check=False`` to skip)."""
    config = config or SwissConfig()
    rng = random.Random(seed)
    t = Tournament(field=random_field(rng, n, clubs))
    for r in range(1, rounds + 1):
        current = ranked_field(t)
        t.standing_fields.append(current)
        draft = pair_swiss(current, t.history, round_number=r, config=config)
        if check:
            strong = config.club_avoidance is ClubAvoidance.STRONG
            problems = check_swiss_round(current, t.history, draft, strong)
            assert not problems, (seed, r, problems)
        t.rounds.append(draft)
        for board in draft.boards:
            t.results.append(random_board(rng, r, board.side0, board.side1))
        if draft.bye:
            t.byes.append(ByeRecord(r, draft.bye.entrant))
        boards, byes = draft.as_past()
        t.history = t.history.extended(boards, byes)
    return t


def random_history(rng: random.Random, ids: Sequence[int], rounds: int, odd_bye: bool = True) -> History:
    """``rounds`` rounds of random boards (rematches allowed), the odd one out taking a bye."""
    boards: list[PastBoard] = []
    byes: list[PastBye] = []
    for r in range(1, rounds + 1):
        order = list(ids)
        rng.shuffle(order)
        if len(order) % 2:
            sitting = order.pop()
            if odd_bye:
                byes.append(PastBye(r, sitting))
        boards.extend(PastBoard(r, order[i], order[i + 1]) for i in range(0, len(order), 2))
    return History(boards=tuple(boards), byes=tuple(byes))


# --- independent checker -------------------------------------------------------------------------


def _times(history: History, a: int, b: int) -> int:
    return sum(1 for x in history.boards if {x.side0, x.side1} == {a, b})


def _byes(history: History, a: int) -> int:
    return sum(1 for x in history.byes if x.entrant == a)


def min_cost_pairing(
    entrants: Sequence[Entrant],
    history: History,
    sitting_out: int | None,
    with_score: bool,
    strong_clubs: bool = False,
) -> tuple[int, int, int]:
    """The least (sum of times-met squared, club-mate boards, sum of point gaps squared) over every
    pairing of the field without ``sitting_out``, lexicographically, by networkx on the complete
    graph. Club-mates count only with ``strong_clubs``, point gaps only ``with_score``."""
    field = [e for e in entrants if e.id != sitting_out]
    if not field:
        return (0, 0, 0)
    spread = max(e.points for e in field) - min(e.points for e in field)
    gap_unit = 1 if with_score else 0
    club_unit = len(field) * spread * spread + 1 if strong_clubs else 0
    rematch_unit = max(club_unit, 1) * (len(field) + 1) if strong_clubs else len(field) * spread * spread + 1
    g = nx.Graph()
    for i, a in enumerate(field):
        for b in field[i + 1 :]:
            m = _times(history, a.id, b.id)
            same = int(a.club_id is not None and a.club_id == b.club_id)
            gap = (a.points - b.points) ** 2
            g.add_edge(a.id, b.id, weight=-(m * m * rematch_unit + same * club_unit + gap * gap_unit))
    matching = nx.max_weight_matching(g, maxcardinality=True)
    assert 2 * len(matching) == len(field), "a complete graph on an even field pairs everyone"
    by_id = {e.id: e for e in field}
    rem = sum(_times(history, a, b) ** 2 for a, b in matching)
    clubs = sum(
        1 for a, b in matching if by_id[a].club_id is not None and by_id[a].club_id == by_id[b].club_id
    )
    gap = sum((by_id[a].points - by_id[b].points) ** 2 for a, b in matching)
    return rem, clubs if strong_clubs else 0, gap if with_score else 0


def _fewest_rematches_with_bye(entrants: Sequence[Entrant], history: History, eligible: Sequence[int]) -> int:
    """The least sum of times-met squared over every choice of bye among ``eligible`` and every
    pairing of the rest: one matching with a phantom entrant that only the eligible may meet."""
    g = nx.Graph()
    for i, a in enumerate(entrants):
        for b in entrants[i + 1 :]:
            g.add_edge(a.id, b.id, weight=-(_times(history, a.id, b.id) ** 2))
    for e in eligible:
        g.add_edge(e, "bye", weight=0)
    matching = nx.max_weight_matching(g, maxcardinality=True)
    assert 2 * len(matching) == len(entrants) + 1
    return sum(_times(history, a, b) ** 2 for a, b in matching if "bye" not in (a, b))


def check_swiss_round(
    entrants: Sequence[Entrant], history: History, draft: DraftRound, strong_clubs: bool = False
) -> list[str]:
    """What is wrong with a drafted Swiss round (empty when nothing is).

    Each entrant exactly once (board or bye) and no one else; a bye exactly when the field is odd,
    to an entrant with the fewest byes; no rematch while the field could be paired with fewer
    (sum of times met squared); the bye to the lowest-ranked such entrant that allows that; and
    the sum of squared point gaps as small as any pairing with those rematches and that bye allows
    (with ``strong_clubs``, after the fewest club-mate boards).
    """
    problems: list[str] = []
    ids = [e.id for e in entrants]
    placed = Counter(x for b in draft.boards for x in (b.side0, b.side1))
    if draft.bye:
        placed[draft.bye.entrant] += 1
    for i in ids:
        if placed[i] != 1:
            problems.append(f"{i} placed {placed[i]} times")
    for i in placed:
        if i not in ids:
            problems.append(f"{i} is not in the field")
    for b in draft.boards:
        if b.side0 == b.side1:
            problems.append(f"{b.side0} faces itself")
    odd = len(ids) % 2 == 1
    if odd != (draft.bye is not None):
        problems.append("a bye exactly when the field is odd")
    if problems:
        return problems
    rem = sum(_times(history, b.side0, b.side1) ** 2 for b in draft.boards)
    points = {e.id: e.points for e in entrants}
    gap = sum((points[b.side0] - points[b.side1]) ** 2 for b in draft.boards)
    club = {e.id: e.club_id for e in entrants}
    mates = sum(1 for b in draft.boards if club[b.side0] is not None and club[b.side0] == club[b.side1])
    ours = (rem, mates if strong_clubs else 0, gap)
    if not odd:
        best = min_cost_pairing(entrants, history, None, True, strong_clubs)
        if rem > best[0]:
            problems.append(f"avoidable rematches: {rem} where {best[0]} is possible")
        elif ours > best:
            problems.append(f"score groups or clubs not respected: {ours} where {best} is possible")
        return problems
    assert draft.bye is not None
    least = min(_byes(history, i) for i in ids)
    taker = draft.bye.entrant
    if _byes(history, taker) != least:
        problems.append(f"bye to {taker}, who had more byes than others")
        return problems
    eligible = [i for i in ids if _byes(history, i) == least]
    fewest = _fewest_rematches_with_bye(entrants, history, eligible)
    if rem > fewest:
        problems.append(f"avoidable rematches: {rem} where {fewest} is possible")
    for e in eligible:
        if ids.index(e) > ids.index(taker) and min_cost_pairing(entrants, history, e, False)[0] <= fewest:
            problems.append(f"bye to {taker}, but {e} is lower-ranked and allows as few rematches")
    best = min_cost_pairing(entrants, history, taker, True, strong_clubs)
    if rem == best[0] and ours > best:
        problems.append(f"score groups or clubs not respected: {ours} where {best} is possible")
    return problems


def check_round_robin(rounds: Sequence[DraftRound], ids: Sequence[int], cycles: int = 1) -> list[str]:
    """Every round seats everyone once; every two entrants meet exactly ``cycles`` times; an odd
    field gives everyone exactly ``cycles`` byes; sides never differ by more than one per cycle...
    over the whole event, at most ``cycles``."""
    problems: list[str] = []
    meetings: Counter[frozenset[int]] = Counter()
    byes: Counter[int] = Counter()
    sides: dict[int, list[int]] = {i: [0, 0] for i in ids}
    for rnd in rounds:
        seen = Counter(x for b in rnd.boards for x in (b.side0, b.side1))
        if rnd.bye:
            seen[rnd.bye.entrant] += 1
            byes[rnd.bye.entrant] += 1
        if sorted(seen.elements()) != sorted(ids):
            problems.append(f"round {rnd.round_number} does not seat everyone exactly once")
        for b in rnd.boards:
            meetings[frozenset((b.side0, b.side1))] += 1
            sides[b.side0][0] += 1
            sides[b.side1][1] += 1
    for i, a in enumerate(ids):
        for b in ids[i + 1 :]:
            if meetings[frozenset((a, b))] != cycles:
                problems.append(f"{a} and {b} meet {meetings[frozenset((a, b))]} times")
    if len(ids) % 2:
        for a in ids:
            if byes[a] != cycles:
                problems.append(f"{a} has {byes[a]} byes")
    for a, (s0, s1) in sides.items():
        if abs(s0 - s1) > cycles:
            problems.append(f"{a} sits on side 0 {s0} times and side 1 {s1} times")
    return problems
