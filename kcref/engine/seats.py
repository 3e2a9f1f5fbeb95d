"""What one seat may see of the table, and a bot that plays a seat from that alone.

A :class:`SeatView` holds the seat's own cards, the piles, how many cards every player and the
stock hold, whose turn it is and what that turn has done so far: never another player's cards,
nor the order of the stock. The legal actions a seat bot is offered hide the stock's order too:
the draw is offered as a plain ``draw`` (:func:`blind_actions`), and :class:`SeatPlayer` puts the
card back before the engine applies it.

A seat bot that raises, answers an action it was not offered, or ends a turn that may not end
yet, forfeits the game (:class:`Forfeit`, with a :class:`ForfeitReason`).
"""

from __future__ import annotations

import enum
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol, final

from ..model.cards import Card, Pile
from ..model.events import Action, Draw
from .table import PILES, Table


@dataclass(frozen=True, slots=True)
class SeatView:
    """The table as one seat sees it."""

    seat: int
    """The seat seeing it (0-based, in the order of ``names``)."""
    names: tuple[str, ...]
    dealer: int
    player: int
    """The seat whose turn it is."""
    hand: tuple[Card, ...]
    """The seat's own cards, in deck order."""
    hand_sizes: tuple[int, ...]
    """How many cards each seat holds."""
    piles: tuple[tuple[Pile, tuple[Card, ...]], ...]
    """Every pile, bottom card first (an empty pile has no cards)."""
    removed: tuple[tuple[Card, ...], ...]
    """Completed piles cleared from the table."""
    stock: int
    """Cards left in the stock."""
    drawn: bool
    """The player whose turn it is has drawn this turn."""
    plays: int
    """Cards played from hand this turn."""
    step: int
    """Actions taken this turn."""
    pending_king: Card | None
    """A drawn King that must go to an empty corner now."""
    turns: int
    """Turns ended so far in the hand."""
    stacks: tuple[int, ...] | None
    """Chips per seat, where chips are played."""
    pot: int


def seat_view(t: Table, seat: int) -> SeatView:
    """What ``seat`` may see of ``t``."""
    hand = t.holdings[seat]
    return SeatView(
        seat=seat, names=t.names, dealer=t.dealer, player=t.player,
        hand=tuple(sorted(hand.known)), hand_sizes=tuple(len(h) for h in t.holdings),
        piles=tuple((p, tuple(t.piles[p])) for p in PILES), removed=tuple(t.removed),
        stock=t.stock, drawn=t.drawn, plays=t.plays, step=t.step, pending_king=t.pending_king,
        turns=t.turns, stacks=tuple(t.stacks) if t.stacks is not None else None, pot=t.pot)


def blind_actions(legal: Sequence[Action]) -> list[Action]:
    """``legal`` with the draw's card hidden: a seat may not know the top of the stock."""
    return [Draw() if isinstance(a, Draw) else a for a in legal]


class SeatBot(Protocol):
    """Chooses the next action for its seat from what the seat sees, or None to end the turn.

    ``legal`` are the actions the rules allow now (a draw without its card); ``can_end`` says
    whether the turn may end now. ``rng`` is the game's own seeded generator.
    """

    def choose(self, view: SeatView, legal: Sequence[Action], can_end: bool,
               rng: random.Random) -> Action | None: ...


class ForfeitReason(enum.Enum):
    """Why a bot lost a game by forfeit."""

    CRASH = "crash"
    """The bot's program ended, or its code raised an exception."""
    TIME = "time"
    """No answer within the time for a move, or the bot's time for the game ran out."""
    GARBAGE = "garbage"
    """An answer that is not a message of the protocol."""
    ILLEGAL = "illegal"
    """An action it was not offered, or the end of a turn that may not end yet."""
    FLOOD = "flood"
    """More output than an answer may hold."""
    START = "start"
    """The bot could not be started, or did not greet as the protocol asks."""


class Forfeit(Exception):
    """A bot lost the game by forfeit: its seat, why, and what happened in words."""

    def __init__(self, seat: int, reason: ForfeitReason, detail: str) -> None:
        super().__init__(f"seat {seat} forfeits ({reason.value}): {detail}")
        self.seat = seat
        self.reason = reason
        self.detail = detail


@final
class SeatPlayer:
    """A :class:`~kcref.engine.bots.Bot` for one seat that shows its seat bot only
    :func:`seat_view` and :func:`blind_actions`, and holds it to what it was offered."""

    def __init__(self, seat: int, bot: SeatBot) -> None:
        self.seat = seat
        self.bot = bot

    def choose(self, t: Table, legal: Sequence[Action], can_end: bool, rng: random.Random) -> Action | None:
        seat = self.seat
        offered = blind_actions(legal)
        try:
            action = self.bot.choose(seat_view(t, seat), offered, can_end, rng)
        except Forfeit as forfeit:
            if forfeit.seat == seat:
                raise
            raise Forfeit(seat, forfeit.reason, forfeit.detail) from None  # a bot forfeits only its own seat
        except Exception as exc:  # a bot's bug loses its game, not the arena
            raise Forfeit(seat, ForfeitReason.CRASH, f"{type(exc).__name__}: {exc}") from exc
        if action is None:
            if not can_end:
                raise Forfeit(seat, ForfeitReason.ILLEGAL, "ended a turn that may not end yet")
            return None
        if action not in offered:
            raise Forfeit(seat, ForfeitReason.ILLEGAL, f"{action} is not a legal action now")
        return legal[offered.index(action)]
