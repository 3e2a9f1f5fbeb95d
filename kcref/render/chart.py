"""``kcref score --chart``: each player's running total, hand by hand, drawn in the terminal.

One line per player, one character per scored hand: a block whose height is the running total
(the same scale for every player), so a night can be seen at a glance. A blank is a hand the
player was not in; a bar between two hands marks the end of a game. Long sets of hands are
squeezed to ``WIDTH`` characters (each then shows the total at the end of a few hands).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from ..model.clip import clip
from ..scoring.games import NO_TOTAL, RunningTotals
from ..scoring.standings import Scoreboard
from .cells import terminal

WIDTH = 60
"""The most characters a player's line takes."""
BLOCKS = "▁▂▃▄▅▆▇█"
ASCII_BLOCKS = "_.-:=+*#"


def chart(board: Scoreboard, ascii_only: bool = False) -> str:
    """The running totals of every player, one block per scoring system played (the board must
    have been built keeping them)."""
    blocks = ASCII_BLOCKS if ascii_only else BLOCKS
    bar = "|" if ascii_only else "│"
    return "\n".join(_system_chart(r, blocks, bar) for r in board.running)


def _squeeze(values: Sequence[int], size: int) -> list[int | None]:
    """Every ``size`` hands as one: the last total known within them (None: none known)."""
    out: list[int | None] = []
    for start in range(0, len(values), size):
        known = next((v for v in reversed(values[start:start + size]) if v != NO_TOTAL), None)
        out.append(known)
    return out


def _system_chart(running: RunningTotals, blocks: str, bar: str) -> str:
    scoring = running.scoring
    hands = running.hands
    size = max(math.ceil(hands / WIDTH), 1)
    # A list, not a dict: two long names may look the same once clipped.
    series = [(terminal(clip(n)), _squeeze(v, size)) for n, v in running.series.items()]
    ends = running.ends.count(1)
    # A bar after every hand says nothing (one hand per game), and squeezed columns hide the ends.
    bars = size == 1 and 0 < ends * 2 <= hands
    after = {i for i in range(hands - 1) if running.ends[i]} if bars else set()
    bars = bool(after)
    values = [v for _, vs in series for v in vs if v is not None]
    lo, hi = min(values), max(values)
    top = len(blocks) - 1

    def block(v: int | None) -> str:
        if v is None:
            return " "
        return blocks[0 if hi == lo else round((v - lo) * top / (hi - lo))]

    name_w = max(len(n) for n, _ in series)
    final_w = max(len(str(v)) for v in values)
    direction = "highest wins" if scoring.highest_wins else "lowest wins"
    title = f"Running totals, hand by hand: {scoring.words.unit} ({scoring.name}), {direction}"
    if bars:
        title += f"; {bar} ends a game"
    if size > 1:
        title += f"; one column per {size} hands"
    lines = [title]
    for name, vs in series:
        cells = "".join(block(v) + (bar if i in after else "") for i, v in enumerate(vs))
        last = next((v for v in reversed(vs) if v is not None), None)
        lines.append(f"{name:<{name_w}}  {cells}  {'' if last is None else last:>{final_w}}")
    lines.append(f"{'':<{name_w}}  scale: {blocks[0]} {lo} .. {blocks[-1]} {hi}")
    return "\n".join(lines) + "\n"
