"""Typed events read from a log: one per meaningful line, each knowing where it came from.

Events are immutable values: final, slotted classes whose attributes are ``Final`` (mypy
refuses an assignment; a compiled build refuses it at run time too), built by their constructors.
The source position (``span``) and the columns of sub-parts are excluded from equality, so two
logs that say the same thing read as equal events even when their spacing differs (this is what
``read(fmt(x)) == read(x)`` means). They are written out rather than made by ``dataclass``: a
log makes one per line, and a frozen dataclass costs several times as much to build (its
``__init__`` sets each field through ``object.__setattr__``; compiled, it stays interpreted).
"""

from __future__ import annotations

import enum
from typing import Any, ClassVar, Final, NamedTuple, TypeVar, final

from .cards import Card, Pile


@final
class Span:
    """Where something stands in a log: path, 1-based line and 1-based column (code points).

    A value, as the events are (one is made per line read), compared and hashed by all three."""

    __match_args__ = ("path", "line", "col")
    __slots__ = __match_args__

    def __init__(self, path: str, line: int, col: int) -> None:
        self.path: Final = path
        self.line: Final = line
        self.col: Final = col

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Span):
            return NotImplemented
        return self.line == other.line and self.col == other.col and self.path == other.path

    def __hash__(self) -> int:
        return hash((self.path, self.line, self.col))

    def __repr__(self) -> str:
        return f"Span(path={self.path!r}, line={self.line!r}, col={self.col!r})"

    def __reduce__(self) -> tuple[type[Span], tuple[str, int, int]]:
        return Span, (self.path, self.line, self.col)


NOWHERE = Span("", 0, 0)


class Value:
    """A value made of the fields of its constructor: equality and hashing by the fields of
    ``_compared``, a ``repr`` and pattern matching by all its fields (``__match_args__``, in
    the constructor's order), and pickling through its constructor."""

    __slots__ = ()
    __match_args__: ClassVar[tuple[str, ...]] = ()
    """Every field, in the constructor's order."""
    _compared: ClassVar[tuple[str, ...]] = ()
    """The fields that make the value."""

    def _values(self, names: tuple[str, ...]) -> tuple[object, ...]:
        return tuple(getattr(self, name) for name in names)

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self) or not isinstance(other, Value):
            return NotImplemented
        return self._values(self._compared) == other._values(self._compared)

    def __hash__(self) -> int:
        return hash(self._values(self._compared))

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={value!r}" for name, value in zip(self.__match_args__, self.fields()))
        return f"{type(self).__name__}({fields})"

    def fields(self) -> tuple[object, ...]:
        """Every field's value, in the constructor's order: ``type(v)(*v.fields()) == v``."""
        return self._values(self.__match_args__)

    def __reduce__(self) -> tuple[type[Value], tuple[object, ...]]:
        return type(self), self.fields()

    def replace(self: _V, **changes: Any) -> _V:
        """A copy with the fields named in ``changes`` changed, made by the constructor (as
        ``dataclasses.replace`` makes one of a dataclass)."""
        values = dict(zip(self.__match_args__, self.fields()))
        values.update(changes)
        return type(self)(**values)


_V = TypeVar("_V", bound=Value)


# --- actions (the parts of a turn line) -------------------------------------------------------
# Actions are pure values (no position) so that the reader can share them; a Turn keeps the
# column of each of its actions beside them. Each is compared by all its fields, and writes its
# own equality and hashing: the writer and the bots look actions up by value again and again.


@final
class PlayCard(Value):
    """``CARD->PILE``: a card from hand onto a pile."""

    __match_args__ = ("card", "pile")
    __slots__ = __match_args__
    _compared = __match_args__

    def __init__(self, card: Card, pile: Pile) -> None:
        self.card: Final = card
        self.pile: Final = pile

    def __eq__(self, other: object) -> bool:
        return isinstance(other, PlayCard) and self.card == other.card and self.pile is other.pile

    def __hash__(self) -> int:
        return hash((self.card, self.pile))

    def __str__(self) -> str:
        return f"{self.card}->{self.pile}"


@final
class MovePile(Value):
    """``PILE->PILE``: a whole foundation pile onto another pile (or a King pile to a corner)."""

    __match_args__ = ("source", "target")
    __slots__ = __match_args__
    _compared = __match_args__

    def __init__(self, source: Pile, target: Pile) -> None:
        self.source: Final = source
        self.target: Final = target

    def __eq__(self, other: object) -> bool:
        return isinstance(other, MovePile) and self.source is other.source and self.target is other.target

    def __hash__(self) -> int:
        return hash((self.source, self.target))

    def __str__(self) -> str:
        return f"{self.source}->{self.target}"


@final
class Draw(Value):
    """``draw`` or ``draw CARD``: the top card of the stock, written when known."""

    __match_args__ = ("card",)
    __slots__ = __match_args__
    _compared = __match_args__

    def __init__(self, card: Card | None = None) -> None:
        self.card: Final = card

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Draw) and self.card == other.card

    def __hash__(self) -> int:
        return hash((Draw, self.card))

    def __str__(self) -> str:
        return "draw" if self.card is None else f"draw {self.card}"


@final
class Pass(Value):
    """``pass``: a turn with no action at all."""

    __slots__ = ()

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Pass)

    def __hash__(self) -> int:
        return hash(Pass)

    def __str__(self) -> str:
        return "pass"


Action = PlayCard | MovePile | Draw | Pass
PASS = Pass()


# --- line events --------------------------------------------------------------------------------


class LineEvent(Value):
    """The event of a line: a :class:`Value` whose ``_compared`` leaves out the span and the
    columns."""

    __slots__ = ()


@final
class Tag(LineEvent):
    """``[Name "value"]``: a header that applies to the hands after it."""

    __match_args__ = ("name", "value", "span", "comment")
    __slots__ = __match_args__
    _compared = ("name", "value", "comment")

    def __init__(self, name: str, value: str, span: Span = NOWHERE, comment: str = "") -> None:
        self.name: Final = name
        self.value: Final = value
        self.span: Final = span
        self.comment: Final = comment


@final
class HandStart(LineEvent):
    """``hand [NUMBER] [dealer PLAYER]``: a new hand begins."""

    __match_args__ = ("number", "dealer", "span", "comment", "dealer_col")
    __slots__ = __match_args__
    _compared = ("number", "dealer", "comment")

    def __init__(self, number: int | None = None, dealer: str | None = None, span: Span = NOWHERE,
                 comment: str = "", dealer_col: int = 0) -> None:
        self.number: Final = number
        self.dealer: Final = dealer
        self.span: Final = span
        self.comment: Final = comment
        self.dealer_col: Final = dealer_col


@final
class Deal(LineEvent):
    """``deal PLAYER: CARD ...``: the cards dealt to one player."""

    __match_args__ = ("player", "cards", "span", "comment", "cols", "player_col")
    __slots__ = __match_args__
    _compared = ("player", "cards", "comment")

    def __init__(self, player: str, cards: tuple[Card, ...], span: Span = NOWHERE, comment: str = "",
                 cols: tuple[int, ...] = (), player_col: int = 0) -> None:
        self.player: Final = player
        self.cards: Final = cards
        self.span: Final = span
        self.comment: Final = comment
        self.cols: Final = cols
        """Column of each card."""
        self.player_col: Final = player_col
        """Column of the player's name."""


@final
class Layout(LineEvent):
    """``layout N:CARD E:CARD S:CARD W:CARD [CORNER:CARD ...]``: the table when play starts."""

    __match_args__ = ("piles", "span", "comment", "cols")
    __slots__ = __match_args__
    _compared = ("piles", "comment")

    def __init__(self, piles: tuple[tuple[Pile, Card], ...], span: Span = NOWHERE, comment: str = "",
                 cols: tuple[int, ...] = ()) -> None:
        self.piles: Final = piles
        self.span: Final = span
        self.comment: Final = comment
        self.cols: Final = cols
        """Column of each ``PILE:CARD`` entry."""


@final
class Turn(LineEvent):
    """``PLAYER: ACTION; ACTION; ...``: one player's turn."""

    __match_args__ = ("player", "actions", "span", "comment", "cols")
    __slots__ = __match_args__
    _compared = ("player", "actions", "comment")

    def __init__(self, player: str, actions: tuple[Action, ...], span: Span = NOWHERE, comment: str = "",
                 cols: tuple[int, ...] = ()) -> None:
        self.player: Final = player
        self.actions: Final = actions
        self.span: Final = span
        self.comment: Final = comment
        self.cols: Final = cols
        """Column of each action."""


def written_draw_steps(actions: tuple[Action, ...]) -> tuple[int, ...]:
    """The positions of the ``draw CARD`` actions among ``actions``."""
    return tuple(i for i, a in enumerate(actions) if type(a) is Draw and a.card is not None)


@final
class Blocked(LineEvent):
    """``blocked``: the hand ended with nobody able to play."""

    __match_args__ = ("span", "comment")
    __slots__ = __match_args__
    _compared = ("comment",)

    def __init__(self, span: Span = NOWHERE, comment: str = "") -> None:
        self.span: Final = span
        self.comment: Final = comment


@final
class Reveal(LineEvent):
    """``reveal PLAYER: CARD ...``: the cards left in a hand whose deal was not recorded."""

    __match_args__ = ("player", "cards", "span", "comment", "cols", "player_col")
    __slots__ = __match_args__
    _compared = ("player", "cards", "comment")

    def __init__(self, player: str, cards: tuple[Card, ...], span: Span = NOWHERE, comment: str = "",
                 cols: tuple[int, ...] = (), player_col: int = 0) -> None:
        self.player: Final = player
        self.cards: Final = cards
        self.span: Final = span
        self.comment: Final = comment
        self.cols: Final = cols
        """Column of each card."""
        self.player_col: Final = player_col
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


@final
class Assertion(LineEvent):
    """``score Ann 12, Bob 3``, ``chips Ann 25``, ``paid Bob 3``, ``pot 17``: what the table
    believed at the end of the hand; ``kcref check`` verifies each figure."""

    __match_args__ = ("quantity", "claims", "span", "comment", "cols", "amount_cols")
    __slots__ = __match_args__
    _compared = ("quantity", "claims", "comment")

    def __init__(self, quantity: Quantity, claims: tuple[Claim, ...], span: Span = NOWHERE, comment: str = "",
                 cols: tuple[int, ...] = (), amount_cols: tuple[int, ...] = ()) -> None:
        self.quantity: Final = quantity
        self.claims: Final = claims
        self.span: Final = span
        self.comment: Final = comment
        self.cols: Final = cols
        """Column of each claim's player (of its amount for the pot)."""
        self.amount_cols: Final = amount_cols
        """Column of each claim's amount."""


@final
class Comment(LineEvent):
    """A line holding only a comment (kept for ``kcref fmt``; the referee ignores it)."""

    __match_args__ = ("text", "span")
    __slots__ = __match_args__
    _compared = ("text",)

    def __init__(self, text: str, span: Span = NOWHERE) -> None:
        self.text: Final = text
        self.span: Final = span


@final
class Blank(LineEvent):
    """An empty line (kept for ``kcref fmt``; the referee ignores it)."""

    __match_args__ = ("span",)
    __slots__ = __match_args__

    def __init__(self, span: Span = NOWHERE) -> None:
        self.span: Final = span


Event = Tag | HandStart | Deal | Layout | Turn | Blocked | Reveal | Assertion | Comment | Blank
TRIVIA = (Comment, Blank)
