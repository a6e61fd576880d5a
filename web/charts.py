"""Small line charts as inline SVG (no JavaScript, no library), readable on a phone."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from markupsafe import Markup, escape

PALETTE = ("#d94f4f", "#3f8fd2", "#e3b505", "#3c9d5d", "#8e6cc0", "#444")
WIDTH, HEIGHT, PAD = 320, 120, 24


INK = {"red": "#b02a2a", "green": "#1f6b38", "blue": "#2459a3", "yellow": "#a37f00",
       "black": "#2b2b2b", "white": "#8a8a8a", "purple": "#6f42a8", "orange": "#c0561b"}
"""A player's colour as a line (the page's ink for the hero boards' colours)."""


def line_chart(title: str, xs: Sequence[int], lines: Mapping[str, Sequence[float]],
               top: float | None = None, colours: Mapping[str, str] | None = None,
               x_label: str = "") -> Markup:
    """One chart: a polyline per named series over ``xs`` (turns or rounds, named by
    ``x_label`` under the axis), y from 0 to ``top``; a series named in ``colours`` (e.g. a
    player: their hero board's colour) is drawn in that colour, the others from a palette."""
    colours = colours or {}
    values = [v for series in lines.values() for v in series]
    top = max(top or 0, max(values, default=0), 1)
    span = max(len(xs) - 1, 1)

    def point(i: int, value: float) -> str:
        x = PAD + i * (WIDTH - 2 * PAD) / span
        y = HEIGHT - PAD - value * (HEIGHT - 2 * PAD) / top
        return f"{x:.1f},{y:.1f}"

    parts = [f'<svg class="chart" viewBox="0 0 {WIDTH} {HEIGHT + 14 * len(lines)}" '
             f'role="img" aria-label="{escape(title)}"><title>{escape(title)}</title>',
             f'<text x="{PAD}" y="14" class="t">{escape(title)}</text>',
             f'<line x1="{PAD}" y1="{HEIGHT - PAD}" x2="{WIDTH - PAD}" y2="{HEIGHT - PAD}" '
             'class="axis"/>',
             f'<text x="{PAD - 4}" y="{PAD + 4}" class="y">{top:g}</text>',
             f'<text x="{PAD - 4}" y="{HEIGHT - PAD + 4}" class="y">0</text>']
    if xs:
        parts.append(f'<text x="{PAD}" y="{HEIGHT - 6}" class="x">{xs[0]}</text>'
                     f'<text x="{WIDTH - PAD}" y="{HEIGHT - 6}" class="x end">{xs[-1]}</text>')
    if x_label:
        parts.append(f'<text x="{WIDTH / 2:g}" y="{HEIGHT - 6}" class="x mid">'
                     f'{escape(x_label)}</text>')
    for n, (name, series) in enumerate(lines.items()):
        colour = INK.get(colours.get(name, ""), PALETTE[n % len(PALETTE)])
        points = " ".join(point(i, v) for i, v in enumerate(series))
        parts.append(f'<polyline points="{points}" fill="none" stroke="{colour}" '
                     'stroke-width="2.5"/>')
        y = HEIGHT + 10 + 14 * n
        parts.append(f'<rect x="{PAD}" y="{y - 8}" width="10" height="10" fill="{colour}"/>'
                     f'<text x="{PAD + 14}" y="{y + 1}" class="k">{escape(name)}</text>')
    parts.append("</svg>")
    return Markup("".join(parts))
