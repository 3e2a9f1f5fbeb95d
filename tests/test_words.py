"""model/words.py: the shared plural, list of names and "did you mean"."""

from __future__ import annotations

import difflib

from hypothesis import given
from hypothesis import strategies as st

from kcref.model.words import did_you_mean, names_list, plural


def test_plural() -> None:
    assert plural(1, "card") == "1 card" and plural(0, "card") == "0 cards" and plural(2, "card") == "2 cards"
    assert plural(1, "penalty", "penalties") == "1 penalty" and plural(3, "penalty", "penalties") == "3 penalties"


def test_names_list() -> None:
    assert [names_list(n) for n in ([], ["Ann"], ["Ann", "Bob"], ["Ann", "Bob", "Cy"])] == [
        "", "Ann", "Ann and Bob", "Ann, Bob and Cy"]


def test_did_you_mean_suggests_the_closest_choice() -> None:
    assert did_you_mean("drwa", ("draw", "pass")) == "; did you mean 'draw'?"
    assert did_you_mean("famly", ["classic", "commercial", "family"]) == "; did you mean 'family'?"


def test_no_suggestion_for_a_choice_an_empty_word_or_nothing_close() -> None:
    assert did_you_mean("draw", ("draw", "pass")) == ""
    assert did_you_mean("", ("draw",)) == ""
    assert did_you_mean("zzzz", ("draw", "pass")) == ""
    assert did_you_mean("drwa", ()) == ""


def test_case_counts() -> None:
    assert did_you_mean("ann", ["Ann"]) == "; did you mean 'Ann'?"  # not folded: not one of the choices


def test_a_very_long_word_is_ruled_out_quickly() -> None:
    assert did_you_mean("draw" * 50_000, ("draw", "pass")) == ""


@given(st.text("adrwpsA", max_size=24), st.lists(st.text("adrwps", min_size=1, max_size=8), max_size=4))
def test_the_length_test_only_saves_time(word: str, choices: list[str]) -> None:
    """The same answer as asking difflib directly."""
    close = difflib.get_close_matches(word, choices, n=1, cutoff=0.6)
    expected = f"; did you mean '{close[0]}'?" if close and word and word not in choices else ""
    assert did_you_mean(word, choices) == expected


def test_names_list_with_or() -> None:
    assert names_list(["N"], "or") == "N" and names_list(["N", "E", "S"], "or") == "N, E or S"
