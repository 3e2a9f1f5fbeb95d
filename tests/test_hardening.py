"""Hardening: self-play logs with one random edit, and the crash corpus, never crash kcref."""

from __future__ import annotations

import random
from functools import cache
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from kcref.cli import main
from kcref.engine.bots import play_log
from kcref.model.cards import DECK
from kcref.referee.pipeline import check_text
from tests.util import ROOT

CORPUS = sorted((ROOT / "tests" / "corpus").glob("*.log"))
EDITS = ("swap token", "drop line", "duplicate line", "change card", "swap lines")
TOKENS = ("draw", "pass", "->", ";", ":", "N", "NE", "SW", "P1", "P2", "Bob", "hand", "blocked",
          "reveal", "layout", "deal", "#", "10", "T", "♠", "KS", "AH", "2C")


@cache
def played(index: int) -> tuple[str, ...]:
    rules = ("classic", "commercial", "family")[index % 3]
    bot = ("greedy", "random")[index % 2]
    text = "".join(play_log(2 + index % 5, rules, seed=index, hands=2, bot=bot))
    return tuple(text.split("\n"))


def edit(lines: list[str], rng: random.Random, kind: str) -> list[str]:
    """One random edit of the given kind (the log loses nothing else)."""
    i = rng.randrange(len(lines))
    line = lines[i]
    if kind == "swap token" and line.strip():
        words = line.split(" ")
        words[rng.randrange(len(words))] = rng.choice(TOKENS)
        lines[i] = " ".join(words)
    elif kind == "drop line":
        del lines[i]
    elif kind == "duplicate line":
        lines.insert(i, line)
    elif kind == "change card":
        cards = [str(c) for c in DECK if str(c) in line]
        if cards:
            lines[i] = line.replace(rng.choice(cards), str(rng.choice(DECK)), 1)
    else:
        j = rng.randrange(len(lines))
        lines[i], lines[j] = lines[j], lines[i]
    return lines


def assert_only_diagnostics(text: str) -> None:
    report = check_text(text, "edited.log")
    lines = text.split("\n")
    for d in report.diagnostics:
        assert 1 <= d.line <= len(lines), d
        assert 1 <= d.column <= len(lines[d.line - 1]) + 1, d


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 11), st.integers(0, 2**32 - 1), st.sampled_from(EDITS))
def test_one_edit_of_a_played_log(index: int, seed: int, kind: str) -> None:
    lines = edit(list(played(index)), random.Random(seed), kind)
    assert_only_diagnostics("\n".join(lines))


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 11), st.integers(0, 2**32 - 1), st.sampled_from(EDITS))
def test_one_edit_through_the_cli(index: int, seed: int, kind: str) -> None:
    text = "\n".join(edit(list(played(index)), random.Random(seed), kind))
    result = CliRunner().invoke(main, ["check", "-"], input=text.encode())
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert result.exit_code in (0, 1)


@pytest.mark.parametrize("path", CORPUS, ids=lambda p: p.name)
def test_corpus(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    assert_only_diagnostics(text)
    for args in (["check", str(path)], ["fmt", str(path)], ["fmt", "--check", str(path)]):
        result = CliRunner().invoke(main, args)
        assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
        assert result.exit_code in (0, 1)


def test_the_example_bot_plays_clean() -> None:
    import runpy

    module = runpy.run_path(str(ROOT / "examples" / "cautious_bot.py"))
    for seed in range(3):
        assert module["main"](seed) == 0
