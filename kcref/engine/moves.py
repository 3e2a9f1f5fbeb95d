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
KINGS: Final[frozenset[Card]] = frozenset(c for c in DECK if c.rank is KING)
ANY_CARD: Final[frozenset[Card]] = frozenset(DECK)


def placeable(t: Table, pile: Pile) -> frozenset[Card]:
    """The cards the pile rules let go on ``pile`` now: those that fit on its top card, a King
    on an empty corner, any card on an empty foundation."""
    cards = t.piles[pile]
    if cards:
        return FITS_ON[cards[-1]]
    return KINGS if pile in CORNER_SET else ANY_CARD


def may_place(t: Table, card: Card, pile: Pile) -> bool:
    """True when the pile rules let ``card`` go on ``pile`` now."""
    return card in placeable(t, pile)


def may_move(t: Table, source: Pile, target: Pile) -> bool:
    """True when the pile rules let the whole pile ``source`` move onto ``target`` now: a
    foundation onto another pile where its bottom card may go, but not onto an empty foundation."""
    if source in CORNER_SET or source is target:
        return False
    src = t.piles[source]
    return bool(src) and (bool(t.piles[target]) or target in CORNER_SET) and src[0] in placeable(t, target)


def card_targets(t: Table, card: Card) -> list[Pile]:
    """Every pile ``card`` may go on now, in table order (N E S W NE NW SE SW)."""
    return [p for p in PILES if may_place(t, card, p)]


def card_plays(t: Table, cards: set[Card] | None = None) -> list[PlayCard]:
    """Every card play the piles allow for ``cards`` (default: the known cards of the player
    whose turn it is), sorted for a stable order."""
    held = t.holding.known if cards is None else cards
    targets = [(p, placeable(t, p)) for p in PILES]
    return [PlayCard(c, p) for c in in_order(held) for p, allowed in targets if c in allowed]


def pile_moves(t: Table) -> list[MovePile]:
    """Every pile move the piles allow now."""
    bottoms = [(p, t.piles[p][0]) for p in FOUNDATIONS if t.piles[p]]
    if not bottoms:
        return []
    targets = [(p, placeable(t, p)) for p in PILES if t.piles[p] or p in CORNER_SET]  # no move onto an empty foundation
    return [MovePile(s, d) for s, bottom in bottoms for d, allowed in targets if d is not s and bottom in allowed]


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
