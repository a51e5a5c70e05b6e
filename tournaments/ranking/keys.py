"""How each tie-break is computed: a figure of a standings row, or (head to head) of a tied group.

The registry (``tournaments/formats/tiebreaks.py``) names the tie-breaks, says which way is better and
explains them; this module computes them. A test keeps both lists equal, so a new tie-break is one entry
here and one there (docs/README.md).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction

from tournaments.formats import TIE_BREAKS

from .types import StandingRow

RowKey = Callable[[StandingRow], Fraction | int]

#: Tie-breaks read off one row (the sign comes from the registry: fewer is better for some).
ROW_KEYS: dict[str, RowKey] = {
    "match_points": lambda r: r.match_points,
    "wins": lambda r: r.wins,
    "bullseyes_won": lambda r: r.bullseyes_won,
    "bullseyes_lost": lambda r: r.bullseyes_lost,
    "bullseye_difference": lambda r: r.bullseye_difference,
    "chalk_difference": lambda r: r.chalk_difference,
    "chalks_for": lambda r: r.chalks_for,
    "chalks_against": lambda r: r.chalks_against,
    "hang_jacks_for": lambda r: r.hang_jacks_for,
    "hang_jacks_against": lambda r: r.hang_jacks_against,
    "buchholz": lambda r: r.buchholz,
}

#: Tie-breaks that depend on the tied group itself (computed by ``compute_standings``).
GROUP_KEYS = frozenset({"head_to_head"})

#: Tie-breaks that need results between entrants, so club rows summed from pairs cannot give them.
NEEDS_MEETINGS = frozenset({"head_to_head", "buchholz"})


def implemented() -> frozenset[str]:
    """Every tie-break this core computes."""
    return frozenset(ROW_KEYS) | GROUP_KEYS


def row_key(name: str) -> RowKey:
    """The sort key of a row tie-break, larger is better."""
    figure = ROW_KEYS[name]
    if TIE_BREAKS.get(name).higher_is_better:
        return figure
    return lambda r: -figure(r)


def split_by(groups: Sequence[list[int]], key: Callable[[int], Fraction | int]) -> list[list[int]]:
    """Each group of tied indices split into runs of equal ``key``, best first."""
    split: list[list[int]] = []
    for group in groups:
        if len(group) == 1:
            split.append(group)
            continue
        ordered = sorted(group, key=key, reverse=True)
        run = [ordered[0]]
        for i in ordered[1:]:
            if key(i) == key(run[0]):
                run.append(i)
            else:
                split.append(run)
                run = [i]
        split.append(run)
    return split
