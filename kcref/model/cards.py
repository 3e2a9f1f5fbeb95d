"""Cards, ranks, suits, colours and piles: the vocabulary of the table."""

from __future__ import annotations

import enum
import functools
from collections.abc import Callable


class Colour(enum.Enum):
    """Card colour; the only property of a suit that the rules use."""

    RED = "red"
    BLACK = "black"


class Suit(enum.Enum):
    """The four suits, valued by their canonical letter."""

    S = "S"
    H = "H"
    D = "D"
    C = "C"

    # Members are singletons: identity hashing is exact and much cheaper than Enum.__hash__.
    __hash__ = object.__hash__

    colour: Colour
    """The one place a suit's colour is decided; a plain attribute, as the pile rules read it
    in their inner loop."""

    def __init__(self, letter: str) -> None:
        self.colour = Colour.RED if letter in "HD" else Colour.BLACK

    @property
    def symbol(self) -> str:
        return _SUIT_SYMBOL[self]


_SUIT_SYMBOL = {Suit.S: "♠", Suit.H: "♥", Suit.D: "♦", Suit.C: "♣"}


class Rank(enum.IntEnum):
    """Ranks, Ace low (1) to King high (13)."""

    A = 1
    R2 = 2
    R3 = 3
    R4 = 4
    R5 = 5
    R6 = 6
    R7 = 7
    R8 = 8
    R9 = 9
    R10 = 10
    J = 11
    Q = 12
    K = 13

    def text(self, ten: str = "10") -> str:
        """The rank as written: ``A``, ``2``..``9``, ``10`` (or ``ten``), ``J``, ``Q``, ``K``."""
        if self is Rank.R10:
            return ten
        return _RANK_TEXT[self]


_RANK_TEXT = {r: (r.name[1:] if r.name.startswith("R") else r.name) for r in Rank}


class Card(int):
    """A playing card. ``str(card)`` is the canonical spelling, e.g. ``10H``.

    A card is also its place in :data:`DECK` (0-51: suit by suit, Ace to King), as an int: the
    engine's sets and tables hash and compare cards as cheaply as small ints. The 52 cards are
    made once; ``Card(rank, suit)`` gives the deck's own card.
    """

    rank: Rank
    suit: Suit

    def __new__(cls, rank: Rank, suit: Suit) -> Card:
        try:
            return _DECK_CARD[rank, suit]
        except KeyError:
            return _new_card(cls, rank, suit)

    def __reduce__(self) -> tuple[Callable[[int], Card], tuple[int]]:
        return _deck_card, (int(self),)

    @property
    def colour(self) -> Colour:
        return self.suit.colour

    @property
    def is_king(self) -> bool:
        return self.rank is Rank.K

    def text(self, ten: str = "10", symbols: bool = False) -> str:
        """The card as written, with ``ten`` for the rank 10 and suit letters or symbols."""
        return self.rank.text(ten) + (self.suit.symbol if symbols else self.suit.value)

    def __str__(self) -> str:
        return self.text()

    def __repr__(self) -> str:
        return f"Card({self.text()})"


def _new_card(cls: type[Card], rank: Rank, suit: Suit) -> Card:
    """A card object: DECK's own are made so once (``Card(rank, suit)`` looks them up)."""
    card = int.__new__(cls, _SUIT_ORDER[suit] * 13 + int(rank) - 1)
    card.rank, card.suit = rank, suit
    return card


_SUIT_ORDER = {s: i for i, s in enumerate(Suit)}
DECK: tuple[Card, ...] = tuple(_new_card(Card, r, s) for s in Suit for r in Rank)
"""All 52 cards, suit by suit, Ace to King."""
_DECK_CARD: dict[tuple[Rank, Suit], Card] = {(c.rank, c.suit): c for c in DECK}


def _deck_card(index: int) -> Card:
    return DECK[index]


HAND_SIZE = 7
"""The cards dealt to each player at the start of a hand."""


class Pile(enum.Enum):
    """The eight piles: four foundations (N E S W) and four corners (NE NW SE SW)."""

    N = "N"
    E = "E"
    S = "S"
    W = "W"
    NE = "NE"
    NW = "NW"
    SE = "SE"
    SW = "SW"

    __hash__ = object.__hash__

    def __str__(self) -> str:
        return self.value


FOUNDATIONS: tuple[Pile, ...] = (Pile.N, Pile.E, Pile.S, Pile.W)
CORNERS: tuple[Pile, ...] = (Pile.NE, Pile.NW, Pile.SE, Pile.SW)

# Every accepted spelling of ranks and suits, lower-cased; the grammar module has its own copy
# of the lexical rules (it imports nothing from kcref) and a test checks that the two agree.
RANK_SPELLINGS: dict[str, Rank] = {
    "a": Rank.A, "t": Rank.R10, "10": Rank.R10, "j": Rank.J, "q": Rank.Q, "k": Rank.K,
    **{str(n): Rank(n) for n in range(2, 10)},
}
SUIT_SPELLINGS: dict[str, Suit] = {
    "s": Suit.S, "h": Suit.H, "d": Suit.D, "c": Suit.C,
    "♠": Suit.S, "♥": Suit.H, "♦": Suit.D, "♣": Suit.C,
    "♤": Suit.S, "♡": Suit.H, "♢": Suit.D, "♧": Suit.C,
}
VARIATION_SELECTOR = "\ufe0f"


@functools.lru_cache(maxsize=4096)
def parse_card(text: str) -> Card:
    """Read a card written as in a log (``8H``, ``10h``, ``TH``, ``K♠``, ``q♦️``).

    Raises ``ValueError`` for anything else.
    """
    t = text.strip().lower()
    if t.endswith(VARIATION_SELECTOR):
        t = t[:-1]
    suit = SUIT_SPELLINGS.get(t[-1:])
    rank = RANK_SPELLINGS.get(t[:-1])
    if suit is None or rank is None:
        raise ValueError(f"not a card: {text!r}")
    # The card of DECK itself, not an equal copy: the engine's sets and tables hold DECK's
    # cards, and a lookup that finds the very object skips comparing two tuples.
    return _DECK_CARD[rank, suit]


@functools.lru_cache(maxsize=256)
def parse_pile(text: str) -> Pile:
    """Read a pile name (any case). Raises ``ValueError`` for anything else."""
    try:
        return Pile(text.strip().upper())
    except ValueError:
        raise ValueError(f"not a pile: {text!r}") from None
