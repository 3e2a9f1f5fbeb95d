"""The checking pipeline: text → events → hands → set-up checks → referee → a report per file.

Checking streams: a file is read line by line and judged hand by hand, and each hand's
diagnostics are handed on (in line order) as soon as the hand is judged, so a log far larger
than memory can be checked when the caller neither keeps the verdicts nor the diagnostics.
"""

from __future__ import annotations

import io
import sys
from collections import Counter, deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field, replace
from typing import BinaryIO

from .assertions import check_assertions
from .codes import Severity
from .diagnostics import Diagnostic
from .events import Tag
from .hands import UNREADABLE, HandRecord
from .reader import read_file, read_stream, read_text
from .referee import referee_hands
from .setup import checked_hands
from .verdict import HandVerdict

Emit = Callable[[Diagnostic], None]
OnHand = Callable[[HandVerdict, int], None]
"""Called with each verdict and its hand's line, once the diagnostics up to that hand are emitted."""


@dataclass
class FileReport:
    """What checking one file found: counts always; diagnostics and verdicts when kept."""

    path: str
    diagnostics: list[Diagnostic] = field(default_factory=list)
    """Every diagnostic in line order (empty when they were handed to a callback instead)."""
    hands: list[HandVerdict] = field(default_factory=list)
    """The verdict on each hand (empty when not kept); its diagnostics include those of the
    hand's assertion lines."""
    tags: list[Tag] = field(default_factory=list)
    hand_lines: list[int] = field(default_factory=list)
    """The line of each hand's ``hand`` line, in order."""
    counts: Counter[Severity] = field(default_factory=Counter)
    penalties: int = 0
    """Penalty notes (KC4xx): chips due."""
    unreadable: bool = False
    """The file could not be read as text (KC001-KC003)."""

    def count(self, severity: Severity) -> int:
        return self.counts[severity]

    @property
    def errors(self) -> int:
        return self.counts[Severity.ERROR]

    @property
    def hand_count(self) -> int:
        return len(self.hand_lines)


class _Sources:
    """The text of source lines for the caret display: from memory, or read forward from a file."""

    def __init__(self, lines: list[str] | None = None, path: str | None = None) -> None:
        self.lines = lines
        self.path = path
        self.file: BinaryIO | None = None
        self.at = 0
        self.last = ""

    def get(self, n: int) -> str:
        if self.lines is not None:
            text = self.lines[n - 1] if 0 < n <= len(self.lines) else ""
        else:
            text = self._read(n)
        text = text.rstrip("\r\n")
        return text[1:] if n == 1 and text.startswith("\ufeff") else text

    def _read(self, n: int) -> str:
        # Diagnostics come in line order, so one forward pass serves them all; a step back reopens.
        if self.file is None or n < self.at:
            self.close()
            if self.path is None:
                return ""
            self.file = open(self.path, "rb")  # noqa: SIM115
            self.at = 0
        while self.at < n:
            raw = self.file.readline()
            if not raw:
                return ""
            self.at += 1
            self.last = raw.decode("utf-8", "replace")
        return self.last

    def close(self) -> None:
        if self.file is not None:
            self.file.close()
            self.file = None


def check_items(items: Iterable[object], path: str, *, keep_hands: bool = True, emit: Emit | None = None,
                sources: _Sources | None = None, on_hand: OnHand | None = None) -> FileReport:
    """Check a stream of events and syntax diagnostics read from ``path``: set-up, then replay.

    Diagnostics go to ``emit`` as each hand is judged (else into ``report.diagnostics``); the
    verdicts are kept in ``report.hands`` only with ``keep_hands``.
    """
    report = FileReport(path)
    judged: deque[HandRecord] = deque()  # the records handed to the referee, one per verdict to come
    pending: list[Diagnostic] = []

    def flush() -> None:
        pending.sort(key=lambda d: (d.line, d.column))
        for d in pending:
            if sources is not None and not d.source and d.line > 0:
                d = d._replace(source=sources.get(d.line))
            report.counts[d.severity] += 1
            if d.code.startswith("KC4"):
                report.penalties += 1
            if d.code in UNREADABLE:
                report.unreadable = True
            if emit is None:
                report.diagnostics.append(d)
            else:
                emit(d)
        pending.clear()

    def records() -> Iterator[HandRecord]:
        for item in checked_hands(items, path):  # type: ignore[arg-type]
            if isinstance(item, Diagnostic):
                pending.append(item)
            elif isinstance(item, Tag):
                report.tags.append(item)
            else:
                judged.append(item)
                yield item

    for verdict in referee_hands(records()):
        record = judged.popleft()
        asserted = check_assertions(record, verdict)
        if asserted:
            verdict = replace(verdict, diagnostics=verdict.diagnostics + tuple(asserted))
        if keep_hands:
            report.hands.append(verdict)
        report.hand_lines.append(record.start.span.line)
        pending.extend(verdict.diagnostics)
        flush()
        if on_hand is not None:
            on_hand(verdict, report.hand_lines[-1])
    flush()
    if sources is not None:
        sources.close()
    return report


def check_text(text: str, path: str = "<string>", *, keep_hands: bool = True, emit: Emit | None = None,
               on_hand: OnHand | None = None) -> FileReport:
    """Check a log held in a string."""
    return check_items(read_text(text, path), path, keep_hands=keep_hands, emit=emit,
                       sources=_Sources(text.split("\n")), on_hand=on_hand)


def check_file(path: str, stdin: BinaryIO | None = None, *, keep_hands: bool = True,
               emit: Emit | None = None, on_hand: OnHand | None = None) -> FileReport:
    """Check the log at ``path`` (``-`` reads ``stdin``, by default the process's standard input).

    With ``emit`` and without ``keep_hands`` memory stays flat however large the file.
    """
    if path == "-":
        data = (stdin or sys.stdin.buffer).read()
        return check_items(read_stream(io.BytesIO(data), "<stdin>"), "<stdin>", keep_hands=keep_hands,
                           emit=emit, sources=_Sources(data.decode("utf-8", "replace").split("\n")), on_hand=on_hand)
    return check_items(read_file(path), path, keep_hands=keep_hands, emit=emit, sources=_Sources(path=path),
                       on_hand=on_hand)


def _check_for_pool(path: str) -> FileReport:
    return check_file(path, keep_hands=False)


def check_paths(paths: Iterable[str], *, jobs: int = 1, keep_hands: bool = True) -> Iterator[FileReport]:
    """Check many files; reports come in the order given, whatever ``jobs`` (worker processes)."""
    paths = list(paths)
    if jobs <= 1 or len(paths) < 2 or "-" in paths:
        for path in paths:
            yield check_file(path, keep_hands=keep_hands)
        return
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        if keep_hands:
            yield from pool.map(check_file, paths)
        else:
            yield from pool.map(_check_for_pool, paths)
