"""What each rule option means for play, as small tables keyed by option values.

The engine never looks at a preset's name, nor at an option value directly in its hot path:
:func:`policy_for` turns an :class:`~kcref.model.options.Options` record into a flat
:class:`Policy` of booleans and faults once per hand.
"""

import enum
from collections.abc import Callable, Mapping
from typing import NamedTuple, NoReturn

from ..model.options import (
    CompletedPiles,
    DrawnKing,
    DrawTime,
    ForcedKings,
    LayoutKings,
    Options,
)


class Fault(enum.Enum):
    """What breaking a rule costs: a rule error, or chips paid into the pot."""

    ERROR = "error"
    CHIPS = "chips"


def _chips_or_error(chips_played: bool) -> Fault:
    return Fault.CHIPS if chips_played else Fault.ERROR


def _always_error(chips_played: bool) -> Fault:
    return Fault.ERROR


class DrawRule(NamedTuple):
    """How one ``Draw`` option shapes a turn."""

    first: bool
    """The draw must be the turn's first action whenever the stock has cards."""
    ends_turn: bool
    """Nothing may follow the draw (but placing a drawn King that must be placed)."""
    when_stuck: bool
    """The draw is allowed only when the player has no play, and due then."""
    missed: Callable[[bool], Fault]
    """What missing a due draw costs, given whether chips are played."""


DRAW_RULES: Mapping[DrawTime, DrawRule] = {
    DrawTime.END: DrawRule(first=False, ends_turn=True, when_stuck=False, missed=_chips_or_error),
    DrawTime.START: DrawRule(first=True, ends_turn=False, when_stuck=False, missed=_always_error),
    DrawTime.STUCK: DrawRule(first=False, ends_turn=False, when_stuck=True, missed=_chips_or_error),
}

FORCED: Mapping[ForcedKings, bool] = {
    ForcedKings.OFF: False, ForcedKings.ERROR: True, ForcedKings.CHIPS: True,
}
"""Whether Kings must go to a corner at the first chance."""

KING_FAULT: Mapping[ForcedKings, Callable[[bool], Fault]] = {
    ForcedKings.OFF: _chips_or_error,    # only a drawn King under DrawnKing "place" can be held
    ForcedKings.ERROR: _always_error,
    ForcedKings.CHIPS: _chips_or_error,  # "with forced Kings on and no chips it is an error"
}

DRAWN_KING_PLACED: Mapping[DrawnKing, bool] = {DrawnKing.HAND: False, DrawnKing.PLACE: True}
"""Whether a drawn King is placed at once and ends the turn."""

REMOVE_COMPLETED: Mapping[CompletedPiles, bool] = {
    CompletedPiles.STAY: False, CompletedPiles.REMOVE: True,
}

LAYOUT_KINGS_TO_CORNER: Mapping[LayoutKings, bool] = {
    LayoutKings.STAY: False, LayoutKings.CORNER: True,
}

_FIELDS = ("chips", "draw_first", "draw_ends_turn", "draw_when_stuck", "missed_draw", "forced_dealt",
           "place_drawn_king", "drawn_king_ends_turn", "king_fault", "remove_completed", "layout_kings_to_corner")
""":class:`Policy`'s fields, in order."""


class Policy:
    """The options of one hand, flattened into what the engine asks while judging; read-only,
    equal to another with the same values.

    Slots, not a NamedTuple: the engine reads these fields on every turn, and a slot is read
    several times faster than a NamedTuple's field (Python 3.11). Written out, not a slotted
    dataclass: making one execs its generated methods, ~5 M instructions at every start-up."""

    __slots__ = _FIELDS

    chips: bool
    draw_first: bool
    draw_ends_turn: bool
    draw_when_stuck: bool
    missed_draw: Fault
    forced_dealt: bool
    """Dealt Kings still held at the end of the owner's first turn are faults."""
    place_drawn_king: bool
    """A drawn King must be placed by the next action, in an empty corner."""
    drawn_king_ends_turn: bool
    king_fault: Fault
    remove_completed: bool
    layout_kings_to_corner: bool

    def __init__(self, *, chips: bool, draw_first: bool, draw_ends_turn: bool, draw_when_stuck: bool,
                 missed_draw: Fault, forced_dealt: bool, place_drawn_king: bool, drawn_king_ends_turn: bool,
                 king_fault: Fault, remove_completed: bool, layout_kings_to_corner: bool) -> None:
        values = (chips, draw_first, draw_ends_turn, draw_when_stuck, missed_draw, forced_dealt, place_drawn_king,
                  drawn_king_ends_turn, king_fault, remove_completed, layout_kings_to_corner)
        for name, value in zip(_FIELDS, values):
            object.__setattr__(self, name, value)

    def _values(self) -> tuple[object, ...]:
        return tuple(getattr(self, name) for name in _FIELDS)

    def __setattr__(self, name: str, value: object) -> NoReturn:
        raise AttributeError(f"cannot assign to field {name!r}: a Policy is read-only")

    def __delattr__(self, name: str) -> NoReturn:
        raise AttributeError(f"cannot delete field {name!r}: a Policy is read-only")

    def __eq__(self, other: object) -> bool:
        return self._values() == other._values() if type(other) is Policy else NotImplemented

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        return f"Policy({', '.join(f'{name}={value!r}' for name, value in zip(_FIELDS, self._values()))})"


_last: list[tuple[Options, Policy]] = []
"""The last options flattened and their policy: a log's hands mostly share one Options object."""


def policy_for(options: Options) -> Policy:
    """Flatten ``options`` into the engine's :class:`Policy`."""
    last = _last[-1] if _last else None
    if last is not None and last[0] is options:
        return last[1]
    policy = _flatten(options)
    _last[:] = [(options, policy)]
    return policy


def _flatten(options: Options) -> Policy:
    chips = options.scoring.plays_chips  # then faults are paid in chips
    draw = DRAW_RULES[options.draw]
    forced = FORCED[options.forced_kings]
    placed = DRAWN_KING_PLACED[options.drawn_king]
    return Policy(
        chips=chips,
        draw_first=draw.first,
        draw_ends_turn=draw.ends_turn,
        draw_when_stuck=draw.when_stuck,
        missed_draw=draw.missed(chips),
        forced_dealt=forced,
        place_drawn_king=forced or placed,
        drawn_king_ends_turn=placed,
        king_fault=KING_FAULT[options.forced_kings](chips),
        remove_completed=REMOVE_COMPLETED[options.completed],
        layout_kings_to_corner=LAYOUT_KINGS_TO_CORNER[options.layout_kings],
    )
