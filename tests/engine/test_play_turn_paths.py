"""play_turn's fast paths leave the table exactly as the full judges do: each turn of self-played
hands, replayed once by play_turn and once by begin_turn + apply + end_turn, gives the same table."""

from __future__ import annotations

import random
from typing import Any

import pytest

from kcref.engine.bots import BOTS, play_hand
from kcref.engine.dealing import deal_from_deck, shuffled_deck
from kcref.engine.table import Table
from kcref.engine.turns import apply, begin_turn, end_turn, play_turn, settle, start_hand
from kcref.model.events import Turn
from kcref.model.options import resolve

NAMES = ("Ann", "Bob", "Cy", "Dee")


def _state(t: Table) -> tuple[Any, ...]:
    """Everything a turn may change, in comparable form."""
    return (
        {p: list(c) for p, c in t.piles.items()}, [(set(h.known), h.unknown) for h in t.holdings],
        t.stock, t.player, t.step, t.drawn, t.draw_step, t.plays, t.closed, t.pending_king, t.maybe_king,
        t.started_empty, t.guarded, t.idle, t.turns, t.winner, t.blocked, t.out_step, t.stacks, t.pot,
        list(t.notes), set(t.seen), list(t.kings_judged), list(t.dealt_kings), set(t.debtors),
        {k: set(v) for k, v in t.unchecked.items()}, list(t.removed),
    )


@pytest.mark.parametrize("rules", ["classic", "commercial", "family"])
@pytest.mark.parametrize("seed", [1, 2])
def test_play_turn_matches_apply_and_end_turn(rules: str, seed: int) -> None:
    options = resolve(rules, {})
    rng = random.Random(seed)
    turns = 0
    for dealer in range(6):
        deck = shuffled_deck(rng)
        played = play_hand(options, NAMES, dealer % 4, BOTS["greedy"], rng, deck=deck)
        dealt = deal_from_deck(options, NAMES, dealer % 4, deck)
        deals = dict(enumerate(dealt.deals))
        # The stock's order left unknown, as in a refereed log: draws are judged by what they name.
        fast = start_hand(options, NAMES, dealer % 4, deals, dealt.layout)
        full = start_hand(options, NAMES, dealer % 4, deals, dealt.layout)
        for event in played.events:
            if not isinstance(event, Turn):
                continue
            seat = NAMES.index(event.player)
            play_turn(fast, seat, event.actions)
            begin_turn(full, seat)
            for action in event.actions:
                apply(full, action)
            end_turn(full)
            assert _state(fast) == _state(full)
            turns += 1
        assert fast.over
        assert settle(fast) == settle(full)
        assert _state(fast) == _state(full)
    assert turns > 30


@pytest.mark.parametrize("rules", ["classic", "commercial", "family"])
def test_first_turn_opens_with_the_stock_and_ante_paid_in_order(rules: str) -> None:
    """start_hand opens the first turn once, with the stock already counted: as new_turn opens
    it; the ante's quick path (no debt) leaves the stacks and pot the seat-by-seat payment does."""
    options = resolve(rules, {})
    deck = shuffled_deck(random.Random(3))
    dealt = deal_from_deck(options, NAMES, 1, deck)
    for stacks in (None, [5, 0, 3, 1], [9, 9, 9, 9]):
        t = start_hand(options, NAMES, 1, dict(enumerate(dealt.deals)), dealt.layout, stacks=stacks, pot=2)
        assert t.stock == 52 - 7 * 4 - len(dealt.layout)
        reopened = t.copy()
        reopened.new_turn(t.player)
        assert _state(t) == _state(reopened)
        if t.stacks is None:
            continue
        ante = options.ante
        given = stacks if stacks is not None else options.scoring.chips.start(options, 4, 1)  # type: ignore[union-attr]
        assert t.stacks == [s - ante for s in given]
        assert t.pot == 2 + 4 * ante
        debts = [n for n in t.notes if n.code == "KC503"]
        assert [n.seat for n in debts] == [s for s in (2, 3, 0, 1) if given[s] < ante]
