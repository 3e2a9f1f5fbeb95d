"""Stacks are kept through one game (ruling 23): after the hand that ends a game at ``Target`` (or
after ``Hands``), the next hand starts a new game with fresh stacks. check, show, score, report
and record all count the chips so, on the same log."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

from kcref.apps.report.data import HandView, Part, page_data
from kcref.cli import main
from kcref.engine.carry import ChipCarry, game_over
from kcref.files.inputs import resolve
from kcref.model.options import resolve as options_of
from kcref.referee.pipeline import check_text
from tests.util import ROOT

# Ann reaches a stack of 58 in hand 1, past Target 55: game 1 is over. Hand 2 starts game 2 with
# 50 each (49 after the ante), and ends at 24 and 76; carried on, it would end at 32 and 68.
LOG = """[Players "Ann, Bob"]
[Scoring "stacks"]
[Target "55"]

hand 1 dealer Bob
deal Ann: QH JS 10H 9S 8H 7S 6H
deal Bob: 2H 3H 4H 5H 9H 2S 3S
layout N:KS E:2C S:3D W:4C
Ann: QH->N; JS->N; 10H->N; 9S->N; 8H->N; 7S->N; 6H->N # out
chips Ann 58, Bob 42

hand 2 dealer Ann
deal Bob: QH JS 10H 9S 8H 7S 6H
deal Ann: KH KD 2D 4D 5D 6D 7D
layout N:KS E:2C S:3D W:4C
Bob: QH->N; JS->N; 10H->N; 9S->N; 8H->N; 7S->N; 6H->N # out
chips Ann 24, Bob 76
"""
LAYOUT_2, END = 15, [24, 76]
START = [49, 49]
"""Hand 2's stacks once the antes are in: 50 each, less 1."""


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args), env={"KCREF_NO_CACHE": "1", "NO_COLOR": "1"})
    return result.exit_code, result.stdout


def chips_shown(out: str) -> list[int]:
    return [int(line.split("chips")[1].split()[0]) for line in out.splitlines() if " chips " in line]


def test_check_show_score_report_and_record_agree_on_fresh_stacks(tmp_path: Path) -> None:
    log = tmp_path / "stacks.log"
    log.write_text(LOG, encoding="utf-8")
    # check: the chips stated after each hand are the referee's.
    assert [d.code for d in check_text(LOG, "stacks.log").diagnostics] == ["KC404", "KC404"]
    assert run("check", "--quiet", str(log))[0] == 0
    # show: hand 2 opens with fresh stacks and ends with them.
    code, out = run("show", str(log), "--line", str(LAYOUT_2))
    assert code == 0 and chips_shown(out) == START
    assert chips_shown(run("show", str(log))[1]) == END
    # score: game 1 ends with hand 1 at the target, game 2 is hand 2 alone, from 50 each.
    code, out = run("score", "--format", "json", str(log))
    doc = json.loads(out)
    assert code == 0
    assert [(g["number"], g["hands"], g["over"], g["ended_by"]) for g in doc["games"]] == [
        (1, 1, True, "target"), (2, 1, True, "target")]
    second = doc["hands"][1]
    assert second["game"] == 2 and [50 + t for t in second["game_totals"].values()] == END
    # report: the replay of hand 2 steps from fresh stacks to the same end.
    parts: list[Part] = []
    page_data(resolve([str(log)]), parts.append)
    replay = [p for p in parts if isinstance(p, HandView)][1].replay
    # Each step: [lines, player, stock, status, piles, seats, unknown, stacks, ...]; None where unchanged.
    stacks = [step[7] for step in replay["steps"] if len(step) > 7 and step[7] is not None]
    assert stacks[0] == START and stacks[-1] == END
    # record: the log recorded line by line takes every chips line as stated.
    done = subprocess.run([sys.executable, "-m", "kcref", "record", str(tmp_path / "new.log")], input=LOG.encode(),
                          capture_output=True, timeout=60, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert (done.returncode, done.stderr) == (0, b"")
    assert (tmp_path / "new.log").read_text(encoding="utf-8") == LOG


def test_a_game_of_stacks_ends_at_the_target_or_after_its_hands() -> None:
    opts = options_of("classic", {"Scoring": "stacks", "Target": "60", "Hands": "3"})
    assert game_over(opts, [59, 41], 1) == "" and game_over(opts, [60, 40], 1) == "target"
    assert game_over(opts, [50, 50], 3) == "hands"
    carry = ChipCarry()
    assert carry.after(opts, ("Ann", "Bob"), (55, 45), 0) == ""
    assert (carry.stacks, carry.hands) == ({"Ann": 55, "Bob": 45}, 1)
    assert carry.after(opts, ("Ann", "Bob"), (61, 37), 2) == "target"
    assert (carry.stacks, carry.pot, carry.hands) == ({}, 0, 0)  # the next hand starts afresh
