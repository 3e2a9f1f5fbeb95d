"""tabulate's ``simple`` table drawn without tabulate, for the tables where that is plain.

``kcref score`` draws its default output in tabulate's ``simple`` format, and importing tabulate
(with wcwidth, email, importlib.metadata...) costs more than scoring a thousand hands. For a
table whose every column is plainly of one kind, the drawing is simple: a column is as wide as
its widest cell or its header plus two, integers and their header are aligned right, text and
its header left, two spaces between columns, a line of dashes under the headers, and no line
ends in spaces.

"Plainly" is strict, so that the text is byte for byte tabulate's (a test draws both): every
cell of a column is an ``int`` (not a bool) or empty (not in a column of text, where tabulate
does not read numbers), or every cell is text or empty (a column of empty cells only is text);
text is printable ASCII with no space at either end (so its width
is its length), and in a column tabulate may read as numbers, no text reads as one. Anything
else is left to tabulate (:func:`draw` returns None).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence

Cell = str | int | None

_ASCII = frozenset(map(chr, range(0x20, 0x7F)))
"""Printable ASCII: one column wide each."""

_WORDS = frozenset(("True", "False"))
"""Text tabulate may read as booleans."""


def _plain_text(text: str, numparse: bool) -> bool:
    """Text whose width is its length, that tabulate neither strips nor reads as something else."""
    if text != text.strip() or not _ASCII.issuperset(text) or text in _WORDS:
        return False
    if numparse:
        try:
            float(text)
        except ValueError:
            return True
        return False
    return True


class _Columns:
    """Per column: whether it holds integers, and how wide it is; ``plain`` while every cell is."""

    def __init__(self, headers: Sequence[str], text_columns: Sequence[int]) -> None:
        self.numparse = [i not in text_columns for i in range(len(headers))]
        self.widths = [len(h) + 2 for h in headers]
        self.kinds: list[type | None] = [None] * len(headers)
        self.plain = all(_plain_text(h, False) for h in headers)

    def add(self, row: Sequence[Cell]) -> None:
        """Take one row into account."""
        if len(row) != len(self.widths):
            self.plain = False
            return
        for i, value in enumerate(row):
            if value is None:
                continue
            kind = type(value)
            if kind is int and self.numparse[i]:
                shown = str(value)
            elif kind is str:
                assert isinstance(value, str)
                if not _plain_text(value, self.numparse[i]):
                    self.plain = False
                    return
                shown = value
            else:
                self.plain = False
                return
            if self.kinds[i] is None:
                self.kinds[i] = kind
            elif self.kinds[i] is not kind:
                self.plain = False
                return
            if len(shown) > self.widths[i]:
                self.widths[i] = len(shown)


def _line(cells: Iterable[str]) -> str:
    return "  ".join(cells).rstrip()


def draw(rows: Iterable[Sequence[Cell]], headers: Sequence[str], text_columns: Sequence[int] = ()) -> (
        Iterator[str] | None):
    """``tabulate(rows, headers, tablefmt="simple", missingval="", disable_numparse=text_columns)``
    line by line (no line ends): reads ``rows`` twice, once to measure and once to draw; or
    None when the table is not plain enough to be drawn here (then draw it with tabulate)."""
    columns = _Columns(headers, text_columns)
    count = 0
    for row in rows:
        columns.add(row)
        count += 1
        if not columns.plain:
            return None
    if not count:
        return None
    right = [kind is int for kind in columns.kinds]
    widths = columns.widths
    return _lines(rows, headers, widths, right)


def _lines(rows: Iterable[Sequence[Cell]], headers: Sequence[str], widths: list[int], right: list[bool]) -> (
        Iterator[str]):
    yield _line(h.rjust(w) if r else h.ljust(w) for h, w, r in zip(headers, widths, right))
    yield _line("-" * w for w in widths)
    for row in rows:
        yield _line(("" if v is None else str(v)).rjust(w) if r else ("" if v is None else str(v)).ljust(w)
                    for v, w, r in zip(row, widths, right))
