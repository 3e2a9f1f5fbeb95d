"""What one seat may see of the table, and a bot that plays a seat from that alone.

A :class:`SeatView` shows the seat's own cards, the piles, how many cards every player and the
stock hold, whose turn it is and what that turn has done so far: never another player's cards,
nor the order of the stock. The legal actions a seat bot is offered hide the stock's order too:
the draw is offered as a plain ``draw`` (:func:`blind_actions`), and :class:`SeatPlayer` puts the
card back before the engine applies it.

A seat bot that raises, answers an action it was not offered, or ends a turn that may not end
yet, forfeits the game (:class:`Forfeit`, with a :class:`ForfeitReason`).
"""

from __future__ import annotations

import enum
import math
import random
from collections.abc import Callable, Sequence
from typing import Protocol, final

from ..model.cards import Card, Pile
from ..model.events import Action, Draw
from .table import PILES, Table


@final
class SeatView:
    """The table as one seat sees it, read from the table as it stands now: a bot reads it while
    it chooses (it is not a copy to keep, and making one per move would cost more than most
    bots' thinking)."""

    __slots__ = ("_table", "seat")

    def __init__(self, t: Table, seat: int) -> None:
        self._table = t
        self.seat = seat
        """The seat seeing it (0-based, in the order of ``names``)."""

    @property
    def names(self) -> tuple[str, ...]:
        return self._table.names

    @property
    def dealer(self) -> int:
        return self._table.dealer

    @property
    def player(self) -> int:
        """The seat whose turn it is."""
        return self._table.player

    @property
    def hand(self) -> tuple[Card, ...]:
        """The seat's own cards, in deck order."""
        return tuple(sorted(self._table.holdings[self.seat].known))

    @property
    def hand_sizes(self) -> tuple[int, ...]:
        """How many cards each seat holds."""
        return tuple([len(h) for h in self._table.holdings])

    @property
    def piles(self) -> tuple[tuple[Pile, tuple[Card, ...]], ...]:
        """Every pile, bottom card first (an empty pile has no cards)."""
        piles = self._table.piles
        return tuple([(p, tuple(piles[p])) for p in PILES])

    def pile(self, pile: Pile) -> tuple[Card, ...]:
        """The cards of one pile, bottom card first."""
        return tuple(self._table.piles[pile])

    @property
    def removed(self) -> tuple[tuple[Card, ...], ...]:
        """Completed piles cleared from the table."""
        return tuple(self._table.removed)

    @property
    def stock(self) -> int:
        """Cards left in the stock."""
        return self._table.stock

    @property
    def drawn(self) -> bool:
        """The player whose turn it is has drawn this turn."""
        return self._table.drawn

    @property
    def plays(self) -> int:
        """Cards played from hand this turn."""
        return self._table.plays

    @property
    def step(self) -> int:
        """Actions taken this turn."""
        return self._table.step

    @property
    def pending_king(self) -> Card | None:
        """A drawn King that must go to an empty corner now."""
        return self._table.pending_king

    @property
    def turns(self) -> int:
        """Turns ended so far in the hand."""
        return self._table.turns

    @property
    def stacks(self) -> tuple[int, ...] | None:
        """Chips per seat, where chips are played."""
        stacks = self._table.stacks
        return tuple(stacks) if stacks is not None else None

    @property
    def pot(self) -> int:
        return self._table.pot

    def __repr__(self) -> str:
        return f"SeatView(seat={self.seat}, hand={' '.join(map(str, self.hand))}, stock={self.stock})"


def seat_view(t: Table, seat: int) -> SeatView:
    """What ``seat`` may see of ``t``."""
    return SeatView(t, seat)


BLIND_DRAW = Draw()
"""A draw as a seat is offered it: the card is not known before it is drawn."""


def blind_actions(legal: Sequence[Action]) -> list[Action]:
    """``legal`` with the draw's card hidden: a seat may not know the top of the stock."""
    return [BLIND_DRAW if type(a) is Draw else a for a in legal]


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
    :func:`seat_view` and :func:`blind_actions`, and holds it to what it was offered.

    With a ``clock`` (seconds, e.g. ``time.monotonic``), it holds the bot to ``move_time`` a
    move and ``game_time`` over the game too. A bot in this process cannot be stopped while it
    thinks: one that took too long forfeits once it answers.
    """

    def __init__(self, seat: int, bot: SeatBot, clock: Callable[[], float] | None = None,
                 move_time: float = math.inf, game_time: float = math.inf) -> None:
        self.seat = seat
        self.bot = bot
        self.clock = clock
        self.move_time = move_time
        self.time_left = game_time

    def choose(self, t: Table, legal: Sequence[Action], can_end: bool, rng: random.Random) -> Action | None:
        seat, clock = self.seat, self.clock
        offered = blind_actions(legal)
        try:
            if clock is None:
                action = self.bot.choose(SeatView(t, seat), offered, can_end, rng)
            else:
                start = clock()
                action = self.bot.choose(SeatView(t, seat), offered, can_end, rng)
                self._spent(clock() - start)
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
        try:
            return legal[offered.index(action)]
        except ValueError:
            raise Forfeit(seat, ForfeitReason.ILLEGAL, f"{action} is not a legal action now") from None

    def _spent(self, seconds: float) -> None:
        self.time_left -= seconds
        if seconds > self.move_time:
            raise Forfeit(self.seat, ForfeitReason.TIME, f"took {seconds:.3f} s for a move of {self.move_time:g} s")
        if self.time_left < 0:
            raise Forfeit(self.seat, ForfeitReason.TIME, "its time for the game ran out")
