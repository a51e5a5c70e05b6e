"""Server-rendered SVG: a game's score progression hand by hand, no image service and no script.

The chart is a small inline ``<svg>`` with ``role="img"``, a ``<title>`` and a text description, so a
screen reader hears the same story the lines tell. Pair A is a solid dark line with round markers,
pair B a dashed line with square markers: the two stay apart without colour.

What it costs is bounded by what was played, never by a setting (issue 11, item 1): the vertical scale
reaches the target only when the target is one a table plays (``tournaments.formats`` bounds it) or
within twice the highest score reached, and the grid has at most ``MAX_GRID_LINES`` lines (every 2 points
up to 80, a round step above), so a rule set stored with a target of 2**53 - 1 draws the same few lines.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from django.utils.safestring import SafeString, mark_safe

from tournaments.formats.rules import TARGET_MAX

WIDTH, HEIGHT = 320, 180
LEFT, RIGHT, TOP, BOTTOM = 30, 12, 12, 28
COLOUR_A, COLOUR_B = "#0b3d91", "#b3261e"
#: The most horizontal grid lines a chart draws (41: every 2 points from 0 to 80).
MAX_GRID_LINES = 41
#: The most hand numbers under the horizontal axis.
MAX_HAND_LABELS = 25


def _fmt(value: float) -> str:
    return f"{value:.1f}".rstrip("0").rstrip(".")


def _top(target: int, reached: int) -> int:
    """The top of the vertical scale: the target when a table plays it (within the registry's bounds) or
    when it is within twice the highest score reached; otherwise the scores alone say how tall it is."""
    shown = min(target, max(TARGET_MAX, 2 * reached))
    return max(reached, shown, 1)


def target_drawn(target: int, scores: Sequence[tuple[int, int]]) -> bool:
    """Whether the chart of these scores draws the target's line (a stored target far above play is not)."""
    reached = max((max(a, b) for a, b in scores), default=0)
    return _top(target, reached) >= target


def grid_step(top: int) -> int:
    """Points between grid lines: 2, or the round step (1, 2 or 5 times a power of ten) that keeps the
    grid to ``MAX_GRID_LINES`` lines from 0 to ``top``."""
    if top // 2 + 1 <= MAX_GRID_LINES:
        return 2
    need = -(-top // (MAX_GRID_LINES - 1))
    power = 10 ** (len(str(need)) - 1)
    return next(m * power for m in (1, 2, 5, 10) if m * power >= need)


def _hand_step(n: int) -> int:
    if n <= 12:
        return 1
    if n <= 24:
        return 2
    if n <= 5 * (MAX_HAND_LABELS - 1):
        return 5
    return -(-n // (MAX_HAND_LABELS - 1))


def game_chart(
    scores: Sequence[tuple[int, int]],
    *,
    target: int = 14,
    label_a: str = "A",
    label_b: str = "B",
    title: str = "Score by hand",
    start: tuple[int, int] = (0, 0),
    ident: str = "chart",
) -> SafeString:
    """The SVG for one game: ``scores`` is the running score after each hand, in order; ``ident`` is unique
    on the page (it names the title and description for screen readers)."""
    points = [start, *scores]
    top_value = _top(target, max(max(a, b) for a, b in points))
    n = max(1, len(points) - 1)
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def x(i: int) -> float:
        return LEFT + plot_w * i / n

    def y(v: int) -> float:
        return TOP + plot_h * (1 - v / top_value)

    parts: list[str] = []
    final = points[-1]
    desc = (
        f"{label_a} (A) {final[0]}, {label_b} (B) {final[1]} after {len(points) - 1} hands; "
        f"target {target}. By hand: " + ", ".join(f"{i}: {a}-{b}" for i, (a, b) in enumerate(points[1:], 1))
    )
    parts.append(
        f'<svg class="chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" aria-labelledby="{{id}}-t {{id}}-d" '
        f'xmlns="http://www.w3.org/2000/svg">'
    )
    parts.append(f'<title id="{{id}}-t">{escape(title)}</title><desc id="{{id}}-d">{escape(desc)}</desc>')
    # Axes and grid: every 2 chalks (a round step on a taller scale), labelled every 7 and at the target.
    for v in range(0, top_value + 1, grid_step(top_value)):
        parts.append(
            f'<line x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{_fmt(y(v))}" y2="{_fmt(y(v))}" class="grid" '
            f'stroke="#d0d0d0" stroke-width="0.5"/>'
        )
    labels = {0, top_value} | ({7} if grid_step(top_value) == 2 else set()) | ({target} if target <= top_value else set())
    for v in sorted(labels):
        parts.append(
            f'<text x="{LEFT - 4}" y="{_fmt(y(v) + 3.5)}" text-anchor="end" font-size="10" fill="#222">{v}</text>'
        )
    if target <= top_value:
        parts.append(
            f'<line x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{_fmt(y(target))}" y2="{_fmt(y(target))}" '
            f'stroke="#222" stroke-width="1" stroke-dasharray="2 2"/>'
        )
    for i in range(0, n + 1, _hand_step(n)):
        parts.append(
            f'<text x="{_fmt(x(i))}" y="{HEIGHT - BOTTOM + 13}" text-anchor="middle" font-size="10" fill="#222">{i}</text>'
        )
    parts.append(
        f'<text x="{LEFT + plot_w / 2:.0f}" y="{HEIGHT - 3}" text-anchor="middle" font-size="10" fill="#222">hand</text>'
    )
    for side, colour, dash in ((0, COLOUR_A, ""), (1, COLOUR_B, ' stroke-dasharray="6 3"')):
        coords = " ".join(f"{_fmt(x(i))},{_fmt(y(p[side]))}" for i, p in enumerate(points))
        parts.append(f'<polyline points="{coords}" fill="none" stroke="{colour}" stroke-width="2.5"{dash}/>')
        for i, p in enumerate(points[1:], 1):
            cx, cy = x(i), y(p[side])
            if side == 0:
                parts.append(f'<circle cx="{_fmt(cx)}" cy="{_fmt(cy)}" r="2.8" fill="{colour}"/>')
            else:
                parts.append(f'<rect x="{_fmt(cx - 2.6)}" y="{_fmt(cy - 2.6)}" width="5.2" height="5.2" fill="{colour}"/>')
    parts.append("</svg>")
    return mark_safe("".join(parts).replace("{id}", ident))  # noqa: S308 (every text above is escaped)
