"""The verdict as data: winner, blocked, cards left, points per scoring system."""

from __future__ import annotations

import pytest
from helpers import cards, layout, run

from kcref.model.cards import parse_card
from kcref.model.events import (
    PASS,
    Blocked,
    Deal,
    HandStart,
    Layout,
    PlayCard,
    Span,
    Turn,
)
from kcref.model.options import preset, with_scoring
from kcref.model.systems import DUTCH, PENALTY, PIPS
from kcref.referee.grouping import Cut, HandRecord
from kcref.referee.replay import referee_hand

SIX = "Ann, Bob, Cy, Dee, Eve, Fay"


@pytest.mark.parametrize("text,penalty,pips,dutch", [
    ("KS", 10, 10, 10), ("QH", 1, 10, 10), ("JD", 1, 10, 10), ("10C", 1, 10, 5),
    ("9S", 1, 9, 5), ("2H", 1, 2, 5), ("AD", 1, 25, 25),
])
def test_card_points(text: str, penalty: int, pips: int, dutch: int) -> None:
    c = parse_card(text)
    assert (PENALTY.card_value(c), PIPS.card_value(c), DUTCH.card_value(c)) == (penalty, pips, dutch)


def _blocked_log(scoring: str, reveals: str = "") -> str:
    names = SIX.split(", ")
    deal = "deal Ann: KH 7H 6S 2C AD 9C 5D\n"
    return (f'[Players "{SIX}"]\n[Scoring "{scoring}"]\nhand 1 dealer Fay\n{deal}layout N:9D E:JS S:3C W:5H\n'
            + "".join(f"{n}: draw{' 2H' if n == 'Ann' else ''}\n" for n in names)
            + "".join(f"{n}: pass\n" for n in names) + "blocked\n" + reveals)


@pytest.mark.parametrize("scoring,ann", [("penalty", 10 + 7), ("pips", 10 + 7 + 6 + 2 + 25 + 9 + 5 + 2),
                                         ("dutch", 10 + 5 * 6 + 25)])
def test_blocked_hand_scores_everyones_cards(scoring: str, ann: int) -> None:
    [v] = run(_blocked_log(scoring))
    assert v.blocked and v.finished and v.winner is None and v.valid
    assert v.points[0] == ann
    assert v.points[1:] == (None,) * 5                      # unknown hands, no reveal
    assert v.cards_left[0] == tuple(cards("6S 2H 7H KH AD 5D 2C 9C"))
    assert v.cards_left[1:] == (8,) * 5
    assert any(d.code == "KC502" for d in v.diagnostics)


def test_reveals_make_points_known() -> None:
    reveals = "reveal Bob: 3H 4H 6H 7D 8H 9H 10H QH\n"
    [v] = run(_blocked_log("penalty", reveals))
    assert v.points[1] == 8
    assert v.cards_left[1] == tuple(cards("3H 4H 6H 8H 9H 10H QH 7D"))


def test_points_of_unknown_cards_are_exact_when_every_candidate_is_worth_the_same() -> None:
    log = ('[Players "Ann, Bob"]\n[Scoring "penalty"]\nhand 1\ndeal Ann: KH KS KD KC 9H 8S 7D\n'
           "layout N:10C E:JS S:3C W:5H\n"
           "Ann: KH->NE; KS->NW; KD->SE; KC->SW; 9H->N; 8S->N; 7D->N\n")
    [v] = run(log)
    assert v.winner == 0 and v.points == (0, 7)   # no King left anywhere Bob's cards could be
    assert v.cards_left == ((), 7)
    assert not any(d.code == "KC502" for d in v.diagnostics)


def test_verdict_fields() -> None:
    log = ('[Players "Ann, Bob"]\n[Rules "family"]\nhand 3\ndeal Ann: QS JD 10C 9H 8S 7D 5D\n'
           "deal Bob: 2S 3H 4S 5C 6H 7S 8C\nlayout N:9D E:JS S:3C W:4H NE:KH\n"
           "Ann: draw 6C; QS->NE; JD->NE; 10C->NE; 9H->NE; 8S->NE; 7D->NE; 6C->NE; 5D->NE\n")
    [v] = run(log)
    assert (v.index, v.number, v.rules, v.players, v.dealer) == (1, 3, "family", ("Ann", "Bob"), 1)
    assert v.winner == 0 and v.winner_name == "Ann" and v.valid and not v.errors
    assert v.points == (0, 7)
    assert v.cards_left == ((), tuple(cards("2S 4S 7S 3H 6H 5C 8C")))
    assert v.actions == 9


def test_unfinished_and_errors() -> None:
    [v] = run('[Players "Ann, Bob"]\nhand 1\nlayout N:9D E:JS S:3C W:KC\nAnn: draw\n')
    assert not v.finished and v.valid and [d.code for d in v.diagnostics] == ["KC501"]
    [v] = run('[Players "Ann, Bob"]\nhand 1\nlayout N:9D E:JS S:3C W:KC\nAnn: 8H->N\nBob: draw\n')
    assert not v.valid and [d.code for d in v.errors] == ["KC301"]
    assert v.diagnostics[0].message == "8H cannot go on 9D at N: both are red"


def _record(events, cut: Cut | None = None) -> HandRecord:
    options = with_scoring(preset("classic"), PENALTY)
    return HandRecord(path="x.log", index=1, start=HandStart(1, None, Span("x.log", 1, 1)),
                      players=("Ann", "Bob"), dealer=1, options=options, rules="classic", tags=(),
                      events=tuple(events), cut=cut)


def test_referee_on_a_record_built_from_events() -> None:
    chain = cards("8S 7D 6C 5H 4S 3D 2C")
    events = [
        Deal("Ann", chain, Span("x.log", 2, 1)),
        Deal("Bob", cards("KH QH 2H 3H 4H 6H 7H"), Span("x.log", 3, 1)),
        Layout(layout("N:9D E:JS S:3C W:KC"), Span("x.log", 4, 1)),
        Turn("P1", tuple(PlayCard(c, layout("N:9D")[0][0]) for c in chain), Span("x.log", 5, 1),
             cols=tuple(range(5, 75, 10))),
    ]
    v = referee_hand(_record(events))
    assert v.valid and v.winner == 0 and v.points == (0, 16) and v.diagnostics == ()
    bad = events[:3] + [Turn("Ann", (PlayCard(parse_card("7D"), layout("N:9D")[0][0]),), Span("x.log", 5, 1),
                             cols=(6,)), Blocked(Span("x.log", 6, 1))]
    v = referee_hand(_record(bad))
    assert [(d.code, d.line, d.column) for d in v.diagnostics] == [("KC301", 5, 6)]


def test_a_record_cut_at_its_start_is_not_judged_and_says_so() -> None:
    v = referee_hand(_record([], cut=Cut(1, 1, "KC215")))
    assert not v.valid and v.points is None and v.stopped_at == 1
    assert [(d.code, d.message) for d in v.diagnostics] == [
        ("KC504", "hand 1 is not refereed: fix the missing layout first")]


def test_a_cut_record_is_judged_up_to_the_cut() -> None:
    chain = cards("8S 7D 6C 5H 4S 3D 2C")
    events = [
        Deal("Ann", chain, Span("x.log", 2, 1)),
        Layout(layout("N:9D E:JS S:3C W:KC"), Span("x.log", 4, 1)),
        Turn("Ann", (PlayCard(parse_card("7D"), layout("N:9D")[0][0]),), Span("x.log", 5, 1), cols=(6,)),
        Turn("Zed", (PASS,), Span("x.log", 6, 1), cols=(6,)),
    ]
    v = referee_hand(_record(events, cut=Cut(6, 1, "KC205")))
    assert not v.valid and v.stopped_at == 5
    assert [(d.code, d.line) for d in v.diagnostics] == [("KC301", 5), ("KC504", 6)]

