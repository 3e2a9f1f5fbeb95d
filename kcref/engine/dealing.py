"""Deal a hand from a known deck order, as self-play and property tests do.

The deck is dealt one card at a time clockwise from the dealer's left, seven each; the next
four cards are turned up on N, E, S and W; where layout Kings go to a corner at once, each
King turned up goes to the first empty corner (NE, NW, SE, SW) and the next card replaces it.
The rest is the stock, in order.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import NamedTuple

from ..model.cards import CORNERS, DECK, FOUNDATIONS, HAND_SIZE, Card, Pile, Rank
from ..model.events import Action, Deal, Layout, Turn
from ..model.options import Options
from .policy import policy_for
from .table import Table
from .turns import start_hand


class Dealt(NamedTuple):
    """A hand dealt from a known deck: the table ready for the first turn, and what was dealt."""

    table: Table
    deals: tuple[tuple[Card, ...], ...]
    """Each seat's cards in the order dealt."""
    layout: tuple[tuple[Pile, Card], ...]

    def events(self) -> tuple[Deal | Layout, ...]:
        """The ``deal`` lines (one per player, in seat order) and the ``layout`` line."""
        names = self.table.names
        return (*(Deal(names[s], cards) for s, cards in enumerate(self.deals)), Layout(self.layout))


def shuffled_deck(rng: random.Random) -> list[Card]:
    """The 52 cards in an order drawn from ``rng`` (same seed, same order, on any machine).

    A Fisher-Yates shuffle driven only by ``rng.random()``, the one method whose sequence
    Python promises to keep across versions (``shuffle`` and ``randrange`` may change).
    """
    deck = list(DECK)
    for i in range(len(deck) - 1, 0, -1):
        j = pick(rng, i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def pick(rng: random.Random, n: int) -> int:
    """A number in ``range(n)`` from ``rng.random()`` alone (reproducible on any Python)."""
    return min(int(rng.random() * n), n - 1)


def deal_from_deck(options: Options, names: Sequence[str], dealer: int, deck: Sequence[Card], *,
                   stacks: Sequence[int] | None = None, pot: int = 0) -> Dealt:
    """Deal ``deck`` (52 cards, top card first) to ``names`` with ``dealer`` dealing."""
    if sorted(map(DECK.index, deck)) != list(range(len(DECK))):
        raise ValueError("the deck must hold each of the 52 cards once")
    n = len(names)
    hands: list[list[Card]] = [[] for _ in range(n)]
    for i in range(HAND_SIZE * n):
        hands[(dealer + 1 + i) % n].append(deck[i])
    pos = HAND_SIZE * n
    to_corner = policy_for(options).layout_kings_to_corner
    foundations: list[tuple[Pile, Card]] = []
    corners: list[tuple[Pile, Card]] = []
    for pile in FOUNDATIONS:
        card = deck[pos]
        pos += 1
        while to_corner and card.rank is Rank.K:
            corners.append((CORNERS[len(corners)], card))
            card = deck[pos]
            pos += 1
        foundations.append((pile, card))
    layout = (*foundations, *corners)
    deals = tuple(tuple(h) for h in hands)
    table = start_hand(options, names, dealer, dict(enumerate(deals)), layout,
                       stacks=stacks, pot=pot, deck=deck[pos:])
    return Dealt(table, deals, layout)


def turn_event(table: Table, seat: int, actions: Sequence[Action]) -> Turn:
    """The ``Turn`` line for ``actions`` taken by ``seat``, named as the table names players."""
    return Turn(table.names[seat], tuple(actions))
