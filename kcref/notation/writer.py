"""Write events back as log text, in the canonical form that ``kcref fmt`` prints.

Canonical form: lower-case keywords, upper-case cards and piles, one space between tokens,
``; `` between actions, ``, `` between the figures of an assertion, ``N:5D`` layout entries,
one space before a trailing comment, runs of blank lines folded into one, no blank lines at the
end, and the file ending with one newline.
"""

from __future__ import annotations

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
    return card.text(spelling.ten, spelling.symbols)


def action_text(action: Action, spelling: Spelling = DEFAULT_SPELLING) -> str:
    """One action as written in a turn line."""
    if isinstance(action, PlayCard):
        return f"{card_text(action.card, spelling)}->{action.pile.value}"
    if isinstance(action, MovePile):
        return f"{action.source.value}->{action.target.value}"
    if isinstance(action, Draw):
        return "draw" if action.card is None else f"draw {card_text(action.card, spelling)}"
    return "pass"


def _quote(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _cards(cards: Iterable[Card], spelling: Spelling) -> str:
    return " ".join(card_text(c, spelling) for c in cards)


def event_text(event: Event, spelling: Spelling = DEFAULT_SPELLING) -> str:
    """One event as its canonical line (without the line end)."""
    if isinstance(event, Comment):
        return event.text
    if isinstance(event, Blank):
        return ""
    write = _BODIES.get(type(event))
    if write is None:  # pragma: no cover - Event is a closed union
        raise TypeError(f"not an event: {event!r}")
    body = write(event, spelling)
    return f"{body} {event.comment}" if event.comment else body


def _tag(event: Tag, spelling: Spelling) -> str:
    return f"[{event.name} {_quote(event.value)}]"


def _hand_start(event: HandStart, spelling: Spelling) -> str:
    body = "hand"
    if event.number is not None:
        body += f" {event.number}"
    if event.dealer is not None:
        body += f" dealer {event.dealer}"
    return body


def _deal(event: Deal, spelling: Spelling) -> str:
    return f"deal {event.player}: {_cards(event.cards, spelling)}"


def _reveal(event: Reveal, spelling: Spelling) -> str:
    return f"reveal {event.player}: {_cards(event.cards, spelling)}"


def _layout(event: Layout, spelling: Spelling) -> str:
    return "layout " + " ".join(f"{p.value}:{card_text(c, spelling)}" for p, c in event.piles)


def _turn(event: Turn, spelling: Spelling) -> str:
    return f"{event.player}: " + "; ".join(action_text(a, spelling) for a in event.actions)


def _blocked(event: Blocked, spelling: Spelling) -> str:
    return "blocked"


def _assertion(event: Assertion, spelling: Spelling) -> str:
    return f"{event.quantity.value} " + ", ".join(
        str(c.amount) if c.player is None else f"{c.player} {c.amount}" for c in event.claims)


_BODIES: dict[type, Callable[[Any, Spelling], str]] = {
    Tag: _tag, HandStart: _hand_start, Deal: _deal, Reveal: _reveal, Layout: _layout, Turn: _turn,
    Blocked: _blocked, Assertion: _assertion,
}
"""The text of each kind of line before its trailing comment, by the event's type."""


def write_lines(events: Iterable[Event], spelling: Spelling = DEFAULT_SPELLING) -> Iterator[str]:
    """Canonical lines (each ending in a newline) for a stream of events, trivia included."""
    pending_blank = False
    started = False
    for event in events:
        if isinstance(event, Blank):
            pending_blank = started
            continue
        if pending_blank:
            yield "\n"
            pending_blank = False
        started = True
        yield event_text(event, spelling) + "\n"


def write_text(events: Iterable[Event], spelling: Spelling = DEFAULT_SPELLING) -> str:
    """The canonical text of a whole log."""
    return "".join(write_lines(events, spelling))
