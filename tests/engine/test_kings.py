"""Kings: forced Kings (dealt and drawn), the drawn-King rule, layout Kings."""

from __future__ import annotations

import pytest
from helpers import cards, layout, options, play, refusal, table

from kcref.engine.table import Unchecked
from kcref.engine.turns import can_end_turn, legal_actions
from kcref.model.cards import Pile, parse_card
from kcref.model.options import DrawnKing, DrawTime, ForcedKings, LayoutKings
from kcref.model.systems import PENALTY

LAY = "N:9D E:JS S:3C W:5H"
ANN_K = "KH 8S 6S 2C AD 9C 5D"      # a dealt King
BOB = "10H 9S 8D 7C 6H 5S 4D"


# --- dealt Kings -----------------------------------------------------------------------------

@pytest.mark.parametrize("draw", list(DrawTime))
def test_dealt_king_may_stay_without_forced_kings(draw: DrawTime) -> None:
    t = table(options(draw=draw), deals={0: ANN_K}, lay=LAY)
    play(t, "8S->N; draw" if draw is DrawTime.END else "draw; 8S->N" if draw is DrawTime.START else "8S->N")
    assert parse_card("KH") in t.holdings[0].known


def test_dealt_king_held_is_an_error_at_the_draw_when_drawing_at_the_end() -> None:
    e = refusal(table(options(forced_kings=ForcedKings.ERROR), deals={0: ANN_K}, lay=LAY), "8S->N; draw")
    assert (e.code, e.step) == ("KC318", 1)         # at the draw, judged before it
    assert e.message == "Ann still holds the dealt King KH: Kings must go to a corner on the first turn"
    t = table(options(forced_kings=ForcedKings.ERROR), deals={0: ANN_K}, lay=LAY)
    play(t, "8S->N; KH->NE; draw")
    assert t.kings_judged[0]


@pytest.mark.parametrize("draw", [DrawTime.START, DrawTime.STUCK])
def test_dealt_king_held_is_an_error_at_the_end_of_the_first_turn(draw: DrawTime) -> None:
    opts = options(draw=draw, forced_kings=ForcedKings.ERROR)
    line = "draw 2H; 8S->N" if draw is DrawTime.START else "8S->N"
    e = refusal(table(opts, deals={0: ANN_K}, lay=LAY), line)
    assert (e.code, e.step) == ("KC318", 1 if draw is DrawTime.START else 0)
    t = table(opts, deals={0: ANN_K}, lay=LAY)
    # With the King placed; drawing only when stuck, Ann is stuck afterwards and must draw.
    play(t, "draw 2H; 8S->N; KH->SW" if draw is DrawTime.START else "8S->N; KH->SW; draw 2H")


def test_two_dealt_kings_named_in_one_error() -> None:
    e = refusal(table(options(forced_kings=ForcedKings.ERROR), deals={0: "KH KS 6S 2C AD 9C 5D"}, lay=LAY),
                "draw")
    assert e.message == "Ann still holds the dealt Kings KS and KH: Kings must go to a corner on the first turn"


def test_dealt_king_judged_on_the_first_turn_only() -> None:
    t = table(options("commercial"), deals={0: ANN_K, 1: BOB}, lay=LAY)
    play(t, "8S->N; draw 2H")
    play(t, "draw 3H")
    play(t, "draw 4H")               # Ann's second turn: KH still held, no new charge
    kings = [n for n in t.notes if n.code == "KC403"]
    assert [(n.seat, n.chips, n.step) for n in kings] == [(0, 3, 1)]


def test_dealt_kings_cost_three_chips_each_with_chips() -> None:
    t = table("commercial", deals={0: "KH KS 6S 2C AD 9C 5D", 1: BOB}, lay=LAY)
    play(t, "draw 2H")
    assert sorted((n.code, n.chips) for n in t.notes) == [("KC401", 1), ("KC403", 3), ("KC403", 3)]
    assert t.stacks == [40 - 1 - 7, 40 - 1] and t.pot == 2 + 7


def test_forced_kings_chips_without_chip_scoring_is_an_error() -> None:
    opts = options("commercial", scoring=PENALTY)
    e = refusal(table(opts, deals={0: ANN_K}, lay=LAY), "draw")
    assert e.code == "KC318"


def test_dealt_kings_of_an_unknown_deal_are_not_checked() -> None:
    t = table("commercial", lay=LAY)
    play(t, "draw")
    assert t.unchecked.get(Unchecked.DEALT_KINGS) == {0}


def test_legal_actions_respect_forced_kings_before_the_draw() -> None:
    t = table(options(forced_kings=ForcedKings.ERROR), deals={0: ANN_K}, lay=LAY)
    acts = legal_actions(t)
    assert not any(str(a).startswith("draw") for a in acts)
    assert not can_end_turn(t)
    play(t, "KH->NE", end=False)
    assert any(str(a) == "draw" for a in legal_actions(t))


# --- drawn Kings -------------------------------------------------------------------------------

def test_drawn_king_stays_in_hand_by_default() -> None:
    t = table(lay=LAY)
    play(t, "draw KS")
    assert parse_card("KS") in t.holdings[0].known
    t = table(options(draw=DrawTime.START), lay=LAY)
    play(t, "draw KS; KS->NE; QH->NE")            # family: may be played this turn
    t = table(options(draw=DrawTime.START), lay=LAY)
    play(t, "draw KS; 8S->N")                     # ... or kept


@pytest.mark.parametrize("rule", ["place", "forced"])
def test_drawn_king_must_be_placed_next(rule: str) -> None:
    opts = (options(drawn_king=DrawnKing.PLACE) if rule == "place"
            else options(forced_kings=ForcedKings.ERROR))
    t = table(opts, lay=LAY)
    play(t, "draw KS; KS->NE")
    assert t.top(Pile.NE) == parse_card("KS")
    e = refusal(table(opts, lay=LAY), "draw KS; 8S->N")
    assert (e.code, e.message) == ("KC317", "KS was drawn: it must be placed in an empty corner before anything else")
    e = refusal(table(opts, lay="N:9D E:10S S:3C W:5H"), "N->E; draw KS; KS->N")
    assert (e.code, e.message) == ("KC317", "the drawn King KS must go to an empty corner, not N")
    e = refusal(table(opts, lay=LAY), "draw KS")
    assert (e.code, e.step) == ("KC317", 0)
    assert e.message == "KS was drawn and not placed in an empty corner at once"


def test_drawn_king_not_placed_costs_chips() -> None:
    t = table("commercial", deals={0: "QH 7H 6S 2C AD 9C 8S", 1: BOB}, lay=LAY)
    play(t, "8S->N; draw KS")
    assert [(n.code, n.chips, n.step) for n in t.notes] == [("KC403", 3, 1)]
    assert parse_card("KS") in t.holdings[0].known
    assert can_end_turn(t)


def test_placed_drawn_king_ends_the_turn_under_place() -> None:
    for draw in DrawTime:
        t = table(options(drawn_king=DrawnKing.PLACE, draw=draw), lay=LAY)
        e = refusal(t, "draw KS; KS->NE; QH->NE")
        assert (e.code, e.message) == ("KC327", "the turn ended when the drawn King was placed"), draw


def test_placed_drawn_king_under_forced_kings_lets_a_start_turn_go_on() -> None:
    t = table(options(forced_kings=ForcedKings.ERROR, draw=DrawTime.START), lay=LAY)
    play(t, "draw KS; KS->NE; QH->NE; 8S->N")
    e = refusal(table(options(forced_kings=ForcedKings.ERROR), lay=LAY), "draw KS; KS->NE; QH->NE")
    assert e.code == "KC311"      # drawing at the end: only the King may follow the draw


def test_legal_actions_with_a_pending_king() -> None:
    t = table(options(drawn_king=DrawnKing.PLACE), lay=LAY)
    play(t, "draw KS", end=False)
    assert [str(a) for a in legal_actions(t)] == ["KS->NE", "KS->NW", "KS->SE", "KS->SW"]
    assert not can_end_turn(t)


def test_unknown_drawn_card_may_be_the_king_placed_next() -> None:
    opts = options("commercial")
    t = table(opts, lay=LAY)
    play(t, "draw; KS->NE")            # the drawn card was KS
    assert t.holdings[0].unknown == 7 and parse_card("KS") in t.seen
    e = refusal(table(opts, lay=LAY), "draw; 8S->N")
    assert e.code == "KC311"
    t = table(opts, lay=LAY)
    play(t, "draw")
    assert t.unchecked[Unchecked.DRAWN_KINGS] == {0}


def test_unknown_draw_cannot_be_a_king_once_all_kings_are_seen() -> None:
    t = table("commercial", lay="N:9D E:JS S:3C W:5H", deals={1: "KS KH KD KC 6H 5S 4D"})
    play(t, "draw")
    assert Unchecked.DRAWN_KINGS not in t.unchecked


def test_unknown_draw_first_then_other_play_is_not_checked() -> None:
    t = table(options(draw=DrawTime.START, drawn_king=DrawnKing.PLACE), lay=LAY)
    play(t, "draw; 8S->N")
    assert t.unchecked[Unchecked.DRAWN_KINGS] == {0}


# --- layout Kings ----------------------------------------------------------------------------

def test_layout_kings_stay_and_may_move_later() -> None:
    t = table(lay="N:KD E:JS S:3C W:5H")
    play(t, "draw")
    play(t, "N->SE; draw")               # Bob moves it to a corner
    assert t.top(Pile.SE) == parse_card("KD")


def test_layout_kings_in_corners_under_immediate_corners() -> None:
    opts = options(layout_kings=LayoutKings.CORNER)
    t = table(opts, lay="N:9D E:JS S:3C W:5H NE:KH SW:KD")
    assert t.stock == 52 - 14 - 6
    assert t.top(Pile.NE) == parse_card("KH") and t.top(Pile.SW) == parse_card("KD")
    from kcref.engine.faults import IllegalAction
    from kcref.engine.turns import start_hand
    with pytest.raises(IllegalAction) as e:
        start_hand(opts, ("Ann", "Bob"), 1, {}, layout("N:9D E:KS S:3C W:5H"))
    assert (e.value.code, e.value.step) == ("KC323", 1)
    assert e.value.message == "a King turned up in the layout goes to a corner at once: KS cannot stay at E"
    with pytest.raises(IllegalAction) as e:
        start_hand(options(), ("Ann", "Bob"), 1, {}, layout("N:9D E:JS S:3C W:5H NE:KS"))
    assert (e.value.code, e.value.step) == ("KC324", 4)
    assert cards("KS") == (parse_card("KS"),)
