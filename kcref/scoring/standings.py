"""Standings across hands and nights: what ``kcref score`` computes.

The refereed files are taken in the order given (a night is one file) and their hands in file
order. Each hand is scored in its own scoring system (``kcref.scoring``), left out when it has
errors, or not scored when it is unfinished or its score depends on cards nobody recorded.
Scored hands are grouped into games (:mod:`kcref.scoring.games` says how games end and who
wins them). Points in the standings are summed over all scored hands, per scoring system.

The scoreboard is built hand by hand (:class:`Tally`): `kcref score` hands it each verdict as it
is judged and keeps no verdict, so memory stays flat however long the logs. The rows of the hands
(every hand for the views that list them, ``--by hand`` and JSON; else only those left out or not
scored, for the notes) go to a temporary file (:class:`HandRows`), read back as the output is
written.
"""

from __future__ import annotations

import bisect
from array import array
from collections.abc import Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, NamedTuple, TypeVar

from ..engine.carry import ChipCarry
from ..files.spool import Record, Spool
from ..model.codes import UNREADABLE
from ..model.diagnostics import Diagnostic
from ..model.events import Tag
from ..model.options import Options
from ..model.systems import ScoringSystem
from ..referee.hand_score import hand_score
from ..referee.pipeline import FileReport
from ..referee.verdict import HandVerdict
from .games import Game, GameSoFar, RunningTotals, Series

TAINTING = frozenset({"KC105", "KC201", "KC202", "KC203", "KC204", "KC206"})
"""Errors in tag lines: the tags in force for the hands after them are in doubt, so with
``--skip-invalid`` those hands are left out too."""

SCORED, LEFT_OUT, NOT_SCORED = "scored", "left out", "not scored"

_T = TypeVar("_T")


@dataclass(frozen=True, slots=True)
class Night:
    """One file: its path, the Date and Event tags it holds, how many hands, and what its scored
    hands add up to."""

    path: str
    date: str | None
    event: str | None
    hands: int
    scored: int = 0
    """Hands of this file that were scored."""
    games_over: int = 0
    """Games whose last hand is in this file."""
    points: Mapping[tuple[ScoringSystem, str], int] = field(default_factory=dict)
    """Points scored in this file per scoring system and player (players of a scored hand only)."""


class HandRow(NamedTuple):
    """One hand of the files, scored or not, with the running totals after it."""

    night: int
    """Index of the hand's file in ``Scoreboard.nights``."""
    path: str
    index: int  # type: ignore[assignment]  # the hand's position in its file; shadows tuple.index, unused here
    number: int | None
    line: int
    players: tuple[str, ...]
    rules: str
    options: Options
    winner: str | None
    blocked: bool
    status: str
    """``scored``, ``left out`` (it has errors) or ``not scored`` (unfinished, unknown cards)."""
    reason: str = ""
    """Why it is left out or not scored."""
    scores: tuple[int, ...] | None = None
    """Per player (in ``players`` order), in the hand's scoring system."""
    totals: tuple[int, ...] | None = None
    """Per player, the running total of points in this scoring system after this hand (what the
    standings add up)."""
    game_totals: tuple[int, ...] | None = None
    """Per player, the total in the hand's game so far."""
    game: int | None = None
    game_over: bool = False
    """This hand ended its game."""

    @property
    def scoring(self) -> ScoringSystem:
        return self.options.scoring

    @property
    def label(self) -> str:
        """``night.log:12 hand 3``: where the hand starts, and its number (or position)."""
        return f"{self.path}:{self.line} hand {self.number if self.number is not None else self.index}"


class HandRows(Collection[HandRow]):
    """Hand rows kept in a temporary file (:class:`kcref.files.spool.Spool`), not in memory; read back
    in order as often as needed.

    The values that recur every hand (paths, players, rules, options) are written as numbers
    into a table kept in memory. A row's ``game_over`` is set after it is written (a game can
    end with a later hand, a change of system or the night): :meth:`end_game` records it.
    """

    def __init__(self, batch: int | None = None) -> None:
        self._spool = Spool(batch)
        self._objects: list[object] = []
        self._ids: dict[object, int] = {}
        self._ends = array("q")
        """The positions of the rows that ended their game, ascending."""

    def _id(self, value: object) -> int:
        found = self._ids.get(value)
        if found is None:
            found = self._ids[value] = len(self._objects)
            self._objects.append(value)
        return found

    def append(self, row: HandRow) -> int:
        """Write a row at the end; its position."""
        self._spool.append((row.night, self._id(row.path), row.index, row.number, row.line, self._id(row.players),
                            self._id(row.rules), self._id(row.options), row.winner, row.blocked, row.status,
                            row.reason, row.scores, row.totals, row.game_totals, row.game, row.game_over))
        return len(self._spool) - 1

    def end_game(self, position: int) -> None:
        """The row at ``position`` (the latest to end a game so far) ended its game."""
        self._ends.append(position)

    def _row(self, record: Record, over: bool) -> HandRow:
        r: Any = record  # the values written by append, in its order
        objects: Any = self._objects
        return HandRow(r[0], objects[r[1]], r[2], r[3], r[4], objects[r[5]], objects[r[6]], objects[r[7]], r[8],
                       r[9], r[10], r[11], r[12], r[13], r[14], r[15], over or r[16])

    def __iter__(self) -> Iterator[HandRow]:
        ends, e = self._ends, 0
        for position, record in enumerate(self._spool):
            over = e < len(ends) and ends[e] == position
            e += over
            yield self._row(record, over)

    def __len__(self) -> int:
        return len(self._spool)

    @property
    def in_memory(self) -> int:
        """How many rows are held in memory (the others are in the file)."""
        return self._spool.in_memory

    @property
    def on_disk(self) -> bool:
        """Some rows were written to the file."""
        return self._spool.on_disk

    def __contains__(self, item: object) -> bool:
        return any(row == item for row in self)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, HandRows):
            return NotImplemented
        return len(self) == len(other) and all(a == b for a, b in zip(self, other))

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"HandRows({len(self)} rows)"


@dataclass(frozen=True, slots=True)
class Standing:
    """One player's line in the standings."""

    rank: int
    name: str
    points: tuple[tuple[ScoringSystem, int], ...]
    """Points per scoring system played, in the order the systems first appear."""
    hands_played: int
    hands_won: int
    games_won: int

    def points_in(self, scoring: ScoringSystem) -> int | None:
        return dict(self.points).get(scoring)


@dataclass(frozen=True, slots=True)
class RuleSet:
    """A preset and options in force for some scored hands."""

    rules: str
    options: Options
    hands: int


@dataclass(frozen=True)
class Scoreboard:
    """Everything ``kcref score`` reports."""

    nights: tuple[Night, ...]
    rows: Collection[HandRow]
    """Every hand when ``complete``; else only the hands left out or not scored (in a temporary
    file when built by :class:`Tally`: iterate them, each pass reads them back)."""
    games: tuple[Game, ...]
    standings: tuple[Standing, ...]
    systems: tuple[ScoringSystem, ...]
    """The scoring systems of the scored hands, in order of first appearance."""
    rule_sets: tuple[RuleSet, ...]
    ignored: tuple[Diagnostic, ...] = ()
    """Errors outside every hand that leave no hand in doubt (shown with ``--skip-invalid``)."""
    players: tuple[str, ...] = ()
    """Every player of a scored hand, in order of first appearance."""
    hand_count: int = 0
    scored_count: int = 0
    complete: bool = True
    """``rows`` holds every hand (not only those left out or not scored)."""
    running: tuple[RunningTotals, ...] = ()
    """Per scoring system, the running totals hand by hand (for the chart; empty unless asked)."""

    @cached_property
    def scored(self) -> tuple[HandRow, ...]:
        """The rows of the hands that were scored (none unless ``complete``)."""
        return tuple(r for r in self.rows if r.status == SCORED)

    @property
    def games_over(self) -> int:
        return sum(1 for g in self.games if g.over)

    def notes(self) -> list[str]:
        """One line per hand left out or not scored, and per error ignored."""
        return list(self.note_lines())

    def note_lines(self) -> Iterator[str]:
        """:meth:`notes` one by one (the rows are read back as they are needed)."""
        for row in self.rows:
            if row.status != SCORED:
                yield f"{row.status}: {row.label}: {row.reason}"
        for d in self.ignored:
            yield f"ignored: {d.path}:{d.line}:{d.column}: error {d.code} {d.message} (outside every hand)"


# --- classifying hands ------------------------------------------------------------------------


class Judged(NamedTuple):
    """A hand's status, why it has it, and its scores when it is scored."""

    status: str
    reason: str
    scores: tuple[int, ...] | None = None


def _reason(d: Diagnostic) -> str:
    return f"error {d.code} at line {d.line}: {d.message}"


def _at(d: Diagnostic) -> tuple[int, int]:
    return d.line, d.column


def _judge(verdict: HandVerdict, own: Diagnostic | None, taint: Diagnostic | None, tainted: bool) -> Judged:
    """Left out when the hand holds an error (its first one is the reason) or follows a bad tag
    line; else scored, or not scored and why."""
    if own is None and not tainted:
        score = hand_score(verdict)  # scores none of a hand with errors: those are looked for after
        if score.scores is not None:
            return Judged(SCORED, score.reason, score.scores)
        if verdict.valid and not verdict.errors:
            return Judged(NOT_SCORED, score.reason)
    errors = verdict.errors
    first = own if own is not None else errors[0] if errors else taint
    return Judged(LEFT_OUT, _reason(first) if first is not None else "it has errors")


def _classify(report: FileReport) -> Iterable[tuple[HandVerdict, int, Judged]]:
    """Each hand of a file with its line and judgement (the verdicts and diagnostics kept)."""
    errors = sorted((d for d in report.diagnostics if d.is_error), key=_at)
    taint = next((d for d in errors if d.code in TAINTING), None)
    local = [d for d in errors if d.code not in TAINTING]
    lines = [d.line for d in local]
    starts = report.hand_lines
    for i, (verdict, line) in enumerate(zip(report.hands, starts)):
        end = starts[i + 1] if i + 1 < len(starts) else None
        own = local[bisect.bisect_left(lines, line):len(lines) if end is None else bisect.bisect_left(lines, end)]
        tainted = taint is not None and taint.line < line
        yield verdict, line, _judge(verdict, own[0] if own else None, taint, tainted)


# Errors that already say why nothing in the file can be scored: it cannot be read.


def _ignored(report: FileReport) -> list[Diagnostic]:
    """Errors before the first hand that put no hand in doubt (a hand's line before any hand)."""
    first = report.hand_lines[0] if report.hand_lines else float("inf")
    return [d for d in report.diagnostics
            if d.is_error and d.line < first and d.code not in TAINTING and d.code not in UNREADABLE]


class HandSorter:
    """Judge the hands of one file as its errors and verdicts stream in, keeping no verdict.

    It relies on the order in which checking hands them on (``check_items``): by the time a
    hand's verdict comes, every error on the lines before the next hand has come, and none after.
    So the errors that come between two verdicts belong to the later hand, and only the first of
    them (and the first tag-line error) needs keeping.
    """

    def __init__(self) -> None:
        self.taint: Diagnostic | None = None
        self.waiting: list[Diagnostic] = []
        """Errors not yet given to a hand: all of them before the first hand, then the first only."""
        self.first_line: int | None = None
        self._ignored: list[Diagnostic] = []

    def error(self, d: Diagnostic) -> None:
        """Take an error of the file (in the order checking emits them)."""
        d = d.with_source("")
        if d.code in TAINTING:
            if self.taint is None or _at(d) < _at(self.taint):
                self.taint = d
        elif self.first_line is None:
            self.waiting.append(d)
        elif not self.waiting or _at(d) < _at(self.waiting[0]):
            self.waiting = [d]

    def judge(self, verdict: HandVerdict, line: int) -> Judged:
        """Judge the hand that starts at ``line``, whose errors have all come."""
        own = self.waiting
        if self.first_line is None:
            self.first_line = line
            self._ignored = [d for d in own if d.line < line and d.code not in UNREADABLE]
            own = [d for d in own if d.line >= line]
        self.waiting = []
        first = min(own, key=_at) if own else None
        tainted = self.taint is not None and self.taint.line < line
        return _judge(verdict, first, self.taint, tainted)

    def ignored(self) -> list[Diagnostic]:
        """The errors before the first hand that put no hand in doubt (call once the file is read)."""
        if self.first_line is None:
            return [d for d in self.waiting if d.code not in UNREADABLE]
        return self._ignored


# --- the scoreboard -----------------------------------------------------------------------------


class Tally:
    """Build a :class:`Scoreboard` hand by hand: standings, games and per-file totals are updated
    as each hand comes, and no verdict is kept.

    ``keep_rows`` keeps a compact row for every hand (the hand-by-hand view and JSON need them;
    the rows of hands left out or not scored are always kept, for the notes), in a temporary file
    (:class:`HandRows`); ``keep_running`` keeps each player's running total hand by hand (for the
    chart). ``batch``: rows per batch of the file (tests make it small).
    """

    def __init__(self, keep_rows: bool = True, keep_running: bool = True, batch: int | None = None) -> None:
        self.keep_rows = keep_rows
        self.keep_running = keep_running
        self.nights: list[tuple[str, str | None, str | None, int]] = []
        self.rows = HandRows(batch)
        self.games: list[Game] = []
        self.ignored: list[Diagnostic] = []
        self.hand_count = 0
        self.scored_count = 0
        self._night = 0
        self._night_scored: list[int] = [0]
        self._night_over: list[int] = [0]
        self._night_points: list[dict[tuple[ScoringSystem, str], int]] = [{}]
        self._running: dict[tuple[ScoringSystem, str], int] = {}
        self._played: dict[str, int] = {}
        self._won: dict[str, int] = {}
        self._games_won: dict[str, int] = {}
        self._players: dict[str, None] = {}
        self._systems: dict[ScoringSystem, None] = {}
        self._rule_sets: dict[tuple[str, Options], list[int]] = {}
        """Hands scored per preset and options: a one-item list, counted in place."""
        self._series: dict[ScoringSystem, Series] = {}
        self._current: GameSoFar | None = None
        self._interned: dict[object, object] = {}
        self._last_given: tuple[object, ...] | None = None
        self._last_interned: tuple[tuple[str, ...], Options, str] = ((), Options(), "")
        self._last_rule_set: tuple[str, Options, list[int]] | None = None
        self._carry = ChipCarry()
        """The stacks the referee carries through the current file: a game of kept stacks ends
        where the carry starts fresh ones (:mod:`kcref.engine.carry`)."""

    def _intern(self, value: _T) -> _T:
        """One shared object for equal values (the same players and options recur every hand)."""
        return self._interned.setdefault(value, value)  # type: ignore[return-value]

    def _intern_hand(self, verdict: HandVerdict) -> tuple[tuple[str, ...], Options, str]:
        """The players, options and rules of a hand, interned; the referee hands on the same
        objects hand after hand, so the last ones are known by identity (hashing options is dear)."""
        given = (verdict.players, verdict.options, verdict.rules)
        last = self._last_given
        if last is not None and given[0] is last[0] and given[1] is last[1] and given[2] is last[2]:
            return self._last_interned
        self._last_given = given
        self._last_interned = (self._intern(given[0]), self._intern(given[1]), self._intern(given[2]))
        return self._last_interned

    def add(self, verdict: HandVerdict, line: int, judged: Judged) -> None:
        """Count a hand of the current file, judged (``HandSorter.judge`` or the whole-file check)."""
        players, options, rules = self._intern_hand(verdict)
        winner = verdict.winner_name
        self.hand_count += 1
        carry = self._carry
        carry.before(options)
        fresh = carry.after(options, players, verdict.stacks_end, verdict.pot_left) if verdict.valid else ""
        if judged.status != SCORED:
            self.rows.append(HandRow(self._night, verdict.path, verdict.index, verdict.number, line, players, rules,
                                     options, winner, verdict.blocked, judged.status, judged.reason))
            if fresh and self._current is not None and self._current.scoring is options.scoring:
                self._close(fresh)  # the game's stacks end here, with a hand that is not scored
            return
        scores = judged.scores
        assert scores is not None
        scoring = options.scoring
        current = self._current
        if current is not None and current.scoring is not scoring:
            self._close("scoring")
            current = None
        if current is None:
            current = self._current = GameSoFar(len(self.games) + 1, scoring, options)
        current.add(players, scores, winner, options)
        current.last_night = self._night
        self.scored_count += 1
        self._systems[scoring] = None
        last = self._last_rule_set
        if last is None or last[0] is not rules or last[1] is not options:  # interned: same is equal
            last = self._last_rule_set = (rules, options, self._rule_sets.setdefault((rules, options), [0]))
        last[2][0] += 1
        if winner is not None:
            self._won[winner] = self._won.get(winner, 0) + 1
        self._night_scored[-1] += 1
        sums, running, played, seen = self._night_points[-1], self._running, self._played, self._players
        totals: list[int] = []
        for name, pts in zip(players, scores):
            key = (scoring, name)
            seen[name] = None
            played[name] = played.get(name, 0) + 1
            total = running[key] = running.get(key, 0) + pts
            totals.append(total)
            sums[key] = sums.get(key, 0) + pts
        if self.keep_rows:
            game_totals = current.totals
            current.last_row = self.rows.append(HandRow(
                self._night, verdict.path, verdict.index, verdict.number, line, players, rules, options, winner,
                verdict.blocked, SCORED, judged.reason, scores, tuple(totals),
                tuple(game_totals[name] for name in players), current.number))
        if self.keep_running:
            self._series.setdefault(scoring, Series()).add(players, totals, self._night)
        ended = fresh if scoring.keeps_stacks else current.end()
        if ended:
            self._close(ended)

    def _close(self, ended_by: str) -> None:
        game = self._current
        if game is None:
            return
        self._current = None
        self.games.append(self._freeze(game, ended_by))
        if not ended_by:
            return
        for name in self.games[-1].best:
            self._games_won[name] = self._games_won.get(name, 0) + 1
        self._night_over[game.last_night] += 1
        if game.last_row is not None:
            self.rows.end_game(game.last_row)
        if game.scoring in self._series:
            self._series[game.scoring].ends[-1] = 1

    def _freeze(self, game: GameSoFar, ended_by: str) -> Game:
        o = game.options
        return Game(game.number, game.scoring, o.target, o.hands, game.hands, self._intern(tuple(game.totals)),
                    tuple(game.totals.values()), bool(ended_by), ended_by, self._intern(game.best()))

    def end_night(self, path: str, tags: Iterable[Tag], hands: int, ignored: Iterable[Diagnostic] = ()) -> None:
        """Close the current file: its path, tags (Date and Event are shown), hands, and the errors
        outside every hand that were ignored."""
        date = event = None
        seen: set[str] = set()
        for tag in tags:
            if tag.name in ("Date", "Event") and tag.name not in seen:
                seen.add(tag.name)
                date, event = (tag.value, event) if tag.name == "Date" else (date, tag.value)
        self.nights.append((path, date, event, hands))
        self.ignored.extend(d.with_source("") for d in ignored)
        if self._current is not None and self._current.scoring.games.with_night:
            self._close("night")
        self._carry = ChipCarry()
        self._night += 1
        self._night_scored.append(0)
        self._night_over.append(0)
        self._night_points.append({})

    def finish(self) -> Scoreboard:
        """The scoreboard of every hand counted (the game in progress stays in progress)."""
        if self._current is not None:
            self.games.append(self._freeze(self._current, ""))
            self._current = None
        nights = tuple(Night(path, date, event, hands, self._night_scored[i], self._night_over[i],
                             self._night_points[i]) for i, (path, date, event, hands) in enumerate(self.nights))
        systems = tuple(self._systems)
        rule_sets = tuple(RuleSet(rules, opts, k) for (rules, opts), [k] in self._rule_sets.items())
        running = tuple(RunningTotals(s, dict(self._series[s].series), bytes(self._series[s].ends),
                                      bytes(self._series[s].night_starts))
                        for s in systems if s in self._series)
        return Scoreboard(nights, self.rows, tuple(self.games), self._standings(systems), systems,
                          rule_sets, tuple(self.ignored), tuple(self._players), self.hand_count, self.scored_count,
                          self.keep_rows, running)

    def _standings(self, systems: tuple[ScoringSystem, ...]) -> tuple[Standing, ...]:
        """Every player of a scored hand, ranked: games won, then points in the system's winning
        direction (hands won where several systems were played); equal keys share a rank."""
        won, games_won = self._won, self._games_won
        single = systems[0] if len(systems) == 1 else None

        def key(name: str) -> tuple[int, int]:
            """What the rank compares: games won, then points in the system's direction (or hands won)."""
            if single is None:
                return (-games_won.get(name, 0), -won.get(name, 0))
            pts = self._running.get((single, name), 0)
            return (-games_won.get(name, 0), -pts if single.highest_wins else pts)

        order = sorted(self._players, key=lambda n: (key(n), -won.get(n, 0), n.casefold(), n))
        out: list[Standing] = []
        for i, name in enumerate(order):
            rank = out[-1].rank if out and key(out[-1].name) == key(name) else i + 1
            points = tuple((s, self._running[s, name]) for s in systems if (s, name) in self._running)
            out.append(Standing(rank, name, points, self._played.get(name, 0), won.get(name, 0),
                                games_won.get(name, 0)))
        return tuple(out)


def scoreboard(reports: Sequence[FileReport]) -> Scoreboard:
    """Score the hands of checked files (their verdicts and diagnostics kept), in order: rows,
    games, standings.

    Hands with errors are left out (the caller decides whether that is acceptable: ``kcref
    score`` refuses files with errors unless asked to skip invalid hands).
    """
    tally = Tally()
    for report in reports:
        for verdict, line, judged in _classify(report):
            tally.add(verdict, line, judged)
        tally.end_night(report.path, report.tags, report.hand_count, _ignored(report))
    return tally.finish()
