"""Shared helpers for the engine tests."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from logs import read_log

from kcref.engine.faults import IllegalAction
from kcref.engine.table import Table
from kcref.engine.turns import apply, begin_turn, end_turn, start_hand
from kcref.model.cards import Card, Pile, parse_card, parse_pile
from kcref.model.events import PASS, Action, Draw, MovePile, PlayCard
from kcref.model.options import Options, preset
from kcref.referee.replay import referee_hands
from kcref.referee.verdict import HandVerdict

NAMES = ("Ann", "Bob")
PRESET_NAMES = ("classic", "commercial", "family")


def cards(text: str) -> tuple[Card, ...]:
    return tuple(parse_card(t) for t in text.split())


def layout(text: str) -> tuple[tuple[Pile, Card], ...]:
    return tuple((parse_pile(e.split(":")[0]), parse_card(e.split(":")[1])) for e in text.split())


def act(text: str) -> Action:
    """An action written as in a log."""
    t = text.strip()
    if t == "pass":
        return PASS
    if t.startswith("draw"):
        rest = t[4:].strip()
        return Draw(parse_card(rest) if rest else None)
    left, right = t.split("->")
    try:
        return MovePile(parse_pile(left), parse_pile(right))
    except ValueError:
        return PlayCard(parse_card(left), parse_pile(right))


def table(options: Options | str = "classic", deals: dict[int, str] | None = None,
          lay: str = "N:9D E:JS S:3C W:KC", names: Sequence[str] = NAMES, dealer: int | None = None,
          **kw) -> Table:
    """A table ready for the first turn (Ann first by default)."""
    opts = preset(options) if isinstance(options, str) else options
    return start_hand(opts, names, len(names) - 1 if dealer is None else dealer,
                      {s: cards(c) for s, c in (deals or {}).items()}, layout(lay), **kw)


def play(t: Table, line: str, end: bool = True) -> None:
    """Play one turn line (``"8S->N; draw"``) for the player whose turn it is."""
    begin_turn(t, t.player)
    for a in line.split(";"):
        if a.strip():
            apply(t, act(a))
    if end:
        end_turn(t)


def refusal(t: Table, line: str, end: bool = True) -> IllegalAction:
    """The IllegalAction a turn line raises (fails the test when it is accepted)."""
    with pytest.raises(IllegalAction) as info:
        play(t, line, end)
    return info.value


def run(text: str) -> list[HandVerdict]:
    return list(referee_hands(read_log(text)))


def found(text: str) -> list[tuple[str, int, int]]:
    """(code, line, column) of every diagnostic of a log."""
    return [(d.code, d.line, d.column) for v in run(text) for d in v.diagnostics]


def options(name: str = "classic", **changes) -> Options:
    return preset(name)._replace(**changes)
