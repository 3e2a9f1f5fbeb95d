"""Typed events read from a log: one per meaningful line, each knowing where it came from.

Events are immutable values: frozen dataclasses (made by :func:`kcref.model.frozen.frozen`).
The source position (``span``) and the columns of sub-parts are excluded from equality, so two
logs that say the same thing read as equal events even when their spacing differs (this is what
``read(fmt(x)) == read(x)`` means).
"""

from __future__ import annotations

import enum
from dataclasses import field
from typing import NamedTuple, TypeVar

from .cards import Card, Pile
from .frozen import Frozen, frozen


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


@frozen(slots=True)
class Tag(Frozen):
    """``[Name "value"]``: a header that applies to the hands after it."""

    name: str
    value: str
    span: Span = field(default=NOWHERE, compare=False)
    comment: str = ""


@frozen(slots=True)
class HandStart(Frozen):
    """``hand [NUMBER] [dealer PLAYER]``: a new hand begins."""

    number: int | None = None
    dealer: str | None = None
    span: Span = field(default=NOWHERE, compare=False)
    comment: str = ""
    dealer_col: int = field(default=0, compare=False)


@frozen(slots=True)
class Deal(Frozen):
    """``deal PLAYER: CARD ...``: the cards dealt to one player."""

    player: str
    cards: tuple[Card, ...]
    span: Span = field(default=NOWHERE, compare=False)
    comment: str = ""
    cols: tuple[int, ...] = field(default=(), compare=False)
    """Column of each card."""
    player_col: int = field(default=0, compare=False)
    """Column of the player's name."""


@frozen(slots=True)
class Layout(Frozen):
    """``layout N:CARD E:CARD S:CARD W:CARD [CORNER:CARD ...]``: the table when play starts."""

    piles: tuple[tuple[Pile, Card], ...]
    span: Span = field(default=NOWHERE, compare=False)
    comment: str = ""
    cols: tuple[int, ...] = field(default=(), compare=False)
    """Column of each ``PILE:CARD`` entry."""


@frozen(slots=True)
class Turn(Frozen):
    """``PLAYER: ACTION; ACTION; ...``: one player's turn."""

    player: str
    actions: tuple[Action, ...]
    span: Span = field(default=NOWHERE, compare=False)
    comment: str = ""
    cols: tuple[int, ...] = field(default=(), compare=False)
    """Column of each action."""
    drawn: tuple[Card, ...] = field(init=False, compare=False, repr=False)
    """The cards of the written draws (``draw CARD``), in order: of a turn's cards, the set-up
    checks look at these only, and take them all at once, not action by action. Worked out
    from the actions (the reader's :func:`read_turn` is given it)."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "drawn", written_draws(self.actions))


def written_draws(actions: tuple[Action, ...]) -> tuple[Card, ...]:
    """The cards of the ``draw CARD`` actions among ``actions``, in order."""
    return tuple(a.card for a in actions if type(a) is Draw and a.card is not None)


def written_draw_steps(actions: tuple[Action, ...]) -> tuple[int, ...]:
    """The positions of the ``draw CARD`` actions among ``actions``."""
    return tuple(i for i, a in enumerate(actions) if type(a) is Draw and a.card is not None)


# --- the reader's hot path ------------------------------------------------------------------------
# A frozen dataclass sets each field through a descriptor call (``object.__setattr__`` in its
# ``__init__``), a third of the cost of reading a turn line. The reader builds the events of
# most lines instead as a "draft": an instance of a plain class with the same slots, filled by
# ordinary attribute stores, then given the event's class (Python allows it between classes
# whose instances have the same layout). Nothing else ever sees a draft.

_new = object.__new__
_E = TypeVar("_E")


class _TurnDraft(Frozen):
    """A :class:`Turn`'s slots, writable."""

    __slots__ = Turn.__slots__
    player: str
    actions: tuple[Action, ...]
    span: Span
    comment: str
    cols: tuple[int, ...]
    drawn: tuple[Card, ...]


def _made(draft: object, cls: type[_E]) -> _E:
    """The filled ``draft``, now an instance of ``cls`` (whose slots are the draft's)."""
    draft.__class__ = cls
    return draft  # type: ignore[return-value]


def read_turn(player: str, actions: tuple[Action, ...], span: Span, comment: str, cols: tuple[int, ...],
              drawn: tuple[Card, ...]) -> Turn:
    """``Turn(player, actions, span, comment, cols)`` at a fifth of the cost, for the reader's
    hot path: ``drawn`` must be :func:`written_draws` of ``actions``, as a test checks."""
    turn = _new(_TurnDraft)
    turn.player = player
    turn.actions = actions
    turn.span = span
    turn.comment = comment
    turn.cols = cols
    turn.drawn = drawn
    turn.__class__ = Turn  # type: ignore[assignment]  # _made, inline: once a turn line
    return turn  # type: ignore[return-value]


class _DealDraft(Frozen):
    """A :class:`Deal`'s slots, writable."""

    __slots__ = Deal.__slots__
    player: str
    cards: tuple[Card, ...]
    span: Span
    comment: str
    cols: tuple[int, ...]
    player_col: int


def read_deal(player: str, cards: tuple[Card, ...], span: Span, comment: str, cols: tuple[int, ...],
              player_col: int) -> Deal:
    """``Deal(...)`` for the reader's hot path, as :func:`read_turn`."""
    deal = _new(_DealDraft)
    deal.player = player
    deal.cards = cards
    deal.span = span
    deal.comment = comment
    deal.cols = cols
    deal.player_col = player_col
    deal.__class__ = Deal  # type: ignore[assignment]  # _made, inline: once a deal line
    return deal  # type: ignore[return-value]


class _LayoutDraft(Frozen):
    """A :class:`Layout`'s slots, writable."""

    __slots__ = Layout.__slots__
    piles: tuple[tuple[Pile, Card], ...]
    span: Span
    comment: str
    cols: tuple[int, ...]


def read_layout(piles: tuple[tuple[Pile, Card], ...], span: Span, comment: str, cols: tuple[int, ...]) -> Layout:
    """``Layout(...)`` for the reader's hot path, as :func:`read_turn`."""
    layout = _new(_LayoutDraft)
    layout.piles = piles
    layout.span = span
    layout.comment = comment
    layout.cols = cols
    return _made(layout, Layout)


class _HandStartDraft(Frozen):
    """A :class:`HandStart`'s slots, writable."""

    __slots__ = HandStart.__slots__
    number: int | None
    dealer: str | None
    span: Span
    comment: str
    dealer_col: int


def read_hand_start(number: int | None, dealer: str | None, span: Span, comment: str, dealer_col: int) -> HandStart:
    """``HandStart(...)`` for the reader's hot path, as :func:`read_turn`."""
    start = _new(_HandStartDraft)
    start.number = number
    start.dealer = dealer
    start.span = span
    start.comment = comment
    start.dealer_col = dealer_col
    return _made(start, HandStart)


@frozen(slots=True)
class Blocked(Frozen):
    """``blocked``: the hand ended with nobody able to play."""

    span: Span = field(default=NOWHERE, compare=False)
    comment: str = ""


@frozen(slots=True)
class Reveal(Frozen):
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


@frozen(slots=True)
class Assertion(Frozen):
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


@frozen(slots=True)
class Comment(Frozen):
    """A line holding only a comment (kept for ``kcref fmt``; the referee ignores it)."""

    text: str
    span: Span = field(default=NOWHERE, compare=False)


@frozen(slots=True)
class Blank(Frozen):
    """An empty line (kept for ``kcref fmt``; the referee ignores it)."""

    span: Span = field(default=NOWHERE, compare=False)


Event = Tag | HandStart | Deal | Layout | Turn | Blocked | Reveal | Assertion | Comment | Blank
TRIVIA = (Comment, Blank)
