"""The pyparsing grammar of one log line: the normative implementation of grammar/log.ebnf.

This module imports nothing from kcref but its lexical rules (:mod:`kcref.notation.lexicon`),
and costs tens of milliseconds to import: the reader imports it only when a line needs it. Its
productions carry names (``set_name``) so that a failure says what was expected, and commit with
``-`` after a keyword or an arrow so that the error column lands on the real fault. Every token
is returned as a ``Tok`` holding its kind, its 0-based offset in the line and its text; the
reader turns them into events.

A log is read line by line: ``parse_line`` takes one line without its line end.
"""

from __future__ import annotations

import enum
from typing import NamedTuple

import pyparsing as pp

# The lexical rules, re-exported: grammar.CARD_RE is the lexicon's.
from .lexicon import AMOUNT_RE as AMOUNT_RE
from .lexicon import ARROW_RE as ARROW_RE
from .lexicon import ASSERTION_WORDS as ASSERTION_WORDS
from .lexicon import CARD_RE as CARD_RE
from .lexicon import KEYWORDS as KEYWORDS
from .lexicon import NAME_RE as NAME_RE
from .lexicon import NAME_WORD_RE as NAME_WORD_RE
from .lexicon import PILE_RE as PILE_RE
from .lexicon import PLAYER_ASSERTION_WORDS as PLAYER_ASSERTION_WORDS
from .lexicon import RANK_RE as RANK_RE
from .lexicon import SUIT_RE as SUIT_RE

BLANKS = " \t"
"""Lines are read one at a time: whitespace between tokens is spaces and tabs only. It is set on
each element (by ``_blanks``, at the end of this module), never as pyparsing's process-wide
default, so that importing kcref changes no other grammar in the program."""


class Tok(NamedTuple):
    """A token: its kind (``card``, ``pile``, ``name``…), 0-based offset, and text."""

    kind: str
    loc: int
    text: str


class ActKind(enum.Enum):
    """The four kinds of action a turn line may hold."""

    PLAY = "play"
    MOVE = "move"
    DRAW = "draw"
    PASS = "pass"


class Act(NamedTuple):
    """An action of a turn: its kind and its tokens."""

    kind: ActKind
    toks: tuple[Tok, ...]


def _act(kind: ActKind, expr: pp.ParserElement) -> pp.ParserElement:
    # One value per action rather than a Group with a results name: pyparsing copies the list of
    # every results name on each repeat, so named actions made a long turn line quadratic to
    # parse. The Group stays: it makes a failure inside the action say the action's name.
    return pp.Group(expr).add_parse_action(lambda t: Act(kind, tuple(t[0])))


def _tok(kind: str, expr: pp.ParserElement) -> pp.ParserElement:
    return expr.add_parse_action(lambda s, loc, t: Tok(kind, loc, t[0]))


def _regex(kind: str, pattern: str, name: str) -> pp.ParserElement:
    return _tok(kind, pp.Regex(pattern)).set_name(name)


def _kw(word: str) -> pp.ParserElement:
    # Letter by letter rather than CaselessKeyword or re.I, which also fold 'ſ' into 's'; and a
    # keyword ends only where a name word could not go on (so "handα" is a name, as in NAME_RE).
    pattern = "".join(f"[{c.upper()}{c}]" for c in word) + r"(?![\w'.\-])"
    return pp.Regex(pattern).set_name(f"'{word}'")


CARD = _regex("card", CARD_RE, "a card (rank A 2-10 T J Q K, then suit S H D C or ♠ ♥ ♦ ♣)")
PILE = _regex("pile", PILE_RE, "a pile (N, E, S, W, NE, NW, SE, SW)")
NAME = _regex("name", NAME_RE, "a player (a seat tag P1..P6 or a name from Players)")
TURN_NAME = _regex("name", NAME_RE + r"(?=[ \t]*:)", "a player followed by ':'")
NUMBER = _regex("number", r"\d{1,9}(?!\w)", "a hand number")  # bounded: int() refuses > 4300 digits
ARROW = pp.Regex(ARROW_RE).set_name("'->'").suppress()
COLON = pp.Literal(":").set_name("':'").suppress()
SEMI = pp.Literal(";").set_name("';'").suppress()
COMMENT = _regex("comment", r"#.*", "a comment")
_END_AHEAD = r"(?=[ \t]*(?:#.*)?$)"  # only blanks and a comment left on the line


def _then_end(what: str) -> pp.ParserElement:
    """Nothing more on the line but a comment; failing that, say ``what`` was expected."""
    return pp.Regex(_END_AHEAD).suppress().set_name(what)


HAND, DEALER, DEAL, LAYOUT = _kw("hand"), _kw("dealer"), _kw("deal"), _kw("layout")
DRAW, PASS, BLOCKED, REVEAL = _kw("draw"), _kw("pass"), _kw("blocked"), _kw("reveal")

# --- actions --------------------------------------------------------------------------------
PLAY_CARD = _act(ActKind.PLAY, CARD + ARROW - PILE).set_name("CARD->PILE")
MOVE_PILE = _act(ActKind.MOVE, PILE + ARROW - PILE).set_name("PILE->PILE")
DRAW_ACTION = _act(ActKind.DRAW, _tok("draw", DRAW) + pp.Opt(CARD)).set_name("draw")
PASS_ACTION = _act(ActKind.PASS, _tok("pass", PASS)).set_name("pass")
ACTION = (PLAY_CARD | MOVE_PILE | DRAW_ACTION | PASS_ACTION).set_name(
    "an action (CARD->PILE, PILE->PILE, draw, draw CARD or pass)"
)

# --- statements -----------------------------------------------------------------------------
TAG_NAME = _regex("tagname", r"[A-Za-z][A-Za-z0-9_]*", "a tag name")
# A backslash stands for the character after it (\" and \\ in practice); "\n" is not a newline.
TAG_VALUE = _tok("value", pp.QuotedString('"', esc_char="\\", convert_whitespace_escapes=False)).set_name(
    'a quoted value "..."'
)
TAG = pp.Group(
    _tok("open", pp.Literal("[")) - TAG_NAME + TAG_VALUE + pp.Suppress(pp.Literal("]").set_name("']'"))
    - _then_end("the end of the line after the tag")
)("tag").set_name('a tag [Name "value"]')

HAND_LINE = pp.Group(
    _tok("hand", HAND) - pp.Opt(NUMBER) + pp.Opt(pp.Group(DEALER - NAME)("dealer"))
    - _then_end("a hand number, 'dealer PLAYER' or the end of the line")
)("hand").set_name("hand [NUMBER] [dealer PLAYER]")
CARDS = pp.OneOrMore(CARD) - _then_end(CARD.customName)
DEAL_LINE = pp.Group(_tok("deal", DEAL) - NAME + COLON + CARDS)("deal").set_name(
    "deal PLAYER: CARD ..."
)
LAYOUT_ENTRY = pp.Group(PILE + pp.Suppress(pp.Literal(":").set_name("':'")) - CARD).set_name("PILE:CARD")
LAYOUT_LINE = pp.Group(_tok("layout", LAYOUT) - pp.OneOrMore(LAYOUT_ENTRY) - _then_end("PILE:CARD"))("layout").set_name(
    "layout N:CARD E:CARD S:CARD W:CARD"
)
BLOCKED_LINE = pp.Group(_tok("blocked", BLOCKED) - _then_end("the end of the line after 'blocked'"))("blocked")
BLOCKED_LINE.set_name("blocked")
REVEAL_LINE = pp.Group(_tok("reveal", REVEAL) - NAME + COLON + CARDS)("reveal").set_name(
    "reveal PLAYER: CARD ..."
)
# An assertion: 'score Ann 12, Bob 3', 'chips Ann 25', 'paid Bob 3', 'pot 17'. A claim's amount is
# its last word, before ',' ';' '#' or the end of the line; the player's name is every word before
# it (names may hold digits: 'paid Player 2 5' is Player 2's 5).
_CLAIM_RE = (rf"(?P<name>{NAME_WORD_RE}(?: {NAME_WORD_RE})*?)[ \t]+(?P<amount>{AMOUNT_RE})"
             r"(?=[ \t]*(?:[,;#]|$))")


def _claim_tokens(s: str, loc: int, t: pp.ParseResults) -> list[Tok]:
    text, amount = t[0], t["amount"]
    return [Tok("name", loc, t["name"]), Tok("amount", loc + len(text) - len(amount), amount)]


CLAIM = pp.Regex(_CLAIM_RE).add_parse_action(_claim_tokens).set_name("a player and a number ('Ann 12')")
AMOUNT = _regex("amount", AMOUNT_RE, "a number")
COMMA = pp.Literal(",").set_name("','").suppress()
PLAYER_ASSERTION = (
    _tok("assert", pp.MatchFirst([_kw(w) for w in PLAYER_ASSERTION_WORDS]))
    - pp.Group(CLAIM + pp.ZeroOrMore(COMMA - CLAIM))
    - _then_end("',' and another 'PLAYER NUMBER', or the end of the line")
)
POT_ASSERTION = _tok("assert", _kw("pot")) - pp.Group(AMOUNT) - _then_end("the end of the line after the pot")
ASSERTION_LINE = pp.Group(PLAYER_ASSERTION | POT_ASSERTION)("assertion").set_name(
    "an assertion: score, chips or paid PLAYER NUMBER, ...; or pot NUMBER"
)

_AT_END = pp.Regex(_END_AHEAD)
ACTIONS = pp.Group(
    ACTION
    + pp.ZeroOrMore(SEMI + ~_AT_END - ACTION)
    + pp.Opt(SEMI)
    - _then_end("';' between actions, or the end of the line")
)("actions")
TURN_LINE = pp.Group(TURN_NAME + COLON - ACTIONS)("turn").set_name("PLAYER: ACTION; ...")

# The turn comes before the assertion: 'Pot: pass' is a turn (by a player named Pot).
STATEMENT = (TAG | HAND_LINE | DEAL_LINE | LAYOUT_LINE | BLOCKED_LINE | REVEAL_LINE | TURN_LINE
             | ASSERTION_LINE).set_name(
    "a tag, hand, deal, layout, blocked, reveal, a turn 'PLAYER: ACTION; ...' or an assertion"
)
END = pp.StringEnd().set_name("the end of the line")
LINE = (pp.Opt(STATEMENT) + pp.Opt(COMMENT("comment")) + END).parse_with_tabs()
LINE.set_name("a log line")


def _blanks(root: pp.ParserElement) -> None:
    """Make spaces and tabs the only whitespace of ``root`` and of every element inside it."""
    seen: set[int] = set()
    todo = [root]
    while todo:
        element = todo.pop()
        if id(element) in seen:
            continue
        seen.add(id(element))
        element.set_whitespace_chars(BLANKS, copy_defaults=False)
        todo.extend(element.recurse())


_blanks(LINE)


def parse_line(line: str) -> pp.ParseResults:
    """Parse one line (no line end). Raises ``pyparsing.ParseBaseException`` on a syntax error."""
    return LINE.parse_string(line, parse_all=True)
