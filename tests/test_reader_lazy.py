"""The reader reads canonical spellings without its regexes, exactly as the regexes read them,
and compiles a regex only when a line needs it."""

from __future__ import annotations

import dataclasses
import io
import re

import pytest

from kcref.engine.bots import play_log
from kcref.model.cards import DECK, Pile
from kcref.model.diagnostics import Diagnostic
from kcref.notation import reader
from kcref.notation.reader import read_runs, read_text
from kcref.referee import grouping
from kcref.referee.setup_checks import checked_hands

PATH, LINENO = "t.log", 7
GETTERS = (reader._action_re, reader._hand_re, reader._cards_line_re, reader._entry_re, reader._layout_re,
           reader._blocked_re, reader._tag_re, reader._card_token_re, reader._line_end_re, reader.name_pattern,
           grouping._date_re)


def _canonical_actions() -> list[str]:
    cards, piles = [c.text() for c in DECK], [p.value for p in Pile]
    return ([f"{c}->{p}" for c in cards for p in piles] + [f"{a}->{b}" for a in piles for b in piles]
            + ["draw", "pass"] + [f"draw {c}" for c in cards])


def test_canonical_actions_read_as_the_regex_reads_them() -> None:
    texts = _canonical_actions()
    assert len(texts) == 52 * 8 + 64 + 2 + 52
    pattern = reader._action_re()
    for text in texts:
        quick = reader._canonical_action(text)
        assert quick is not None, text
        m = pattern.fullmatch(text)
        assert m is not None, text
        # the reading of the match, as _fast_action made it before the quick path
        if m["card"]:
            slow: object = reader.PlayCard(reader.parse_card(m["card"]), reader.parse_pile(m["dst"]))
        elif m["src"]:
            slow = reader.MovePile(reader.parse_pile(m["src"]), reader.parse_pile(m["dst"]))
        elif m["draw"]:
            slow = reader.Draw(reader.parse_card(m["drawn"]) if m["drawn"] else None)
        else:
            slow = reader.PASS
        assert quick == slow and type(quick) is type(slow), text


@pytest.mark.parametrize("text", ["kh->NE", "KH ->NE", "KH->ne", "KH->", "->N", "KH→NE", "Draw", "draw  KH",
                                  "draw kh", "drawKH", "draw 1H", "PASS", "pass ", "1H->N", "N->X", "KH->NE->N"])
def test_other_spellings_are_left_to_the_regex(text: str) -> None:
    assert reader._canonical_action(text) is None


LINES = ['[Players "Ann, Bob"]', '[Event "a#b"]', '[Site "é ♠\t x"]', '[E_1 "x"]', '[_E "x"]', '[1E "x"]',
         '[Event  "x"]', '[ Event "x"]', '[Event "x" ]', '[Event "a\\"b"]', '[Event "a"b"]', '[Event ""]',
         '[Évent "x"]', "hand 3", "hand 007", "hand 1234567890", "hand \u0663", "hand 3 dealer Zed",
         "hand 3 dealer pass", "hand 3 dealer Zed Lee", "hand 3 dealer Zed ", "blocked", "blocked ",
         "deal Zoe: 3H 7C QS 2D 9H 4S 5C", "deal Zoe Ann: 3H 7C", "deal draw: 3H", "deal Zoe : 3H", "Zoe: draw 10H",
         "Yan: KH->NE; S->NW; draw; pass"]


def _fields(item: object) -> object:
    if isinstance(item, Diagnostic) or item is None:
        return item
    return type(item), {f.name: getattr(item, f.name) for f in dataclasses.fields(item)}  # type: ignore[arg-type]


@pytest.mark.parametrize("line", LINES)
def test_the_quick_readings_of_a_first_line_are_the_grammars(line: str) -> None:
    reader._name_cache.clear()  # names first met on this line
    [item] = list(read_text(line, PATH))
    assert _fields(item) == _fields(reader.parse_line(line, PATH, 1)), line


def test_a_canonical_log_compiles_no_regex_of_the_reader() -> None:
    text = "".join(play_log(3, "commercial", seed=6, hands=4)).replace("[Rules", '[Event "x"]\n[Rules')
    for getter in GETTERS:
        getter.cache_clear()
    reader._name_cache.clear()
    reader._action_cache.clear()
    reader._piece_cache.clear()
    reader._spaced_pieces.clear()
    records = list(checked_hands(read_runs(io.BytesIO(text.encode()), PATH), PATH))  # type: ignore[arg-type]
    assert sum(type(r) is grouping.HandRecord for r in records) == 4
    assert not any(isinstance(r, Diagnostic) for r in records)
    assert [g.cache_info().currsize for g in GETTERS] == [0] * len(GETTERS)


@pytest.mark.parametrize("name", ["Ann", "Mary Jo", "O'Neil", "A.B-C", "Zoë", "x_1", "", " Ann", "Ann ", "A  B",
                                  "a:b", "٣", "A\u00a0B", "K♠"])
def test_is_name_is_the_name_regex(name: str) -> None:
    assert reader.is_name(name) is (re.fullmatch(reader.lexicon.NAME_RE, name) is not None)


@pytest.mark.parametrize("text", ["P1", "p6", "P7", "P0", "Q1", "P", "P12", "P١", ""])
def test_is_seat_tag_is_the_seat_regex(text: str) -> None:
    assert grouping.is_seat_tag(text) is (re.fullmatch(r"[Pp][1-6]", text) is not None)
