"""Games and standings across hands and nights: what ``kcref score`` computes.

The refereed files are taken in the order given (a night is one file) and their hands in file
order. Each hand is scored in its own scoring system (``kcref.scoring``), left out when it has
errors, or not scored when it is unfinished or its score depends on cards nobody recorded.
Scored hands are grouped into games:

- A game ends after the hand in which a player reaches the ``Target`` (chips and hands won:
  that player's total; stacks: a stack of ``Stack`` plus the chips won in the game; penalty
  systems: anyone's penalty total), or after the agreed number of hands (``Hands``).
- With ``none`` scoring and neither option set, each hand is a game.
- With ``stacks``, a game also ends with the night: the referee starts every file with fresh
  stacks of ``Stack`` chips.
- A change of scoring system ends the current game (a change of ``Target`` or ``Hands`` does
  not: the game goes on under the new value).
- Otherwise the game runs on (``dutch`` without ``Hands``): at the end of the files it is still
  in progress, and its leader is named but no win is counted.

A game that is over is won by the best total (highest for none, chips and stacks; lowest for
penalty, pips and dutch) among the players who played every scored hand of it (everyone in it
if nobody did); ties share the win, and each of them counts a game won. Under none, chips and
stacks a game in which nobody won a hand has no winner. Points in the standings are summed
over all scored hands, per scoring system.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property

from .check import FileReport
from .diagnostics import Diagnostic
from .options import Options, Scoring
from .scoring import hand_score, highest_wins
from .verdict import HandVerdict

TAINTING = frozenset({"KC105", "KC201", "KC202", "KC203", "KC204", "KC206"})
"""Errors in tag lines: the tags in force for the hands after them are in doubt, so with
``--skip-invalid`` those hands are left out too."""

SCORED, LEFT_OUT, NOT_SCORED = "scored", "left out", "not scored"


@dataclass(frozen=True)
class Night:
    """One file: its path, the Date and Event tags it holds, and how many hands."""

    path: str
    date: str | None
    event: str | None
    hands: int


@dataclass(frozen=True)
class HandRow:
    """One hand of the files, scored or not, with the running totals after it."""

    night: int
    """Index of the hand's file in ``Scoreboard.nights``."""
    path: str
    index: int
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
    def scoring(self) -> Scoring:
        return self.options.scoring

    @property
    def label(self) -> str:
        """``night.log:12 hand 3``: where the hand starts, and its number (or position)."""
        return f"{self.path}:{self.line} hand {self.number if self.number is not None else self.index}"


@dataclass(frozen=True)
class Game:
    """One game: its hands, totals and, once over, its winners."""

    number: int
    scoring: Scoring
    target: int | None
    agreed_hands: int | None
    """The ``Hands`` option in force at the game's last hand."""
    hands: int
    totals: tuple[tuple[str, int], ...]
    """Points in the game per player, in order of first appearance."""
    over: bool
    ended_by: str
    """``target``, ``hands``, ``hand`` (one hand per game), ``night`` (stacks), ``scoring`` (the
    system changed); empty while the game is in progress."""
    best: tuple[str, ...]
    """The winners of a game that is over, the leaders of one in progress (may be empty)."""

    def total(self, name: str) -> int:
        return dict(self.totals)[name]


@dataclass(frozen=True)
class Standing:
    """One player's line in the standings."""

    rank: int
    name: str
    points: tuple[tuple[Scoring, int], ...]
    """Points per scoring system played, in the order the systems first appear."""
    hands_played: int
    hands_won: int
    games_won: int

    def points_in(self, scoring: Scoring) -> int | None:
        return dict(self.points).get(scoring)


@dataclass(frozen=True)
class RuleSet:
    """A preset and options in force for some scored hands."""

    rules: str
    options: Options
    hands: int


@dataclass(frozen=True)
class Scoreboard:
    """Everything ``kcref score`` reports."""

    nights: tuple[Night, ...]
    rows: tuple[HandRow, ...]
    games: tuple[Game, ...]
    standings: tuple[Standing, ...]
    systems: tuple[Scoring, ...]
    """The scoring systems of the scored hands, in order of first appearance."""
    rule_sets: tuple[RuleSet, ...]
    ignored: tuple[Diagnostic, ...] = ()
    """Errors outside every hand that leave no hand in doubt (shown with ``--skip-invalid``)."""

    @cached_property
    def scored(self) -> tuple[HandRow, ...]:
        """The rows of the hands that were scored."""
        return tuple(r for r in self.rows if r.status == SCORED)

    @cached_property
    def players(self) -> tuple[str, ...]:
        """Every player of a scored hand, in order of first appearance."""
        seen: dict[str, None] = {}
        for row in self.scored:
            seen.update(dict.fromkeys(row.players))
        return tuple(seen)

    def notes(self) -> list[str]:
        """One line per hand left out or not scored, and per error ignored."""
        lines = [f"{row.status}: {row.label}: {row.reason}" for row in self.rows if row.status != SCORED]
        lines += [f"ignored: {d.path}:{d.line}:{d.column}: error {d.code} {d.message} (outside every hand)"
                  for d in self.ignored]
        return lines


# --- classifying hands ------------------------------------------------------------------------


def _reason(d: Diagnostic) -> str:
    return f"error {d.code} at line {d.line}: {d.message}"


def _classify(report: FileReport) -> Iterable[tuple[HandVerdict, int, str, str]]:
    """Each hand of a file with its line, status and reason."""
    errors = sorted((d for d in report.diagnostics if d.is_error), key=lambda d: (d.line, d.column))
    taint = next((d for d in errors if d.code in TAINTING), None)
    local = [d for d in errors if d.code not in TAINTING]
    lines = [d.line for d in local]
    starts = report.hand_lines
    for i, (verdict, line) in enumerate(zip(report.hands, starts)):
        end = starts[i + 1] if i + 1 < len(starts) else None
        own = local[bisect.bisect_left(lines, line):len(lines) if end is None else bisect.bisect_left(lines, end)]
        tainted = taint is not None and taint.line < line
        if own or verdict.errors or not verdict.valid or tainted:
            first = own[0] if own else verdict.errors[0] if verdict.errors else taint
            yield verdict, line, LEFT_OUT, _reason(first) if first is not None else "it has errors"
            continue
        score = hand_score(verdict)
        yield verdict, line, (SCORED if score.scored else NOT_SCORED), score.reason


# Errors that already say why nothing in the file can be scored: it cannot be read.
_UNREADABLE = frozenset({"KC001", "KC002", "KC003"})


def _ignored(report: FileReport) -> list[Diagnostic]:
    """Errors before the first hand that put no hand in doubt (a hand's line before any hand)."""
    first = report.hand_lines[0] if report.hand_lines else float("inf")
    return [d for d in report.diagnostics
            if d.is_error and d.line < first and d.code not in TAINTING and d.code not in _UNREADABLE]


# --- games --------------------------------------------------------------------------------------


@dataclass
class _GameSoFar:
    """The game being played: mutated hand by hand while the scoreboard is built."""

    number: int
    scoring: Scoring
    options: Options
    totals: dict[str, int] = field(default_factory=dict)
    played: dict[str, int] = field(default_factory=dict)
    hands: int = 0
    won_any: bool = False

    def add(self, players: Sequence[str], scores: Sequence[int], winner: str | None, options: Options) -> None:
        self.options = options
        self.hands += 1
        self.won_any = self.won_any or winner is not None
        for name, pts in zip(players, scores):
            self.totals[name] = self.totals.get(name, 0) + pts
            self.played[name] = self.played.get(name, 0) + 1

    def end(self) -> str:
        """Why the game is over after its latest hand, or "" if it goes on."""
        o = self.options
        if o.target is not None and self.totals:
            base = o.stack if self.scoring is Scoring.CHIP_STACKS else 0
            if max(self.totals.values()) + base >= o.target:
                return "target"
        if o.hands is not None and self.hands >= o.hands:
            return "hands"
        if self.scoring is Scoring.NONE and o.target is None and o.hands is None:
            return "hand"
        return ""

    def best(self) -> tuple[str, ...]:
        """The best totals among those who played every hand (everyone, if nobody did)."""
        if highest_wins(self.scoring) and not self.won_any:
            return ()
        eligible = [n for n, k in self.played.items() if k == self.hands] or list(self.played)
        pick = max if highest_wins(self.scoring) else min
        best = pick(self.totals[n] for n in eligible)
        return tuple(n for n in eligible if self.totals[n] == best)

    def freeze(self, ended_by: str) -> Game:
        return Game(self.number, self.scoring, self.options.target, self.options.hands, self.hands,
                    tuple(self.totals.items()), bool(ended_by), ended_by, self.best())


# --- the scoreboard -----------------------------------------------------------------------------


def _tag_value(report: FileReport, name: str) -> str | None:
    return next((t.value for t in report.tags if t.name == name), None)


def scoreboard(reports: Sequence[FileReport]) -> Scoreboard:
    """Score the hands of checked files, in order: rows, games, standings.

    Hands with errors are left out (the caller decides whether that is acceptable: ``kcref
    score`` refuses files with errors unless asked to skip invalid hands).
    """
    nights: list[Night] = []
    rows: list[HandRow] = []
    games: list[Game] = []
    ignored: list[Diagnostic] = []
    running: dict[tuple[Scoring, str], int] = {}
    current: _GameSoFar | None = None

    def close(ended_by: str) -> None:
        nonlocal current
        if current is not None:
            games.append(current.freeze(ended_by))
            for i in range(len(rows) - 1, -1, -1):
                if rows[i].game == current.number:
                    rows[i] = replace(rows[i], game_over=bool(ended_by))
                    break
        current = None

    for n, report in enumerate(reports):
        nights.append(Night(report.path, _tag_value(report, "Date"), _tag_value(report, "Event"), len(report.hands)))
        ignored.extend(_ignored(report))
        for verdict, line, status, reason in _classify(report):
            base = HandRow(n, report.path, verdict.index, verdict.number, line, verdict.players, verdict.rules,
                           verdict.options, verdict.winner_name, verdict.blocked, status, reason)
            if status != SCORED:
                rows.append(base)
                continue
            scores = hand_score(verdict).scores
            assert scores is not None
            scoring = verdict.options.scoring
            if current is not None and current.scoring is not scoring:
                close("scoring")
            if current is None:
                current = _GameSoFar(len(games) + 1, scoring, verdict.options)
            current.add(verdict.players, scores, verdict.winner_name, verdict.options)
            for name, pts in zip(verdict.players, scores):
                running[scoring, name] = running.get((scoring, name), 0) + pts
            rows.append(replace(base, scores=scores, game=current.number,
                                totals=tuple(running[scoring, name] for name in verdict.players),
                                game_totals=tuple(current.totals[name] for name in verdict.players)))
            ended = current.end()
            if ended:
                close(ended)
        if current is not None and current.scoring is Scoring.CHIP_STACKS:
            close("night")
    if current is not None:
        games.append(current.freeze(""))
    return _finish(nights, rows, games, ignored)


def _finish(nights: list[Night], rows: list[HandRow], games: list[Game], ignored: list[Diagnostic]) -> Scoreboard:
    scored = [r for r in rows if r.status == SCORED]
    systems = tuple(dict.fromkeys(r.scoring for r in scored))
    rule_sets: dict[tuple[str, Options], int] = {}
    for r in scored:
        rule_sets[r.rules, r.options] = rule_sets.get((r.rules, r.options), 0) + 1
    board = Scoreboard(tuple(nights), tuple(rows), tuple(games), (), systems,
                       tuple(RuleSet(rules, opts, k) for (rules, opts), k in rule_sets.items()), tuple(ignored))
    return replace(board, standings=_standings(board))


def _standings(board: Scoreboard) -> tuple[Standing, ...]:
    """Every player of a scored hand, ranked: games won, then points in the system's winning
    direction (hands won where several systems were played); equal keys share a rank."""
    points: dict[str, dict[Scoring, int]] = {}
    played: dict[str, int] = {}
    won: dict[str, int] = {}
    for row in board.scored:
        assert row.scores is not None
        for name, pts in zip(row.players, row.scores):
            per = points.setdefault(name, {})
            per[row.scoring] = per.get(row.scoring, 0) + pts
            played[name] = played.get(name, 0) + 1
        if row.winner is not None:
            won[row.winner] = won.get(row.winner, 0) + 1
    games_won: dict[str, int] = {}
    for g in board.games:
        if g.over:
            for name in g.best:
                games_won[name] = games_won.get(name, 0) + 1
    names = board.players
    single = board.systems[0] if len(board.systems) == 1 else None

    def key(name: str) -> tuple[int, int]:
        """What the rank compares: games won, then points in the system's direction (or hands won)."""
        if single is None:
            return (-games_won.get(name, 0), -won.get(name, 0))
        pts = points[name].get(single, 0)
        return (-games_won.get(name, 0), -pts if highest_wins(single) else pts)

    order = sorted(names, key=lambda n: (key(n), -won.get(n, 0), n.casefold(), n))
    out: list[Standing] = []
    for i, name in enumerate(order):
        rank = out[-1].rank if out and key(out[-1].name) == key(name) else i + 1
        per = points[name]
        out.append(Standing(rank, name, tuple((s, per[s]) for s in board.systems if s in per),
                            played.get(name, 0), won.get(name, 0), games_won.get(name, 0)))
    return tuple(out)
