"""Server-rendered SVG: a game's score progression hand by hand, no image service and no script.

The chart is a small inline ``<svg>`` with ``role="img"``, a ``<title>`` and a text description, so a
screen reader hears the same story the lines tell. Pair A is a solid dark line with round markers,
pair B a dashed line with square markers: the two stay apart without colour.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from django.utils.safestring import SafeString, mark_safe

WIDTH, HEIGHT = 320, 180
LEFT, RIGHT, TOP, BOTTOM = 30, 12, 12, 28
COLOUR_A, COLOUR_B = "#0b3d91", "#b3261e"


def _fmt(value: float) -> str:
    return f"{value:.1f}".rstrip("0").rstrip(".")


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
    top_value = max([target, *(max(a, b) for a, b in points)])
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
    # Axes and grid: every 2 chalks, labelled every 7 and at the target.
    for v in range(0, top_value + 1, 2):
        parts.append(
            f'<line x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{_fmt(y(v))}" y2="{_fmt(y(v))}" class="grid" '
            f'stroke="#d0d0d0" stroke-width="0.5"/>'
        )
    for v in sorted({0, 7, target} | ({top_value} if top_value != target else set())):
        parts.append(
            f'<text x="{LEFT - 4}" y="{_fmt(y(v) + 3.5)}" text-anchor="end" font-size="10" fill="#222">{v}</text>'
        )
    parts.append(
        f'<line x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{_fmt(y(target))}" y2="{_fmt(y(target))}" '
        f'stroke="#222" stroke-width="1" stroke-dasharray="2 2"/>'
    )
    step = 1 if n <= 12 else 2 if n <= 24 else 5
    for i in range(0, n + 1, step):
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
