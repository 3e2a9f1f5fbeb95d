"""Fuzzing the whole pipeline: random text and mutated samples give diagnostics, never a crash."""

from __future__ import annotations

import re

from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from kcref.cli import main
from kcref.model.codes import BY_CODE
from kcref.referee.pipeline import check_text
from tests.util import ROOT

SAMPLE_LINES = [
    line
    for path in sorted((ROOT / "samples").rglob("*.log"))
    for line in path.read_text(encoding="utf-8").splitlines()
]
TOKENS = ["hand", "deal", "layout", "draw", "pass", "blocked", "reveal", "->", ";", ":", "#", "[", "]",
          '"', "P1", "Ann", "KS", "10h", "T♦️", "NE", "N", " ", "\t", "\ufeff", "\r", "\x00", "é"]


def assert_sane(text: str) -> None:
    report = check_text(text, "fuzz.log")
    lines = re.split(r"\r\n?|\n", text)  # the line ends of the reader
    for d in report.diagnostics:
        assert d.code in BY_CODE
        assert d.severity is BY_CODE[d.code].severity
        if d.line:
            assert 1 <= d.line <= max(len(lines), 1)
            assert 1 <= d.column <= len(lines[d.line - 1]) + 1, d


@settings(max_examples=150, deadline=None)
@given(st.text(max_size=300))
def test_random_text(text: str) -> None:
    assert_sane(text)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from(TOKENS) | st.sampled_from(SAMPLE_LINES), max_size=40))
def test_token_soup(parts: list[str]) -> None:
    assert_sane("".join(parts))


@settings(max_examples=100, deadline=None)
@given(st.lists(st.sampled_from(SAMPLE_LINES), max_size=30), st.data())
def test_mutated_samples(lines: list[str], data: st.DataObject) -> None:
    if lines:
        i = data.draw(st.integers(0, len(lines) - 1))
        op = data.draw(st.sampled_from(["drop", "dup", "swap", "cut", "insert"]))
        line = lines[i]
        if op == "drop":
            del lines[i]
        elif op == "dup":
            lines.insert(i, line)
        elif op == "swap" and line:
            j = data.draw(st.integers(0, len(line) - 1))
            lines[i] = line[:j] + data.draw(st.sampled_from(TOKENS)) + line[j + 1:]
        elif op == "cut":
            lines[i] = line[: len(line) // 2]
        else:
            lines.insert(i, data.draw(st.text(max_size=20)))
    assert_sane("\n".join(lines))


@settings(max_examples=40, deadline=None)
@given(st.binary(max_size=200))
def test_random_bytes_through_the_cli(data: bytes) -> None:
    result = CliRunner().invoke(main, ["check", "-"], input=data)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert result.exit_code in (0, 1, 2)
