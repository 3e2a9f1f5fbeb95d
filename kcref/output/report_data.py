"""What ``kcref report``'s page shows, as data: the files, each hand with its lines, diagnostics,
settlement and replay, the standings, the season statistics and the ratings.

The standings and games are the JSON document of ``kcref score --format json``
(:func:`kcref.output.score_formats.json_document` of :func:`kcref.scoring.standings.scoreboard`),
parsed back, so that the two can never differ; hands with errors are left out as ``--skip-invalid``
leaves them out. Each file is checked once (:func:`kcref.referee.pipeline.check_items`: the
verdicts and diagnostics) and read once more for its hands' records (the replays) and the text of
its lines. Nothing is decided here that the referee or the scorer does not decide.
"""

from __future__ import annotations

import io
import json
from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from ..engine.carry import ChipCarry
from ..files.inputs import STDIN, Found, Inputs, Problem, display_name, open_input, problem_diagnostic
from ..model.codes import Severity
from ..model.diagnostics import Diagnostic, printable
from ..model.events import Tag
from ..model.status import ExitStatus
from ..notation.reader import read_stream
from ..notation.sourcelines import SourceLines
from ..referee.grouping import HandRecord
from ..referee.hand_score import chips_paid, hand_score
from ..referee.pipeline import FileReport, check_items
from ..referee.setup_checks import checked_hands
from ..referee.verdict import HandVerdict
from ..scoring.games import RunningTotals
from ..scoring.ratings import METHOD, Rating, ratings
from ..scoring.season import Season, season
from ..scoring.standings import scoreboard
from .replay_steps import HandReplay, encode_replay, hand_replay
from .score_formats import json_document

HEADER_TAGS = ("Event", "Site", "Date", "Round")
"""Tags shown in the header, in this order (the rules and scoring come from the scorer)."""
UNLIMITED = 1 << 60


class LogLine(NamedTuple):
    """A line of a hand as the page lists it, with the diagnostics at that line."""

    number: int
    text: str
    diagnostics: tuple[Diagnostic, ...] = ()
    step: int | None = None
    """The replay step that shows the table after this line, if any."""


class Settled(NamedTuple):
    """One player's end of a hand."""

    name: str
    dealer: bool
    winner: bool
    cards_left: str
    score: int | None
    chips_paid: int | None
    stack: int | None


@dataclass
class HandView:
    """One hand on the page."""

    anchor: str
    """The hand's id in the page (``f2h5``: file 2, hand 5), a link target."""
    index: int
    number: int | None
    rules: str
    dealer: str
    outcome: str
    status: str
    reason: str
    settled: tuple[Settled, ...]
    pot: int | None
    lines: list[LogLine]
    diagnostics: tuple[Diagnostic, ...]
    replay: int
    """The position of the hand's replay in the page's replay data."""
    stop: str

    @property
    def label(self) -> str:
        return f"hand {self.number if self.number is not None else self.index}"

    @property
    def errors(self) -> int:
        return sum(1 for d in self.diagnostics if d.is_error)


@dataclass
class FileView:
    """One log file on the page."""

    path: str
    tags: list[Tag]
    diagnostics: list[Diagnostic] = field(default_factory=list)
    """Diagnostics outside every hand (or all of them, for a file that cannot be read)."""
    preamble: list[LogLine] = field(default_factory=list)
    """The lines before the first hand (tags, comments), with their diagnostics."""
    hands: list[HandView] = field(default_factory=list)
    errors: int = 0
    warnings: int = 0


class StatRow(NamedTuple):
    """A player's line of the season statistics, as shown."""

    name: str
    played: int
    won: int
    win_rate: str
    cards_left: str
    chips_won: int | None
    chips_paid: int | None
    points_won: int | None
    points_paid: int | None
    streak: int


@dataclass
class PageData:
    """Everything the page shows."""

    header: list[tuple[str, str]]
    """(name, value) of the tags shown in the header (:data:`HEADER_TAGS`)."""
    scores: dict[str, Any]
    """The JSON document of ``kcref score --format json``, parsed."""
    running: tuple[RunningTotals, ...]
    stats: list[StatRow]
    counted: int
    """Hands counted in the season statistics and the ratings."""
    h2h_names: list[str]
    h2h: list[list[str]]
    ratings: tuple[Rating, ...]
    rating_method: str
    files: list[FileView]
    replays: list[dict[str, Any]]
    """Each hand's replay (:func:`kcref.output.replay_steps.encode_replay`), in page order."""
    hand_count: int
    errors: int
    status: ExitStatus
    """0 no errors in the logs, 1 errors (the page shows them), 2 a file that cannot be read."""

    @property
    def event(self) -> str | None:
        return next((value for name, value in self.header if name == "Event"), None)


# --- reading the files --------------------------------------------------------------------------


class _Read(NamedTuple):
    report: FileReport
    records: list[HandRecord]
    text: dict[int, str]
    """The text of every line by number (blank lines are not kept: they read as "")."""
    last_line: int


def _read(path: str, data: bytes) -> _Read:
    """Check the log once for its report (verdicts and diagnostics), and read it once more for its
    hands' records and the text of every line."""
    kept = SourceLines()
    report = check_items(read_stream(io.BytesIO(data), path, keep=kept), path, sources=kept)
    sources = SourceLines(UNLIMITED, UNLIMITED)
    records = [item for item in checked_hands(read_stream(io.BytesIO(data), path, keep=sources), path)
               if isinstance(item, HandRecord)]
    text = {n: line for part in sources.parts for n, line in part.lines.items()}
    return _Read(report, records, text, max(text, default=0))


def _data(path: str) -> bytes | Diagnostic:
    """The bytes of the log at ``path`` (``-``: standard input), or why it cannot be read."""
    opened = open_input(path)
    if isinstance(opened, Diagnostic):
        return opened
    try:
        return opened.read()
    except OSError as exc:
        return Diagnostic(display_name(path), 0, 0, Severity.ERROR, "KC001", f"cannot read the file: {exc.strerror}")
    finally:
        if path != STDIN:
            opened.close()


# --- the hands ----------------------------------------------------------------------------------


def _outcome(v: HandVerdict) -> str:
    if not v.players:
        return "not refereed: its set-up has errors"
    if v.winner is not None:
        return f"{v.players[v.winner]} went out"
    if v.blocked:
        return "blocked: nobody could play"
    if v.stopped_at is not None:
        return f"stopped at line {v.stopped_at}"
    return "unfinished"


def _settled(v: HandVerdict) -> tuple[Settled, ...]:
    if not v.players or not v.cards_left:
        return ()
    scores = hand_score(v).scores
    out = []
    for seat, name in enumerate(v.players):
        left = v.cards_left[seat]
        text = " ".join(str(c) for c in left) if isinstance(left, tuple) else f"{left} unknown"
        out.append(Settled(name, seat == v.dealer, seat == v.winner,
                           f"{v.cards_left_count(seat)}: {text}" if text else "0",
                           scores[seat] if scores is not None else None, chips_paid(v, seat),
                           v.stacks_end[seat] if v.stacks_end is not None else None))
    return tuple(out)


def _hand_lines(read: _Read, start: int, end: int, diagnostics: Sequence[Diagnostic],
                steps: dict[int, int]) -> list[LogLine]:
    by_line: dict[int, list[Diagnostic]] = {}
    for d in diagnostics:
        by_line.setdefault(d.line, []).append(d)
    lines = [LogLine(n, printable(read.text.get(n, "")), tuple(by_line.get(n, ())), steps.get(n))
             for n in range(start, end + 1)]
    while len(lines) > 1 and not lines[-1].text.strip() and not lines[-1].diagnostics:
        lines.pop()
    return lines


class _Builder:
    """The page's data, file by file."""

    def __init__(self) -> None:
        self.files: list[FileView] = []
        self.reports: list[FileReport] = []
        self.verdicts: list[HandVerdict] = []
        self.replays: list[dict[str, Any]] = []
        self.status = ExitStatus.OK
        self.errors = 0

    def problem(self, path: str, diag: Diagnostic) -> None:
        self.files.append(FileView(path, [], [diag], errors=1))
        self.status = ExitStatus.USAGE
        self.errors += 1

    def add(self, path: str, read: _Read) -> None:
        report = read.report
        self.reports.append(report)
        view = FileView(path, report.tags, errors=report.errors,
                        warnings=report.count(Severity.WARNING))
        self.files.append(view)
        self.errors += report.errors
        if report.unreadable:
            self.status = ExitStatus.USAGE
            view.diagnostics = list(report.diagnostics)
            return
        if report.errors:
            self.status = max(self.status, ExitStatus.FOUND)
        starts = list(report.hand_lines)
        first = starts[0] if starts else read.last_line + 1
        before = [d for d in report.diagnostics if d.line < first]
        view.preamble = _hand_lines(read, 1, first - 1, before, {}) if first > 1 else []
        shown = {d for line in view.preamble for d in line.diagnostics}
        view.diagnostics = [d for d in before if d not in shown]
        carry = ChipCarry()
        by_index = {r.index: r for r in read.records}
        lines = [d.line for d in report.diagnostics]  # in line order
        for i, (verdict, start) in enumerate(zip(report.hands, starts)):
            end = starts[i + 1] - 1 if i + 1 < len(starts) else read.last_line
            own = tuple(report.diagnostics[bisect_left(lines, start):bisect_right(lines, end)])
            record = by_index.get(verdict.index)
            replay = HandReplay((), "")
            if record is not None:
                carry.before(record.options)
                replay = hand_replay(record, carry.stacks, carry.pot)
                if verdict.valid:
                    carry.after(record.options, verdict.players, verdict.stacks_end, verdict.pot_left)
            steps = {s.line: n for n, s in enumerate(replay.steps) if s.line is not None}
            self.replays.append(encode_replay(record, replay) if record is not None else {"names": [], "steps": [],
                                                                                           "stop": replay.stop})
            self.verdicts.append(verdict)
            view.hands.append(HandView(
                f"f{len(self.files)}h{verdict.index}", verdict.index, verdict.number,
                verdict.rules, verdict.players[verdict.dealer] if verdict.players else "", _outcome(verdict),
                "", "", _settled(verdict), verdict.pot if verdict.stacks_end is not None else None,
                _hand_lines(read, start, end, own, steps), own, len(self.replays) - 1, replay.stop))


def _header(files: Sequence[FileView]) -> list[tuple[str, str]]:
    values: dict[str, list[str]] = {name: [] for name in HEADER_TAGS}
    for f in files:
        for tag in f.tags:
            if tag.name in values and tag.value not in values[tag.name]:
                values[tag.name].append(tag.value)
    out = []
    for name, found in values.items():
        if not found:
            continue
        if name == "Date" and len(found) > 1:
            out.append(("Dates", f"{min(found)} to {max(found)}"))
        else:
            out.append((name, ", ".join(found)))
    return out


def _stat_rows(s: Season) -> list[StatRow]:
    return [StatRow(p.name, p.hands_played, p.hands_won, f"{p.win_rate:.0%}", f"{p.average_cards_left:.1f}",
                    p.chips_won if p.chip_hands else None, p.chips_paid if p.chip_hands else None,
                    p.points_won if p.point_hands else None, p.points_paid if p.point_hands else None,
                    p.longest_streak)
            for p in s.players.values()]


def _head_to_head(s: Season) -> tuple[list[str], list[list[str]]]:
    names = list(s.players)
    grid = []
    for a in names:
        row = []
        for b in names:
            if a == b:
                row.append("")
                continue
            n, ahead, behind = s.versus(a, b)
            row.append(f"{ahead}–{behind}" if n else "")
        grid.append(row)
    return names, grid


def page_data(inputs: Inputs) -> PageData:
    """Everything the page shows, for the files of ``inputs`` (in the order given)."""
    builder = _Builder()
    for entry in inputs.entries:
        if isinstance(entry, Problem):
            builder.problem(entry.path, problem_diagnostic(entry))
        elif isinstance(entry, Found):
            name = display_name(entry.path)
            content = _data(entry.path)
            if isinstance(content, Diagnostic):
                builder.problem(name, content)
            else:
                builder.add(name, _read(name, content))
    board = scoreboard(builder.reports)
    scores = json.loads(json_document(board))
    rows = {(h["path"], h["index"]): h for h in scores["hands"]}
    for f in builder.files:
        for hand in f.hands:
            row = rows.get((f.path, hand.index))
            if row is not None:
                hand.status, hand.reason = row["status"], row["reason"] or ""
    stats = season(builder.verdicts)
    names, grid = _head_to_head(stats)
    rated: tuple[Rating, ...] = ratings(builder.verdicts)
    return PageData(_header(builder.files), scores, board.running, _stat_rows(stats), stats.hands, names, grid, rated,
                    METHOD, builder.files, builder.replays, sum(len(f.hands) for f in builder.files), builder.errors,
                    builder.status)


