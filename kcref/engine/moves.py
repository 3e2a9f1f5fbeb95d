"""Which plays the piles allow: cards from hand and pile moves, ignoring the turn's phase.

These are the pile rules of docs/rules.md ("The common core") in one place. The engine judges a single action with
:func:`fits` directly; the generators here are for bots, for "could the player have played",
and for explaining an illegal action ("it fits on 9C at W").
"""

from __future__ import annotations

from typing import Final

from ..model.cards import CORNERS, DECK, FOUNDATIONS, Card, Pile, Rank
from ..model.events import MovePile, PlayCard
from .table import PILES, Table

CORNER_SET: Final[frozenset[Pile]] = frozenset(CORNERS)
KING: Final = Rank.K


def in_order(cards: set[Card] | frozenset[Card]) -> list[Card]:
    """``cards`` in deck order (suits S H D C, Ace to King), whatever order a set keeps them
    in: messages and bots must be reproducible."""
    return sorted(cards)  # a card is its place in DECK


def fits(card: Card, top: Card) -> bool:
    """True when ``card`` may go on ``top``: one rank lower and the opposite colour. The one
    statement of this rule; :func:`kcref.engine.faults.misfit` says which half of it failed."""
    return card.rank == top.rank - 1 and card.suit.colour is not top.suit.colour


FITS_ON: Final[dict[Card, frozenset[Card]]] = {top: frozenset(c for c in DECK if fits(c, top)) for top in DECK}
"""The cards that may go on each card (:func:`fits` for every pair), for the engine's hot path."""


def may_place(t: Table, card: Card, pile: Pile) -> bool:
    """True when the pile rules let ``card`` go on ``pile`` now."""
    cards = t.piles[pile]
    if cards:
        return card in FITS_ON[cards[-1]]
    return card.rank == KING or pile not in CORNER_SET


def may_move(t: Table, source: Pile, target: Pile) -> bool:
    """True when the pile rules let the whole pile ``source`` move onto ``target`` now."""
    if source in CORNER_SET or source is target:
        return False
    src = t.piles[source]
    if not src:
        return False
    dst = t.piles[target]
    if dst:
        return src[0] in FITS_ON[dst[-1]]
    return target in CORNER_SET and src[0].rank == KING


def card_targets(t: Table, card: Card) -> list[Pile]:
    """Every pile ``card`` may go on now, in table order (N E S W NE NW SE SW)."""
    return [p for p in PILES if may_place(t, card, p)]


def card_plays(t: Table, cards: set[Card] | None = None) -> list[PlayCard]:
    """Every card play the piles allow for ``cards`` (default: the known cards of the player
    whose turn it is), sorted for a stable order."""
    held = t.holding.known if cards is None else cards
    return [PlayCard(c, p) for c in in_order(held) for p in PILES if may_place(t, c, p)]


def pile_moves(t: Table) -> list[MovePile]:
    """Every pile move the piles allow now."""
    return [MovePile(s, d) for s in FOUNDATIONS for d in PILES if may_move(t, s, d)]


def first_play(t: Table) -> PlayCard | MovePile | None:
    """A play the player whose turn it is could make now with the cards known to be held
    (a card from hand or a pile move), or ``None``."""
    for c in in_order(t.holding.known):
        for p in PILES:
            if may_place(t, c, p):
                return PlayCard(c, p)
    for s in FOUNDATIONS:
        for d in PILES:
            if may_move(t, s, d):
                return MovePile(s, d)
    return None
