"""Bytes in, lines of text out: a log stream read once, in bounded memory, whatever it holds.

The stream is read forward only, in chunks, never whole and never twice, so a pipe or a FIFO
works like a file. A line ends at LF, CRLF or a CR alone (old Mac files), as editors show it. A
line longer than :data:`LINE_LIMIT` is never held whole: it is skipped with one KC005. Input
that is not a log (binary, UTF-16, not UTF-8) stops the reading with one diagnostic, and so
does a read error, or a file that shrinks while it is read (KC006): a partial reading is never
silent.
"""

from __future__ import annotations

import io
import os
import re
import stat
from typing import BinaryIO, Iterator, Union

from .clip import clip
from .diagnostics import Diagnostic, diagnostic

LINE_LIMIT = 64 * 1024
"""The longest line read, in characters (without its line end)."""
SNIFF = 8192
"""Bytes looked at before reading lines: binary and UTF-16 files fail fast."""
_CHUNK = 64 * 1024

Line = Union[str, Diagnostic]
"""A line of text (without its line end), or a diagnostic about the input."""

_NOT_UTF8 = re.compile("[\udc80-\udcff]")  # bytes that are not UTF-8 come out of surrogateescape as these
_BREAK = re.compile(rb"\r\n?|\n")


class Stop(Exception):
    """Reading cannot go on: the diagnostic says why."""

    def __init__(self, diag: Diagnostic) -> None:
        super().__init__(diag.message)
        self.diagnostic = diag


class _Source(io.RawIOBase):
    """The sniffed head, then the rest of the stream; counts the bytes read; never closes it."""

    def __init__(self, head: bytes, stream: BinaryIO) -> None:
        super().__init__()
        self.head = head
        self.stream = stream
        self.count = len(head)
        self.read_some = getattr(stream, "read1", stream.read)

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: bytearray | memoryview) -> int:  # type: ignore[override]
        if self.head:
            n = min(len(buffer), len(self.head))
            buffer[:n] = self.head[:n]
            self.head = self.head[n:]
            return n
        data = self.read_some(len(buffer))
        n = len(data)
        buffer[:n] = data
        self.count += n
        return n


def _regular_size(stream: BinaryIO) -> int | None:
    """The size of the regular file behind ``stream``, or None for a pipe, a terminal, memory..."""
    try:
        info = os.fstat(stream.fileno())
    except (OSError, ValueError, AttributeError):
        return None
    return info.st_size if stat.S_ISREG(info.st_mode) else None


def _left_to_read(stream: BinaryIO) -> int | None:
    """How many bytes a regular file behind ``stream`` holds from where reading starts."""
    size = _regular_size(stream)
    if size is None:
        return None
    try:
        return size - stream.tell()
    except (OSError, ValueError, AttributeError):
        return size


def _wide_encoding(head: bytes) -> str | None:
    """The name of the UTF-16 or UTF-32 encoding ``head`` is written in, if it looks like one."""
    if head.startswith((b"\xff\xfe\x00\x00", b"\x00\x00\xfe\xff")):
        return "UTF-32"
    if head.startswith(b"\xff\xfe"):
        return "UTF-16 (little-endian)"
    if head.startswith(b"\xfe\xff"):
        return "UTF-16 (big-endian)"
    pairs = len(head) // 2
    if pairs < 2:
        return None
    # Mostly ASCII text in UTF-16 has a NUL every other byte, and almost never elsewhere.
    even, odd = head[0: pairs * 2: 2].count(0), head[1: pairs * 2: 2].count(0)
    if odd * 2 >= pairs and even * 20 <= pairs:
        return "UTF-16 (little-endian)"
    if even * 2 >= pairs and odd * 20 <= pairs:
        return "UTF-16 (big-endian)"
    return None


def _position(data: bytes) -> tuple[int, int]:
    """The 1-based line and column just after ``data``, the start of a file."""
    lines = _BREAK.split(data)
    return len(lines), len(lines[-1].decode("utf-8", "replace")) + 1


def _sniff(head: bytes, path: str) -> None:
    """Stop at once on a file that is UTF-16 (or UTF-32) or binary."""
    wide = _wide_encoding(head)
    if wide is not None:
        raise Stop(diagnostic(path, 1, 1, "KC002", f"this file is {wide} text, not UTF-8: save the log as UTF-8"))
    at = head.find(b"\0")
    if at >= 0:
        line, col = _position(head[:at])
        raise Stop(diagnostic(path, line, col, "KC003", "this is a binary file, not a log (NUL byte)"))


def _checked(line: str, path: str, lineno: int) -> None:
    """Stop on a line holding a NUL or a byte that is not UTF-8."""
    if "\0" in line:
        raise Stop(diagnostic(path, lineno, line.index("\0") + 1, "KC003",
                              "this is a binary file, not a log (NUL byte)"))
    if not line.isascii():
        bad = _NOT_UTF8.search(line)
        if bad is not None:
            byte = ord(bad.group()) - 0xDC00
            raise Stop(diagnostic(path, lineno, bad.start() + 1, "KC002",
                                  f"this file is not UTF-8 text (byte 0x{byte:02x}); save the log as UTF-8"))


def text_lines(stream: BinaryIO, path: str) -> Iterator[Line]:
    """The lines of ``stream`` decoded as UTF-8, line ends removed, each checked.

    A too long line comes as a KC005 diagnostic in its place; anything that stops the reading
    comes as a last diagnostic (KC002, KC003, KC006).
    """
    lineno = 0
    try:
        expected = _left_to_read(stream)
        try:
            head = stream.read(SNIFF)
        except IsADirectoryError:
            raise Stop(diagnostic(path, 0, 0, "KC001", "cannot read: it is a directory")) from None
        except OSError as exc:
            raise Stop(diagnostic(path, 0, 0, "KC001", f"cannot read: {exc.strerror or exc}")) from None
        _sniff(head, path)
        source = _Source(head, stream)
        text = io.TextIOWrapper(io.BufferedReader(source, _CHUNK), encoding="utf-8", errors="surrogateescape",
                                newline=None)
        text._CHUNK_SIZE = _CHUNK  # type: ignore[attr-defined]
        readline = text.readline
        while True:
            try:
                line = readline(LINE_LIMIT + 1)
                if not line:
                    break
                lineno += 1
                if line[-1] == "\n":
                    line = line[:-1]
                elif len(line) > LINE_LIMIT:
                    yield _skip_long(line, readline, path, lineno)
                    continue
            except OSError as exc:
                raise Stop(diagnostic(path, lineno + 1, 1, "KC006",
                                      f"reading stopped here: {exc.strerror or exc}; the rest of the file is "
                                      f"not checked")) from None
            _checked(line, path, lineno)
            yield line
        if expected is not None and source.count < expected:
            # The file shrank (or was truncated and rewritten) under us: only part of it was read.
            raise Stop(diagnostic(path, max(lineno, 1), 1, "KC006",
                                  f"the file changed while it was read: {expected} bytes were expected, "
                                  f"{source.count} were read; the rest is not checked"))
    except Stop as stop:
        yield stop.diagnostic


def _skip_long(start: str, readline: object, path: str, lineno: int) -> Diagnostic:
    """Read past the rest of a too long line (in bounded pieces) and say it was skipped."""
    _checked(start, path, lineno)
    length = len(start)
    while True:
        more = readline(_CHUNK)  # type: ignore[operator]
        if not more:
            break
        if more[-1] == "\n":
            length += len(more) - 1
            break
        length += len(more)
    return diagnostic(path, lineno, 1, "KC005",
                      f"this line is {length} characters long, longer than the {LINE_LIMIT} a line may hold: "
                      f"it is skipped", clip(start))
