"""Typed events read from a log: one per meaningful line, each knowing where it came from.

Events are immutable values. The source position (``span``) and the columns of sub-parts are
excluded from equality, so two logs that say the same thing read as equal events even when
their spacing differs (this is what ``read(fmt(x)) == read(x)`` means).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple, Union

from .cards import Card, Pile


class Span(NamedTuple):
    """Where something stands in a log: path, 1-based line and 1-based column (code points)."""

    path: str
    line: int
    col: int


NOWHERE = Span("", 0, 0)


# --- actions (the parts of a turn line) -------------------------------------------------------
# Actions are pure values (no position) so that the reader can share them; a Turn keeps the
# column of each of its actions beside them.


class PlayCard(NamedTuple):
    """``CARD->PILE``: a card from hand onto a pile."""

    card: Card
    pile: Pile

    def __str__(self) -> str:
        return f"{self.card}->{self.pile}"


class MovePile(NamedTuple):
    """``PILE->PILE``: a whole foundation pile onto another pile (or a King pile to a corner)."""

    source: Pile
    target: Pile

    def __str__(self) -> str:
        return f"{self.source}->{self.target}"


class Draw(NamedTuple):
    """``draw`` or ``draw CARD``: the top card of the stock, written when known."""

    card: Card | None = None

    def __str__(self) -> str:
        return "draw" if self.card is None else f"draw {self.card}"


class Pass(NamedTuple):
    """``pass``: a turn with no action at all."""

    def __str__(self) -> str:
        return "pass"


Action = Union[PlayCard, MovePile, Draw, Pass]
PASS = Pass()


# --- line events --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Tag:
    """``[Name "value"]``: a header that applies to the hands after it."""

    name: str
    value: str
    span: Span = field(default=NOWHERE, compare=False)
    comment: str = ""


@dataclass(frozen=True, slots=True)
class HandStart:
    """``hand [NUMBER] [dealer PLAYER]``: a new hand begins."""

    number: int | None = None
    dealer: str | None = None
    span: Span = field(default=NOWHERE, compare=False)
    comment: str = ""
    dealer_col: int = field(default=0, compare=False)


@dataclass(frozen=True, slots=True)
class Deal:
    """``deal PLAYER: CARD ...``: the cards dealt to one player."""

    player: str
    cards: tuple[Card, ...]
    span: Span = field(default=NOWHERE, compare=False)
    comment: str = ""
    cols: tuple[int, ...] = field(default=(), compare=False)
    """Column of each card."""


@dataclass(frozen=True, slots=True)
class Layout:
    """``layout N:CARD E:CARD S:CARD W:CARD [CORNER:CARD ...]``: the table when play starts."""

    piles: tuple[tuple[Pile, Card], ...]
    span: Span = field(default=NOWHERE, compare=False)
    comment: str = ""
    cols: tuple[int, ...] = field(default=(), compare=False)
    """Column of each ``PILE:CARD`` entry."""


@dataclass(frozen=True, slots=True)
class Turn:
    """``PLAYER: ACTION; ACTION; ...``: one player's turn."""

    player: str
    actions: tuple[Action, ...]
    span: Span = field(default=NOWHERE, compare=False)
    comment: str = ""
    cols: tuple[int, ...] = field(default=(), compare=False)
    """Column of each action."""


@dataclass(frozen=True, slots=True)
class Blocked:
    """``blocked``: the hand ended with nobody able to play."""

    span: Span = field(default=NOWHERE, compare=False)
    comment: str = ""


@dataclass(frozen=True, slots=True)
class Reveal:
    """``reveal PLAYER: CARD ...``: the cards left in a hand whose deal was not recorded."""

    player: str
    cards: tuple[Card, ...]
    span: Span = field(default=NOWHERE, compare=False)
    comment: str = ""
    cols: tuple[int, ...] = field(default=(), compare=False)


@dataclass(frozen=True, slots=True)
class Comment:
    """A line holding only a comment (kept for ``kcref fmt``; the referee ignores it)."""

    text: str
    span: Span = field(default=NOWHERE, compare=False)


@dataclass(frozen=True, slots=True)
class Blank:
    """An empty line (kept for ``kcref fmt``; the referee ignores it)."""

    span: Span = field(default=NOWHERE, compare=False)


Event = Union[Tag, HandStart, Deal, Layout, Turn, Blocked, Reveal, Comment, Blank]
TRIVIA = (Comment, Blank)
