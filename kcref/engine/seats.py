"""What one seat may see of the table, and a bot that plays a seat from that alone.

A :class:`SeatView` is a frozen record of what a seat may see at one moment: its own cards, the
piles, how many cards every player and the stock hold, whose turn it is and what that turn has
done so far. It is a copy, made for the move, and holds no reference to the table: never another
player's cards, nor the order of the stock. The legal actions a seat bot is offered hide the
stock's order too: the draw is offered as a plain ``draw``. The arena plays on a table that does
not know that order (:func:`kcref.engine.bots.play_hand` with ``hide_stock``), whose draw has no
card to hide; on a table that knows it, :class:`SeatPlayer` offers the draw without its card
(:func:`blind_actions`) and puts the card back before the engine applies it.

A seat bot that chooses from the legal actions alone says so (``reads_view = False``, as the
built-in bots do): it is given no view, and none is made for it.

A seat bot that raises, answers an action it was not offered, or ends a turn that may not end
yet, forfeits the game (:class:`Forfeit`, with a :class:`ForfeitReason`).
"""

from __future__ import annotations

import enum
import math
import random
from collections.abc import Callable, Sequence
from typing import NamedTuple, Protocol, final

from ..model.cards import Card, Pile
from ..model.events import Action, Draw
from .table import PILES, Table


class SeatView(NamedTuple):
    """The table as one seat sees it at one moment: a frozen record, made for the move."""

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

    def pile(self, pile: Pile) -> tuple[Card, ...]:
        """The cards of one pile, bottom card first."""
        return self.piles[PILES.index(pile)][1]


def seat_view(t: Table, seat: int) -> SeatView:
    """What ``seat`` may see of ``t`` now."""
    piles, stacks = t.piles, t.stacks
    # Positional, in the order of the fields: a bot that reads its view is made one every move,
    # and matching sixteen keywords would cost about as much as copying the piles.
    return SeatView(
        seat, t.names, t.dealer, t.player,
        tuple(sorted(t.holdings[seat].known)), tuple([len(h) for h in t.holdings]),
        tuple([(p, tuple(piles[p])) for p in PILES]), tuple(t.removed),
        t.stock, t.drawn, t.plays, t.step, t.pending_king, t.turns,
        tuple(stacks) if stacks is not None else None, t.pot)


BLIND_DRAW = Draw()
"""A draw as a seat is offered it: the card is not known before it is drawn."""


def blind_actions(legal: Sequence[Action]) -> tuple[Action, ...]:
    """``legal`` with the draw's card hidden (a seat may not know the top of the stock), as a
    tuple: what a bot is offered is not a list it could change under the referee."""
    return tuple([BLIND_DRAW if type(a) is Draw else a for a in legal])


class SeatBot(Protocol):
    """Chooses the next action for its seat from what the seat sees, or None to end the turn.

    ``view`` is what the seat sees now (None for a bot whose ``reads_view`` is False: see
    :func:`reads_view`); ``legal`` are the actions the rules allow now (a draw without its
    card); ``can_end`` says whether the turn may end now. ``rng`` is the game's own seeded
    generator.
    """

    def choose(self, view: SeatView | None, legal: Sequence[Action], can_end: bool,
               rng: random.Random) -> Action | None: ...


def reads_view(bot: object) -> bool:
    """Whether ``bot`` reads its view: yes, unless its ``reads_view`` attribute says no (a bot
    that chooses from the legal actions alone); such a bot is given None, and no view is made
    for it."""
    return bool(getattr(bot, "reads_view", True))


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
    :func:`seat_view` (made only for a bot that :func:`reads_view`) and the legal actions as a
    tuple, with the draw's card hidden (:func:`blind_actions`) where the table knows it, and holds
    the bot to what it was offered. With nothing to offer, when the turn may end, it ends the turn
    without asking the bot.

    With a ``clock`` (seconds, e.g. ``time.monotonic``), it holds the bot to ``move_time`` a
    move and ``game_time`` over the game too. A bot in this process cannot be stopped while it
    thinks: one that took too long forfeits once it answers.
    """

    def __init__(self, seat: int, bot: SeatBot, clock: Callable[[], float] | None = None,
                 move_time: float = math.inf, game_time: float = math.inf) -> None:
        self.seat = seat
        self.bot = bot
        self.reads_view = reads_view(bot)
        self.clock = clock
        self.move_time = move_time
        self.time_left = game_time

    def choose(self, t: Table, legal: Sequence[Action], can_end: bool, rng: random.Random) -> Action | None:
        if not legal and can_end:
            return None  # nothing to choose: the turn ends without asking the bot
        seat, clock = self.seat, self.clock
        offered = tuple(legal) if t.deck is None else blind_actions(legal)
        view = seat_view(t, seat) if self.reads_view else None
        try:
            if clock is None:
                action = self.bot.choose(view, offered, can_end, rng)
            else:
                start = clock()
                action = self.bot.choose(view, offered, can_end, rng)
                spent = clock() - start
                self.time_left -= spent
                if spent > self.move_time or self.time_left < 0:
                    raise self._late(spent)
        except Forfeit as forfeit:
            if forfeit.seat == seat:
                raise
            raise Forfeit(seat, forfeit.reason, forfeit.detail) from None  # a bot forfeits only its own seat
        except Exception as exc:  # a bot's bug loses its game, not the arena
            raise Forfeit(seat, ForfeitReason.CRASH, f"{type(exc).__name__}: {_shown(exc)}") from exc
        if action is None:
            if not can_end:
                raise Forfeit(seat, ForfeitReason.ILLEGAL, "ended a turn that may not end yet")
            return None
        try:
            return legal[offered.index(action)]
        except Exception:  # not offered, or an object whose comparison raises
            raise Forfeit(seat, ForfeitReason.ILLEGAL, f"{_shown(action)} is not a legal action now") from None

    def _late(self, seconds: float) -> Forfeit:
        """The forfeit of a bot that took ``seconds`` over a move, more than it had."""
        if seconds > self.move_time:
            return Forfeit(self.seat, ForfeitReason.TIME, f"took {seconds:.3f} s for a move of {self.move_time:g} s")
        return Forfeit(self.seat, ForfeitReason.TIME, "its time for the game ran out")


def _shown(value: object) -> str:
    """``value`` as text for a forfeit's detail, even when the bot's own ``str`` of it raises."""
    try:
        return str(value)
    except Exception:
        return f"a {type(value).__name__} that cannot be shown"
