"""Self-play: bots that play whole hands through the engine, and the full logs they write.

Every choice is drawn from one seeded ``random.Random`` through ``random()`` alone, and legal
actions come in a sorted order, so the same seed gives the same log on any machine and any
Python version.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping, Sequence
from typing import NamedTuple, Protocol

from ..model.cards import Card
from ..model.events import (
    PASS,
    Action,
    Blocked,
    Deal,
    Draw,
    Event,
    HandStart,
    Layout,
    MovePile,
    PlayCard,
    Tag,
    Turn,
)
from ..model.options import OPTION_TAGS_BY_NAME, Options, resolve
from ..notation.writer import DEFAULT_SPELLING, Spelling, event_text
from .carry import ChipCarry
from .dealing import deal_from_deck, pick, shuffled_deck
from .moves import KINGS
from .seats import Forfeit
from .table import Table
from .turns import apply, can_end_turn, end_turn, legal_actions, settle

NAMES = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay")
MAX_TURNS = 2000
"""A hand longer than this is cut off (it cannot happen by the rules; a guard against bot bugs)."""


class Bot(Protocol):
    """Chooses the next action of the player whose turn it is, or None to end the turn.

    The built-in bots read nothing of the table, so they also play a seat of the arena, where a
    bot sees only its seat's view (:class:`kcref.engine.seats.SeatBot`); they say so
    (``reads_view = False``), and the arena makes them none.
    """

    def choose(self, t: Table, legal: Sequence[Action], can_end: bool, rng: random.Random) -> Action | None: ...


class RandomBot:
    """Legal actions at random; sometimes stops early, and mostly draws rather than skip it."""

    reads_view = False

    def __init__(self, stop: float = 0.15) -> None:
        self.stop = stop

    def choose(self, t: object, legal: Sequence[Action], can_end: bool, rng: random.Random) -> Action | None:
        if can_end and (not legal or rng.random() < self.stop):
            draws = [a for a in legal if isinstance(a, Draw)]
            if draws and rng.random() < 0.9:
                return draws[0]
            return None
        return legal[pick(rng, len(legal))] if legal else None


class GreedyBot:
    """Plays as many cards as it can: Kings to corners first, then any card that fits, then a pile
    move that the rules allow, then the draw; ends the turn when nothing is left."""

    reads_view = False

    def choose(self, t: object, legal: Sequence[Action], can_end: bool, rng: random.Random) -> Action | None:
        plays = [a for a in legal if isinstance(a, PlayCard)]
        kings = [a for a in plays if a.card in KINGS]
        if kings:
            return kings[0]
        if plays:
            return plays[pick(rng, len(plays))]
        moves = [a for a in legal if isinstance(a, MovePile)]
        if moves:
            return moves[pick(rng, len(moves))]
        draws = [a for a in legal if isinstance(a, Draw)]
        if draws:
            return draws[0]
        if can_end:
            return None
        return legal[0] if legal else None


BOTS: Mapping[str, Bot] = {"random": RandomBot(), "greedy": GreedyBot()}


def play_turn(t: Table, bot: Bot, rng: random.Random, stock: list[Card] | None = None) -> list[Action]:
    """Play one turn for the player whose turn it is; return its actions (``pass`` if none).

    ``stock`` is the stock's order (top card last) when it is kept off a table that does not
    know it: a draw then turns up its top card (the stock empty, the engine refuses the draw).
    """
    actions: list[Action] = []
    while not t.over:
        legal = legal_actions(t)
        action = bot.choose(t, legal, can_end_turn(t), rng)
        if action is None:
            break
        if stock and type(action) is Draw:
            action = Draw(stock.pop())
        apply(t, action)
        actions.append(action)
    if not actions:
        apply(t, PASS)
        actions.append(PASS)
    return actions


class PlayedHand(NamedTuple):
    """A hand played out: its events after the ``hand`` line, and the table at the end."""

    events: list[Event]
    table: Table
    pot_won: int = 0
    """The pot the winner took (0 when nobody went out, or no chips are played)."""
    forfeit: Forfeit | None = None
    """The bot that lost the hand by forfeit, if one did: play stopped there, the turn it was
    playing is not among the events, and the hand is not settled."""


def play_hand(options: Options, names: Sequence[str], dealer: int, bot: Bot | Sequence[Bot], rng: random.Random, *,
              deck: Sequence[Card] | None = None, stacks: Sequence[int] | None = None,
              pot: int = 0, hide_stock: bool = False) -> PlayedHand:
    """Deal (from ``deck``, or a deck shuffled by ``rng``) and play one whole hand.

    ``bot`` plays every seat, or ``bot[seat]`` plays each seat. A bot that raises
    :class:`~kcref.engine.seats.Forfeit` ends the hand (:attr:`PlayedHand.forfeit`). With
    ``hide_stock``, as the arena plays, the table does not know the stock's order: the draw is
    offered without its card, and the card is turned up as it is drawn (the log still names it).
    """
    seats = list(bot) if isinstance(bot, Sequence) else [bot] * len(names)
    dealt = deal_from_deck(options, names, dealer, deck or shuffled_deck(rng), stacks=stacks, pot=pot)
    t = dealt.table
    stock = None
    if hide_stock:
        stock, t.deck = t.deck, None  # kept here, as a dealer keeps it: the table only counts it
    events: list[Event] = [*(Deal(names[s], cards) for s, cards in enumerate(dealt.deals)), Layout(dealt.layout)]
    while not t.over and t.turns < MAX_TURNS:
        seat = t.player
        try:
            actions = play_turn(t, seats[seat], rng, stock)
        except Forfeit as forfeit:
            return PlayedHand(events, t, forfeit=forfeit)
        end_turn(t)
        events.append(Turn(names[seat], tuple(actions), comment="# out" if t.winner == seat else ""))
    if t.blocked:
        events.append(Blocked())
    return PlayedHand(events, t, settle(t))


def play_log(players: int | Sequence[str], rules: str = "classic", overrides: Mapping[str, str] | None = None,
             seed: int = 0, hands: int = 1, bot: str = "greedy",
             spelling: Spelling = DEFAULT_SPELLING) -> Iterator[str]:
    """The lines (each ending in a newline) of a complete, full-information log of self-play.

    ``players`` is a count (names Ann, Bob, ...) or the names themselves.
    """
    names = tuple(NAMES[:players]) if isinstance(players, int) else tuple(players)
    if not 2 <= len(names) <= 6:
        raise ValueError("Kings in the Corner takes 2 to 6 players")
    overrides = dict(overrides or {})
    options = resolve(rules, overrides)
    rng = random.Random(seed)
    chosen = BOTS[bot]
    header: list[Event] = [Tag("Players", ", ".join(names)), Tag("Rules", rules.lower()),
                           *(Tag(OPTION_TAGS_BY_NAME[k.lower()].tag, v) for k, v in overrides.items())]
    for event in header:
        yield event_text(event, spelling) + "\n"
    dealer = len(names) - 1
    carry = ChipCarry()
    for number in range(1, hands + 1):
        yield "\n" + event_text(HandStart(number, names[dealer]), spelling) + "\n"
        carry.before(options)
        carried = carry.into(options, names, dealer)
        played = play_hand(options, names, dealer, chosen, rng, stacks=carried.stacks, pot=carried.pot)
        for event in played.events:
            yield event_text(event, spelling) + "\n"
        carry.after(options, names, played.table.stacks, played.table.pot)
        dealer = (dealer + 1) % len(names)
