"""Render a scoreboard: standings, hand by hand or night by night, as any tabulate table
format, CSV or JSON.

Table formats print a header (the files, the rules in force), the table, the line naming the
current game's leader or winner, and the hands left out or not scored. CSV and TSV print the
table only (the notes go to standard error); JSON holds everything.
"""

from __future__ import annotations

import csv
import html
import io
import json
from collections.abc import Sequence
from typing import NamedTuple

from tabulate import tabulate, tabulate_formats

from .options import OPTION_TAGS, Options, Scoring, preset
from .rules_doc import value_text
from .scoring import UNITS, highest_wins
from .standings import SCORED, HandRow, Scoreboard

VIEWS = ("player", "hand", "night")
MACHINE_FORMATS = ("csv", "json")
FORMATS = tuple(tabulate_formats) + MACHINE_FORMATS
DATA_ONLY = frozenset({"csv", "tsv"})
"""Formats whose output is the table alone, for other programs."""

Cell = str | int | None


class Rendered(NamedTuple):
    """What to print on standard output, and notes for standard error."""

    out: str
    err: str = ""


class Table(NamedTuple):
    """A view as rows of cells under headers; ``None`` is an empty cell."""

    headers: list[str]
    rows: list[list[Cell]]


# --- the three views as tables ----------------------------------------------------------------


def _point_headers(board: Scoreboard, prefix: str = "points") -> list[str]:
    if len(board.systems) <= 1:
        return [prefix]
    return [f"{prefix} ({s.value})" for s in board.systems]


def standings_table(board: Scoreboard) -> Table:
    """rank, player, points (one column per scoring system), hands played, hands won, games won."""
    headers = ["rank", "player", *_point_headers(board), "hands played", "hands won", "games won"]
    rows: list[list[Cell]] = [[s.rank, s.name, *(s.points_in(sys) for sys in board.systems), s.hands_played,
                               s.hands_won, s.games_won] for s in board.standings]
    return Table(headers, rows)


def _hand_cell(row: HandRow) -> int:
    return row.number if row.number is not None else row.index


def _note(board: Scoreboard, row: HandRow) -> str:
    if row.status != SCORED:
        return f"{row.status}: {row.reason}"
    if row.game_over and row.game is not None:
        game = board.games[row.game - 1]
        totals = ", ".join(f"{name} {points}" for name, points in game.totals)
        if not game.best:
            return f"game {game.number} over: nobody wins ({totals})"
        verb = "wins" if len(game.best) == 1 else "share the win"
        return f"game {game.number} over: {' and '.join(game.best)} {verb} ({totals})"
    return ""


def hands_table(board: Scoreboard) -> Table:
    """One row per hand: night, hand, game, winner, each player's score, the running totals that
    the standings add up, and a note (a game over, with its totals; why a hand is not scored)."""
    names = board.players
    mixed = len(board.systems) > 1
    headers = ["night", "hand", "game", *(["scoring"] if mixed else []), "winner", *names,
               *(f"{n} total" for n in names), "note"]
    last: dict[tuple[Scoring, str], int] = {}
    rows: list[list[Cell]] = []
    for row in board.rows:
        scores: dict[str, int] = {}
        if row.scores is not None and row.totals is not None:
            scores = dict(zip(row.players, row.scores))
            last.update({(row.scoring, n): t for n, t in zip(row.players, row.totals)})
        winner = row.winner if row.winner is not None else "blocked" if row.blocked and row.status == SCORED else None
        totals = [last.get((row.scoring, n)) if row.status == SCORED else None for n in names]
        rows.append([row.path, _hand_cell(row), row.game, *([row.scoring.value] if mixed else []), winner,
                     *(scores.get(n) for n in names), *totals, _note(board, row)])
    return Table(headers, rows)


def nights_table(board: Scoreboard) -> Table:
    """One row per file: night, date, hands scored, games ended, each player's points; then the total."""
    names = board.players
    systems = board.systems
    point_cols = [(s, n) for n in names for s in systems]
    headers = ["night", "date", "hands", "games over",
               *(n if len(systems) == 1 else f"{n} ({s.value})" for s, n in point_cols)]
    hands: dict[int, int] = {}
    over: dict[int, int] = {}
    sums: dict[tuple[int, Scoring, str], int] = {}
    for row in board.scored:
        hands[row.night] = hands.get(row.night, 0) + 1
        over[row.night] = over.get(row.night, 0) + row.game_over
        for name, pts in zip(row.players, row.scores or ()):
            sums[row.night, row.scoring, name] = sums.get((row.night, row.scoring, name), 0) + pts
    rows: list[list[Cell]] = [[night.path, night.date, hands.get(i, 0), over.get(i, 0),
                               *(sums.get((i, s, n)) for s, n in point_cols)] for i, night in enumerate(board.nights)]
    totals = {(s, st.name): p for st in board.standings for s, p in st.points}
    rows.append(["total", None, len(board.scored), sum(over.values()), *(totals.get(c) for c in point_cols)])
    return Table(headers, rows)


TABLES = {"player": standings_table, "hand": hands_table, "night": nights_table}


# --- text around a table ------------------------------------------------------------------------


def header_lines(board: Scoreboard) -> list[str]:
    """The files and hands counted, and the rules in force (one line per rule set)."""
    n_files, n_hands = len(board.nights), len(board.rows)
    over = sum(1 for g in board.games if g.over)
    counts = (f"{_plural(n_files, 'file')}, {_plural(n_hands, 'hand')} ({len(board.scored)} scored), "
              f"{_plural(len(board.games), 'game')} ({over} over)")
    lines = [f"kcref score: {counts}"]
    for rs in board.rule_sets:
        count = "" if len(board.rule_sets) == 1 else f" ({_plural(rs.hands, 'hand')})"
        lines.append(f"Rules{count}: {describe_rules(rs.rules, rs.options)}")
    return lines


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _prose(lines: Sequence[str], fmt: str) -> str:
    """Lines of text in a form that suits the table format around them."""
    if fmt in ("html", "unsafehtml"):
        return "".join(f"<p>{html.escape(line)}</p>\n" for line in lines)
    if fmt.startswith("latex"):
        return "".join(f"% {line}\n" for line in lines)
    return "".join(f"{line}\n" for line in lines)


def _csv(table: Table, delimiter: str = ",") -> str:
    buf = io.StringIO()
    writer = csv.writer(buf, delimiter=delimiter, lineterminator="\n")
    writer.writerow(table.headers)
    writer.writerows([["" if c is None else c for c in row] for row in table.rows])
    return buf.getvalue()


def render(board: Scoreboard, by: str = "player", fmt: str = "simple", chart: str = "") -> Rendered:
    """The whole output of ``kcref score`` for a view (``VIEWS``) and a format (``FORMATS``);
    ``chart`` (already drawn) goes under the table in table formats."""
    if fmt == "json":
        return Rendered(json.dumps(as_json(board), ensure_ascii=False, indent=2) + "\n")
    table = TABLES[by](board)
    notes = "".join(f"{line}\n" for line in board.notes())
    if fmt in DATA_ONLY:
        body = _csv(table, "," if fmt == "csv" else "\t")
        return Rendered(body, notes)
    text = tabulate(table.rows, table.headers, tablefmt=fmt, missingval="")
    parts = [_prose(header_lines(board), fmt), "\n", text, "\n\n"]
    if chart:
        parts += [_prose(chart.splitlines(), fmt), "\n"]
    parts.append(_prose([leader_line(board), *board.notes()], fmt))
    return Rendered("".join(parts))


# --- words: the rules in force, the leader ------------------------------------------------------


SYSTEM_WORDS = {
    Scoring.NONE: "none (hands won are counted)",
    Scoring.CHIPS: "chips ({chips} shared out each hand, ante {ante}; the winner takes the pot, which is the "
                   "hand's score)",
    Scoring.CHIP_STACKS: "stacks ({stack} chips each, kept through the night; a hand scores the change of each "
                         "stack)",
    Scoring.PENALTY: "penalty (points for cards left: King 10, any other card 1)",
    Scoring.PIPS: "pips (points for cards left: Ace 25, K Q J 10, others face value)",
    Scoring.DUTCH: "dutch (points for cards left: face cards 10, number cards 5, Aces 25)",
}


def describe_game(o: Options) -> str:
    """When a game ends and who wins it, in words."""
    s = o.scoring
    ends: list[str] = []
    if o.target is not None:
        if s is Scoring.CHIP_STACKS:
            ends.append(f"the first to a stack of {o.target} ends the game")
        elif highest_wins(s):
            ends.append(f"the first to {o.target} {UNITS[s]} ends the game")
        else:
            ends.append(f"the game ends when someone reaches {o.target}")
    if o.hands is not None:
        ends.append(f"a game is {o.hands} hand{'s' * (o.hands != 1)}")
    if s is Scoring.CHIP_STACKS:
        ends.append("a game ends with the night")
    elif s is Scoring.NONE and not ends:
        ends.append("each hand is a game")
    elif not ends:
        ends.append("no Target or Hands, so the game runs on")
    direction = "the highest total wins" if highest_wins(s) else "the lowest total wins"
    return "; ".join(ends) + f"; {direction}"


def describe_rules(rules: str, o: Options) -> str:
    """``family + Target "50". Scoring: penalty (...); the game ends when someone reaches 50;
    the lowest total wins.``: the preset, the options that differ from it, the scoring in words."""
    base = preset(rules)
    changed = [t for t in OPTION_TAGS if getattr(o, t.field) != getattr(base, t.field)]
    name = rules + "".join(f' + {t.tag} "{value_text(getattr(o, t.field))}"' for t in changed)
    words = SYSTEM_WORDS[o.scoring].format(chips=o.chips, ante=o.ante, stack=o.stack)
    return f"{name}. Scoring: {words}; {describe_game(o)}."


def amount(scoring: Scoring, n: int) -> str:
    """``12 points``, ``+5 chips`` (stacks count a change), ``3 hands won``."""
    if scoring is Scoring.NONE:
        return f"{n} hand{'s' * (n != 1)} won"
    text = f"{n:+d}" if scoring is Scoring.CHIP_STACKS else str(n)
    unit = UNITS[scoring]
    return f"{text} {unit[:-1] if abs(n) == 1 else unit}"


def _names(names: Sequence[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def leader_line(board: Scoreboard) -> str:
    """The line naming the current game's leader, or its winner if it is over."""
    if not board.games:
        return "No hand was scored."
    g = board.games[-1]
    system = f" ({g.scoring.value})" if len(board.systems) > 1 else ""
    after = f"after {g.hands} hand{'s' * (g.hands != 1)}"
    if not g.best:
        verdict = "nobody won a hand, so nobody wins it" if g.over else "nobody leads"
        return f"Game {g.number}{system} is {'over' if g.over else 'in progress'} {after}: {verdict}."
    total = amount(g.scoring, g.total(g.best[0]))
    if g.over:
        win = "wins" if len(g.best) == 1 else "share the win"
        return f"Game {g.number}{system} is over {after}: {_names(g.best)} {win} with {total}."
    lead = "leads" if len(g.best) == 1 else "lead"
    return f"Game {g.number}{system}, {after}: {_names(g.best)} {lead} with {total}."


# --- JSON -----------------------------------------------------------------------------------------


def as_json(board: Scoreboard) -> dict[str, object]:
    """Everything as one JSON object. ``players`` lists ``name``, ``points``, ``hands_played``,
    ``hands_won``, ``games_won`` (and ``rank``, ``points_by_scoring``); ``points`` is ``null``
    when several scoring systems were played (their points are in ``points_by_scoring``)."""
    single = len(board.systems) == 1
    return {
        "files": [{"path": n.path, "date": n.date, "event": n.event, "hands": n.hands} for n in board.nights],
        "scoring": [s.value for s in board.systems],
        "rules": [{"preset": rs.rules, "description": describe_rules(rs.rules, rs.options), "hands": rs.hands}
                  for rs in board.rule_sets],
        "players": [
            {"rank": s.rank, "name": s.name,
             "points": s.points[0][1] if single else None,
             "points_by_scoring": {sys.value: p for sys, p in s.points},
             "hands_played": s.hands_played, "hands_won": s.hands_won, "games_won": s.games_won}
            for s in board.standings
        ],
        "games": [
            {"number": g.number, "scoring": g.scoring.value, "target": g.target, "agreed_hands": g.agreed_hands,
             "hands": g.hands, "over": g.over, "ended_by": g.ended_by or None,
             "winners": list(g.best) if g.over else [], "leaders": [] if g.over else list(g.best),
             "totals": dict(g.totals)}
            for g in board.games
        ],
        "hands": [
            {"path": r.path, "index": r.index, "number": r.number, "line": r.line, "status": r.status,
             "reason": r.reason or None, "scoring": r.scoring.value, "rules": r.rules, "game": r.game,
             "game_over": r.game_over, "winner": r.winner, "blocked": r.blocked,
             "scores": dict(zip(r.players, r.scores)) if r.scores is not None else None,
             "totals": dict(zip(r.players, r.totals)) if r.totals is not None else None,
             "game_totals": dict(zip(r.players, r.game_totals)) if r.game_totals is not None else None}
            for r in board.rows
        ],
        "leader": leader_line(board),
        "notes": board.notes(),
    }
