"""The messages a new user meets first say what is wrong and where, in the words every command uses:
a misspelt tag, claims run together, an unfinished hand shown, an empty file scored, a file that is
no log given to report and to record."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from kcref.cli import main
from kcref.referee.pipeline import check_text

HAND = """hand 1 dealer Bob
deal Ann: QH JS 10H 9S 8H 7S 6H
deal Bob: 2H 3H 4H 5H 9H 2S 3S
layout N:KS E:2C S:3D W:4C
"""
OUT = "Ann: QH->N; JS->N; 10H->N; 9S->N; 8H->N; 7S->N; 6H->N  # out\n"
BINARY = b'[Players "Ann\x00, Bob"]\n'
NOT_UTF8 = b'[Players "Ann, Bob"]\n\xff\n'


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args), env={"KCREF_NO_CACHE": "1", "NO_COLOR": "1"})
    return result.exit_code, result.stdout, result.stderr


def found(text: str) -> list[tuple[int, int, str, str]]:
    return [(d.line, d.column, d.code, d.message) for d in check_text(text, "x.log").diagnostics]


def test_a_misspelt_players_tag_is_named_at_its_line() -> None:
    assert found('[Playres "Ann, Bob, Cy"]\n\n' + HAND)[:2] == [
        (1, 1, "KC206", "unknown tag [Playres ...]: it sets nothing; did you mean 'Players'?"),
        (3, 1, "KC201", 'no Players tag before the first hand: write [Players "Ann, Bob, ..."] at the top of the log'),
    ]


@pytest.mark.parametrize(("tag", "meant"), [("Scorng", "Scoring"), ("Drow", "Draw"), ("Rule", "Rules"),
                                            ("Hand", "Hands"), ("Stacks", "Stack"), ("Dates", "Date")])
def test_a_tag_a_letter_from_a_known_one_is_a_misspelling(tag: str, meant: str) -> None:
    assert found(f'[Players "Ann, Bob"]\n[{tag} "1"]\n' + HAND + OUT) == [
        (2, 1, "KC206", f"unknown tag [{tag} ...]: it sets nothing; did you mean '{meant}'?")]


@pytest.mark.parametrize("tag", ["Event", "Site", "Round", "White", "Annotator", "Place", "Dealer", "Result"])
def test_other_tags_are_kept_unread(tag: str) -> None:
    assert found(f'[Players "Ann, Bob"]\n[{tag} "1"]\n' + HAND + OUT) == []


def test_claims_run_together_say_a_comma_is_missing() -> None:
    text = '[Players "Ann, Bob"]\n[Scoring "stacks"]\n' + HAND + OUT + "chips Ann 42 Bob 17\nscore Ann 8 Bob -8\n"
    assert [f for f in found(text) if f[2] == "KC205"] == [
        (8, 7, "KC205", "'Ann 42 Bob' is not a player here (Players: Ann, Bob); a comma is missing between "
                         "claims: write 'chips Ann 42, Bob 17'"),
        (9, 7, "KC205", "'Ann 8 Bob' is not a player here (Players: Ann, Bob); a comma is missing between "
                         "claims: write 'score Ann 8, Bob -8'"),
    ]


def test_a_player_named_so_needs_no_comma() -> None:
    text = '[Players "Ann 42 Bob, Cy"]\n[Scoring "stacks"]\n' + HAND.replace("Ann", "Ann 42 Bob").replace(
        "dealer Bob", "dealer Cy").replace("deal Bob", "deal Cy") + OUT.replace("Ann", "Ann 42 Bob") + \
        "chips Ann 42 Bob 58\n"
    assert [f for f in found(text) if f[2] == "KC205"] == []


def test_show_says_an_unfinished_hand_is_not_over(tmp_path: Path) -> None:
    log = tmp_path / "unfinished.log"
    log.write_text('[Players "Ann, Bob"]\n' + HAND + "Ann: QH->N; draw 5C\n", encoding="utf-8")
    code, out, _ = run("show", str(log))
    assert code == 0
    assert out.splitlines()[0] == f"{log}: hand 1, classic rules, dealer Bob, after its last line: the hand is not over"
    assert out.rstrip().endswith("Bob to play")
    log.write_text('[Players "Ann, Bob"]\n' + HAND + OUT, encoding="utf-8")
    assert run("show", str(log))[1].splitlines()[0].endswith(", at the end of the hand")


def test_score_says_an_empty_file_holds_no_hand(tmp_path: Path) -> None:
    log = tmp_path / "empty.log"
    log.write_text("", encoding="utf-8")
    code, out, _ = run("score", str(log))
    assert (code, out) == (0, "kcref score: 1 file, 0 hands (0 scored), 0 games (0 over)\n\n"
                              "No hand to score: the file holds no hand (a hand starts with a 'hand' line).\n")


@pytest.mark.parametrize(("data", "problem"), [
    (BINARY, "1:14: error KC003 this is a binary file, not a log (NUL byte)"),
    (NOT_UTF8, "2:1: error KC002 this file is not UTF-8 text (byte 0xff); save the log as UTF-8"),
])
def test_report_and_record_name_a_file_that_is_no_log_as_check_does(data: bytes, problem: str,
                                                                    tmp_path: Path) -> None:
    log = tmp_path / "binary.log"
    log.write_bytes(data)
    code, out, _ = run("check", "--no-source", str(log))
    assert code == 2 and out.splitlines()[0] == f"{log}:{problem}"
    code, _, err = run("report", str(log), "-o", str(tmp_path / "page.html"))
    assert code == 2 and err.splitlines()[0] == f"{log}:{problem}"
    code, _, err = run("record", str(log))
    assert code == 2 and err.splitlines()[0] == f"{log}:{problem}"
    assert err.splitlines()[-1] == f"kcref record: cannot resume: {log} is not a log kcref can read"
    assert log.read_bytes() == data


@pytest.mark.parametrize("value", ["²", "1" * 5000, "-5", "x"])
def test_a_count_tag_that_is_no_whole_number_says_so_in_words(value: str) -> None:
    """Digits int() refuses (a superscript two, too many of them) are named as any other bad
    value is, not with Python's own words."""
    text = f'[Players "Ann, Bob"]\n[Chips "{value}"]\nhand 1\nlayout N:5D E:JS S:KH W:2C\n'
    [error] = [d for d in check_text(text, "t.log").diagnostics if d.is_error]
    assert (error.line, error.code) == (2, "KC206")
    assert error.message.endswith("': expected a whole number"), error.message
