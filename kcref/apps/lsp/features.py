"""What the server answers, from a judged document (:class:`~.judging.Judged`), in plain values:
the positions are the document's own (0-based lines, columns in characters); the server turns
them into the protocol's.

Every answer is made by the command that already makes it: the diagnostics are ``kcref
check``'s, the legal plays ``kcref record``'s Tab, the table ``kcref show``'s drawing, a code's
text ``kcref explain``'s, the formatted text ``kcref fmt``'s."""

from __future__ import annotations

import io
import re
from collections.abc import Iterator, Sequence
from difflib import SequenceMatcher
from typing import NamedTuple

from ...engine.table import Table
from ...model.codes import BY_CODE
from ...model.diagnostics import Diagnostic, end_column
from ...model.events import Layout
from ...model.options import OPTION_TAGS, PRESETS_BY_NAME
from ...model.systems import SYSTEMS
from ...notation.lexicon import ARROW_RE, ASSERTION_WORDS, CARD_RE, KEYWORDS, PILE_RE
from ...notation.textlines import encoded
from ...referee.replay import table_at
from ...referee.suppression import MARK
from .judging import Judged, JudgedHand


class Span(NamedTuple):
    """Where a diagnostic or a fix stands: a line and the columns of its token (0-based, end excluded)."""

    line: int
    start: int
    end: int


def span_of(judged: Judged, d: Diagnostic) -> Span:
    """The token a diagnostic points at (the whole first line for a diagnostic of the file)."""
    line = max(d.line, 1) - 1
    text = judged.lines[line] if line < len(judged.lines) else ""
    column = max(d.column, 1)
    return Span(line, column - 1, end_column(text, column) - 1)


def table_hint(d: Diagnostic, path: str) -> str | None:
    """The hint ``kcref check`` prints under a rule error: where to see the table then."""
    if d.is_error and d.code.startswith("KC3"):
        return f"the table then: kcref show {path} --line {d.line}"
    return None


# --- completion ----------------------------------------------------------------------------------


class Offer(NamedTuple):
    """A completion: the text, what it is, and how many characters before the cursor it replaces."""

    text: str
    kind: str
    """``action``, ``player``, ``keyword``, ``tag`` or ``value``."""
    replaces: int


_TAG_NAMES = ("Players", "Rules", "Date", "Event", "Site", "Round", *(t.tag for t in OPTION_TAGS))
_LINE_WORDS = (*KEYWORDS[:1], *KEYWORDS[2:], *ASSERTION_WORDS)


def _tag_values(name: str) -> tuple[str, ...]:
    if name == "Rules":
        return tuple(PRESETS_BY_NAME)
    if name == "Scoring":
        return tuple(SYSTEMS)
    spec = next((t for t in OPTION_TAGS if t.tag == name), None)
    return spec.choices if spec is not None else ()


def _players(judged: Judged, hand: JudgedHand | None) -> tuple[str, ...]:
    if hand is not None and hand.record.players:
        return hand.record.players
    from ...referee.grouping import split_players

    players = [t for t in judged.tags if t.name == "Players"]
    return tuple(split_players(players[-1].value)) if players else ()


def completions(judged: Judged, line: int, before: str) -> list[Offer]:
    """The completions for the text ``before`` the cursor on ``line`` (0-based) of the document."""
    stripped = before.lstrip()
    if stripped.startswith("["):
        return _tag_offers(stripped)
    hand = judged.hand_at(line + 1)
    if ":" in stripped or ";" in stripped:
        return [Offer(text, "action", replaces) for text, replaces in _action_offers(hand, line + 1, before)]
    words = stripped.split(" ")
    players = _players(judged, hand)
    if len(words) > 1 and words[0].lower() in ("deal", "reveal", *ASSERTION_WORDS[:-1]):
        typed = words[-1]
        return [Offer(p, "player", len(typed)) for p in players if p.lower().startswith(typed.lower())]
    if len(words) > 1:
        return []
    typed = stripped.lower()
    to_move = _player_to_move(hand, line + 1)
    names = ([to_move] if to_move else []) + [p for p in players if p != to_move]
    offers = [Offer(f"{name}: ", "player", len(stripped)) for name in names if name.lower().startswith(typed)]
    offers += [Offer(w, "keyword", len(stripped)) for w in _LINE_WORDS if w.startswith(typed)]
    return offers


def _tag_offers(stripped: str) -> list[Offer]:
    if '"' not in stripped:
        typed = stripped[1:]
        return [Offer(name, "tag", len(typed)) for name in _TAG_NAMES if name.lower().startswith(typed.lower())]
    name, _, value = stripped[1:].partition('"')
    return [Offer(v, "value", len(value)) for v in _tag_values(name.strip())
            if v.lower().startswith(value.lower())]


def _table_before(hand: JudgedHand | None, line: int) -> Table | None:
    """The table just before ``line`` of the hand (1-based), with its player to move; or None."""
    if hand is None or not hand.record.players or line <= hand.line:
        return None
    carry = hand.carry()
    position = table_at(hand.record, line - 1, carry.stacks, carry.pot)
    t = position.table
    if t is None or position.error is not None or t.over:
        return None
    return t


def _player_to_move(hand: JudgedHand | None, line: int) -> str | None:
    t = _table_before(hand, line)
    return None if t is None else t.name


def _action_offers(hand: JudgedHand | None, line: int, before: str) -> list[tuple[str, int]]:
    """The legal next actions of the player to move that start as the last word typed, as Tab
    in ``kcref record`` offers them (and, where that player's hand is unknown, after a card, the
    piles it may go on)."""
    from ..record.view import turn_offers

    t = _table_before(hand, line)
    if t is None:
        return []
    fragment = before.rpartition(";")[2]
    fragment = (fragment.split(":", 1)[1] if ":" in fragment else fragment).lstrip()
    return [(offer, len(fragment)) for offer in turn_offers(t, t.name, before)]


# --- hover ---------------------------------------------------------------------------------------


_CODE = re.compile(r"KC\d{3}")


def hover(judged: Judged, path: str, line: int, character: int) -> str | None:
    """The text shown over ``line`` (0-based): a code's explanation on a code (``KC301``), else
    the table after that line, as ``kcref show --line`` draws it in text."""
    text = judged.lines[line] if line < len(judged.lines) else ""
    for m in _CODE.finditer(text):
        if m.start() <= character <= m.end() and m.group() in BY_CODE:
            from ...render.explain_text import explain

            return explain(m.group())
    hand = judged.hand_at(line + 1)
    if hand is None:
        return None
    return table_text(hand, path, line + 1)


def table_text(hand: JudgedHand, path: str, line: int) -> str:
    """The table after ``line`` (1-based) of the hand: ``kcref show PATH --line LINE``'s text."""
    from ...render.table_view import Located, ViewStyle, draw_dealing, draw_table

    record = hand.record
    carry = hand.carry()
    located = Located(record, dict(carry.stacks), carry.pot, line)
    style = ViewStyle(ascii=True)
    if record.valid:
        layout = next((e for e in record.events if isinstance(e, Layout)), None)
        if layout is not None and line < layout.span.line:
            return draw_dealing(located, layout, style)
    return draw_table(located, table_at(record, line, located.stacks, located.pot), style)


# --- formatting ----------------------------------------------------------------------------------


def formatted(text: str, path: str) -> str | None:
    """``kcref fmt``'s canonical text of the document, or None where fmt refuses (an error)."""
    from ...notation.formatter import Mode, format_file

    errors: list[Diagnostic] = []
    out = io.BytesIO()
    format_file("-", Mode.PRINT, on_error=errors.append, out=out, stdin=io.BytesIO(encoded(text)), name=path)
    if errors:
        return None
    return out.getvalue().decode("utf-8")


# --- code actions --------------------------------------------------------------------------------


class Fix(NamedTuple):
    """A quick fix: its title, and the text that replaces a span of the document."""

    title: str
    span: Span
    text: str


_DID_YOU_MEAN = re.compile(r"did you mean '([^']+)'\?", re.IGNORECASE)
_COUNTED = re.compile(r"kcref counts (-?\d+)")
_WORD = re.compile(r"[^\s;,#\"\[\]:]+")


def fixes(judged: Judged, d: Diagnostic) -> list[Fix]:
    """The quick fixes for a diagnostic: its "did you mean", kcref's count for a wrong assertion,
    and the comment that silences it on its line."""
    found: list[Fix] = []
    span = span_of(judged, d)
    text = judged.lines[span.line] if span.line < len(judged.lines) else ""
    meant = _DID_YOU_MEAN.search(d.message)
    if meant is not None:
        word = _closest_word(text, span.start, meant.group(1))
        if word is not None:
            found.append(Fix(f"Replace with '{meant.group(1)}'", Span(span.line, *word), meant.group(1)))
    counted = _COUNTED.search(d.message)
    if counted is not None and d.code == "KC601":
        found.append(Fix(f"Write kcref's count: {counted.group(1)}", span, counted.group(1)))
    if d.line > 0:
        found.append(_ignore_fix(text, span.line, d.code))
    return found


def _closest_word(text: str, start: int, meant: str) -> tuple[int, int] | None:
    """The word at or after ``start`` most like ``meant`` (the one misspelt)."""
    best: tuple[float, int, int] | None = None
    for m in _WORD.finditer(text):
        if m.end() <= start or m.group() == meant:
            continue
        ratio = SequenceMatcher(None, m.group().lower(), meant.lower()).ratio()
        if best is None or ratio > best[0]:
            best = (ratio, m.start(), m.end())
    return None if best is None else (best[1], best[2])


_SUPPRESSION = re.compile(r"#\s*" + re.escape(MARK) + r"\s*ignore\[([^\]]*)\]")


def _ignore_fix(text: str, line: int, code: str) -> Fix:
    title = f"Ignore {code} on this line (# {MARK} ignore[{code}])"
    m = _SUPPRESSION.search(text)
    if m is not None:
        codes = m.group(1).strip()
        return Fix(title, Span(line, m.start(1), m.end(1)), f"{codes}, {code}" if codes else code)
    end = len(text.rstrip())
    return Fix(title, Span(line, end, len(text)), f"  # {MARK} ignore[{code}]")


# --- semantic tokens -----------------------------------------------------------------------------


TOKEN_TYPES = ("keyword", "variable", "enumMember", "number", "property", "string", "comment", "operator")
SUIT_MODIFIERS = ("spades", "hearts", "diamonds", "clubs")
"""A card's suit, as a token modifier (``spades``, ``hearts``...): an editor colours them apart."""


class Token(NamedTuple):
    """A token to colour: where (0-based line, start, length in characters), its type, a card's suit."""

    line: int
    start: int
    length: int
    type: str
    suit: str | None = None


_SUIT_OF = {"s": "spades", "♠": "spades", "♤": "spades", "h": "hearts", "♥": "hearts", "♡": "hearts",
            "d": "diamonds", "♦": "diamonds", "♢": "diamonds", "c": "clubs", "♣": "clubs", "♧": "clubs"}
_WORDS = "|".join(sorted((*KEYWORDS, *ASSERTION_WORDS), key=len, reverse=True))
_LINE = re.compile(
    rf"(?P<tag>^\s*\[\s*(?P<tagname>\w+)\s*\"(?P<tagvalue>[^\"]*)\"\s*\])"
    rf"|(?P<comment>#.*$)"
    rf"|(?P<card>(?<![\w\ufe0f]){CARD_RE})"
    rf"|(?P<arrow>{ARROW_RE})"
    rf"|(?P<pile>(?<=->)(?:{PILE_RE})|(?<=→)(?:{PILE_RE})|(?<![\w-])(?:{PILE_RE})(?=\s*(?:->|→|:)))"
    rf"|(?P<keyword>(?<![\w'.-])(?:{_WORDS})(?![\w'.-]))"
    rf"|(?P<number>(?<![\w'.-])-?\d+(?![\w'.-]))"
    rf"|(?P<player>^\s*[\w'.\-]+(?: [\w'.\-]+)*(?=:))",
    re.IGNORECASE,
)


def tokens(lines: Sequence[str]) -> Iterator[Token]:
    """The tokens of each line to colour: cards (by suit), piles, players, keywords, figures,
    tags and comments."""
    for number, text in enumerate(lines):
        for m in _LINE.finditer(text):
            kind = m.lastgroup
            if kind == "tag":
                yield Token(number, m.start("tagname"), len(m.group("tagname")), "property")
                yield Token(number, m.start("tagvalue"), len(m.group("tagvalue")), "string")
            elif kind in ("tagname", "tagvalue"):
                continue
            elif kind == "card":
                suit = m.group().rstrip("\ufe0f")[-1].lower()
                yield Token(number, m.start(), len(m.group()), "number", _SUIT_OF.get(suit))
            elif kind == "player":
                name = m.group()
                lead = len(name) - len(name.lstrip())
                yield Token(number, m.start() + lead, len(name) - lead, "variable")
            else:
                yield Token(number, m.start(), len(m.group()), {
                    "comment": "comment", "arrow": "operator", "pile": "enumMember", "keyword": "keyword",
                    "number": "number"}[kind or "comment"])

