"""``kcref check --statistics``: instead of the diagnostics, how many there are of each code, as
ruff's ``--statistics`` prints them (``count code summary``, most frequent first), or as a JSON list."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import TextIO

from ..model.codes import BY_CODE
from ..model.diagnostics import Diagnostic, json_text
from ..referee.pipeline import FileReport
from .check_formats import Printer

STATISTICS_FORMATS = ("text", "json")
"""The formats ``--statistics`` prints in."""


class StatisticsPrinter(Printer):
    """Counts the diagnostics shown (under ``--quiet`` only those that fail), prints the counts at the end."""

    def __init__(self, out: TextIO, show_source: bool = True, quiet: bool = False, strict: bool = False,
                 as_json: bool = False) -> None:
        super().__init__(out, show_source=show_source, quiet=quiet, strict=strict)
        self.as_json = as_json
        self.counts: Counter[str] = Counter()

    def diagnostic(self, d: Diagnostic) -> None:
        if self.shown(d):
            self.counts[d.code] += 1

    def rows(self) -> list[dict[str, object]]:
        """One row per code found: ``code``, ``count``, ``severity``, ``summary``; the most
        frequent first, then by code."""
        ranked = sorted(self.counts.items(), key=lambda item: (-item[1], item[0]))
        return [{"code": code, "count": n, "severity": BY_CODE[code].severity.value,
                 "summary": BY_CODE[code].summary} for code, n in ranked]

    def finish(self, reports: Sequence[FileReport]) -> None:
        rows = self.rows()
        if self.as_json:
            self.out.write(json_text(rows) + "\n")
            return
        width = max((len(str(row["count"])) for row in rows), default=1)
        for row in rows:
            self.out.write(f"{row['count']:>{width}}\t{row['code']}\t{row['severity']}\t{row['summary']}\n")
