"""Read a log: text in, a stream of typed events (and syntax diagnostics) out.

Lines are read one at a time, so a log of any size streams through in constant memory. Each
line is parsed by the normative pyparsing grammar (``kcref.grammar``), except that turn lines,
the bulk of any log, first go through a fast path built from the same token definitions: it
either produces exactly the events the grammar would, or declines and leaves the line to the
grammar (a property test holds the two to that).
"""

from __future__ import annotations

import difflib
import io
import itertools
import re
import sys
from typing import BinaryIO, Iterable, Iterator, Union

import pyparsing as pp

from . import grammar
from .cards import Card, Pile, parse_card, parse_pile
from .diagnostics import Diagnostic, diagnostic
from .events import (
    PASS, Action, Assertion, Blank, Blocked, Claim, Comment, Deal, Draw, Event, HandStart, Layout,
    MovePile, PlayCard, Quantity, Reveal, Span, Tag, Turn,
)

Item = Union[Event, Diagnostic]
BOM = "\ufeff"


# --- the fast path for turn lines ------------------------------------------------------------

_NAME = re.compile(grammar.NAME_RE)
_ACTION = re.compile(
    rf"(?:(?P<card>{grammar.CARD_RE})|(?P<src>{grammar.PILE_RE}))[ \t]*{grammar.ARROW_RE}[ \t]*"
    rf"(?P<dst>{grammar.PILE_RE})"
    rf"|(?P<draw>[Dd][Rr][Aa][Ww])(?:[ \t]+(?P<drawn>{grammar.CARD_RE}))?"
    rf"|(?P<pass>[Pp][Aa][Ss][Ss])"
)
_KEYWORDS = frozenset(grammar.KEYWORDS)
_action_cache: dict[str, Action | None] = {}
_name_cache: dict[str, str | None] = {}


def _fast_action(text: str) -> Action | None:
    """The action an already stripped piece of a turn line spells, or None to decline."""
    try:
        return _action_cache[text]
    except KeyError:
        pass
    action: Action | None = None
    m = _ACTION.fullmatch(text)
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


def _fast_name(head: str) -> str | None:
    """The player name of a turn line's head (text before ':'), or None to decline."""
    try:
        return _name_cache[head]
    except KeyError:
        pass
    name = head.rstrip(" \t")
    ok = _NAME.fullmatch(name) is not None and name.split(" ", 1)[0].lower() not in _KEYWORDS
    result = name if ok else None
    if len(_name_cache) < 10_000:
        _name_cache[head] = result
    return result


_piece_cache: dict[str, tuple[Action, int]] = {}


def _fast_piece(piece: str) -> tuple[Action, int] | None:
    """A piece of a turn line between ';' as (action, blanks before it), or None to decline."""
    text = piece.strip(" \t")
    action = _fast_action(text) if text else None
    if action is None:
        return None
    hit = (action, len(piece) - len(piece.lstrip(" \t")))
    if len(_piece_cache) < 100_000:
        _piece_cache[piece] = hit
    return hit


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
    offset = len(head) + 2  # 1-based column of the first character after ':'
    get = _piece_cache.get
    for piece in pieces:
        hit = get(piece)
        if hit is None:
            hit = _fast_piece(piece)
            if hit is None:
                return None
        actions.append(hit[0])
        cols.append(offset + hit[1])
        offset += len(piece) + 1
    return Turn(player, tuple(actions), Span(path, lineno, 1), comment, tuple(cols))


def _ci(word: str) -> str:
    """A case-insensitive regex for a keyword, without re.IGNORECASE (which also folds 'K' to 'K')."""
    return "".join(f"[{c.lower()}{c.upper()}]" for c in word)


_TAIL = r"[ \t]*(?P<comment>#.*)?"
_CARDS = rf"(?P<cards>{grammar.CARD_RE}(?:[ \t]+{grammar.CARD_RE})*)"
_FAST_HAND = re.compile(
    rf"{_ci('hand')}(?:[ \t]+(?P<number>\d{{1,9}}))?(?:[ \t]+{_ci('dealer')}[ \t]+(?P<dealer>{grammar.NAME_RE}))?"
    rf"(?![\w'.\-]){_TAIL}"
)
_FAST_CARDS_LINE = re.compile(
    rf"(?P<kw>{_ci('deal')}|{_ci('reveal')})[ \t]+(?P<name>{grammar.NAME_RE})[ \t]*:[ \t]*{_CARDS}{_TAIL}"
)
_ENTRY = re.compile(rf"(?P<pile>{grammar.PILE_RE})[ \t]*:[ \t]*(?P<card>{grammar.CARD_RE})")
_FAST_LAYOUT = re.compile(
    rf"{_ci('layout')}(?P<entries>(?:[ \t]+{grammar.PILE_RE}[ \t]*:[ \t]*{grammar.CARD_RE})+){_TAIL}"
)
_FAST_BLOCKED = re.compile(rf"{_ci('blocked')}(?![\w'.\-]){_TAIL}")
_CARD_TOKEN = re.compile(grammar.CARD_RE)


def _comment(m: re.Match[str]) -> str:
    return (m["comment"] or "").rstrip()


def fast_line(line: str, path: str, lineno: int) -> Event | None:
    """Read a well-formed line of the common kinds quickly; None means "ask the grammar".

    Lines starting with blanks, tags and anything unusual are left to the grammar.
    """
    first = line[:1]
    if first in "Hh":
        m = _FAST_HAND.fullmatch(line)
        if m is not None:
            number = int(m["number"]) if m["number"] else None
            return HandStart(number, m["dealer"], Span(path, lineno, 1), _comment(m),
                             m.start("dealer") + 1 if m["dealer"] else 0)
    elif first in "DdRr":
        m = _FAST_CARDS_LINE.fullmatch(line)
        if m is not None:
            start = m.start("cards")
            toks = list(_CARD_TOKEN.finditer(m["cards"]))
            cls = Deal if m["kw"][0] in "Dd" else Reveal
            return cls(m["name"], tuple(parse_card(t.group()) for t in toks), Span(path, lineno, 1),
                       _comment(m), tuple(start + t.start() + 1 for t in toks), m.start("name") + 1)
    elif first in "Ll":
        m = _FAST_LAYOUT.fullmatch(line)
        if m is not None:
            start = m.start("entries")
            entries = list(_ENTRY.finditer(m["entries"]))
            return Layout(tuple((parse_pile(e["pile"]), parse_card(e["card"])) for e in entries),
                          Span(path, lineno, 1), _comment(m), tuple(start + e.start() + 1 for e in entries))
    elif first in "Bb":
        m = _FAST_BLOCKED.fullmatch(line)
        if m is not None:
            return Blocked(Span(path, lineno, 1), _comment(m))
    elif first == "#":
        return Comment(line.rstrip(), Span(path, lineno, 1))
    if first in "[ \t" or ":" not in line:
        return None
    return fast_turn(line, path, lineno)


# --- the grammar path ----------------------------------------------------------------------------


def _card(tok: grammar.Tok) -> Card:
    return parse_card(tok.text)


def _pile(tok: grammar.Tok) -> Pile:
    return parse_pile(tok.text)


def _action(group: pp.ParseResults) -> tuple[Action, int]:
    kind = group.get_name()
    toks = list(group)
    if kind == "play":
        return PlayCard(_card(toks[0]), _pile(toks[1])), toks[0].loc
    if kind == "move":
        return MovePile(_pile(toks[0]), _pile(toks[1])), toks[0].loc
    if kind == "draw":
        return Draw(_card(toks[1]) if len(toks) > 1 else None), toks[0].loc
    return PASS, toks[0].loc


def _event(result: pp.ParseResults, path: str, lineno: int, comment: str) -> Event | None:
    """Turn one line's parse result into its event (None for a line with no statement)."""
    if not result or isinstance(result[0], grammar.Tok):
        return None
    stmt = result[0]
    kind = stmt.get_name()
    toks = list(stmt)
    span = Span(path, lineno, toks[0].loc + 1 if isinstance(toks[0], grammar.Tok) else 1)
    if kind == "tag":
        return Tag(toks[1].text, toks[2].text, span, comment)
    if kind == "hand":
        number = next((int(t.text) for t in toks[1:] if isinstance(t, grammar.Tok)), None)
        dealer_group = stmt.get("dealer")
        dealer_tok = dealer_group[1] if dealer_group is not None else None
        return HandStart(number, dealer_tok.text if dealer_tok else None, span, comment,
                         dealer_tok.loc + 1 if dealer_tok else 0)
    if kind in ("deal", "reveal"):
        cards = toks[2:]
        cls = Deal if kind == "deal" else Reveal
        return cls(toks[1].text, tuple(_card(t) for t in cards), span, comment,
                   tuple(t.loc + 1 for t in cards), toks[1].loc + 1)
    if kind == "layout":
        entries = [list(g) for g in toks[1:]]
        return Layout(tuple((_pile(p), _card(c)) for p, c in entries), span, comment,
                      tuple(p.loc + 1 for p, _ in entries))
    if kind == "blocked":
        return Blocked(span, comment)
    if kind == "assertion":
        return _assertion(toks[0], list(toks[1]), span, comment)
    # a turn
    name, actions = toks[0], stmt["actions"]
    pairs = [_action(g) for g in actions]
    return Turn(name.text, tuple(a for a, _ in pairs), span, comment, tuple(loc + 1 for _, loc in pairs))


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
    try:
        result = grammar.parse_line(line)
    except pp.ParseBaseException as exc:
        return syntax_diagnostic(line, exc, path, lineno)
    comment = ""
    last = result[-1] if result else None
    if isinstance(last, grammar.Tok) and last.kind == "comment":
        comment = last.text.rstrip()
    event = _event(result, path, lineno, comment)
    if event is None and comment:
        return Comment(comment, Span(path, lineno, last.loc + 1))  # type: ignore[union-attr]
    return event


# --- syntax errors in words --------------------------------------------------------------------

_STARTERS = ("hand", "deal", "layout", "blocked", "reveal")
_RANKS_HELP = "ranks are A, 2-10 (or T), J, Q, K"
_SUITS_HELP = "suits are S, H, D, C or ♠ ♥ ♦ ♣"
_ENDS_WITH_AMOUNT = re.compile(r"\d[ \t]*(?:#.*)?$")  # 'scores Ann 1' reads like a misspelt assertion
_CARD_PARTS = re.compile(r"(?P<rank>[0-9]+|[A-Za-z])(?P<suit>.*)", re.S)


_WORD = re.compile(r"(?:(?!->|→)[^\s;:#\[\]\"])*")


def _word_at(line: str, loc: int) -> str:
    """The word starting at ``loc``, stopping at blanks, punctuation and arrows."""
    m = _WORD.match(line, loc)
    return m.group(0) if m else ""


def _card_problem(word: str) -> str | None:
    """Why ``word`` is not a card, in words, or None if it does not look like one at all."""
    m = _CARD_PARTS.fullmatch(word)
    if not m or not m["suit"]:
        return None
    rank, suit = m["rank"], m["suit"]
    rank_ok = re.fullmatch(grammar.RANK_RE, rank) is not None
    suit_ok = re.fullmatch(grammar.SUIT_RE, suit) is not None
    if rank_ok and not suit_ok:
        return f"'{word}' is not a card: '{suit}' is not a suit ({_SUITS_HELP})"
    if not rank_ok and re.fullmatch(grammar.SUIT_RE, suit):
        hint = ""
        if rank == "1":
            hint = f"; did you mean A{suit} or 10{suit}?"
        elif rank == "0":
            hint = f"; did you mean 10{suit}?"
        return f"'{word}' is not a card: '{rank}' is not a rank ({_RANKS_HELP}){hint}"
    return None


def _did_you_mean(word: str, choices: Iterable[str]) -> str:
    close = difflib.get_close_matches(word.lower(), list(choices), n=1, cutoff=0.6)
    return f"; did you mean '{close[0]}'?" if close else ""


def syntax_diagnostic(line: str, exc: pp.ParseBaseException, path: str, lineno: int) -> Diagnostic:
    """Turn a pyparsing failure into a diagnostic that says what was expected, in words."""
    loc = min(exc.loc, len(line))
    word = _word_at(line, loc)
    expected = str(exc.msg)
    if expected.startswith("Expected "):
        expected = expected[len("Expected "):]
    found = f", found '{word}'" if word else ", found the end of the line" if loc >= len(line.rstrip()) else ""
    code, message = "KC100", f"expected {expected}{found}"

    first_word = _word_at(line, len(line) - len(line.lstrip()))
    misspelt = _did_you_mean(first_word, _STARTERS) if first_word.lower() not in _STARTERS else ""
    if misspelt and line.lstrip()[len(first_word):][:1] in (" ", "\t"):
        # 'layuot N:5D ...' holds a ':' and so reads as a turn; the first word is the real slip.
        code = "KC101"
        message = f"'{first_word}' does not start a log line{misspelt}"
        return diagnostic(path, lineno, len(line) - len(line.lstrip()) + 1, code, message, line)
    if loc == 0 or not line[:loc].strip():
        first = word.lower()
        if "->" in line or ";" in line or ":" not in line.split("#", 1)[0]:
            hint = _did_you_mean(first, _STARTERS + ("draw", "pass"))
            if not hint and "->" not in line and _ENDS_WITH_AMOUNT.search(line):
                hint = _did_you_mean(first, grammar.ASSERTION_WORDS)
            if not hint and ":" not in line and word:
                hint = f"; a turn needs ':' after the player ('{word}: ACTION; ACTION; ...')"
        else:
            hint = _did_you_mean(first, _STARTERS)
        code = "KC101"
        if hint:
            message = f"'{word}' does not start a log line{hint}"
        else:
            message = (f"'{word}' does not start a log line: expected a tag [Name \"value\"], hand, deal, "
                       f"layout, blocked, reveal, score, chips, paid, pot, or a turn 'PLAYER: ACTION; ...'")
    elif expected.startswith("';' between actions") and _card_problem(word):
        code, message = "KC102", str(_card_problem(word))
    elif expected.startswith("a card"):
        code = "KC102"
        message = _card_problem(word) or f"expected a card{found} ({_RANKS_HELP}; {_SUITS_HELP})"
    elif expected.startswith("a pile"):
        code = "KC103"
        message = f"expected a pile (N, E, S, W, NE, NW, SE, SW) after '->'{found}"
        message += _did_you_mean(word, [p.value.lower() for p in Pile]).upper().replace("DID YOU MEAN", "did you mean")
    elif expected.startswith("an action"):
        left = re.split(grammar.ARROW_RE, line[loc:], maxsplit=1)[0].strip()
        left_word = _word_at(left, 0) if left else ""
        problem = _card_problem(left_word) if left_word else None
        if problem:
            code, message = "KC102", problem
        elif line[loc:].lstrip().startswith(";"):
            code, message = "KC104", "expected an action between ';' and ';' (write 'pass' for a turn with no action)"
        else:
            code = "KC104"
            message = (f"expected an action (CARD->PILE, PILE->PILE, draw, draw CARD or pass){found}"
                       f"{_did_you_mean(word, ('draw', 'pass'))}")
    elif line.lstrip().startswith("["):
        code = "KC105"
        message = f"malformed tag: expected {expected}{found}; a tag is written [Name \"value\"]"
    return diagnostic(path, lineno, loc + 1, code, message, line)


# --- whole logs -----------------------------------------------------------------------------------


def read_lines(lines: Iterable[str], path: str = "<string>", trivia: bool = False) -> Iterator[Item]:
    """Read decoded lines (line ends allowed) into events and syntax diagnostics, in order.

    With ``trivia`` the stream also holds Comment and Blank events, for ``kcref fmt``.
    """
    for lineno, raw in enumerate(lines, 1):
        line = raw.rstrip("\r\n")
        if lineno == 1 and line.startswith(BOM):
            line = line[1:]
        item: Item | None = fast_line(line, path, lineno) if line else None
        if item is None:
            if not line.strip(" \t\r"):
                if trivia:
                    yield Blank(Span(path, lineno, 1))
                continue
            item = parse_line(line, path, lineno)
        if item is None:
            continue
        if not trivia and isinstance(item, Comment):
            continue
        yield item


def read_text(text: str, path: str = "<string>", trivia: bool = False) -> Iterator[Item]:
    """Read a whole log held in a string."""
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()  # the newline that ends the last line does not start another
    return read_lines(lines, path, trivia)


def read_stream(stream: BinaryIO, path: str, trivia: bool = False) -> Iterator[Item]:
    """Read a log from a binary stream, decoding UTF-8 line by line.

    A line that is not UTF-8 (KC002) or holds a NUL byte (KC003) ends the reading with a
    diagnostic: what follows cannot be trusted to be a log.
    """
    try:
        yield from read_lines(_checked_lines(stream, path), path, trivia)
    except _Unreadable as stop:
        yield stop.diagnostic


def read_file(path: str, trivia: bool = False) -> Iterator[Item]:
    """Read the log at ``path`` (``-`` is standard input). Unreadable input becomes a diagnostic."""
    try:
        stream: BinaryIO = sys.stdin.buffer if path == "-" else open(path, "rb")  # noqa: SIM115
    except IsADirectoryError:
        yield diagnostic(path, 0, 0, "KC001", "cannot read: it is a directory")
        return
    except FileNotFoundError:
        yield diagnostic(path, 0, 0, "KC001", "cannot read: no such file")
        return
    except OSError as exc:
        yield diagnostic(path, 0, 0, "KC001", f"cannot read: {exc.strerror or exc}")
        return
    try:
        yield from read_stream(stream, "<stdin>" if path == "-" else path, trivia)
    finally:
        if path != "-":
            stream.close()


_SNIFF = 8192  # bytes looked at for a NUL before reading lines: binary files fail fast


class _Unreadable(Exception):
    def __init__(self, diag: Diagnostic) -> None:
        super().__init__(diag.message)
        self.diagnostic = diag


def _checked_lines(stream: BinaryIO, path: str) -> Iterator[str]:
    """Decode lines; stop with a diagnostic at the first undecodable or binary line."""
    lineno = 0
    try:
        head = stream.read(_SNIFF)
        if b"\0" in head:
            at = head.index(b"\0")
            line_start = head.rfind(b"\n", 0, at) + 1
            raise _Unreadable(diagnostic(path, head.count(b"\n", 0, at) + 1, at - line_start + 1, "KC003",
                                         "this is a binary file, not a log (NUL byte)"))
        head += stream.readline()
        for raw in itertools.chain(io.BytesIO(head), stream):
            lineno += 1
            if b"\0" in raw:
                raise _Unreadable(diagnostic(path, lineno, raw.index(b"\0") + 1, "KC003",
                                             "this is a binary file, not a log (NUL byte)"))
            try:
                yield raw.decode("utf-8")
            except UnicodeDecodeError as exc:
                col = len(raw[: exc.start].decode("utf-8", "replace")) + 1
                raise _Unreadable(diagnostic(
                    path, lineno, col, "KC002",
                    f"this file is not UTF-8 text (byte 0x{raw[exc.start]:02x}); save the log as UTF-8",
                )) from None
    except IsADirectoryError:
        raise _Unreadable(diagnostic(path, 0, 0, "KC001", "cannot read: it is a directory")) from None
    except OSError as exc:
        raise _Unreadable(diagnostic(path, lineno, 0, "KC001", f"cannot read: {exc.strerror or exc}")) from None
