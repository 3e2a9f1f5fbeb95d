"""Typed events read from a log: one per meaningful line, each knowing where it came from.

Events are immutable values: frozen, slotted dataclasses. The source position (``span``) and
the columns of sub-parts are excluded from equality, so two logs that say the same thing read
as equal events even when their spacing differs (this is what ``read(fmt(x)) == read(x)`` means).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import NamedTuple

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


Action = PlayCard | MovePile | Draw | Pass
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
    player_col: int = field(default=0, compare=False)
    """Column of the player's name."""


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


def written_draw_steps(actions: tuple[Action, ...]) -> tuple[int, ...]:
    """The positions of the ``draw CARD`` actions among ``actions``."""
    return tuple(i for i, a in enumerate(actions) if type(a) is Draw and a.card is not None)


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
    player_col: int = field(default=0, compare=False)
    """Column of the player's name."""


class Quantity(enum.Enum):
    """What an assertion line states about the end of its hand (the word that starts the line)."""

    SCORE = "score"
    """A player's score for the hand, in the hand's scoring system."""
    CHIPS = "chips"
    """A player's chip stack after the hand."""
    PAID = "paid"
    """The chips a player paid into the pot during the hand (ante, penalties, cards left)."""
    POT = "pot"
    """The pot at the end of play: what the winner took."""


class Claim(NamedTuple):
    """One figure of an assertion: whose (``None`` for the pot) and how much."""

    player: str | None
    amount: int


@dataclass(frozen=True, slots=True)
class Assertion:
    """``score Ann 12, Bob 3``, ``chips Ann 25``, ``paid Bob 3``, ``pot 17``: what the table
    believed at the end of the hand; ``kcref check`` verifies each figure."""

    quantity: Quantity
    claims: tuple[Claim, ...]
    span: Span = field(default=NOWHERE, compare=False)
    comment: str = ""
    cols: tuple[int, ...] = field(default=(), compare=False)
    """Column of each claim's player (of its amount for the pot)."""
    amount_cols: tuple[int, ...] = field(default=(), compare=False)
    """Column of each claim's amount."""


@dataclass(frozen=True, slots=True)
class Comment:
    """A line holding only a comment (kept for ``kcref fmt``; the referee ignores it)."""

    text: str
    span: Span = field(default=NOWHERE, compare=False)


@dataclass(frozen=True, slots=True)
class Blank:
    """An empty line (kept for ``kcref fmt``; the referee ignores it)."""

    span: Span = field(default=NOWHERE, compare=False)


Event = Tag | HandStart | Deal | Layout | Turn | Blocked | Reveal | Assertion | Comment | Blank
TRIVIA = (Comment, Blank)
