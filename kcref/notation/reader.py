"""Read a log: text in, a stream of typed events (and syntax diagnostics) out.

Lines are read one at a time (bytes are cut into lines by :mod:`kcref.notation.textlines`,
syntax errors are put in words by :mod:`kcref.notation.syntax_errors`), so a log of any size
streams through in constant memory. Each line is parsed by the normative pyparsing grammar
(:mod:`kcref.notation.grammar`), except that the common lines, the bulk of any log, first go
through a fast path built from the same token definitions (:mod:`kcref.notation.lexicon`): it
either produces exactly the event the grammar would, or declines and leaves the line to the
grammar (a property test holds the two to that). The grammar, pyparsing and the syntax error
messages are imported only when a line needs them: most logs never do.
"""

from __future__ import annotations

import functools
import re
import sys
from collections.abc import Callable, Iterable, Iterator
from itertools import accumulate, chain
from operator import itemgetter
from typing import TYPE_CHECKING, Any, BinaryIO, NamedTuple

from ..files.discover import cannot_read
from ..model.cards import DECK, Card, Pile, parse_card, parse_pile
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
    read_deal,
    read_hand_start,
    read_layout,
    read_turn,
)
from ..model.patterns import lazy_pattern
from . import lexicon
from .sourcelines import SourceLines
from .textlines import text_lines

if TYPE_CHECKING:
    import pyparsing as pp

    from . import grammar

Item = Event | Diagnostic
BOM = "\ufeff"


# --- the fast path for turn lines ------------------------------------------------------------

# Each regex is compiled when a line first needs it (compiling all of them would cost more than
# reading a short log): the spellings most logs use are read without any (see _canonical_action).


name_pattern = lazy_pattern(lexicon.NAME_RE)
"""The compiled :data:`~kcref.notation.lexicon.NAME_RE` (a player's name), on first use."""


def is_name(text: str) -> bool:
    """``text`` is spelled as a player's name may be (keywords aside): :data:`~kcref.notation.lexicon.NAME_RE`."""
    # ASCII letters and digits are word characters: most names need no regex.
    return (text.isascii() and text.isalnum()) or name_pattern().fullmatch(text) is not None


_action_re = lazy_pattern(
    rf"(?:(?P<card>{lexicon.CARD_RE})|(?P<src>{lexicon.PILE_RE}))[ \t]*{lexicon.ARROW_RE}[ \t]*"
    rf"(?P<dst>{lexicon.PILE_RE})"
    rf"|(?P<draw>[Dd][Rr][Aa][Ww])(?:[ \t]+(?P<drawn>{lexicon.CARD_RE}))?"
    rf"|(?P<pass>[Pp][Aa][Ss][Ss])"
)


_KEYWORDS = frozenset(lexicon.KEYWORDS)
_action_cache: dict[str, Action | None] = {}
_name_cache: dict[str, str | None] = {}


def _fast_action(text: str) -> Action | None:
    """The action an already stripped piece of a turn line spells, or None to decline."""
    try:
        return _action_cache[text]
    except KeyError:
        pass
    action = _canonical_action(text)
    m = None if action is not None else _action_re().fullmatch(text)
    if m is not None:
        if m["card"]:
            action = PlayCard(parse_card(m["card"]), parse_pile(m["dst"]))
        elif m["src"]:
            action = MovePile(parse_pile(m["src"]), parse_pile(m["dst"]))
        elif m["draw"]:
            action = Draw(parse_card(m["drawn"]) if m["drawn"] else None)
        else:
            action = PASS
    if len(_action_cache) < 100_000:
        _action_cache[text] = action
    return action


def _canonical_action(text: str) -> Action | None:
    """The action of ``text`` written in canonical spellings (``KH->NE``, ``S->NW``, ``draw 4C``,
    ``draw``, ``pass``), as :func:`_action_re` would read it; None for any other text."""
    src, arrow, dst = text.partition("->")
    if arrow:
        pile = _CANONICAL_PILES.get(dst)
        if pile is None:
            return None
        card = _CANONICAL_CARDS.get(src)
        if card is not None:
            return PlayCard(card, pile)
        source = _CANONICAL_PILES.get(src)
        return None if source is None else MovePile(source, pile)
    if text.startswith("draw"):
        if text == "draw":
            return Draw(None)
        card = _CANONICAL_CARDS.get(text[5:]) if text[4] == " " else None
        return None if card is None else Draw(card)
    return PASS if text == "pass" else None


def _fast_name(head: str) -> str | None:
    """The player name of a turn line's head (text before ':'), or None to decline."""
    try:
        return _name_cache[head]
    except KeyError:
        pass
    name = head.rstrip(" \t")
    ok = is_name(name) and name.split(" ", 1)[0].lower() not in _KEYWORDS
    result = name if ok else None
    if len(_name_cache) < 10_000:
        _name_cache[head] = result
    return result


class _Piece(NamedTuple):
    """A well-formed piece of a turn line (the text between two ';'), read once."""

    action: Action
    blanks: int
    """The blanks before the action."""
    drawn: Card | None
    """The card of a written draw (``draw CARD``)."""


_piece_cache: dict[str, _Piece] = {}


def _fast_piece(piece: str) -> _Piece | None:
    """A piece of a turn line between ';' read, or None to decline."""
    text = piece.strip(" \t")
    action = _fast_action(text) if text else None
    if action is None:
        return None
    hit = _Piece(action, len(piece) - len(piece.lstrip(" \t")), action.card if type(action) is Draw else None)
    if len(_piece_cache) < 100_000:
        _piece_cache[piece] = hit
        if hit.blanks == 1:
            _spaced_pieces[piece] = (action, len(piece) + 1, hit.drawn)
    return hit


_spaced_pieces: dict[str, tuple[Action, int, Card | None]] = {}
"""The pieces read so far that have one blank before their action, as most logs write them
(``Ann: KH->NE; draw 4C``), each with its width (its ';' included) and the card of a written
draw: a turn line made of these is read in one short loop."""


def fast_turn(line: str, path: str, lineno: int) -> Turn | None:
    """Read a well-formed turn line quickly; None means "not sure, ask the grammar"."""
    head, colon, rest = line.partition(":")
    if not colon or not head or head[0] in " \t":
        return None
    player = _fast_name(head)
    if player is None:
        return None
    comment = ""
    hash_at = rest.find("#")
    if hash_at >= 0:
        comment = rest[hash_at:].rstrip()
        rest = rest[:hash_at]
    pieces = rest.split(";")
    if len(pieces) > 1 and not pieces[-1].strip(" \t"):
        pieces.pop()  # one trailing ';' is allowed
    actions: list[Action] = []
    cols: list[int] = []
    drawn: tuple[Card, ...] = ()
    offset = len(head) + 2  # 1-based column of the first character after ':'
    get = _piece_cache.get
    for piece in pieces:
        hit = get(piece) or _fast_piece(piece)
        if hit is None:
            return None
        action, blanks, card = hit
        if card is not None:
            drawn += (card,)
        actions.append(action)
        cols.append(offset + blanks)
        offset += len(piece) + 1
    return read_turn(player, tuple(actions), Span(path, lineno, 1), comment, tuple(cols), drawn)


def _ci(word: str) -> str:
    """A case-insensitive regex for a keyword, without re.IGNORECASE (which also folds 'K' to 'K')."""
    return "".join(f"[{c.lower()}{c.upper()}]" for c in word)


_TAIL = r"[ \t]*(?P<comment>#.*)?"
_CARDS = rf"(?P<cards>{lexicon.CARD_RE}(?:[ \t]+{lexicon.CARD_RE})*)"


_hand_re = lazy_pattern(
    rf"{_ci('hand')}(?:[ \t]+(?P<number>\d{{1,9}}))?(?:[ \t]+{_ci('dealer')}[ \t]+(?P<dealer>{lexicon.NAME_RE}))?"
    rf"(?![\w'.\-]){_TAIL}"
)


_cards_line_re = lazy_pattern(
    rf"(?P<kw>{_ci('deal')}|{_ci('reveal')})[ \t]+(?P<name>{lexicon.NAME_RE})[ \t]*:[ \t]*{_CARDS}{_TAIL}"
)


_entry_re = lazy_pattern(rf"(?P<pile>{lexicon.PILE_RE})[ \t]*:[ \t]*(?P<card>{lexicon.CARD_RE})")


_layout_re = lazy_pattern(
    rf"{_ci('layout')}(?P<entries>(?:[ \t]+{lexicon.PILE_RE}[ \t]*:[ \t]*{lexicon.CARD_RE})+){_TAIL}"
)


_blocked_re = lazy_pattern(rf"{_ci('blocked')}(?![\w'.\-]){_TAIL}")


# A tag whose value holds no backslash (an escape is left to the grammar's QuotedString).
_tag_re = lazy_pattern(rf'\[[ \t]*(?P<name>[A-Za-z][A-Za-z0-9_]*)[ \t]*"(?P<value>[^"\\\r\n]*)"[ \t]*\]{_TAIL}')
_card_token_re = lazy_pattern(lexicon.CARD_RE)


def _comment(m: re.Match[str]) -> str:
    return (m["comment"] or "").rstrip()


def _fast_hand(line: str, path: str, lineno: int) -> Event | None:
    m = _hand_re().fullmatch(line)
    if m is None:
        return None
    number = int(m["number"]) if m["number"] else None
    return HandStart(number, m["dealer"], Span(path, lineno, 1), _comment(m),
                     m.start("dealer") + 1 if m["dealer"] else 0)


def _fast_cards_line(line: str, path: str, lineno: int) -> Event | None:
    m = _cards_line_re().fullmatch(line)
    if m is None:
        return None
    text, at = m["cards"], m.start("cards") + 1
    words = text.split(" ")
    if "" in words or "\t" in text:  # not one space between cards: ask the regex where each stands
        toks = list(_card_token_re().finditer(text))
        cards, cols = tuple(parse_card(t.group()) for t in toks), tuple(at + t.start() for t in toks)
    else:
        cards, cols = tuple(map(parse_card, words)), _spaced_cols(words, at)
    cls = Deal if m["kw"][0] in "Dd" else Reveal
    return cls(m["name"], cards, Span(path, lineno, 1), _comment(m), cols, m.start("name") + 1)


def _spaced_cols(words: list[str], at: int) -> tuple[int, ...]:
    """The columns of ``words`` written one space apart from column ``at`` on."""
    return tuple(accumulate(map(_PLUS_ONE, map(len, words[:-1])), initial=at))


def _shaped_cols(text: str, at: int) -> tuple[int, ...]:
    """The columns of the words of ``text``, ASCII words one space apart, from column ``at`` on.

    A log's deal and layout lines come in few shapes (where the spaces fall): the columns of
    each shape are worked out once, and the shape is found without a Python step per word."""
    key = (at, text.encode().translate(_SHAPE))
    cols = _cols_seen.get(key)
    if cols is None:
        cols = _spaced_cols(text.split(" "), at)
        if len(_cols_seen) < 10_000:
            _cols_seen[key] = cols
    return cols


_SHAPE = bytes(b if b == 0x20 else 0x78 for b in range(256))
"""A space stays a space, any other byte becomes an ``x``."""
_cols_seen: dict[tuple[int, bytes], tuple[int, ...]] = {}
_PLUS_ONE = (1).__add__
"""A word and the space after it, without a Python call per word."""

_span = tuple.__new__
"""``Span(path, line, col)`` without the Python-level ``__new__`` of a NamedTuple."""


def _fast_layout(line: str, path: str, lineno: int) -> Event | None:
    m = _layout_re().fullmatch(line)
    if m is None:
        return None
    text, at = m["entries"], m.start("entries") + 1
    if "\t" in text or "  " in text or " :" in text or ": " in text:  # ask the regex where each stands
        entries = list(_entry_re().finditer(text))
        piles = tuple((parse_pile(e["pile"]), parse_card(e["card"])) for e in entries)
        cols = tuple(at + e.start() for e in entries)
    else:  # " N:QS E:3D S:QD W:JC"
        words = text[1:].split(" ")
        piles = tuple((parse_pile(p), parse_card(c)) for p, c in (w.split(":") for w in words))
        cols = _spaced_cols(words, at + 1)
    return Layout(piles, Span(path, lineno, 1), _comment(m), cols)


def _fast_blocked(line: str, path: str, lineno: int) -> Event | None:
    if line == "blocked":
        return Blocked(Span(path, lineno, 1), "")
    m = _blocked_re().fullmatch(line)
    return None if m is None else Blocked(Span(path, lineno, 1), _comment(m))


def _fast_comment(line: str, path: str, lineno: int) -> Event | None:
    return Comment(line.rstrip(), Span(path, lineno, 1))


def _fast_tag(line: str, path: str, lineno: int) -> Event | None:
    if line.endswith('"]'):  # [Name "value"], as most tags are written: no regex
        name, quote, value = line[1:-2].partition(' "')
        if (quote and name.isascii() and name[:1].isalpha() and name.replace("_", "a").isalnum()
                and '"' not in value and "\\" not in value and "\r" not in value and "\n" not in value):
            return Tag(name, value, Span(path, lineno, 1), "")
    m = _tag_re().fullmatch(line)
    return None if m is None else Tag(m["name"], m["value"], Span(path, lineno, 1), _comment(m))


_BY_FIRST: dict[str, Callable[[str, str, int], Event | None]] = {
    **dict.fromkeys("Hh", _fast_hand), **dict.fromkeys("DdRr", _fast_cards_line),
    **dict.fromkeys("Ll", _fast_layout), **dict.fromkeys("Bb", _fast_blocked), "#": _fast_comment, "[": _fast_tag,
}
"""The fast reader of the lines a first character may start; a turn line may start with any
of these letters too (``Dee: pass``)."""


def fast_line(line: str, path: str, lineno: int) -> Event | None:
    """Read a well-formed line of the common kinds quickly; None means "ask the grammar".

    Lines starting with blanks and anything unusual are left to the grammar.
    """
    first = line[:1]
    read = _BY_FIRST.get(first)
    if read is not None:
        event = read(line, path, lineno)
        if event is not None or first in "#[":
            return event
    if first in " \t" or ":" not in line:
        return None
    return fast_turn(line, path, lineno)


# --- the bulk of a log ------------------------------------------------------------------------
# Most lines are written the same way: single spaces, canonical spellings, a player already met.
# These are read here as fast_line would read them, with as few Python steps per action or card
# as can be; anything else goes to fast_line (the test of the reader holds the two to the grammar).


def _other_line(line: str, head: str, colon: str, rest: str, path: str, lineno: int, trivia: bool) -> Item | None:
    """Read a line that is not a turn of a known player (``line.partition(":")`` is ``head,
    colon, rest``): through a fast path if one takes it, else as :func:`_slow_line`."""
    event: Event | None = None
    if colon and head.startswith("deal "):
        event = _spaced_deal(head, rest, path, lineno)
    elif line.startswith("layout "):
        event = _spaced_layout(line, path, lineno)
    elif line.startswith("hand "):
        event = _spaced_hand(line, path, lineno)
    return event or _declined(line, path, lineno, trivia)


def _declined(line: str, path: str, lineno: int, trivia: bool) -> Item | None:
    """A line the quickest paths declined, read by :func:`fast_line` or else as :func:`_slow_line`."""
    return fast_line(line, path, lineno) or _slow_line(line, path, lineno, trivia)


def _spaced_deal(head: str, rest: str, path: str, lineno: int) -> Event | None:
    """``deal NAME: CARD CARD ...``, the name known, each card in its canonical spelling (``10H``,
    ``QS``); None to decline."""
    name = head[5:]
    if rest[:1] != " " or "#" in rest or (_name_cache.get(name) != name and _fast_name(name) != name):
        return None
    text = rest[1:]
    words = text.split(" ")
    try:  # a KeyError for any word not a card's canonical spelling, "" included
        cards = itemgetter(*words)(_CANONICAL_CARDS) if len(words) > 1 else (_CANONICAL_CARDS[text],)
    except KeyError:
        return None
    # Without a ten every card is two characters: the line's length says where each stands.
    cols = _shaped_cols(text, len(head) + 3) if "1" in text else _two_wide(len(words), len(head) + 3)
    return read_deal(name, cards, _span(Span, (path, lineno, 1)), "", cols, 6)


def _spaced_layout(line: str, path: str, lineno: int) -> Event | None:
    """``layout N:CARD E:CARD ...``, each entry in its canonical spelling (``N:10H``); None to decline."""
    if "#" in line:
        return None
    text = line[7:]
    words = text.split(" ")
    try:
        piles = itemgetter(*words)(_CANONICAL_ENTRIES) if len(words) > 1 else (_CANONICAL_ENTRIES[text],)
    except KeyError:
        return None
    return read_layout(piles, _span(Span, (path, lineno, 1)), "", _shaped_cols(text, 8))


def _spaced_hand(line: str, path: str, lineno: int) -> Event | None:
    """``hand NUMBER dealer NAME``: up to 9 ASCII digits (as the grammar's hand number), a known
    name; None to decline."""
    parts = line.split(" ", 3)
    number = parts[1]
    if not (number.isdigit() and number.isascii() and len(number) <= 9):
        return None
    if len(parts) == 4:
        _, _, word, dealer = parts
        if word == "dealer" and (_name_cache.get(dealer) == dealer or _fast_name(dealer) == dealer):
            return read_hand_start(int(number), dealer, _span(Span, (path, lineno, 1)), "", len(number) + 14)
    elif len(parts) == 2:  # hand NUMBER
        return read_hand_start(int(number), None, _span(Span, (path, lineno, 1)), "", 0)
    return None


_CANONICAL_CARDS = {card.text(): card for card in DECK}
_CANONICAL_ENTRIES = {f"{pile.value}:{card.text()}": (pile, card) for pile in Pile for card in DECK}
"""Each card and each layout entry by its canonical spelling (``10H``, ``N:10H``); the words of
a line are looked up by one ``itemgetter`` call, cheaper than a map."""
_CANONICAL_PILES = {pile.value: pile for pile in Pile}
"""Each pile by its canonical spelling (``N``, ``NE``), for :func:`_canonical_action`."""


@functools.lru_cache(maxsize=256)
def _two_wide(count: int, at: int) -> tuple[int, ...]:
    """The columns of ``count`` words of two characters one space apart, from column ``at`` on."""
    return tuple(range(at, at + 3 * count, 3))


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
    return Turn(toks[0].text, tuple(a for a, _ in pairs), span, comment, tuple(loc + 1 for _, loc in pairs))


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
# The grammar takes tens of microseconds per action, so a long turn line that the fast path
# declines (a leading blank, one typo) would take seconds. Such a line is shortened first: each
# run of actions that the fast path reads is cut out (from a turn line's second action on), the
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
    if not colon or _fast_name(head.lstrip(" \t")) is None:
        return None
    hash_at = rest.find("#")
    pieces = (rest if hash_at < 0 else rest[:hash_at]).split(";")
    if len(pieces) < 3:
        return None
    cuts: list[tuple[int, int]] = []
    actions: list[tuple[Action, int]] = []
    offset = len(head) + 1 + len(pieces[0]) + 1  # where the second piece starts (0-based)
    run = -1
    get = _piece_cache.get
    for piece in pieces[1:-1]:  # each of these is followed by a ';'
        hit = get(piece) or _fast_piece(piece)
        if hit is not None:
            if run < 0:
                run = offset
            actions.append((hit[0], offset + hit[1] + 1))
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
    return Turn(event.player, tuple(a for a, _ in merged), event.span, event.comment, tuple(c for _, c in merged))


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
_RUN_KINDS = frozenset({Deal, Layout, Turn, Reveal, Blocked, Assertion})


def read_lines(lines: Iterable[str], path: str = "<string>", trivia: bool = False,
               keep: SourceLines | None = None, first: int = 1) -> Iterator[Item]:
    """Read decoded lines (a line end at the end of each is allowed) into events and syntax
    diagnostics, in order; the first line is line ``first`` of ``path``.

    With ``trivia`` the stream also holds Comment and Blank events, for ``kcref fmt``. With
    ``keep``, the text of each line is handed to it for the caret display of later diagnostics:
    a hand's lines all at once, before its next ``hand`` line or the end of the reading is.
    """
    unended = (line.rstrip("\r\n") if type(line) is str else line for line in lines)
    return _reading(unended, path, trivia, keep, False, first)  # type: ignore[return-value]


def _reading(  # noqa: C901  # the hot loop, kept in one frame: a known player's turn line costs no call
        lines: Iterable[str | Diagnostic], path: str, trivia: bool, keep: SourceLines | None,
        runs: bool, first: int = 1) -> Iterator[Item | Run]:
    """:func:`read_lines` of lines without their line ends; with ``runs``, the events of a
    hand's body come in :class:`Run` values."""
    lineno = first - 1
    kept: dict[int, str] = {}
    # The run under way: its events, its turns' actions, its events with a suppression mark.
    run: list[Event] = []
    counted = 0
    marked: list[Event] = []
    mark = lexicon.SUPPRESSION_MARK
    plain = _RUN_KINDS if runs else frozenset()
    unsaid = frozenset({type(None)} if trivia else {type(None), Comment})
    names, known = _name_cache, _spaced_pieces
    for raw in _without_bom(lines):
        if type(raw) is str:
            lineno += 1
            line = raw
            # The turn of a known player first, the commonest line (a line without ':' that is
            # a player's name alone goes to the grammar all the same), read here when its pieces
            # are all in _spaced_pieces; else by fast_turn or the grammar.
            head, colon, rest = line.partition(":")
            player = names.get(head)
            if player is not None:
                hash_at = rest.find("#")
                if hash_at >= 0:
                    comment = rest[hash_at:].rstrip()
                    rest = rest[:hash_at]
                else:
                    comment = ""
                actions: list[Action] = []
                cols: list[int] = []
                drawn: tuple[Card, ...] = ()
                at = len(head) + 3  # the column of the first action, after ': '
                try:
                    for piece in rest.split(";"):
                        action, width, card = known[piece]
                        if card is not None:
                            drawn += (card,)
                        actions.append(action)
                        cols.append(at)
                        at += width
                except KeyError:
                    item = fast_turn(line, path, lineno) or parse_line(line, path, lineno)
                else:
                    item = read_turn(player, tuple(actions), _span(Span, (path, lineno, 1)), comment, tuple(cols),
                                     drawn)
                    if keep is not None:
                        kept[lineno] = line
                    if runs:
                        run.append(item)
                        counted += len(actions)
                        if comment and mark in comment:
                            marked.append(item)
                        if len(run) >= RUN_LENGTH:
                            yield Run(run, counted, marked)
                            run, counted, marked = [], 0, []
                        continue
                    yield item  # not reading in runs: no run is ever open
                    continue
            elif colon and head.startswith("deal "):  # the next commonest line
                item = _spaced_deal(head, rest, path, lineno) or _declined(line, path, lineno, trivia)
            elif not line and not trivia:  # a blank line is neither read nor kept
                continue
            else:
                item = _other_line(line, head, colon, rest, path, lineno, trivia)
            if item is _BLANK:
                continue
            kind = type(item)
            if keep is not None and kind is not Blank:
                if kind is HandStart:
                    keep.add_lines(kept)
                    kept = {}
                    keep.hand(lineno)
                kept[lineno] = line
            if kind in plain:
                run.append(item)  # type: ignore[arg-type]
                if kind is Turn:
                    counted += len(item.actions)  # type: ignore[union-attr]
                if mark in item.comment:  # type: ignore[union-attr]
                    marked.append(item)  # type: ignore[arg-type]
                if len(run) >= RUN_LENGTH:
                    yield Run(run, counted, marked)
                    run, counted, marked = [], 0, []
                continue
            if kind in unsaid:
                continue
        else:
            # A diagnostic from the byte reader: a skipped line (KC005) or the end of the reading.
            lineno = max(lineno, raw.line)  # type: ignore[union-attr]
            item = raw  # type: ignore[assignment]
        if run:
            yield Run(run, counted, marked)
            run, counted, marked = [], 0, []
        yield item  # type: ignore[misc]  # not None: see unsaid
    if run:
        yield Run(run, counted, marked)
    if keep is not None:
        keep.add_lines(kept)


def _without_bom(lines: Iterable[str | Diagnostic]) -> Iterator[str | Diagnostic]:
    """``lines``, the first without the byte order mark it may start with."""
    lines = iter(lines)
    for first in lines:
        if type(first) is str and first.startswith(BOM):
            first = first[1:]
        return chain((first,), lines)
    return lines


_BLANK = Blank(Span("", 0, 0))
"""What :func:`_slow_line` says of a blank line outside ``trivia``: it is neither read nor kept."""


def _slow_line(line: str, path: str, lineno: int, trivia: bool) -> Item | None:
    """A line the fast paths declined: a blank one (a Blank event with ``trivia``, else
    :data:`_BLANK`), or one for the grammar."""
    if not line.strip(" \t\r"):
        return Blank(Span(path, lineno, 1)) if trivia else _BLANK
    return parse_line(line, path, lineno)


_line_end_re = lazy_pattern(r"\r\n?|\n")


def split_lines(text: str) -> list[str]:
    """The lines of ``text``: a line ends at LF, CRLF or a CR alone; a last line end starts no line."""
    lines = text.split("\n") if "\r" not in text else _line_end_re().split(text)  # the regex costs more
    if lines[-1] == "":
        lines.pop()
    return lines


def read_text(text: str, path: str = "<string>", trivia: bool = False,
              keep: SourceLines | None = None) -> Iterator[Item]:
    """Read a whole log held in a string."""
    return _reading(split_lines(text), path, trivia, keep, False)  # type: ignore[return-value]


def read_stream(stream: BinaryIO, path: str, trivia: bool = False,
                keep: SourceLines | None = None) -> Iterator[Item]:
    """Read a log from a binary stream, once, in bounded memory (see :mod:`kcref.notation.textlines`).

    A line that is not UTF-8 (KC002) or holds a NUL byte (KC003), a read error or a file that
    shrinks while it is read (KC006) ends the reading with a diagnostic: what follows cannot be
    trusted to be a log. A line longer than 64 KiB is skipped with a KC005.
    """
    return _reading(text_lines(stream, path), path, trivia, keep, False)  # type: ignore[return-value]


def read_file(path: str, trivia: bool = False, keep: SourceLines | None = None) -> Iterator[Item]:
    """Read the log at ``path`` (``-`` is standard input). Unreadable input becomes a diagnostic."""
    return _file(path, trivia, keep, False)  # type: ignore[return-value]


def read_runs(source: str | BinaryIO, path: str, keep: SourceLines | None = None) -> Iterator[Item | Run]:
    """Read a log as :func:`read_file` (``source`` a path) or :func:`read_stream` (a binary
    stream) would, without trivia, the events of each hand's body in :class:`Run` values."""
    if isinstance(source, str):
        return _file(source, False, keep, True)
    return _reading(text_lines(source, path), path, False, keep, True)


def _file(path: str, trivia: bool, keep: SourceLines | None, runs: bool) -> Iterator[Item | Run]:
    try:
        stream: BinaryIO = sys.stdin.buffer if path == "-" else open(path, "rb")  # noqa: SIM115
    except OSError as exc:
        yield diagnostic(path, 0, 0, "KC001", cannot_read(exc))
        return
    try:
        name = "<stdin>" if path == "-" else path
        yield from _reading(text_lines(stream, name), name, trivia, keep, runs)
    finally:
        if path != "-":
            stream.close()
