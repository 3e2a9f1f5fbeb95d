"""What ``kcref check`` keeps in its verdict cache (:mod:`kcref.files.cache`), and how it is
printed back.

An entry holds what every format prints of a file, whatever the format of the run that wrote
it: every diagnostic in the order the check handed them on (with its source line), each hand's
line, the text of each settlement line (:func:`~kcref.render.check_formats.settled_line`) with
the number of diagnostics handed on before it. Nothing else: the counts, the penalties and
whether the file could be read are counted from the diagnostics, each checked against the code
table as the entry is read (:func:`decoded`). Printed back, it goes to the printer in the same
calls, in the same order, as a fresh check's: the output is the same, byte for byte. The path
is not kept: a cached file's diagnostics are named as the file is named on this run's command
line.
"""

from __future__ import annotations

from array import array
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from ...files.cache import Cache
from ...model.codes import BY_CODE, UNREADABLE, Severity
from ...model.diagnostics import Diagnostic
from ...referee.pipeline import FileReport, Keep, check_file
from ...render.check_formats import Printer, settled_line

if TYPE_CHECKING:
    from ...files.cache import Entry
    from ...files.config import Config
    from ...referee.verdict import HandVerdict

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
    tell = None if printer is None or not printer.settings.settles_hands else printer.hand

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
             "ignored": dict(report.ignored), "suppressed": dict(report.suppressed)}
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


_SEVERITIES = (Severity.ERROR, Severity.WARNING, Severity.INFO)


def _kinds() -> dict[str, tuple[str, int, bool, bool]]:
    """Each code's severity (as an entry holds it, and its place in :data:`_SEVERITIES`), and
    whether the pipeline counts it as a penalty (KC4xx) and as saying that the file could not be
    read."""
    return {code: (info.severity.value, _SEVERITIES.index(info.severity), code.startswith("KC4"), code in UNREADABLE)
            for code, info in BY_CODE.items()}


_KINDS = _kinds()
_LARGEST = 2 ** 63 - 1
"""The largest line or column an entry may hold (what an ``array("q")`` holds)."""


def decoded(path: str, entry: Entry, quiet: bool = False, strict: bool = False) -> CachedReport | None:
    """The report an entry holds, its diagnostics named ``path``; ``None`` if the entry is not
    one this version writes. The counts, the penalties and whether the file could be read are
    those of its diagnostics, each of which must be a code of the table with the table's
    severity, at a line and column >= 0; each settlement line must name a hand of the entry
    and a place among its diagnostics. With ``quiet``, a file that passes (has no error, nor a
    warning when ``strict``) keeps only its counts: none of its diagnostics is to be shown."""
    rows, lines, settled = entry.get("diagnostics"), entry.get("hand_lines"), entry.get("settled")
    if type(rows) is not list or type(lines) is not list or type(settled) is not list:
        return None
    kinds, largest = _KINDS, _LARGEST
    # Counted in a list: Severity hashes in Python, and an entry may hold a penalty on every turn.
    counts = [0, 0, 0]
    penalties, unreadable = 0, False
    for row in rows:
        if type(row) is not list or len(row) != 6:
            return None
        line, column, severity, code, message, source = row
        kind = kinds.get(code) if type(code) is str else None
        if (kind is None or severity != kind[0] or type(line) is not int or type(column) is not int
                or not 0 <= line <= largest or not 0 <= column <= largest
                or type(message) is not str or type(source) is not str):
            return None
        counts[kind[1]] += 1
        penalties += kind[2]
        unreadable = unreadable or kind[3]
    if not all(type(n) is int and 0 <= n <= largest for n in lines) or not _settled(settled, len(rows), len(lines)):
        return None
    hidden = [_hidden(entry.get(why)) for why in ("ignored", "suppressed")]
    if hidden[0] is None or hidden[1] is None:
        return None
    if quiet and not (counts[0] or (strict and counts[1])):
        rows, settled = [], []
    severities = _SEVERITIES
    diagnostics = [Diagnostic(path, line, column, severities[kinds[code][1]], code, message, source)
                   for line, column, _, code, message, source in rows]
    return CachedReport(path, diagnostics=diagnostics, hand_lines=array("q", lines),
                        counts=Counter({s: n for s, n in zip(severities, counts, strict=True) if n}),
                        penalties=penalties, unreadable=unreadable,
                        settled=[(at, index, text) for at, index, text in settled],
                        ignored=hidden[0], suppressed=hidden[1])


def _hidden(counts: object) -> Counter[str] | None:
    """An entry's count of the diagnostics of each code not reported (ignored by configuration,
    or suppressed): ``None`` unless each is a code of the table with a count > 0."""
    if type(counts) is not dict:
        return None
    if not all(code in BY_CODE and type(n) is int and 0 < n <= _LARGEST for code, n in counts.items()):
        return None
    return Counter(counts)


def _settled(settled: list[Any], diagnostics: int, hands: int) -> bool:
    """Whether each settlement line of an entry is ``[place, hand, text]``: its place among the
    diagnostics and its hand's index in order, in range, and its text a string."""
    place, hand = 0, -1
    for item in settled:
        if type(item) is not list or len(item) != 3:
            return False
        at, index, text = item
        if (type(at) is not int or type(index) is not int or type(text) is not str
                or not place <= at <= diagnostics or not hand < index < hands):
            return False
        place, hand = at, index
    return True


def loaded(cache: Cache, path: str, key: str, quiet: bool = False, strict: bool = False) -> CachedReport | None:
    """The report the cache holds for ``path`` under ``key`` (see :func:`decoded`); ``None`` when
    it holds none, or none that a check of a readable file could have written."""
    entry = cache.load(path, key)
    report = None if entry is None else decoded(path, entry, quiet, strict)
    return None if report is None or report.unreadable else report


def replay(printer: Printer, report: CachedReport, keep: Keep | None) -> FileReport:
    """Print a cached report as a streamed check prints the file (between ``start_file`` and
    ``end_file``): the diagnostics ``keep`` accepts, and the settlement lines where they came."""
    settle: Callable[[str, int, str], None] | None = printer.settle if printer.settings.settles_hands else None
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
