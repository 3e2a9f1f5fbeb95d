"""``kcref score --chart``: each player's running total, hand by hand, drawn in the terminal.

One line per player, one character per scored hand: a block whose height is the running total
(the same scale for every player), so a night can be seen at a glance. A blank is a hand the
player was not in; a bar between two hands marks the end of a game. Long sets of hands are
squeezed to ``WIDTH`` characters (each then shows the total at the end of a few hands).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from .options import Scoring
from .scoring import UNITS, highest_wins
from .standings import HandRow, Scoreboard

WIDTH = 60
"""The most characters a player's line takes."""
BLOCKS = "▁▂▃▄▅▆▇█"
ASCII_BLOCKS = "_.-:=+*#"


def chart(board: Scoreboard, ascii_only: bool = False) -> str:
    """The running totals of every player, one block per scoring system played."""
    blocks = ASCII_BLOCKS if ascii_only else BLOCKS
    bar = "|" if ascii_only else "│"
    parts = [_system_chart([r for r in board.scored if r.scoring is s], s, blocks, bar) for s in board.systems]
    return "\n".join(parts)


def _series(rows: Sequence[HandRow]) -> dict[str, list[int | None]]:
    """Per player, the running total after each hand (None for a hand the player was not in)."""
    names: dict[str, None] = {}
    for row in rows:
        names.update(dict.fromkeys(row.players))
    series: dict[str, list[int | None]] = {n: [] for n in names}
    for row in rows:
        totals = dict(zip(row.players, row.totals or ()))
        for name, values in series.items():
            values.append(totals.get(name))
    return series


def _squeeze(values: list[int | None], size: int) -> list[int | None]:
    """Every ``size`` hands as one: the last total known within them."""
    out: list[int | None] = []
    for start in range(0, len(values), size):
        known = [v for v in values[start:start + size] if v is not None]
        out.append(known[-1] if known else None)
    return out


def _system_chart(rows: list[HandRow], scoring: Scoring, blocks: str, bar: str) -> str:
    series = _series(rows)
    size = math.ceil(len(rows) / WIDTH)
    if size > 1:
        series = {n: _squeeze(v, size) for n, v in series.items()}
    ends = sum(1 for r in rows if r.game_over)
    # A bar after every hand says nothing (one hand per game), and squeezed columns hide the ends.
    bars = size == 1 and 0 < ends * 2 <= len(rows)
    after = {i for i, r in enumerate(rows[:-1]) if r.game_over} if bars else set()
    bars = bool(after)
    values = [v for vs in series.values() for v in vs if v is not None]
    lo, hi = min(values), max(values)
    top = len(blocks) - 1

    def block(v: int | None) -> str:
        if v is None:
            return " "
        return blocks[0 if hi == lo else round((v - lo) * top / (hi - lo))]

    name_w = max(len(n) for n in series)
    final_w = max(len(str(v)) for v in values)
    direction = "highest wins" if highest_wins(scoring) else "lowest wins"
    title = f"Running totals, hand by hand: {UNITS[scoring]} ({scoring.value}), {direction}"
    if bars:
        title += f"; {bar} ends a game"
    if size > 1:
        title += f"; one column per {size} hands"
    lines = [title]
    for name, vs in series.items():
        cells = "".join(block(v) + (bar if i in after else "") for i, v in enumerate(vs))
        last = next((v for v in reversed(vs) if v is not None), None)
        lines.append(f"{name:<{name_w}}  {cells}  {'' if last is None else last:>{final_w}}")
    lines.append(f"{'':<{name_w}}  scale: {blocks[0]} {lo} .. {blocks[-1]} {hi}")
    return "\n".join(lines) + "\n"
