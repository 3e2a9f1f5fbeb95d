"""The table as it stands during a hand: the one mutable object of the engine.

Only the engine (``kcref.engine``) changes a :class:`Table`; everything else reads it. A hand
may be fully known (every deal and drawn card written) or partly known: each player's hand is
a set of known cards plus a count of unknown ones, and ``seen`` holds every card whose place
is known, so that a card played from an unknown hand can still be checked against it.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from typing import Final, final

from ..model.cards import CORNERS, DECK, FOUNDATIONS, Card, Pile
from ..model.options import Options
from .policy import Policy, policy_for

PILES: Final[tuple[Pile, ...]] = (*FOUNDATIONS, *CORNERS)


class Unchecked(enum.Enum):
    """A check the referee had to skip because some cards were unknown."""

    HELD = "which cards {who} held"
    DEALT_KINGS = "forced Kings in the deal of {who}"
    DRAWN_KINGS = "whether a card {who} drew unseen was a King to place at once"
    STUCK = "whether {who} could still play when drawing or not drawing"
    CARDS_LEFT = "the value of the cards {who} had left (no reveal)"


class Closed(enum.Enum):
    """Why nothing more may happen this turn, with the code and message of the error for an
    action that tries (``{winner}`` stands for the name of the player who went out)."""

    DRAWN = ("KC311", "nothing may follow the draw")
    KING_PLACED = ("KC327", "the turn ended when the drawn King was placed")
    PASSED = ("KC322", "pass must be the only action of its turn")
    WENT_OUT = ("KC319", "{winner} has gone out: the hand is over")

    @property
    def code(self) -> str:
        """The code of the error for an action that tries."""
        code: str = self.value[0]
        return code

    @property
    def message(self) -> str:
        """Its message."""
        message: str = self.value[1]
        return message


@final
class Note:
    """Something the engine reports without refusing the action: a penalty paid, or a debt.

    ``step`` is the index of the action within the current turn that caused it (-1: the turn
    as a whole; ``None``: the hand as a whole, e.g. the ante or the end of the hand). A hand
    may hold one on every turn: a plain final class, which costs less to make than a
    ``NamedTuple`` (compiled, far less).
    """

    __slots__ = ("chips", "code", "message", "seat", "step")

    def __init__(self, code: str, seat: int, chips: int, message: str, step: int | None) -> None:
        self.code: Final = code
        self.seat: Final = seat
        self.chips: Final = chips
        self.message: Final = message
        self.step: Final = step

    def __repr__(self) -> str:
        return (f"Note(code={self.code!r}, seat={self.seat!r}, chips={self.chips!r}, message={self.message!r}, "
                f"step={self.step!r})")


@final
class Holding:
    """One player's cards (not a hand of the game): the known ones and how many unknown ones."""

    __slots__ = ("known", "unknown")

    def __init__(self, known: set[Card] | None = None, unknown: int = 0) -> None:
        self.known: set[Card] = known if known is not None else set()
        self.unknown = unknown

    def __len__(self) -> int:
        return len(self.known) + self.unknown

    @property
    def fully_known(self) -> bool:
        return self.unknown == 0

    def copy(self) -> Holding:
        return Holding(set(self.known), self.unknown)

    def __repr__(self) -> str:
        cards = " ".join(sorted(str(c) for c in self.known))
        return f"Holding({cards}{' +' + str(self.unknown) + '?' if self.unknown else ''})"


@final
class Table:
    """The state of one hand: piles, hands, stock, turn, chips.

    Piles are lists with the bottom card first. ``deck`` is the stock's order (top card last)
    when it is known, as in self-play; a refereed log leaves it ``None`` and only counts.
    ``stock`` is how many cards the stock holds when play starts: the first turn opens with it.
    """

    __slots__ = (
        "ante",
        "blocked",
        "closed",
        "dealer",
        "dealt_kings",
        "debtors",
        "deck",
        "draw_step",
        "drawn",
        "holdings",
        "idle",
        "kings_judged",
        "maybe_king",
        "n",
        "names",
        "notes",
        "options",
        "out_step",
        "pending_king",
        "phase_may_refuse",
        "piles",
        "player",
        "plays",
        "policy",
        "pot",
        "removed",
        "removed_corners",
        "seen",
        "stacks",
        "started_empty",
        "step",
        "stock",
        "turns",
        "unchecked",
        "winner",
    )

    def __init__(self, options: Options, names: Sequence[str], dealer: int, stock: int = 0) -> None:
        self.options = options
        self.policy: Policy = policy_for(options)
        self.names: tuple[str, ...] = tuple(names)
        self.n = len(self.names)
        self.dealer = dealer
        self.piles: dict[Pile, list[Card]] = {p: [] for p in PILES}
        self.holdings: list[Holding] = [Holding() for _ in range(self.n)]
        self.stock = stock
        self.deck: list[Card] | None = None
        self.seen: set[Card] = set()
        self.removed: list[tuple[Card, ...]] = []
        """Completed piles cleared from the table (option ``CompletedPiles "remove"``)."""
        self.removed_corners: set[Card] = set()
        """The Kings at the bottom of the corner piles among them: Kings that went to a corner."""
        self.dealt_kings: list[frozenset[Card] | None] = [None] * self.n
        """The Kings each player was dealt; ``None`` where the deal is unknown."""
        self.kings_judged: list[bool] = [False] * self.n
        # --- the turn in progress (see ``new_turn``)
        self.new_turn((dealer + 1) % self.n)
        self.idle = 0
        """Turns in a row that started with the stock empty and made no play."""
        self.turns = 0
        # --- the end of the hand
        self.winner: int | None = None
        self.blocked = False
        self.out_step = -1
        # --- chips
        self.stacks: list[int] | None = None
        self.pot = 0
        self.ante = 0
        self.notes: list[Note] = []
        self.debtors: set[int] = set()
        self.unchecked: dict[Unchecked, set[int]] = {}

    # --- reading the table -----------------------------------------------------------------

    def new_turn(self, player: int) -> None:
        """Open the turn of ``player``: nothing done yet."""
        self.player = player
        self.step = 0
        """Actions taken so far this turn."""
        self.drawn = False
        self.draw_step = -1
        self.plays = 0
        self.closed: Closed | None = None
        """When nothing more may happen this turn, why; ``None`` while the turn is open."""
        self.pending_king: Card | None = None
        """A drawn King that the next action must place in an empty corner."""
        self.maybe_king = False
        """The card just drawn is unknown and might be such a King."""
        self.started_empty = self.stock == 0
        """The turn began with the stock empty (a blocked hand is a round of such turns)."""
        self.phase_may_refuse = self.policy.draw_first and self.stock > 0
        """The turn's phase may refuse the next action (the engine then judges it first): set
        whenever the turn is closed, a drawn King is pending or may be, or the draw must come first."""

    def close(self, why: Closed) -> None:
        """Nothing more may happen this turn, for the reason ``why`` (the phase then judges any
        further action)."""
        self.closed = why
        self.phase_may_refuse = True

    @property
    def over(self) -> bool:
        """True once someone has gone out or the hand is blocked."""
        return self.winner is not None or self.blocked

    @property
    def name(self) -> str:
        """The name of the player whose turn it is."""
        return self.names[self.player]

    @property
    def holding(self) -> Holding:
        """The cards of the player whose turn it is."""
        return self.holdings[self.player]

    @property
    def full_information(self) -> bool:
        """True when every card in every hand is known."""
        return all(h.unknown == 0 for h in self.holdings)

    @property
    def chips_played(self) -> bool:
        return self.stacks is not None

    def top(self, pile: Pile) -> Card | None:
        cards = self.piles[pile]
        return cards[-1] if cards else None

    def bottom(self, pile: Pile) -> Card | None:
        cards = self.piles[pile]
        return cards[0] if cards else None

    def unseen(self) -> set[Card]:
        """Cards whose place is unknown: in the stock or among unknown cards in hands."""
        return set(DECK) - self.seen

    def card_count(self) -> int:
        """Cards on the table, in hands, in the stock and removed: always 52."""
        return (sum(len(p) for p in self.piles.values()) + sum(len(h) for h in self.holdings)
                + self.stock + sum(len(p) for p in self.removed))

    def mark_unchecked(self, what: Unchecked, seat: int) -> None:
        self.unchecked.setdefault(what, set()).add(seat)

    # --- copying -----------------------------------------------------------------------------

    def copy(self) -> Table:
        """An independent copy (for bots that look ahead): no list, set or dict is shared."""
        t = Table(self.options, self.names, self.dealer, self.stock)
        t.policy = self.policy
        t.piles = {p: list(c) for p, c in self.piles.items()}
        t.holdings = [h.copy() for h in self.holdings]
        t.deck = list(self.deck) if self.deck is not None else None
        t.seen = set(self.seen)
        t.removed = list(self.removed)
        t.removed_corners = set(self.removed_corners)
        t.dealt_kings = list(self.dealt_kings)
        t.kings_judged = list(self.kings_judged)
        t.player = self.player
        t.step = self.step
        t.drawn = self.drawn
        t.draw_step = self.draw_step
        t.plays = self.plays
        t.closed = self.closed
        t.pending_king = self.pending_king
        t.maybe_king = self.maybe_king
        t.started_empty = self.started_empty
        t.phase_may_refuse = self.phase_may_refuse
        t.idle = self.idle
        t.turns = self.turns
        t.winner = self.winner
        t.blocked = self.blocked
        t.out_step = self.out_step
        t.stacks = list(self.stacks) if self.stacks is not None else None
        t.pot = self.pot
        t.ante = self.ante
        t.notes = list(self.notes)
        t.debtors = set(self.debtors)
        t.unchecked = {k: set(v) for k, v in self.unchecked.items()}
        return t

    def __repr__(self) -> str:
        piles = " ".join(f"{p}:{'/'.join(map(str, c))}" for p, c in self.piles.items() if c)
        return f"Table({piles} stock={self.stock} player={self.name} hands={self.holdings})"
