"""A long table drawn by tabulate a few thousand rows at a time, byte for byte as drawn whole.

tabulate needs every row at once: a column's width is its widest cell, and its type (numbers
are aligned right, text left) the most general of its cells. Everything else about a row's line
depends on those only. So a first pass over the rows picks, per column, the cells that decide
them (the widest by every measure tabulate may use, and one cell of each type tabulate sees),
and every chunk of rows is drawn with those cells added as extra rows at its end: each chunk
then has the widths and types of the whole table, and its rows' lines are those of the whole
table. The lines before the first row (top, headers) and after the last (bottom) come from a
drawing of the extra rows alone, and the line or lines between two rows (some formats draw one)
from a drawing with one more row.

What would break that is guarded: a table whose cells tabulate would read as several lines,
with terminal colour codes, or with numbers that are not integers (decimal alignment) is drawn
whole, and so is a table whose first chunk is not laid out as expected.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
from itertools import islice

import tabulate as tabulate_module
from tabulate import tabulate

_tabulate_type: Callable[[object, bool, bool], type] | None = getattr(tabulate_module, "_type", None)
"""The type tabulate gives one cell (with another tabulate, if it is gone, tables are drawn whole)."""


def _width_function() -> Callable[[str], int] | None:
    """wcwidth's width of a text, which tabulate uses when it is installed."""
    try:
        return importlib.import_module("wcwidth").wcswidth  # type: ignore[no-any-return]
    except ImportError:  # pragma: no cover - tabulate then measures with len only
        return None


_wcswidth = _width_function()

CHUNK_ROWS = 2000
"""Rows drawn at a time; a table of no more rows is drawn whole."""

Cell = str | int | None

_UNSAFE = ("\n", "\r", "\x1b")
"""In a cell, these make tabulate draw it on several lines or measure it apart from the text."""


class _Deciders:
    """Per column, the cells that decide its width and type in tabulate, found row by row."""

    def __init__(self, width: int, text_columns: Sequence[int]) -> None:
        self.numparse = [i not in text_columns for i in range(width)]
        self.widest: list[dict[str, tuple[int, Cell]]] = [{} for _ in range(width)]
        self.kinds: list[dict[tuple[type, bool], Cell]] = [{} for _ in range(width)]
        self.safe = _tabulate_type is not None

    def add(self, row: Sequence[Cell]) -> None:
        """Take one row's cells into account."""
        if len(row) != len(self.widest):
            self.safe = False
            return
        for i, value in enumerate(row):
            if (value is not None and not isinstance(value, (str, int))) or isinstance(value, bool):
                self.safe = False
                return
            shown = "" if value is None else str(value)
            if any(c in shown for c in _UNSAFE):
                self.safe = False
                return
            assert _tabulate_type is not None
            kind = _tabulate_type(value, False, self.numparse[i])
            if kind is float or kind is bytes:
                self.safe = False
                return
            # tabulate gives a missing cell and an empty string one type, yet draws a column
            # holding an empty string (rst: as ``..``) unlike one holding only gaps: keep both.
            self.kinds[i].setdefault((kind, value is None), value)
            widest = self.widest[i]
            for measure, size in self._sizes(shown):
                if measure not in widest or size > widest[measure][0]:
                    widest[measure] = (size, value)

    @staticmethod
    def _sizes(shown: str) -> Iterator[tuple[str, int]]:
        stripped = shown.strip()
        yield "len", len(shown)
        yield "len stripped", len(stripped)
        if _wcswidth is not None:
            yield "width", _wcswidth(shown)
            yield "width stripped", _wcswidth(stripped)

    def rows(self) -> list[list[Cell]]:
        """Extra rows holding every deciding cell (at least one row), the first with a cell that
        shows (if any does: see :class:`_Layout`)."""
        columns = [[cell for _, cell in widest.values()] + list(kinds.values())
                   for widest, kinds in zip(self.widest, self.kinds)]
        height = max(1, *(len(c) for c in columns))
        rows = [[c[j] if j < len(c) else None for c in columns] for j in range(height)]
        return sorted(rows, key=lambda row: not any(_shows(c) for c in row))


def _shows(value: Cell) -> bool:
    """The cell cannot be drawn like an empty one (rst draws an empty first cell as ``..``)."""
    return value is not None and str(value).strip() not in ("", "..")


class _Layout:
    """Where the rows' lines are in a drawing of a chunk of rows followed by the extra rows."""

    def __init__(self, draw: _Draw, extra: list[list[Cell]]) -> None:
        alone = draw(extra)
        padded = draw([[None] * len(extra[0]), *extra])
        # An empty row changes no width or type; as the first extra row has a cell that shows,
        # the first line that differs is the empty row's.
        self.top = next((i for i, (a, b) in enumerate(zip(alone, padded)) if a != b), -1)
        self.between = len(padded) - len(alone) - 1
        self.sound = self.top >= 0 and self.between >= 0 and any(_shows(c) for c in extra[0])
        """The layout was found (else the table is to be drawn whole)."""
        """Lines drawn between two rows."""
        extra_lines = len(extra) + (len(extra) - 1) * self.between
        self.head = alone[:self.top]
        self.extra = alone[self.top:self.top + extra_lines]
        self.bottom = alone[self.top + extra_lines:]

    def rows_of(self, lines: list[str], count: int) -> list[str] | None:
        """The lines of ``count`` rows (each followed by the lines between rows) in the drawing
        of a chunk, or None if the drawing is not laid out as expected."""
        body = count * (1 + self.between)
        end = self.top + body
        if (len(lines) != end + len(self.extra) + len(self.bottom) or lines[:self.top] != self.head
                or lines[end:end + len(self.extra)] != self.extra or lines[end + len(self.extra):] != self.bottom):
            return None
        return lines[self.top:end]


class _Draw:
    """tabulate with the options of ``kcref score``, as a list of lines."""

    def __init__(self, headers: Sequence[str], fmt: str, text_columns: Sequence[int]) -> None:
        self.headers = list(headers)
        self.fmt = fmt
        self.text_columns = list(text_columns)

    def whole(self, rows: list[list[Cell]]) -> str:
        return str(tabulate(rows, self.headers, tablefmt=self.fmt, missingval="",
                            disable_numparse=self.text_columns if rows else False))

    def __call__(self, rows: list[list[Cell]]) -> list[str]:
        return self.whole(rows).split("\n")


def _chunks(rows: Iterable[list[Cell]], size: int) -> Iterator[list[list[Cell]]]:
    it = iter(rows)
    while chunk := list(islice(it, size)):
        yield chunk


def table_pieces(rows: Collection[list[Cell]], headers: Sequence[str], fmt: str, text_columns: Sequence[int],
                 chunk_rows: int = CHUNK_ROWS) -> Iterator[str]:
    """``tabulate(rows, headers, tablefmt=fmt, missingval="", disable_numparse=text_columns)``
    in pieces, reading ``rows`` twice (once to measure, once to draw) and holding at most
    ``chunk_rows`` of them; with no more rows than that, or a table it cannot draw in chunks
    exactly, drawn whole."""
    draw = _Draw(headers, fmt, text_columns)
    if len(rows) <= chunk_rows:
        yield draw.whole(list(rows))
        return
    deciders = _Deciders(len(headers), text_columns)
    for row in rows:
        deciders.add(row)
        if not deciders.safe:
            break
    if deciders.safe and any(c in h for h in headers for c in _UNSAFE):
        deciders.safe = False
    layout = _Layout(draw, deciders.rows()) if deciders.safe else None
    if layout is None or not layout.sound:
        yield draw.whole(list(rows))
        return
    extra = deciders.rows()
    chunks = _chunks(rows, chunk_rows)
    pending: list[str] | None = None
    for i, chunk in enumerate(chunks):
        lines = layout.rows_of(draw(chunk + extra), len(chunk))
        if lines is None:
            if i == 0:  # nothing written yet: draw it whole after all
                yield draw.whole(list(rows))
                return
            raise RuntimeError(f"tabulate drew a chunk of the {fmt} table unlike the first")
        if pending is None:
            yield "\n".join(layout.head + [""]) if layout.head else ""
        else:
            yield "\n".join(pending) + "\n"
        pending = lines
    assert pending is not None
    body = pending[:len(pending) - layout.between]
    yield "\n".join(body + layout.bottom)
