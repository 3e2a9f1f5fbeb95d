"""Each player's running total, hand by hand, as an SVG line chart (``kcref report``): one chart
per scoring system played, one line per player, a dotted rule where a game ended, a solid one
where a night did.

The same running totals as ``kcref score --chart`` (:class:`kcref.scoring.games.RunningTotals`),
drawn with :mod:`xml.etree.ElementTree` so that every name is escaped.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from itertools import pairwise
from typing import NamedTuple

from ..model.diagnostics import printable
from ..scoring.games import NO_TOTAL, RunningTotals

PALETTE = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf", "#8c564b", "#e377c2", "#7f7f7f",
           "#bcbd22")
"""Line colours, taken in turn (Tableau's ten, readable on white and in print)."""
W, H = 440, 250
LEFT, RIGHT, TOP, BOTTOM = 40, 10, 12, 38
FONT = 13
"""Text size in the chart's own units: the chart is drawn about as wide as a phone's screen, so
its text stays readable there and is not large on a wider one (the page caps the chart's width)."""
TICKS = 7
"""At most this many hand numbers under the axis."""


class LegendEntry(NamedTuple):
    """A player's line in a chart: the name, the line's colour and the last running total."""

    name: str
    colour: str
    last: int


def _text(parent: ET.Element, text: str, **attrs: object) -> ET.Element:
    el = ET.SubElement(parent, "text", {k.rstrip("_").replace("_", "-"): str(v) for k, v in attrs.items()})
    el.text = printable(text)
    return el


def tick_step(hands: int, most: int = TICKS) -> int:
    """The spacing of the hand numbers under the axis: 1, 2 or 5 times a power of ten, the
    smallest that puts at most ``most`` numbers under ``hands`` hands."""
    step = 1
    while True:
        for factor in (1, 2, 5):
            if hands // (step * factor) < most:
                return step * factor
        step *= 10


def legend(running: RunningTotals) -> list[LegendEntry]:
    """Each player drawn in :func:`running_chart`, with the colour of their line."""
    out = []
    for n, (name, series) in enumerate(running.series.items()):
        last = next((v for v in reversed(series) if v != NO_TOTAL), None)
        if last is not None:
            out.append(LegendEntry(name, PALETTE[n % len(PALETTE)], last))
    return out


def _nights(running: RunningTotals) -> list[range]:
    """The hands of each night, as ranges of positions (one range when the nights are not known)."""
    starts = [i for i, first in enumerate(running.night_starts) if first and i > 0]
    return [range(a, b) for a, b in pairwise([0, *starts, running.hands]) if b > a]


class _Frame(NamedTuple):
    """Where a hand and a total fall on the chart."""

    hands: int
    low: int
    high: int

    def x(self, i: float) -> float:
        return round(LEFT + (W - LEFT - RIGHT) * i / max(self.hands - 1, 1), 1)

    def y(self, v: int) -> float:
        return round(TOP + (H - TOP - BOTTOM) * (self.high - v) / (self.high - self.low), 1)


def _line(parent: ET.Element, x1: float, x2: float, y1: float, y2: float, **attrs: str) -> None:
    ET.SubElement(parent, "line", {"x1": str(x1), "x2": str(x2), "y1": str(y1), "y2": str(y2),
                                   **{k.rstrip("_").replace("_", "-"): v for k, v in attrs.items()}})


def _axes(svg: ET.Element, f: _Frame) -> None:
    """The zero line, the lowest and highest totals, and the hand numbers under the axis."""
    muted = {"font_size": FONT, "fill": "#555"}
    _line(svg, LEFT, W - RIGHT, f.y(0), f.y(0), stroke="#999")
    for value in sorted({f.low, 0, f.high}):
        _text(svg, str(value), x=LEFT - 5, y=f.y(value) + 4, text_anchor="end", **muted)
    axis, step = H - BOTTOM, tick_step(f.hands)
    for i in range(f.hands):
        if i == 0 or (i + 1) % step == 0:
            _line(svg, f.x(i), f.x(i), axis, axis + 4, stroke="#999", class_="tick")
            _text(svg, str(i + 1), x=f.x(i), y=axis + 5 + FONT, text_anchor="middle", class_="tick", **muted)
    _text(svg, "hand", x=W - RIGHT, y=H - 2, text_anchor="end", **muted)


def _rules(svg: ET.Element, f: _Frame, running: RunningTotals, nights: list[range]) -> None:
    """A dotted rule after a hand that ended a game, a solid one between two nights."""
    new_night = {night.start for night in nights[1:]}
    for i, end in enumerate(running.ends):
        if end and i < f.hands - 1 and i + 1 not in new_night:
            _line(svg, f.x(i), f.x(i), TOP, H - BOTTOM, stroke="#bbb", stroke_dasharray="2 3")
    for start in sorted(new_night):
        _line(svg, f.x(start - 0.5), f.x(start - 0.5), TOP, H - BOTTOM, stroke="#888", stroke_width="1.5",
              class_="night")


def running_chart(running: RunningTotals) -> ET.Element:
    """The chart of one scoring system's running totals, as an ``<svg>`` element (scaled by CSS):
    hand numbers under the axis, a dotted rule where a game ended, a solid rule and a break in
    the lines where a night ended. The players' names are in :func:`legend`, for the page to list."""
    values = [v for series in running.series.values() for v in series if v != NO_TOTAL] or [0]
    low, high = min(0, *values), max(0, *values)
    f = _Frame(running.hands, low, high if high > low else low + 1)
    svg = ET.Element("svg", {"viewBox": f"0 0 {W} {H}", "class": "kc-chart", "role": "img",
                             "data-scoring": running.scoring.name})
    title = ET.SubElement(svg, "title")
    title.text = f"Running totals ({running.scoring.name}), hand by hand"
    _axes(svg, f)
    nights = _nights(running)
    _rules(svg, f, running, nights)
    for n, (name, series) in enumerate(running.series.items()):
        g = ET.Element("g", {"data-player": printable(name)})
        for night in nights:
            points = " ".join(f"{f.x(i)},{f.y(series[i])}" for i in night if series[i] != NO_TOTAL)
            if points:
                ET.SubElement(g, "polyline", {"points": points, "fill": "none", "stroke": PALETTE[n % len(PALETTE)],
                                              "stroke-width": "2", "stroke-linejoin": "round"})
        if len(g):
            svg.append(g)
    return svg


def chart_text(running: RunningTotals) -> str:
    """:func:`running_chart` as markup for an HTML page."""
    return ET.tostring(running_chart(running), encoding="unicode")
