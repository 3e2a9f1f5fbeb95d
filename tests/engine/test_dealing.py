"""Dealing from a known deck (self-play), completed piles, copies of the table."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from helpers import act, cards, options, play, refusal, table

from kcref.engine.bots import BOTS, play_hand
from kcref.engine.dealing import deal_from_deck, shuffled_deck, turn_event
from kcref.engine.table import Table, Unchecked
from kcref.engine.turns import apply, can_end_turn, end_turn, legal_actions, settle
from kcref.model.cards import DECK, Pile, Rank, parse_card
from kcref.model.codes import CODES
from kcref.model.events import Deal, Layout
from kcref.model.options import (
    CompletedPiles,
    DrawnKing,
    DrawTime,
    ForcedKings,
    LayoutKings,
)


def _deck_with(front: str) -> list:
    first = list(cards(front))
    return first + [c for c in DECK if c not in first]


def test_deal_one_card_at_a_time_from_the_dealers_left() -> None:
    deck = shuffled_deck(random.Random(7))
    d = deal_from_deck(options(), ("Ann", "Bob", "Cy"), 0, deck)
    assert d.deals[1] == tuple(deck[0:21:3]) and d.deals[2] == tuple(deck[1:21:3])
    assert d.deals[0] == tuple(deck[2:21:3])
    assert d.layout == tuple(zip((Pile.N, Pile.E, Pile.S, Pile.W), deck[21:25]))
    assert d.table.stock == 27 and d.table.deck[-1] == deck[25]
    assert d.table.name == "Bob"
    events = d.events()
    assert events[0] == Deal("Ann", d.deals[0]) and events[-1] == Layout(d.layout)
    assert turn_event(d.table, 1, [act("draw")]).player == "Bob"


def test_immediate_corners_replace_layout_kings_from_the_stock() -> None:
    hands = "AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS AH 2H"
    deck = _deck_with(hands + " KS 3H KH KD 4H 5H")
    d = deal_from_deck(options(layout_kings=LayoutKings.CORNER), ("Ann", "Bob"), 1, deck)
    assert d.layout == ((Pile.N, parse_card("3H")), (Pile.E, parse_card("4H")), (Pile.S, parse_card("5H")),
                        (Pile.W, deck[20]), (Pile.NE, parse_card("KS")), (Pile.NW, parse_card("KH")),
                        (Pile.SE, parse_card("KD")))
    assert d.table.stock == 52 - 14 - 7 and d.table.card_count() == 52
    stays = deal_from_deck(options(), ("Ann", "Bob"), 1, deck)
    assert stays.layout[0] == (Pile.N, parse_card("KS"))


def test_deck_must_hold_every_card_once() -> None:
    with pytest.raises(ValueError):
        deal_from_deck(options(), ("Ann", "Bob"), 1, list(DECK[:51]) + [DECK[0]])


def test_draws_follow_the_deck_order() -> None:
    deck = shuffled_deck(random.Random(3))
    d = deal_from_deck(options(), ("Ann", "Bob"), 1, deck)
    t = d.table
    top = deck[18]
    assert act(f"draw {top}") in legal_actions(t)
    other = deck[19]
    e = refusal(t.copy(), f"draw {other}")
    assert (e.code, e.message) == ("KC309", f"{other} is not the top card of the stock ({top} is)")
    apply(t, act("draw"))
    assert top in t.holdings[0].known


def test_copy_is_independent() -> None:
    t = table(deals={0: "8S 7D 6C 5H 4S 3D 2C"})
    c = t.copy()
    play(c, "8S->N; draw 2H")
    assert t.top(Pile.N) == parse_card("9D") and len(t.holdings[0]) == 7 and t.stock == 34
    assert c.top(Pile.N) == parse_card("8S") and c.player == 1 and t.player == 0


# A table's fields: its class's __slots__, which the compiled class (a native class) lists as
# __mypyc_attrs__ instead.
FIELDS = frozenset(getattr(Table, "__slots__", None) or Table.__mypyc_attrs__)  # type: ignore[attr-defined]


def test_a_new_table_sets_every_field() -> None:
    t = Table(options(), ("Ann", "Bob"), 0)
    assert {"piles", "holdings", "stock"} <= FIELDS and all(hasattr(t, f) for f in FIELDS)


def _same_table(t: Table, c: Table) -> None:
    """``c`` holds every field of ``t``, equal and with no list, set or dict shared."""
    for slot in FIELDS:
        mine, its = getattr(t, slot), getattr(c, slot)
        if slot == "holdings":
            assert [(h.known, h.unknown) for h in mine] == [(h.known, h.unknown) for h in its]
            assert all(h is not k and h.known is not k.known for h, k in zip(mine, its))
        else:
            assert mine == its, slot
        if isinstance(mine, (list, set, dict)):
            assert mine is not its, slot
    assert all(t.piles[p] is not c.piles[p] for p in t.piles)
    assert all(t.unchecked[k] is not c.unchecked[k] for k in t.unchecked)


@pytest.mark.parametrize("rules", ["classic", "commercial", "family"])
def test_copy_holds_every_field_at_every_step(rules: str) -> None:
    rng = random.Random(5)
    bot = BOTS["greedy"]
    for dealer in range(3):
        t = deal_from_deck(options(rules), ("Ann", "Bob", "Cy"), dealer, shuffled_deck(rng)).table
        _same_table(t, t.copy())
        while not t.over and t.turns < 200:
            while not t.over:
                action = bot.choose(t, legal_actions(t), can_end_turn(t), rng)
                if action is None:
                    break
                apply(t, action)
                _same_table(t, t.copy())
            end_turn(t)
            _same_table(t, t.copy())
        settle(t)
        _same_table(t, t.copy())


def test_copy_carries_every_field() -> None:
    t = play_hand(options("commercial"), ("Ann", "Bob", "Cy"), 0, BOTS["greedy"], random.Random(5)).table
    # What a played hand may leave as a new table has it, set here to other values.
    t.blocked, t.debtors, t.draw_step, t.drawn, t.idle, t.maybe_king = True, {1}, 2, True, 2, True
    t.pending_king, t.pot, t.removed, t.started_empty = parse_card("KH"), 3, [cards("KS QH")], True
    t.removed_corners = {parse_card("KS")}
    t.unchecked = {Unchecked.HELD: {0}}
    fresh = Table(t.options, t.names, t.dealer, t.stock)
    given = {"options", "policy", "names", "n", "dealer", "stock"}  # the copy is made from these
    for slot in FIELDS - given:
        mine, new = getattr(t, slot), getattr(fresh, slot)
        if slot == "holdings":
            mine, new = [(h.known, h.unknown) for h in mine], [(h.known, h.unknown) for h in new]
        assert mine != new, f"the test leaves {slot} as a new table has it"
    _same_table(t, t.copy())


def test_completed_pile_in_a_corner_is_removed_and_the_corner_empty_again() -> None:
    t = table(options(completed=CompletedPiles.REMOVE), lay="N:9D E:JS S:3C W:5D")
    play(t, "KH->NE; QS->NE; JD->NE; 10C->NE; 9H->NE; 8S->NE; draw")
    play(t, "7D->NE; 6C->NE; 5H->NE; 4S->NE; 3D->NE; 2C->NE; draw")
    play(t, "AH->NE", end=False)
    assert t.piles[Pile.NE] == [] and len(t.removed) == 1 and t.removed[0][0].rank is Rank.K
    assert t.card_count() == 52
    apply(t, act("KD->NE"))              # the corner may be started again
    assert t.winner == 0
    e = refusal(table(options(completed=CompletedPiles.STAY), lay="N:AD E:JS S:3C W:5D"), "2C->N")
    assert e.code == "KC302"


def test_completed_pile_by_a_move_is_removed() -> None:
    t = table(options(completed=CompletedPiles.REMOVE), lay="N:KS E:4D S:8D W:10C")
    t.piles[Pile.N] = list(cards("KS QH JC 10D 9S 8H 7C 6D"))
    t.piles[Pile.E] = list(cards("5S 4H 3C 2D AS"))
    play(t, "E->N; draw", end=True)
    assert t.piles[Pile.N] == [] and t.piles[Pile.E] == [] and len(t.removed[0]) == 13


def test_forced_kings_may_still_be_placed_after_a_placed_drawn_king_ends_the_turn() -> None:
    opts = options(draw=DrawTime.START, forced_kings=ForcedKings.ERROR, drawn_king=DrawnKing.PLACE)
    t = table(opts, deals={0: "KH 8S 6S 2C AD 9C 5D"}, lay="N:9D E:JS S:3C W:5H")
    play(t, "draw KS; KS->NE; KH->NW")
    e = refusal(table(opts, deals={0: "KH 8S 6S 2C AD 9C 5D"}, lay="N:9D E:JS S:3C W:5H"),
                "draw KS; KS->NE; KH->NW; 8S->N")
    assert e.code == "KC327"
    t = table(opts, deals={0: "KH 8S 6S 2C AD 9C 5D"}, lay="N:9D E:JS S:3C W:5H")
    play(t, "draw KS; KS->NE", end=False)
    assert [str(a) for a in legal_actions(t)] == ["KH->NW", "KH->SE", "KH->SW"]


def test_every_rule_code_has_a_case() -> None:
    folder = Path(__file__).parent.parent / "cases" / "rules"
    used = set()
    for p in folder.glob("*.log"):
        used |= set(re.findall(r"#! expect (KC\d{3})", p.read_text(encoding="utf-8")))
    # KC505 needs a hand of 20,000 lines: tests/engine/test_cut.py makes one at test time.
    mine = {c.code for c in CODES if c.code[2] in "345"} - {"KC505"}
    assert mine <= used, sorted(mine - used)
