"""kcref's own drawing of tabulate's ``simple`` format: byte for byte tabulate's, or none."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tabulate import tabulate

from kcref.apps.score import score_paths
from kcref.model.options import preset, with_scoring
from kcref.model.systems import PENALTY
from kcref.render import simple_table
from kcref.render.simple_table import draw
from tests.engine.bot import game_log

ROOT = Path(__file__).resolve().parent.parent

TEXT = st.one_of(st.sampled_from(["Ann", "Bob", "", " x", "y ", "12", "1e5", "inf", "nan", "True", "a b", "Zoë",
                                  "全", "-", "..", "blocked"]),
                 st.text(max_size=6))
CELL = st.one_of(st.none(), st.integers(-10**6, 10**12), TEXT, st.booleans(), st.floats(allow_nan=False))


@st.composite
def tables(draw_: st.DrawFn) -> tuple[list[str], list[list[object]], list[int]]:
    width = draw_(st.integers(1, 5))
    headers = draw_(st.lists(TEXT, min_size=width, max_size=width))
    kinds = draw_(st.lists(st.sampled_from(["int", "text", "any"]), min_size=width, max_size=width))
    column = {"int": st.one_of(st.none(), st.integers(-10**6, 10**12)), "text": st.one_of(st.none(), TEXT),
              "any": CELL}
    rows = draw_(st.lists(st.tuples(*(column[k] for k in kinds)).map(list), max_size=6))
    text_columns = draw_(st.lists(st.integers(0, width - 1), unique=True))
    return headers, rows, text_columns


def _tabulate(headers: list[str], rows: list[list[object]], text_columns: list[int]) -> str:
    return str(tabulate(rows, headers, tablefmt="simple", missingval="",
                        disable_numparse=text_columns if rows else False))


@settings(max_examples=300, deadline=None)
@given(tables())
def test_drawn_as_tabulate_draws_it_or_not_at_all(table: tuple[list[str], list[list[object]], list[int]]) -> None:
    headers, rows, text_columns = table
    lines = draw(rows, headers, text_columns)  # type: ignore[arg-type]
    if lines is not None:
        assert "\n".join(lines) == _tabulate(headers, rows, text_columns)


def test_a_standings_table_is_drawn_here() -> None:
    headers = ["rank", "player", "points", "hands played", "hands won", "games won"]
    rows: list[list[object]] = [[1, "Cy", 7033, 1500, 389, 29], [2, "Dee", None, 1500, 372, 28],
                                [10, "Bob-the-builder", -5, 3, 0, 0]]
    lines = draw(rows, headers, (1,))  # type: ignore[arg-type]
    assert lines is not None
    assert "\n".join(lines) == _tabulate(headers, rows, [1])


def test_what_is_not_plain_is_left_to_tabulate() -> None:
    assert draw([["Zoë", 1]], ["player", "points"], (0,)) is None
    assert draw([["12", 1]], ["winner", "points"]) is None  # tabulate reads 12 as a number here
    assert draw([], ["winner", "points"]) is None
    assert draw([[True, 1]], ["flag", "points"]) is None


@pytest.mark.parametrize("by", ["player", "hand", "night"])
def test_score_output_is_tabulates_whether_drawn_here_or_not(by: str, tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    # Relative names: a path long enough to be clipped (``…/night0.log``, not ASCII) is not plain,
    # and how long tmp_path is depends on the machine and the test runner.
    monkeypatch.chdir(tmp_path)
    logs = []
    for seed, rules in enumerate([with_scoring(preset("classic"), PENALTY), preset("commercial")]):
        log = Path(f"night{seed}.log")
        log.write_text(game_log(random.Random(seed), rules, 3, 12), encoding="utf-8")
        logs.append(str(log))
    drawn_here = []
    real = simple_table.draw

    def spying(*args: Any) -> Iterator[str] | None:
        lines = real(*args)
        drawn_here.append(lines is not None)
        return lines

    monkeypatch.setattr(simple_table, "draw", spying)
    here = score_paths(logs, by, "simple").out
    assert drawn_here == [True]
    monkeypatch.setattr(simple_table, "draw", lambda *args: None)
    assert score_paths(logs, by, "simple").out == here


def test_the_default_score_output_does_not_import_tabulate(tmp_path: Path) -> None:
    log = tmp_path / "night.log"
    log.write_text(game_log(random.Random(3), preset("commercial"), 4, 5), encoding="utf-8")
    code = ("import sys\nfrom kcref.cli import main\nsys.argv = ['kcref', 'score', sys.argv[1]]\ntry:\n    main()\n"
            "except SystemExit:\n    pass\nprint('tabulate' in sys.modules)")
    ran = subprocess.run([sys.executable, "-c", code, str(log)], capture_output=True, text=True, check=True,
                         env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert "rank  player" in ran.stdout
    assert ran.stdout.endswith("False\n")
