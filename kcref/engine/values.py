"""What the cards a player holds are worth on the table: in the scoring system's points
(:attr:`kcref.model.systems.ScoringSystem.card_value`), or in chips."""

from __future__ import annotations

from ..model.systems import CardValue
from .moves import KING
from .policy import Policy
from .table import Table


def chip_value(policy: Policy) -> CardValue:
    """Chips paid for a card left in hand when someone goes out (a King may cost more)."""
    card, king = policy.card_chips, policy.king_chips
    return lambda c: king if c.rank is KING else card


def hand_value(t: Table, seat: int, value: CardValue, lower_bound: bool = False) -> int | None:
    """The value of the cards ``seat`` holds.

    Unknown cards are counted exactly when every card they could be (every card not seen)
    has the same value, e.g. penalty points once all four Kings are seen; otherwise the result
    is ``None``, or with ``lower_bound`` the least they can be worth.
    """
    hand = t.holdings[seat]
    total = sum(map(value, hand.known))
    if not hand.unknown:
        return total
    values = {value(c) for c in t.unseen()}
    if len(values) == 1 or (lower_bound and values):
        return total + hand.unknown * min(values)
    return None
