"""``kcref score``: referee every file, then total the scores across hands, games and nights.

``score_paths`` is the whole command as one function: it returns what to print and the exit
status, so that the command line only parses arguments and prints. It streams: each hand is
counted as soon as it is judged and no verdict is kept, and the rows of the views that list
every hand (``--by hand``, JSON) go to a temporary file; the output is made as it is written
(``ScoreResult.out_chunks``). So memory stays bounded however long the logs. When files are
refused for their errors, the first :data:`SHOWN_ERRORS` are printed and the rest counted.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import NamedTuple

from ..files.inputs import Found, Inputs, Problem, problem_diagnostic, resolve
from ..model.diagnostics import Diagnostic
from ..model.status import ExitStatus
from ..model.words import plural
from ..referee.pipeline import Configs, FileReport, check_file
from ..referee.verdict import HandVerdict
from ..render.cells import shell_path, terminal, terminal_diagnostic
from ..render.diagnostic_lines import format_text
from ..render.score_formats import lists_every_hand, render_scores
from ..scoring.standings import HandSorter, Scoreboard, Tally, scoreboard

SHOWN_ERRORS = 100
"""At most this many errors per kind are printed when files are refused (``kcref check`` shows
them all)."""


class ScoreResult(NamedTuple):
    """What ``kcref score`` prints on standard output and standard error, and its exit status.

    The output is made as it is read: write ``out_chunks`` then ``err_chunks`` piece by piece
    (each pass makes it anew); ``out`` and ``err`` join it all."""

    out_chunks: Iterable[str]
    err_chunks: Iterable[str]
    status: ExitStatus
    board: Scoreboard | None = None

    @property
    def out(self) -> str:
        """All of standard output."""
        return "".join(self.out_chunks)

    @property
    def err(self) -> str:
        """All of standard error."""
        return "".join(self.err_chunks)


class Refusals:
    """The errors of the files as they come: the first ones kept as printable text, the rest
    only counted. A file that cannot be read is refused whatever the options (status 2)."""

    def __init__(self) -> None:
        self.shown: list[str] = []
        self.count = 0
        self.bad: list[str] = []
        self.unreadable: list[str] = []
        self.unreadable_count = 0
        self._file: list[str] = []
        self._file_count = 0

    def error(self, d: Diagnostic) -> None:
        """Take an error of the file being read."""
        self._file_count += 1
        if len(self._file) < SHOWN_ERRORS:
            self._file.append(format_text(terminal_diagnostic(d)) + "\n")

    def end_file(self, path: str, unreadable: bool) -> None:
        """The file at ``path`` is read; ``unreadable``: it could not be read as text."""
        if unreadable:
            self.unreadable += self._file[:SHOWN_ERRORS - len(self.unreadable)]
            self.unreadable_count += self._file_count
        elif self._file_count:
            self.shown += self._file[:SHOWN_ERRORS - len(self.shown)]
            self.count += self._file_count
            self.bad.append(path)
        self._file, self._file_count = [], 0

    def refused(self, skip_invalid: bool) -> ScoreResult | None:
        """What to print when the files are refused, or None to score them."""
        if self.unreadable_count:
            err = "".join(self.unreadable)
            if self.unreadable_count > len(self.unreadable):
                err += f"kcref score: {self.unreadable_count - len(self.unreadable)} more errors not shown.\n"
            return ScoreResult((), (err,), ExitStatus.USAGE)
        if not self.count or skip_invalid:
            return None
        shown = "" if self.count == len(self.shown) else f"the first {len(self.shown)} are shown above; "
        names = ", ".join(terminal(p) for p in self.bad)
        command = terminal(" ".join(shell_path(p) for p in self.bad))
        err = "".join(self.shown)
        err += (f"kcref score: {plural(self.count, 'error')} in {names}; {shown}"
                f"'kcref check {command}' shows them with every warning and note. "
                f"Fix them, or use --skip-invalid to score the other hands.\n")
        return ScoreResult((), (err,), ExitStatus.FOUND)


def _scored(board: Scoreboard, by: str, fmt: str, chart: bool, ascii_only: bool) -> ScoreResult:
    drawn = ""
    if chart:
        from ..render.chart import chart as draw_chart

        drawn = draw_chart(board, ascii_only)
    rendered = render_scores(board, by, fmt, drawn)
    return ScoreResult(rendered.out, rendered.err, ExitStatus.OK, board)


def score_reports(reports: Sequence[FileReport], by: str = "player", fmt: str = "simple",
                  chart: bool = False, ascii_only: bool = False, skip_invalid: bool = False) -> ScoreResult:
    """Score checked files (their verdicts and diagnostics kept): refuse unreadable files
    (status 2) and, unless ``skip_invalid``, files with errors (status 1, the errors on standard
    error); else render_scores the scoreboard."""
    refusals = Refusals()
    for report in reports:
        for d in report.diagnostics:
            if d.is_error:
                refusals.error(d)
        refusals.end_file(report.path, report.unreadable)
    refused = refusals.refused(skip_invalid)
    if refused is not None:
        return refused
    return _scored(scoreboard(reports), by, fmt, chart, ascii_only)


class _Streamed:
    """Checks files one by one, handing each error and each verdict on as it comes."""

    def __init__(self, tally: Tally, skip_invalid: bool, configs: Configs | None = None) -> None:
        self.configs = configs
        self.tally: Tally | None = tally
        self.skip_invalid = skip_invalid
        self.refusals = Refusals()
        self.sorter = HandSorter()

    def emit(self, d: Diagnostic) -> None:
        if not d.is_error:
            return
        self.refusals.error(d)
        if self.skip_invalid:
            self.sorter.error(d)
        else:
            self.tally = None  # the files will be refused: nothing more to count

    def on_hand(self, verdict: HandVerdict, line: int) -> None:
        if self.tally is not None:
            self.tally.add(verdict, line, self.sorter.judge(verdict, line))

    def file(self, path: str) -> None:
        self.sorter = HandSorter()
        report = check_file(path, keep_hands=False, emit=self.emit, on_hand=self.on_hand,
                            config=None if self.configs is None else self.configs(path))
        self.refusals.end_file(report.path, report.unreadable)
        if self.tally is not None:
            self.tally.end_night(report.path, report.tags, report.hand_count, self.sorter.ignored())


def score_inputs(inputs: Inputs, by: str = "player", fmt: str = "simple", chart: bool = False,
                 ascii_only: bool = False, skip_invalid: bool = False, configs: Configs | None = None) -> ScoreResult:
    """``kcref score``: check every input in order (see :func:`kcref.files.inputs.resolve`), then score
    (``configs``: each file's configuration, for the rules and options of logs without those tags).

    Verdicts are counted as they come and not kept; rows per hand are kept, in a temporary
    file, only where the output lists every hand (``by="hand"``, JSON), running totals only for
    the chart. A path that could not be read is refused with the others that cannot (status 2).
    """
    streamed = _Streamed(Tally(keep_rows=lists_every_hand(by, fmt), keep_running=chart), skip_invalid, configs)
    for entry in inputs.entries:
        if isinstance(entry, Found):
            streamed.file(entry.path)
        elif isinstance(entry, Problem):
            streamed.refusals.error(problem_diagnostic(entry))
            streamed.refusals.end_file(entry.path, True)
    refused = streamed.refusals.refused(skip_invalid)
    if refused is not None:
        return refused
    assert streamed.tally is not None
    return _scored(streamed.tally.finish(), by, fmt, chart, ascii_only)


def score_paths(paths: Sequence[str], by: str = "player", fmt: str = "simple", chart: bool = False,
                ascii_only: bool = False, skip_invalid: bool = False) -> ScoreResult:
    """:func:`score_inputs` of files, folders (searched for logs) and ``-`` (standard input).

    Raises :class:`kcref.files.inputs.UsageProblem` for ``-`` given twice or a folder with no log.
    """
    return score_inputs(resolve(paths), by, fmt, chart, ascii_only, skip_invalid)
