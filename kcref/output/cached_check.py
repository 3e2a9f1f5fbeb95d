"""What ``kcref check`` keeps in its verdict cache (:mod:`kcref.files.cache`), and how it is
printed back.

An entry holds what every format prints of a file, whatever the format of the run that wrote
it: every diagnostic in the order the check handed them on (with its source line), each hand's
line, the text of each settlement line (:func:`~kcref.output.check_formats.settled_line`) with
the number of diagnostics handed on before it, the counts and the penalties. Printed back, it
goes to the printer in the same calls, in the same order, as a fresh check's: the output is the
same, byte for byte. The path is not kept: a cached file's diagnostics are named as the file is
named on this run's command line.
"""

from __future__ import annotations

from array import array
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from ..files.cache import Cache
from ..model.codes import BY_CODE, Severity
from ..model.diagnostics import Diagnostic
from ..referee.pipeline import FileReport, Keep, check_file
from .check_formats import Printer, settled_line

if TYPE_CHECKING:
    from ..files.cache import Entry
    from ..files.config import Config
    from ..referee.verdict import HandVerdict

SEVERITIES = (Severity.ERROR, Severity.WARNING, Severity.INFO)
BY_VALUE = {s.value: s for s in Severity}


@lru_cache(maxsize=64)
def fingerprint(config: Config | None) -> str:
    """What in a configuration changes what checking a file finds: the rules and options of
    logs without those tags, and the codes not reported."""
    import json

    if config is None:
        return "null"
    return json.dumps([config.rules, [list(o) for o in config.options], sorted(config.ignored())])


@dataclass
class CachedReport(FileReport):
    """A file's report as kept in the cache: every diagnostic, and the settlement lines."""

    settled: list[tuple[int, int, str]] = field(default_factory=list)
    """Each settlement line: how many diagnostics come before it, its hand's index, its text."""


def record(path: str, config: Config | None, printer: Printer | None = None,
           keep: Keep | None = None, data: bytes | None = None) -> tuple[FileReport, Entry]:
    """Check the file at ``path`` (its bytes ``data``, when read already) and give its report
    and its cache entry; with ``printer``, print as a streamed check does (only the diagnostics
    ``keep`` accepts, when given)."""
    diagnostics: list[Diagnostic] = []
    settled: list[list[Any]] = []
    hands = 0
    show = None if printer is None else printer.diagnostic
    tell = None if printer is None or not printer.wants_hands else printer.hand

    def emit(d: Diagnostic) -> None:
        diagnostics.append(d)
        if show is not None and (keep is None or keep(d)):
            show(d)

    def on_hand(verdict: HandVerdict, line: int) -> None:
        nonlocal hands
        text = settled_line(verdict)
        if text is not None:
            settled.append([len(diagnostics), hands, text])
        hands += 1
        if tell is not None:
            tell(verdict, line)

    report = check_file(path, keep_hands=False, emit=emit, on_hand=on_hand, config=config, data=data)
    entry = {"diagnostics": [[d.line, d.column, d.severity.value, d.code, d.message, d.source] for d in diagnostics],
             "hand_lines": list(report.hand_lines), "settled": settled,
             "counts": [report.counts[s] for s in SEVERITIES], "penalties": report.penalties,
             "unreadable": report.unreadable, "ignored": dict(report.ignored), "suppressed": dict(report.suppressed)}
    return report, entry


def keyed_bytes(path: str, config: Config | None) -> tuple[bytes, str] | None:
    """The bytes of the file at ``path`` and their cache key under ``config``; ``None`` for a
    file that is not to be cached (see :meth:`Cache.read`)."""
    data = Cache.read(path)
    return None if data is None else (data, Cache.key(data, fingerprint(config)))


def fresh_entry(path: str, config: Config | None) -> tuple[str | None, Entry]:
    """:func:`record` without a printer, what a worker process sends back: the entry, and the key
    of the bytes it checked (``None``: not to be cached), read once for both."""
    keyed = keyed_bytes(path, config)
    if keyed is None:
        return None, record(path, config)[1]
    data, key = keyed
    return key, record(path, config, data=data)[1]


def passes(entry: Entry, strict: bool) -> bool:
    """Whether the file of an entry has no error (nor warning, when ``strict``): then ``--quiet``
    shows none of its diagnostics."""
    counts = entry.get("counts")
    return isinstance(counts, list) and len(counts) == len(SEVERITIES) and counts[0] == 0 and (
        not strict or counts[1] == 0)


def decoded(path: str, entry: Entry, shown: bool = True) -> CachedReport | None:
    """The report an entry holds, its diagnostics named ``path`` (without ``shown``, only its
    counts: none of the file's diagnostics is to be shown); ``None`` if the entry is not one this
    version writes."""
    new, severities = tuple.__new__, BY_VALUE
    if not shown:
        entry = {**entry, "diagnostics": [], "settled": []}
    try:
        # Built directly (as the pipeline builds them): an entry may hold a penalty on every turn.
        diagnostics = [new(Diagnostic, (path, line, column, severities[severity], code, message, source))
                       for line, column, severity, code, message, source in entry["diagnostics"]
                       if type(line) is int and type(column) is int and type(code) is str
                       and type(message) is str and type(source) is str]
        if len(diagnostics) != len(entry["diagnostics"]):
            return None
        settled = [(int(pos), int(index), str(text)) for pos, index, text in entry["settled"]]
        counts: Counter[Severity] = Counter({s: int(n) for s, n in zip(SEVERITIES, entry["counts"], strict=True) if n})
        hidden = [Counter({code: int(n) for code, n in entry[why].items() if code in BY_CODE})
                  for why in ("ignored", "suppressed")]
        return CachedReport(path, diagnostics=diagnostics, hand_lines=array("q", entry["hand_lines"]), counts=counts,
                            penalties=int(entry["penalties"]), unreadable=bool(entry["unreadable"]), settled=settled,
                            ignored=hidden[0], suppressed=hidden[1])
    except (KeyError, TypeError, ValueError, OverflowError, AttributeError):
        return None


def replay(printer: Printer, report: CachedReport, keep: Keep | None) -> FileReport:
    """Print a cached report as a streamed check prints the file (between ``start_file`` and
    ``end_file``): the diagnostics ``keep`` accepts, and the settlement lines where they came."""
    settle: Callable[[str, int, str], None] | None = printer.settle if printer.wants_hands else None
    settled, told = report.settled, 0
    path, lines = report.path, report.hand_lines
    for i, d in enumerate(report.diagnostics):
        while told < len(settled) and settled[told][0] <= i:
            if settle is not None:
                settle(path, lines[settled[told][1]], settled[told][2])
            told += 1
        if keep is None or keep(d):
            printer.diagnostic(d)
    if settle is not None:
        for _, index, text in settled[told:]:
            settle(path, lines[index], text)
    return FileReport(path, hand_lines=report.hand_lines, counts=report.counts, penalties=report.penalties,
                      unreadable=report.unreadable, ignored=report.ignored, suppressed=report.suppressed)
