"""Turns: whose turn, the draw in its three variants, pass, going out, blocked hands."""

from __future__ import annotations

import pytest
from helpers import act, found, options, play, refusal, table

from kcref.engine.faults import IllegalAction
from kcref.engine.table import Unchecked
from kcref.engine.turns import (
    apply,
    begin_turn,
    can_end_turn,
    declare_blocked,
    end_turn,
)
from kcref.model.cards import parse_card
from kcref.model.events import Draw
from kcref.model.options import DrawTime

SIX = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay")
STUCK_ANN = "QH 7H 6S 2C AD 9C 5D"   # nothing of it fits N:9D E:JS S:3C W:5H
STUCK_LAY = "N:9D E:JS S:3C W:5H"


# --- whose turn ------------------------------------------------------------------------------

def test_play_starts_left_of_the_dealer_and_goes_clockwise() -> None:
    t = table(names=("Ann", "Bob", "Cy"), dealer=0)
    assert t.name == "Bob"
    with pytest.raises(IllegalAction) as e:
        begin_turn(t, 2)
    assert (e.value.code, e.value.message) == ("KC310", "it is Bob's turn, not Cy's")
    play(t, "draw")
    assert t.name == "Cy"
    play(t, "draw")
    assert t.name == "Ann"
    assert table(names=("Ann", "Bob", "Cy"), dealer=2).name == "Ann"


def test_wrong_turn_reported_at_the_line() -> None:
    log = '[Players "Ann, Bob, Cy"]\nhand 1 dealer Ann\nlayout N:9D E:JS S:3C W:KC\nCy: draw\n'
    assert found(log) == [("KC310", 4, 1)]


# --- drawing at the end of the turn ------------------------------------------------------------

def test_draw_at_the_end() -> None:
    t = table()
    play(t, "8S->N; draw 2H")
    assert t.stock == 52 - 14 - 4 - 1 and t.name == "Bob"
    assert parse_card("2H") in t.holdings[0].known and t.holdings[0].unknown == 6
    e = refusal(table(), "draw; 8S->N")
    assert (e.code, e.message) == ("KC311", "nothing may follow the draw")
    e = refusal(table(), "draw; draw")
    assert e.code == "KC311"


def test_missing_the_draw_is_an_error_without_chips() -> None:
    e = refusal(table(), "8S->N")
    assert (e.code, e.message, e.step) == ("KC313", "Ann did not draw, and the stock has 34 cards", 0)
    e = refusal(table(), "pass")
    assert e.code == "KC313"


def test_missing_the_draw_costs_a_chip_where_chips_are_played() -> None:
    t = table("commercial", lay=STUCK_LAY)
    play(t, "8S->N")
    assert [(n.code, n.chips, n.step) for n in t.notes] == [("KC402", 1, 0)]
    t = table(options(scoring=options("commercial").scoring, forced_kings=options().forced_kings), lay=STUCK_LAY)
    play(t, "pass")
    assert sorted(n.code for n in t.notes) == ["KC401", "KC402"]


def test_no_draw_needed_from_an_empty_stock() -> None:
    t = table(names=SIX)
    for _ in range(6):
        play(t, "draw")
    assert t.stock == 0
    play(t, "8S->N")      # Ann: no draw, no error
    e = refusal(t, "draw")
    assert (e.code, e.message) == ("KC312", "the stock is empty: there is nothing to draw")


# --- drawing at the start of the turn ----------------------------------------------------------

@pytest.mark.parametrize("name", ["classic", "commercial", "family"])
def test_draw_first(name: str) -> None:
    opts = options(name, draw=DrawTime.START)
    t = table(opts, lay=STUCK_LAY)
    play(t, "draw 8S; 8S->N; 7D->N")
    assert t.name == "Bob"
    e = refusal(table(opts, lay=STUCK_LAY), "8S->N; draw")
    assert (e.code, e.step) == ("KC314", None)
    assert e.message == "the turn must start with the draw: the stock has 34 cards"
    e = refusal(table(opts, lay=STUCK_LAY), "pass")
    assert e.code == "KC314"
    e = refusal(table(opts, lay=STUCK_LAY), "draw; draw")
    assert (e.code, e.message) == ("KC315", "only one draw per turn")


def test_draw_first_with_an_empty_stock_plays_or_passes() -> None:
    t = table(options(draw=DrawTime.START), names=SIX)
    for _ in range(6):
        play(t, "draw")
    play(t, "8S->N")
    play(t, "pass")


# --- drawing only when stuck -------------------------------------------------------------------

def test_draw_when_stuck() -> None:
    opts = options(draw=DrawTime.STUCK)
    t = table(opts, deals={0: STUCK_ANN}, lay=STUCK_LAY)
    play(t, "draw 8S; 8S->N; 7H->N")   # stuck, draws, then plays the drawn card and more
    e = refusal(table(opts, deals={0: "8S 7H 6S 2C AD 9C 5D"}, lay=STUCK_LAY), "draw")
    assert (e.code, e.message) == ("KC316", "Ann may draw only when unable to play, and could play 8S->N")
    e = refusal(table(opts, lay="N:9D E:10S S:3C W:5H"), "draw")   # a pile move is a play too
    assert e.message == "Ann may draw only when unable to play, and could play N->E"


def test_draw_when_stuck_is_due_when_stuck() -> None:
    opts = options(draw=DrawTime.STUCK)
    e = refusal(table(opts, deals={0: STUCK_ANN}, lay=STUCK_LAY), "pass")
    assert e.code == "KC313"
    t = table(opts, deals={0: "8S 7H 6S 2C AD 9C 5D"}, lay=STUCK_LAY)
    play(t, "pass")                     # could play, chose not to: no draw due
    t = table(opts, deals={0: "8S 7H 6S 2C AD 9C 5D"}, lay=STUCK_LAY)
    play(t, "8S->N")                    # 7H still fits on 8S: not stuck, no draw due
    e = refusal(table(opts, deals={0: "8S 7C 6S 2C AD 9C 5D"}, lay=STUCK_LAY), "8S->N")
    assert e.code == "KC313"            # stuck after playing 8S: the draw was due
    t = table(options("commercial", draw=DrawTime.STUCK), deals={0: STUCK_ANN, 1: "10H 9S 8D 7C 6H 5S 4D"},
              lay=STUCK_LAY)
    play(t, "pass")
    assert sorted(n.code for n in t.notes) == ["KC401", "KC402"]


def test_draw_when_stuck_with_an_unknown_hand_is_not_judged() -> None:
    t = table(options(draw=DrawTime.STUCK), lay=STUCK_LAY)
    play(t, "pass")
    play(t, "draw")
    assert t.unchecked == {Unchecked.STUCK: {0, 1}}


# --- pass ------------------------------------------------------------------------------------

def test_pass_stands_alone() -> None:
    t = table(names=SIX)
    for _ in range(6):
        play(t, "draw")
    play(t, "pass")
    e = refusal(t, "8S->N; pass")
    assert (e.code, e.message) == ("KC322", "pass must be the only action of its turn")
    t2 = table(names=SIX)
    for _ in range(6):
        play(t2, "draw")
    e = refusal(t2, "pass; 8S->N")
    assert e.code == "KC322"


# --- going out -------------------------------------------------------------------------------

def test_going_out_ends_the_hand() -> None:
    t = table(deals={0: "8S 7D 6C 5H 4S 3D 2C"})
    play(t, "8S->N; 7D->N; 6C->N; 5H->N; 4S->N; 3D->N", end=False)
    assert t.winner is None
    apply(t, act("2C->N"))
    assert t.winner == 0 and t.over and t.out_step == 6
    with pytest.raises(IllegalAction) as e:
        apply(t, act("draw"))
    assert (e.value.code, e.value.message) == ("KC319", "Ann has gone out: the hand is over")
    end_turn(t)
    with pytest.raises(IllegalAction) as e:
        begin_turn(t, 1)
    assert (e.value.code, e.value.message) == ("KC320", "the hand is over: Ann went out")


def test_an_unknown_hand_goes_out_when_its_count_reaches_zero() -> None:
    t = table()
    play(t, "8S->N; 7D->N; 6C->N; 5H->N; 4S->N; 3D->N; draw")
    play(t, "draw")
    assert len(t.holdings[0]) == 2
    play(t, "2C->N; AH->N", end=False)
    assert t.winner == 0


# --- blocked ---------------------------------------------------------------------------------

def _empty_stock(opts=None):
    t = table(opts or options(), names=SIX)
    for _ in range(6):
        play(t, "draw")
    return t


def test_blocked_after_a_full_round_without_play() -> None:
    t = _empty_stock()
    for _ in range(5):
        play(t, "pass")
        assert not t.blocked
        with pytest.raises(IllegalAction) as e:
            declare_blocked(t)
        assert e.value.code == "KC321"
    assert "there have been 5" in e.value.message
    play(t, "pass")
    assert t.blocked and t.over and t.winner is None
    declare_blocked(t)
    with pytest.raises(IllegalAction) as e:
        begin_turn(t, t.player)
    assert (e.value.code, e.value.message) == ("KC320", "the hand is over: it is blocked")
    assert not can_end_turn(t)


def test_a_play_restarts_the_round() -> None:
    t = _empty_stock()
    for _ in range(3):
        play(t, "pass")
    play(t, "8S->N")              # Dee plays
    for _ in range(5):
        play(t, "pass")
    assert not t.blocked
    play(t, "pass")
    assert t.blocked


def test_a_turn_that_drew_the_last_card_does_not_count() -> None:
    t = table(names=SIX)
    for _ in range(5):
        play(t, "draw")
    play(t, "draw")               # Fay draws the last card: her turn started with cards in the stock
    for _ in range(5):
        play(t, "pass")
    assert not t.blocked
    play(t, "pass")
    assert t.blocked


def test_blocked_line_while_the_stock_has_cards() -> None:
    with pytest.raises(IllegalAction) as e:
        declare_blocked(table())
    assert e.value.message == "the hand is not blocked: the stock still has 34 cards"


def test_blocked_line_after_going_out() -> None:
    t = table(deals={0: "8S 7D 6C 5H 4S 3D 2C"})
    play(t, "8S->N; 7D->N; 6C->N; 5H->N; 4S->N; 3D->N; 2C->N")
    with pytest.raises(IllegalAction) as e:
        declare_blocked(t)
    assert (e.value.code, e.value.message) == ("KC321", "the hand is not blocked: Ann went out")


def test_second_blocked_line_is_after_the_end() -> None:
    draws = "".join(f"{n}: draw\n" for n in SIX)
    passes = "".join(f"{n}: pass\n" for n in SIX)
    log = f'[Players "{", ".join(SIX)}"]\nhand 1\nlayout N:9D E:JS S:3C W:KC\n{draws}{passes}blocked\nblocked\n'
    assert found(log) == [("KC320", 17, 1)]


def test_turn_after_a_reveal() -> None:
    log = ('[Players "Ann, Bob"]\nhand 1\nlayout N:9D E:JS S:3C W:KC\nAnn: draw\n'
           'reveal Bob: 2H 3H 4H 5H 6H 7H 8H\nBob: draw\n')
    assert found(log) == [("KC320", 6, 1)]


def test_draw_card_must_be_unseen() -> None:
    t = table(deals={1: "10H 9S 8D 7C 6H 5S 4D"})
    e = refusal(t, "draw 4D")
    assert (e.code, e.message) == ("KC309", "4D cannot be drawn: Bob holds it")
    assert isinstance(act("draw 4D"), Draw)
