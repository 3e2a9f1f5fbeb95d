"""The reader's quick constructors (events.read_turn, read_deal, read_layout) give events that are
exactly those of the classes' own constructors: same type, same fields, just as frozen."""

from __future__ import annotations

import dataclasses

import pytest

from kcref.model.cards import Pile, parse_card
from kcref.model.events import (
    Deal,
    Draw,
    Layout,
    PlayCard,
    Span,
    Turn,
    read_deal,
    read_layout,
    read_turn,
    written_draws,
)

SPAN = Span("t.log", 3, 1)
KS, TH = parse_card("KS"), parse_card("10H")


def _fields(event: object) -> dict[str, object]:
    return {f.name: getattr(event, f.name) for f in dataclasses.fields(event)}  # type: ignore[arg-type]


def test_quick_events_are_the_constructed_ones_and_stay_frozen() -> None:
    actions = (PlayCard(KS, Pile.NE), Draw(TH))
    pairs = [
        (read_turn("Ann", actions, SPAN, "# c", (6, 14), written_draws(actions)),
         Turn("Ann", actions, SPAN, "# c", (6, 14))),
        (read_deal("Bob", (KS, TH), SPAN, "", (11, 14), 6), Deal("Bob", (KS, TH), SPAN, "", (11, 14), 6)),
        (read_layout(((Pile.N, KS), (Pile.E, TH)), SPAN, "", (8, 13)),
         Layout(((Pile.N, KS), (Pile.E, TH)), SPAN, "", (8, 13))),
    ]
    for quick, made in pairs:
        assert type(quick) is type(made) and _fields(quick) == _fields(made) and hash(quick) == hash(made)
        with pytest.raises(dataclasses.FrozenInstanceError):
            quick.span = SPAN  # type: ignore[misc]
