"""Python seat bots for the arena's tests, loaded as FILE.py:Class."""

from __future__ import annotations

import gc
import random
import types
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


class Unprintable:
    """Raises an error that cannot be written as text."""

    def choose(self, view: SeatView, legal: Sequence[Action], can_end: bool, rng: random.Random) -> Action | None:
        class Mute(Exception):
            def __str__(self) -> str:
                raise RuntimeError("no words")

        raise Mute


class Uncomparable:
    """Answers with an object that raises when compared with an action."""

    def choose(self, view: SeatView, legal: Sequence[Action], can_end: bool, rng: random.Random) -> Action | None:
        class Odd:
            def __eq__(self, other: object) -> bool:
                raise RuntimeError("no comparing")

            __hash__ = None  # type: ignore[assignment]

        return Odd()  # type: ignore[return-value]


class Undecided:
    """Cannot say whether it reads its view."""

    @property
    def reads_view(self) -> bool:
        raise RuntimeError("it depends")

    def choose(self, view: SeatView, legal: Sequence[Action], can_end: bool, rng: random.Random) -> Action | None:
        return None


class Sleeper:
    """Thinks for 0.03 s over every move, then plays as the Recorder does."""

    def choose(self, view: SeatView, legal: Sequence[Action], can_end: bool, rng: random.Random) -> Action | None:
        import time

        time.sleep(0.03)
        return Recorder().choose(view, legal, can_end, rng)


PROBED: list[tuple[str, str, set[str]]] = []
"""Per move of a Prober or a Blind bot: the bot, the type of the view it was given, and the
types of everything reachable from that view and the actions it was offered."""

OPAQUE = (type, types.ModuleType, types.FunctionType, types.BuiltinFunctionType, types.MethodType,
          types.CodeType, types.MethodWrapperType, types.WrapperDescriptorType, types.MethodDescriptorType)
"""Code, not state: from a class or a function every module is reachable, and so the whole
interpreter; what is asked is what the view itself holds."""


def reachable(start: object, depth: int = 8) -> list[object]:
    """Every object reachable from ``start`` in ``depth`` steps through its attributes (its
    ``__dict__`` and slots among them) and what the collector sees it refer to, code aside."""
    found: dict[int, object] = {id(start): start}
    frontier = [start]
    for _ in range(depth):
        step = []
        for obj in frontier:
            children = list(gc.get_referents(obj))
            for name in dir(obj):
                if not name.startswith("__") or name == "__dict__":
                    try:
                        children.append(getattr(obj, name))
                    except Exception:
                        pass
            for child in children:
                if id(child) not in found and not isinstance(child, OPAQUE):
                    found[id(child)] = child
                    step.append(child)
        frontier = step
    return list(found.values())


class Prober(Recorder):
    """Plays as the Recorder does; looks at everything its view and its actions lead to."""

    def choose(self, view: SeatView, legal: Sequence[Action], can_end: bool, rng: random.Random) -> Action | None:
        PROBED.append(("Prober", type(view).__name__, {type(o).__name__ for o in reachable((view, legal))}))
        return super().choose(view, legal, can_end, rng)


class Blind:
    """Chooses from its actions alone, and says so."""

    reads_view = False

    def choose(self, view: None, legal: Sequence[Action], can_end: bool, rng: random.Random) -> Action | None:
        PROBED.append(("Blind", type(view).__name__, {type(o).__name__ for o in reachable(legal)}))
        return legal[0] if legal and not can_end else None
