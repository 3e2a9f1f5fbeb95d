"""The server's judging: the whole text judged as ``kcref check`` judges it, and after any edit
the same again, though only the edited hand (and the hands that depend on it) is judged."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kcref.apps.lsp.judging import Judged, diagnostics_of, judge, rejudge
from kcref.model.diagnostics import end_column
from kcref.referee.pipeline import check_text
from tests.util import ROOT

LOGS = sorted([*ROOT.glob("samples/**/*.log"), *ROOT.glob("tests/cases/**/*.log")])
PIECES = ("5S", "->", "E", " ", ";", "x", "draw", "# kcref: ignore[KC301]", "hand 9", '[Rules "classic"]', "\n",
          "deal Ann: 2C", "chips Ann 3", "\x00", "\r")


def _check(text: str) -> list[tuple[int, int, str, str, str]]:
    return diagnostics_of(check_text(text, "night.log").diagnostics)


def _text(path: Path) -> str:
    return path.read_text(encoding="utf-8", errors="surrogateescape")


@pytest.mark.parametrize("path", LOGS, ids=lambda p: str(p.relative_to(ROOT)))
def test_whole_text_as_check(path: Path) -> None:
    text = _text(path)
    assert diagnostics_of(judge(text, "night.log").diagnostics) == _check(text)


def _edited(text: str, rng: random.Random) -> str:
    lines = text.split("\n")
    at = rng.randrange(len(lines))
    kind = rng.randrange(4)
    if kind == 0:
        lines[at] = lines[at][:-1]
    elif kind == 1:
        lines.insert(at, lines[rng.randrange(len(lines))])
    elif kind == 2 and len(lines) > 1:
        del lines[at]
    else:
        cut = rng.randrange(len(lines[at]) + 1)
        lines[at] = lines[at][:cut] + rng.choice(PIECES) + lines[at][cut:]
    return "\n".join(lines)


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(LOGS), st.randoms(use_true_random=False), st.integers(1, 6))
def test_edits_judged_again_as_check(path: Path, rng: random.Random, edits: int) -> None:
    text = _text(path)
    judged: Judged = judge(text, "night.log")
    for _ in range(edits):
        text = _edited(text, rng)
        judged = rejudge(judged, text, "night.log")
        assert diagnostics_of(judged.diagnostics) == _check(text)


def test_an_edit_in_the_last_hand_judges_that_hand_alone() -> None:
    text = _text(ROOT / "samples/commercial-night.log")
    judged = judge(text, "night.log")
    assert judged.hands_judged == len(judged.hands) > 2 and not judged.whole_only
    lines = text.rstrip("\n").split("\n")
    last = max(i for i, line in enumerate(lines) if "->" in line)
    lines[last] = lines[last].replace("->", "->", 1) + "  # a note"
    edited = "\n".join(lines) + "\n"
    again = rejudge(judged, edited, "night.log")
    assert again.hands_judged == 1
    assert diagnostics_of(again.diagnostics) == _check(edited)
    # An edit that changes the chips carried on judges the hands after it too.
    first_hand = judged.hands[0].line
    broken = edited.split("\n")
    turn = next(i for i in range(first_hand, len(broken)) if "->" in broken[i])
    broken[turn] = broken[turn].split(";")[0] + "; pass"
    again = rejudge(judged, "\n".join(broken), "night.log")
    assert diagnostics_of(again.diagnostics) == _check("\n".join(broken))


@pytest.mark.parametrize(("line", "column", "end"), [
    ("Bob: 5S->E; draw 7S", 6, 11),
    ("Bob: 5S->E; draw 7S", 1, 4),
    ("chips Ann 42", 11, 13),
    ('[Plyers "Ann"]', 2, 8),
    ("ab", 3, 3),
    ("a b", 2, 3),
])
def test_end_column_covers_the_token(line: str, column: int, end: int) -> None:
    assert end_column(line, column) == end
