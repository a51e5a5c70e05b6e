"""Swiss pairing: one maximum-weight, maximum-cardinality matching over the whole field.

The priorities of a Swiss draw (no avoidable rematch, equal records first, club-mates apart, tidy
rank order) are tiers of one integer cost per board; the tiers are scaled so that any amount of a
lower tier weighs less than one unit of the tier above, and rustworkx's blossom matching finds the
lexicographic optimum in one pass. An odd field first gives its bye to the lowest-ranked entrant
without one such that the rest can be paired with the fewest rematches. docs/pairing.md argues the
weights, the bye and the candidate graph used for large fields.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import repeat

import rustworkx as rx

from .types import (
    ClubAvoidance,
    DraftBoard,
    DraftBye,
    DraftRound,
    Entrant,
    GroupPairing,
    History,
    PairingCost,
    PairingError,
    PairingWarning,
    SwissConfig,
    check_unique_ids,
)

MAX_WEIGHT_BITS = 100
"""rustworkx's blossom works in 128-bit integers and doubles weights inside; stay well below."""

DEFAULT_SWISS = SwissConfig()


@dataclass(frozen=True, slots=True)
class TierUnits:
    """What one unit of each tier weighs in an edge weight (``club`` is 0 when avoidance is off).

    An edge weighs ``base - (rematch * times_met**2 + club * same_club + score * points_gap**2 +
    tidiness)``.
    """

    rematch: int
    club: int
    score: int
    base: int


@dataclass
class _Field:
    """An even field sorted by points (best first), then by standings rank."""

    entrants: list[Entrant]
    rank: list[int]
    pts: list[int]
    club: list[int | None]
    group: list[int]
    group_index: list[int]
    group_members: list[list[int]]
    met: list[dict[int, int]]
    config: SwissConfig


@dataclass(frozen=True)
class SwissGraph:
    """The weighted graph an even Swiss field is matched on.

    Vertex ``v`` is ``entrants[v]``: the field sorted by points (best first), then by the order given
    (the standings rank). Edge payloads are the integer weights. ``complete`` says whether every pair
    has an edge; otherwise cross-group edges span at most ``window`` places.
    """

    graph: rx.PyGraph[None, int]
    entrants: tuple[Entrant, ...]
    complete: bool
    window: int
    units: TierUnits


def _prepare(entrants: Sequence[Entrant], history: History, config: SwissConfig) -> _Field:
    order = sorted(range(len(entrants)), key=lambda i: (-entrants[i].points, i))
    by_pos = [entrants[i] for i in order]
    pos_of = {e.id: p for p, e in enumerate(by_pos)}
    pts = [e.points for e in by_pos]
    group: list[int] = []
    group_index: list[int] = []
    members: list[list[int]] = []
    for p, value in enumerate(pts):
        if not members or pts[members[-1][0]] != value:
            members.append([])
        group.append(len(members) - 1)
        group_index.append(len(members[-1]))
        members[-1].append(p)
    met: list[dict[int, int]] = [{} for _ in by_pos]
    for (a, b), times in history.met_pairs().items():
        pa, pb = pos_of.get(a), pos_of.get(b)
        if pa is not None and pb is not None:
            met[pa][pb] = times
            met[pb][pa] = times
    return _Field(
        entrants=by_pos,
        rank=order,
        pts=pts,
        club=[e.club_id for e in by_pos],
        group=group,
        group_index=group_index,
        group_members=members,
        met=met,
        config=config,
    )


def _field_window(f: _Field) -> int:
    h = max((len(m) for m in f.met), default=0)
    width = 4 * h + 2
    if f.config.club_avoidance is ClubAvoidance.STRONG:
        sizes: dict[int, int] = {}
        for c in f.club:
            if c is not None:
                sizes[c] = sizes.get(c, 0) + 1
        width += 4 * (max(sizes.values(), default=1) - 1)
    return max(width, f.config.min_window)


def candidate_window(entrants: Sequence[Entrant], history: History, config: SwissConfig) -> int:
    """The widest cross-group span the candidate graph keeps (docs/pairing.md, "Large fields"):
    4h + 2 where h is the most opponents anyone in the field has met, plus 4(K - 1) under strong club
    avoidance with clubs of up to K entrants; at least ``config.min_window``."""
    return _field_window(_prepare(entrants, history, config))


def _units(f: _Field) -> TierUnits:
    n = len(f.entrants)
    edges = n // 2
    spread = max(f.pts, default=0) - min(f.pts, default=0)
    max_met = max((t for m in f.met for t in m.values()), default=0)
    mode = f.config.club_avoidance
    unit = 4 * n * n * edges + 1  # one more than the most tidiness a pairing can carry
    club = 0
    if mode is ClubAvoidance.PREFER:
        club, unit = unit, unit * (edges + 1)
    score, unit = unit, unit * (edges * spread * spread + 1)
    if mode is ClubAvoidance.STRONG:
        club, unit = unit, unit * (edges + 1)
    rematch, unit = unit, unit * (edges * max_met * max_met + 1)
    if unit.bit_length() > MAX_WEIGHT_BITS:
        raise PairingError(
            "field_too_large",
            f"{n} entrants with {max_met} meetings and a {spread}-point spread overflow exact weights",
        )
    return TierUnits(rematch=rematch, club=club, score=score, base=unit)


def _tidiness(f: _Field, i: int, j: int) -> int:
    if f.group[i] != f.group[j]:
        return (i - j) ** 2
    a, b = f.group_index[i], f.group_index[j]
    if f.config.group_pairing is GroupPairing.ADJACENT:
        return (a - b) ** 2
    return (2 * abs(a - b) - len(f.group_members[f.group[i]])) ** 2


def _edge_tiers(f: _Field, i: int, j: int) -> tuple[int, int, int, int]:
    """(rematch, same club, score spread, tidiness) of a board between positions i and j."""
    times = f.met[i].get(j, 0)
    ci = f.club[i]
    same = int(ci is not None and ci == f.club[j])
    return times * times, same, (f.pts[i] - f.pts[j]) ** 2, _tidiness(f, i, j)


def _build(f: _Field, units: TierUnits, complete: bool, window: int) -> rx.PyGraph[None, int]:
    n = len(f.entrants)
    base, u_rem, u_club, u_score = units.base, units.rematch, units.club, units.score
    club, met, pts = f.club, f.met, f.pts
    fold = f.config.group_pairing is GroupPairing.FOLD
    graph: rx.PyGraph[None, int] = rx.PyGraph()
    graph.add_nodes_from([None] * n)
    # Club-mates by position, for the few edges that carry a club penalty.
    mates: dict[int, list[int]] = {}
    if u_club:
        for p, c in enumerate(club):
            if c is not None:
                mates.setdefault(c, []).append(p)
    # Inside a score group (contiguous positions start..end-1): every pair. The tidiness of a board
    # depends only on the distance d between the two, so each row is a slice of one precomputed list,
    # then corrected where club-mates or past opponents meet.
    for members in f.group_members:
        start, g = members[0], len(members)
        end = start + g
        row = [base - ((2 * d - g) if fold else d) ** 2 for d in range(1, g)]
        for i in range(start, end - 1):
            weights = row[: end - i - 1]
            ci = club[i]
            if ci is not None and u_club:
                group_mates = mates[ci]
                for j in group_mates[bisect_right(group_mates, i) :]:
                    if j >= end:
                        break
                    weights[j - i - 1] -= u_club
            for j, count in met[i].items():
                if i < j < end:
                    weights[j - i - 1] -= count * count * u_rem
            graph.extend_from_weighted_edge_list(
                list(zip(repeat(i), range(i + 1, end), weights, strict=False))
            )
    # Across score groups: every pair on the complete graph, else those within ``window`` places.
    cross: list[tuple[int, int, int]] = []
    append = cross.append
    ends = [members[-1] + 1 for members in f.group_members]
    for i in range(n):
        ci, mi, pi = club[i], met[i], pts[i]
        stop = n if complete else min(n, i + window + 1)
        for j in range(ends[f.group[i]], stop):
            d = pi - pts[j]
            cost = (j - i) * (j - i) + d * d * u_score
            if u_club and ci is not None and ci == club[j]:
                cost += u_club
            if mi:
                times = mi.get(j)
                if times:
                    cost += times * times * u_rem
            append((i, j, base - cost))
    graph.extend_from_weighted_edge_list(cross)
    return graph


def _graph(f: _Field, complete: bool | None) -> SwissGraph:
    n = len(f.entrants)
    window = _field_window(f)
    if complete is None:
        complete = n <= f.config.full_graph_limit or window >= n - 1
    units = _units(f)
    return SwissGraph(
        graph=_build(f, units, complete, window),
        entrants=tuple(f.entrants),
        complete=complete,
        window=max(n - 1, 0) if complete else window,
        units=units,
    )


def swiss_graph(
    entrants: Sequence[Entrant],
    history: History,
    config: SwissConfig = DEFAULT_SWISS,
    *,
    complete: bool | None = None,
) -> SwissGraph:
    """The graph ``pair_swiss`` matches for an even field (an odd field's bye removed first).

    ``complete=None`` chooses as ``pair_swiss`` does; True or False forces the complete or the
    candidate graph. For benchmarks and reference tests.
    """
    if len(entrants) % 2:
        raise PairingError("odd_field", "a Swiss graph is built for an even field: take the bye out first")
    check_unique_ids([e.id for e in entrants])
    return _graph(_prepare(entrants, history, config), complete)


def match(graph: SwissGraph) -> set[tuple[int, int]]:
    """rustworkx's maximum-cardinality, maximum-weight matching on a Swiss graph."""
    return rx.max_weight_matching(graph.graph, max_cardinality=True, weight_fn=int)


def total_weight(graph: SwissGraph, pairs: set[tuple[int, int]]) -> int:
    """The sum of the edge weights of a matching on ``graph``."""
    return sum(graph.graph.get_edge_data(a, b) for a, b in pairs)


@dataclass(frozen=True)
class _Paired:
    field: _Field
    graph: SwissGraph
    pairs: list[tuple[int, int]]
    rematches: int
    notes: tuple[str, ...]


def _pair_even(entrants: Sequence[Entrant], history: History, config: SwissConfig) -> _Paired:
    f = _prepare(entrants, history, config)
    sg = _graph(f, None)
    pairs = match(sg)
    notes: list[str] = []
    if sg.complete:
        notes.append(f"complete graph ({sg.graph.num_edges()} edges)")
    else:
        notes.append(
            f"candidate graph: score groups complete, other boards within {sg.window} places "
            f"({sg.graph.num_edges()} edges)"
        )
        if 2 * len(pairs) < len(f.entrants):
            sg = _graph(f, True)
            pairs = match(sg)
            notes.append("the candidate graph had no complete pairing: matched on the complete graph")
    if 2 * len(pairs) < len(f.entrants):  # pragma: no cover - a complete graph pairs everyone
        raise PairingError("unpairable", "no pairing covers the whole field")
    ordered = sorted((min(a, b), max(a, b)) for a, b in pairs)
    rematches = sum(f.met[i].get(j, 0) ** 2 for i, j in ordered)
    return _Paired(f, sg, ordered, rematches, tuple(notes))


def bye_candidates(entrants: Sequence[Entrant], history: History) -> list[int]:
    """Indexes (into ``entrants``, standings order) of those who may take the bye, lowest-ranked
    first: those with the fewest byes so far."""
    counts = [history.bye_count(e.id) for e in entrants]
    least = min(counts)
    return [i for i in reversed(range(len(entrants))) if counts[i] == least]


def _choose_bye(entrants: Sequence[Entrant], history: History, candidates: list[int], window: int) -> int:
    """The lowest-ranked candidate whose absence leaves the fewest rematches, in one matching: a
    phantom vertex joins the field, tied to each candidate by a weight that prefers lower ranks, and
    rematches outweigh any bye preference."""
    n = len(entrants)
    ids = [e.id for e in entrants]
    met = history.met_pairs()
    max_met = max(met.values(), default=0)
    u_rem = n + 1
    base = u_rem * ((n + 1) // 2 * max_met * max_met + 1) + 1
    edges: list[tuple[int, int, int]] = []
    complete = window >= n - 1
    order = sorted(range(n), key=lambda i: (-entrants[i].points, i))
    for a in range(n):
        for b in range(a + 1, n if complete else min(n, a + window + 1)):
            i, j = order[a], order[b]
            times = met.get((min(ids[i], ids[j]), max(ids[i], ids[j])), 0)
            edges.append((i, j, base - times * times * u_rem))
    for below, i in enumerate(candidates):
        edges.append((i, n, base - below))
    graph: rx.PyGraph[None, int] = rx.PyGraph()
    graph.add_nodes_from([None] * (n + 1))
    graph.extend_from_weighted_edge_list(edges)
    pairs = rx.max_weight_matching(graph, max_cardinality=True, weight_fn=int)
    for a, b in pairs:
        if n in (a, b):
            return min(a, b)
    raise PairingError("unpairable", "no entrant can take the bye")  # pragma: no cover


def pair_swiss(
    entrants: Sequence[Entrant],
    history: History,
    *,
    round_number: int,
    config: SwissConfig = DEFAULT_SWISS,
) -> DraftRound:
    """Draft Swiss round ``round_number`` for ``entrants`` given in standings order (best first).

    Returns boards ordered by table (table 1 for the top score group) with sides and an explanation
    each, the bye of an odd field, warnings for rematches and club-mates, and the cost by tier.
    """
    if round_number < 1:
        raise PairingError("bad_round", "round numbers start at 1")
    if not entrants:
        raise PairingError("empty_field", "a round needs at least one entrant")
    check_unique_ids([e.id for e in entrants])
    if len(entrants) % 2 == 0:
        return _draft(_pair_even(entrants, history, config), history, round_number, None)
    candidates = bye_candidates(entrants, history)
    lowest = candidates[0]
    paired = _pair_even([e for i, e in enumerate(entrants) if i != lowest], history, config)
    taker = lowest
    notes: tuple[str, ...] = ()
    if paired.rematches:
        # Only rematches and the bye matter here, so the window needs no club or score margin.
        h = max(len(history.opponents(e.id)) for e in entrants)
        window = len(entrants) if len(entrants) <= config.full_graph_limit else 4 * h + 2
        taker = _choose_bye(entrants, history, candidates, window)
        if taker != lowest:
            paired = _pair_even([e for i, e in enumerate(entrants) if i != taker], history, config)
            notes = ("bye moved up: the lowest-ranked candidate would force more rematches",)
    below = candidates.index(taker)
    least = history.bye_count(entrants[taker].id)
    who = "without a bye" if least == 0 else f"with the fewest byes ({least})"
    place = f"{_ordinal(taker + 1)} of {len(entrants)}"
    if below == 0:
        reason = f"lowest-ranked entrant {who} ({place})"
    else:
        reason = (
            f"lowest-ranked entrant {who} ({place}) that leaves the rest pairable with the fewest "
            f"rematches: the {below} ranked below would force more"
        )
    bye = DraftBye(entrants[taker].id, reason)
    return _draft(paired, history, round_number, (bye, below), notes)


def _sides(high: Entrant, low: Entrant, history: History) -> tuple[int, int]:
    """Side 0 to the entrant that has sat there less; then to the one on side 1 last time; then to
    the higher ranked."""
    bh, bl = history.side_balance(high.id), history.side_balance(low.id)
    if bh != bl:
        return (high.id, low.id) if bh < bl else (low.id, high.id)
    if history.last_side(high.id) == 0 and history.last_side(low.id) == 1:
        return low.id, high.id
    return high.id, low.id


def _ordinal(k: int) -> str:
    suffix = "th" if 10 <= k % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(k % 10, "th")
    return f"{k}{suffix}"


def _board_explanation(f: _Field, i: int, j: int, history: History) -> str:
    hi, lo = f.entrants[i], f.entrants[j]
    text = f"{hi.label} v {lo.label}, "
    gap = f.group[j] - f.group[i]
    if gap == 0:
        text += "same score group"
    elif gap == 1:
        text += f"{hi.label} floats down a score group"
    else:
        text += f"{hi.label} floats down {gap} score groups"
    rounds = history.rounds_met(hi.id, lo.id)
    if rounds:
        listed = ", ".join(str(r) for r in rounds)
        text += f"; rematch (met in round {listed}): the field cannot be paired with fewer rematches"
    else:
        text += "; not met before"
    if hi.club_id is not None and hi.club_id == lo.club_id:
        if f.config.club_avoidance is ClubAvoidance.OFF:
            text += "; same club (club avoidance is off)"
        else:
            text += "; same club: avoiding it would cost a higher priority"
    return text


def _draft(
    paired: _Paired,
    history: History,
    round_number: int,
    bye: tuple[DraftBye, int] | None,
    extra_notes: tuple[str, ...] = (),
) -> DraftRound:
    f = paired.field
    rem = club = score = tid = 0
    boards = []
    warnings = []
    for table, (i, j) in enumerate(paired.pairs, start=1):
        t = _edge_tiers(f, i, j)
        rem, club, score, tid = rem + t[0], club + t[1], score + t[2], tid + t[3]
        hi, lo = f.entrants[i], f.entrants[j]
        side0, side1 = _sides(hi, lo, history)
        times = f.met[i].get(j, 0)
        boards.append(
            DraftBoard(
                table=table,
                side0=side0,
                side1=side1,
                explanation=_board_explanation(f, i, j, history),
                times_met=times,
                same_club=bool(t[1]),
            )
        )
        if times:
            warnings.append(
                PairingWarning("rematch", f"table {table}: {hi.id} and {lo.id} met before", (hi.id, lo.id))
            )
        if t[1]:
            warnings.append(
                PairingWarning(
                    "same_club", f"table {table}: {hi.id} and {lo.id} are club-mates", (hi.id, lo.id)
                )
            )
    cost = PairingCost(
        rematches=rem, bye_rank=bye[1] if bye else 0, same_club=club, score_spread=score, tidiness=tid
    )
    return DraftRound(
        round_number=round_number,
        boards=tuple(boards),
        bye=bye[0] if bye else None,
        warnings=tuple(warnings),
        cost=cost,
        notes=paired.notes + extra_notes,
    )
