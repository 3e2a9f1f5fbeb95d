"""Full information against unknown hands: what is checked, and what is said not to be."""

from __future__ import annotations

import pytest
from helpers import cards, found, play, refusal, run, table

from kcref.engine.faults import IllegalAction
from kcref.engine.table import Unchecked
from kcref.engine.turns import reveal
from kcref.model.cards import parse_card

FULL = {0: "8S 7D 6C 5H 4S 3D 2C", 1: "10H 9S 8D 7C 6H 5S 4D"}


def test_full_information_card_not_held() -> None:
    e = refusal(table(deals=FULL), "8C->N")
    assert (e.code, e.message) == ("KC308", "Ann does not hold 8C (it is in the stock)")
    e = refusal(table(deals=FULL, lay="N:9H E:JS S:3C W:KC"), "8D->N")
    assert (e.code, e.message) == ("KC308", "Ann does not hold 8D (Bob holds it)")
    e = refusal(table(deals={0: FULL[0]}), "8C->N")
    assert (e.code, e.message) == ("KC308", "Ann does not hold 8C")      # Bob's hand is unknown


def test_unknown_hand_cannot_play_a_card_seen_elsewhere() -> None:
    e = refusal(table(lay="N:9D E:8S S:3C W:KC"), "8S->N")
    assert (e.code, e.message) == ("KC309", "Ann cannot hold 8S: it is already in pile E")
    e = refusal(table(deals={1: FULL[1]}, lay="N:9H E:JS S:3C W:KC"), "8D->N")
    assert (e.code, e.message) == ("KC309", "Ann cannot hold 8D: Bob holds it")
    t = table()
    play(t, "8S->N; draw")
    e = refusal(t, "8S->E")
    assert e.message == "Bob cannot hold 8S: it is already in pile N"


def test_partly_known_hand() -> None:
    t = table(deals=FULL)
    play(t, "8S->N; draw")                 # Ann's drawn card is unknown
    play(t, "10H->E; draw 2H")
    play(t, "9C->E; draw")                 # 9C: unseen, so it may be the card Ann drew
    assert t.unchecked == {Unchecked.HELD: {0}}
    assert len(t.holdings[0]) == 7 and t.holdings[0].unknown == 1 and parse_card("9C") in t.seen
    t2 = table(deals=FULL)
    play(t2, "8S->N; draw")
    play(t2, "10H->E; draw 2H")
    e = refusal(t2, "9S->E")
    assert (e.code, e.message) == ("KC309", "Ann cannot hold 9S: Bob holds it")


def test_note_once_per_hand_listing_what_was_not_checked() -> None:
    log = ('[Players "Ann, Bob, Cy"]\n[Rules "commercial"]\nhand 1 dealer Cy\nlayout N:9D E:JS S:3C W:KC\n'
           "Ann: 8S->N; draw\nBob: 7D->N; draw\nCy: draw\nAnn: 6C->N; draw\n")
    [v] = run(log)
    notes = [d for d in v.diagnostics if d.code == "KC502"]
    assert len(notes) == 1 and (notes[0].line, notes[0].column) == (3, 1)
    assert notes[0].message == (
        "not checked, as some cards are unknown: which cards Ann and Bob held; "
        "forced Kings in the deal of Ann, Bob and Cy; "
        "whether a card Ann, Bob and Cy drew unseen was a King to place at once")


def test_no_note_with_full_information() -> None:
    log = ('[Players "Ann, Bob"]\n[Rules "commercial"]\nhand 1\n'
           "deal Ann: QH 7H 6S 2C AD 9C 5D\ndeal Bob: 10H 9S 8D 7C 6H 5S 4D\nlayout N:9D E:JS S:3C W:5H\n"
           "Ann: draw 2H\nBob: 10H->E; 9S->E; 8D->E; 7C->E; 6H->E; 5S->E; 4D->E\n")
    assert [c for c, _, _ in found(log)] == ["KC401", "KC404"]


def test_reveal_checks() -> None:
    t = table(deals={0: FULL[0]})
    play(t, "8S->N; 7D->N; 6C->N; 5H->N; 4S->N; 3D->N; 2C->N")
    with pytest.raises(IllegalAction) as e:
        reveal(t, 1, cards("KH QH"))
    assert (e.value.code, e.value.message) == ("KC325", "Bob has 7 cards left, and the reveal shows 2")
    with pytest.raises(IllegalAction) as e:
        reveal(t, 1, cards("KH QH 2H 3H 4H 6H 2C"))
    assert (e.value.code, e.value.step) == ("KC326", 6)
    assert e.value.message == "Bob cannot hold 2C: it is already in pile N"
    reveal(t, 1, cards("KH QH 2H 3H 4H 6H 7H"))
    assert t.holdings[1].fully_known and parse_card("KH") in t.seen
    with pytest.raises(IllegalAction) as e:
        reveal(t, 0, cards("KS"))
    assert e.value.code == "KC325"


def test_reveal_must_keep_known_cards() -> None:
    t = table()
    play(t, "draw 2H")
    with pytest.raises(IllegalAction) as e:
        reveal(t, 0, cards("3H 4H 5H 6H 7H 8H 9H 10H"))
    assert (e.value.code, e.value.message) == ("KC326", "the reveal leaves out 2H, which Ann is known to hold")
