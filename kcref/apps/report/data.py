"""What ``kcref report``'s page shows, as data: the files, each hand with its lines, diagnostics,
settlement and replay, the standings, the season statistics and the ratings.

The logs are read once each, as streams, and judged hand by hand as ``kcref score
--skip-invalid`` judges them (:class:`kcref.scoring.standings.HandSorter` and
:class:`~kcref.scoring.standings.Tally`: the standings and games are the JSON document of ``kcref
score --format json``, parsed back, so that the two can never differ). Nothing is kept of a hand
once it is shown: each hand, with its lines, its diagnostics and its replay, goes to a *sink* (the
page's writer, :mod:`kcref.apps.report.page`) as soon as its diagnostics are all in, and the
standings, statistics and ratings are counted as the hands go by. So memory holds a hand or two,
whatever the size of the logs. Nothing is decided here that the referee or the scorer does not
decide.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, BinaryIO, NamedTuple

from ...files.inputs import STDIN, Found, Inputs, Problem, display_name, open_input, problem_diagnostic
from ...model.codes import UNREADABLE, Severity
from ...model.diagnostics import Diagnostic, printable
from ...model.events import Tag
from ...model.status import ExitStatus
from ...notation.reader import read_runs
from ...notation.sourcelines import SourceLines
from ...referee.grouping import HandRecord
from ...referee.hand_score import chips_paid, hand_score
from ...referee.pipeline import check_items
from ...referee.verdict import HandVerdict
from ...render.replay_steps import HandReplay, encode_replay, replayed_hand
from ...render.score_formats import json_document
from ...scoring.games import RunningTotals
from ...scoring.ratings import METHOD, Rating, Ratings
from ...scoring.season import Season
from ...scoring.standings import HandSorter, Judged, Tally

HEADER_TAGS = ("Event", "Site", "Date", "Round")
"""Tags shown in the header, in this order (the rules and scoring come from the scorer)."""


class LogLine(NamedTuple):
    """A line of a hand as the page lists it, with the diagnostics at that line."""

    number: int
    text: str
    diagnostics: tuple[Diagnostic, ...] = ()
    step: int | None = None
    """The replay step that shows the table after this line, if any."""


class SettlementRow(NamedTuple):
    """One player's row in a hand's settlement: how the hand ended for them."""

    name: str
    dealer: bool
    winner: bool
    cards_left: str
    score: int | None
    chips_paid: int | None
    stack: int | None


class Listing(NamedTuple):
    """Lines of a log as the page lists them: each with its diagnostics; from line ``clipped`` on
    (when a hand's text is over :data:`kcref.notation.sourcelines.HAND_BUDGET`) the lines are
    not listed, and ``unlisted`` holds the diagnostics of the lines not listed."""

    lines: list[LogLine]
    clipped: int | None = None
    unlisted: tuple[Diagnostic, ...] = ()


@dataclass
class HandView:
    """One hand on the page."""

    file: int
    """The number of the hand's file on the page (from 1)."""
    anchor: str
    """The hand's id in the page (``f2h5``: file 2, hand 5), a link target."""
    index: int
    number: int | None
    rules: str
    dealer: str
    outcome: str
    status: str
    reason: str
    settlement: tuple[SettlementRow, ...]
    pot: int | None
    listing: Listing
    diagnostics: tuple[Diagnostic, ...]
    replay: dict[str, Any]
    """The hand's replay as the page's script reads it (:func:`kcref.render.replay_steps.encode_replay`)."""
    stop: str

    @property
    def label(self) -> str:
        return f"hand {self.number if self.number is not None else self.index}"

    @property
    def errors(self) -> int:
        return sum(1 for d in self.diagnostics if d.is_error)


class Preamble(NamedTuple):
    """The lines of a file before its first hand (tags, comments), or all of them in a file
    without a hand, with their diagnostics."""

    file: int
    listing: Listing
    whole: bool = False
    """The file holds no hand: these are all its lines."""


Part = Preamble | HandView
"""What the page shows of a file, in order: its preamble (when it has one), then its hands."""
Sink = Callable[[Part], None]
"""Takes each part of the page as soon as it is made (and keeps what it needs of it)."""


@dataclass
class FileView:
    """One log file on the page (its parts went to the sink)."""

    number: int
    path: str
    tags: list[Tag]
    diagnostics: list[Diagnostic] = field(default_factory=list)
    """Diagnostics of the file as a whole (at no line: a file that cannot be opened or read)."""
    hands: int = 0
    errors: int = 0
    warnings: int = 0
    unreadable: bool = False
    """The file could not be read as text to its end (KC001-KC003): the page shows what was read."""
    unread: list[Diagnostic] = field(default_factory=list)
    """The diagnostics that say why (:data:`kcref.model.codes.UNREADABLE`), also shown with their line."""


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
    """Everything the page shows but the parts of the files (which went to the sink)."""

    header: list[tuple[str, str]]
    """(name, value) of the tags shown in the header (:data:`HEADER_TAGS`)."""
    scores: dict[str, Any]
    """The JSON document of ``kcref score --format json``, parsed, but for its ``hands``: the
    page shows each hand's status with the hand."""
    running: tuple[RunningTotals, ...]
    stats: list[StatRow]
    counted: int
    """Hands counted in the season statistics and the ratings."""
    h2h_names: list[str]
    h2h: list[list[str]]
    ratings: tuple[Rating, ...]
    rating_method: str
    files: list[FileView]
    hand_count: int
    errors: int
    status: ExitStatus
    """0 no errors in the logs, 1 errors (the page shows them), 2 a file that cannot be read."""

    @property
    def event(self) -> str | None:
        return next((value for name, value in self.header if name == "Event"), None)


# --- the text of the lines --------------------------------------------------------------------


class _PageLines:
    """The text of a file's lines as the reader hands them on: to ``check``, the checker's own
    (released hand by hand as the hands are judged: the caret display, suppressions), and kept
    in ``page`` until each hand is shown and released (:meth:`release`), at most
    :data:`~kcref.notation.sourcelines.HAND_BUDGET` of text a hand.

    The reader calls only :meth:`add_lines` and :meth:`hand` (a
    :class:`~kcref.notation.sourcelines.LineKeeper`)."""

    def __init__(self, check: SourceLines) -> None:
        self.check = check
        self.page = SourceLines()
        self.last = 0
        """The last line with text (blank lines are not handed on)."""
        self.clipped: list[int] = []
        """The first line not kept of each hand over its budget."""

    def add_lines(self, lines: dict[int, str]) -> None:
        if not lines:
            return
        self.check.add_lines(lines)
        self.page.add_lines(dict(lines))  # a copy: the checker may keep and extend the dict it is given
        self.last = max(self.last, next(reversed(lines)))
        part = self.page.parts[-1]
        missing = next((n for n in lines if n not in part.lines), None)
        if missing is not None and not any(part.start <= c <= missing for c in self.clipped):
            self.clipped.append(missing)

    def hand(self, lineno: int) -> None:
        self.check.hand(lineno)
        self.page.hand(lineno)

    def release(self, hand_line: int) -> None:
        self.page.release(hand_line)
        self.clipped = [c for c in self.clipped if c > hand_line]

    def get(self, lineno: int) -> str:
        """The text of line ``lineno``, as kept for the page."""
        return self.page.get(lineno)

    def clip(self, start: int, end: int) -> int | None:
        """The first line from ``start`` to ``end`` that was not kept for being over budget."""
        return min((c for c in self.clipped if start <= c <= end), default=None)


def _listing(kept: _PageLines, start: int, end: int, diagnostics: Sequence[Diagnostic],
             steps: dict[int, int]) -> Listing:
    """Lines ``start`` to ``end`` with their diagnostics (blank lines at the end left off)."""
    clip = kept.clip(start, end)
    last = end if clip is None else clip - 1
    by_line: dict[int, list[Diagnostic]] = {}
    unlisted: list[Diagnostic] = []
    for d in diagnostics:
        if start <= d.line <= last:
            by_line.setdefault(d.line, []).append(d)
        else:
            unlisted.append(d)
    lines = [LogLine(n, printable(kept.get(n)), tuple(by_line.get(n, ())), steps.get(n))
             for n in range(start, last + 1)]
    while len(lines) > 1 and not lines[-1].text.strip() and not lines[-1].diagnostics:
        lines.pop()
    return Listing(lines, clip, tuple(unlisted))


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


def _settlement(v: HandVerdict) -> tuple[SettlementRow, ...]:
    if not v.players or not v.cards_left:
        return ()
    scores = hand_score(v).scores
    out = []
    for seat, name in enumerate(v.players):
        left = v.cards_left[seat]
        text = " ".join(str(c) for c in left) if isinstance(left, tuple) else f"{left} unknown"
        out.append(SettlementRow(name, seat == v.dealer, seat == v.winner,
                           f"{v.cards_left_count(seat)}: {text}" if text else "0",
                           scores[seat] if scores is not None else None, chips_paid(v, seat),
                           v.stacks_end[seat] if v.stacks_end is not None else None))
    return tuple(out)


class _Held(NamedTuple):
    """A hand judged whose diagnostics may not all be in yet: it is shown once the next hand
    is judged, or the file ends."""

    verdict: HandVerdict
    line: int
    judged: Judged
    record: HandRecord
    replay: HandReplay


class _Totals:
    """What the page counts across the files, hand by hand: the standings, the season, the ratings."""

    def __init__(self) -> None:
        self.tally = Tally(keep_rows=False)
        self.season = Season()
        self.ratings = Ratings()


class _FileReading:
    """One log read and judged as a stream: each hand goes to the sink once its diagnostics are
    all in (the checker hands a hand's diagnostics on by the time the next hand is judged)."""

    def __init__(self, view: FileView, totals: _Totals, sink: Sink) -> None:
        self.view = view
        self.totals = totals
        self.sink = sink
        self.sorter = HandSorter()
        self.pending: list[Diagnostic] = []
        """Diagnostics not yet shown, in the order the checker hands them on (line order)."""
        self.held: _Held | None = None
        self.kept = _PageLines(SourceLines())
        self.judged: tuple[HandRecord, HandReplay] | None = None
        """The hand judged last, and its replay: its verdict comes next."""

    def read(self, stream: BinaryIO) -> None:
        """Read, judge and show the log of ``stream`` (its path: ``view.path``)."""
        path, check = self.view.path, self.kept.check
        report = check_items(read_runs(stream, path, self.kept), path, keep_hands=False, emit=self._emit,
                             sources=check, on_hand=self._on_hand, judge=self._judge)
        self._show(None)
        view = self.view
        view.tags, view.hands = report.tags, report.hand_count
        view.errors, view.warnings = report.errors, report.count(Severity.WARNING)
        view.unreadable = report.unreadable
        self.totals.tally.end_night(path, report.tags, report.hand_count, self.sorter.ignored())

    def _judge(self, record: HandRecord, stacks: Mapping[str, int] | None, pot: int) -> HandVerdict:
        """The referee's verdict on a hand, and its steps for the replay, from one replay."""
        verdict, replay = replayed_hand(record, stacks, pot)
        self.judged = (record, replay)
        return verdict

    def _emit(self, d: Diagnostic) -> None:
        if d.is_error:
            self.sorter.error(d)
        if d.code in UNREADABLE:
            self.view.unread.append(d)
        d = d.with_source("")  # the page shows no caret line: its text is not kept twice
        if d.line <= 0:
            self.view.diagnostics.append(d)
        else:
            self.pending.append(d)

    def _on_hand(self, verdict: HandVerdict, line: int) -> None:
        totals = self.totals
        judged = self.sorter.judge(verdict, line)
        totals.tally.add(verdict, line, judged)
        totals.season.add(verdict)
        totals.ratings.add(verdict)
        assert self.judged is not None and self.judged[0].index == verdict.index, "each verdict follows its judging"
        record, replay = self.judged
        self._show(line)
        self.held = _Held(verdict, line, judged, record, replay)

    def _take(self, before: int | None) -> list[Diagnostic]:
        """The pending diagnostics of the lines before line ``before`` (all, without it)."""
        pending = self.pending
        if before is None:
            taken, self.pending = pending, []
            return taken
        taken = [d for d in pending if d.line < before]
        if taken:
            self.pending = [d for d in pending if d.line >= before]
        return taken

    def _show(self, next_hand: int | None) -> None:
        """Show what comes before the hand starting at line ``next_hand`` (None: the end of the
        file): the hand held, or the file's preamble."""
        own = self._take(next_hand)
        kept = self.kept
        end = next_hand - 1 if next_hand is not None else max(kept.last, max((d.line for d in own), default=0))
        held = self.held
        if held is None:
            if end >= 1:
                self.sink(Preamble(self.view.number, _listing(kept, 1, end, own, {}), next_hand is None))
            kept.release(end)
            return
        self.held = None
        verdict, replay = held.verdict, held.replay
        steps = {line: n for n, line in enumerate(replay.lines) if line is not None}
        self.sink(HandView(
            self.view.number, f"f{self.view.number}h{verdict.index}", verdict.index, verdict.number, verdict.rules,
            verdict.players[verdict.dealer] if verdict.players else "", _outcome(verdict), held.judged.status,
            held.judged.reason, _settlement(verdict), verdict.pot if verdict.stacks_end is not None else None,
            _listing(kept, held.line, max(end, held.line), own, steps), tuple(own),
            encode_replay(held.record, replay), replay.stop))
        kept.release(held.line)


# --- the page -----------------------------------------------------------------------------------


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


def _discard(part: Part) -> None:
    """A sink that keeps nothing."""


def page_data(inputs: Inputs, sink: Sink = _discard) -> PageData:
    """Everything the page shows, for the files of ``inputs`` (in the order given): each file's
    parts go to ``sink`` as they are made, the rest is returned once every file is read."""
    totals = _Totals()
    files: list[FileView] = []
    status, errors = ExitStatus.OK, 0
    for entry in inputs.entries:
        if not isinstance(entry, (Found, Problem)):
            continue
        view = FileView(len(files) + 1, display_name(entry.path), [])
        files.append(view)
        opened = open_input(entry.path) if isinstance(entry, Found) else problem_diagnostic(entry)
        if isinstance(opened, Diagnostic):
            view.diagnostics.append(opened.with_path(view.path))
            view.unread.append(view.diagnostics[-1])
            view.errors = 1
            status = ExitStatus.USAGE
        else:
            try:
                _FileReading(view, totals, sink).read(opened)
            finally:
                if entry.path != STDIN:
                    opened.close()
            if view.unreadable:
                status = ExitStatus.USAGE
            elif view.errors:
                status = max(status, ExitStatus.FOUND)
        errors += view.errors
    board = totals.tally.finish()
    # Parsed without the hands' rows (each hand shows its own status): all of them for a log of
    # hands left out would cost what the page is built not to hold.
    scores = json.loads(json_document(replace(board, rows=())))
    scores["notes"] = board.notes()
    del scores["hands"]
    stats = totals.season
    names, grid = _head_to_head(stats)
    return PageData(_header(files), scores, board.running, _stat_rows(stats), stats.hands, names, grid,
                    totals.ratings.result(), METHOD, files, sum(f.hands for f in files), errors, status)
