"""``kcref report``: a night, or a season, as one self-contained HTML page.

The page holds the header (event, site, dates, rules from the tags), the standings and games of
``kcref score --format json`` (the same document, parsed back: :func:`kcref.output.score_formats.json_document`
of :func:`kcref.scoring.standings.scoreboard`, hands with errors left out as ``--skip-invalid``
does), each player's running total as an SVG chart, the season statistics
(:mod:`kcref.scoring.season`), the ratings (:mod:`kcref.scoring.ratings`), and every hand with its
lines, diagnostics and a replay (:mod:`kcref.output.replay_steps`, drawn by
:mod:`kcref.output.table_svg`). Nothing is decided here that the referee or the scorer does not
decide.

The page is rendered by Jinja2 with autoescaping from the templates of ``kcref/output/templates``;
the pictures are built by ElementTree (escaped there) and the replay steps go into a
``<script type="application/json">`` escaped for it (:func:`script_json`). Everything from a log is
hostile. Jinja2 and openskill are imported only by this module, which only ``kcref report`` imports.
"""

from __future__ import annotations

import io
import json
import xml.etree.ElementTree as ET
from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from ..engine.carry import ChipCarry
from ..files.inputs import STDIN, Found, Inputs, Problem, display_name, open_input, problem_diagnostic
from ..model.cards import DECK, Card
from ..model.codes import Severity
from ..model.diagnostics import Diagnostic, printable
from ..model.events import Tag
from ..model.status import ExitStatus
from ..model.words import plural
from ..notation.reader import read_stream
from ..notation.sourcelines import SourceLines
from ..referee.grouping import HandRecord
from ..referee.hand_score import chips_paid, hand_score
from ..referee.pipeline import FileReport, check_items
from ..referee.setup_checks import checked_hands
from ..referee.verdict import HandVerdict
from ..scoring.ratings import METHOD, Rating, ratings
from ..scoring.season import Season, cards_left_count, season
from ..scoring.standings import scoreboard
from .replay_steps import HandReplay, hand_replay
from .running_svg import chart_text
from .score_formats import json_document
from .table_svg import TableState, draw, symbols_text

CARD_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
"""A card in the replay data is one character: the card of :data:`kcref.model.cards.DECK` at the
same position (the page's script has the list of card names)."""
CARD_CHAR = {card: CARD_CHARS[i] for i, card in enumerate(DECK)}
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
    file: int
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


class ReportResult(NamedTuple):
    """The page, and the exit status: 0 no errors in the logs, 1 errors (the page is still
    made, showing them), 2 a file that cannot be read."""

    html: str
    status: ExitStatus
    hands: int
    errors: int


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


# --- the replay data ----------------------------------------------------------------------------


def _cards(cards: Iterable[Card]) -> str:
    return "".join(CARD_CHAR[c] for c in cards)


def encode_step(state: TableState, before: dict[str, Any]) -> dict[str, Any]:
    """A step as the page's script reads it, only what changed since ``before`` (updated):
    ``l`` line, ``k`` stock, ``p`` player (-1: nobody), ``c`` piles (card characters, comma
    between piles), ``h`` known cards per seat, ``u`` unknown cards per seat, ``s`` stacks,
    ``o`` pot, ``t`` status, ``n`` note."""
    full = {
        "l": state.line,
        "k": state.stock,
        "p": -1 if state.player is None else state.player,
        "c": ",".join(_cards(p) for p in state.piles),
        "h": ",".join(_cards(s.known) for s in state.seats),
        "u": [s.unknown for s in state.seats],
        "s": [s.stack for s in state.seats] if state.pot is not None else None,
        "o": state.pot,
        "t": state.status,
        "n": state.note,
    }
    step = {k: v for k, v in full.items() if k == "l" or before.get(k, ...) != v}
    before.update(full)
    return step


def encode_replay(record: HandRecord, replay: HandReplay) -> dict[str, Any]:
    before: dict[str, Any] = {}
    return {"names": [printable(n) for n in record.players], "steps": [encode_step(s, before) for s in replay.steps],
            "stop": replay.stop}


def script_json(value: object) -> str:
    """``value`` as JSON that is safe inside ``<script type="application/json">``: no ``<``, ``>``
    or ``&`` (so no ``</script>`` or ``<!--``), and no line or paragraph separator."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    for raw, escaped in (("<", "\\u003c"), (">", "\\u003e"), ("&", "\\u0026"), ("\u2028", "\\u2028"),
                         ("\u2029", "\\u2029")):
        text = text.replace(raw, escaped)
    return text


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
                           f"{cards_left_count(v, seat)}: {text}" if text else "0",
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
                f"f{len(self.files)}h{verdict.index}", len(self.files) - 1, verdict.index, verdict.number,
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


class StatRow(NamedTuple):
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


def page_data(inputs: Inputs) -> tuple[dict[str, Any], _Builder]:
    """Everything the template shows, for the files of ``inputs`` (in the order given)."""
    from markupsafe import Markup

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
    data = {
        "header": _header(builder.files),
        "scores": scores,
        "charts": [Markup(chart_text(r)) for r in board.running],
        "stats": _stat_rows(stats),
        "counted": stats.hands,
        "h2h_names": names,
        "h2h": grid,
        "ratings": rated,
        "rating_method": METHOD,
        "files": builder.files,
        "hand_count": sum(len(f.hands) for f in builder.files),
        "errors": builder.errors,
    }
    return data, builder


def _environment() -> Any:
    import jinja2

    env = jinja2.Environment(loader=jinja2.PackageLoader("kcref.output", "templates"),
                             autoescape=jinja2.select_autoescape(("html", "html.j2", "j2"), default=True),
                             undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True)
    env.filters["printable"] = printable
    return env


def render(data: dict[str, Any], builder: _Builder, title: str | None = None) -> str:
    """The page for ``data`` (:func:`page_data`)."""
    from markupsafe import Markup

    env = _environment()
    blank = TableState(((),) * 8, 0, (), None, "")
    replay = {"cards": [str(c) for c in DECK], "hands": builder.replays}
    event = next((v for k, v in data["header"] if k == "Event"), None)
    return str(env.get_template("report.html.j2").render(
        title=title or event or "Kings in the Corner",
        symbols=Markup(symbols_text()),
        table=Markup(ET.tostring(draw(blank, standalone=False), encoding="unicode")),
        replay_json=Markup(script_json(replay)),
        plural=plural,
        style=Markup(_resource("report.css")),
        script=Markup(_resource("report.js")),
        **data,
    ))


def _resource(name: str) -> str:
    from importlib.resources import files

    return (files("kcref.output") / "templates" / name).read_text(encoding="utf-8")


def build_report(inputs: Inputs, title: str | None = None) -> ReportResult:
    """``kcref report``: the page for the files of ``inputs``, and the exit status."""
    data, builder = page_data(inputs)
    html = render(data, builder, title)
    return ReportResult(html, builder.status, data["hand_count"], builder.errors)
