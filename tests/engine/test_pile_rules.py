"""The pile rules: one rank lower and the opposite colour, Aces, corners, pile moves."""

from __future__ import annotations

import pytest
from helpers import PRESET_NAMES, play, refusal, table

from kcref.engine.faults import IllegalAction, misfit
from kcref.engine.moves import card_targets, fits, may_move
from kcref.engine.policy import policy_for
from kcref.model.cards import Pile, parse_card
from kcref.model.options import preset

LAY = "N:9D E:JS S:3C W:5H"


def lead(name: str) -> str:
    """What a turn must start with under a preset (the draw, where it comes first)."""
    return "draw; " if policy_for(preset(name)).draw_first else ""


def test_fits_is_one_lower_and_opposite_colour() -> None:
    c = parse_card
    assert fits(c("8S"), c("9D")) and fits(c("8C"), c("9H")) and fits(c("AD"), c("2C"))
    assert not fits(c("8H"), c("9D"))       # both red
    assert not fits(c("8S"), c("9C"))       # both black
    assert not fits(c("7S"), c("9D"))       # two lower
    assert not fits(c("10S"), c("9D"))      # higher
    assert not fits(c("KS"), c("AD"))       # nothing wraps round
    assert misfit(c("7H"), c("9D")) == "it must be one rank lower (8), and both are red"


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_card_fitting_the_top_is_legal(name: str) -> None:
    t = table(name, lay=LAY)
    play(t, lead(name) + "8S->N; 7D->N; 6C->N", end=False)
    assert [str(c) for c in t.piles[Pile.N]] == ["9D", "8S", "7D", "6C"]
    assert t.plays == 3


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_same_colour_is_refused(name: str) -> None:
    e = refusal(table(name, lay=LAY), lead(name) + "8H->N")
    assert (e.code, e.message) == ("KC301", "8H cannot go on 9D at N: both are red")


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_wrong_rank_is_refused(name: str) -> None:
    e = refusal(table(name, lay=LAY), lead(name) + "JC->N")
    assert (e.code, e.message) == ("KC301", "JC cannot go on 9D at N: it must be one rank lower (8)")


def test_refusal_says_where_the_card_fits() -> None:
    e = refusal(table(lay="N:9D E:JS S:9C W:9H"), "8H->N")
    assert e.message == "8H cannot go on 9D at N: both are red (it fits on 9C at S)"
    e = refusal(table(lay="N:9D E:9S S:9C W:5H"), "8H->N")
    assert e.message.endswith("(it fits on 9S at E or on 9C at S)")
    e = refusal(table(lay="N:9D E:JS S:3C W:KC"), "QH->NE")
    assert (e.code, e.message) == ("KC303", "only a King may start an empty corner (NE) (it fits on KC at W)")


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_nothing_on_an_ace(name: str) -> None:
    e = refusal(table(name, lay="N:9D E:AS S:3C W:5H"), lead(name) + "2S->E")
    assert (e.code, e.message) == ("KC302", "nothing can be played on an Ace (AS at E)")
    t = table(name, lay="N:9D E:2S S:3C W:5H")
    play(t, lead(name) + "AH->E", end=False)
    assert t.top(Pile.E) == parse_card("AH")


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_only_a_king_starts_a_corner(name: str) -> None:
    e = refusal(table(name, lay=LAY), lead(name) + "QH->SW")
    assert (e.code, e.message) == ("KC303", "only a King may start an empty corner (SW)")
    t = table(name, lay=LAY)
    play(t, lead(name) + "KH->SW; QS->SW", end=False)
    assert [str(c) for c in t.piles[Pile.SW]] == ["KH", "QS"]


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_any_card_fills_an_empty_foundation(name: str) -> None:
    t = table(name, lay="N:9D E:10S S:3C W:5H")
    play(t, lead(name) + "N->E; QH->N", end=False)
    assert [str(c) for c in t.piles[Pile.E]] == ["10S", "9D"]
    assert [str(c) for c in t.piles[Pile.N]] == ["QH"]
    t = table(name, lay="N:9D E:10S S:3C W:5H")
    play(t, lead(name) + "N->E; KD->N", end=False)   # a King may fill a foundation too
    assert t.top(Pile.N) == parse_card("KD")


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_pile_moves(name: str) -> None:
    t = table(name, lay="N:9D E:10S S:8C W:5H")
    play(t, lead(name) + "S->N; N->E", end=False)    # 8C onto 9D, then 9D..8C onto 10S
    assert [str(c) for c in t.piles[Pile.E]] == ["10S", "9D", "8C"]
    assert not t.piles[Pile.N] and not t.piles[Pile.S]
    e = refusal(table(name, lay=LAY), lead(name) + "N->E")
    assert (e.code, e.message) == (
        "KC305", "N cannot move onto E: its bottom card 9D cannot go on JS: it must be one rank lower (10)")


def test_pile_move_refusal_names_where_it_could_go() -> None:
    e = refusal(table(lay="N:9D E:JS S:10C W:5H"), "N->E")
    assert e.message.endswith("(it may move on 10C at S)")


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_corner_piles_never_move(name: str) -> None:
    e = refusal(table(name, lay=LAY), lead(name) + "KH->NE; NE->E")
    assert (e.code, e.message) == ("KC304", "corner piles never move (NE)")


def test_king_bottomed_foundation_moves_to_an_empty_corner_only() -> None:
    t = table(lay="N:9D E:JS S:3C W:KC")
    play(t, "W->SE; QH->SE", end=False)
    assert [str(c) for c in t.piles[Pile.SE]] == ["KC", "QH"]
    e = refusal(table(lay="N:9D E:JS S:3C W:KC"), "N->NE")
    assert e.code == "KC303"
    assert e.message == "only a King may start an empty corner (NE): the bottom card of N is 9D"
    e = refusal(table(lay="N:9D E:JS S:3C W:KC"), "KH->NE; W->NE")   # the corner is no longer empty
    assert e.code == "KC305"


def test_no_move_onto_an_empty_foundation() -> None:
    e = refusal(table(lay="N:9D E:10S S:3C W:KC"), "N->E; S->N")
    assert (e.code, e.message) == ("KC306", "no pile may move onto an empty foundation (N)")
    e = refusal(table(lay="N:9D E:10S S:3C W:KC"), "N->E; W->N")    # not even a King pile
    assert e.code == "KC306"


def test_a_move_needs_a_pile_and_another_target() -> None:
    e = refusal(table(lay="N:9D E:10S S:3C W:KC"), "N->E; N->W")
    assert (e.code, e.message) == ("KC307", "N is empty: there is no pile to move")
    e = refusal(table(), "E->E")
    assert (e.code, e.message) == ("KC307", "a pile cannot move onto itself (E)")


def test_move_onto_an_ace_is_refused() -> None:
    e = refusal(table(lay="N:2D E:AS S:3C W:KC"), "N->E")
    assert e.code == "KC302"


def test_card_targets_and_may_move() -> None:
    t = table(lay="N:9D E:9S S:3C W:KC")
    assert card_targets(t, parse_card("8H")) == [Pile.E]
    assert card_targets(t, parse_card("KD")) == [Pile.NE, Pile.NW, Pile.SE, Pile.SW]
    assert may_move(t, Pile.W, Pile.NW) and not may_move(t, Pile.NE, Pile.W)


def test_illegal_action_is_a_value_error() -> None:
    assert issubclass(IllegalAction, ValueError)
