"""Syntax errors in words: a pyparsing failure on one line becomes a diagnostic a card player
understands, pointing at the real fault.

Every word a message quotes is clipped (:func:`kcref.model.clip.clip`), and "did you mean"
(:func:`kcref.model.words.did_you_mean`) rules out a word far longer than every choice by its
length alone, so a junk line of any length costs time and memory in proportion to its length.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from typing import NamedTuple

import pyparsing as pp

from ..model.cards import Pile
from ..model.clip import clip
from ..model.diagnostics import Diagnostic, diagnostic
from ..model.words import did_you_mean
from . import grammar

STARTERS = ("hand", "deal", "layout", "blocked", "reveal")
_RANKS_HELP = "ranks are A, 2-10 (or T), J, Q, K"
_SUITS_HELP = "suits are S, H, D, C or ♠ ♥ ♦ ♣"
_ENDS_WITH_AMOUNT = re.compile(r"\d[ \t]*(?:#.*)?$")  # 'scores Ann 1' reads like a misspelt assertion
_CARD_PARTS = re.compile(r"(?P<rank>[0-9]+|[A-Za-z])(?P<suit>.*)", re.S)
_WORD = re.compile(r"(?:(?!->|→)[^\s;:#\[\]\"\u200b\u2060\ufeff])*")
_CARD = re.compile(grammar.CARD_RE)
_NAME_WORD = re.compile(grammar.NAME_WORD_RE)
_ACTION_START = re.compile(rf"(?:{grammar.CARD_RE}|{grammar.PILE_RE})[ \t]*{grammar.ARROW_RE}")
_ASSERTION_HELP = ("an assertion line has no ':' and stands after the hand's play "
                   "('score PLAYER NUMBER, ...', likewise chips and paid; 'pot NUMBER')")

# Characters that look blank (or show nothing) but are not the spaces and tabs that separate words.
_ZERO_WIDTH = {"\u200b": "a zero-width space", "\u2060": "a word joiner",
               "\ufeff": "a byte order mark"}
_CONTROL_NAMES = {"\r": "a carriage return", "\n": "a line feed", "\x0b": "a vertical tab", "\x0c": "a form feed",
                  "\x1c": "a file separator", "\x1d": "a group separator", "\x1e": "a record separator",
                  "\x1f": "a unit separator", "\x85": "a next-line control (NEL)"}


def _is_odd_blank(ch: str) -> bool:
    return (ch.isspace() and ch not in " \t") or ch in _ZERO_WIDTH


def _odd_blank_name(ch: str) -> str:
    """'a form feed', 'a no-break space'...: the character in words, with its article."""
    if ch in _CONTROL_NAMES:
        return _CONTROL_NAMES[ch]
    if ch in _ZERO_WIDTH:
        return _ZERO_WIDTH[ch]
    name = unicodedata.name(ch, "").lower()
    if not name:
        return "a blank"
    return f"{'an' if name[0] in 'aeiou' else 'a'} {name}"


def _word_at(line: str, loc: int) -> str:
    """The word starting at ``loc``, stopping at blanks, punctuation and arrows."""
    m = _WORD.match(line, loc)
    return m.group(0) if m else ""


def _quote(word: str) -> str:
    return f"'{clip(word)}'"


def _card_problem(word: str) -> str | None:
    """Why ``word`` is not a card, in words, or None if it does not look like one at all."""
    m = _CARD_PARTS.fullmatch(word)
    if not m or not m["suit"]:
        return None
    rank, suit = m["rank"], m["suit"]
    rank_ok = re.fullmatch(grammar.RANK_RE, rank) is not None
    suit_ok = re.fullmatch(grammar.SUIT_RE, suit) is not None
    if rank_ok and not suit_ok:
        return f"{_quote(word)} is not a card: {_quote(suit)} is not a suit ({_SUITS_HELP})"
    if not rank_ok and suit_ok:
        hint = ""
        if rank == "1":
            hint = f"; did you mean A{suit} or 10{suit}?"
        elif rank == "0":
            hint = f"; did you mean 10{suit}?"
        return f"{_quote(word)} is not a card: {_quote(rank)} is not a rank ({_RANKS_HELP}){hint}"
    return None


def _code_part(line: str) -> str:
    """The line up to its comment (a tag line keeps '#' in its value, so it is taken whole)."""
    if line.lstrip(" \t").startswith("["):
        return line
    return line.split("#", 1)[0]


def _odd_blank(line: str, loc: int) -> tuple[int, str] | None:
    """The first odd blank outside a comment, if the parse stopped at it or on the way to it."""
    code = _code_part(line)
    at = next((i for i, ch in enumerate(code) if _is_odd_blank(ch)), -1)
    if at < 0 or (at != loc and line[:loc].strip(" \t")):
        return None
    ch = line[at]
    rest = at + 1
    while rest < len(line) and (line[rest] in " \t" or _is_odd_blank(line[rest])):
        rest += 1
    after = _word_at(line, rest)
    if not code.strip(" \t") or all(c in " \t" or _is_odd_blank(c) for c in code):
        return at, (f"{_odd_blank_name(ch)} (U+{ord(ch):04X}) on a line with nothing else: "
                    f"a blank line holds only spaces and tabs")
    where = f"before {_quote(after)}" if after else "at the end of the line" if rest >= len(line) else "here"
    return at, (f"{_odd_blank_name(ch)} (U+{ord(ch):04X}) {where}: only spaces and tabs may separate words")


def _missing_colon(line: str, keyword: str, loc: int) -> tuple[int, str]:
    """Where a deal or reveal line lacks the ':' after its player, and what to write."""
    at = len(line) - len(line.lstrip(" \t")) + len(keyword)
    while at < len(line) and line[at] in " \t":
        at += 1
    end = at
    name_end = -1
    # The player's name is every word up to the first card (names may hold blanks, cards not).
    for m in _NAME_WORD.finditer(line, at):
        if m.start() != end and line[end:m.start()] != " ":
            break
        if _CARD.fullmatch(m.group()):
            name_end = end
            break
        end = m.end()
        if end >= len(line) or line[end] != " ":
            break
    name = line[at:name_end] if name_end > at else ""
    kw = keyword.lower()
    if name:
        return name_end, (f"expected a colon after the player's name: "
                          f"'{kw} {clip(name.rstrip())}: CARD CARD ...'")
    return loc, f"expected a colon after the player's name, then the cards: '{kw} PLAYER: CARD CARD ...'"


def _as_assertion(line: str) -> str | None:
    """The line without its ':', when that reads as an assertion: 'score Cy: 10' meant 'score Cy 10'."""
    code = _code_part(line)
    fixed = code.replace(":", "")
    if fixed == code:
        return None
    try:
        result = grammar.parse_line(fixed.rstrip(" \t"))
    except pp.ParseBaseException:
        return None
    if result and not isinstance(result[0], grammar.Tok) and result[0].get_name() == "assertion":
        return " ".join(fixed.split())
    return None


class _Failure(NamedTuple):
    """Where and how the grammar gave up on a line, with the words the messages quote."""

    line: str
    loc: int
    """0-based offset where the parse stopped."""
    word: str
    """The word at ``loc``."""
    expected: str
    """What the grammar expected there, without pyparsing's "Expected "."""
    found: str
    """``, found 'word'`` (or the end of the line), for a message to end with."""
    indent: int
    first_word: str
    first: str
    """The line's first word, lower-cased."""
    code_part: str
    """The line without its comment."""


class _Finding(NamedTuple):
    at: int
    """0-based column of the fault."""
    code: str
    message: str


def _failure(line: str, exc: pp.ParseBaseException) -> _Failure:
    loc = min(exc.loc, len(line))
    word = _word_at(line, loc)
    expected = str(exc.msg)
    if expected.startswith("Expected "):
        expected = expected[len("Expected "):]
    found = f", found {_quote(word)}" if word else ", found the end of the line" if loc >= len(line.rstrip()) else ""
    indent = len(line) - len(line.lstrip())
    first_word = _word_at(line, indent)
    return _Failure(line, loc, word, expected, found, indent, first_word, first_word.lower(), _code_part(line))


def syntax_diagnostic(line: str, exc: pp.ParseBaseException, path: str, lineno: int) -> Diagnostic:
    """Turn a pyparsing failure into a diagnostic that says what was expected, in words."""
    f = _failure(line, exc)
    finding = next((found for rule in _RULES if (found := rule(f)) is not None), None)
    if finding is None:
        finding = _Finding(f.loc, "KC100", f"expected {f.expected}{f.found}")
    at, code, message = finding
    if (f.first in grammar.ASSERTION_WORDS and ":" in f.code_part and code in ("KC102", "KC103")
            and f.loc > f.indent):
        message += f"; {_ASSERTION_HELP}"
    return diagnostic(path, lineno, at + 1, code, message, line)


# --- one rule per kind of failure, tried in order: the first that applies says what is wrong ---


def _odd_blank_rule(f: _Failure) -> _Finding | None:
    odd = _odd_blank(f.line, f.loc)
    return None if odd is None else _Finding(odd[0], "KC106", odd[1])


def _misspelt_start(f: _Failure) -> _Finding | None:
    """'layuot N:5D ...' holds a ':' and so reads as a turn; the first word is the real slip."""
    misspelt = did_you_mean(f.first, STARTERS)
    if not misspelt or f.line[f.indent + len(f.first_word):][:1] not in (" ", "\t"):
        return None
    return _Finding(f.indent, "KC101", f"{_quote(f.first_word)} does not start a log line{misspelt}")


def _assertion_with_colon(f: _Failure) -> _Finding | None:
    if not (f.first in grammar.ASSERTION_WORDS and ":" in f.code_part and f.loc > f.indent):
        return None
    fixed = _as_assertion(f.line)
    if fixed is None:
        return None
    return _Finding(f.code_part.index(":"), "KC100",
                    f"this looks like an assertion line, but an assertion has no ':' "
                    f"('{clip(fixed)}'); assertion lines stand after the hand's play")


def _unknown_start(f: _Failure) -> _Finding | None:
    """The line's first word starts no kind of line."""
    line, loc, code_part = f.line, f.loc, f.code_part
    if loc != 0 and line[:loc].strip():
        return None
    lowered = f.word.lower()
    if lowered in ("draw", "pass") or _ACTION_START.match(line, loc):
        action = code_part[loc:].partition(";")[0].strip(" \t")
        hint = f": an action is written after its player ('PLAYER: {clip(action)}')"
    elif "->" in line or ";" in line or ":" not in code_part:
        hint = did_you_mean(lowered, STARTERS + ("draw", "pass"))
        if not hint and "->" not in line and _ENDS_WITH_AMOUNT.search(line):
            hint = did_you_mean(lowered, grammar.ASSERTION_WORDS)
        if not hint and ":" not in line and f.word:
            hint = f"; a turn needs ':' after the player ('{clip(f.word)}: ACTION; ACTION; ...')"
    else:
        hint = did_you_mean(lowered, STARTERS)
    if hint:
        return _Finding(loc, "KC101", f"{_quote(f.word)} does not start a log line{hint}")
    return _Finding(loc, "KC101", f"{_quote(f.word)} does not start a log line: expected a tag [Name \"value\"], "
                                  f"hand, deal, layout, blocked, reveal, score, chips, paid, pot, or a turn "
                                  f"'PLAYER: ACTION; ...'")


def _missing_colon_rule(f: _Failure) -> _Finding | None:
    if f.expected != "':'" or f.first not in ("deal", "reveal"):
        return None
    at, message = _missing_colon(f.line, f.first_word, f.loc)
    return _Finding(at, "KC100", message)


def _hand_line(f: _Failure) -> _Finding | None:
    if not f.expected.startswith("a hand number, 'dealer PLAYER'"):
        return None
    return _Finding(f.loc, "KC100", f"expected {f.expected}{f.found}{did_you_mean(f.word.lower(), ('dealer',))}")


def _card_after_action(f: _Failure) -> _Finding | None:
    """'Ann: 4S->N; 1H->E' stops before '1H', expecting ';': the word is a card gone wrong."""
    problem = _card_problem(f.word) if f.expected.startswith("';' between actions") else None
    return None if problem is None else _Finding(f.loc, "KC102", problem)


def _card(f: _Failure) -> _Finding | None:
    if not f.expected.startswith("a card"):
        return None
    message = _card_problem(f.word) or f"expected a card{f.found} ({_RANKS_HELP}; {_SUITS_HELP})"
    return _Finding(f.loc, "KC102", message)


def _pile(f: _Failure) -> _Finding | None:
    if not f.expected.startswith("a pile"):
        return None
    hint = did_you_mean(f.word.lower(), [p.value.lower() for p in Pile]).upper().replace("DID YOU MEAN", "did you mean")
    return _Finding(f.loc, "KC103", f"expected a pile (N, E, S, W, NE, NW, SE, SW) after '->'{f.found}{hint}")


def _action(f: _Failure) -> _Finding | None:
    if not f.expected.startswith("an action"):
        return None
    line, loc, word = f.line, f.loc, f.word
    left = re.split(grammar.ARROW_RE, line[loc:], maxsplit=1)[0].strip()
    left_word = _word_at(left, 0) if left else ""
    problem = _card_problem(left_word) if left_word else None
    if problem:
        return _Finding(loc, "KC102", problem)
    if line[loc:].lstrip().startswith(";"):
        return _Finding(loc, "KC104", "expected an action between ';' and ';' (write 'pass' for a turn with no action)")
    message = (f"expected an action (CARD->PILE, PILE->PILE, draw, draw CARD or pass){f.found}"
               f"{did_you_mean(word.lower(), ('draw', 'pass'))}")
    if word.lower() in grammar.ASSERTION_WORDS:
        message += "; an assertion goes on a line of its own, after the hand's play"
    elif f.first in grammar.ASSERTION_WORDS:
        message += f"; {_ASSERTION_HELP}"
    return _Finding(loc, "KC104", message)


def _tag(f: _Failure) -> _Finding | None:
    if not f.line.lstrip().startswith("["):
        return None
    return _Finding(f.loc, "KC105", f"malformed tag: expected {f.expected}{f.found}; a tag is written [Name \"value\"]")


_RULES: tuple[Callable[[_Failure], _Finding | None], ...] = (
    _odd_blank_rule, _misspelt_start, _assertion_with_colon, _unknown_start, _missing_colon_rule, _hand_line,
    _card_after_action, _card, _pile, _action, _tag,
)
