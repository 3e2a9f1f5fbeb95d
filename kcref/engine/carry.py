"""Chips carried from hand to hand: the one place that decides what a hand starts with, for the
referee (``kcref check`` and ``kcref score``), ``kcref show`` and ``kcref play``.

Where the scoring system keeps stacks (:attr:`kcref.model.systems.ChipPlay.kept`), each
player's stack and a pot nobody won carry on to the next hand, joined by player name; a name not
carried starts as the system starts it. A hand under a system that does not keep them empties
the carry. A hand with a rule error is void for the chips carried: the carry passes over it.
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
    chips = options.scoring.chips
    if chips is None or not chips.kept:
        return _NOTHING
    if stacks is None:
        return Carried(None, pot)
    fresh = chips.start(options, len(players), dealer)
    return Carried([stacks.get(name, own) for name, own in zip(players, fresh)], pot)


class ChipCarry:
    """The chips carried along a run of hands: call :meth:`before` and then :meth:`after` for
    each hand, in order."""

    __slots__ = ("pot", "stacks")

    def __init__(self, stacks: dict[str, int] | None = None, pot: int = 0) -> None:
        self.stacks: dict[str, int] = {} if stacks is None else stacks
        self.pot = pot

    def __repr__(self) -> str:
        return f"ChipCarry(stacks={self.stacks!r}, pot={self.pot!r})"

    def before(self, options: Options) -> None:
        """Empty the carry before a hand whose system does not keep stacks."""
        chips = options.scoring.chips  # ScoringSystem.keeps_stacks, inline: once a hand
        if chips is None or not chips.kept:
            self.stacks, self.pot = {}, 0

    def into(self, options: Options, players: Sequence[str], dealer: int) -> Carried:
        """What the next hand starts with (call :meth:`before` first)."""
        return carry_in(options, players, dealer, self.stacks, self.pot)

    def after(self, options: Options, players: Sequence[str], stacks: Sequence[int] | None, pot_left: int) -> None:
        """Carry on the end ``stacks`` (by seat) of a hand played to its end without a rule error,
        and the pot nobody took."""
        chips = options.scoring.chips  # ScoringSystem.keeps_stacks, inline: once a hand
        if chips is not None and chips.kept and stacks is not None:
            self.stacks.update(zip(players, stacks))
            self.pot = pot_left
