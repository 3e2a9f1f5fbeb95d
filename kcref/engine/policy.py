"""What each rule option means for play, as small tables keyed by option values.

The engine never looks at a preset's name nor at an option: :func:`policy_for` turns an
:class:`~kcref.model.options.Options` record into a flat :class:`Policy` of booleans, faults
and chip prices once per hand, and the engine asks the Policy.
"""

import enum
import functools
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import NamedTuple, final

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

@final
@dataclass(frozen=True, slots=True)
class Policy:
    """The options of one hand, flattened into what the engine asks while judging: whether a
    rule holds, what breaking it costs, and the price in chips of each penalty."""

    chips: bool
    """Chips are played: faults priced in chips are paid into the pot."""
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
    ante: int
    """Chips each player puts in the pot as a hand starts."""
    no_play_chips: int
    missed_draw_chips: int
    king_held_chips: int
    card_chips: int
    """Chips paid per card left in hand when someone goes out."""
    king_chips: int
    """Chips paid per King left in hand when someone goes out."""


@functools.lru_cache(maxsize=64)
def policy_for(options: Options) -> Policy:
    """Flatten ``options`` into the engine's :class:`Policy`: the one place that reads them for
    it. Cached: the hands of a log share a few Options records, and every hand asks."""
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
        ante=options.ante,
        no_play_chips=options.no_play_chips,
        missed_draw_chips=options.missed_draw_chips,
        king_held_chips=options.king_held_chips,
        card_chips=options.card_chips,
        king_chips=options.king_chips,
    )
