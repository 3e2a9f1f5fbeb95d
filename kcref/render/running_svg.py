"""Each player's running total, hand by hand, as an SVG line chart (``kcref report``): one chart
per scoring system played, one line per player, a dotted rule where a game ended.

The same running totals as ``kcref score --chart`` (:class:`kcref.scoring.games.RunningTotals`),
drawn with :mod:`xml.etree.ElementTree` so that every name is escaped.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

from ..model.diagnostics import printable
from ..scoring.games import NO_TOTAL, RunningTotals

PALETTE = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf", "#8c564b", "#e377c2", "#7f7f7f",
           "#bcbd22")
"""Line colours, taken in turn (Tableau's ten, readable on white and in print)."""
W, H = 640, 260
LEFT, RIGHT, TOP, BOTTOM = 48, 130, 12, 28


def _text(parent: ET.Element, text: str, **attrs: object) -> ET.Element:
    el = ET.SubElement(parent, "text", {k.replace("_", "-"): str(v) for k, v in attrs.items()})
    el.text = printable(text)
    return el


def running_chart(running: RunningTotals) -> ET.Element:
    """The chart of one scoring system's running totals, as an ``<svg>`` element (scaled by CSS)."""
    hands = running.hands
    values = [v for series in running.series.values() for v in series if v != NO_TOTAL] or [0]
    low, high = min(0, *values), max(0, *values)
    if high == low:
        high = low + 1
    span_x = max(hands - 1, 1)

    def x(i: int) -> float:
        return round(LEFT + (W - LEFT - RIGHT) * i / span_x, 1)

    def y(v: int) -> float:
        return round(TOP + (H - TOP - BOTTOM) * (high - v) / (high - low), 1)

    svg = ET.Element("svg", {"viewBox": f"0 0 {W} {H}", "class": "kc-chart", "role": "img",
                             "data-scoring": running.scoring.name})
    title = ET.SubElement(svg, "title")
    title.text = f"Running totals ({running.scoring.name}), hand by hand"
    ET.SubElement(svg, "line", {"x1": str(LEFT), "x2": str(W - RIGHT), "y1": str(y(0)), "y2": str(y(0)),
                                "stroke": "#999"})
    for value in (low, high):
        _text(svg, str(value), x=LEFT - 6, y=y(value) + 4, font_size=11, text_anchor="end", fill="#555")
    _text(svg, f"{hands} scored hand{'s' if hands != 1 else ''}", x=LEFT, y=H - 8, font_size=11, fill="#555")
    for i, end in enumerate(running.ends):
        if end and i < hands - 1:
            ET.SubElement(svg, "line", {"x1": str(x(i)), "x2": str(x(i)), "y1": str(TOP), "y2": str(H - BOTTOM),
                                        "stroke": "#bbb", "stroke-dasharray": "2 3"})
    label_y: list[float] = []
    for n, (name, series) in enumerate(running.series.items()):
        colour = PALETTE[n % len(PALETTE)]
        points = " ".join(f"{x(i)},{y(v)}" for i, v in enumerate(series) if v != NO_TOTAL)
        if not points:
            continue
        g = ET.SubElement(svg, "g", {"data-player": printable(name)})
        ET.SubElement(g, "polyline", {"points": points, "fill": "none", "stroke": colour, "stroke-width": "2",
                                      "stroke-linejoin": "round"})
        last = next(v for v in reversed(series) if v != NO_TOTAL)
        ly = y(last) + 4
        while any(abs(ly - other) < 12 for other in label_y):
            ly += 12
        label_y.append(ly)
        _text(g, f"{name} {last}", x=W - RIGHT + 6, y=ly, font_size=12, fill=colour)
    return svg


def chart_text(running: RunningTotals) -> str:
    """:func:`running_chart` as markup for an HTML page."""
    return ET.tostring(running_chart(running), encoding="unicode")
