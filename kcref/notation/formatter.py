"""``kcref fmt``: the canonical form of a log, streamed: printed, compared, or rewritten in place.

A log is read once, line by line, and its canonical lines are written as they come, so memory
stays flat however large the log. Nothing is printed or rewritten until the whole file has been
read without a syntax error: printed text goes through a spool file first, and a rewrite goes
to a temp file beside the log that replaces it only at the end, and only if the text changed.
``--check`` compares the canonical text with the file as both stream by (standard input, which
cannot be read twice, is copied aside as it is read).

A rewrite keeps what kcref does not own: a symbolic link is written through (its target is
formatted, the link stays), the file's mode (and owner, where allowed) is kept, and a read-only
file is refused, as an editor would. The temp file and what becomes of it on a signal or a
failure are :class:`kcref.files.atomic.AtomicFile`'s.
"""

from __future__ import annotations

import collections
import enum
import io
import os
import stat
from collections.abc import Callable, Iterable, Iterator
from typing import BinaryIO

from ..files.atomic import AtomicFile, CannotWrite, is_read_only
from ..files.discover import file_kind
from ..files.inputs import STDIN, display_name, open_input
from ..model.chunks import joined
from ..model.codes import UNREADABLE
from ..model.diagnostics import Diagnostic, printable
from ..model.events import Event
from .reader import Item, read_stream
from .textlines import regular_size
from .writer import DEFAULT_SPELLING, Spelling, write_lines

Emit = Callable[[Diagnostic], None]
CHUNK = 1 << 16
"""Canonical text is handed on in pieces of about this many characters."""


class Mode(enum.Enum):
    """What ``kcref fmt`` does with the canonical text."""

    PRINT = "print"
    CHECK = "check"
    WRITE = "write"
    DIFF = "diff"


class Outcome(enum.Enum):
    """What came of formatting one file."""

    PRINTED = "printed"
    """The canonical text was printed."""
    CANONICAL = "canonical"
    """The file is already in canonical form (CHECK, WRITE: nothing written)."""
    CHANGED = "changed"
    """The file is not in canonical form: CHECK and DIFF would reformat it, WRITE did."""
    ERRORS = "errors"
    """The file has syntax errors: left alone, its errors given to ``on_error``."""
    UNREADABLE = "unreadable"
    """The file could not be read as text (KC001-KC003): left alone."""


class _Run:
    """One file's reading: the canonical text in chunks, and the errors met on the way."""

    def __init__(self, on_error: Emit) -> None:
        self.on_error = on_error
        self.errors = 0
        self.unreadable = False

    @property
    def outcome(self) -> Outcome | None:
        """UNREADABLE or ERRORS once an error was read, else None."""
        if self.unreadable:
            return Outcome.UNREADABLE
        return Outcome.ERRORS if self.errors else None

    def _events(self, items: Iterable[Item]) -> Iterator[Event]:
        for item in items:
            if isinstance(item, Diagnostic):
                if item.is_error:
                    self.errors += 1
                    self.unreadable = self.unreadable or item.code in UNREADABLE
                    self.on_error(item)
            else:
                yield item

    def chunks(self, items: Iterable[Item], spelling: Spelling) -> Iterator[bytes]:
        """The canonical text as UTF-8 chunks; none after the first error (the rest is only read,
        for its errors)."""
        events = self._events(items)
        for chunk in joined(write_lines(events, spelling), CHUNK):
            if self.errors:
                break
            yield chunk.encode("utf-8")
        if self.errors:
            collections.deque(events, maxlen=0)  # read on, for the errors


class _Compare:
    """Compares the bytes written to it with a file's, reading the file along."""

    def __init__(self, original: BinaryIO) -> None:
        self.original = original
        self.same = True

    def write(self, data: bytes) -> None:
        if self.same and self.original.read(len(data)) != data:
            self.same = False

    def finish(self) -> bool:
        """True when everything written equals the whole file."""
        return self.same and not self.original.read(1)


class _Tee(io.RawIOBase):
    """Reads ``source`` and copies every byte read to ``copy``: standard input, kept for a comparison."""

    def __init__(self, source: BinaryIO, copy: BinaryIO) -> None:
        super().__init__()
        self.source = source
        self.copy = copy

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: bytearray | memoryview) -> int:  # type: ignore[override]
        read = getattr(self.source, "read1", self.source.read)
        data = read(len(buffer))
        n = len(data)
        memoryview(buffer).cast("B")[:n] = data
        self.copy.write(data)
        return n


def _same_content(a: BinaryIO, b: BinaryIO) -> bool:
    a.seek(0)
    b.seek(0)
    while True:
        x, y = a.read(CHUNK), b.read(CHUNK)
        if x != y:
            return False
        if not x:
            return True


def format_file(path: str, mode: Mode = Mode.PRINT, spelling: Spelling = DEFAULT_SPELLING, *, on_error: Emit,
                out: BinaryIO | None = None, stdin: BinaryIO | None = None, name: str | None = None) -> Outcome:
    """Format the log at ``path`` (``-`` reads ``stdin``, by default standard input).

    PRINT writes the canonical text to ``out`` once the whole file has been read without an
    error; CHECK only says whether the file is canonical; DIFF writes to ``out`` a unified diff
    from the file to its canonical form (nothing when it is canonical); WRITE rewrites the file
    in place when it is not (see :func:`rewrite`). Errors go to ``on_error`` as they are read; a
    file with errors is never printed, diffed or rewritten. ``name`` is what messages call the
    file (by default its path, or ``<stdin>``).
    """
    if mode is Mode.WRITE:
        return rewrite(path, spelling, on_error=on_error)
    opened = open_input(path, stdin)
    if isinstance(opened, Diagnostic):
        on_error(opened)
        return Outcome.UNREADABLE
    name = name or display_name(path)
    try:
        if mode is Mode.PRINT:
            return _print(opened, name, spelling, on_error, out)
        if mode is Mode.DIFF:
            return _diff(opened, name, spelling, on_error, out)
        return _check(opened, path, name, spelling, on_error)
    finally:
        if path != STDIN:
            opened.close()


def _print(stream: BinaryIO, name: str, spelling: Spelling, on_error: Emit, out: BinaryIO | None) -> Outcome:
    import shutil
    import tempfile

    run = _Run(on_error)
    with tempfile.TemporaryFile() as spool:
        for chunk in run.chunks(read_stream(stream, name, trivia=True), spelling):
            spool.write(chunk)
        if run.outcome is not None:
            return run.outcome
        if out is not None:
            spool.seek(0)
            shutil.copyfileobj(spool, out, CHUNK)
            out.flush()
    return Outcome.PRINTED


def _check(stream: BinaryIO, path: str, name: str, spelling: Spelling, on_error: Emit) -> Outcome:
    run = _Run(on_error)
    if path != STDIN and regular_size(stream) is not None:
        with open(path, "rb") as original:
            compare = _Compare(original)
            for chunk in run.chunks(read_stream(stream, name, trivia=True), spelling):
                compare.write(chunk)
            same = compare.finish()
    else:
        import tempfile

        # Standard input or a FIFO can be read only once: keep a copy of it to compare with.
        with tempfile.TemporaryFile() as copy, tempfile.TemporaryFile() as spool:
            tee = io.BufferedReader(_Tee(stream, copy))
            for chunk in run.chunks(read_stream(tee, name, trivia=True), spelling):
                spool.write(chunk)
            same = run.outcome is None and _same_content(copy, spool)
    if run.outcome is not None:
        return run.outcome
    return Outcome.CANONICAL if same else Outcome.CHANGED


def _diff(stream: BinaryIO, name: str, spelling: Spelling, on_error: Emit, out: BinaryIO | None) -> Outcome:
    """DIFF: a unified diff needs both texts whole, so this mode (alone) holds the file in memory."""
    import difflib

    run = _Run(on_error)
    original = stream.read()
    canonical = b"".join(run.chunks(read_stream(io.BytesIO(original), name, trivia=True), spelling))
    if run.outcome is not None:
        return run.outcome
    if canonical == original:
        return Outcome.CANONICAL
    # The file has been read without error, so it is UTF-8; only its name is made printable
    # (the lines are the patch itself, as printed text is the log itself).
    label = printable(name)
    lines = difflib.unified_diff(diff_lines(original.decode("utf-8")), diff_lines(canonical.decode("utf-8")),
                                 label, label)
    if out is not None:
        for line in lines:
            if not line.endswith("\n"):
                line += "\n\\ No newline at end of file\n"
            out.write(line.encode("utf-8"))
        out.flush()
    return Outcome.CHANGED


def diff_lines(text: str) -> list[str]:
    """``text`` cut after each line feed only (``str.splitlines`` would also cut at a form feed,
    a vertical tab or a line separator, which a log line may hold)."""
    parts = text.split("\n")
    lines = [part + "\n" for part in parts[:-1]]
    if parts[-1]:
        lines.append(parts[-1])
    return lines


def rewrite(path: str, spelling: Spelling = DEFAULT_SPELLING, *, on_error: Emit) -> Outcome:
    """Rewrite the log at ``path`` in canonical form, atomically, if it is not canonical already.

    A symbolic link is written through: its target is rewritten and the link stays. Raises
    ``CannotWrite`` (the file unchanged) for a file that is not regular, a read-only file that
    needs changing, or a failed write.
    """
    if path == STDIN:
        raise CannotWrite("standard input cannot be rewritten")
    target = os.path.realpath(path)
    try:
        st: os.stat_result | None = os.stat(target)
    except OSError:
        st = None  # opening it says why, in the words every command uses
    if st is not None and not stat.S_ISREG(st.st_mode):
        raise CannotWrite(f"it is {file_kind(st.st_mode)}, not a regular file")
    opened = open_input(path)
    if isinstance(opened, Diagnostic):
        on_error(opened)
        return Outcome.UNREADABLE
    read_only = st is not None and is_read_only(target, st)
    run = _Run(on_error)
    with opened, open(target, "rb") as original:
        compare = _Compare(original)
        chunks = run.chunks(read_stream(opened, path, trivia=True), spelling)
        if read_only:
            for chunk in chunks:
                compare.write(chunk)
            if run.outcome is not None:
                return run.outcome
            if compare.finish():
                return Outcome.CANONICAL
            assert st is not None
            raise CannotWrite(f"it is read-only (mode {stat.filemode(st.st_mode)})")
        with AtomicFile(target) as temp:
            for chunk in chunks:
                compare.write(chunk)
                temp.write(chunk)
            if run.outcome is not None:
                return run.outcome
            if compare.finish():
                return Outcome.CANONICAL
            temp.commit()
    return Outcome.CHANGED
