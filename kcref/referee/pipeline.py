"""The checking pipeline: text → events → hands → set-up checks → referee → a report per file.

Checking streams: a file is read line by line and judged hand by hand, and each hand's
diagnostics are handed on (in line order) as soon as the hand is judged, so a log far larger
than memory can be checked when the caller neither keeps the verdicts nor the diagnostics.
"""

from __future__ import annotations

import io
import os
import stat
import sys
from array import array
from collections import Counter, deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field, replace
from functools import lru_cache, partial
from operator import attrgetter
from typing import TYPE_CHECKING, Any, BinaryIO, Protocol, TypeVar

from ..files.config import Config
from ..files.discover import cannot_read, file_kind
from ..files.inputs import Found, Inputs, Problem, problem_diagnostic
from ..model.codes import UNREADABLE, Severity
from ..model.diagnostics import Diagnostic, diagnostic
from ..model.events import Tag
from ..notation.reader import read_runs
from ..notation.sourcelines import SourceLines
from ..notation.textlines import text_stream
from .assertions import check_assertions
from .grouping import MAX_TAG_NAMES, NO_DEFAULTS, Defaults, HandRecord
from .hand_score import hand_score
from .replay import Judge, referee_hands
from .setup_checks import checked_hands
from .suppression import MARK, Suppressions, line_comment
from .verdict import HandVerdict

if TYPE_CHECKING:
    from concurrent.futures import Executor, Future, ProcessPoolExecutor

ERROR, WARNING, INFO = Severity.ERROR, Severity.WARNING, Severity.INFO
CUT_NOTE = "KC504"
"""The note that a hand is not refereed past a line."""
LINE_AND_COLUMN = attrgetter("line", "column")
"""The sort key of diagnostics: (line, column)."""

Emit = Callable[[Diagnostic], None]
OnHand = Callable[[HandVerdict, int], None]
"""Called with each verdict and its hand's line, once the diagnostics up to that hand are emitted."""
SettlementLine = Callable[[HandVerdict], "str | None"]
"""A hand's settlement line, or ``None`` for a hand that gets none: what a caller prints for a
hand once its diagnostics are out (a module-level function: it goes to worker processes)."""
OnSettlement = Callable[[str, int, str], None]
"""Called with the file's name, a hand's line and its settlement line, where it comes among the
diagnostics."""
Settlement = tuple[int, int, str]
"""A settlement line in a report: how many of the report's diagnostics come before it, its
hand's index, its text."""


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
    """The first tag of each name, in order, for at most :data:`MAX_TAG_NAMES` names."""
    hand_lines: array[int] = field(default_factory=lambda: array("q"))
    """The line of each hand's ``hand`` line, in order."""
    counts: Counter[Severity] = field(default_factory=Counter)
    penalties: int = 0
    """Penalty notes (KC4xx): chips due."""
    unreadable: bool = False
    """The file could not be read as text (KC001-KC003)."""
    ignored: Counter[str] = field(default_factory=Counter)
    """How many diagnostics of each code the configuration left out (neither handed on nor counted)."""
    suppressed: Counter[str] = field(default_factory=Counter)
    """How many diagnostics of each code a ``# kcref: ignore[...]`` comment silenced (neither
    handed on nor counted)."""
    settlements: list[Settlement] = field(default_factory=list)
    """Each hand's settlement line, when checked with a ``settlement`` and the diagnostics kept."""

    def count(self, severity: Severity) -> int:
        return self.counts[severity]

    @property
    def errors(self) -> int:
        return self.counts[Severity.ERROR]

    @property
    def hand_count(self) -> int:
        return len(self.hand_lines)


Keep = Callable[[Diagnostic], bool]
"""Which diagnostics a report keeps (all are counted); a module-level function or a
``functools.partial`` of one, so that it can go to worker processes. It is asked before the
diagnostic is given its source line: one it does not keep costs no more than its count."""


Configs = Callable[[str], Config]
"""The configuration of the file at a path (see :class:`kcref.files.config.Finder`)."""

Keyed = Callable[[str, "Config | None"], "tuple[bytes, str] | None"]
"""The bytes of the file at a path and their key under a configuration, or ``None`` for a file
that is not kept (a module-level function: it goes to worker processes)."""


class ReportStore(Protocol):
    """Where the reports of files judged before are kept, found again by the key of the very
    bytes judged (the verdict cache of ``kcref check``). A stored report holds every diagnostic
    and, checked with a ``settlement``, every settlement line."""

    @property
    def keyed(self) -> Keyed:
        """How a file's bytes are read and keyed."""

    def load(self, path: str, key: str) -> FileReport | None:
        """The report kept for ``path`` under ``key``, its diagnostics named ``path``; ``None``
        if there is none."""

    def store(self, path: str, key: str, report: FileReport) -> None:
        """Keep the report of a readable file, judged from the bytes keyed ``key``."""


@lru_cache(maxsize=64)
def settings_of(config: Config | None) -> tuple[Defaults, frozenset[str]]:
    """What a configuration means to the pipeline: the tags' defaults, and the codes not reported."""
    if config is None:
        return NO_DEFAULTS, frozenset()
    return Defaults(config.rules or NO_DEFAULTS.rules, config.options), config.ignored()


def check_items(items: Iterable[object], path: str, *, keep_hands: bool = True, emit: Emit | None = None,
                sources: SourceLines | None = None, on_hand: OnHand | None = None,
                keep: Keep | None = None, config: Config | None = None, suppress: bool = True,
                settlement: SettlementLine | None = None, on_settlement: OnSettlement | None = None,
                judge: Judge | None = None) -> FileReport:
    """Check a stream of events and syntax diagnostics read from ``path``: set-up, then replay.

    Diagnostics go to ``emit`` as each hand is judged (else into ``report.diagnostics``), only
    those ``keep`` accepts when it is given, though all are counted; the verdicts are kept in
    ``report.hands`` only with ``keep_hands``. ``sources`` is where the reader keeps the text of
    the lines, for the diagnostics' caret display: each hand's lines are released once its
    diagnostics are out. ``config`` gives the rules and options of a log without those tags,
    and the codes that are neither handed on nor counted (see :meth:`Config.ignored`). Without
    ``suppress``, the log's ``# kcref: ignore[...]`` comments silence nothing, as for
    :class:`~kcref.referee.live.LiveLog`, which refuses a line with any error. With ``settlement``,
    each hand's settlement line goes to ``on_settlement`` once the hand's diagnostics are out, and
    into ``report.settlements`` when the diagnostics are kept there. Each hand is judged by
    ``judge`` (default: the referee's :func:`~kcref.referee.replay.referee_hand`; the report's
    also looks at the table on the way).
    """
    defaults, ignored = settings_of(config)
    check = FileCheck(path, keep_hands, emit, sources, on_hand, keep, ignored, suppress, settlement, on_settlement)
    for verdict in referee_hands(check.records(items, defaults), judge):
        check.hand(verdict)
    check.note_suppressions()
    check.flush()
    return check.report


class FileCheck:
    """One file's check under way: its report, the records handed to the referee (one per
    verdict to come), and the diagnostics not yet handed on."""

    def __init__(self, path: str, keep_hands: bool, emit: Emit | None, sources: SourceLines | None,
                 on_hand: OnHand | None, keep: Keep | None = None, ignored: frozenset[str] = frozenset(),
                 suppress: bool = True, settlement: SettlementLine | None = None,
                 on_settlement: OnSettlement | None = None) -> None:
        self.path = path
        self.settlement = settlement
        self.on_settlement = on_settlement
        self.suppress = suppress
        self.keep = keep
        self.ignored = ignored
        self.keep_hands = keep_hands
        self.emit = emit
        self.sources = sources
        self.on_hand = on_hand
        self.report = FileReport(path)
        self.judged: deque[HandRecord] = deque()
        self.pending: list[Diagnostic] = []
        self.suppressions = Suppressions(path)
        self.report.suppressed = self.suppressions.silenced
        self.later: list[tuple[int, str]] = []
        """Lines that may hold a suppression, with their comment ("": the line's), read once
        their text is kept."""

    def records(self, items: Iterable[object], defaults: Defaults = NO_DEFAULTS) -> Iterator[HandRecord]:
        """The hands that pass the set-up checks; their diagnostics wait to be handed on in line order."""
        later = self.later
        for item in checked_hands(items, self.path, defaults):  # type: ignore[arg-type]
            if isinstance(item, HandRecord):  # the most common item: asked first
                start = item.start
                if MARK in start.comment:
                    later.append((start.span.line, start.comment))
                for event in item.marked:
                    later.append((event.span.line, event.comment))  # type: ignore[union-attr]
                if later:
                    self.note_suppressions()
                self.judged.append(item)
                yield item
            elif isinstance(item, Diagnostic):
                if item.line > 0 and self.sources is not None:
                    later.append((item.line, ""))  # a line that is no event (a syntax error) may hold one too
                self.pending.append(item)
            else:
                if MARK in item.comment:
                    later.append((item.span.line, item.comment))
                _keep_tag(self.report.tags, item)

    def note_suppressions(self) -> None:
        """Read the suppressions of the lines set aside: once a hand is read whole, its lines'
        text is kept (see :class:`~kcref.notation.sourcelines.SourceLines`)."""
        note, sources = self.suppressions.note, self.sources
        for line, comment in self.later if self.suppress else ():
            text = "" if sources is None else sources.get(line)
            note(line, comment or line_comment(text), text)
        self.later.clear()

    def hand(self, verdict: HandVerdict) -> None:
        """Take the referee's verdict on the oldest judged hand: check its assertions, hand its
        diagnostics on, release its lines."""
        report = self.report
        record = self.judged.popleft()
        replayed = verdict.diagnostics
        asserted = check_assertions(record, verdict)
        if asserted:
            verdict = verdict.with_diagnostics(tuple(asserted))
        if self.keep_hands:
            report.hands.append(verdict)
        report.hand_lines.append(record.start.span.line)
        if self.pending or asserted or self.suppressions:
            self.pending.extend(verdict.diagnostics)
            if self.suppressions and not verdict.valid:
                self._stopped_silently(verdict, replayed)
            self.flush(record.events[-1].span.line if record.events else record.start.span.line)
        elif verdict.diagnostics:
            self._send(verdict.diagnostics)  # the referee's own are in line order already
        if self.sources is not None:
            self.sources.release(record.start.span.line)
        if self.on_hand is not None:
            self.on_hand(verdict, report.hand_lines[-1])
        if self.settlement is not None:
            text = self.settlement(verdict)
            if text is not None:
                if self.emit is None:
                    report.settlements.append((len(report.diagnostics), len(report.hand_lines) - 1, text))
                if self.on_settlement is not None:
                    self.on_settlement(self.path, report.hand_lines[-1], text)

    def _stopped_silently(self, verdict: HandVerdict, replayed: tuple[Diagnostic, ...]) -> None:
        """A KC504 note where a suppression silences the rule error that stopped the replay of
        the hand: silenced, the error still leaves the table wrong past its line."""
        # The replay's only error is the one that stopped it (its notes are penalties and debts).
        stop = next((d for d in replayed if d.severity is ERROR), None)
        if stop is None or not self.suppressions.silences(stop):
            return
        number = verdict.number if verdict.number is not None else verdict.index
        self.pending.append(diagnostic(
            stop.path, stop.line, stop.column, CUT_NOTE,
            f"hand {number} is not refereed past line {stop.line}: its rule error {stop.code} is "
            "suppressed there, not fixed"))

    def flush(self, upto: int | None = None) -> None:
        """Count the pending diagnostics and hand them on in line order: those a suppression
        silences left out, and the suppressions up to line ``upto`` (all, without it) that
        silenced nothing reported (KC007)."""
        if self.suppressions:
            self.pending = self.suppressions.kept(self.pending) + self.suppressions.unused(upto)
        pending = self.pending
        if not pending:
            return
        pending.sort(key=LINE_AND_COLUMN)
        self._send(pending)
        pending.clear()

    def _send(self, diagnostics: Iterable[Diagnostic]) -> None:
        """Count ``diagnostics`` (in line order) and hand them on, with their source lines."""
        report, sources, emit, keep, ignored = self.report, self.sources, self.emit, self.keep, self.ignored
        out = report.diagnostics.append if emit is None else emit
        # Counted in locals: Severity hashes in Python, and a log may hold a penalty on every turn.
        errors = warnings = infos = penalties = 0
        for d in diagnostics:
            severity, code = d.severity, d.code
            if ignored and code in ignored:
                report.ignored[code] += 1
                continue
            if severity is ERROR:
                errors += 1
            elif severity is WARNING:
                warnings += 1
            else:
                infos += 1
            if code.startswith("KC4"):
                penalties += 1
            elif code in UNREADABLE:
                report.unreadable = True
            if keep is not None and not keep(d):
                continue
            if sources is not None and not d.source and d.line > 0:
                d = d.with_source(sources.get(d.line))
            out(d)
        counts = report.counts
        for severity, n in ((ERROR, errors), (WARNING, warnings), (INFO, infos)):
            if n:
                counts[severity] += n
        report.penalties += penalties


def _keep_tag(tags: list[Tag], tag: Tag) -> None:
    """Keep the first tag of each name, up to :data:`MAX_TAG_NAMES` names: a log of a million
    tag lines must not cost a million tags."""
    if len(tags) < MAX_TAG_NAMES and all(t.name != tag.name for t in tags):
        tags.append(tag)


def check_text(text: str, path: str = "<string>", *, keep_hands: bool = True, emit: Emit | None = None,
               on_hand: OnHand | None = None, keep: Keep | None = None, config: Config | None = None) -> FileReport:
    """Check a log held in a string, exactly as :func:`check_file` checks a file holding its
    bytes (UTF-8; see :func:`~kcref.notation.textlines.encoded`): the text is read through the
    same reading, line limit and all."""
    sources = SourceLines()
    return check_items(read_runs(text_stream(text), path, sources), path, keep_hands=keep_hands, emit=emit,
                       sources=sources, on_hand=on_hand, keep=keep, config=config)


def check_file(path: str, stdin: BinaryIO | None = None, *, keep_hands: bool = True,
               emit: Emit | None = None, on_hand: OnHand | None = None, keep: Keep | None = None,
               config: Config | None = None, data: bytes | None = None, settlement: SettlementLine | None = None,
               on_settlement: OnSettlement | None = None, store: ReportStore | None = None) -> FileReport:
    """Check the log at ``path`` (``-`` reads ``stdin``, by default the process's standard input).

    With ``emit`` and without ``keep_hands`` memory stays flat however large the file: the file
    (or standard input) is read once, as a stream, and never opened twice. With ``keep``, only
    the diagnostics it accepts are handed on (see :func:`check_items`; ``settlement`` and
    ``on_settlement`` too). ``data``, when given, is the file's bytes, read already: those are
    checked, and the file is not opened again.

    With ``store``, a file it keys (see :class:`ReportStore`) is judged whole: its report comes
    from the store, or is checked from the bytes keyed and kept there; then handed to ``emit``
    and ``on_settlement`` as a check that goes hand by hand hands it on (see :func:`hand_on`), and
    the report returned holds only the counts. Verdicts are not kept.
    """
    if store is not None and data is None:
        keyed = store.keyed(path, config)
        if keyed is not None:
            report = _stored(path, config, keyed, settlement, store)
            if emit is None:
                return report
            hand_on(report, emit, on_settlement, keep)
            return replace(report, diagnostics=[], settlements=[])
    sources = SourceLines()
    name = path
    source: str | BinaryIO = path
    if data is not None:
        source = io.BytesIO(data)
    elif path == "-":
        name, source = "<stdin>", stdin or sys.stdin.buffer
    return check_items(read_runs(source, name, sources), name, keep_hands=keep_hands, emit=emit, sources=sources,
                       on_hand=on_hand, keep=keep, config=config, settlement=settlement, on_settlement=on_settlement)


def _stored(path: str, config: Config | None, keyed: tuple[bytes, str], settlement: SettlementLine | None,
            store: ReportStore) -> FileReport:
    """The whole report of the file whose bytes and key are ``keyed``: the store's, or checked
    from those very bytes and kept there."""
    data, key = keyed
    report = store.load(path, key)
    if report is None:
        report = check_file(path, keep_hands=False, config=config, data=data, settlement=settlement)
        if not report.unreadable:
            store.store(path, key, report)
    return report


def hand_on(report: FileReport, emit: Emit, on_settlement: OnSettlement | None = None,
            keep: Keep | None = None) -> None:
    """Hand a whole report on as a check that goes hand by hand does: its diagnostics to ``emit``
    (those ``keep`` accepts), each settlement line to ``on_settlement`` where it came among them."""
    settlements, lines, given = report.settlements, report.hand_lines, 0
    for i, d in enumerate(report.diagnostics):
        while given < len(settlements) and settlements[given][0] <= i:
            if on_settlement is not None:
                on_settlement(report.path, lines[settlements[given][1]], settlements[given][2])
            given += 1
        if keep is None or keep(d):
            emit(d)
    if on_settlement is not None:
        for _, index, text in settlements[given:]:
            on_settlement(report.path, lines[index], text)


def _check_one(path: str, config: Config | None, keep_hands: bool, keep: Keep | None,
               settlement: SettlementLine | None = None) -> FileReport:
    return check_file(path, keep_hands=keep_hands, keep=keep, config=config, settlement=settlement)


def check_keyed(path: str, config: Config | None, keyed: Keyed, settlement: SettlementLine | None = None
                ) -> tuple[str | None, FileReport]:
    """Check the file at ``path`` from the bytes ``keyed`` reads and give their key (``None``: a
    file not to be kept) with the whole report: what a worker process sends back to be stored."""
    found = keyed(path, config)
    if found is None:
        return None, check_file(path, keep_hands=False, config=config, settlement=settlement)
    data, key = found
    return key, check_file(path, keep_hands=False, config=config, data=data, settlement=settlement)


CHUNK_FILES = 16
"""At most this many paths go to a worker process in one round trip."""


def check_paths(paths: Iterable[str], *, jobs: int = 1, keep_hands: bool = True,
                keep: Keep | None = None, configs: Configs | None = None,
                settlement: SettlementLine | None = None) -> Iterator[FileReport]:
    """Check many files; reports come in the order given, whatever ``jobs`` (worker processes,
    see :func:`in_workers`).

    With workers, each report comes back whole (its diagnostics kept, for printing in order;
    with ``keep``, only those it accepts, though every one is counted). ``configs`` gives each
    path its configuration (asked here, in this process).
    """
    paths = list(paths)
    settings = [None if configs is None else configs(path) for path in paths]
    yield from in_workers(partial(_check_one, keep_hands=keep_hands, keep=keep, settlement=settlement), paths, settings,
                          jobs)


_T = TypeVar("_T")


def in_workers(work: Callable[[str, Config | None], _T], paths: list[str], settings: list[Config | None],
               jobs: int) -> Iterator[_T]:
    """``work`` of each path with its configuration, in the order given: in ``jobs`` worker
    processes, the paths sent in chunks, a few per worker at a time, so that a folder of small
    logs does not cost a round trip per file; in this process with one job, one path, or
    standard input among them.

    Workers ignore Ctrl-C, which their parent takes. Stopped before its end (an exception such
    as Ctrl-C's, SIGTERM, or the generator closed), it ends the workers at once, the work still
    queued undone, and waits for them: none is left behind."""
    if jobs <= 1 or len(paths) < 2 or "-" in paths:
        yield from map(work, paths, settings)
        return
    from concurrent.futures import ProcessPoolExecutor  # only with workers: a run without them need not import it

    from ..files.atomic import exit_if_signalled, signals_guarded

    workers = min(jobs, len(paths))
    chunk = max(1, min(CHUNK_FILES, len(paths) // (workers * 4)))
    chunks = ((work, paths[i:i + chunk], settings[i:i + chunk]) for i in range(0, len(paths), chunk))
    pool = ProcessPoolExecutor(max_workers=workers, initializer=_worker_start)
    done = False
    try:
        # SIGTERM and SIGHUP exit through the finally below, as Ctrl-C does: a parent that just
        # vanished would leave its workers waiting for work forever.
        with signals_guarded():
            for results in results_in_order(pool, _each, chunks, workers * CHUNKS_AHEAD):
                exit_if_signalled()  # a SIGTERM whose exit was lost in a hook run as workers were forked
                yield from results
        done = True
    finally:
        if done:
            pool.shutdown(wait=True)
        else:  # interrupted, failed, or no longer wanted: the work still queued is not done
            stop_pool(pool)


CHUNKS_AHEAD = 4
"""Chunks of paths sent to each worker ahead of the one whose results are awaited."""


def _each(work: Callable[[str, Config | None], _T], paths: list[str], settings: list[Config | None]) -> list[_T]:
    """``work`` of each path of a chunk, in a worker process."""
    return [work(path, config) for path, config in zip(paths, settings)]


def _worker_start() -> None:
    """A worker process leaves Ctrl-C to its parent, which stops it: a Ctrl-C at a terminal goes
    to every process of the job, and a worker would print its own traceback."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)


def results_in_order(pool: Executor, fn: Callable[..., _T], calls: Iterable[tuple[Any, ...]],
                     ahead: int) -> Iterator[_T]:
    """``fn(*args)`` for each ``args`` of ``calls``, run in ``pool``, the results in the order of the
    calls, at most ``ahead`` calls submitted before the one whose result is awaited.

    A call's exception is raised here, in its place. Nothing submitted is ever cancelled: to stop
    early, end the pool's workers with :func:`stop_pool` (before Python 3.12, a pool whose workers end
    fails its futures one by one, and one cancelled meanwhile makes that fail with a traceback)."""
    pending: deque[Future[_T]] = deque()
    for args in calls:
        pending.append(pool.submit(fn, *args))
        if len(pending) >= ahead:
            yield pending.popleft().result()
    while pending:
        yield pending.popleft().result()


STOP_SECONDS = 2.0
"""How long a worker is given to end once asked to, before it is asked again, then killed."""


def stop_pool(pool: ProcessPoolExecutor) -> None:
    """End the workers now (their work thrown away) and wait until they and the pool are gone."""
    terminate = getattr(pool, "terminate_workers", None)  # Python 3.14
    if terminate is not None:
        terminate()
        return
    processes = list((getattr(pool, "_processes", None) or {}).values())
    for process in processes:
        process.terminate()
    for process in processes:
        # A SIGTERM that reaches a worker as it is being forked is lost (CPython clears the
        # signals pending in a new child): asked again, and then killed, it cannot stay.
        for stop in (process.terminate, process.kill):
            process.join(STOP_SECONDS)
            if not process.is_alive():
                break
            stop()
        process.join()
    # A worker ended while it wrote a result leaves half of it in the result pipe, and the pool's
    # thread would wait for the rest forever: this process holds the pipe's writing end open too.
    # Closed, the pipe ends, and the pool's thread sees its workers gone.
    result_queue = getattr(pool, "_result_queue", None)
    if result_queue is not None:
        result_queue._writer.close()
    pool.shutdown(wait=True)  # the pool, its workers gone, fails the futures left


def problem_report(problem: Problem) -> FileReport:
    """A checked file's report for a path that could not be read: one KC001 error, unreadable."""
    report = FileReport(problem.path, diagnostics=[problem_diagnostic(problem)], unreadable=True)
    report.counts[Severity.ERROR] += 1
    return report


def check_inputs(inputs: Inputs, *, jobs: int = 1, keep_hands: bool = True,
                 keep: Keep | None = None, configs: Configs | None = None, settlement: SettlementLine | None = None,
                 store: ReportStore | None = None) -> Iterator[FileReport]:
    """Check every file found, in order (``jobs`` worker processes); a path that could not be
    read gets its own report (see :func:`problem_report`) where it stands. With ``keep``, the
    reports hold only the diagnostics it accepts (a worker then sends back no more than that).
    With ``store``, a file it holds is not checked again, and a file checked is kept there:
    its report holds every diagnostic, whatever ``keep``."""
    if store is not None:
        yield from _stored_inputs(inputs, jobs, configs, settlement, store)
        return
    reports = check_paths(inputs.paths, jobs=jobs, keep_hands=keep_hands, keep=keep, configs=configs,
                          settlement=settlement)
    for entry in inputs.entries:
        if isinstance(entry, Found):
            yield next(reports)
        elif isinstance(entry, Problem):
            yield problem_report(entry)
    next(reports, None)  # run the generator to its end, so that a pool of workers is shut down


def _stored_inputs(inputs: Inputs, jobs: int, configs: Configs | None, settlement: SettlementLine | None,
                   store: ReportStore) -> Iterator[FileReport]:
    """:func:`check_inputs` with a store: the reports it holds, the others checked (in ``jobs``
    worker processes, each keying the bytes it checks) and kept there."""
    settings = {path: None if configs is None else configs(path) for path in inputs.paths}
    hits: dict[str, FileReport] = {}
    for path in inputs.paths:
        keyed = store.keyed(path, settings[path])
        report = None if keyed is None else store.load(path, keyed[1])
        if report is not None:
            hits[path] = report
    misses = [path for path in inputs.paths if path not in hits]
    checked = in_workers(partial(check_keyed, keyed=store.keyed, settlement=settlement), misses,
                         [settings[p] for p in misses], jobs)
    for entry in inputs.entries:
        if isinstance(entry, Problem):
            yield problem_report(entry)
            continue
        path = entry.path
        if path in hits:
            yield replace(hits[path])  # a copy: a path given twice prints twice, and a printed report is emptied
            continue
        key, report = next(checked)
        if key is not None and not report.unreadable:
            store.store(path, key, report)
        yield report
    next(checked, None)  # run the generator to its end, so that a pool of workers is shut down


Row = dict[str, object]
"""A verdict as plain JSON types (str, int, bool, None, lists and dicts of them)."""


def hand_row(verdict: HandVerdict, line: int) -> Row:
    """One hand's verdict as a :data:`Row`: where it is (``index`` in its file, written
    ``number``, ``line``), who played (``players``, ``rules``), how it ended (``winner``'s name,
    ``blocked``, ``valid``, ``errors``, ``actions`` judged) and what it is worth (``scores``, one
    per player in the hand's scoring system; ``None`` when the hand is not scored)."""
    scores = hand_score(verdict).scores
    return {"index": verdict.index, "number": verdict.number, "line": line, "players": list(verdict.players),
            "rules": verdict.rules, "winner": verdict.winner_name, "blocked": verdict.blocked,
            "valid": verdict.valid, "errors": len(verdict.errors), "actions": verdict.actions,
            "scores": None if scores is None else list(scores)}


def _file_row(report: FileReport, hands: list[Row]) -> Row:
    return {"path": report.path, "hands": report.hand_count, "errors": report.errors,
            "warnings": report.count(Severity.WARNING), "penalties": report.penalties,
            "notes": report.count(Severity.INFO) - report.penalties, "unreadable": report.unreadable,
            "verdicts": hands}


def report_row(report: FileReport) -> Row:
    """A checked file's verdict as a :data:`Row`: ``path``, the counts of ``kcref check
    --format json`` (``hands``, ``errors``, ``warnings``, ``penalties``, ``notes``),
    ``unreadable``, and ``verdicts``, one :func:`hand_row` per hand.

    The report must hold its verdicts (checked with ``keep_hands``, the default).
    """
    if len(report.hands) != report.hand_count:
        raise ValueError(f"report_row needs every hand's verdict: {report.path} was checked without keep_hands")
    return _file_row(report, [hand_row(v, line) for v, line in zip(report.hands, report.hand_lines)])


def _ignore(diagnostic: Diagnostic) -> None:
    """Counted, not kept."""


def _none(diagnostic: Diagnostic) -> bool:
    """Keep no diagnostic (each is still counted)."""
    return False


def _open_regular(path: str) -> BinaryIO | str:
    """The regular file at ``path``, open for reading, or why it cannot be read (``cannot read:
    ...``). It is opened without blocking and looked at before it is read: a FIFO would block
    the open until a writer came, and a device might never end."""
    if "\x00" in path:
        return "cannot read: the path holds a NUL byte"
    try:
        flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)
        fd = os.open(path, flags)
    except OSError as exc:
        return cannot_read(exc)
    try:
        mode = os.fstat(fd).st_mode
    except OSError as exc:
        os.close(fd)
        return cannot_read(exc)
    if stat.S_ISREG(mode):
        return os.fdopen(fd, "rb")  # O_NONBLOCK means nothing to a regular file's reads
    os.close(fd)
    if stat.S_ISDIR(mode):
        return cannot_read(IsADirectoryError())
    return f"cannot read: {file_kind(mode)}, not a regular file"


def check_row(path: str) -> Row:
    """Check the log at ``path`` and give its verdict as :func:`report_row` does, in flat memory
    (neither the verdicts nor the diagnostics are kept, only the counts and the rows).

    A plain function of a path to plain data: what a distributed engine maps over many paths
    (``dask.bag.from_sequence(paths).map(check_row)``); see docs/scale.md. Only a regular file is
    read (or ``-``, standard input): a FIFO, a device, a folder or a path holding a NUL byte
    gives the row of a path that cannot be read (``unreadable``, one error, no hands), and no wait.
    """
    hands: list[Row] = []

    def on_hand(verdict: HandVerdict, line: int) -> None:
        hands.append(hand_row(verdict, line))

    if path == "-":
        return _file_row(check_file(path, keep_hands=False, emit=_ignore, keep=_none, on_hand=on_hand), hands)
    opened = _open_regular(path)
    if isinstance(opened, str):
        return _file_row(problem_report(Problem(path, opened)), [])
    with opened:
        sources = SourceLines()
        report = check_items(read_runs(opened, path, sources), path, keep_hands=False, emit=_ignore,
                             sources=sources, on_hand=on_hand, keep=_none)
    return _file_row(report, hands)
