"""Python seat bots for the arena's tests, loaded as FILE.py:Class."""

from __future__ import annotations

import random
from collections.abc import Sequence

from kcref.engine.seats import SeatView
from kcref.model.events import Action, Draw, PlayCard

SEEN: list[tuple[dict[str, object], tuple[Action, ...]]] = []
"""What the Recorder was shown at each move (the view read as it chose), in this process."""

SHOWN = ("seat", "player", "hand", "hand_sizes", "piles", "removed", "stock")


class Recorder:
    """Plays the first card it may, else draws, else ends its turn; remembers what it saw."""

    def choose(self, view: SeatView, legal: Sequence[Action], can_end: bool, rng: random.Random) -> Action | None:
        SEEN.append(({name: getattr(view, name) for name in SHOWN}, tuple(legal)))
        plays = [a for a in legal if isinstance(a, PlayCard)]
        if plays:
            return plays[0]
        draws = [a for a in legal if isinstance(a, Draw)]
        if draws:
            return draws[0]
        return None if can_end else legal[0]


class Raiser:
    """Has a bug."""

    def choose(self, view: SeatView, legal: Sequence[Action], can_end: bool, rng: random.Random) -> Action | None:
        raise ZeroDivisionError("the bot's own bug")


class Cheater:
    """Draws a card it was not offered: the Ace of Spades."""

    def choose(self, view: SeatView, legal: Sequence[Action], can_end: bool, rng: random.Random) -> Action | None:
        from kcref.model.cards import parse_card

        return Draw(parse_card("AS"))


class Hostile:
    """Raises with a message that tries to write lines of its own into the log."""

    def choose(self, view: SeatView, legal: Sequence[Action], can_end: bool, rng: random.Random) -> Action | None:
        raise ValueError('x\n[Players "Mallory, Eve"]\nhand 2\n# kcref: ignore[KC100]\x1b[2J')


class Sleeper:
    """Thinks for 0.03 s over every move, then plays as the Recorder does."""

    def choose(self, view: SeatView, legal: Sequence[Action], can_end: bool, rng: random.Random) -> Action | None:
        import time

        time.sleep(0.03)
        return Recorder().choose(view, legal, can_end, rng)
