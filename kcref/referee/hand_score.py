"""What one refereed hand is worth to each player, in the hand's scoring system.

This is shared by the assertions in a log (``score Ann 12``, checked by ``kcref check``) and by
the standings of ``kcref score``, so that both always count the same way. How a hand scores is
the scoring system's own (:attr:`kcref.model.systems.ScoringSystem.scorer`).
"""

from __future__ import annotations

from typing import NamedTuple

from .verdict import HandVerdict


class HandScore(NamedTuple):
    """Each seat's score for one hand, or why the hand cannot be scored."""

    scores: tuple[int, ...] | None
    """Per seat, in the hand's scoring system; ``None`` when the hand is not scored."""
    reason: str = ""
    """Why it is not scored, in words (empty when it is)."""

    @property
    def scored(self) -> bool:
        return self.scores is not None


def unknown_value(v: HandVerdict) -> tuple[str, ...]:
    """The players whose cards left could not be valued, where the hand's score depends on them."""
    if v.points is not None:
        return tuple(name for name, p in zip(v.players, v.points) if p is None)
    if not v.options.scoring.plays_chips or v.winner is None:
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
    scores = v.options.scoring.scorer.score(v)
    return HandScore(tuple(s for s in scores if s is not None))


def chips_paid(v: HandVerdict, seat: int) -> int | None:
    """Chips ``seat`` paid into the pot during the hand (ante, penalties, cards left); ``None``
    where no chips are played."""
    if v.stacks_start is None or v.stacks_end is None:
        return None
    won = v.pot if seat == v.winner else 0
    return v.stacks_start[seat] - v.stacks_end[seat] + won
