"""The writer makes each card's and action's text once per spelling: one spelling's texts never
leak into another's."""

from __future__ import annotations

from kcref.model.cards import Pile, parse_card
from kcref.model.events import PASS, Draw, MovePile, PlayCard, Turn
from kcref.notation.writer import Spelling, action_text, card_text, event_text

TEN = parse_card("10h")
TURN = Turn("Ann", (PlayCard(TEN, Pile.N), MovePile(Pile.E, Pile.NE), Draw(TEN), Draw(), PASS), comment="# hi")


def test_each_spelling_writes_its_own_texts() -> None:
    for _ in range(2):  # the second time from what was made the first
        assert event_text(TURN) == "Ann: 10H->N; E->NE; draw 10H; draw; pass # hi"
        assert event_text(TURN, Spelling(ten="T")) == "Ann: TH->N; E->NE; draw TH; draw; pass # hi"
        assert event_text(TURN, Spelling(symbols=True)) == "Ann: 10♥->N; E->NE; draw 10♥; draw; pass # hi"
        assert card_text(TEN, Spelling("T", True)) == "T♥"
        assert action_text(Draw(TEN), Spelling("T", True)) == "draw T♥"
