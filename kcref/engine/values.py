"""What cards left in hand are worth: penalty points per scoring system, and chips."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from ..model.cards import Card, Rank
from ..model.options import Options, Scoring
from .table import Table

CardValue = Callable[[Card], int]


def penalty_points(card: Card) -> int:
    """``penalty`` (001, 004): King 10, any other card 1."""
    return 10 if card.rank is Rank.K else 1


def pip_points(card: Card) -> int:
    """``pips`` (001 alternative): Ace 25, K Q J 10 count 10, others their face value."""
    if card.rank is Rank.A:
        return 25
    return min(int(card.rank), 10)


def dutch_points(card: Card) -> int:
    """``dutch`` (003): face cards 10, number cards 5, Aces 25."""
    if card.rank is Rank.A:
        return 25
    return 10 if card.rank >= Rank.J else 5


CARD_POINTS: Mapping[Scoring, CardValue] = {
    Scoring.PENALTY: penalty_points,
    Scoring.PIPS: pip_points,
    Scoring.DUTCH: dutch_points,
}
"""The scoring systems that score cards left in hand, and what each card is worth."""


def chip_value(options: Options) -> CardValue:
    """Chips paid for a card left in hand when someone goes out (a King may cost more)."""
    card, king = options.card_chips, options.king_chips
    return lambda c: king if c.rank is Rank.K else card


def hand_value(t: Table, seat: int, value: CardValue, lower_bound: bool = False) -> int | None:
    """The value of the cards ``seat`` holds.

    Unknown cards are counted exactly when every card they could be (every card not seen)
    has the same value, e.g. penalty points once all four Kings are seen; otherwise the result
    is ``None``, or with ``lower_bound`` the least they can be worth.
    """
    hand = t.holdings[seat]
    total = sum(value(c) for c in hand.known)
    if not hand.unknown:
        return total
    values = {value(c) for c in t.unseen()}
    if len(values) == 1 or (lower_bound and values):
        return total + hand.unknown * min(values)
    return None
