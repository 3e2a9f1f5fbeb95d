"""Bytes in, lines of text out: a log stream read once, in bounded memory, whatever it holds.

The stream is read forward only, in chunks, never whole and never twice, so a pipe or a FIFO
works like a file. A line ends at LF, CRLF or a CR alone (old Mac files), as editors show it. A
line longer than :data:`LINE_LIMIT` is never held whole: it is skipped with one KC005. Input
that is not a log (binary, UTF-16, not UTF-8) stops the reading with one diagnostic, and so
does a read error, or a file that shrinks while it is read (KC006): a partial reading is never
silent.

A log held in a string is read the same way: :func:`text_stream` gives the bytes it stands for,
and they go through the very same reading (so ``check_text`` and ``check_file`` agree on any
text); :func:`read_line` judges one line as this reading would judge it in a file.
"""

from __future__ import annotations

import codecs
import functools
import io
import os
import re
import stat
from collections.abc import Iterator, Sequence
from itertools import chain
from typing import Any, BinaryIO

from ..files.discover import cannot_read
from ..model.clip import clip
from ..model.diagnostics import Diagnostic, diagnostic
from ..model.patterns import lazy_pattern

LINE_LIMIT = 64 * 1024
"""The longest line read, in characters (without its line end)."""
SNIFF = 8192
"""Bytes looked at before reading lines: binary and UTF-16 files fail fast."""
_CHUNK = 64 * 1024

Line = str | Diagnostic
"""A line of text (without its line end), or a diagnostic about the input."""


# Compiled on first use: only input that is not a log (binary, not UTF-8) needs them.
_not_utf8 = lazy_pattern(f"[{chr(0xDC80)}-{chr(0xDCFF)}]")
"""Bytes that are not UTF-8, as they come out of the ``surrogateescape`` error handler (lone
surrogates, spelt with ``chr``: a compiled build takes no such string literal)."""


@functools.cache
def _line_break() -> re.Pattern[bytes]:
    return re.compile(rb"\r\n?|\n")


class Stop(Exception):
    """Reading cannot go on: the diagnostic says why."""

    def __init__(self, diag: Diagnostic) -> None:
        super().__init__(diag.message)
        self.diagnostic = diag


def regular_size(stream: BinaryIO) -> int | None:
    """The size of the regular file behind ``stream``, or None for a pipe, a terminal, memory..."""
    try:
        info = os.fstat(stream.fileno())
    except (OSError, ValueError, AttributeError):
        return None
    return info.st_size if stat.S_ISREG(info.st_mode) else None


def _left_to_read(stream: BinaryIO) -> int | None:
    """How many bytes a regular file behind ``stream`` holds from where reading starts."""
    size = regular_size(stream)
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
    lines = _line_break().split(data)
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


def _problem(line: str, path: str, lineno: int) -> Diagnostic | None:
    """Why reading must stop at this line: a NUL byte, or a byte that is not UTF-8."""
    if "\0" in line:
        return diagnostic(path, lineno, line.index("\0") + 1, "KC003", "this is a binary file, not a log (NUL byte)",
                          _not_utf8().sub("\ufffd", line))
    if not line.isascii():
        not_utf8 = _not_utf8()
        bad = not_utf8.search(line)
        if bad is not None:
            byte = ord(bad.group()) - 0xDC00
            return diagnostic(path, lineno, bad.start() + 1, "KC002",
                              f"this file is not UTF-8 text (byte 0x{byte:02x}); save the log as UTF-8",
                              not_utf8.sub("\ufffd", line))
    return None


def text_lines(stream: BinaryIO, path: str) -> Iterator[Line]:
    """The lines of ``stream`` decoded as UTF-8, line ends removed, each checked.

    A too long line comes as a KC005 diagnostic in its place; anything that stops the reading
    comes as a last diagnostic (KC002, KC003, KC006).
    """
    return chain.from_iterable(text_chunks(stream, path))


def text_chunks(stream: BinaryIO, path: str) -> Iterator[Sequence[Line]]:
    """:func:`text_lines` a chunk of the stream at a time (a bounded list of lines): flattened
    by ``itertools.chain``, they reach the reader without a generator step per line."""
    lines = _Lines(path)
    try:
        expected = _left_to_read(stream)
        try:
            head = stream.read(SNIFF)
        except OSError as exc:
            raise Stop(diagnostic(path, 0, 0, "KC001", cannot_read(exc))) from None
        _sniff(head, path)
        read_some = getattr(stream, "read1", stream.read)  # what is there: a pipe's lines come as written
        # Universal newlines: CRLF and a CR alone become LF, even when split between two chunks.
        decode = io.IncrementalNewlineDecoder(codecs.getincrementaldecoder("utf-8")("surrogateescape"),
                                              translate=True).decode
        count = len(head)
        yield lines.feed(decode(head))
        while not lines.stopped:
            try:
                data = read_some(_CHUNK)
            except OSError as exc:
                raise Stop(diagnostic(path, lines.lineno + 1, 1, "KC006",
                                      f"reading stopped here: {exc.strerror or exc}; the rest of the file is "
                                      f"not checked")) from None
            if not data:
                yield lines.feed(decode(b"", final=True))
                if not lines.stopped:
                    yield lines.end()
                break
            count += len(data)
            yield lines.feed(decode(data))
        if lines.stopped:
            return
        if expected is not None and count < expected:
            # The file shrank (or was truncated and rewritten) under us: only part of it was read.
            raise Stop(diagnostic(path, max(lines.lineno, 1), 1, "KC006",
                                  f"the file changed while it was read: {expected} bytes were expected, "
                                  f"{count} were read; the rest is not checked"))
    except Stop as stop:
        yield [stop.diagnostic]


def encoded(text: str) -> bytes:
    """The bytes ``text`` stands for: UTF-8, a lone surrogate (which UTF-8 cannot hold) as the three
    bytes ``surrogatepass`` gives it, which are not UTF-8 and read back as such (KC002)."""
    return text.encode("utf-8", "surrogatepass")


class _TextBytes(io.RawIOBase):
    """The bytes of a text (:func:`encoded`), made a chunk at a time as they are read: a log
    held in a string is never copied whole."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.text = text
        self.at = 0
        self.pending = memoryview(b"")

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        if not self.pending:
            if self.at >= len(self.text):
                return 0
            piece = self.text[self.at: self.at + _CHUNK]
            self.at += len(piece)
            self.pending = memoryview(encoded(piece))
        size = min(len(buffer), len(self.pending))
        buffer[:size] = self.pending[:size]
        self.pending = self.pending[size:]
        return size


def text_stream(text: str) -> BinaryIO:
    """A binary stream of the bytes ``text`` stands for (see :func:`encoded`), for
    :func:`text_lines`: reading a text is reading those bytes."""
    return io.BufferedReader(_TextBytes(text), _CHUNK)


def read_line(text: str, path: str, lineno: int, before: str = "") -> Line:
    """``text`` as the reading above reads it as line ``lineno`` of ``path``, after ``before``
    (the text of the lines before it: only its start counts, where the file is sniffed): the
    line, or the diagnostic that stops or skips it (KC002, KC003, KC005).

    ``text`` holds no line end (it would be more than one line).
    """
    if len(text) <= LINE_LIMIT and _plain(text):
        return text  # nearly every line: nothing in it can stop or skip it
    data = encoded(text)
    if b"\0" in data:  # the only bytes of UTF-8 text that can make a file's start look binary or UTF-16
        head = encoded(before[:SNIFF])
        if len(head) < SNIFF:
            try:
                _sniff((head + data + b"\n")[:SNIFF], path)
            except Stop as stop:
                return stop.diagnostic
    lines = _Lines(path)
    lines.lineno = lineno - 1
    return lines.feed(data.decode("utf-8", "surrogateescape") + "\n")[0]


def _plain(text: str) -> bool:
    """``text`` is ASCII without a NUL (bytes that are not UTF-8 decode to non-ASCII)."""
    return text.isascii() and "\0" not in text


class _Lines:
    """Cuts decoded chunks into checked lines; a line over the limit is measured, not kept.

    After a line that stops the reading (binary, not UTF-8), ``stopped`` is set and the last
    item handed out is the diagnostic that says why.
    """

    def __init__(self, path: str) -> None:
        self.path = path
        self.lineno = 0
        self.stopped = False
        self.carry = ""  # the start of a line whose end is not read yet (at most LINE_LIMIT)
        self.long: tuple[str, int] | None = None  # a too long line being skipped: its start, its length so far

    def _line(self, out: list[Line], line: str, length: int) -> None:
        """Hand out line ``self.lineno`` (or its KC005, or the diagnostic that stops the reading)."""
        problem = _problem(line, self.path, self.lineno)
        if problem is not None:
            self.stopped = True
            out.append(problem)
        elif length > LINE_LIMIT:
            out.append(diagnostic(self.path, self.lineno, 1, "KC005",
                                  f"this line is {length} characters long, longer than the {LINE_LIMIT} a "
                                  f"line may hold: it is skipped", clip(line)))
        else:
            out.append(line)

    def feed(self, chunk: str) -> Sequence[Line]:
        """The lines that ``chunk`` completes (a chunk is bounded, and so is this list)."""
        out: list[Line] = []
        if self.long is not None:
            end = chunk.find("\n")
            start, length = self.long
            if end < 0:
                self.long = (start, length + len(chunk))
                return out
            self.long = None
            self.lineno += 1
            self._line(out, start, length + end)
            if self.stopped:
                return out
            chunk = chunk[end + 1:]
        parts = chunk.split("\n")
        if self.carry:
            parts[0] = self.carry + parts[0]
        last = parts.pop()
        if (not out and _plain(chunk) and _plain(self.carry) and len(last) <= LINE_LIMIT
                and max(map(len, parts), default=0) <= LINE_LIMIT):
            # Nearly every chunk: no line in it is too long, holds a NUL or a byte that is not
            # UTF-8, so its lines are handed out as they are, without a step per line.
            self.lineno += len(parts)
            self.carry = last
            return parts
        append = out.append
        for line in parts:
            self.lineno += 1
            if len(line) > LINE_LIMIT or "\0" in line or not line.isascii():
                self._line(out, line[:LINE_LIMIT], len(line))
                if self.stopped:
                    return out
            else:
                append(line)
        if len(last) > LINE_LIMIT:
            self.long, self.carry = (last[:LINE_LIMIT], len(last)), ""
        else:
            self.carry = last
        return out

    def end(self) -> list[Line]:
        """The last line, if the stream did not end with a line end."""
        out: list[Line] = []
        if self.long is not None:
            start, length = self.long
            self.long = None
            self.lineno += 1
            self._line(out, start, length)
        elif self.carry:
            self.lineno += 1
            self._line(out, self.carry, len(self.carry))
        return out
