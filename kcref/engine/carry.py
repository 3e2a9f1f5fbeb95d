"""Chips carried from hand to hand: the one place that decides what a hand starts with, for the
referee (``kcref check`` and ``kcref score``), ``kcref show`` and ``kcref play``.

Where the scoring system keeps stacks (:attr:`kcref.model.systems.ChipPlay.kept`), each
player's stack and a pot nobody won carry on to the next hand, joined by player name; a name not
carried starts as the system starts it. A hand under a system that does not keep them empties
the carry. A hand with a rule error is void for the chips carried: the carry passes over it.

Stacks are kept through one game: after the hand that ends it (:func:`game_over`: a stack at
``Target``, or ``Hands`` hands carried) the carry empties, and the next hand starts a new game
with fresh stacks. ``kcref score`` ends its games where the carry does
(:class:`kcref.scoring.standings.Tally`), so that every command counts the same chips.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import NamedTuple

from ..model.options import Options


class Carried(NamedTuple):
    """What one hand starts with."""

    stacks: list[int] | None
    """Each seat's chips before the ante; ``None``: the system's own start (or no chips)."""
    pot: int
    """Chips already in the pot."""


_NOTHING = Carried(None, 0)
"""What a hand starts with where the system keeps no stacks (one record, shared: it is immutable)."""


def carry_in(options: Options, players: Sequence[str], dealer: int,
             stacks: Mapping[str, int] | None, pot: int) -> Carried:
    """What a hand under ``options`` starts with, given the ``stacks`` (by name) and ``pot``
    carried from earlier hands; both are ignored where the system does not keep stacks."""
    if not options.scoring.keeps_stacks:
        return _NOTHING
    if stacks is None:
        return Carried(None, pot)
    chips = options.scoring.chips
    assert chips is not None  # a system that keeps stacks plays chips
    fresh = chips.start(options, len(players), dealer)
    return Carried([stacks.get(name, own) for name, own in zip(players, fresh)], pot)


def game_over(options: Options, stacks: Sequence[int], hands: int) -> str:
    """Why a game of kept stacks is over after a hand that leaves ``stacks`` (by seat), the
    ``hands``-th hand carried in the game: ``target`` (a stack reached ``Target``), ``hands``
    (``Hands`` hands carried), or "" (it goes on)."""
    if options.target is not None and stacks and max(stacks) >= options.target:
        return "target"
    if options.hands is not None and hands >= options.hands:
        return "hands"
    return ""


class SavedCarry(NamedTuple):
    """A :class:`ChipCarry` as a value, to keep with a state and restore later
    (:meth:`ChipCarry.saved`, :meth:`ChipCarry.restored`)."""

    stacks: tuple[tuple[str, int], ...] = ()
    pot: int = 0
    hands: int = 0
    inexact: frozenset[str] = frozenset()
    inexact_pot: bool = False


NOTHING_CARRIED = SavedCarry()
"""A carry before the first hand."""


class ChipCarry:
    """The chips carried along a run of hands: call :meth:`before` and then :meth:`after` for
    each hand, in order."""

    __slots__ = ("hands", "inexact", "inexact_pot", "pot", "stacks")

    def __init__(self, stacks: dict[str, int] | None = None, pot: int = 0, hands: int = 0,
                 inexact: frozenset[str] = frozenset(), inexact_pot: bool = False) -> None:
        self.stacks: dict[str, int] = {} if stacks is None else stacks
        self.pot = pot
        self.hands = hands
        """Hands carried in the game under way."""
        self.inexact = inexact
        """The players whose stack carried is not exact: an earlier hand counted it from cards
        nobody recorded (at the least they could be worth)."""
        self.inexact_pot = inexact_pot
        """The pot carried is not exact, for the same reason."""

    def __repr__(self) -> str:
        return (f"ChipCarry(stacks={self.stacks!r}, pot={self.pot!r}, hands={self.hands!r}, "
                f"inexact={self.inexact!r}, inexact_pot={self.inexact_pot!r})")

    def saved(self) -> SavedCarry:
        """The carry as it stands, as a value."""
        return SavedCarry(tuple(self.stacks.items()), self.pot, self.hands, self.inexact, self.inexact_pot)

    @classmethod
    def restored(cls, saved: SavedCarry) -> ChipCarry:
        """A carry that stands as ``saved`` (its own copy of the stacks)."""
        return cls(dict(saved.stacks), saved.pot, saved.hands, saved.inexact, saved.inexact_pot)

    def before(self, options: Options) -> None:
        """Empty the carry before a hand whose system does not keep stacks."""
        if not options.scoring.keeps_stacks:
            self._new_game()

    def _new_game(self) -> None:
        self.stacks, self.pot, self.hands = {}, 0, 0
        self.inexact, self.inexact_pot = frozenset(), False

    def into(self, options: Options, players: Sequence[str], dealer: int) -> Carried:
        """What the next hand starts with (call :meth:`before` first)."""
        return carry_in(options, players, dealer, self.stacks, self.pot)

    def after(self, options: Options, players: Sequence[str], stacks: Sequence[int] | None, pot_left: int,
              inexact: frozenset[str] = frozenset(), inexact_pot: bool = False) -> str:
        """Carry on the end ``stacks`` (by seat) of a hand played to its end without a rule error,
        and the pot nobody took (``inexact``: the players whose end stack is not exact, and
        ``inexact_pot``, whether the pot left is not); or, when that hand ends the game
        (:func:`game_over`, returned), nothing: the next hand starts a new game with fresh stacks."""
        if not options.scoring.keeps_stacks or stacks is None:
            return ""
        self.hands += 1
        ended = game_over(options, stacks, self.hands)
        if ended:
            self._new_game()
        else:
            self.stacks.update(zip(players, stacks))
            self.pot = pot_left
            self.inexact, self.inexact_pot = inexact, inexact_pot
        return ended
