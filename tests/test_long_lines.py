"""Long lines parse in linear time, to the very same events and errors; and importing kcref
leaves pyparsing's process-wide defaults alone."""

from __future__ import annotations

import os
import subprocess
import sys
import time

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from kcref.model.diagnostics import Diagnostic
from kcref.model.events import Turn
from kcref.notation import reader
from tests.test_conformance import CASE_PATH, CASES, Case, render
from tests.test_fastpath import lines as near_valid_lines
from tests.util import ROOT


def _read_all(text: str, shorten_from: int) -> list[str]:
    old = reader.SHORTEN_FROM
    reader.SHORTEN_FROM = shorten_from
    try:
        return [render(i) for i in reader.read_text(text, CASE_PATH, trivia=True)]
    finally:
        reader.SHORTEN_FROM = old


def _parse(line: str, shorten_from: int) -> object:
    old = reader.SHORTEN_FROM
    reader.SHORTEN_FROM = shorten_from
    try:
        item = reader.parse_line(line, CASE_PATH, 1)
    finally:
        reader.SHORTEN_FROM = old
    return None if item is None else render(item)  # type: ignore[arg-type]


NEVER = 10**9


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_every_case_reads_the_same_when_shortened(case: Case) -> None:
    assert _read_all(case.text, 0) == list(case.expected)


turn_pieces = st.lists(st.sampled_from(["draw", "4S->N", " KH -> NE", "pass", "N->E", "draw 10C", "", " ", "drwa",
                                        "4X->N", "4S->Q", "score", "4S N", "\t8H->S\t", "11H->N", "#c", " # c"]),
                       min_size=1, max_size=12)


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(["Ann", " Ann", "\tMary Jo", "P1 ", "score Cy", "pot"]), turn_pieces, st.booleans())
@example("Ann", ["draw", "draw", ""], False)
@example(" Ann", ["4S->N", "draw", "drwa", "draw", "pass"], False)
def test_shortened_turns_read_as_the_whole_line(head: str, pieces: list[str], trailing: bool) -> None:
    line = f"{head}:" + ";".join(pieces) + (";" if trailing else "")
    assert _parse(line, 0) == _parse(line, NEVER)


@settings(max_examples=150, deadline=None)
@given(near_valid_lines)
def test_shortened_lines_read_as_the_whole_line(line: str) -> None:
    assert _parse(line, 0) == _parse(line, NEVER)


def _time_parse(line: str) -> float:
    start = time.perf_counter()
    reader.parse_line(line, "t.log", 1)
    return time.perf_counter() - start


def test_a_64k_turn_line_with_one_late_typo_parses_quickly() -> None:
    for n in (5_000, 10_000):
        line = " Ann: " + "; ".join(["4S->N"] * n) + "; drwa; draw"
        item = reader.parse_line(line, "t.log", 1)
        assert isinstance(item, Diagnostic) and item.code == "KC104"
        assert item.column == line.index("drwa") + 1
    big = " Ann: " + "; ".join(["4S->N"] * 9_000) + "; drwa"
    assert len(big) > 60_000
    assert min(_time_parse(big) for _ in range(2)) < 3.0
    ok = " Ann: " + "; ".join(["draw"] * 12_000)
    turn = reader.parse_line(ok, "t.log", 1)
    assert isinstance(turn, Turn) and len(turn.actions) == 12_000 and turn.cols[-1] == len(ok) - 3
    assert min(_time_parse(ok) for _ in range(2)) < 3.0


def test_reading_is_linear_in_the_number_of_actions() -> None:
    def cost(n: int) -> float:
        line = " Ann: " + "; ".join(["4S->N", "draw 10C"] * (n // 2)) + "; 4S->Q"
        return min(_time_parse(line) for _ in range(3))

    small, large = cost(5_000), cost(10_000)
    assert large < small * 4 + 0.05, (small, large)  # quadratic would be 4 times, linear twice


def test_the_grammar_names_no_result_per_action() -> None:
    """pyparsing copies the list of a results name at each repeat: one named result per action
    made the grammar itself quadratic in the number of actions."""
    from kcref.notation import grammar

    result = grammar.parse_line("Ann: " + "; ".join(["draw", "4S->N", "N->E", "pass"] * 50))
    (turn,) = result
    assert len(turn["actions"]) == 200
    assert turn["actions"].as_dict() == {}


def test_importing_kcref_leaves_pyparsing_defaults_alone() -> None:
    code = """
import pyparsing as pp
import kcref, kcref.notation.grammar, kcref.notation.reader
from kcref.model.events import HandStart
from kcref.notation import grammar
assert pp.Word(pp.alphas)[...].parse_string("a\\nb").as_list() == ["a", "b"]
assert pp.Word(pp.alphas)[...].parse_string("a\\r\\nb\\tc").as_list() == ["a", "b", "c"]
(event,) = kcref.notation.reader.read_text("hand 1\\tdealer Ann")
assert isinstance(event, HandStart) and event.dealer == "Ann"
try:
    grammar.parse_line("hand\\n1")
except pp.ParseBaseException:
    pass
else:
    raise AssertionError("a newline must not separate words")
pp.ParserElement.set_default_whitespace_chars(" ")  # a user's own choice changes nothing in kcref
(event,) = kcref.notation.reader.read_text("hand\\t2")
assert event.number == 2
print("ok")
"""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=60)
    assert result.stdout.strip() == "ok", result.stderr


@pytest.mark.parametrize("line", [
    "Ann: " + "d" * 60_000,
    "Ann: 4" + "X" * 60_000 + "->N",
    "Ann: 4S->" + "Q" * 60_000,
    "x" * 60_000 + " 1",
    "hand 1 " + "d" * 60_000,
    '[Event "a"] ' + "z" * 60_000,
    "deal " + "A" * 60_000 + " 4S",
])
def test_messages_quote_clipped_words_and_suggest_only_for_short_ones(line: str) -> None:
    start = time.perf_counter()
    item = reader.parse_line(line, "t.log", 1)
    assert time.perf_counter() - start < 3.0
    assert isinstance(item, Diagnostic)
    assert len(item.message) < 400 and "…" in item.message and "did you mean" not in item.message


def test_a_short_typo_still_gets_a_suggestion() -> None:
    item = reader.parse_line("Ann: 4S->N; drwa", "t.log", 1)
    assert isinstance(item, Diagnostic) and item.message.endswith("did you mean 'draw'?")


def test_a_64k_line_of_any_shape_parses_in_bounded_memory() -> None:
    import tracemalloc

    n = 64 * 1024 - 100
    q = n // 4  # lines of many tokens that the grammar reads token by token: a quarter, to stay quick
    shapes = [
        '[Event "' + "x" * n + '"]',
        '[Event "' + "x" * n,
        " deal Ann: " + " ".join(["4S"] * (q // 3)) + " 4X",
        " layout " + " ".join(["N:5D"] * (q // 5)),
        " score " + ", ".join(["Ann 1"] * (q // 7)),
        " Ann: " + "; ".join(["draw"] * (n // 6)) + "; x",
        "hand " + "1" * n,
    ]
    for line in shapes:
        tracemalloc.start()
        try:
            reader.parse_line(line, "t.log", 1)
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
        assert peak < 32 * 1024 * 1024, (line[:20], peak)
