"""The reader compiles a regex only when a line needs it, and reads a first line as the grammar does."""

from __future__ import annotations

import re

import pytest

from kcref.model.diagnostics import Diagnostic
from kcref.model.events import Turn
from kcref.notation import reader
from kcref.notation.reader import read_text
from kcref.referee import grouping

PATH, LINENO = "t.log", 7
GETTERS = (reader._action_re, reader._cards_head_re, reader._card_re, reader._entry_re, reader._hand_re,
           reader._blocked_re, reader._tag_re, reader._line_end_re, reader.name_pattern, grouping._date_re)


LINES = ['[Players "Ann, Bob"]', '[Event "a#b"]', '[Site "é ♠\t x"]', '[E_1 "x"]', '[_E "x"]', '[1E "x"]',
         '[Event  "x"]', '[ Event "x"]', '[Event "x" ]', '[Event "a\\"b"]', '[Event "a"b"]', '[Event ""]',
         '[Évent "x"]', "hand 3", "hand 007", "hand 1234567890", "hand \u0663", "hand 3 dealer Zed",
         "hand 3 dealer pass", "hand 3 dealer Zed Lee", "hand 3 dealer Zed ", "blocked", "blocked ",
         "deal Zoe: 3H 7C QS 2D 9H 4S 5C", "deal Zoe Ann: 3H 7C", "deal draw: 3H", "deal Zoe : 3H", "Zoe: draw 10H",
         "Yan: KH->NE; S->NW; draw; pass"]


def _fields(item: object) -> object:
    if isinstance(item, Diagnostic) or item is None:
        return item
    return type(item), item.fields()  # type: ignore[attr-defined]


@pytest.mark.parametrize("line", LINES)
def test_the_quick_readings_of_a_first_line_are_the_grammars(line: str) -> None:
    reader._turn_heads.clear()  # names first met on this line
    [item] = list(read_text(line, PATH))
    assert _fields(item) == _fields(reader.parse_line(line, PATH, 1)), line


def test_a_log_compiles_only_the_regexes_its_lines_need() -> None:
    for getter in GETTERS:
        getter.cache_clear()
    reader._turn_heads.clear()
    reader._pieces.clear()
    assert [type(i) for i in read_text("Ann: KH->NE; draw 4C\nBob: pass\n", PATH)] == [Turn, Turn]
    compiled = {g for g in GETTERS if g.cache_info().currsize}
    assert compiled == {reader._action_re, reader.name_pattern}  # no "\r", so no line-end regex


@pytest.mark.parametrize("name", ["Ann", "Mary Jo", "O'Neil", "A.B-C", "Zoë", "x_1", "", " Ann", "Ann ", "A  B",
                                  "a:b", "٣", "A\u00a0B", "K♠"])
def test_is_name_is_the_name_regex(name: str) -> None:
    assert reader.is_name(name) is (re.fullmatch(reader.lexicon.NAME_RE, name) is not None)


@pytest.mark.parametrize("text", ["P1", "p6", "P7", "P0", "Q1", "P", "P12", "P١", ""])
def test_is_seat_tag_is_the_seat_regex(text: str) -> None:
    assert grouping.is_seat_tag(text) is (re.fullmatch(r"[Pp][1-6]", text) is not None)
