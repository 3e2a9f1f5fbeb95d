"""Render a scoreboard: standings, hand by hand or night by night, as any tabulate table
format, CSV or JSON.

Table formats print a header (the files, the rules in force), the table, the line naming the
current game's leader or winner, and the hands left out or not scored. CSV and TSV print the
table only (the notes go to standard error); JSON holds everything.

Names, tag values, file names and messages are hostile: every cell and line goes through
:mod:`kcref.render.cells` for the format that carries it (table cells are also clipped; CSV, TSV and
JSON keep them whole).

The output is made piece by piece as it is written (:class:`Chunks`), reading the rows of the
hands back from where the scoreboard keeps them: CSV, TSV and JSON a row at a time, tables a
few thousand rows at a time (:mod:`kcref.render.table_chunks`), so memory stays bounded however many
hands are listed.

:data:`VIEWS` and :data:`SCORE_FORMATS` are the one list of each: ``kcref score --by`` and
``--format`` offer, explain and complete what they hold. A new view is a table function and one
line there; a new format, a render function and one line.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
from functools import cache, partial
from typing import NamedTuple, overload

from ..model.chunks import joined
from ..model.clip import LIMIT, clip
from ..model.diagnostics import json_text
from ..model.options import OPTION_TAGS, Options, preset
from ..model.systems import ScoringSystem
from ..model.words import names_list, plural
from ..scoring.standings import SCORED, HandRow, Scoreboard
from . import simple_table
from .cells import cell, prose, terminal
from .rules_text import value_text

Cell = str | int | None


PIECE = 1 << 16
"""About how many characters :class:`Chunks` hands on at a time."""


class Chunks:
    """Text made piece by piece as it is read, anew on each pass (``str()`` joins it all).

    ``make`` gives the pieces; they are handed on joined into pieces of about :data:`PIECE`
    characters, so that whoever writes them does not write (and flush) each small one.
    """

    def __init__(self, make: Callable[[], Iterable[str]]) -> None:
        self._make = make

    def __iter__(self) -> Iterator[str]:
        return joined(self._make(), PIECE)

    def __str__(self) -> str:
        return "".join(self)

    @classmethod
    def of(cls, text: str) -> Chunks:
        """Text already made."""
        return cls(lambda: (text,))


class Rendered(NamedTuple):
    """What to print on standard output, and notes for standard error, as they are made."""

    out: Chunks
    err: Chunks = Chunks.of("")


class Grid(NamedTuple):
    """A view as rows of cells under headers; ``None`` is an empty cell. The rows may be read
    back from a file as they are iterated (``hands_table``): iterate them, each pass reads anew."""

    headers: list[str]
    rows: Collection[list[Cell]]
    text_columns: tuple[int, ...] = ()
    """Columns of text: never read as numbers (a file named ``1e5`` stays ``1e5``)."""


class Text:
    """Makes hostile text into cells for one format: safe, escaped, clipped in tables only."""

    def __init__(self, fmt: str) -> None:
        self.fmt = fmt
        self.limit: int | None = LIMIT if score_format(fmt).for_people else None

    @overload
    def __call__(self, text: str) -> str: ...

    @overload
    def __call__(self, text: None) -> None: ...

    def __call__(self, text: str | None) -> str | None:
        return None if text is None else cell(text, self.fmt, self.limit)

    def path(self, text: str) -> str:
        return cell(text, self.fmt, self.limit, path=True)

    def whole(self, text: str) -> str:
        """A cell built of clipped parts (a note): made safe, not clipped again."""
        return cell(text, self.fmt, None)

    def name(self, text: str) -> str:
        """A name within a longer text: clipped in tables, not yet escaped."""
        return text if self.limit is None else clip(text, self.limit)


# --- the three views as tables ----------------------------------------------------------------


def _point_headers(board: Scoreboard, prefix: str = "points") -> list[str]:
    if len(board.systems) <= 1:
        return [prefix]
    return [f"{prefix} ({s.name})" for s in board.systems]


def standings_table(board: Scoreboard, fmt: str = "simple") -> Grid:
    """rank, player, points (one column per scoring system), hands played, hands won, games won."""
    text = Text(fmt)
    headers = ["rank", "player", *_point_headers(board), "hands played", "hands won", "games won"]
    rows: list[list[Cell]] = [[s.rank, text(s.name), *(s.points_in(sys) for sys in board.systems),
                               s.hands_played, s.hands_won, s.games_won] for s in board.standings]
    return Grid(headers, rows, (1,))


def _hand_cell(row: HandRow) -> int:
    return row.number if row.number is not None else row.index


def _note(board: Scoreboard, row: HandRow, text: Text) -> str:
    if row.status != SCORED:
        return f"{row.status}: {row.reason}"
    if row.game_over and row.game is not None:
        game = board.games[row.game - 1]
        totals = ", ".join(f"{text.name(name)} {points}" for name, points in game.totals)
        if not game.best:
            return f"game {game.number} over: nobody wins ({totals})"
        verb = "wins" if len(game.best) == 1 else "share the win"
        return f"game {game.number} over: {' and '.join(text.name(n) for n in game.best)} {verb} ({totals})"
    return ""


class _HandCells(Collection[list[Cell]]):
    """The cells of ``hands_table``, made from the rows as they are read back, on each pass."""

    def __init__(self, board: Scoreboard, text: Text) -> None:
        self.board = board
        self.text = text

    def __len__(self) -> int:
        return len(self.board.rows)

    def __contains__(self, item: object) -> bool:
        return any(row == item for row in self)

    def __iter__(self) -> Iterator[list[Cell]]:
        board, text = self.board, self.text
        names = board.players
        mixed = len(board.systems) > 1
        last: dict[tuple[ScoringSystem, str], int] = {}
        for row in board.rows:
            scores: dict[str, int] = {}
            if row.scores is not None and row.totals is not None:
                scores = dict(zip(row.players, row.scores))
                last.update({(row.scoring, n): t for n, t in zip(row.players, row.totals)})
            winner = text(row.winner) if row.winner is not None else None
            if winner is None and row.blocked and row.status == SCORED:
                winner = "blocked"
            totals = [last.get((row.scoring, n)) if row.status == SCORED else None for n in names]
            yield [text.path(row.path), _hand_cell(row), row.game, *([row.scoring.name] if mixed else []), winner,
                   *(scores.get(n) for n in names), *totals, text.whole(_note(board, row, text))]


def hands_table(board: Scoreboard, fmt: str = "simple") -> Grid:
    """One row per hand: night, hand, game, winner, each player's score, the running totals that
    the standings add up, and a note (a game over, with its totals; why a hand is not scored).

    The rows are made as they are iterated, from the board's rows read back (none is kept)."""
    text = Text(fmt)
    mixed = len(board.systems) > 1
    shown = [text(n) for n in board.players]
    headers = ["night", "hand", "game", *(["scoring"] if mixed else []), "winner", *shown,
               *(f"{n} total" for n in shown), "note"]
    first = 4 if mixed else 3
    return Grid(headers, _HandCells(board, text), (0, first, len(headers) - 1))


def nights_table(board: Scoreboard, fmt: str = "simple") -> Grid:
    """One row per file: night, date, hands scored, games ended, each player's points; then the total."""
    text = Text(fmt)
    names = board.players
    systems = board.systems
    point_cols = [(s, n) for n in names for s in systems]
    headers = ["night", "date", "hands", "games over",
               *(text(n) if len(systems) == 1 else f"{text(n)} ({s.name})" for s, n in point_cols)]
    rows: list[list[Cell]] = [[text.path(night.path), text(night.date), night.scored, night.games_over,
                               *(night.points.get(c) for c in point_cols)] for night in board.nights]
    totals = {(s, st.name): p for st in board.standings for s, p in st.points}
    rows.append(["total", None, board.scored_count, board.games_over, *(totals.get(c) for c in point_cols)])
    return Grid(headers, rows, (0, 1))


class View(NamedTuple):
    """A view of ``kcref score`` (``--by``): what the rows of its table are."""

    name: str
    table: Callable[[Scoreboard, str], Grid]
    """The table for a scoreboard, its cells made for the format named."""
    help: str
    """What its rows are, in a few words (the command's help and shell completion show it)."""
    every_hand: bool = False
    """It lists every hand: the scoreboard must keep every row (``Scoreboard.complete``)."""


VIEWS: dict[str, View] = {v.name: v for v in (
    View("player", standings_table, "standings per player"),
    View("hand", hands_table, "one row per hand", every_hand=True),
    View("night", nights_table, "totals per night (file)"),
)}
"""The views by name, in the order the help lists them."""


# --- text around a table ------------------------------------------------------------------------


def header_lines(board: Scoreboard) -> list[str]:
    """The files and hands counted, and the rules in force (one line per rule set)."""
    n_files, n_hands = len(board.nights), board.hand_count
    over = board.games_over
    counts = (f"{plural(n_files, 'file')}, {plural(n_hands, 'hand')} ({board.scored_count} scored), "
              f"{plural(len(board.games), 'game')} ({over} over)")
    lines = [f"kcref score: {counts}"]
    for rs in board.rule_sets:
        count = "" if len(board.rule_sets) == 1 else f" ({plural(rs.hands, 'hand')})"
        lines.append(f"Rules{count}: {describe_rules(rs.rules, rs.options)}")
    return lines


def _prose(lines: Iterable[str], fmt: str) -> str:
    """Lines of text in a form that suits the table format around them."""
    if fmt in ("html", "unsafehtml"):
        return "".join(f"<p>{prose(line, fmt)}</p>\n" for line in lines)
    if fmt.startswith("latex"):
        return "".join(f"% {prose(line, fmt)}\n" for line in lines)
    return "".join(f"{prose(line, fmt)}\n" for line in lines)


def _csv(table: Grid, delimiter: str = ",") -> Iterator[str]:
    """The table as CSV (or TSV), a row at a time."""
    import csv

    buf = io.StringIO()
    writer = csv.writer(buf, delimiter=delimiter, lineterminator="\n")
    writer.writerow(table.headers)
    for row in table.rows:
        writer.writerow(["" if c is None else c for c in row])
        yield buf.getvalue()
        buf.seek(0)
        buf.truncate()
    yield buf.getvalue()


def _table_text(table: Grid, fmt: str, chunk_rows: int | None) -> Iterator[str]:
    """The table drawn by tabulate, in pieces (a few thousand rows at a time when it is long);
    the ``simple`` format drawn here when the table is plain (:mod:`kcref.render.simple_table`),
    which spares importing tabulate."""
    if fmt == "simple":
        lines = simple_table.draw(table.rows, table.headers, table.text_columns)
        if lines is not None:
            yield from _joined(lines)
            return
    from tabulate import tabulate

    from . import table_chunks

    if not table.rows:
        yield tabulate([], table.headers, tablefmt=fmt, missingval="", disable_numparse=False)
        return
    yield from table_chunks.table_pieces(table.rows, table.headers, fmt, table.text_columns,
                                         chunk_rows or table_chunks.CHUNK_ROWS)


def _joined(lines: Iterable[str]) -> Iterator[str]:
    """Lines joined by newlines, with none after the last, as pieces."""
    first = True
    for line in lines:
        yield line if first else "\n" + line
        first = False


def _around(board: Scoreboard, table: Grid, fmt: str, chart: str, chunk_rows: int | None) -> Iterator[str]:
    """A table format: the header lines, the table, the chart, the leader line and the notes."""
    yield _prose(header_lines(board), fmt)
    yield "\n"
    if board.hand_count:  # no hand at all: the leader line says so, under no empty table
        yield from _table_text(table, fmt, chunk_rows)
        yield "\n\n"
    if chart:
        yield _prose(chart.splitlines(), fmt)
        yield "\n"
    yield _prose([leader_line(board)], fmt)
    for note in board.note_lines():
        yield _prose([note], fmt)


class Request(NamedTuple):
    """What to render: a scoreboard in a view and a format, with the chart (already drawn) to
    go under a table, and how many rows a long table draws at a time."""

    board: Scoreboard
    view: View
    fmt: str
    chart: str
    chunk_rows: int | None


def _render_table(r: Request) -> Rendered:
    """A tabulate table with the words around it: header lines, chart, leader line, notes."""
    table = r.view.table(r.board, r.fmt)
    return Rendered(Chunks(lambda: _around(r.board, table, r.fmt, r.chart, r.chunk_rows)))


def _render_delimited(delimiter: str, r: Request) -> Rendered:
    """The table alone, as delimited values; the notes go to standard error."""
    table = r.view.table(r.board, r.fmt)
    return Rendered(Chunks(lambda: _csv(table, delimiter)),
                    Chunks(lambda: (f"{terminal(line)}\n" for line in r.board.note_lines())))


def _render_json(r: Request) -> Rendered:
    """Everything as one JSON object, whatever the view (see :func:`json_document`)."""
    return Rendered(Chunks(lambda: _json_pieces(r.board)))


class ScoreFormat(NamedTuple):
    """An output format of ``kcref score``."""

    name: str
    """What ``--format`` calls it."""
    render: Callable[[Request], Rendered]
    help: str
    """What it prints, in a few words (the command's help and shell completion show it)."""
    for_people: bool = True
    """A table to read, with words (and the chart) around it, its cells clipped; else data for
    programs: the cells whole, no chart."""
    every_hand: bool = False
    """It lists every hand whatever the view: the scoreboard must keep every row."""
    tabulate: bool = False
    """One of tabulate's table format names (the command's help and messages list them together)."""


_TABULATE_HELP = "a table drawn by tabulate, with the rules above it and the leader and notes below"

_OWN_FORMATS: dict[str, ScoreFormat] = {f.name: f for f in (
    ScoreFormat("simple", _render_table, _TABULATE_HELP, tabulate=True),
    # tsv keeps its place among tabulate's names; its table is written as CSV is, tab-separated.
    ScoreFormat("tsv", partial(_render_delimited, "\t"), "tab-separated values: the table alone, notes on "
                "standard error", for_people=False, tabulate=True),
    ScoreFormat("csv", partial(_render_delimited, ","), "comma-separated values: the table alone, notes on "
                "standard error", for_people=False),
    ScoreFormat("json", _render_json, "one JSON object: files, rules, players, games, every hand, notes",
                for_people=False, every_hand=True),
)}
"""The formats known without importing tabulate (``simple`` is drawn here when it can be)."""


@cache
def _score_formats() -> dict[str, ScoreFormat]:
    """:data:`SCORE_FORMATS`, made once when first asked for: listing tabulate's formats imports
    tabulate, which the default output does without."""
    from tabulate import tabulate_formats

    table = {name: ScoreFormat(name, _render_table, _TABULATE_HELP, tabulate=True) for name in tabulate_formats}
    return {**table, **_OWN_FORMATS}  # tabulate's names keep their places


def __getattr__(name: str) -> dict[str, ScoreFormat]:
    """``SCORE_FORMATS``: the formats by name, tabulate's table formats in its order, then CSV and
    JSON (the one list: a format added to it is offered at once)."""
    if name == "SCORE_FORMATS":
        return _score_formats()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def score_format(name: str) -> ScoreFormat:
    """The format named (KeyError if there is none): from :data:`SCORE_FORMATS` once it is made,
    else, for the formats known without tabulate, without making it."""
    return _OWN_FORMATS[name] if known_without_tabulate(name) else _score_formats()[name]


def known_without_tabulate(name: str) -> bool:
    """``name`` is a format of :data:`SCORE_FORMATS` that :func:`score_format` finds without
    making the list (so without importing tabulate)."""
    return not _score_formats.cache_info().currsize and name in _OWN_FORMATS


def lists_every_hand(by: str, fmt: str) -> bool:
    """Whether the view ``by`` or the format ``fmt`` lists every hand (so the scoreboard must
    keep every row)."""
    return VIEWS[by].every_hand or score_format(fmt).every_hand


def render_scores(board: Scoreboard, by: str = "player", fmt: str = "simple", chart: str = "",
                  chunk_rows: int | None = None) -> Rendered:
    """The whole output of ``kcref score`` for a view (:data:`VIEWS`) and a format
    (:data:`SCORE_FORMATS`); ``chart`` (already drawn) goes under the table in formats for
    people. The board must keep every row for the views and formats that list every hand
    (:func:`lists_every_hand`, ``Scoreboard.complete``).

    The text is made as it is read (:class:`Chunks`); ``chunk_rows``: how many rows a long table
    draws at a time (the text is the same whatever it is; by default
    :data:`kcref.render.table_chunks.CHUNK_ROWS`)."""
    if lists_every_hand(by, fmt) and not board.complete:
        raise ValueError("this view lists every hand: build the scoreboard keeping every row")
    request = Request(board, VIEWS[by], fmt, chart, chunk_rows)
    return score_format(fmt).render(request)


# --- words: the rules in force, the leader ------------------------------------------------------


def describe_game(o: Options) -> str:
    """When a game ends and who wins it, in words."""
    s = o.scoring
    ends: list[str] = []
    if o.target is not None:
        ends.append(s.target_words(o.target))
    if o.hands is not None:
        ends.append(f"a game is {plural(o.hands, 'hand')}")
    if s.games.with_night:
        ends.append("a game ends with the night")
    elif s.games.each_hand and not ends:
        ends.append("each hand is a game")
    elif not ends:
        ends.append("no Target or Hands, so the game runs on")
    direction = "the highest total wins" if s.highest_wins else "the lowest total wins"
    return "; ".join(ends) + f"; {direction}"


def describe_rules(rules: str, o: Options) -> str:
    """``family + Target "50". Scoring: penalty (...); the game ends when someone reaches 50;
    the lowest total wins.``: the preset, the options that differ from it, the scoring in words."""
    base = preset(rules)
    changed = [t for t in OPTION_TAGS if getattr(o, t.field) != getattr(base, t.field)]
    name = rules + "".join(f' + {t.tag} "{value_text(getattr(o, t.field))}"' for t in changed)
    return f"{name}. Scoring: {o.scoring.describe(o)}; {describe_game(o)}."


def _names(names: Sequence[str]) -> str:
    return names_list([clip(n) for n in names])


def leader_line(board: Scoreboard) -> str:
    """The line naming the current game's leader, or its winner if it is over."""
    if not board.hand_count:
        files = "the file holds" if len(board.nights) == 1 else "the files hold"
        return f"No hand to score: {files} no hand (a hand starts with a 'hand' line)."
    if not board.games:
        return "No hand was scored."
    g = board.games[-1]
    system = f" ({g.scoring.name})" if len(board.systems) > 1 else ""
    after = f"after {plural(g.hands, 'hand')}"
    if not g.best:
        verdict = "nobody won a hand, so nobody wins it" if g.over else "nobody leads"
        return f"Game {g.number}{system} is {'over' if g.over else 'in progress'} {after}: {verdict}."
    total = g.scoring.amount(g.total(g.best[0]))
    if g.over:
        win = "wins" if len(g.best) == 1 else "share the win"
        return f"Game {g.number}{system} is over {after}: {_names(g.best)} {win} with {total}."
    lead = "leads" if len(g.best) == 1 else "lead"
    return f"Game {g.number}{system}, {after}: {_names(g.best)} {lead} with {total}."


# --- JSON -----------------------------------------------------------------------------------------


def _json_head(board: Scoreboard) -> dict[str, object]:
    """Everything but the hands, the leader and the notes; the lists that grow with the logs
    (files, players, games) as iterators, written item by item."""
    single = len(board.systems) == 1
    return {
        "files": ({"path": n.path, "date": n.date, "event": n.event, "hands": n.hands} for n in board.nights),
        "scoring": [s.name for s in board.systems],
        "rules": [{"preset": rs.rules, "description": describe_rules(rs.rules, rs.options), "hands": rs.hands}
                  for rs in board.rule_sets],
        "players": (
            {"rank": s.rank, "name": s.name,
             "points": s.points[0][1] if single else None,
             "points_by_scoring": {sys.name: p for sys, p in s.points},
             "hands_played": s.hands_played, "hands_won": s.hands_won, "games_won": s.games_won}
            for s in board.standings
        ),
        "games": (
            {"number": g.number, "scoring": g.scoring.name, "target": g.target, "agreed_hands": g.agreed_hands,
             "hands": g.hands, "over": g.over, "ended_by": g.ended_by or None,
             "winners": list(g.best) if g.over else [], "leaders": [] if g.over else list(g.best),
             "totals": dict(g.totals)}
            for g in board.games
        ),
    }


def _json_hand(r: HandRow) -> dict[str, object]:
    return {"path": r.path, "index": r.index, "number": r.number, "line": r.line, "status": r.status,
            "reason": r.reason or None, "scoring": r.scoring.name, "rules": r.rules, "game": r.game,
            "game_over": r.game_over, "winner": r.winner, "blocked": r.blocked,
            "scores": dict(zip(r.players, r.scores)) if r.scores is not None else None,
            "totals": dict(zip(r.players, r.totals)) if r.totals is not None else None,
            "game_totals": dict(zip(r.players, r.game_totals)) if r.game_totals is not None else None}


def _json_list(items: Iterable[object]) -> Iterator[str]:
    """A list, member of the top object, item by item: what ``json_text(list(items), level=1)``
    gives, without the list."""
    first = True
    for item in items:
        yield ("[\n    " if first else ",\n    ") + json_text(item, level=2)
        first = False
    yield "[]" if first else "\n  ]"


def _json_pieces(board: Scoreboard) -> Iterator[str]:
    """The JSON document piece by piece, one hand at a time (no dict of every hand is built)."""
    yield "{\n"
    for key, value in _json_head(board).items():
        yield f"  {json_text(key)}: "
        if isinstance(value, Iterator):
            yield from _json_list(value)
        else:
            yield json_text(value, level=1)
        yield ",\n"
    yield '  "hands": '
    yield from _json_list(_json_hand(row) for row in board.rows)
    yield ",\n"
    yield f'  "leader": {json_text(leader_line(board))},\n'
    yield '  "notes": '
    yield from _json_list(board.note_lines())
    yield "\n}\n"


def json_document(board: Scoreboard) -> str:
    """Everything as one JSON object, indented, with every unprintable character escaped.

    ``files``, ``scoring``, ``rules``; ``players`` lists ``name``, ``points``, ``hands_played``,
    ``hands_won``, ``games_won`` (and ``rank``, ``points_by_scoring``); ``points`` is ``null``
    when several scoring systems were played (their points are in ``points_by_scoring``);
    ``games``, ``hands`` (every hand), ``leader`` and ``notes``.
    """
    return "".join(_json_pieces(board))
