"""``kcref check`` as one function: check every input in order and print the results as they come.

One file at a time, each diagnostic prints as soon as its hand is judged (the printer streams).
With worker processes (``jobs``), or behind a progress bar, each file's report comes back whole
and prints in the order given.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import AbstractContextManager
from dataclasses import replace
from typing import TYPE_CHECKING, TextIO

from ...files.inputs import Found, Inputs, Problem, display_name
from ...model.codes import Severity
from ...model.diagnostics import Diagnostic
from ...model.status import ExitStatus
from ...referee.pipeline import (
    Configs,
    FileReport,
    Keep,
    check_file,
    check_inputs,
    in_workers,
    problem_report,
)
from ...render.check_formats import CHECK_FORMATS, CheckSettings, Printer

if TYPE_CHECKING:
    from ...files.cache import Cache
    from ...files.config import Config

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
    jobs = settings.jobs
    count = len(inputs.paths) + len(inputs.problems)
    if progress is not None and count < PROGRESS_FILES:
        progress = None
    try:
        if jobs > 1 or progress is not None:
            reports = _whole(inputs, printer, jobs, count, progress, configs, cache)
        else:
            reports = _streamed(inputs, printer, configs, cache)
    finally:
        if cache is not None:
            cache.close()
    printer.finish(reports)
    out.flush()
    if any(r.unreadable for r in reports):
        return ExitStatus.USAGE
    failed = any(r.errors or (settings.strict and r.count(Severity.WARNING)) for r in reports)
    return ExitStatus.FOUND if failed else ExitStatus.OK


def _print_whole(printer: Printer, report: FileReport, keep: Keep | None = None) -> None:
    printer.start_file(report.path)
    # Each verdict (when kept) goes to the printer where a streamed check gives it: after its
    # hand's diagnostics, before the first on the next hand's line.
    hands, lines = report.hands, report.hand_lines
    diagnostics: Iterable[Diagnostic] = report.diagnostics
    tell: Callable[[int], None] = lambda i: printer.hand(hands[i], lines[i])  # noqa: E731
    told = count = len(hands)
    from_cache = getattr(report, "settled", None)
    if from_cache is not None:  # a CachedReport: every diagnostic, and the settlement lines
        if keep is not None:
            diagnostics = [d for d in report.diagnostics if keep(d)]
        texts = {index: text for _, index, text in from_cache}
        count = len(lines) if printer.settings.settles_hands else 0

        def tell(i: int) -> None:
            if i in texts:
                printer.settle(report.path, lines[i], texts[i])
    told = 0
    for d in diagnostics:
        while told < count and told + 1 < len(lines) and d.line >= lines[told + 1]:
            tell(told)
            told += 1
        printer.diagnostic(d)
    for i in range(told, min(count, len(lines))):
        tell(i)
    printer.end_file(report)


def _whole(inputs: Inputs, printer: Printer, jobs: int, count: int, progress: Progress | None,
           configs: Configs | None = None, cache: Cache | None = None) -> list[FileReport]:
    """Reports that come back whole (from worker processes, or behind a progress bar), printed in order."""
    # --quiet shows only what fails: the workers need not send the rest back; nor the penalties
    # that the text printer sums up from the verdicts.
    keep = printer.settings.kept
    checked: Iterator[FileReport]
    if cache is None:
        checked = check_inputs(inputs, jobs=jobs, keep_hands=printer.settings.settles_hands, keep=keep,
                               configs=configs)
    else:
        checked = _cached_inputs(inputs, cache, jobs, configs)
    # Closed on the way out, not when collected: an exception (Ctrl-C, a failed write) then
    # stops the worker processes at once, instead of waiting for the rest of their work.
    try:
        results: Iterable[FileReport] = checked
        if progress is not None:
            with progress(results, count) as shown:
                results = list(shown)
        reports = []
        for report in results:
            _print_whole(printer, report, keep if cache is not None else None)
            report.diagnostics = []
            report.hands = []  # printed: the summary needs only the counts
            reports.append(report)
    finally:
        getattr(checked, "close", lambda: None)()
    return reports


def _cached_inputs(inputs: Inputs, cache: Cache, jobs: int, configs: Configs | None) -> Iterator[FileReport]:
    """Every input's report, in order: a cached one where the cache holds it, else checked
    (in ``jobs`` worker processes) and kept in the cache; a path that could not be read, its problem."""
    from .cached import decoded, fresh_entry, keyed_bytes, loaded

    settings = {path: None if configs is None else configs(path) for path in inputs.paths}
    hits: dict[str, FileReport] = {}
    for path in inputs.paths:
        keyed = keyed_bytes(path, settings[path])
        report = None if keyed is None else loaded(cache, path, keyed[1])
        if report is not None:
            hits[path] = report
    misses = [path for path in inputs.paths if path not in hits]
    entries = in_workers(fresh_entry, misses, [settings[p] for p in misses], jobs)
    for item in inputs.entries:
        if isinstance(item, Problem):
            yield problem_report(item)
            continue
        path = item.path
        if path in hits:
            yield replace(hits[path])  # a copy: a path given twice prints twice, and a printed report is emptied
            continue
        key, entry = next(entries)  # keyed by the bytes the worker checked
        fresh = decoded(path, entry)
        assert fresh is not None
        if key is not None and not fresh.unreadable:
            cache.store(path, key, entry)
        yield fresh
    next(entries, None)  # run the generator to its end, so that a pool of workers is shut down


def _streamed(inputs: Inputs, printer: Printer, configs: Configs | None = None,
              cache: Cache | None = None) -> list[FileReport]:
    """One file at a time: each hand's diagnostics print as soon as it is judged."""
    reports = []
    # Under --quiet most diagnostics (a penalty on many turns) are not shown: the pipeline then
    # only counts them, without fetching their source lines or handing them to the printer.
    # So too the penalties that the text printer sums up per hand (see CheckSettings.settles_hands).
    keep = printer.settings.kept
    on_hand = printer.hand if printer.settings.settles_hands else None
    for entry in inputs.entries:
        if isinstance(entry, Found):
            printer.start_file(display_name(entry.path))
            config = None if configs is None else configs(entry.path)
            if cache is not None:
                report = _cached_file(entry.path, config, printer, keep, cache)
            else:
                report = check_file(entry.path, keep_hands=False, emit=printer.diagnostic, keep=keep, on_hand=on_hand,
                                    config=config)
            printer.end_file(report)
            reports.append(report)
        elif isinstance(entry, Problem):
            report = problem_report(entry)
            _print_whole(printer, report)
            reports.append(report)
    return reports


def _cached_file(path: str, config: Config | None, printer: Printer, keep: Keep | None, cache: Cache) -> FileReport:
    """One file, streamed: printed from the cache when it holds it, else checked (printed as
    it goes) and kept there."""
    from .cached import keyed_bytes, loaded, record, replay

    keyed = keyed_bytes(path, config)
    if keyed is None:
        return check_file(path, keep_hands=False, emit=printer.diagnostic, keep=keep,
                          on_hand=printer.hand if printer.settings.settles_hands else None, config=config)
    data, key = keyed
    # --quiet shows only what fails: a file without it needs no more than its counts.
    cached = loaded(cache, path, key, printer.settings.only_failures, printer.settings.strict)
    if cached is not None:
        return replay(printer, cached, keep)
    report, entry = record(path, config, printer, keep, data)  # the very bytes of the key: read once
    if not report.unreadable:
        cache.store(path, key, entry)
    return report
