"""Inline SVG charts for report.html: no script, no fonts to fetch, no network.

Two kinds: rates with their interval (a dot on a bar, whiskers for the 95 % interval) and
stacked shares (correct / wrong / omitted, the verdict mix). Coordinates are rounded to one
decimal so the same numbers always give the same bytes.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from html import escape

PALETTE = ("#2f6fb0", "#d9822b", "#3a9a5b", "#b03a48", "#7a5aa6", "#6b7b8c", "#c4a000")
ROW = 22
LABEL_WIDTH = 230  # at least; longer labels widen the chart instead of being cut off
GLYPH = 7  # px: no glyph of the 12 px sans-serif labels is wider on average
PLOT_WIDTH = 420
VALUE_WIDTH = 110
FONT = "font-family:system-ui,-apple-system,'Segoe UI',sans-serif;font-size:12px"
STEPS = (1, 2, 5)  # axis steps are one of these times a power of ten
MAX_TICKS = 5  # steps on an axis, at most


def _n(value: float) -> str:
    text = f"{value:.1f}"
    return text[:-2] if text.endswith(".0") else text


@dataclass(frozen=True)
class RateBar:
    label: str
    series: int  # which run: picks the colour
    value: float | None
    low: float | None
    high: float | None
    note: str = ""  # printed after the value (e.g. a small-cell mark)


def _label_width(labels: Sequence[str]) -> int:
    """Room for the longest label (right-aligned against the plot) and a margin."""
    return max([LABEL_WIDTH] + [GLYPH * len(label) + 12 for label in labels])


def _opening(title: str, width: int, height: int) -> list[str]:
    """The first lines of a chart: the svg element, its accessible title, the heading."""
    return [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" role="img" '
        f'width="{width}" height="{height}" viewBox="0 0 {width} {height}" style="{FONT}">',
        f"<title>{escape(title)}</title>",
        f'<text x="0" y="16" font-weight="600">{escape(title)}</text>',
    ]


def _axis(top: float) -> list[float]:
    """Round ticks from 0 that reach `top`: at most MAX_TICKS equal steps, each step 1, 2 or 5
    times a power of ten (0 %, 1 %, ... 5 %; never 1.25 %, 3.75 %)."""
    top = top if top > 0 else 0.01
    exponent = math.floor(math.log10(top / MAX_TICKS))
    while True:
        for multiple in STEPS:
            step = multiple * 10.0**exponent
            count = math.ceil(round(top / step, 9))
            if count <= MAX_TICKS:
                return [round(step * i, 12) for i in range(max(count, 1) + 1)]
        exponent += 1


def _percent(value: float) -> str:
    return f"{round(value * 100, 6):g} %"


def rate_chart(title: str, bars: Sequence[RateBar], legend: Sequence[str]) -> str:
    """Horizontal bars of rates (as percentages) with 95 % interval whiskers."""
    ticks = _axis(max([b.high or b.value or 0.0 for b in bars] + [0.0]))
    scale = ticks[-1]
    left = _label_width([bar.label for bar in bars])
    top = 34 + (18 if len(legend) > 1 else 0)
    height = top + ROW * len(bars) + 30
    out = _opening(title, left + PLOT_WIDTH + VALUE_WIDTH, height)
    out += _legend(legend, 0, 36)

    def x(value: float) -> float:
        return left + PLOT_WIDTH * min(value, scale) / scale

    for value in ticks:
        out.append(
            f'<line x1="{_n(x(value))}" y1="{top - 4}" x2="{_n(x(value))}" '
            f'y2="{top + ROW * len(bars)}" stroke="#ddd"/>'
        )
        out.append(
            f'<text x="{_n(x(value))}" y="{top + ROW * len(bars) + 16}" '
            f'text-anchor="middle" fill="#555">{_percent(value)}</text>'
        )
    for i, bar in enumerate(bars):
        y = top + ROW * i
        colour = PALETTE[bar.series % len(PALETTE)]
        out.append(
            f'<text x="{left - 8}" y="{y + 15}" text-anchor="end">{escape(bar.label)}</text>'
        )
        if bar.value is None:
            out.append(f'<text x="{left + 4}" y="{y + 15}" fill="#777">no values</text>')
            continue
        out.append(
            f'<rect x="{left}" y="{y + 5}" width="{_n(x(bar.value) - left)}"'
            f' height="12" fill="{colour}" fill-opacity="0.35"/>'
        )
        if bar.low is not None and bar.high is not None:
            low, high = x(bar.low), x(bar.high)
            out.append(
                f'<line class="ci" x1="{_n(low)}" y1="{y + 11}" x2="{_n(high)}" '
                f'y2="{y + 11}" stroke="{colour}" stroke-width="2"/>'
            )
            for end in (low, high):
                out.append(
                    f'<line x1="{_n(end)}" y1="{y + 6}" x2="{_n(end)}" y2="{y + 16}" '
                    f'stroke="{colour}" stroke-width="2"/>'
                )
        out.append(f'<circle cx="{_n(x(bar.value))}" cy="{y + 11}" r="4" fill="{colour}"/>')
        label = f"{bar.value * 100:.2f} %{(' ' + bar.note) if bar.note else ''}"
        out.append(f'<text x="{left + PLOT_WIDTH + 8}" y="{y + 15}">{escape(label)}</text>')
    out.append("</svg>")
    return "\n".join(out)


@dataclass(frozen=True)
class StackedBar:
    label: str
    parts: Sequence[tuple[str, int]]  # (part name, count), in legend order


def stacked_chart(title: str, bars: Sequence[StackedBar], parts: Sequence[str]) -> str:
    """One horizontal bar per run, split into the shares of its parts."""
    top = 56
    height = top + (ROW + 4) * len(bars) + 10
    left = _label_width([bar.label for bar in bars])
    out = _opening(title, left + PLOT_WIDTH + VALUE_WIDTH, height)
    out += _legend(parts, 0, 36)
    for i, bar in enumerate(bars):
        y = top + (ROW + 4) * i
        out.append(
            f'<text x="{left - 8}" y="{y + 15}" text-anchor="end">{escape(bar.label)}</text>'
        )
        total = sum(count for _, count in bar.parts)
        start = float(left)
        for j, (name, count) in enumerate(bar.parts):
            if not total or not count:
                continue
            span = PLOT_WIDTH * count / total
            out.append(
                f'<rect x="{_n(start)}" y="{y + 3}" width="{_n(span)}" height="16" '
                f'fill="{PALETTE[j % len(PALETTE)]}"><title>{escape(name)}: {count:,} '
                f"({count / total * 100:.2f} %)</title></rect>"
            )
            start += span
        out.append(f'<text x="{left + PLOT_WIDTH + 8}" y="{y + 15}">{total:,}</text>')
    out.append("</svg>")
    return "\n".join(out)


def _legend(names: Sequence[str], x: float, y: float) -> list[str]:
    if len(names) < 2:
        return []
    out: list[str] = []
    left = x
    for i, name in enumerate(names):
        out.append(
            f'<rect x="{_n(left)}" y="{y - 9}" width="10" height="10" '
            f'fill="{PALETTE[i % len(PALETTE)]}"/>'
        )
        out.append(f'<text x="{_n(left + 14)}" y="{y}">{escape(name)}</text>')
        left += 24 + 7 * len(name)
    return out
