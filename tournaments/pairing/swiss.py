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
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from enum import StrEnum
from heapq import heappop, heappush
from itertools import count as ticks
from itertools import repeat

import rustworkx as rx

from .feasibility import Outlook, RematchOutlook, rematch_outlook
from .types import (
    ClubAvoidance,
    DraftBoard,
    DraftBye,
    DraftRound,
    Entrant,
    FloatDirection,
    GroupPairing,
    History,
    PairingCost,
    PairingError,
    PairingWarning,
    PastBoard,
    PastFloat,
    SwissConfig,
    check_unique_ids,
)

MAX_WEIGHT_BITS = 100
"""rustworkx's blossom works in 128-bit integers and doubles weights inside; stay well below."""

DEFAULT_SWISS = SwissConfig()


@dataclass(frozen=True, slots=True)
class TierUnits:
    """What one unit of each tier weighs in an edge weight (``club`` is 0 when avoidance is off,
    ``floats`` when nobody in the field floated in the latest round).

    An edge weighs ``base - (rematch * times_met**2 + club * same_club + score * points_gap**2 +
    floats * repeat_floats + tidiness)``, where ``repeat_floats`` (0, 1 or 2) counts the entrants of
    a board across score groups that floated in the latest round too.
    """

    rematch: int
    club: int
    score: int
    base: int
    floats: int = 0


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
    floated: list[int]
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
    floated = [0] * len(by_pos)
    if history.floats:
        last = _latest_round(history)
        floated = [int(history.float_in(e.id, last) is not None) for e in by_pos]
    return _Field(
        entrants=by_pos,
        rank=order,
        pts=pts,
        club=[e.club_id for e in by_pos],
        group=group,
        group_index=group_index,
        group_members=members,
        met=met,
        floated=floated,
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


def _latest_round(history: History) -> int:
    """The round the float rule looks back to: the latest round of the history (boards, byes or
    floats)."""
    return max(history.rounds_played, max((f.round_number for f in history.floats), default=0))


def candidate_window(entrants: Sequence[Entrant], history: History, config: SwissConfig) -> int:
    """The widest cross-group span the candidate graph keeps (docs/pairing.md, "Large fields"):
    4h + 2 where h is the most opponents anyone in the field has met, plus 4(K - 1) under strong club
    avoidance with clubs of up to K entrants; at least ``config.min_window``."""
    return _field_window(_prepare(entrants, history, config))


def _units(f: _Field) -> TierUnits:
    units = _tier_units(f, floats=any(f.floated))
    if units is None and any(f.floated):
        units = _tier_units(f, floats=False)  # the float rule gives way before the field is refused
    if units is None:
        n = len(f.entrants)
        spread = max(f.pts, default=0) - min(f.pts, default=0)
        max_met = max((t for m in f.met for t in m.values()), default=0)
        raise PairingError(
            "field_too_large",
            f"{n} entrants with {max_met} meetings and a {spread}-point spread overflow exact weights",
        )
    return units


def _tier_units(f: _Field, *, floats: bool) -> TierUnits | None:
    n = len(f.entrants)
    edges = n // 2
    spread = max(f.pts, default=0) - min(f.pts, default=0)
    max_met = max((t for m in f.met for t in m.values()), default=0)
    mode = f.config.club_avoidance
    unit = 4 * n * n * edges + 1  # one more than the most tidiness a pairing can carry
    flt = 0
    if floats:  # at most two repeat floaters a board
        flt, unit = unit, unit * (2 * edges + 1)
    club = 0
    if mode is ClubAvoidance.PREFER:
        club, unit = unit, unit * (edges + 1)
    score, unit = unit, unit * (edges * spread * spread + 1)
    if mode is ClubAvoidance.STRONG:
        club, unit = unit, unit * (edges + 1)
    rematch, unit = unit, unit * (edges * max_met * max_met + 1)
    if unit.bit_length() > MAX_WEIGHT_BITS:
        return None
    return TierUnits(rematch=rematch, club=club, score=score, base=unit, floats=flt)


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


def _repeat_floats(f: _Field, i: int, j: int) -> int:
    """How many of a board's two entrants float now (the board crosses score groups) and floated in
    the latest round too."""
    return f.floated[i] + f.floated[j] if f.group[i] != f.group[j] else 0


def _build(f: _Field, units: TierUnits, complete: bool, window: int) -> rx.PyGraph[None, int]:
    n = len(f.entrants)
    base, u_rem, u_club, u_score, u_float = units.base, units.rematch, units.club, units.score, units.floats
    club, met, pts, floated = f.club, f.met, f.pts, f.floated
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
        ci, mi, pi, fi = club[i], met[i], pts[i], floated[i]
        stop = n if complete else min(n, i + window + 1)
        for j in range(ends[f.group[i]], stop):
            d = pi - pts[j]
            cost = (j - i) * (j - i) + d * d * u_score
            if u_club and ci is not None and ci == club[j]:
                cost += u_club
            if u_float:
                cost += (fi + floated[j]) * u_float
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
    if any(f.floated) and not sg.units.floats:
        notes.append("float rule left out: with it the weights would overflow")
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
    bye = DraftBye(entrants[taker].id, _bye_reason(entrants, history, taker, below))
    return _draft(paired, history, round_number, (bye, below), notes)


def _bye_reason(entrants: Sequence[Entrant], history: History, taker: int, below: int) -> str:
    least = history.bye_count(entrants[taker].id)
    who = "without a bye" if least == 0 else f"with the fewest byes ({least})"
    place = f"{_ordinal(taker + 1)} of {len(entrants)}"
    if below == 0:
        return f"lowest-ranked entrant {who} ({place})"
    return (
        f"lowest-ranked entrant {who} ({place}) that leaves the rest pairable with the fewest "
        f"rematches: the {below} ranked below would force more"
    )


def round_floats(
    round_: DraftRound | Iterable[PastBoard], entrants: Sequence[Entrant]
) -> tuple[PastFloat, ...]:
    """The floats of a round, for ``History.floats``: on every board between entrants of different
    points (``entrants`` with the points the round was paired on, before its results), the higher
    floated down and the lower up. A bye is not a float. Works on a draft the organiser changed, or on
    the stored boards of a past round."""
    boards = round_.as_past()[0] if isinstance(round_, DraftRound) else tuple(round_)
    points = {e.id: e.points for e in entrants}
    floats: list[PastFloat] = []
    for board in boards:
        p0, p1 = points.get(board.side0), points.get(board.side1)
        if p0 is None or p1 is None or p0 == p1:
            continue
        high, low = (board.side0, board.side1) if p0 > p1 else (board.side1, board.side0)
        floats.append(PastFloat(board.round_number, high, FloatDirection.DOWN))
        floats.append(PastFloat(board.round_number, low, FloatDirection.UP))
    return tuple(floats)


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
    if gap and f.floated[i] and f.floated[j]:
        text += "; both floated last round too"
    elif gap and (f.floated[i] or f.floated[j]):
        text += f"; {(hi if f.floated[i] else lo).label} floated last round too"
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
    rem = club = score = tid = again = 0
    boards = []
    warnings = []
    for table, (i, j) in enumerate(paired.pairs, start=1):
        t = _edge_tiers(f, i, j)
        rem, club, score, tid = rem + t[0], club + t[1], score + t[2], tid + t[3]
        again += _repeat_floats(f, i, j)
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
        rematches=rem,
        bye_rank=bye[1] if bye else 0,
        same_club=club,
        score_spread=score,
        tidiness=tid,
        repeat_floats=again,
    )
    return DraftRound(
        round_number=round_number,
        boards=tuple(boards),
        bye=bye[0] if bye else None,
        warnings=tuple(warnings),
        cost=cost,
        notes=paired.notes + extra_notes,
    )


# --- look-ahead: steer away from a draft that leaves no rematch-free finish ----------------------


class LookAheadStatus(StrEnum):
    """What ``swiss_lookahead`` found.

    ``not_needed``: the best draft leaves a rematch-free finish (or no round is left). ``proposed``:
    it leaves none and ``proposal`` does. ``no_finish``: no draft of this round leaves one, so a
    rematch is coming whatever is drafted. ``not_found``: the best draft leaves none and none of the
    drafts tried does. ``undecided``: the outlook of the best draft could not be settled within the
    search budget. ``beyond_limit``: a field larger than the exact search, where nothing is said.
    """

    NOT_NEEDED = "not_needed"
    PROPOSED = "proposed"
    NO_FINISH = "no_finish"
    NOT_FOUND = "not_found"
    UNDECIDED = "undecided"
    BEYOND_LIMIT = "beyond_limit"


@dataclass(frozen=True, slots=True)
class DraftFigures:
    """What a drafted Swiss round costs, in an organiser's words.

    ``rematches``: boards between entrants who met before. ``score_difference``: the sum over boards
    of the points difference (the score-group spread, in match points). ``floaters``: entrants paired
    outside their score group. ``same_club``: boards between club-mates. ``repeat_floats``: floaters
    who floated in the latest round too.
    """

    rematches: int = 0
    score_difference: int = 0
    floaters: int = 0
    same_club: int = 0
    repeat_floats: int = 0

    def minus(self, other: DraftFigures) -> DraftFigures:
        """Figure by figure, this draft's less ``other``'s (what choosing this one costs more)."""
        return DraftFigures(
            self.rematches - other.rematches,
            self.score_difference - other.score_difference,
            self.floaters - other.floaters,
            self.same_club - other.same_club,
            self.repeat_floats - other.repeat_floats,
        )


def draft_figures(draft: DraftRound, entrants: Sequence[Entrant], history: History) -> DraftFigures:
    """The ``DraftFigures`` of any draft (one the organiser changed too), from the points in
    ``entrants`` and the floats of the latest round in ``history``."""
    known = {e.id: e for e in entrants}
    last = _latest_round(history)
    rematches = spread = floaters = same = again = 0
    for board in draft.boards:
        a, b = known.get(board.side0), known.get(board.side1)
        if a is None or b is None:
            continue  # review_round reports an unknown entrant
        rematches += history.times_met(a.id, b.id) > 0
        same += a.club_id is not None and a.club_id == b.club_id
        if a.points != b.points:
            spread += abs(a.points - b.points)
            floaters += 2
            again += sum(history.float_in(e.id, last) is not None for e in (a, b))
    return DraftFigures(rematches, spread, floaters, same, again)


@dataclass(frozen=True)
class LookAhead:
    """The answer of ``swiss_lookahead``.

    ``best`` is ``pair_swiss``'s draft, unchanged, and ``outlook`` the rematch outlook after it
    (None beyond the exact limit). When ``status`` is ``proposed``, ``proposal`` is the best draft
    (lexicographically by the Swiss tiers, ``proven_best``) that leaves a rematch-free finish, with its
    ``proposal_outlook`` (``possible`` or ``guaranteed``, with a witness schedule), and ``extra``
    says what it costs more than ``best``. ``message`` is one sentence for the organiser ("" when
    there is nothing to say). ``drafts_tried`` counts the drafts whose outlook was searched.
    """

    status: LookAheadStatus
    best: DraftRound
    outlook: RematchOutlook | None
    message: str = ""
    proposal: DraftRound | None = None
    proposal_outlook: RematchOutlook | None = None
    best_figures: DraftFigures | None = None
    proposal_figures: DraftFigures | None = None
    proven_best: bool = False
    drafts_tried: int = 0

    @property
    def chosen(self) -> DraftRound:
        """The draft to publish: the proposal if there is one, else the best draft."""
        return self.proposal or self.best

    @property
    def extra(self) -> DraftFigures | None:
        """What the proposal costs more than the best draft, figure by figure (None without one)."""
        if self.proposal_figures is None or self.best_figures is None:
            return None
        return self.proposal_figures.minus(self.best_figures)


@dataclass(frozen=True)
class _Stream:
    """The drafts with one given bye taker (none in an even field), best first: the graph
    ``pair_swiss`` matches for the rest of the field, and the taker's bye rank."""

    taker: int | None
    bye_rank: int
    field: _Field
    graph: SwissGraph
    weights: dict[tuple[int, int], int]


_Key = tuple[int, int, int, int, int, int, int]
_Pairs = tuple[tuple[int, int], ...]


def _stream(
    entrants: Sequence[Entrant], history: History, config: SwissConfig, taker: int | None, bye_rank: int
) -> _Stream:
    rest = [e for k, e in enumerate(entrants) if k != taker]
    f = _prepare(rest, history, config)
    sg = _graph(f, True)
    weights = {(min(a, b), max(a, b)): w for a, b, w in sg.graph.weighted_edge_list()}
    return _Stream(taker, bye_rank, f, sg, weights)


def _key(s: _Stream, pairs: _Pairs) -> _Key:
    """The Swiss order of drafts: rematches, bye rank, [strong] club-mates, score spread, [prefer]
    club-mates, repeat floats, tidiness (the order of the weights, with the bye's rank after the
    rematches as ``pair_swiss`` chooses it)."""
    rem = club = score = tid = again = 0
    for i, j in pairs:
        t = _edge_tiers(s.field, i, j)
        rem, club, score, tid = rem + t[0], club + t[1], score + t[2], tid + t[3]
        again += _repeat_floats(s.field, i, j)
    mode = s.field.config.club_avoidance
    strong = club if mode is ClubAvoidance.STRONG else 0
    prefer = club if mode is ClubAvoidance.PREFER else 0
    return (rem, s.bye_rank, strong, score, prefer, again, tid)


def _best_with(s: _Stream, forced: _Pairs, forbidden: frozenset[tuple[int, int]]) -> _Pairs | None:
    """The best complete pairing of the stream's field that holds ``forced`` and avoids
    ``forbidden``, or None."""
    n = len(s.field.entrants)
    used = {v for pair in forced for v in pair}
    graph: rx.PyGraph[None, int] = rx.PyGraph()
    graph.add_nodes_from([None] * n)
    graph.extend_from_weighted_edge_list(
        [
            (i, j, w)
            for (i, j), w in s.weights.items()
            if i not in used and j not in used and (i, j) not in forbidden
        ]
    )
    found = rx.max_weight_matching(graph, max_cardinality=True, weight_fn=int)
    if 2 * (len(found) + len(forced)) < n:
        return None
    return tuple(sorted([*forced, *((min(a, b), max(a, b)) for a, b in found)]))


def _drafts_in_order(streams: list[_Stream]) -> Iterator[tuple[_Key, _Stream, _Pairs]]:
    """Every draft of the round, best first by ``_key``: Murty's partition of the matchings of each
    stream (the best one; then, for its free boards e1..ek, the best holding e1..e(i-1) and avoiding
    ei), the streams merged on one heap."""
    heap: list[tuple[_Key, int, _Stream, _Pairs, frozenset[tuple[int, int]], _Pairs]] = []
    tick = ticks()
    for s in streams:
        first = _best_with(s, (), frozenset())
        if first is not None:
            heappush(heap, (_key(s, first), next(tick), s, (), frozenset(), first))
    while heap:
        key, _, s, forced, forbidden, pairs = heappop(heap)
        yield key, s, pairs
        held = set(forced)
        free = [p for p in pairs if p not in held]
        for k, board in enumerate(free):
            sub_forced = forced + tuple(free[:k])
            sub_forbidden = forbidden | {board}
            found = _best_with(s, sub_forced, sub_forbidden)
            if found is not None:
                heappush(heap, (_key(s, found), next(tick), s, sub_forced, sub_forbidden, found))


def _as_draft(
    s: _Stream,
    pairs: _Pairs,
    entrants: Sequence[Entrant],
    history: History,
    round_number: int,
    rounds_left: int,
) -> DraftRound:
    f = s.field
    rematches = sum(f.met[i].get(j, 0) ** 2 for i, j in pairs)
    note = f"look-ahead: chosen so that the {_rounds(rounds_left)} left can still be paired without a rematch"
    paired = _Paired(
        f, s.graph, list(pairs), rematches, (f"complete graph ({s.graph.graph.num_edges()} edges)",)
    )
    bye = None
    if s.taker is not None:
        if s.bye_rank == 0:
            reason = _bye_reason(entrants, history, s.taker, 0)
        else:
            least = history.bye_count(entrants[s.taker].id)
            who = "without a bye" if least == 0 else f"with the fewest byes ({least})"
            reason = (
                f"entrant {who} ({_ordinal(s.taker + 1)} of {len(entrants)}), chosen by the look-ahead "
                "to keep a rematch-free finish"
            )
        bye = (DraftBye(entrants[s.taker].id, reason), s.bye_rank)
    return _draft(paired, history, round_number, bye, (note,))


def _rounds(k: int) -> str:
    return "round" if k == 1 else f"{k} rounds"


def _boards_of(draft: DraftRound) -> frozenset[frozenset[int]]:
    placed = {frozenset(b.entrants) for b in draft.boards}
    if draft.bye:
        placed.add(frozenset((draft.bye.entrant,)))
    return frozenset(placed)


def _cost_words(extra: DraftFigures) -> str:
    parts = []
    for value, one, many in (
        (extra.score_difference, "point of score spread", "points of score spread"),
        (extra.floaters, "floater", "floaters"),
        (extra.same_club, "same-club board", "same-club boards"),
        (extra.repeat_floats, "repeated float", "repeated floats"),
        (extra.rematches, "rematch", "rematches"),
    ):
        if value:
            parts.append(
                f"{abs(value)} {'more' if value > 0 else 'fewer'} {one if abs(value) == 1 else many}"
            )
    if not parts:
        return "at no extra cost in score spread, floats or club-mates"
    words = parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]
    return f"for {words}"


def swiss_lookahead(
    entrants: Sequence[Entrant],
    history: History,
    round_number: int,
    rounds_remaining: int,
    config: SwissConfig = DEFAULT_SWISS,
    *,
    exact_limit: int = 16,
    search_budget: int = 200_000,
    max_drafts: int = 500,
) -> LookAhead:
    """``pair_swiss``'s draft of round ``round_number``, and, when it leaves no rematch-free finish of
    the ``rounds_remaining`` rounds after it while another draft does, the best such draft.

    Only for fields of up to ``exact_limit`` entrants, where ``rematch_outlook`` searches exactly
    (each search within ``search_budget`` pairings); beyond it the look-ahead says nothing and costs
    one ``pair_swiss``. Drafts are tried best first by the Swiss tiers (Murty's enumeration of
    matchings, one per bye taker in an odd field), at most ``max_drafts`` of them; past that, a round
    of the witness schedule found for this round and the rest is proposed (``proven_best`` False).
    """
    if rounds_remaining < 0:
        raise PairingError("bad_round", "rounds remaining cannot be negative")
    best = pair_swiss(entrants, history, round_number=round_number, config=config)
    ids = [e.id for e in entrants]
    if len(ids) > exact_limit:
        return LookAhead(LookAheadStatus.BEYOND_LIMIT, best, None)

    def outlook_after(draft: DraftRound) -> RematchOutlook:
        return rematch_outlook(
            ids,
            history.extended(*draft.as_past()),
            rounds_remaining,
            exact_limit=exact_limit,
            search_budget=search_budget,
        )

    outlook = outlook_after(best)
    if outlook.status is Outlook.NOT_GUARANTEED:
        return LookAhead(LookAheadStatus.UNDECIDED, best, outlook)
    if outlook.status is not Outlook.IMPOSSIBLE:
        return LookAhead(LookAheadStatus.NOT_NEEDED, best, outlook)
    best_figures = draft_figures(best, entrants, history)
    left = _rounds(rounds_remaining)
    if len(ids) % 2:
        candidates = bye_candidates(entrants, history)
        streams = [_stream(entrants, history, config, taker, rank) for rank, taker in enumerate(candidates)]
    else:
        streams = [_stream(entrants, history, config, None, 0)]
    witness: tuple[_Key, _Stream, _Pairs] | None = None
    if best.cost.rematches == 0:
        whole = rematch_outlook(
            ids, history, rounds_remaining + 1, exact_limit=exact_limit, search_budget=search_budget
        )
        if whole.status is Outlook.IMPOSSIBLE:
            message = (
                f"No draft of this round leaves a rematch-free finish for the {left} after it: "
                "a rematch will be needed."
            )
            return LookAhead(LookAheadStatus.NO_FINISH, best, outlook, message, best_figures=best_figures)
        witness = _best_witness(whole, streams, entrants)
    tried = 0
    found: tuple[DraftRound, RematchOutlook] | None = None
    capped = unsettled = False
    skip = _boards_of(best)
    for key, s, pairs in _drafts_in_order(streams):
        if key[0] > best.cost.rematches:
            break  # more rematches in this round than the best draft: not a proposal
        if witness is not None and key > witness[0]:
            break  # the witness's round comes first (only when a search ran out of budget)
        draft = _as_draft(s, pairs, entrants, history, round_number, rounds_remaining)
        if _boards_of(draft) == skip:
            continue
        if tried >= max_drafts:
            capped = True
            break
        tried += 1
        after = outlook_after(draft)
        if after.status in (Outlook.POSSIBLE, Outlook.GUARANTEED):
            found = (draft, after)
            break
        unsettled = unsettled or after.status is Outlook.NOT_GUARANTEED
    if found is None and witness is not None:
        _, s, pairs = witness
        draft = _as_draft(s, pairs, entrants, history, round_number, rounds_remaining)
        found = (draft, outlook_after(draft))
    proven = not (capped or unsettled)
    if found is None and proven:
        message = (
            f"No draft with as few rematches in this round leaves a rematch-free finish for the {left} "
            "after it: a rematch will be needed."
        )
        return LookAhead(
            LookAheadStatus.NO_FINISH, best, outlook, message, best_figures=best_figures, drafts_tried=tried
        )
    if found is None:
        message = (
            f"The best draft leaves no rematch-free finish for the {left} after it, and none of the "
            f"{tried} other drafts tried does."
        )
        return LookAhead(
            LookAheadStatus.NOT_FOUND, best, outlook, message, best_figures=best_figures, drafts_tried=tried
        )
    proposal, after = found
    figures = draft_figures(proposal, entrants, history)
    message = (
        f"The best draft leaves no rematch-free finish for the {left} after it; this one keeps one "
        f"{_cost_words(figures.minus(best_figures))}"
    )
    if best.bye and proposal.bye and best.bye.entrant != proposal.bye.entrant:
        message += f", and gives the bye to {proposal.bye.entrant} instead of {best.bye.entrant}"
    if proven:
        message += "."
    elif capped:
        message += f" (the search stopped after {tried} drafts: a better one may exist)."
    else:
        message += " (a better draft may exist: the outlook of one could not be settled)."
    return LookAhead(
        LookAheadStatus.PROPOSED,
        best,
        outlook,
        message,
        proposal,
        after,
        best_figures,
        figures,
        proven,
        tried,
    )


def _best_witness(
    whole: RematchOutlook, streams: list[_Stream], entrants: Sequence[Entrant]
) -> tuple[_Key, _Stream, _Pairs] | None:
    """The best round, by the Swiss order, of the witness schedule of this round and the rest: each
    of its rounds can be this one (the rounds of a rematch-free schedule can come in any order)."""
    by_taker = {None if s.taker is None else entrants[s.taker].id: s for s in streams}
    best: tuple[_Key, _Stream, _Pairs] | None = None
    for boards in whole.schedule:
        taker = next((a for a, b in boards if b is None), None)
        s = by_taker.get(taker)
        if s is None:
            continue
        pos = {e.id: p for p, e in enumerate(s.field.entrants)}
        pairs = tuple(sorted((min(pos[a], pos[b]), max(pos[a], pos[b])) for a, b in boards if b is not None))
        key = _key(s, pairs)
        if best is None or key < best[0]:
            best = (key, s, pairs)
    return best
