"""The verdict cache of ``kcref check`` (:mod:`kcref.files.cache`) as the pipeline's report
store (:class:`~kcref.referee.pipeline.ReportStore`): a file's report kept as an entry, and read back.

An entry holds what every format prints of a file, whatever the format of the run that wrote
it: every diagnostic in the order the check handed them on (with its source line), each hand's
line, the text of each settlement line (:func:`~kcref.render.check_formats.penalty_settlement_line`) with
the number of diagnostics handed on before it. Nothing else: the counts, the penalties and
whether the file could be read are counted from the diagnostics, each checked against the code
table as the entry is read (:func:`decoded`). Read back, it is a report like a fresh check's,
printed by the same calls in the same order: the output is the same, byte for byte. The path
is not kept: a cached file's diagnostics are named as the file is named on this run's command
line.
"""

from __future__ import annotations

from array import array
from collections import Counter
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from ...files.cache import Cache
from ...model.codes import BY_CODE, UNREADABLE, Severity
from ...model.diagnostics import Diagnostic
from ...referee.pipeline import FileReport, Keyed

if TYPE_CHECKING:
    from ...files.cache import Entry
    from ...files.config import Config

@lru_cache(maxsize=64)
def fingerprint(config: Config | None) -> str:
    """What in a configuration changes what checking a file finds: the rules and options of
    logs without those tags, and the codes not reported."""
    import json

    if config is None:
        return "null"
    return json.dumps([config.rules, [list(o) for o in config.options], sorted(config.ignored())])


def entry_of(report: FileReport) -> Entry:
    """The entry that keeps ``report``: a whole report, checked with the settlement lines."""
    return {"diagnostics": [[d.line, d.column, d.severity.value, d.code, d.message, d.source]
                            for d in report.diagnostics],
            "hand_lines": list(report.hand_lines), "settled": [list(s) for s in report.settlements],
            "ignored": dict(report.ignored), "suppressed": dict(report.suppressed)}


def keyed_bytes(path: str, config: Config | None) -> tuple[bytes, str] | None:
    """The bytes of the file at ``path`` and their cache key under ``config``; ``None`` for a
    file that is not to be cached (see :meth:`Cache.read`)."""
    data = Cache.read(path)
    return None if data is None else (data, Cache.key(data, fingerprint(config)))


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


def decoded(path: str, entry: Entry, quiet: bool = False, strict: bool = False) -> FileReport | None:
    """The report an entry holds, its diagnostics named ``path``; ``None`` if the entry is not
    one this version writes. The counts, the penalties and whether the file could be read are
    those of its diagnostics, each of which must be a code of the table with the table's
    severity, at a line and column >= 0; each settlement line must name a hand of the entry
    and a place among its diagnostics. With ``quiet``, a file that passes (has no error, nor a
    warning when ``strict``) keeps only its counts: none of its diagnostics is to be shown."""
    rows, lines, settlements = entry.get("diagnostics"), entry.get("hand_lines"), entry.get("settled")
    if type(rows) is not list or type(lines) is not list or type(settlements) is not list:
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
    if (not all(type(n) is int and 0 <= n <= largest for n in lines)
            or not _settlements_valid(settlements, len(rows), len(lines))):
        return None
    hidden = [_hidden(entry.get(why)) for why in ("ignored", "suppressed")]
    if hidden[0] is None or hidden[1] is None:
        return None
    if quiet and not (counts[0] or (strict and counts[1])):
        rows, settlements = [], []
    severities = _SEVERITIES
    diagnostics = [Diagnostic(path, line, column, severities[kinds[code][1]], code, message, source)
                   for line, column, _, code, message, source in rows]
    return FileReport(path, diagnostics=diagnostics, hand_lines=array("q", lines),
                      counts=Counter({s: n for s, n in zip(severities, counts, strict=True) if n}),
                      penalties=penalties, unreadable=unreadable,
                      settlements=[(at, index, text) for at, index, text in settlements],
                      ignored=hidden[0], suppressed=hidden[1])


def _hidden(counts: object) -> Counter[str] | None:
    """An entry's count of the diagnostics of each code not reported (ignored by configuration,
    or suppressed): ``None`` unless each is a code of the table with a count > 0."""
    if type(counts) is not dict:
        return None
    if not all(code in BY_CODE and type(n) is int and 0 < n <= _LARGEST for code, n in counts.items()):
        return None
    return Counter(counts)


def _settlements_valid(settlements: list[Any], diagnostics: int, hands: int) -> bool:
    """Whether each settlement line of an entry is ``[place, hand, text]``: its place among the
    diagnostics and its hand's index in order, in range, and its text a string."""
    place, hand = 0, -1
    for item in settlements:
        if type(item) is not list or len(item) != 3:
            return False
        at, index, text = item
        if (type(at) is not int or type(index) is not int or type(text) is not str
                or not place <= at <= diagnostics or not hand < index < hands):
            return False
        place, hand = at, index
    return True


class VerdictCache:
    """The verdict cache as the pipeline's report store. With ``only_failures`` (``--quiet``), a
    file that passes (no error, nor a warning when ``strict``) comes back with its counts only."""

    keyed: Keyed = staticmethod(keyed_bytes)

    def __init__(self, cache: Cache, only_failures: bool = False, strict: bool = False) -> None:
        self.cache = cache
        self.only_failures = only_failures
        self.strict = strict

    def load(self, path: str, key: str) -> FileReport | None:
        """The report the cache holds for ``path`` under ``key`` (see :func:`decoded`); ``None`` when
        it holds none, or none that a check of a readable file could have written."""
        kept = self.cache.load(path, key)
        report = None if kept is None else decoded(path, kept, self.only_failures, self.strict)
        return None if report is None or report.unreadable else report

    def store(self, path: str, key: str, report: FileReport) -> None:
        self.cache.store(path, key, entry_of(report))

    def close(self) -> None:
        self.cache.close()
