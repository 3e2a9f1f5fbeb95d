"""Any input is read once, as a bounded stream: FIFOs, standard input, /dev/zero, endless lines,
files that shrink or fail while read, CR line ends, UTF-16, and a flood of tags."""

from __future__ import annotations

import errno
import io
import os
import subprocess
import sys
import threading
import tracemalloc
from pathlib import Path

import pytest

from kcref.model.codes import Severity
from kcref.model.diagnostics import Diagnostic
from kcref.model.events import Turn
from kcref.notation.reader import read_stream
from kcref.notation.sourcelines import SourceLines
from kcref.notation.textlines import LINE_LIMIT
from kcref.referee.pipeline import MAX_TAG_NAMES, check_file, check_text
from tests.util import ROOT

LOG = ('[Players "Ann, Bob"]\nhand 1\ndeal Ann: 3H 7C QS 2D 9H 4S 5C\nlayout N:5D E:JS S:KH W:2C\n'
       "Ann: 9H->N; draw\n")
"""9H on 5D is red on red (KC301), an error found by the referee, not the reader."""


def codes(items: list[object]) -> list[str]:
    return [i.code for i in items if isinstance(i, Diagnostic)]


class Chunked(io.RawIOBase):
    """A non-seekable byte stream made of ``total`` bytes from ``fill``, refusing unbounded reads;
    with ``fail_after`` it raises EIO once that many bytes are read."""

    def __init__(self, data: bytes, total: int | None = None, fail_after: int | None = None) -> None:
        self.data, self.total = data, total if total is not None else len(data)
        self.at, self.fail_after, self.biggest = 0, fail_after, 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: bytearray | memoryview) -> int:  # type: ignore[override]
        self.biggest = max(self.biggest, len(buffer))
        if self.fail_after is not None and self.at >= self.fail_after:
            raise OSError(errno.EIO, "Input/output error")
        n = min(len(buffer), self.total - self.at)
        if self.fail_after is not None:
            n = min(n, self.fail_after - self.at)
        for i in range(n):
            buffer[i] = self.data[(self.at + i) % len(self.data)]
        self.at += n
        return n

    def read(self, size: int = -1) -> bytes:
        assert size is not None and size >= 0, "an unbounded read"
        return super().read(size)


def _fast_chunked(data: bytes, total: int) -> io.BufferedReader:
    """A large stream of ``data`` repeated, read in bounded pieces (bytes copied in blocks)."""

    class Repeat(Chunked):
        def readinto(self, buffer: bytearray | memoryview) -> int:  # type: ignore[override]
            n = min(len(buffer), self.total - self.at)
            block = (self.data * (n // len(self.data) + 2))[self.at % len(self.data):][:n]
            buffer[:n] = block
            self.at += n
            return n

    return io.BufferedReader(Repeat(data, total))


# --- read once, never reopen --------------------------------------------------------------------


def test_a_fifo_is_read_once_and_its_source_lines_are_shown(tmp_path: Path) -> None:
    fifo = tmp_path / "game.log"
    os.mkfifo(fifo)

    def write() -> None:
        with open(fifo, "w", encoding="utf-8") as f:
            f.write(LOG)

    writer = threading.Thread(target=write, daemon=True)
    writer.start()
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    result = subprocess.run([sys.executable, "-m", "kcref", "check", str(fifo)], capture_output=True, text=True,
                            timeout=60, env=env)
    writer.join(5)
    assert result.returncode == 1, result.stderr
    assert "KC301" in result.stdout and "Ann: 9H->N; draw" in result.stdout  # the caret display


def test_standard_input_is_streamed_with_its_source_lines() -> None:
    hand = "hand\nlayout N:5D E:JS S:KH W:2C\nAnn: 9H->N; draw\n"
    data = (LOG + hand * 3_000).encode()
    raw = Chunked(data)
    seen: list[tuple[Diagnostic, int]] = []
    check_file("-", stdin=io.BufferedReader(raw, 4096), keep_hands=False, emit=lambda d: seen.append((d, raw.at)))
    first, read_by_then = seen[0]
    assert first.code == "KC301" and first.source == "Ann: 9H->N; draw" and (first.line, first.column) == (5, 6)
    assert read_by_then < len(data) // 4  # judged while reading, not after reading it all
    assert all(d.source for d, _ in seen if d.code == "KC301")
    assert raw.biggest <= 1 << 16


def test_the_source_lines_of_judged_hands_are_released() -> None:
    hand = "hand\nlayout N:5D E:JS S:KH W:2C\nAnn: 9H->N; draw\n"
    sources = SourceLines()
    report = check_text('[Players "Ann, Bob"]\n' + hand * 50)
    assert all(d.source for d in report.diagnostics if d.line > 0)
    from kcref.notation.reader import read_text
    from kcref.referee.pipeline import check_items

    check_items(read_text('[Players "Ann, Bob"]\n' + hand * 50, keep=sources), "<t>", sources=sources)
    assert sum(len(p.lines) for p in sources.parts) <= 2 * 3


def test_source_lines_stay_within_their_budget() -> None:
    sources = SourceLines(hand_budget=1000, total_budget=3000)
    sources.add(1, "x" * 500)
    sources.add(2, "y" * 500)  # over the hand's budget: not kept
    assert (sources.get(1), sources.get(2)) == ("x" * 500, "")
    for start in range(10, 100, 10):
        sources.hand(start)
        sources.add(start, "z" * 800)
    assert sources.cost <= 3000 and sources.get(10) == "" and sources.get(90) == "z" * 800
    sources.release(90)
    assert sources.get(90) == "" and not sources.parts


# --- bounded memory --------------------------------------------------------------------------------


def test_dev_zero_stops_at_once() -> None:
    if not os.path.exists("/dev/zero"):
        pytest.skip("no /dev/zero")
    assert [(d.code, d.line, d.column) for d in check_file("/dev/zero").diagnostics] == [("KC003", 1, 1)]
    with open("/dev/zero", "rb") as zero:
        assert [d.code for d in check_file("-", stdin=zero).diagnostics] == ["KC003"]


def test_an_endless_line_is_skipped_in_bounded_memory() -> None:
    total = 20_000_000
    stream = _fast_chunked(b"Ann: draw; ", total)
    tracemalloc.start()
    try:
        items = list(read_stream(stream, "big.log"))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert codes(items) == ["KC005"]
    (d,) = items
    assert (d.line, d.column) == (1, 1) and str(total) in d.message and len(d.source) <= 80
    assert peak < 4_000_000, peak


def test_a_long_line_is_skipped_and_reading_goes_on(tmp_path: Path) -> None:
    f = tmp_path / "long.log"
    f.write_bytes(b"hand 1\n" + b"x" * (LINE_LIMIT + 1) + b"\r\nAnn: 4S->N\n" + b"y" * LINE_LIMIT + b"\n")
    items = list(read_stream(open(f, "rb"), str(f)))  # noqa: SIM115
    assert [type(i).__name__ if not isinstance(i, Diagnostic) else i.code for i in items] == [
        "HandStart", "KC005", "Turn", "KC101"]
    assert items[1].line == 2 and items[2].span.line == 3 and items[3].line == 4
    assert f"{LINE_LIMIT + 1} characters" in items[1].message
    assert len(items[3].message) < 300  # the quoted word is clipped


# --- files that fail or change while read ----------------------------------------------------------


def test_a_read_error_midway_is_reported_at_the_line_reached() -> None:
    data = LOG.encode() * 2000
    stream = io.BufferedReader(Chunked(data, fail_after=200_000), 4096)
    items = list(read_stream(stream, "bad.log"))
    last = items[-1]
    assert isinstance(last, Diagnostic) and last.code == "KC006" and last.severity is Severity.ERROR
    assert "Input/output error" in last.message
    read_lines = data[:200_000].count(b"\n")
    assert read_lines - 20 <= last.line <= read_lines + 1


def test_a_file_that_shrinks_while_read_is_reported(tmp_path: Path) -> None:
    f = tmp_path / "shrinking.log"
    f.write_bytes(LOG.encode() * 20_000)
    with open(f, "rb") as stream:
        items = read_stream(stream, str(f))
        head = [next(items) for _ in range(10)]
        os.truncate(f, 500)
        rest = list(items)
    assert not codes(head)
    assert codes(rest)[-1] == "KC006" and "changed while it was read" in rest[-1].message
    report = check_file(str(f))  # once it stays put, all is well again
    assert "KC006" not in [d.code for d in report.diagnostics]


# --- line ends and encodings ----------------------------------------------------------------------


def test_a_file_with_cr_line_ends_reads_line_by_line(tmp_path: Path) -> None:
    f = tmp_path / "mac.log"
    f.write_bytes(LOG.replace("\n", "\r").encode())
    report = check_file(str(f))
    assert [(d.code, d.line, d.column, d.source) for d in report.diagnostics] == [
        ("KC301", 5, 6, "Ann: 9H->N; draw")]
    turn = next(e for e in read_stream(open(f, "rb"), str(f)) if isinstance(e, Turn))  # noqa: SIM115
    assert turn.span.line == 5 and turn.cols == (6, 13)
    # CR, LF and CRLF read the same
    lf = tmp_path / "unix.log"
    lf.write_bytes(LOG.encode())
    crlf = tmp_path / "dos.log"
    crlf.write_bytes(LOG.replace("\n", "\r\n").encode())
    assert [(d.code, d.line, d.column) for d in check_file(str(lf)).diagnostics] == [
        (d.code, d.line, d.column) for d in check_file(str(crlf)).diagnostics] == [("KC301", 5, 6)]


@pytest.mark.parametrize("encoding, name", [
    ("utf-16", "UTF-16 (little-endian)"),  # with a BOM
    ("utf-16-le", "UTF-16 (little-endian)"),
    ("utf-16-be", "UTF-16 (big-endian)"),
    ("utf-32", "UTF-32"),
])
def test_utf16_is_named(tmp_path: Path, encoding: str, name: str) -> None:
    f = tmp_path / "wide.log"
    f.write_bytes(LOG.encode(encoding))
    (d,) = check_file(str(f)).diagnostics
    assert d.code == "KC002" and d.message == f"this file is {name} text, not UTF-8: save the log as UTF-8"


def test_binary_is_still_binary(tmp_path: Path) -> None:
    f = tmp_path / "x.bin"
    f.write_bytes(b"hand 1\r\nab\x00\x00\x01\x02" * 50)
    assert [(d.code, d.line, d.column) for d in check_file(str(f)).diagnostics] == [("KC003", 2, 3)]


# --- tags ----------------------------------------------------------------------------------------


def test_tags_are_kept_bounded_the_first_of_each_name() -> None:
    text = ('[Event "First"]\n[Date "2026-11-27"]\n[Event "Second"]\n'
            + "".join(f'[X{i} "v"]\n' for i in range(500)) + '[Event "Third"]\n' * 100
            + '[Players "Ann, Bob"]\nhand\nlayout N:5D E:JS S:KH W:2C\nAnn: 4S->N\n')
    report = check_text(text)
    assert len(report.tags) == MAX_TAG_NAMES
    assert [t.name for t in report.tags][:3] == ["Event", "Date", "X0"]
    assert next(t.value for t in report.tags if t.name == "Event") == "First"
    assert next(t.value for t in report.tags if t.name == "Date") == "2026-11-27"


def test_ever_new_option_values_are_checked_in_bounded_memory() -> None:
    """A log whose every hand has a Target of its own is checked in flat memory: the options in
    force are not all remembered (they took some 500 bytes a hand, without bound)."""
    hands = "".join(f'[Target "{i}"]\nhand\nlayout N:5D E:JS S:KH W:2C\nAnn: pass\n' for i in range(20_000))
    text = '[Players "Ann, Bob"]\n' + hands
    tracemalloc.start()
    try:
        report = check_text(text, emit=lambda d: None, keep_hands=False)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert report.hand_count == 20_000
    assert peak < 4_000_000, peak


def test_a_hand_of_endless_lines_is_read_in_bounded_memory() -> None:
    """The text of a hand's lines, kept for the caret display, goes to the keeper in parts when
    the hand goes on and on (as do lines before any hand): the reader does not hold all of it
    until the next hand line, when the keeper keeps no more than its budget. Twice the lines
    take no more memory."""
    def peak(text: str) -> int:
        tracemalloc.start()
        try:
            check_text(text, emit=lambda d: None, keep_hands=False)
            return tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()

    hand = '[Players "Ann, Bob"]\nhand 1\nlayout N:5D E:JS S:KH W:2C\n'
    for line in ("Ann: pass\nBob: pass\n", "# a comment\n# another one\n"):
        once, twice = peak(hand + line * 100_000), peak(hand + line * 200_000)
        assert twice < once + 4_000_000, (once, twice)


@pytest.mark.parametrize(("line", "codes"), [("\udcff", ["KC002", "KC504"]), ("Ann:\x00", ["KC003"])])
def test_a_hand_whose_reading_stopped_before_its_layout_is_not_said_to_have_none(line: str,
                                                                                codes: list[str]) -> None:
    """The reading stops at a line that is not UTF-8 or holds a NUL byte: the hand's layout may
    lie in what was not read, so there is no 'this hand has no layout' (KC215) to say."""
    text = f'[Players "Ann, Bob"]\nhand 1\ndeal Ann: 3H 7C QS 2D 9H 4S 5C\n{line}\nlayout N:5D E:JS S:KH W:2C\n'
    found = [(d.line, d.code) for d in check_text(text, "t.log").diagnostics]
    assert found == [(4, code) for code in codes]


def test_a_read_error_before_the_first_hand_is_not_a_file_without_a_hand() -> None:
    """Reading that stops before any hand (KC006) leaves unread what may hold hands: there is
    no 'the file holds no hand' (KC004) to say."""
    data = ('[Players "Ann, Bob"]\n' + "# comments before the first hand\n" * 300).encode()
    stream = io.BufferedReader(Chunked(data, fail_after=9000), 4096)
    assert [d.code for d in check_file("-", stdin=stream).diagnostics] == ["KC006"]
