"""The checking pipeline: text → events → hands → set-up checks → referee → a report per file."""

from __future__ import annotations

import io
import sys
from collections import deque
from dataclasses import dataclass, field, replace
from typing import BinaryIO, Iterable, Iterator

from .assertions import check_assertions
from .codes import Severity
from .diagnostics import Diagnostic
from .events import Tag
from .hands import UNREADABLE, HandRecord, iter_hands
from .reader import read_file, read_stream, read_text
from .referee import referee_hands
from .setup import check_hand
from .verdict import HandVerdict



@dataclass
class FileReport:
    """What checking one file found: its diagnostics (in file order), hands and tags."""

    path: str
    diagnostics: list[Diagnostic] = field(default_factory=list)
    hands: list[HandVerdict] = field(default_factory=list)
    """The verdict on each hand; its diagnostics include those of the hand's assertion lines."""
    tags: list[Tag] = field(default_factory=list)
    hand_lines: list[int] = field(default_factory=list)
    """The line of each hand's ``hand`` line, in the order of ``hands``."""

    def count(self, severity: Severity) -> int:
        return sum(1 for d in self.diagnostics if d.severity is severity)

    @property
    def errors(self) -> int:
        return self.count(Severity.ERROR)

    @property
    def unreadable(self) -> bool:
        return any(d.code in UNREADABLE for d in self.diagnostics)


def check_items(items: Iterable[object], path: str) -> FileReport:
    """Check a stream of events and syntax diagnostics read from ``path``: set-up, then replay."""
    report = FileReport(path)
    judged: deque[HandRecord] = deque()  # the records handed to the referee, one per verdict to come

    def records() -> Iterator[HandRecord]:
        previous_number: int | None = None
        for item in iter_hands(items, path):  # type: ignore[arg-type]
            if isinstance(item, Diagnostic):
                report.diagnostics.append(item)
            elif isinstance(item, Tag):
                report.tags.append(item)
            else:
                record, diags = check_hand(item, previous_number)
                previous_number = record.number
                report.diagnostics.extend(diags)
                judged.append(record)
                yield record

    for verdict in referee_hands(records()):
        record = judged.popleft()
        asserted = check_assertions(record, verdict)
        if asserted:
            verdict = replace(verdict, diagnostics=verdict.diagnostics + tuple(asserted))
        report.hands.append(verdict)
        report.hand_lines.append(record.start.span.line)
        report.diagnostics.extend(verdict.diagnostics)
    report.diagnostics.sort(key=lambda d: (d.line, d.column))
    return report


def check_text(text: str, path: str = "<string>") -> FileReport:
    """Check a log held in a string."""
    report = check_items(read_text(text, path), path)
    _attach_sources(report, text.split("\n"))
    return report


def check_file(path: str, stdin: BinaryIO | None = None) -> FileReport:
    """Check the log at ``path`` (``-`` reads ``stdin``, by default the process's standard input)."""
    if path == "-":
        data = (stdin or sys.stdin.buffer).read()
        report = check_items(read_stream(io.BytesIO(data), "<stdin>"), "<stdin>")
        _attach_sources(report, data.decode("utf-8", "replace").split("\n"))
        return report
    report = check_items(read_file(path), path)
    if any(not d.source and d.line > 0 for d in report.diagnostics) and not report.unreadable:
        _attach_sources(report, _lines_wanted(path, {d.line for d in report.diagnostics if not d.source}))
    return report


def check_paths(paths: Iterable[str]) -> Iterator[FileReport]:
    """Check many files, in the order given."""
    for path in paths:
        yield check_file(path)


def _lines_wanted(path: str, wanted: set[int]) -> dict[int, str]:
    found: dict[int, str] = {}
    last = max(wanted, default=0)
    with open(path, "rb") as f:
        for lineno, raw in enumerate(f, 1):
            if lineno in wanted:
                found[lineno] = raw.decode("utf-8", "replace")
            if lineno >= last:
                break
    return found


def _attach_sources(report: FileReport, lines: list[str] | dict[int, str]) -> None:
    """Give each diagnostic without one the text of its source line, for the caret display."""
    def line(n: int) -> str:
        if isinstance(lines, dict):
            text = lines.get(n, "")
        else:
            text = lines[n - 1] if 0 < n <= len(lines) else ""
        text = text.rstrip("\r\n")
        return text[1:] if n == 1 and text.startswith("\ufeff") else text

    report.diagnostics = [d if d.source or d.line <= 0 else d._replace(source=line(d.line))
                          for d in report.diagnostics]
