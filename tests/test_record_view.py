"""What ``kcref record`` shows at the end of a hand (won, blocked, revealed), and hostile text in its views."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from kcref.apps.record.session import record
from kcref.apps.record.view import compact_view, completions, full_table, prompt_text, settlement, standings
from kcref.referee.live import Expect, LiveLog
from tests.test_record_docs import _Typist
from tests.util import ROOT


def _fed(lines: list[str]) -> tuple[LiveLog, list[object]]:
    log = LiveLog("t.log")
    ended = []
    for line in lines:
        judged = log.feed(line)
        assert judged.accepted, judged
        if judged.verdict is not None:
            ended.append(judged.verdict)
    return log, ended


def test_a_blocked_hand_is_settled_when_it_blocks_and_again_at_its_blocked_line() -> None:
    lines = (ROOT / "tests" / "cases" / "rules" / "blocked_legal.log").read_text(encoding="utf-8").splitlines()
    log, ended = _fed(lines[:-1])
    assert len(ended) == 1 and ended[0].blocked  # the round of passes blocked it
    assert log.expect is Expect.HAND and log.turn is None
    assert settlement(ended[0]).startswith("The hand is blocked: nobody went out.\n")
    judged = log.feed("blocked")
    assert judged.accepted and judged.verdict is not None and judged.verdict.blocked
    assert "Scoring: none" in standings(log)


def test_a_hand_whose_cards_left_are_unknown_asks_for_the_reveal() -> None:
    lines = (ROOT / "samples" / "family-night.log").read_text(encoding="utf-8").splitlines()
    log, ended = _fed(lines[:30])  # up to Dad going out in hand 2; Mum's cards are unknown
    assert log.expect is Expect.REVEAL and prompt_text(log) == "reveal> "
    assert completions(log, "r") == (1, ["reveal Mum: "])
    assert "Mum 4 cards (unknown)" in settlement(ended[-1])
    judged = log.feed(lines[30])
    assert judged.verdict is not None and judged.verdict.points is not None
    assert "Mum 4 cards (AS 7S 9S 5H)" in settlement(judged.verdict)
    assert log.expect is Expect.HAND


def test_the_views_before_and_after_the_layout() -> None:
    log, _ = _fed(['[Players "Ann, Bob"]', "hand 1"])
    assert compact_view(log) == "next: deal\n"
    assert full_table(log) == "No table yet: the log expects deal.\n"
    log.feed("layout N:5D E:JS S:KH W:2C")
    assert compact_view(log).splitlines()[-1] == "next: Ann"
    assert "Ann to play" in full_table(log)


def test_hostile_text_is_escaped_at_the_prompt_too(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    out = io.StringIO()
    typed = ["hand 1", "layout N:5D E:JS S:KH W:2C", "Ann: 5H->\x1b[2J # \u202eevil", "Bob\x1b]0;x\x07: draw",
             "# \x1b[31mred", "quit"]
    record("night.log", [("Players", "Ann, Bob")], lambda log: _Typist(typed, out), out, io.StringIO())
    shown = out.getvalue().split("Recording a new log", 1)[1]
    after_prompts = "".join(line for line in shown.splitlines(keepends=True) if "> " not in line)
    assert "\x1b" not in after_prompts and "\u202e" not in after_prompts and "\x07" not in after_prompts
    assert "error KC1" in after_prompts
    assert (tmp_path / "night.log").read_text(encoding="utf-8").endswith("# \x1b[31mred\n")  # the log's own text
