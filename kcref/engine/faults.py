"""Why an action is illegal, in table language.

The engine decides legality with cheap direct checks; only when an action fails does it call
the functions here, which work out which rule broke and say so: "8H cannot go on 9D at N:
both are red (it fits on 9C at W)".
"""

from __future__ import annotations

from ..model.cards import Card, Pile, Rank
from ..model.words import names_list
from .moves import CORNER_SET, fits, may_move, may_place
from .table import PILES, Table


class IllegalAction(ValueError):
    """An action, or the end of a turn, that the rules forbid.

    ``code`` is the stable diagnostic code (KC3xx); ``step`` names the action of the turn to
    blame when it is not the one being applied (for faults found at the end of a turn), and is
    -1 for the turn line as a whole.
    """

    def __init__(self, code: str, message: str, step: int | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.step = step


def misfit(card: Card, top: Card) -> str:
    """Why ``card`` does not fit on ``top`` (which is not an Ace): the half of
    :func:`~kcref.engine.moves.fits` that fails, or both."""
    reasons = []
    want = top.rank - 1
    if card.rank != want:
        reasons.append(f"it must be one rank lower ({Rank(want).text()})")
    if card.colour is top.colour:
        reasons.append(f"both are {card.colour.value}")
    return ", and ".join(reasons)


def card_alternatives(t: Table, card: Card, exclude: Pile | None = None) -> str:
    """Where else ``card`` could legally go, as a parenthesised suffix (or "")."""
    on_tops, corners, foundations = [], [], []
    for p in PILES:
        if p is exclude or not may_place(t, card, p):
            continue
        top = t.top(p)
        if top is not None:
            on_tops.append(f"on {top} at {p}")
        elif p in CORNER_SET:
            corners.append(str(p))
        else:
            foundations.append(str(p))
    parts = []
    if on_tops:
        parts.append("it fits " + names_list(on_tops, "or"))
    if corners:
        parts.append("it may start the empty corner " + names_list(corners, "or"))
    if foundations:
        parts.append("it may fill the empty foundation " + names_list(foundations, "or"))
    return f" ({'; '.join(parts)})" if parts else ""


def move_alternatives(t: Table, source: Pile, exclude: Pile) -> str:
    """Where else the pile ``source`` could legally move, as a parenthesised suffix (or "")."""
    targets = []
    for p in PILES:
        if p is not exclude and may_move(t, source, p):
            top = t.top(p)
            targets.append(f"on {top} at {p}" if top is not None else f"to the empty corner {p}")
    return f" (it may move {names_list(targets, 'or')})" if targets else ""


def bad_play(t: Table, card: Card, pile: Pile) -> IllegalAction:
    """The error for ``card`` played on ``pile`` when the pile rules forbid it."""
    top = t.top(pile)
    also = card_alternatives(t, card, pile)
    if top is None:
        return IllegalAction("KC303", f"only a King may start an empty corner ({pile}){also}")
    if top.rank == Rank.A:
        return IllegalAction("KC302", f"nothing can be played on an Ace ({top} at {pile}){also}")
    return IllegalAction("KC301", f"{card} cannot go on {top} at {pile}: {misfit(card, top)}{also}")


def bad_move(t: Table, source: Pile, target: Pile) -> IllegalAction:
    """The error for moving the pile ``source`` onto ``target`` when the pile rules forbid it."""
    if source in CORNER_SET:
        return IllegalAction("KC304", f"corner piles never move ({source})")
    if source is target:
        return IllegalAction("KC307", f"a pile cannot move onto itself ({source})")
    src = t.piles[source]
    if not src:
        return IllegalAction("KC307", f"{source} is empty: there is no pile to move")
    bottom = src[0]
    top = t.top(target)
    also = move_alternatives(t, source, target)
    if top is None:
        if target in CORNER_SET:
            return IllegalAction(
                "KC303", f"only a King may start an empty corner ({target}): "
                         f"the bottom card of {source} is {bottom}{also}")
        return IllegalAction("KC306", f"no pile may move onto an empty foundation ({target}){also}")
    if top.rank == Rank.A:
        return IllegalAction("KC302", f"nothing can be played on an Ace ({top} at {target}){also}")
    assert not fits(bottom, top)
    return IllegalAction(
        "KC305", f"{source} cannot move onto {target}: its bottom card {bottom} cannot go on "
                 f"{top}: {misfit(bottom, top)}{also}")


def where_is(t: Table, card: Card) -> str | None:
    """Where ``card`` is known to be, as a clause ("it is already in pile N"), or ``None``."""
    for p, cards in t.piles.items():
        if card in cards:
            return f"it is already in pile {p}"
    for seat, hand in enumerate(t.holdings):
        if card in hand.known:
            return f"{t.names[seat]} holds it"
    for pile in t.removed:
        if card in pile:
            return "it went out of play with a completed pile"
    if card not in t.seen and t.full_information:
        return "it is in the stock"
    return None


def not_held(t: Table, card: Card) -> IllegalAction:
    """The error for playing ``card`` that the player whose turn it is cannot hold."""
    where = where_is(t, card)
    if t.holding.unknown:
        # The hand is partly unknown, so the card could only be refused because it was seen.
        return IllegalAction("KC309", f"{t.name} cannot hold {card}: {where}")
    return IllegalAction("KC308", f"{t.name} does not hold {card}" + (f" ({where})" if where else ""))


def seen_twice(t: Table, card: Card) -> IllegalAction:
    """The error for drawing ``card`` that is known to be elsewhere."""
    return IllegalAction("KC309", f"{card} cannot be drawn: {where_is(t, card)}")
