"""Keep quoted text short: every token or source line that a message quotes is clipped.

A log line may be megabytes long; a message quotes at most about :data:`LIMIT` characters of it,
marking each cut with ``…``, so one junk line can never flood a terminal or a CI log.
"""

from typing import NamedTuple

LIMIT = 80
ELLIPSIS = "…"


def clip(text: str, limit: int = LIMIT) -> str:
    """``text`` as it is when it fits in ``limit`` characters, else its start and ``…``."""
    if len(text) <= limit:
        return text
    return text[: max(limit - 1, 0)] + ELLIPSIS


class Window(NamedTuple):
    """A part of a long line around a column: the text to show and the column within it (1-based)."""

    text: str
    column: int


def window(line: str, column: int, width: int = LIMIT) -> Window:
    """The part of ``line`` around 1-based ``column`` that fits in about ``width`` characters.

    A cut at either end is marked with ``…`` and the column is moved to point at the same
    character in the text shown.
    """
    if len(line) <= width:
        return Window(line, column)
    at = max(column - 1, 0)
    start = max(0, min(at - width // 2, len(line) - width))
    end = start + width
    text = line[start:end]
    shift = start
    if start > 0:
        text = ELLIPSIS + text[1:]
    if end < len(line):
        text = text[:-1] + ELLIPSIS
    return Window(text, column - shift)
