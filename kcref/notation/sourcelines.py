"""The text of the source lines that diagnostics may still need, kept while a log is read.

Checking reads a log once, as a stream, and judges it hand by hand; the caret display of a
diagnostic needs its line's text. So the reader hands every line to a :class:`SourceLines`,
which keeps the lines of the hands not yet judged, and the checker releases each hand's lines
once the hand's diagnostics are out. Memory stays bounded: each hand keeps at most
:data:`HAND_BUDGET` (a line beyond it gets no source display), and all hands together at most
:data:`TOTAL_BUDGET` (the oldest hand's lines go first).
"""

from __future__ import annotations

from collections import deque
from typing import Protocol

HAND_BUDGET = 4 * 1024 * 1024
"""What one hand's lines may cost: their characters plus :data:`LINE_COST` each."""
TOTAL_BUDGET = 4 * HAND_BUDGET
LINE_COST = 100
"""A rough cost of keeping one line, beyond its characters (the string object and a dict slot)."""


class LineKeeper(Protocol):
    """What the reader hands the text of the lines it reads to: a :class:`SourceLines`, or a
    keeper of its own that hands them on to one (the report keeps them for its page too)."""

    def add_lines(self, lines: dict[int, str]) -> None:
        """Keep these lines, in order; a hand's lines come at once (a very long hand's in parts)."""

    def hand(self, lineno: int) -> None:
        """A hand starts at line ``lineno``."""


class _Part:
    """The kept lines from one ``hand`` line (or the start of the file) up to the next."""

    __slots__ = ("cost", "lines", "start")

    def __init__(self, start: int) -> None:
        self.start = start
        self.lines: dict[int, str] = {}
        self.cost = 0


class SourceLines:
    """Kept source lines by number, grouped by hand, within a memory budget."""

    def __init__(self, hand_budget: int = HAND_BUDGET, total_budget: int = TOTAL_BUDGET) -> None:
        self.hand_budget = hand_budget
        self.total_budget = total_budget
        self.parts: deque[_Part] = deque()
        self.cost = 0

    def add(self, lineno: int, text: str) -> None:
        """Keep line ``lineno`` (if its hand's budget allows)."""
        if not self.parts:
            self.parts.append(_Part(lineno))
        part = self.parts[-1]
        cost = len(text) + LINE_COST
        if part.cost + cost > self.hand_budget:
            return
        part.lines[lineno] = text
        part.cost += cost
        self.cost += cost
        while self.cost > self.total_budget and len(self.parts) > 1:
            self._drop_oldest()

    def add_lines(self, lines: dict[int, str]) -> None:
        """Keep these lines, in order, as :meth:`add` would one by one (at one cost for most hands).

        ``lines`` is handed over: it may be kept as it is, so the caller must not change it after."""
        if not lines:
            return
        if not self.parts:
            self.parts.append(_Part(next(iter(lines))))
        part = self.parts[-1]
        cost = sum(map(len, lines.values())) + LINE_COST * len(lines)
        if part.cost + cost > self.hand_budget:  # some are not kept: see which, one by one
            for lineno, text in lines.items():
                self.add(lineno, text)
            return
        if part.lines:
            part.lines.update(lines)
        else:
            part.lines = lines  # nearly every hand's lines come whole: taken as they are, not copied
        part.cost += cost
        self.cost += cost
        while self.cost > self.total_budget and len(self.parts) > 1:
            self._drop_oldest()

    def hand(self, lineno: int) -> None:
        """A hand starts at line ``lineno``: its lines (this one included) are kept apart."""
        self.parts.append(_Part(lineno))

    def get(self, lineno: int) -> str:
        """The text of line ``lineno``, or "" when it is not kept."""
        # Oldest first: diagnostics are asked for the oldest hand not yet released. A line is
        # kept in one part at most (lines come in order, each into the newest part).
        for part in self.parts:
            text = part.lines.get(lineno)
            if text is not None:
                return text
        return ""

    def release(self, hand_line: int) -> None:
        """The hand starting at ``hand_line`` is judged: forget its lines and all before."""
        while self.parts and self.parts[0].start <= hand_line:
            self._drop_oldest()

    def _drop_oldest(self) -> None:
        self.cost -= self.parts.popleft().cost
