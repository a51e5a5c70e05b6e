"""Standings in one batched pass over the board results, ranked by an ordered list of tie-breaks.

Totals are summed per entrant in one loop (integers; a bye's averaged figures are exact fractions),
then the field is split group by group: everyone starts tied, and each tie-break in turn splits the
groups still tied. Whatever stays tied after the last one shares a rank (1, 2, 2, 4). Head-to-head is
the one criterion that depends on the group: the match points its members took from each other,
used only when every two of them have met on a decided board.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from fractions import Fraction

from tournaments.formats import AwardPolicy, Result, SourceKind
from tournaments.formats.awards import FIGURES, SIDES

from .keys import GROUP_KEYS, row_key, split_by
from .types import BoardResult, ByeRecord, RankingConfig, RankingError, StandingRow, Standings

DEFAULT_RANKING = RankingConfig()

_STATS = 6  # bullseyes won, lost, chalks for, against, hang jacks for, against


def _round_bye_figures(boards: list[BoardResult]) -> tuple[Fraction, ...]:
    """What a bye adds in a round: the average pair's figures, capped at the average winner's (boards
    decided by play: a forfeit's figures are awarded, not played)."""
    decided = [b for b in boards if b.decided and b.forfeited is None]
    if not decided:
        return (Fraction(0),) * _STATS
    per_pair = 2 * len(decided)
    avg_bulls = Fraction(sum(b.bullseyes[0] + b.bullseyes[1] for b in decided), per_pair)
    avg_chalks = Fraction(sum(b.chalks[0] + b.chalks[1] for b in decided), per_pair)
    avg_hang = Fraction(sum(b.hang_jacks[0] + b.hang_jacks[1] for b in decided), per_pair)
    averages = (avg_bulls, avg_bulls, avg_chalks, avg_chalks, avg_hang, avg_hang)
    won = [(b, b.winner) for b in decided if b.winner is not None]
    if not won:
        return averages
    count = len(won)
    winner = (
        Fraction(sum(b.bullseyes[w] for b, w in won), count),
        Fraction(sum(b.bullseyes[1 - w] for b, w in won), count),
        Fraction(sum(b.chalks[w] for b, w in won), count),
        Fraction(sum(b.chalks[1 - w] for b, w in won), count),
        Fraction(sum(b.hang_jacks[w] for b, w in won), count),
        Fraction(sum(b.hang_jacks[1 - w] for b, w in won), count),
    )
    # "For" figures no higher than a winner's, "against" figures no lower.
    return tuple(
        min(avg, cap) if k % 2 == 0 else max(avg, cap)
        for k, (avg, cap) in enumerate(zip(averages, winner, strict=True))
    )


def _awarded(
    config: RankingConfig, policy: AwardPolicy, stats: list[list[int]], played: list[int], slot: int, number: int,
    by_round: dict[int, list[BoardResult]], cache: dict[int, tuple[Fraction, ...]],
) -> list[Fraction]:
    """The six figures ``policy`` awards entrant ``slot`` for round ``number`` (docs/decisions.md, "Awarded
    figures"). ``stats`` and ``played`` are the figures and boards from play alone (the own-average
    source)."""
    add = [Fraction(0)] * _STATS
    for f, figure in enumerate(FIGURES):
        for s, side in enumerate(SIDES):
            k = 2 * f + s
            source = policy.source(figure, side)
            if source.kind is SourceKind.ROUND_AVERAGE:
                if number not in cache:
                    cache[number] = _round_bye_figures(by_round.get(number, []))
                add[k] += cache[number][k]
            elif source.kind is SourceKind.FIXED:
                add[k] += source.value
            elif source.kind is SourceKind.RACE_TARGET:
                add[k] += config.race_target or 0
            elif source.kind is SourceKind.OWN_AVERAGE and played[slot]:
                average = Fraction(stats[k][slot], played[slot])
                add[k] += Fraction(average.numerator // average.denominator) if source.floor else average
    return add


def compute_standings(
    entrants: Sequence[int],
    boards: Iterable[BoardResult],
    byes: Iterable[ByeRecord] = (),
    config: RankingConfig = DEFAULT_RANKING,
    deductions: Mapping[int, tuple[int, int]] | None = None,
) -> Standings:
    """Rank ``entrants`` from their board results and byes.

    ``entrants`` fixes the order inside a shared rank (give them by seed); every board and bye must
    name entrants from it. ``deductions`` (a league's point deductions): per entrant, the match points and
    the bullseyes taken off before ranking.
    """
    index: dict[int, int] = {}
    for i, e in enumerate(entrants):
        if e in index:
            raise RankingError("duplicate_entrant", f"entrant {e} is listed twice")
        index[e] = i
    n = len(entrants)
    win_pts, draw_pts, loss_pts = config.points
    played = [0] * n
    wins = [0] * n
    draws = [0] * n
    losses = [0] * n
    points = [0] * n
    stats = [[0] * n for _ in range(_STATS)]
    bw, bl, cf, ca, hf, ha = stats  # for, against, per figure (the order of formats.awards)
    opponents: list[list[int]] = [[] for _ in range(n)]
    h2h: dict[tuple[int, int], int] = {}  # (i, j) -> match points i took from j on decided boards
    by_round: dict[int, list[BoardResult]] = {}
    real_played = [0] * n  # boards played to a result (the own-average source divides by these)
    play = [[0] * n for _ in range(_STATS)]  # the six figures over boards played (not forfeited)
    forfeit_awards: list[tuple[BoardResult, int, int]] = []  # (board, winner, loser) of awarded forfeits
    forfeits_won = [0] * n
    forfeits_lost = [0] * n
    for board in boards:
        a, b = index.get(board.side0), index.get(board.side1)
        if a is None or b is None:
            who = board.side0 if a is None else board.side1
            raise RankingError("unknown_entrant", f"round {board.round_number} names {who}, not in the field")
        if a == b:
            raise RankingError("self_board", f"round {board.round_number}: {board.side0} faces itself")
        b0, b1 = board.bullseyes
        bw[a] += b0
        bl[a] += b1
        bw[b] += b1
        bl[b] += b0
        c0, c1 = board.chalks
        cf[a] += c0
        ca[a] += c1
        cf[b] += c1
        ca[b] += c0
        h0, h1 = board.hang_jacks
        hf[a] += h0
        ha[a] += h1
        hf[b] += h1
        ha[b] += h0
        by_round.setdefault(board.round_number, []).append(board)
        if board.forfeited is None:  # the own-average source: figures of play alone
            for k, value in enumerate((b0, b1, c0, c1, h0, h1)):
                play[k][a] += value
                play[k ^ 1][b] += value
        if not board.decided:
            continue
        played[a] += 1
        played[b] += 1
        if board.forfeited is not None:  # a result, not a meeting: no opponent, no head-to-head
            w = board.winner
            if w is not None and board.awarded:
                forfeit_awards.append((board, (a, b)[w], (a, b)[1 - w]))
            for side, who in ((0, a), (1, b)):
                if side == w:
                    wins[who] += 1
                    points[who] += win_pts
                    forfeits_won[who] += 1
                else:
                    losses[who] += 1
                    points[who] += loss_pts
                    forfeits_lost[who] += 1
            continue
        real_played[a] += 1
        real_played[b] += 1
        opponents[a].append(b)
        opponents[b].append(a)
        if b0 > b1:
            wins[a] += 1
            losses[b] += 1
            pa, pb = win_pts, loss_pts
        elif b1 > b0:
            wins[b] += 1
            losses[a] += 1
            pa, pb = loss_pts, win_pts
        else:
            draws[a] += 1
            draws[b] += 1
            pa = pb = draw_pts
        points[a] += pa
        points[b] += pb
        h2h[a, b] = h2h.get((a, b), 0) + pa
        h2h[b, a] = h2h.get((b, a), 0) + pb
    bye_count = [0] * n
    bye_rounds: list[list[int]] = [[] for _ in range(n)]
    for bye in byes:
        slot = index.get(bye.entrant)
        if slot is None:
            raise RankingError("unknown_entrant", f"round {bye.round_number} gives a bye to {bye.entrant}")
        bye_count[slot] += 1
        bye_rounds[slot].append(bye.round_number)
        result = config.bye.result
        if result is Result.WIN:
            wins[slot] += 1
            points[slot] += win_pts
        elif result is Result.DRAW:
            draws[slot] += 1
            points[slot] += draw_pts
        else:
            losses[slot] += 1
            points[slot] += loss_pts
    totals: list[list[Fraction]] = [[Fraction(v) for v in column] for column in stats]
    cache: dict[int, tuple[Fraction, ...]] = {}
    for slot, rounds in enumerate(bye_rounds):
        for number in rounds:
            add = _awarded(config, config.bye, play, real_played, slot, number, by_round, cache)
            for k in range(_STATS):
                totals[k][slot] += add[k]
    # A board forfeited before any game counted: the winner is credited and charged as the forfeit policy
    # says; the side that forfeited takes the mirror image (the winner's "against" is its "for").
    for board, winner, loser in forfeit_awards:
        add = _awarded(config, config.forfeit, play, real_played, winner, board.round_number, by_round, cache)
        for k in range(_STATS):
            totals[k][winner] += add[k]
            totals[k ^ 1][loser] += add[k]
    for who, (less_points, less_bullseyes) in (deductions or {}).items():
        slot = index.get(who)
        if slot is None:
            raise RankingError("unknown_entrant", f"a deduction names {who}, not in the field")
        points[slot] -= less_points
        totals[0][slot] -= less_bullseyes
    buchholz = [sum(points[o] for o in opponents[i]) for i in range(n)]
    provisional = [
        StandingRow(
            entrant_id=entrants[i], rank=0, tied=False, played=played[i], wins=wins[i], draws=draws[i],
            losses=losses[i], byes=bye_count[i], match_points=points[i], bullseyes_won=totals[0][i],
            bullseyes_lost=totals[1][i], chalks_for=totals[2][i], chalks_against=totals[3][i],
            hang_jacks_for=totals[4][i], hang_jacks_against=totals[5][i], buchholz=buchholz[i],
            forfeits_won=forfeits_won[i], forfeits_lost=forfeits_lost[i],
        )
        for i in range(n)
    ]
    head: dict[int, int] = {}
    groups: list[list[int]] = [list(range(n))] if n else []
    for tb in config.tie_breaks:
        if tb in GROUP_KEYS:  # head to head: match points among each tied group, when all of it met
            split: list[list[int]] = []
            for group in groups:
                values = _head_to_head(group, h2h) if len(group) > 1 else None
                if values is None:
                    split.append(group)
                    continue
                head.update(values)
                split.extend(split_by([group], values.__getitem__))
            groups = split
        else:
            key = row_key(tb)
            groups = split_by(groups, lambda i, key=key: key(provisional[i]))  # type: ignore[misc]
    rows: list[StandingRow] = []
    for group in groups:
        rank = len(rows) + 1
        for i in sorted(group):
            rows.append(replace(provisional[i], rank=rank, tied=len(group) > 1, head_to_head=head.get(i)))
    return Standings(rows=tuple(rows), tie_breaks=config.tie_breaks)


def _head_to_head(group: list[int], h2h: dict[tuple[int, int], int]) -> dict[int, int] | None:
    """Match points each member took from the others, or None unless every two of them met."""
    values: dict[int, int] = {}
    for i in group:
        total = 0
        for j in group:
            if i == j:
                continue
            took = h2h.get((i, j))
            if took is None:
                return None
            total += took
        values[i] = total
    return values
