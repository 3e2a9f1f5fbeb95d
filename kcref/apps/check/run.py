"""``kcref check`` as one function: check every input in order and print the results as they come.

One file at a time, each diagnostic prints as soon as its hand is judged (the printer streams).
With worker processes (``jobs``), or behind a progress bar, each file's report comes back whole
and prints in the order given. With the verdict cache, each file the cache can keep is judged
whole (from the cache, or checked and kept there) and printed as a streamed check prints it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, TextIO

from ...files.inputs import STDIN_NAME, Found, Inputs, Problem, display_name
from ...model.codes import Severity
from ...model.diagnostics import Diagnostic
from ...model.status import ExitStatus
from ...referee.pipeline import (
    Configs,
    FileReport,
    OnSettlement,
    ReportStore,
    SettlementLine,
    check_file,
    check_inputs,
    hand_on,
    problem_report,
)
from ...render.check_formats import CHECK_FORMATS, CheckSettings, Printer, penalty_settlement_line

if TYPE_CHECKING:
    from ...files.cache import Cache

Progress = Callable[[Iterable[FileReport], int], AbstractContextManager[Iterable[FileReport]]]
"""Shows the reports going by: given them and how many there are, gives them back (a progress bar)."""

PROGRESS_FILES = 10
"""A progress bar is shown from this many files on."""


def default_format(environ: Mapping[str, str]) -> str:
    """``github`` on GitHub Actions (``GITHUB_ACTIONS=true``), else ``text``."""
    return "github" if environ.get("GITHUB_ACTIONS") == "true" else "text"


def run_check(inputs: Inputs, settings: CheckSettings, out: TextIO, *, progress: Progress | None = None,
              configs: Configs | None = None, cache: Cache | None = None) -> ExitStatus:
    """Check ``inputs`` and print the results on ``out`` as ``settings`` say (the format, what
    is shown, how many worker processes); ``progress``, if given, shows the files going by when
    there are at least :data:`PROGRESS_FILES`; ``configs`` gives each file its configuration
    (the diagnostics it ignores are neither shown nor counted). With ``cache``, a file checked
    before and unchanged since (under the same configuration and kcref version) is printed from
    it, as a fresh check prints it; any other file is checked and kept there.

    Returns USAGE if a file could not be read, FOUND if a file has errors (or warnings when
    strict), else OK.
    """
    printer: Printer
    if settings.statistics:
        from ...render.check_statistics import StatisticsPrinter

        printer = StatisticsPrinter(out, settings)
    else:
        printer = CHECK_FORMATS[settings.format].printer(out, settings)
    store: ReportStore | None = None
    if cache is not None:
        from .cached import VerdictCache

        store = VerdictCache(cache, settings.only_failures, settings.strict)
    count = len(inputs.paths) + len(inputs.problems)
    if progress is not None and count < PROGRESS_FILES:
        progress = None
    try:
        if settings.jobs > 1 or progress is not None:
            reports = _whole(inputs, printer, count, progress, configs, store)
        else:
            reports = _streamed(inputs, printer, configs, store)
    finally:
        if cache is not None:
            cache.close()
    printer.finish(reports)
    out.flush()
    if any(r.unreadable for r in reports):
        return ExitStatus.USAGE
    failed = any(r.errors or (settings.strict and r.count(Severity.WARNING)) for r in reports)
    return ExitStatus.FOUND if failed else ExitStatus.OK


def _named(report: FileReport, name: str) -> FileReport:
    """``report`` of standard input under the name it is to go by (``--stdin-filename``)."""
    report.path = name
    report.diagnostics = [d.with_path(name) for d in report.diagnostics]
    return report


def _print_whole(printer: Printer, report: FileReport) -> None:
    """Print a report that came back whole as a streamed check prints its file."""
    settings = printer.settings
    printer.start_file(report.path)
    hand_on(report, printer.diagnostic, printer.settlement if settings.prints_settlements else None, settings.kept)
    printer.end_file(report)


def _whole(inputs: Inputs, printer: Printer, count: int, progress: Progress | None,
           configs: Configs | None, store: ReportStore | None) -> list[FileReport]:
    """Reports that come back whole (from worker processes, or behind a progress bar), printed in order."""
    settings = printer.settings
    # --quiet shows only what fails: the workers need not send the rest back; nor the penalties
    # that the text printer sums up in settlement lines. A stored report holds them all.
    checked = check_inputs(inputs, jobs=settings.jobs, keep_hands=False, keep=settings.kept, configs=configs,
                           settlement=_settlement(settings, store), store=store)
    # Closed on the way out, not when collected: an exception (Ctrl-C, a failed write) then
    # stops the worker processes at once, instead of waiting for the rest of their work.
    try:
        results: Iterable[FileReport] = checked
        if progress is not None:
            with progress(results, count) as shown:
                results = list(shown)
        reports = []
        for report in results:
            if report.path == STDIN_NAME and settings.stdin_name:
                report = _named(report, settings.stdin_name)
            _print_whole(printer, report)
            report.diagnostics = []
            report.settlements = []  # printed: the summary needs only the counts
            reports.append(report)
    finally:
        getattr(checked, "close", lambda: None)()
    return reports


def _settlement(settings: CheckSettings, store: ReportStore | None) -> SettlementLine | None:
    """How each hand's settlement line is found: for the printer's settlement lines, and for a
    stored report, which every format may print."""
    return penalty_settlement_line if settings.prints_settlements or store is not None else None


def _streamed(inputs: Inputs, printer: Printer, configs: Configs | None,
              store: ReportStore | None) -> list[FileReport]:
    """One file at a time: each hand's diagnostics print as soon as it is judged."""
    settings = printer.settings
    reports = []
    # Under --quiet most diagnostics (a penalty on many turns) are not shown: the pipeline then
    # only counts them, without fetching their source lines or handing them to the printer.
    # So too the penalties that the text printer sums up per hand (see CheckSettings.prints_settlements).
    keep = settings.kept
    settlement = _settlement(settings, store)
    on_settlement: OnSettlement | None = printer.settlement if settings.prints_settlements else None
    for entry in inputs.entries:
        if isinstance(entry, Found):
            name = settings.name_of(entry.path)
            printer.start_file(name)
            config = None if configs is None else configs(entry.path)
            emit: Callable[[Diagnostic], None] = printer.diagnostic
            told = on_settlement
            if name != display_name(entry.path):  # standard input, named by --stdin-filename
                emit = _renaming(printer.diagnostic, name)
                told = None if on_settlement is None else _settling_as(on_settlement, name)
            report = check_file(entry.path, keep_hands=False, emit=emit, keep=keep, config=config,
                                settlement=settlement, on_settlement=told, store=store)
            report.path = name
            printer.end_file(report)
            reports.append(report)
        elif isinstance(entry, Problem):
            report = problem_report(entry)
            _print_whole(printer, report)
            reports.append(report)
    return reports


def _renaming(emit: Callable[[Diagnostic], None], name: str) -> Callable[[Diagnostic], None]:
    """``emit``, handed each diagnostic under the file name ``name``."""
    return lambda d: emit(d.with_path(name))


def _settling_as(on_settlement: OnSettlement, name: str) -> OnSettlement:
    """``on_settlement``, told each settlement line under the file name ``name``."""
    return lambda _path, line, text: on_settlement(name, line, text)
