"""The progress line of an arena at a terminal: deals and games done, the leader so far (most
games won) and the time left at the pace so far, redrawn in place on standard error."""

from __future__ import annotations

import time
from typing import TextIO, final

from .run import ArenaRun


@final
class ProgressLine:
    """Redraws one line on ``stream`` after each deal; :meth:`clear` wipes it at the end."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.start = time.monotonic()
        self.width = 0
        self.wins: list[int] = []
        self.counted = 0

    def __call__(self, run: ArenaRun) -> None:
        wins = self.wins = self.wins or [0] * len(run.setup.entrants)
        for r in run.results[self.counted:]:
            for seat, e in enumerate(r.game.lineup):
                wins[e] += r.game.won(seat)
        self.counted = len(run.results)
        leader = max(range(len(wins)), key=lambda e: (wins[e], -e))
        done, total = run.deals_played, run.deals
        elapsed = time.monotonic() - self.start
        left = int(elapsed / done * (total - done)) if done else 0
        bar = "#" * (20 * done // total) + "-" * (20 - 20 * done // total)
        line = (f"[{bar}] deal {done}/{total}, {len(run.results)} games, leader "
                f"{run.setup.entrants[leader].name}, {left // 60}:{left % 60:02d} left")
        self.stream.write("\r" + line.ljust(self.width))
        self.stream.flush()
        self.width = len(line)

    def clear(self) -> None:
        if self.width:
            self.stream.write("\r" + " " * self.width + "\r")
            self.stream.flush()
