"""Scoring systems as data: everything about one system in one frozen record, in one registry.

A log picks a system with ``[Scoring "NAME"]``. What a hand is worth, how the score is said in
words, which way a game is won, whether chips are played and kept from hand to hand, what a
card left in hand costs: every module asks the :class:`ScoringSystem` record, and none tests
which system it holds. A new system is one :func:`register` call.

The records read a hand's result through :class:`HandResult`, which the referee's verdict
satisfies, so that this layer never imports the referee; and the rule options through
:class:`ChipOptions`, which :class:`kcref.model.options.Options` satisfies, so that the options,
which name the systems, are not imported back.
"""

from collections.abc import Callable, Iterator, Mapping
from types import MappingProxyType
from typing import NamedTuple, Protocol

from .cards import Card, Rank


class ChipOptions(Protocol):
    """What a system reads of the rule options (:class:`kcref.model.options.Options`)."""

    @property
    def chips(self) -> int:
        """Chips shared out at the start of each hand."""

    @property
    def stack(self) -> int:
        """Each player's starting stack, where stacks are kept."""

    @property
    def ante(self) -> int: ...


CardValue = Callable[[Card], int]
"""What one card left in hand is worth."""
StartStacks = Callable[[ChipOptions, int, int], list[int]]
"""Each seat's chips before the ante, from the options, the number of players and the dealer's seat."""


class HandResult(Protocol):
    """What a scorer reads of a finished hand (:class:`kcref.referee.verdict.HandVerdict`)."""

    @property
    def players(self) -> tuple[str, ...]: ...

    @property
    def winner(self) -> int | None:
        """The seat of the player who went out."""

    @property
    def blocked(self) -> bool: ...

    @property
    def pot(self) -> int:
        """The pot when play stopped: what the winner took."""

    @property
    def points(self) -> tuple[int | None, ...] | None:
        """Per seat, the value of the cards left (where the system values them)."""

    @property
    def cards_left(self) -> tuple[tuple[Card, ...] | int, ...]:
        """Per seat, the cards left when they are all known, else how many."""

    @property
    def stacks_start(self) -> tuple[int, ...] | None: ...

    @property
    def stacks_end(self) -> tuple[int, ...] | None: ...


# --- how a hand scores --------------------------------------------------------------------------


class HandScorer(NamedTuple):
    """What a finished, valid hand is worth to each seat, and why, in words."""

    score: Callable[[HandResult], tuple[int | None, ...]]
    """Per seat (``None``: it depends on cards nobody recorded)."""
    why: Callable[[HandResult, int], str]
    """A short reason for a seat's score, shown when a log states another: `` (the pot)``."""
    only_winner: bool = False
    """Only the winner scores: a loser's score (0) never depends on the cards left."""
    negated: bool = False
    """A log may write the score as a negative number (seed 001 writes penalty points so)."""


def _hands_won(r: HandResult) -> tuple[int | None, ...]:
    return tuple(int(seat == r.winner) for seat in range(len(r.players)))


def _hands_won_why(r: HandResult, seat: int) -> str:
    if r.blocked:
        return " (the hand is blocked: nobody scores)"
    return " (1 for the winner of the hand, 0 for the others)"


def _pot_to_winner(r: HandResult) -> tuple[int | None, ...]:
    # A blocked hand: nobody scores (docs/rules.md, ruling 7); the pot is not anyone's score.
    return tuple(r.pot if seat == r.winner else 0 for seat in range(len(r.players)))


def _pot_why(r: HandResult, seat: int) -> str:
    if r.blocked:
        return " (the hand is blocked: nobody scores)"
    return " (the pot)" if seat == r.winner else " (only the winner scores: the pot)"


def _stack_change(r: HandResult) -> tuple[int | None, ...]:
    assert r.stacks_start is not None and r.stacks_end is not None
    return tuple(end - start for start, end in zip(r.stacks_start, r.stacks_end))


def _stack_why(r: HandResult, seat: int) -> str:
    if r.stacks_start is None or r.stacks_end is None:
        return ""
    return f" (the stack went from {r.stacks_start[seat]} to {r.stacks_end[seat]})"


def _cards_left(r: HandResult) -> tuple[int | None, ...]:
    assert r.points is not None
    return r.points


def _cards_left_why(r: HandResult, seat: int) -> str:
    left = r.cards_left[seat]
    if not isinstance(left, tuple):
        return ""
    return f" ({' '.join(str(c) for c in left)} left)" if left else " (no cards left)"


HANDS_WON = HandScorer(_hands_won, _hands_won_why, only_winner=True)
"""1 for the winner of the hand, 0 for the others (nobody, when it is blocked)."""
POT_TO_WINNER = HandScorer(_pot_to_winner, _pot_why, only_winner=True)
"""The pot, to the winner; a blocked hand scores nothing."""
STACK_CHANGE = HandScorer(_stack_change, _stack_why)
"""Each player's change in stack over the hand, ante included."""
CARDS_LEFT = HandScorer(_cards_left, _cards_left_why, negated=True)
"""The value of each player's cards left (the system's ``card_value``), blocked hands too."""


# --- chips ------------------------------------------------------------------------------------


def shared_stacks(options: ChipOptions, n: int, dealer: int) -> list[int]:
    """``options.chips`` shared out as evenly as possible; the extra chips go to the first
    seats after the dealer (3 players, 80 chips: 27, 27, 26)."""
    base, extra = divmod(options.chips, n)
    stacks = [base] * n
    for k in range(extra):
        stacks[(dealer + 1 + k) % n] += 1
    return stacks


def full_stacks(options: ChipOptions, n: int, dealer: int) -> list[int]:
    """A stack of ``options.stack`` chips for everyone."""
    return [options.stack] * n


class ChipPlay(NamedTuple):
    """How chips are played under a system: how stacks start, and whether they are kept."""

    start: StartStacks
    """Each seat's chips before the ante, for a hand that does not carry stacks in."""
    kept: bool
    """Stacks (and a pot nobody won) carry from hand to hand within a game, joined by player
    name (:mod:`kcref.engine.carry`); else every hand starts afresh."""


# --- words ------------------------------------------------------------------------------------

FIRST_TO = "the first to {target} {unit} ends the game"
"""The end of a game at ``Target``, where the highest total wins."""
REACHES = "the game ends when someone reaches {target}"
"""The end of a game at ``Target``, where the lowest total wins."""


class SystemWords(NamedTuple):
    """How a system's scores are said."""

    about: str
    """What the system does, after its name in the score header: a template of the options
    (``{o.chips}``)."""
    unit: str
    """What the points count: ``chips``, ``points``, ``hands won``."""
    one: str
    """The unit for a score of 1 or -1: ``chip``, ``hand won``."""
    target: str
    """How ``Target`` ends a game: a template of ``{target}`` and ``{unit}``."""
    signed: bool = False
    """A score is shown with its sign (``+3 chips``): it counts a change."""


class GameEnds(NamedTuple):
    """How a game ends besides ``Target`` and ``Hands``."""

    with_night: bool = False
    """A game ends with each file (a night), as the stacks do."""
    each_hand: bool = False
    """With neither ``Target`` nor ``Hands``, each hand is a game."""


_NO_SPECIAL_ENDS = GameEnds()


def _nothing(options: ChipOptions) -> int:
    return 0


def _the_stack(options: ChipOptions) -> int:
    return options.stack


# --- the record -------------------------------------------------------------------------------


class ScoringSystem(NamedTuple):
    """Everything about one scoring system.

    A system is registered once and compared by identity (it is also hashed so, cheaply, for the
    tables keyed by system); it pickles by name, so a worker process finds the same record.
    """

    name: str
    """The value of its ``[Scoring "..."]`` tag, lower case."""
    scorer: HandScorer
    words: SystemWords
    highest_wins: bool
    """The highest total wins a game (else the lowest does)."""
    card_value: CardValue | None = None
    """What a card left in hand is worth, where the system values the cards left (the referee
    then counts each player's ``points``)."""
    chips: ChipPlay | None = None
    """How chips are played; ``None`` where they are not (faults are then rule errors)."""
    default_target: int | None = None
    """``Target`` when a log picks the system without one."""
    implies: Mapping[str, int] = MappingProxyType({})
    """Other options the system sets when it is picked (``king_chips``: 10)."""
    games: GameEnds = _NO_SPECIAL_ENDS
    opening: Callable[[ChipOptions], int] = _nothing
    """Where a running total starts, which ``Target`` is compared with (the stack, for a
    system that scores the change of a kept stack)."""

    @property
    def plays_chips(self) -> bool:
        return self.chips is not None

    @property
    def keeps_stacks(self) -> bool:
        """Stacks carry from hand to hand."""
        return self.chips is not None and self.chips.kept

    # By identity, as a registered record is one of a kind (not field by field, as a tuple).
    def __eq__(self, other: object) -> bool:
        return self is other

    def __ne__(self, other: object) -> bool:
        return self is not other

    def __hash__(self) -> int:
        return object.__hash__(self)

    def __str__(self) -> str:
        return self.name

    def __repr__(self) -> str:
        return f"ScoringSystem({self.name!r})"

    def __reduce__(self) -> tuple[Callable[[str], "ScoringSystem"], tuple[str]]:
        return system, (self.name,)

    def describe(self, options: ChipOptions) -> str:
        """``chips (80 shared out each hand, ...)``: the name and what it does, for ``options``."""
        return f"{self.name} {self.words.about.format(o=options)}"

    def amount(self, n: int) -> str:
        """``12 points``, ``+5 chips``, ``1 hand won``."""
        text = f"{n:+d}" if self.words.signed else str(n)
        return f"{text} {self.words.one if abs(n) == 1 else self.words.unit}"

    def target_words(self, target: int) -> str:
        """How reaching ``target`` ends a game, in words."""
        return self.words.target.format(target=target, unit=self.words.unit)


# --- the registry -----------------------------------------------------------------------------

_REGISTRY: dict[str, ScoringSystem] = {}
SYSTEMS: Mapping[str, ScoringSystem] = MappingProxyType(_REGISTRY)
"""Every registered system by name, in the order registered."""


class UnknownSystem(ValueError):
    """No scoring system of that name is registered."""

    def __init__(self, name: str) -> None:
        super().__init__(f"unknown scoring system '{name}': expected one of {', '.join(_REGISTRY)}")
        self.name = name


def register(new: ScoringSystem) -> ScoringSystem:
    """Add ``new`` to the registry (its ``[Scoring]`` value is then accepted) and return it.

    Raises ``ValueError`` for a name already taken, or one a tag cannot spell (it must be lower
    case, without spaces or quotes).
    """
    name = new.name
    if not name or name != name.strip().lower() or any(c.isspace() or c in '"\\' for c in name):
        raise ValueError(f"a scoring system's name must be lower case, without spaces or quotes: {name!r}")
    if name in _REGISTRY:
        raise ValueError(f"a scoring system named '{name}' is already registered")
    _REGISTRY[name] = new
    return new


def unregister(name: str) -> None:
    """Remove a system registered earlier (a test's, or a plugin's). Raises :class:`UnknownSystem`."""
    if name not in _REGISTRY:
        raise UnknownSystem(name)
    del _REGISTRY[name]


def system(name: str) -> ScoringSystem:
    """The system named ``name`` (any case, spaces around ignored). Raises :class:`UnknownSystem`."""
    found = _REGISTRY.get(name.strip().lower())
    if found is None:
        raise UnknownSystem(name)
    return found


def names() -> Iterator[str]:
    """The registered names, in order."""
    return iter(_REGISTRY)


# --- the systems --------------------------------------------------------------------------------


def _penalty_card(card: Card) -> int:
    """``penalty`` (001, 004): King 10, any other card 1."""
    return 10 if card.rank is Rank.K else 1


def _pip_card(card: Card) -> int:
    """``pips`` (001 alternative): Ace 25, K Q J 10 count 10, others their face value."""
    if card.rank is Rank.A:
        return 25
    return min(int(card.rank), 10)


def _dutch_card(card: Card) -> int:
    """``dutch`` (003): face cards 10, number cards 5, Aces 25."""
    if card.rank is Rank.A:
        return 25
    return 10 if card.rank >= Rank.J else 5


_POINTS = ("points", "point")

NONE = register(ScoringSystem(
    "none", HANDS_WON,
    SystemWords("(hands won are counted)", "hands won", "hand won", FIRST_TO),
    highest_wins=True, games=GameEnds(each_hand=True)))
"""Hands won are counted."""

CHIPS = register(ScoringSystem(
    "chips", POT_TO_WINNER,
    SystemWords("({o.chips} shared out each hand, ante {o.ante}; the winner takes the pot, which is the "
                "hand's score)", "chips", "chip", FIRST_TO),
    highest_wins=True, chips=ChipPlay(shared_stacks, kept=False), default_target=100))
"""000/003: 80 chips shared out each hand, the pot to the winner."""

STACKS = register(ScoringSystem(
    "stacks", STACK_CHANGE,
    SystemWords("({o.stack} chips each, kept through the game; a hand scores the change of each stack)",
                "chips", "chip", "the first to a stack of {target} ends the game", signed=True),
    highest_wins=True, chips=ChipPlay(full_stacks, kept=True), implies=MappingProxyType({"king_chips": 10}),
    games=GameEnds(with_night=True), opening=_the_stack))
"""004 chip variant: 50 chips each, kept between the hands of a game; a King left costs 10."""

PENALTY = register(ScoringSystem(
    "penalty", CARDS_LEFT,
    SystemWords("(points for cards left: King 10, any other card 1)", *_POINTS, REACHES),
    highest_wins=False, card_value=_penalty_card, default_target=25))
"""001/004: King 10, other cards 1, lowest wins."""

PIPS = register(ScoringSystem(
    "pips", CARDS_LEFT,
    SystemWords("(points for cards left: Ace 25, K Q J 10, others face value)", *_POINTS, REACHES),
    highest_wins=False, card_value=_pip_card, default_target=250))
"""001 alternative: Ace 25, K Q J 10, others face value."""

DUTCH = register(ScoringSystem(
    "dutch", CARDS_LEFT,
    SystemWords("(points for cards left: face cards 10, number cards 5, Aces 25)", *_POINTS, REACHES),
    highest_wins=False, card_value=_dutch_card))
"""003 variant: face cards 10, number cards 5, Aces 25."""
