"""The referee's verdict on a hand, as plain data for the CLI, the scorer and bots.

A verdict is the :class:`kcref.model.systems.HandResult` that the scoring systems score.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import NamedTuple

from ..model.cards import Card
from ..model.diagnostics import Diagnostic
from ..model.events import Span
from ..model.options import Options


class Penalty(NamedTuple):
    """Chips a player paid into the pot as a penalty: who, how many, why (a KC4xx code), where."""

    seat: int
    chips: int
    code: str
    span: Span


@dataclass(frozen=True, slots=True)
class HandVerdict:
    """Everything the referee found in one hand.

    Chips are conserved: ``sum(stacks_start) + pot_start == sum(stacks_end) + pot_left``.
    Stacks may be negative (a debt), never clipped.
    """

    path: str
    index: int
    """1-based position of the hand in its file."""
    number: int | None
    """The number written on the ``hand`` line, if any."""
    players: tuple[str, ...]
    dealer: int
    rules: str
    options: Options
    valid: bool
    """The hand was replayed to its end without a rule error, and every line could be judged
    (see ``stopped_at``). Only valid hands are scored."""
    winner: int | None
    """The seat of the player who went out."""
    blocked: bool
    cards_left: tuple[tuple[Card, ...] | int, ...]
    """Per seat: the cards left when they are all known, else how many."""
    points: tuple[int | None, ...] | None
    """Per seat, the value of the cards left, where the scoring system values them
    (``card_value``: ``penalty``, ``pips``, ``dutch``); ``None`` for a seat whose cards left are
    unknown; ``None`` altogether for other scoring systems and for a hand with a rule error (it
    is not scored)."""
    stacks_start: tuple[int, ...] | None
    """Chips per seat before the ante, where chips are played."""
    stacks_end: tuple[int, ...] | None
    """Chips per seat at the end of the hand, after the winner took the pot."""
    ante: int
    pot_start: int
    """Chips already in the pot when the hand began (carried over from a hand nobody won)."""
    pot: int
    """The pot when play stopped: what the winner took (the hand's score under ``chips``);
    with no winner nobody takes it, and it is all in ``pot_left``."""
    pot_left: int
    """Chips still in the pot after the hand (nobody took them)."""
    penalties: tuple[Penalty, ...]
    diagnostics: tuple[Diagnostic, ...]
    actions: int
    """Actions judged."""
    unvalued: tuple[int, ...] = ()
    """Seats whose cards left could not be valued exactly (unknown cards, no reveal): their
    points are None, and the chips they paid for them are the least those cards can be worth."""
    stopped_at: int | None = None
    """The line past which the hand was not judged: its first rule error, or a line that cannot
    be judged (a syntax or set-up error); None when the hand was judged to its end."""

    @property
    def finished(self) -> bool:
        """Someone went out, or the hand is blocked."""
        return self.winner is not None or self.blocked

    @property
    def winner_name(self) -> str | None:
        return None if self.winner is None else self.players[self.winner]

    @property
    def errors(self) -> tuple[Diagnostic, ...]:
        return tuple(d for d in self.diagnostics if d.is_error)

    def cards_left_count(self, seat: int) -> int:
        """How many cards ``seat`` had left at the end (known, or only counted)."""
        left = self.cards_left[seat]
        return left if isinstance(left, int) else len(left)

    def stacks_by_name(self) -> dict[str, int]:
        """The end stacks keyed by player name (empty where chips are not played)."""
        return dict(zip(self.players, self.stacks_end or ()))

    def __reduce__(self) -> tuple[type[HandVerdict], tuple[object, ...]]:
        """Pickled as a call of its constructor (a worker of ``check_paths`` sends verdicts back
        pickled): a compiled frozen record cannot be rebuilt a field at a time, the way pickle
        rebuilds a plain one."""
        return type(self), tuple(getattr(self, f.name) for f in fields(self))
