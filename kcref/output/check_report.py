"""``kcref check`` as one function: check every input in order and print the results as they come.

One file at a time, each diagnostic prints as soon as its hand is judged (the printer streams).
With worker processes (``jobs``), or behind a progress bar, each file's report comes back whole
and prints in the order given.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from contextlib import AbstractContextManager
from functools import partial
from typing import TextIO

from ..files.inputs import Found, Inputs, Problem, display_name
from ..model.codes import Severity
from ..model.status import ExitStatus
from ..referee.pipeline import Configs, FileReport, check_file, check_inputs, problem_report
from .check_formats import CHECK_FORMATS, JunitPrinter, Printer, failing, unfolded

Progress = Callable[[Iterable[FileReport], int], AbstractContextManager[Iterable[FileReport]]]
"""Shows the reports going by: given them and how many there are, gives them back (a progress bar)."""

PROGRESS_FILES = 10
"""A progress bar is shown from this many files on."""

TAKES_ALL: frozenset[type[Printer]] = frozenset({JunitPrinter})
"""Printers whose ``diagnostic`` takes every diagnostic, shown or not (junit sorts them into
test cases at the end of each file); every other printer does nothing with one it does not show."""


def default_format(environ: Mapping[str, str]) -> str:
    """``github`` on GitHub Actions (``GITHUB_ACTIONS=true``), else ``text``."""
    return "github" if environ.get("GITHUB_ACTIONS") == "true" else "text"


def run_check(inputs: Inputs, fmt: str, out: TextIO, *, jobs: int = 1, quiet: bool = False, strict: bool = False,
              show_source: bool = True, progress: Progress | None = None, verbose: bool = False,
              configs: Configs | None = None, statistics: bool = False) -> ExitStatus:
    """Check ``inputs`` and print the results on ``out`` in the format named ``fmt``
    (:data:`CHECK_FORMATS`); ``progress``, if given, shows the files going by when there are
    at least :data:`PROGRESS_FILES`; ``verbose`` prints each penalty on its own in the text format
    (else a hand's penalties make one settlement line); ``configs`` gives each file its
    configuration (the diagnostics it ignores are neither shown nor counted). With ``statistics``
    (``fmt``: one of :data:`~kcref.output.check_statistics.STATISTICS_FORMATS`) the counts of each
    code are printed instead of the diagnostics.

    Returns USAGE if a file could not be read, FOUND if a file has errors (or warnings when
    ``strict``), else OK.
    """
    printer: Printer
    if statistics:
        from .check_statistics import StatisticsPrinter

        printer = StatisticsPrinter(out, quiet=quiet, strict=strict, as_json=fmt == "json")
    else:
        printer = CHECK_FORMATS[fmt].printer(out, show_source=show_source, quiet=quiet, strict=strict,
                                             verbose=verbose)
    count = len(inputs.paths) + len(inputs.problems)
    if progress is not None and count < PROGRESS_FILES:
        progress = None
    if jobs > 1 or progress is not None:
        reports = _whole(inputs, printer, jobs, count, progress, configs)
    else:
        reports = _streamed(inputs, printer, configs)
    printer.finish(reports)
    out.flush()
    if any(r.unreadable for r in reports):
        return ExitStatus.USAGE
    failed = any(r.errors or (strict and r.count(Severity.WARNING)) for r in reports)
    return ExitStatus.FOUND if failed else ExitStatus.OK


def _print_whole(printer: Printer, report: FileReport) -> None:
    printer.start_file(report.path)
    # Each verdict (when kept) goes to the printer where a streamed check gives it: after its
    # hand's diagnostics, before the first on the next hand's line.
    hands, lines = report.hands, report.hand_lines
    told = 0
    for d in report.diagnostics:
        while told < len(hands) and told + 1 < len(lines) and d.line >= lines[told + 1]:
            printer.hand(hands[told], lines[told])
            told += 1
        printer.diagnostic(d)
    for verdict, line in zip(hands[told:], lines[told:]):
        printer.hand(verdict, line)
    printer.end_file(report)


def _whole(inputs: Inputs, printer: Printer, jobs: int, count: int, progress: Progress | None,
           configs: Configs | None = None) -> list[FileReport]:
    """Reports that come back whole (from worker processes, or behind a progress bar), printed in order."""
    # --quiet shows only what fails: the workers need not send the rest back; nor the penalties
    # that the text printer sums up from the verdicts (wants_hands: only it wants them).
    keep = partial(failing, strict=printer.strict) if printer.quiet else unfolded if printer.wants_hands else None
    results: Iterable[FileReport] = check_inputs(inputs, jobs=jobs, keep_hands=printer.wants_hands, keep=keep,
                                                 configs=configs)
    if progress is not None:
        with progress(results, count) as shown:
            results = list(shown)
    reports = []
    for report in results:
        _print_whole(printer, report)
        report.hands = []  # printed: the summary needs only the counts
        reports.append(report)
    return reports


def _streamed(inputs: Inputs, printer: Printer, configs: Configs | None = None) -> list[FileReport]:
    """One file at a time: each hand's diagnostics print as soon as it is judged."""
    reports = []
    # Under --quiet most diagnostics (a penalty on many turns) are not shown: the pipeline then
    # only counts them, without fetching their source lines or handing them to the printer.
    # So too the penalties that the text printer sums up per hand (see Printer.wants_hands).
    keep = printer.shown if (printer.quiet or printer.wants_hands) and type(printer) not in TAKES_ALL else None
    on_hand = printer.hand if printer.wants_hands else None
    for entry in inputs.entries:
        if isinstance(entry, Found):
            printer.start_file(display_name(entry.path))
            report = check_file(entry.path, keep_hands=False, emit=printer.diagnostic, keep=keep, on_hand=on_hand,
                                config=None if configs is None else configs(entry.path))
            printer.end_file(report)
            reports.append(report)
        elif isinstance(entry, Problem):
            report = problem_report(entry)
            _print_whole(printer, report)
            reports.append(report)
    return reports
