"""What one refereed hand is worth to each player, in the hand's scoring system.

This is shared by the assertions in a log (``score Ann 12``, checked by ``kcref check``) and by
the standings of ``kcref score``, so that both always count the same way. Each scoring system
is one small function of the verdict, looked up by the ``Scoring`` option.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import NamedTuple

from ..model.options import Scoring
from .verdict import HandVerdict

HIGHEST_WINS = frozenset({Scoring.NONE, Scoring.CHIPS, Scoring.CHIP_STACKS})
"""Systems where the highest total wins; in the others (penalty points) the lowest wins."""

CHIP_SYSTEMS = frozenset({Scoring.CHIPS, Scoring.CHIP_STACKS})
"""Systems where chips are played (stacks, a pot, chips paid)."""

UNITS: Mapping[Scoring, str] = {
    Scoring.NONE: "hands won", Scoring.CHIPS: "chips", Scoring.CHIP_STACKS: "chips",
    Scoring.PENALTY: "points", Scoring.PIPS: "points", Scoring.DUTCH: "points",
}
"""What the points of each system count, in words."""


def highest_wins(scoring: Scoring) -> bool:
    """Whether the highest total wins under ``scoring`` (else the lowest does)."""
    return scoring in HIGHEST_WINS


class HandScore(NamedTuple):
    """Each seat's score for one hand, or why the hand cannot be scored."""

    scores: tuple[int, ...] | None
    """Per seat, in the hand's scoring system; ``None`` when the hand is not scored."""
    reason: str = ""
    """Why it is not scored, in words (empty when it is)."""

    @property
    def scored(self) -> bool:
        return self.scores is not None


def _hands_won(v: HandVerdict) -> tuple[int, ...]:
    return tuple(int(seat == v.winner) for seat in range(len(v.players)))


def _pot_to_winner(v: HandVerdict) -> tuple[int, ...]:
    # A blocked hand: nobody scores (docs/rules.md, ruling 7); the pot is not anyone's score.
    return tuple(v.pot if seat == v.winner else 0 for seat in range(len(v.players)))


def _net_chips(v: HandVerdict) -> tuple[int, ...]:
    assert v.stacks_start is not None and v.stacks_end is not None
    return tuple(end - start for start, end in zip(v.stacks_start, v.stacks_end))


def _card_points(v: HandVerdict) -> tuple[int | None, ...]:
    assert v.points is not None
    return v.points


SCORERS: Mapping[Scoring, Callable[[HandVerdict], tuple[int | None, ...]]] = {
    Scoring.NONE: _hands_won,
    Scoring.CHIPS: _pot_to_winner,
    Scoring.CHIP_STACKS: _net_chips,
    Scoring.PENALTY: _card_points,
    Scoring.PIPS: _card_points,
    Scoring.DUTCH: _card_points,
}
"""The score of a finished, valid hand per seat, for each system (``None``: it depends on cards
nobody recorded)."""


def unknown_value(v: HandVerdict) -> tuple[str, ...]:
    """The players whose cards left could not be valued, where the hand's score depends on them."""
    scoring = v.options.scoring
    if v.points is not None:
        return tuple(name for name, p in zip(v.players, v.points) if p is None)
    if scoring not in CHIP_SYSTEMS or v.winner is None:
        return ()
    return tuple(v.players[seat] for seat in v.unvalued)


def hand_score(v: HandVerdict) -> HandScore:
    """What the hand is worth to each seat; not scored when it has errors, is unfinished, or its
    score depends on cards nobody recorded."""
    if not v.valid or v.errors:
        return HandScore(None, "it has errors")
    if not v.finished:
        return HandScore(None, "it is unfinished (nobody went out and it is not blocked)")
    unknown = unknown_value(v)
    if unknown:
        who = " and ".join(unknown)
        return HandScore(None, f"the cards {who} had left are unknown (a reveal line would show them)")
    scores = SCORERS[v.options.scoring](v)
    return HandScore(tuple(s for s in scores if s is not None))


def chips_paid(v: HandVerdict, seat: int) -> int | None:
    """Chips ``seat`` paid into the pot during the hand (ante, penalties, cards left); ``None``
    where no chips are played."""
    if v.stacks_start is None or v.stacks_end is None:
        return None
    won = v.pot if seat == v.winner else 0
    return v.stacks_start[seat] - v.stacks_end[seat] + won
