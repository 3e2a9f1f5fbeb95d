"""The Policy: the options of a hand as the engine asks them, built from Options in one place."""

from __future__ import annotations

import ast
import dataclasses

import pytest
from helpers import options, play, table

from kcref.engine.policy import Fault, Policy, policy_for
from kcref.engine.turns import settle
from kcref.model.options import PRESETS
from tests.util import PACKAGE

ENGINE = PACKAGE / "engine"


def test_a_policy_is_a_frozen_value() -> None:
    one, other = policy_for(options("commercial")), policy_for(options("commercial", target=200))
    assert one == other and hash(one) == hash(other) and one is not other
    assert one != policy_for(options("classic"))
    with pytest.raises(dataclasses.FrozenInstanceError):
        one.chips = False  # type: ignore[misc]


def test_every_preset_has_a_policy_with_its_prices() -> None:
    for p in PRESETS:
        pol = policy_for(p.options)
        assert isinstance(pol, Policy)
        o = p.options
        assert (pol.ante, pol.no_play_chips, pol.missed_draw_chips, pol.king_held_chips, pol.card_chips,
                pol.king_chips) == (o.ante, o.no_play_chips, o.missed_draw_chips, o.king_held_chips,
                                    o.card_chips, o.king_chips)
        assert pol.chips == o.scoring.plays_chips
        assert pol.missed_draw in Fault and pol.king_fault in Fault


def test_the_engine_prices_penalties_by_the_policy() -> None:
    t = table(options("commercial"), deals={0: "KH 7H 6S 2C AD 9C 5D", 1: "10H 9S 8D 7C 6H 5S 4D"},
              lay="N:9D E:JS S:3C W:5H")
    t.policy = dataclasses.replace(t.policy, no_play_chips=5, missed_draw_chips=6, king_held_chips=7,
                                   card_chips=2, king_chips=9)
    play(t, "pass")
    play(t, "10H->E; 9S->E; 8D->E; 7C->E; 6H->E; 5S->E; 4D->E")
    settle(t)
    assert [(n.code, n.chips) for n in t.notes] == [("KC402", 6), ("KC403", 7), ("KC401", 5), ("KC404", 21)]


@pytest.mark.parametrize("module", ["turns.py", "moves.py", "faults.py", "values.py"])
def test_the_rules_read_no_option(module: str) -> None:
    """The engine's judges ask the Policy: no ``x.options`` in their modules."""
    tree = ast.parse((ENGINE / module).read_text(encoding="utf-8"))
    read = [node.lineno for node in ast.walk(tree) if isinstance(node, ast.Attribute) and node.attr == "options"]
    assert read == []
