"""``kcref check --statistics``: instead of the diagnostics, how many there are of each code, as
ruff's ``--statistics`` prints them (``count code summary``, most frequent first), or as a JSON list;
then, as many again, those found but not reported: ignored by the configuration, or suppressed
by a comment on their line."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import TextIO

from ..model.codes import BY_CODE, Severity
from ..model.diagnostics import Diagnostic, json_text
from ..referee.pipeline import FileReport
from .check_formats import HIDDEN, CheckSettings, Printer, hidden

STATISTICS_FORMATS = ("text", "json")
"""The formats ``--statistics`` prints in."""
HIDDEN_WORDS = {"ignored": "ignored by configuration", "suppressed": "suppressed"}
"""What the text rows of diagnostics not reported say of them, by why (:data:`~kcref.render.check_formats.HIDDEN`)."""


class StatisticsPrinter(Printer):
    """Counts the diagnostics shown (under ``--quiet`` only those that fail), prints the counts at the end."""

    def __init__(self, out: TextIO, settings: CheckSettings) -> None:
        super().__init__(out, settings)
        self.as_json = settings.format == "json"
        self.counts: Counter[str] = Counter()

    def diagnostic(self, d: Diagnostic) -> None:
        if self.settings.shown(d):
            self.counts[d.code] += 1

    def rows(self, reports: Sequence[FileReport] = ()) -> list[dict[str, object]]:
        """One row per code found: ``code``, ``count``, ``severity``, ``summary``; the most
        frequent first, then by code. Then, ranked alike, one row per code that ``reports`` found
        but did not report, with ``hidden`` saying why (``ignored``, ``suppressed``); under
        ``--quiet`` only those that would fail."""
        rows = _ranked(self.counts)
        for why in HIDDEN:
            counts = hidden(reports, why)
            if self.settings.quiet:
                counts = Counter({code: n for code, n in counts.items() if self._fails(code)})
            rows += [{**row, "hidden": why} for row in _ranked(counts)]
        return rows

    def _fails(self, code: str) -> bool:
        severity = BY_CODE[code].severity
        return severity is Severity.ERROR or (self.settings.strict and severity is Severity.WARNING)

    def finish(self, reports: Sequence[FileReport]) -> None:
        rows = self.rows(reports)
        if self.as_json:
            self.out.write(json_text(rows) + "\n")
            return
        width = max((len(str(row["count"])) for row in rows), default=1)
        for row in rows:
            why = f"{HIDDEN_WORDS[str(row['hidden'])]}: " if "hidden" in row else ""
            self.out.write(f"{row['count']:>{width}}\t{row['code']}\t{row['severity']}\t{why}{row['summary']}\n")


def _ranked(counts: Counter[str]) -> list[dict[str, object]]:
    """A row per code of ``counts``: the most frequent first, then by code."""
    ranked = sorted(counts.items(), key=lambda item: (-item[1], item[0]))
    return [{"code": code, "count": n, "severity": BY_CODE[code].severity.value,
             "summary": BY_CODE[code].summary} for code, n in ranked]
