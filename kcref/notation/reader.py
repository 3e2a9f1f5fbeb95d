"""Read a log: text in, a stream of typed events (and syntax diagnostics) out.

Lines are read one at a time (bytes are cut into lines by :mod:`kcref.notation.textlines`,
syntax errors are put in words by :mod:`kcref.notation.syntax_errors`), so a log of any size
streams through in constant memory. Each line goes first through :func:`fast_line`, a
regular-expression fast path for the common kinds of line written without a leading blank (turn,
hand, deal, reveal, layout, blocked, tag and comment lines), built from the grammar's token
definitions (:mod:`kcref.notation.lexicon`). It either returns exactly the event the normative
pyparsing grammar (:mod:`kcref.notation.grammar`) would, or declines, and the grammar reads the
line (a property test holds the two to that). The grammar, pyparsing and the syntax error
messages are imported only when a line needs them: most logs never do.
"""

from __future__ import annotations

import functools
import re
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from itertools import chain
from typing import TYPE_CHECKING, Any, BinaryIO, Final, NamedTuple, TypeVar, cast

from ..files.discover import cannot_read
from ..model.cards import Card, Pile, parse_card, parse_pile
from ..model.diagnostics import Diagnostic, diagnostic
from ..model.events import (
    PASS,
    Action,
    Assertion,
    Blank,
    Blocked,
    Claim,
    Comment,
    Deal,
    Draw,
    Event,
    HandStart,
    Layout,
    MovePile,
    PlayCard,
    Quantity,
    Reveal,
    Span,
    Tag,
    Turn,
)
from ..model.patterns import lazy_pattern
from . import lexicon
from .sourcelines import LineKeeper
from .textlines import Line, text_chunks, text_lines

if TYPE_CHECKING:
    import pyparsing as pp

    from . import grammar

Item = Event | Diagnostic
BOM = "\ufeff"


# --- the fast path ------------------------------------------------------------------------------
# Turn, deal and reveal lines, the bulk of a log, are cut at their first ':'. The head before it
# says what the line is (a player's name: a turn; 'deal NAME' or 'reveal NAME': a deal or reveal
# line), and what follows is cut into pieces: the actions between ';', the cards between blanks.
# A log writes the same few heads and pieces again and again: each different one is read once,
# by a regex made of the lexicon's tokens, and remembered (a Memory of each kind). The other
# lines are read by a regex each. A regex is compiled when a line first needs it.

MEMORY = 10_000
"""How many different readings of each kind (heads, actions, cards, layout entries) are remembered."""

_Reading = TypeVar("_Reading")


class Memory(dict[str, _Reading]):
    """The readings of pieces of text, each read once (by ``read``) the first time it is looked
    up, then found by a dict look-up. Up to :data:`MEMORY` are kept; past that all are
    forgotten, and the memory fills up again with the pieces that come next."""

    def __init__(self, read: Callable[[str], _Reading]) -> None:
        super().__init__()
        self.read = read

    def __missing__(self, text: str) -> _Reading:
        if len(self) >= MEMORY:
            self.clear()
        reading = self[text] = self.read(text)
        return reading


def _ci(word: str) -> str:
    """A case-insensitive regex for a keyword, without re.IGNORECASE (which also folds 'K' to 'K')."""
    return "".join(f"[{c.lower()}{c.upper()}]" for c in word)


def _without_comment(text: str) -> tuple[str, str]:
    """``text`` cut before its comment (from its first '#' on), and the comment without its trailing blanks."""
    if "#" not in text:  # most lines have no comment
        return text, ""
    hash_at = text.find("#")
    return text[:hash_at], text[hash_at:].rstrip()


def _words(text: str, at: int) -> tuple[list[str], list[int]]:
    """The words of ``text`` between its blanks (spaces and tabs), and their columns, ``text``
    starting at column ``at``."""
    words: list[str] = []
    cols: list[int] = []
    for part in text.replace("\t", " ").split(" "):
        if part:
            words.append(part)
            cols.append(at)
        at += len(part) + 1
    return words, cols


name_pattern = lazy_pattern(lexicon.NAME_RE)
"""The compiled :data:`~kcref.notation.lexicon.NAME_RE` (a player's name), on first use."""


def is_name(text: str) -> bool:
    """``text`` is spelled as a player's name may be (keywords aside): :data:`~kcref.notation.lexicon.NAME_RE`."""
    return name_pattern().fullmatch(text) is not None


_KEYWORDS: Final = frozenset(lexicon.KEYWORDS)


def _read_turn_head(head: str) -> str | None:
    """The player's name a turn line's head spells, or None to decline."""
    name = head.rstrip(" \t")
    ok = is_name(name) and name.split(" ", 1)[0].lower() not in _KEYWORDS
    return name if ok else None


_turn_heads: Final = Memory(_read_turn_head)
"""The player's name each turn line's head spells (None: decline), by the head."""


_action_re = lazy_pattern(
    rf"(?:(?P<card>{lexicon.CARD_RE})|(?P<src>{lexicon.PILE_RE}))[ \t]*{lexicon.ARROW_RE}[ \t]*"
    rf"(?P<dst>{lexicon.PILE_RE})"
    rf"|(?P<draw>[Dd][Rr][Aa][Ww])(?:[ \t]+(?P<drawn>{lexicon.CARD_RE}))?"
    rf"|(?P<pass>[Pp][Aa][Ss][Ss])"
)


_Piece = tuple[Action, int, int]
"""The reading of a well-formed piece of a turn line (the text between two ';'): its action, the
blanks before the action, and the piece's width with the ';' after it."""


def _read_piece(piece: str) -> _Piece | None:
    """The reading of a piece of a turn line, or None to decline."""
    m = _action_re().fullmatch(piece.strip(" \t"))
    if m is None:
        return None
    action: Action
    if m["card"]:
        action = PlayCard(parse_card(m["card"]), parse_pile(m["dst"]))
    elif m["src"]:
        action = MovePile(parse_pile(m["src"]), parse_pile(m["dst"]))
    elif m["draw"]:
        action = Draw(parse_card(m["drawn"]) if m["drawn"] else None)
    else:
        action = PASS
    return action, len(piece) - len(piece.lstrip(" \t")), len(piece) + 1


_pieces: Final = Memory(_read_piece)
"""The reading of each piece of a turn line, by its text."""


def _fast_turn(player: str, head: str, rest: str, path: str, lineno: int) -> Turn | None:
    """Read a turn line, ``head:rest`` (``player`` the name ``head`` spells); None means "not
    sure, ask the grammar"."""
    rest, comment = _without_comment(rest)
    pieces = rest.split(";")
    actions: list[Action] = []
    cols: list[int] = []
    at = len(head) + 2  # the column where the piece starts, the first after ':'
    for piece in pieces:
        hit = _pieces[piece]
        if hit is None:
            if len(actions) == len(pieces) - 1 > 0 and not piece.strip(" \t"):
                break  # one trailing ';' is allowed
            return None
        action, blanks, width = hit
        actions.append(action)
        cols.append(at + blanks)
        at += width
    return Turn(player, tuple(actions), Span(path, lineno, 1), comment, tuple(cols))


class _CardsHead(NamedTuple):
    """The head of a deal or reveal line (the text before ':'), read."""

    kind: type[Deal] | type[Reveal]
    player: str
    player_col: int


_cards_head_re = lazy_pattern(rf"(?P<kw>{_ci('deal')}|{_ci('reveal')})[ \t]+(?P<name>{lexicon.NAME_RE})[ \t]*")


def _read_cards_head(head: str) -> _CardsHead | None:
    """The reading of a deal or reveal line's head, or None to decline."""
    m = _cards_head_re().fullmatch(head)
    return None if m is None else _CardsHead(Deal if m["kw"][0] in "Dd" else Reveal, m["name"], m.start("name") + 1)


_cards_heads: Final = Memory(_read_cards_head)


_card_re = lazy_pattern(lexicon.CARD_RE)


def _read_card(word: str) -> Card | None:
    """The card a word spells, or None."""
    return parse_card(word) if _card_re().fullmatch(word) else None


_cards: Final = Memory(_read_card)


def _fast_cards(head: _CardsHead, at: int, rest: str, path: str, lineno: int) -> Event | None:
    """Read a deal or reveal line, ``head`` the reading of the text before ':' and ``rest`` the
    text after it, from column ``at`` on; None means "not sure, ask the grammar"."""
    text, comment = _without_comment(rest)
    cards: list[Card] = []
    cols: list[int] = []
    for word in text.replace("\t", " ").split(" "):  # the words between blanks, and where each starts
        if word:
            card = _cards[word]
            if card is None:
                return None
            cards.append(card)
            cols.append(at)
        at += len(word) + 1
    if not cards:
        return None
    return head.kind(head.player, tuple(cards), Span(path, lineno, 1), comment, tuple(cols), head.player_col)


_entry_re = lazy_pattern(rf"(?P<pile>{lexicon.PILE_RE}):(?P<card>{lexicon.CARD_RE})")


def _read_entry(word: str) -> tuple[Pile, Card] | None:
    """The layout entry (``PILE:CARD``) a word spells, or None."""
    m = _entry_re().fullmatch(word)
    return None if m is None else (parse_pile(m["pile"]), parse_card(m["card"]))


_entries: Final = Memory(_read_entry)


def _fast_layout(line: str, path: str, lineno: int) -> Event | None:
    text, comment = _without_comment(line)
    words, cols = _words(text, 1)
    keyword = words[0]
    if not (keyword.isascii() and keyword.lower() == "layout"):
        return None
    entries = tuple(map(_entries.__getitem__, words[1:]))
    if not entries or None in entries:
        return None
    return Layout(cast("tuple[tuple[Pile, Card], ...]", entries), Span(path, lineno, 1), comment, tuple(cols[1:]))


_TAIL = r"[ \t]*(?P<comment>#.*)?"


_hand_re = lazy_pattern(
    rf"{_ci('hand')}(?:[ \t]+(?P<number>\d{{1,9}}))?(?:[ \t]+{_ci('dealer')}[ \t]+(?P<dealer>{lexicon.NAME_RE}))?"
    rf"(?![\w'.\-]){_TAIL}"
)


_blocked_re = lazy_pattern(rf"{_ci('blocked')}(?![\w'.\-]){_TAIL}")


# A tag whose value holds no backslash (an escape is left to the grammar's QuotedString).
_tag_re = lazy_pattern(rf'\[[ \t]*(?P<name>[A-Za-z][A-Za-z0-9_]*)[ \t]*"(?P<value>[^"\\\r\n]*)"[ \t]*\]{_TAIL}')


def _comment(m: re.Match[str]) -> str:
    return (m["comment"] or "").rstrip()


def _fast_hand(line: str, path: str, lineno: int) -> Event | None:
    m = _hand_re().fullmatch(line)
    if m is None:
        return None
    number = int(m["number"]) if m["number"] else None
    return HandStart(number, m["dealer"], Span(path, lineno, 1), _comment(m),
                     m.start("dealer") + 1 if m["dealer"] else 0)


def _fast_blocked(line: str, path: str, lineno: int) -> Event | None:
    m = _blocked_re().fullmatch(line)
    return None if m is None else Blocked(Span(path, lineno, 1), _comment(m))


def _fast_comment(line: str, path: str, lineno: int) -> Event | None:
    return Comment(line.rstrip(), Span(path, lineno, 1))


def _fast_tag(line: str, path: str, lineno: int) -> Event | None:
    m = _tag_re().fullmatch(line)
    return None if m is None else Tag(m["name"], m["value"], Span(path, lineno, 1), _comment(m))


_BY_FIRST: Final[dict[str, Callable[[str, str, int], Event | None]]] = {
    **dict.fromkeys("Hh", _fast_hand), **dict.fromkeys("Ll", _fast_layout), **dict.fromkeys("Bb", _fast_blocked),
    "#": _fast_comment, "[": _fast_tag,
}
"""The fast reader of the other lines, by their first character."""


def fast_line(line: str, path: str, lineno: int) -> Event | None:
    """Read a well-formed line of the common kinds quickly; None means "ask the grammar".

    Lines starting with blanks and anything unusual are left to the grammar.
    """
    head, colon, rest = line.partition(":")
    if colon:
        # A name whose first word is no keyword starts no other kind of line.
        player = _turn_heads[head]
        if player is not None:
            return _fast_turn(player, head, rest, path, lineno)
        cards_head = _cards_heads[head]
        if cards_head is not None:
            return _fast_cards(cards_head, len(head) + 2, rest, path, lineno)
    read = _BY_FIRST.get(line[:1])
    return None if read is None else read(line, path, lineno)


# --- the grammar path ----------------------------------------------------------------------------


def _card(tok: grammar.Tok) -> Card:
    return parse_card(tok.text)


def _pile(tok: grammar.Tok) -> Pile:
    return parse_pile(tok.text)


_ACTIONS: dict[str, Callable[[tuple[grammar.Tok, ...]], Action]] = {
    "play": lambda toks: PlayCard(_card(toks[0]), _pile(toks[1])),
    "move": lambda toks: MovePile(_pile(toks[0]), _pile(toks[1])),
    "draw": lambda toks: Draw(_card(toks[1]) if len(toks) > 1 else None),
    "pass": lambda toks: PASS,
}
"""By the value of the grammar's ActKind (the grammar is not imported until a line needs it)."""


def _action(act: grammar.Act) -> tuple[Action, int]:
    """An action and its 0-based offset in the line."""
    return _ACTIONS[act.kind.value](act.toks), act.toks[0].loc


def _event(result: pp.ParseResults, path: str, lineno: int, comment: str) -> Event | None:
    """Turn one line's parse result into its event (None for a line with no statement)."""
    from . import grammar

    if not result or isinstance(result[0], grammar.Tok):
        return None
    stmt = result[0]
    toks = list(stmt)
    span = Span(path, lineno, toks[0].loc + 1 if isinstance(toks[0], grammar.Tok) else 1)
    return _STATEMENTS[stmt.get_name()](stmt, toks, span, comment)


# --- one reader per kind of statement, by the grammar's name for it ----------------------------


def _tag(stmt: pp.ParseResults, toks: list[Any], span: Span, comment: str) -> Event:
    return Tag(toks[1].text, toks[2].text, span, comment)


def _hand(stmt: Any, toks: list[Any], span: Span, comment: str) -> Event:
    from . import grammar

    number = next((int(t.text) for t in toks[1:] if isinstance(t, grammar.Tok)), None)
    dealer_group = stmt.get("dealer")
    dealer_tok = dealer_group[1] if dealer_group is not None else None
    return HandStart(number, dealer_tok.text if dealer_tok else None, span, comment,
                     dealer_tok.loc + 1 if dealer_tok else 0)


def _cards_line(cls: type[Deal] | type[Reveal], stmt: pp.ParseResults, toks: list[Any], span: Span,
                comment: str) -> Event:
    cards = toks[2:]
    return cls(toks[1].text, tuple(_card(t) for t in cards), span, comment,
               tuple(t.loc + 1 for t in cards), toks[1].loc + 1)


def _layout(stmt: pp.ParseResults, toks: list[Any], span: Span, comment: str) -> Event:
    entries = [list(g) for g in toks[1:]]
    return Layout(tuple((_pile(p), _card(c)) for p, c in entries), span, comment,
                  tuple(p.loc + 1 for p, _ in entries))


def _blocked(stmt: pp.ParseResults, toks: list[Any], span: Span, comment: str) -> Event:
    return Blocked(span, comment)


def _assertion_line(stmt: pp.ParseResults, toks: list[Any], span: Span, comment: str) -> Event:
    return _assertion(toks[0], list(toks[1]), span, comment)


def _turn(stmt: pp.ParseResults, toks: list[Any], span: Span, comment: str) -> Event:
    pairs = [_action(g) for g in stmt["actions"]]
    return Turn(toks[0].text, tuple(a for a, _loc in pairs), span, comment, tuple(loc + 1 for _a, loc in pairs))


_STATEMENTS: dict[str, Callable[[pp.ParseResults, list[Any], Span, str], Event]] = {
    "tag": _tag, "hand": _hand, "deal": functools.partial(_cards_line, Deal),
    "reveal": functools.partial(_cards_line, Reveal), "layout": _layout, "blocked": _blocked,
    "assertion": _assertion_line, "turn": _turn,
}


def _assertion(word: grammar.Tok, parts: list[grammar.Tok], span: Span, comment: str) -> Assertion:
    """An assertion from its keyword and its tokens: name, amount, name, amount... (the pot: amount)."""
    quantity = Quantity(word.text.lower())
    if quantity is Quantity.POT:
        [amount] = parts
        return Assertion(quantity, (Claim(None, int(amount.text)),), span, comment,
                         (amount.loc + 1,), (amount.loc + 1,))
    names, amounts = parts[0::2], parts[1::2]
    return Assertion(quantity, tuple(Claim(n.text, int(a.text)) for n, a in zip(names, amounts)), span, comment,
                     tuple(n.loc + 1 for n in names), tuple(a.loc + 1 for a in amounts))


def parse_line(line: str, path: str = "<string>", lineno: int = 1) -> Event | Diagnostic | None:
    """Read one line (without its line end) through the normative grammar.

    Returns its event, a syntax diagnostic, or None for a line with nothing on it.
    """
    if len(line) >= SHORTEN_FROM:
        short = _shortened(line)
        if short is not None:
            return _parse_shortened(line, short, path, lineno)
    import pyparsing as pp

    from . import grammar
    from .syntax_errors import syntax_diagnostic

    try:
        result = grammar.parse_line(line)
    except pp.ParseBaseException as exc:
        return syntax_diagnostic(line, exc, path, lineno)
    return _line_event(result, path, lineno)


def _line_event(result: pp.ParseResults, path: str, lineno: int) -> Event | None:
    from . import grammar

    comment = ""
    last = result[-1] if result else None
    if isinstance(last, grammar.Tok) and last.kind == "comment":
        comment = last.text.rstrip()
    event = _event(result, path, lineno, comment)
    if event is None and comment:
        return Comment(comment, Span(path, lineno, last.loc + 1))  # type: ignore[union-attr]
    return event


# --- long turn lines in linear time -----------------------------------------------------------
# The grammar is slow per action, so a long turn line that the fast path declines (a leading
# blank, one typo) would hold the reader up. Such a line is shortened first: each run of actions
# that the fast path's piece reader takes is cut out (from a turn line's second action on), the
# grammar reads what is left, and the cut actions and all columns are put back. After a ';' the
# grammar is in the same state whatever came before, so it accepts or rejects the short line
# exactly as the long one, at the same place once columns are shifted back.

SHORTEN_FROM = 256
"""Lines at least this long that read as a turn are shortened before the grammar reads them."""


class _Short(NamedTuple):
    text: str
    cuts: tuple[tuple[int, int], ...]
    """(where in ``text``, how many characters were cut there), in order."""
    actions: tuple[tuple[Action, int], ...]
    """The actions cut out, with their columns in the whole line."""


def _shortened(line: str) -> _Short | None:
    """The line with its runs of well-formed actions cut out, or None if nothing can be cut."""
    head, colon, rest = line.partition(":")
    if not colon or _turn_heads[head.lstrip(" \t")] is None:
        return None
    hash_at = rest.find("#")
    pieces = (rest if hash_at < 0 else rest[:hash_at]).split(";")
    if len(pieces) < 3:
        return None
    cuts: list[tuple[int, int]] = []
    actions: list[tuple[Action, int]] = []
    offset = len(head) + 1 + len(pieces[0]) + 1  # where the second piece starts (0-based)
    run = -1
    for piece in pieces[1:-1]:  # each of these is followed by a ';'
        hit = _pieces[piece]
        if hit is not None:
            action, blanks, _ = hit
            if run < 0:
                run = offset
            actions.append((action, offset + blanks + 1))
        elif run >= 0:
            cuts.append((run, offset - run))
            run = -1
        offset += len(piece) + 1
    if run >= 0:
        cuts.append((run, offset - run))
    if not cuts:
        return None
    parts: list[str] = []
    short_cuts: list[tuple[int, int]] = []
    at = removed = 0
    for start, length in cuts:
        parts.append(line[at:start])
        short_cuts.append((start - removed, length))
        removed += length
        at = start + length
    parts.append(line[at:])
    return _Short("".join(parts), tuple(short_cuts), tuple(actions))


def _unshorten(loc: int, cuts: tuple[tuple[int, int], ...]) -> int:
    """The 0-based offset in the whole line of offset ``loc`` in the shortened one."""
    shift = 0
    for at, length in cuts:
        if at > loc:
            break
        shift += length
    return loc + shift


def _parse_shortened(line: str, short: _Short, path: str, lineno: int) -> Event | Diagnostic | None:
    import pyparsing as pp

    from . import grammar
    from .syntax_errors import syntax_diagnostic

    try:
        result = grammar.parse_line(short.text)
    except pp.ParseBaseException as exc:
        whole = pp.ParseException(line, _unshorten(exc.loc, short.cuts), exc.msg)
        return syntax_diagnostic(line, whole, path, lineno)
    event = _line_event(result, path, lineno)
    if type(event) is not Turn:  # cannot happen: the head was a turn's; read the whole line
        result = grammar.parse_line(line)
        return _line_event(result, path, lineno)
    kept = [(action, _unshorten(col - 1, short.cuts) + 1) for action, col in zip(event.actions, event.cols)]
    merged = sorted(kept + list(short.actions), key=lambda pair: pair[1])
    actions = tuple(a for a, _col in merged)
    cols = tuple(c for _a, c in merged)
    # Made after the loops above: compiled, the fields of ``event`` read before a loop that ends
    # its last use were freed with it (mypyc borrows them).
    return Turn(event.player, actions, event.span, event.comment, cols)


# --- whole logs -----------------------------------------------------------------------------------


class Run(NamedTuple):
    """The events of consecutive lines of a hand's body (deal, layout, turn, reveal, blocked and
    assertion lines), handed on at once by :func:`read_runs`: a consumer that keeps them all,
    as the grouping into hands does, takes them without a step per line. A run never holds
    more than :data:`RUN_LENGTH` events; any other item (a ``hand`` line, a tag, a diagnostic)
    ends it, so the order of the items is the order of the lines."""

    events: list[Event]
    actions: int
    """The actions of the turns among them."""
    marked: list[Event]
    """The events among them whose comment holds :data:`~kcref.notation.lexicon.SUPPRESSION_MARK`,
    in order (nearly always none): the suppressions need look at no other line of the run."""


RUN_LENGTH = 512
_RUN_KINDS: Final = (Turn, Deal, Layout, Reveal, Blocked, Assertion)


def read_lines(lines: Iterable[str | Diagnostic], path: str = "<string>", trivia: bool = False,
               keep: LineKeeper | None = None, first: int = 1) -> Iterator[Item]:
    """Read decoded lines (a line end at the end of each is allowed) into events and syntax
    diagnostics, in order; the first line is line ``first`` of ``path``. The byte reader's
    diagnostics (:func:`~kcref.notation.textlines.text_lines`) may come among the lines.

    With ``trivia`` the stream also holds Comment and Blank events, for ``kcref fmt``. With
    ``keep``, the text of each line is handed to it for the caret display of later diagnostics:
    a hand's lines all at once, before its next ``hand`` line or the end of the reading is (a
    hand's lines past :data:`KEPT_AT_ONCE` characters in parts, as they come).
    """
    unended = (line.rstrip("\r\n") if type(line) is str else line for line in lines)
    return _reading(unended, path, trivia, keep, first)


KEPT_AT_ONCE = 1 << 20
"""The text of a hand's lines is handed to the keeper at its next ``hand`` line, or sooner, once
it holds this many characters: the reader holds no more than that of it."""


def _reading(lines: Iterable[str | Diagnostic], path: str, trivia: bool, keep: LineKeeper | None,
             first: int = 1) -> Iterator[Item]:
    """:func:`read_lines` of lines without their line ends, among which the byte reader's
    diagnostics may come."""
    lineno = first - 1
    kept: dict[int, str] = {}
    size = 0  # the characters of the lines in ``kept``
    # Without trivia, comment lines are read (and kept) but not handed on.
    withheld_kinds = frozenset() if trivia else frozenset({Comment})
    for line in _without_bom(lines):
        if not isinstance(line, str):
            # A diagnostic from the byte reader: a skipped line (KC005) or the end of the reading.
            lineno = max(lineno, line.line)
            yield line
            continue
        lineno += 1
        item = fast_line(line, path, lineno) or _slow_line(line, path, lineno, trivia)
        if item is None:
            continue
        kind = type(item)
        if keep is not None and kind is not Blank:
            if kind is HandStart:
                keep.add_lines(kept)
                kept, size = {}, 0
                keep.hand(lineno)
            kept[lineno] = line
            size += len(line)
            if size >= KEPT_AT_ONCE:
                # A hand of endless lines (or endless lines before the first hand): handed on
                # in parts, as the keeper keeps no more of a hand than its budget.
                keep.add_lines(kept)
                kept, size = {}, 0
        if kind not in withheld_kinds:
            yield item
    if keep is not None:
        keep.add_lines(kept)


def _slow_line(line: str, path: str, lineno: int, trivia: bool) -> Item | None:
    """A line :func:`fast_line` declined: a blank one (a :class:`Blank` with ``trivia``, else
    None: neither read nor kept), or one for the grammar (:func:`parse_line`)."""
    if not line.strip(" \t\r"):
        return Blank(Span(path, lineno, 1)) if trivia else None
    return parse_line(line, path, lineno)


def in_runs(items: Iterable[Item]) -> Iterator[Item | Run]:
    """``items``, the events of consecutive lines of a hand's body gathered in :class:`Run` values."""
    run: list[Event] = []
    actions = 0
    marked: list[Event] = []
    for item in items:
        if isinstance(item, _RUN_KINDS):
            run.append(item)
            if isinstance(item, Turn):
                actions += len(item.actions)
            if lexicon.SUPPRESSION_MARK in item.comment:
                marked.append(item)
            if len(run) >= RUN_LENGTH:
                yield Run(run, actions, marked)
                run, actions, marked = [], 0, []
            continue
        if run:
            yield Run(run, actions, marked)
            run, actions, marked = [], 0, []
        yield item
    if run:
        yield Run(run, actions, marked)


def _without_bom(lines: Iterable[str | Diagnostic]) -> Iterator[str | Diagnostic]:
    """``lines``, the first without the byte order mark it may start with."""
    lines = iter(lines)
    for first in lines:
        if type(first) is str and first.startswith(BOM):
            first = first[1:]
        return chain((first,), lines)
    return lines


_line_end_re = lazy_pattern(r"\r\n?|\n")


def split_lines(text: str) -> list[str]:
    """The lines of ``text``: a line ends at LF, CRLF or a CR alone; a last line end starts no line."""
    lines = text.split("\n") if "\r" not in text else _line_end_re().split(text)  # the regex costs more
    if lines[-1] == "":
        lines.pop()
    return lines


def read_text(text: str, path: str = "<string>", trivia: bool = False,
              keep: LineKeeper | None = None) -> Iterator[Item]:
    """Read a whole log held in a string."""
    return _reading(split_lines(text), path, trivia, keep)


def read_stream(stream: BinaryIO, path: str, trivia: bool = False,
                keep: LineKeeper | None = None) -> Iterator[Item]:
    """Read a log from a binary stream, once, in bounded memory (see :mod:`kcref.notation.textlines`).

    A line that is not UTF-8 (KC002) or holds a NUL byte (KC003), a read error or a file that
    shrinks while it is read (KC006) ends the reading with a diagnostic: what follows cannot be
    trusted to be a log. A line longer than 64 KiB is skipped with a KC005.
    """
    return _reading(text_lines(stream, path), path, trivia, keep)


def read_file(path: str, trivia: bool = False, keep: LineKeeper | None = None) -> Iterator[Item]:
    """Read the log at ``path`` (``-`` is standard input). Unreadable input becomes a diagnostic."""
    return _file(path, trivia, keep)


def read_runs(source: str | BinaryIO, path: str, keep: LineKeeper | None = None) -> Iterator[Item | Run]:
    """Read a log as :func:`read_file` (``source`` a path) or :func:`read_stream` (a binary
    stream) would, without trivia, the events of each hand's body in :class:`Run` values."""
    if isinstance(source, str):
        return in_runs(_file(source, False, keep))
    return in_runs(_reading(text_lines(source, path), path, False, keep))


def _file(path: str, trivia: bool, keep: LineKeeper | None) -> Iterator[Item]:
    name = "<stdin>" if path == "-" else path
    return _reading(chain.from_iterable(_file_chunks(path, name)), name, trivia, keep)


def _file_chunks(path: str, name: str) -> Iterator[Sequence[Line]]:
    """The lines of the file at ``path`` (``-``: standard input) a chunk at a time, as
    :func:`~kcref.notation.textlines.text_chunks` gives them, the file closed once they are
    read; a file that cannot be opened gives a KC001 diagnostic alone."""
    try:
        stream: BinaryIO = sys.stdin.buffer if path == "-" else open(path, "rb")  # noqa: SIM115
    except OSError as exc:
        yield [diagnostic(path, 0, 0, "KC001", cannot_read(exc))]
        return
    try:
        yield from text_chunks(stream, name)
    finally:
        if path != "-":
            stream.close()
