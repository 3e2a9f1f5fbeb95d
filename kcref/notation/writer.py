"""Write events back as log text, in the canonical form that ``kcref fmt`` prints.

Canonical form: lower-case keywords, upper-case cards and piles, one space between tokens,
``; `` between actions, ``, `` between the figures of an assertion, ``N:5D`` layout entries,
one space before a trailing comment, runs of blank lines folded into one, no blank lines at the
end, and the file ending with one newline.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Iterator
from typing import Any, NamedTuple

from ..model.cards import Card
from ..model.events import (
    Action,
    Assertion,
    Blank,
    Blocked,
    Comment,
    Deal,
    Draw,
    Event,
    HandStart,
    Layout,
    MovePile,
    PlayCard,
    Reveal,
    Tag,
    Turn,
)


class Spelling(NamedTuple):
    """The choices canonical form leaves open."""

    ten: str = "10"
    """How the rank ten is written: ``10`` or ``T``."""
    symbols: bool = False
    """Suits as ♠ ♥ ♦ ♣ instead of S H D C."""


DEFAULT_SPELLING = Spelling()


def card_text(card: Card, spelling: Spelling = DEFAULT_SPELLING) -> str:
    """A card in the given spelling."""
    return _spelled(spelling).cards[card]


def action_text(action: Action, spelling: Spelling = DEFAULT_SPELLING) -> str:
    """One action as written in a turn line."""
    return _spelled(spelling).actions[action]


def _action_text(action: Action, card: Callable[[Card], str]) -> str:
    if isinstance(action, PlayCard):
        return f"{card(action.card)}->{action.pile.value}"
    if isinstance(action, MovePile):
        return f"{action.source.value}->{action.target.value}"
    if isinstance(action, Draw):
        return "draw" if action.card is None else f"draw {card(action.card)}"
    return "pass"


def _quote(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


class _Memo(dict[Any, str]):
    """Texts made once each, on first use: cards and actions are few, and come again and again."""

    def __init__(self, make: Callable[[Any], str]) -> None:
        super().__init__()
        self.make = make

    def __missing__(self, key: Any) -> str:
        text = self[key] = self.make(key)
        return text


class _Spelled:
    """The writer for one spelling: each kind of line's text (with its comment) by the event's
    type, each card's and each action's text made once."""

    def __init__(self, spelling: Spelling) -> None:
        self.cards = _Memo(lambda card: card.text(spelling.ten, spelling.symbols))
        self.actions = _Memo(lambda action: _action_text(action, self.cards.__getitem__))
        self.lines: dict[type, Callable[[Any], str]] = {
            kind: self._commented(body) for kind, body in (
                (Tag, self._tag), (HandStart, self._hand_start), (Deal, self._deal), (Reveal, self._reveal),
                (Layout, self._layout), (Turn, self._turn), (Blocked, self._blocked), (Assertion, self._assertion))}
        self.lines[Comment] = lambda event: event.text
        self.lines[Blank] = lambda event: ""

    @staticmethod
    def _commented(body: Callable[[Any], str]) -> Callable[[Any], str]:
        def line(event: Any) -> str:
            text = body(event)
            return f"{text} {event.comment}" if event.comment else text
        return line

    def _cards(self, cards: Iterable[Card]) -> str:
        return " ".join(map(self.cards.__getitem__, cards))

    def _tag(self, event: Tag) -> str:
        return f"[{event.name} {_quote(event.value)}]"

    def _hand_start(self, event: HandStart) -> str:
        body = "hand"
        if event.number is not None:
            body += f" {event.number}"
        if event.dealer is not None:
            body += f" dealer {event.dealer}"
        return body

    def _deal(self, event: Deal) -> str:
        return f"deal {event.player}: {self._cards(event.cards)}"

    def _reveal(self, event: Reveal) -> str:
        return f"reveal {event.player}: {self._cards(event.cards)}"

    def _layout(self, event: Layout) -> str:
        card = self.cards
        return "layout " + " ".join(f"{p.value}:{card[c]}" for p, c in event.piles)

    def _turn(self, event: Turn) -> str:
        return f"{event.player}: " + "; ".join(map(self.actions.__getitem__, event.actions))

    def _blocked(self, event: Blocked) -> str:
        return "blocked"

    def _assertion(self, event: Assertion) -> str:
        return f"{event.quantity.value} " + ", ".join(
            str(c.amount) if c.player is None else f"{c.player} {c.amount}" for c in event.claims)


@functools.lru_cache(maxsize=16)
def _spelled(spelling: Spelling) -> _Spelled:
    return _Spelled(spelling)


def event_text(event: Event, spelling: Spelling = DEFAULT_SPELLING) -> str:
    """One event as its canonical line (without the line end)."""
    write = _spelled(spelling).lines.get(type(event))
    if write is None:  # pragma: no cover - Event is a closed union
        raise TypeError(f"not an event: {event!r}")
    return write(event)


def write_lines(events: Iterable[Event], spelling: Spelling = DEFAULT_SPELLING) -> Iterator[str]:
    """Canonical lines (each ending in a newline) for a stream of events, trivia included."""
    lines = _spelled(spelling).lines
    pending_blank = False
    started = False
    for event in events:
        kind = type(event)
        if kind is Blank:
            pending_blank = started
            continue
        if pending_blank:
            yield "\n"
            pending_blank = False
        started = True
        write = lines.get(kind)
        if write is None:  # pragma: no cover - Event is a closed union
            raise TypeError(f"not an event: {event!r}")
        yield write(event) + "\n"


def write_text(events: Iterable[Event], spelling: Spelling = DEFAULT_SPELLING) -> str:
    """The canonical text of a whole log."""
    return "".join(write_lines(events, spelling))
