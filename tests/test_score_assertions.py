"""Assertions in the log (``score``, ``chips``, ``paid``, ``pot`` lines) checked by `kcref check`.

The data-driven cases are tests/cases/assertions/*.log, in the style of tests/cases/rules/: each
states its expected diagnostics in ``#! expect CODE at LINE:COL`` headers, and `kcref check`
must report exactly those. The messages, which carry both numbers, are checked here too.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from kcref.model.events import Assertion, Claim, Quantity
from kcref.notation.reader import read_text
from kcref.notation.writer import write_text
from kcref.referee.pipeline import check_text
from tests.engine.logs import expectations

CASES = sorted((Path(__file__).parent / "cases" / "assertions").glob("*.log"))


@pytest.mark.parametrize("path", CASES, ids=[p.name for p in CASES])
def test_case(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    expected = expectations(text)
    assert expected, "a case must state its expectations"
    report = check_text(text, str(path))
    found = sorted((d.code, d.line, d.column) for d in report.diagnostics)
    assert found == expected, "\n".join(f"{d.line}:{d.column} {d.code} {d.message}" for d in report.diagnostics)


def _messages(name: str, code: str) -> list[str]:
    path = Path(__file__).parent / "cases" / "assertions" / name
    report = check_text(path.read_text(encoding="utf-8"), name)
    return [d.message for d in report.diagnostics if d.code == code]


def test_mismatches_give_both_numbers() -> None:
    assert _messages("chips_mismatch.log", "KC601") == [
        "the log says the pot was 10; kcref counts 11",
        "the log says Bob scored 10; kcref counts 11 (the pot)",
        "the log says Ann scored 1; kcref counts 0 (only the winner scores: the pot)",
        "the log says Ann has 31 chips after the hand; kcref counts 30",
        "the log says Ann paid 9 chips; kcref counts 10 (ante 1, penalties and cards left 9)",
    ]
    assert _messages("penalty_figures.log", "KC601") == [
        "the log says Bob scored 8; kcref counts 7 (2S 4S 7S 3H 6H 5C 8C left)"]
    assert _messages("stacks.log", "KC601") == [
        "the log says Ann scored -16; kcref counts -17 (the stack went from 40 to 23)"]
    assert _messages("none_scoring.log", "KC601") == [
        "the log says Ann scored 1; kcref counts 0 (1 for the winner of the hand, 0 for the others)",
        "the log says Ann scored 1; kcref counts 0 (the hand is blocked: nobody scores)",
    ]


def test_figures_that_cannot_be_checked_say_why() -> None:
    assert _messages("unfinished.log", "KC604") == ["'score' cannot be checked: the hand is unfinished"]
    assert _messages("stacks_unknown.log", "KC604")[0] == (
        "'pot' cannot be checked: it depends on the cards Ann had left, which are unknown "
        "(a reveal line would show them)")
    assert _messages("penalty_figures.log", "KC602")[0] == (
        "'pot' states chips, but no chips are played in this hand (Scoring \"penalty\")")


def test_assertions_read_and_write_back() -> None:
    text = "score  Mary Jo\t12 ,P2 -3 # after hand 4\nPOT 17\npaid Player 2 5\n"
    events = list(read_text(text))
    assert events == [
        Assertion(Quantity.SCORE, (Claim("Mary Jo", 12), Claim("P2", -3)), comment="# after hand 4"),
        Assertion(Quantity.POT, (Claim(None, 17),)),
        Assertion(Quantity.PAID, (Claim("Player 2", 5),)),
    ]
    assert write_text(events) == "score Mary Jo 12, P2 -3 # after hand 4\npot 17\npaid Player 2 5\n"
    assert [e.amount_cols for e in events] == [(16, 23), (5,), (15,)]


def test_a_player_may_be_named_like_an_assertion_word() -> None:
    log = ('[Players "Pot, Score"]\nhand 1 dealer Score\ndeal Pot: JH 10C 9D 8S 3S 2H KC\n'
           "layout N:QS E:4H S:9C W:KD\nPot: JH->N; 10C->N; 9D->N; 8S->N; 3S->E; 2H->E; KC->NE\n"
           "score Pot 1, Score 0\n")
    report = check_text(log)
    assert report.diagnostics == [] and report.hands[0].winner_name == "Pot"


@pytest.mark.parametrize("pairs", [3, 2000])
def test_claims_run_together_are_read_in_time_in_proportion_to_the_line(pairs: int) -> None:
    """An unknown player whose name reads as claims run together ('a 1 a 1 ... zz') gets the
    hint about missing commas only when it is one; every way of reading a long line is not tried
    (with players 'a' and 'a 1 a' the ways double every few words), nor read by recursion."""
    name = " ".join(["a 1"] * pairs)
    text = f'[Players "a, a 1 a"]\nhand 1\nlayout N:5D E:JS S:KH W:2C\nchips {name} zz 5\nchips {name} a 5\n'
    report = check_text(text, "t.log")
    unknown = [d.message for d in report.diagnostics if d.code == "KC205"]
    assert len(unknown) == 2 and "comma is missing" not in unknown[0]
    assert unknown[1].endswith(f"; a comma is missing between claims: write 'chips {', '.join(['a 1'] * pairs)}, a 5'")
