"""What a hand played out by bots is worth, read straight from the settled table: the same
:class:`~kcref.model.systems.HandResult` the referee's verdict gives the scoring systems, for a
hand whose every card is known (self-play), so that a score needs no replay of the log."""

from __future__ import annotations

from dataclasses import dataclass

from ..model.cards import Card
from ..model.options import Options
from .table import Table
from .values import hand_value


@dataclass(frozen=True, slots=True)
class TableResult:
    """A finished hand as the scoring systems read it (:class:`kcref.model.systems.HandResult`)."""

    players: tuple[str, ...]
    winner: int | None
    blocked: bool
    pot: int
    points: tuple[int | None, ...] | None
    cards_left: tuple[tuple[Card, ...] | int, ...]
    stacks_start: tuple[int, ...] | None
    stacks_end: tuple[int, ...] | None


def stacks_before_ante(options: Options, players: int, dealer: int) -> tuple[int, ...] | None:
    """The stacks a hand under ``options`` starts with when no chips are carried in."""
    chips = options.scoring.chips
    return tuple(chips.start(options, players, dealer)) if chips is not None else None


def table_result(t: Table, pot_won: int) -> TableResult:
    """The result of the hand on ``t``, which started with no chips carried in and is over and
    settled (``pot_won``: what :func:`~kcref.engine.turns.settle` returned)."""
    value = t.options.scoring.card_value
    points = tuple(hand_value(t, seat, value) for seat in range(t.n)) if value is not None else None
    return TableResult(
        players=t.names, winner=t.winner, blocked=t.blocked,
        pot=pot_won if t.winner is not None else t.pot, points=points,
        cards_left=tuple(tuple(sorted(h.known)) if not h.unknown else len(h) for h in t.holdings),
        stacks_start=stacks_before_ante(t.options, t.n, t.dealer),
        stacks_end=tuple(t.stacks) if t.stacks is not None else None)


def hand_scores(t: Table, pot_won: int) -> tuple[int, ...]:
    """Each seat's score for the settled hand on ``t``, in its scoring system (as ``kcref score``
    counts it)."""
    scores = t.options.scoring.scorer.score(table_result(t, pot_won))
    return tuple(s if s is not None else 0 for s in scores)


def places(t: Table, forfeiter: int | None = None) -> tuple[int, ...]:
    """Per seat, its place in the hand on ``t`` (0 first; equal places shared), as the referee's
    season statistics rank a hand (:func:`kcref.scoring.season.finishing_ranks`): the player
    who went out, then by the points of the cards left where the scoring system values them,
    else by how many cards were left. A bot that forfeits is last, alone; the others are placed
    by the cards they hold when it did."""
    value = t.options.scoring.card_value if forfeiter is None else None

    def key(seat: int) -> tuple[int, int]:
        if seat == forfeiter:
            return (2, 0)
        if seat == t.winner:
            return (0, 0)
        points = hand_value(t, seat, value) if value is not None else None
        return (1, points if points is not None else len(t.holdings[seat]))

    keys = [key(seat) for seat in range(t.n)]
    return tuple(sorted(set(keys)).index(k) for k in keys)
