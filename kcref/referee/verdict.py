"""The referee's verdict on a hand, as plain data for the CLI, the scorer and bots.

A verdict is the :class:`kcref.model.systems.HandResult` that the scoring systems score.
"""

from __future__ import annotations

from typing import Final, final

from ..model.cards import Card
from ..model.diagnostics import Diagnostic
from ..model.events import Span, Value
from ..model.options import Options


@final
class Penalty(Value):
    """Chips a player paid into the pot as a penalty: who, how many, why (a KC4xx code), where."""

    __match_args__ = ("seat", "chips", "code", "span")
    __slots__ = __match_args__
    _compared = __match_args__

    def __init__(self, seat: int, chips: int, code: str, span: Span) -> None:
        self.seat: Final = seat
        self.chips: Final = chips
        self.code: Final = code
        self.span: Final = span


@final
class HandVerdict(Value):
    """Everything the referee found in one hand, compared by all its fields.

    Chips are conserved: ``sum(stacks_start) + pot_start == sum(stacks_end) + pot_left``.
    Stacks may be negative (a debt), never clipped.
    """

    __match_args__ = ("path", "index", "number", "players", "dealer", "rules", "options", "valid", "winner",
                      "blocked", "cards_left", "points", "stacks_start", "stacks_end", "ante", "pot_start", "pot",
                      "pot_left", "penalties", "diagnostics", "actions", "unvalued", "stopped_at", "unpriced",
                      "inexact_stacks", "inexact_pot")
    __slots__ = __match_args__
    _compared = __match_args__

    def __init__(self, path: str, index: int, number: int | None, players: tuple[str, ...], dealer: int,
                 rules: str, options: Options, valid: bool, winner: int | None, blocked: bool,
                 cards_left: tuple[tuple[Card, ...] | int, ...], points: tuple[int | None, ...] | None,
                 stacks_start: tuple[int, ...] | None, stacks_end: tuple[int, ...] | None, ante: int,
                 pot_start: int, pot: int, pot_left: int, penalties: tuple[Penalty, ...],
                 diagnostics: tuple[Diagnostic, ...], actions: int, unvalued: tuple[int, ...] = (),
                 stopped_at: int | None = None, unpriced: tuple[int, ...] = (),
                 inexact_stacks: tuple[int, ...] = (), inexact_pot: bool = False) -> None:
        self.path: Final = path
        self.index: Final = index
        """1-based position of the hand in its file."""
        self.number: Final = number
        """The number written on the ``hand`` line, if any."""
        self.players: Final = players
        self.dealer: Final = dealer
        self.rules: Final = rules
        self.options: Final = options
        self.valid: Final = valid
        """The hand was replayed to its end without a rule error, and every line could be judged
        (see ``stopped_at``). Only valid hands are scored."""
        self.winner: Final = winner
        """The seat of the player who went out."""
        self.blocked: Final = blocked
        self.cards_left: Final = cards_left
        """Per seat: the cards left when they are all known, else how many."""
        self.points: Final = points
        """Per seat, the value of the cards left, where the scoring system values them
        (``card_value``: ``penalty``, ``pips``, ``dutch``); ``None`` for a seat whose cards left are
        unknown; ``None`` altogether for other scoring systems and for a hand with a rule error (it
        is not scored)."""
        self.stacks_start: Final = stacks_start
        """Chips per seat before the ante, where chips are played."""
        self.stacks_end: Final = stacks_end
        """Chips per seat at the end of the hand, after the winner took the pot."""
        self.ante: Final = ante
        self.pot_start: Final = pot_start
        """Chips already in the pot when the hand began (carried over from a hand nobody won)."""
        self.pot: Final = pot
        """The pot when play stopped: what the winner took (the hand's score under ``chips``);
        with no winner nobody takes it, and it is all in ``pot_left``."""
        self.pot_left: Final = pot_left
        """Chips still in the pot after the hand (nobody took them)."""
        self.penalties: Final = penalties
        self.diagnostics: Final = diagnostics
        self.actions: Final = actions
        """Actions judged."""
        self.unvalued: Final = unvalued
        """Seats whose cards left could not be valued exactly (unknown cards, no reveal): their
        points are None, and the chips they paid for them are the least those cards can be worth."""
        self.stopped_at: Final = stopped_at
        """The line past which the hand was not judged: its first rule error, or a line that cannot
        be judged (a syntax or set-up error); None when the hand was judged to its end."""
        self.unpriced: Final = unpriced
        """Seats that may owe chips kcref could not charge, where chips are played: a penalty
        check needed cards nobody recorded (dealt Kings under forced Kings, an unseen drawn card
        that may have been a King to place, whether a player could still play when drawing only
        when stuck), so what they paid may be short of what the table charged."""
        self.inexact_stacks: Final = inexact_stacks
        """Seats whose stack carried into the hand (under a system that keeps stacks) is not
        exact: an earlier hand of the game counted it from cards nobody recorded."""
        self.inexact_pot: Final = inexact_pot
        """The pot carried into the hand is not exact, for the same reason."""

    def with_diagnostics(self, more: tuple[Diagnostic, ...]) -> HandVerdict:
        """This verdict with ``more`` diagnostics after its own (those of the hand's assertion lines)."""
        return self.replace(diagnostics=self.diagnostics + more)

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
