"""The reader's fast path agrees with the normative grammar on every line, and reading never raises.

The fast path may decline a line (return None) but whatever it returns must be exactly what the
grammar reads: the same event, and also the same span, columns and comment, which dataclass
equality ignores and which are therefore compared field by field here.
"""

from __future__ import annotations

import re

from hypothesis import example, given, settings
from hypothesis import strategies as st

from kcref.model.diagnostics import Diagnostic
from kcref.model.events import Event, Turn
from kcref.notation.reader import fast_line, parse_line, read_lines, read_text

PATH = "fast.log"
LINENO = 7
SETTINGS = settings(max_examples=200, deadline=None)

# --- pieces of lines: mostly valid spellings, with near misses one time in ten ---------------------
GOOD_RANKS = ["A", "a", "2", "5", "9", "10", "T", "t", "J", "q", "K", "k"]
BAD_RANKS = ["1", "11", "0", "X", "\u212a"]  # the last is the Kelvin sign, which lower() folds to 'k'
GOOD_SUITS = ["S", "h", "D", "c", "♠", "♥", "♦", "♣", "♤", "♡", "♢", "♧", "♠\ufe0f", "♧\ufe0f"]
BAD_SUITS = ["H\ufe0f", "♠\ufe0f\ufe0f", "X", "Z", "ſ", "♠x"]
GOOD_PILES = ["N", "E", "S", "W", "NE", "NW", "SE", "SW", "n", "e", "s", "w", "ne", "Nw", "sE", "sw"]
BAD_PILES = ["X", "NN", "north", "ſ", "S1", "N'"]
GOOD_ARROWS = ["->", "→", " -> ", "\t->\t", " →"]
BAD_ARROWS = ["-", ">", "- >", "—", "=>"]
GOOD_BLANKS = ["", " ", "  ", "\t", " \t"]
BAD_BLANKS = ["\r", "\u00a0", "\u3000"]
GOOD_NAMES = ["Ann", "Bob", "Cy", "P1", "P6", "p3", "Mary Jo", "O'Neil", "J.R. Smith-Jones", "Zoë", "handα",
              "dealα", "Handel", "Hand Lee", "dealer", "draw", "Draw", "pass", "hand's", "ann_2", "٣", "A",
              "hand", "deal", "blocked", "reveal", "layout", "blocKed", "Layouts", "reveal-x", "S", "KS"]
BAD_NAMES = ["", "Mary  Jo", " Ann", "Ann\t", "[Ann", "#Ann", "Ann;", "Ann->"]
WORDS = ["drwa", "pas", "paſs", "dra", "drawn", "hand", "deal", "dealer", "x", "'", ".", "-", "1", "123456789",
         "1234567890"]
COMMENTS = ["", "", "", "#", "# out", "#x", "# then 8H->N; draw", "## two # marks", "# tab\tin", "# trail  ",
            "#\r", "# 'quote\""]


def pick(draw: st.DrawFn, good: list[str], bad: list[str], noisy: bool) -> str:
    """A spelling from ``good`` or, when ``noisy``, one time in twenty from ``bad``."""
    if noisy and draw(st.integers(0, 19)) == 0:
        return draw(st.sampled_from(bad))
    return draw(st.sampled_from(good))


@st.composite
def card(draw: st.DrawFn, noisy: bool = True) -> str:
    return pick(draw, GOOD_RANKS, BAD_RANKS, noisy) + pick(draw, GOOD_SUITS, BAD_SUITS, noisy)


@st.composite
def action(draw: st.DrawFn, noisy: bool = True) -> str:
    """One action, well formed unless ``noisy`` makes it a near miss."""
    def arrow() -> str:
        return pick(draw, GOOD_ARROWS, BAD_ARROWS, noisy)

    def pile() -> str:
        return pick(draw, GOOD_PILES, BAD_PILES, noisy)

    kind = draw(st.integers(0, 12))
    if kind < 5:
        return draw(card(noisy)) + arrow() + pile()
    if kind < 8:
        return pile() + arrow() + pile()
    if kind < 11:
        text = pick(draw, ["draw", "DRAW", "Draw", "dRaW"], ["drwa", "draws", "draw'", "dra"], noisy)
        if draw(st.booleans()):
            text += pick(draw, [" ", "\t", "  "], ["", "\r"], noisy) + draw(card(noisy))
        return text
    if kind < 12 or not noisy:
        return pick(draw, ["pass", "PASS", "Pass"], ["paſs", "pas", "pass.", "pass KS"], noisy)
    return draw(st.sampled_from(WORDS + ["", "8H", "S"]))


@st.composite
def turn_line(draw: st.DrawFn, noisy: bool = True) -> str:
    """A turn line: player, ':', actions joined by ';', maybe a trailing ';' and a comment."""
    def blank() -> str:
        return pick(draw, GOOD_BLANKS, BAD_BLANKS, noisy)

    acts = draw(st.lists(action(noisy), min_size=1, max_size=5))
    text = pick(draw, GOOD_NAMES, BAD_NAMES, noisy) + pick(draw, [":", " :", "\t:"], ["::", ";", ""], noisy)
    for i, act in enumerate(acts):
        if i:
            text += blank() + pick(draw, [";"], [";;", ",", ":", ""], noisy)
        text += blank() + act
    if draw(st.booleans()):
        text += blank() + ";"
    return text + blank() + draw(st.sampled_from(COMMENTS))


@st.composite
def other_line(draw: st.DrawFn, noisy: bool = True) -> str:
    """A hand, deal, reveal, layout, blocked, tag or comment line, near misses when ``noisy``."""
    def kw(w: str) -> str:
        return pick(draw, [w, w.upper(), w.capitalize()], [w[:-1], w + "s", w + "'"], noisy)

    def sp() -> str:
        return pick(draw, [" ", "  ", "\t"], ["", "\r", "\u00a0"], noisy)

    def opt() -> str:
        return pick(draw, ["", " ", "\t"], ["\r"], noisy)

    def name() -> str:
        return pick(draw, GOOD_NAMES, BAD_NAMES, noisy)

    kind = draw(st.integers(0, 5))
    if kind == 0:
        text = kw("hand")
        if draw(st.booleans()):
            text += sp() + pick(draw, ["1", "12", "007", "123456789"], ["٣", "1234567890", "x", "1a", "-1"], noisy)
        if draw(st.booleans()):
            text += sp() + kw("dealer") + sp() + name()
    elif kind == 1:
        cards = [draw(card(noisy)) for _ in range(draw(st.integers(0 if noisy else 1, 8)))]
        text = kw(draw(st.sampled_from(["deal", "reveal"]))) + sp() + name() + opt() + ":" + opt()
        text += "".join((sp() if i else "") + c for i, c in enumerate(cards))
    elif kind == 2:
        entries = [pick(draw, GOOD_PILES, BAD_PILES, noisy) + opt() + pick(draw, [":"], ["", ";"], noisy) + opt()
                   + draw(card(noisy)) for _ in range(draw(st.integers(0 if noisy else 1, 6)))]
        text = kw("layout") + "".join(sp() + e for e in entries)
    elif kind == 3:
        text = kw("blocked") + pick(draw, [""], [" now", ":", ";"], noisy)
    elif kind == 4:
        value = draw(st.text(st.sampled_from('ab #"\\]['), max_size=8))
        text = "[" + opt() + pick(draw, ["Event", "Players"], ["1x", ""], noisy) + opt() + f'"{value}"' + opt() + "]"
    else:
        text = ""
    return pick(draw, [""], [" ", "\t"], noisy) + text + opt() + draw(st.sampled_from(COMMENTS))


@st.composite
def mutated(draw: st.DrawFn, base: st.SearchStrategy[str]) -> str:
    """``base`` with a few characters inserted, deleted or replaced."""
    text = draw(base)
    for _ in range(draw(st.integers(0, 3))):
        at = draw(st.integers(0, len(text)))
        new = draw(st.sampled_from(list(" \t;:#->→♠\ufe0f'.x1NSKhdD\r") + ["draw", "\u00a0"]))
        how = draw(st.integers(0, 2))
        text = text[:at] + (new if how < 2 else "") + text[at + (how > 0):]
    return text


line_text = st.text(st.characters(blacklist_characters="\n"), max_size=40)  # one line: no LF
lines = st.one_of(turn_line(noisy=False), turn_line(), mutated(turn_line()), other_line(noisy=False), other_line(),
                  mutated(other_line()), line_text)


def _all_fields(event: Event) -> dict[str, object]:
    """Every field of an event, including the span and columns that equality ignores."""
    return dict(zip(type(event).__match_args__, event.fields()))


def _check_agrees(fast: Event | None, line: str) -> None:
    if fast is None:
        return
    slow = parse_line(line, PATH, LINENO)
    assert not isinstance(slow, Diagnostic), f"fast path read {fast!r}, grammar says {slow.message!r}"
    assert type(fast) is type(slow)
    assert _all_fields(fast) == _all_fields(slow)  # type: ignore[arg-type]


TRICKY = [
    "handα: 8H->N", "dealα: 8H->N", "P1: paſs", "hand 1234567890", "hand " + "1" * 5000, "P1: 8H->N;\r draw",
    "blocKed: pass", "P1: K♠\ufe0f\ufe0f->NE", "P1: 8H\ufe0f->N", "Mary  Jo: pass", "P1: 8H->N;", "P1: ;",
    "deal Ann: 3H7C", "layout N:5D E:JS # c", "hand 2 dealer Mary Jo # x", "reveal Bob: 3C\t9D", "#x\r",
    "score Ann 12 # a: b", "pot 3#x:y", "Pot: pass", "chips Ann 3,Bob:4",
    '[Event"a"]', '[ Event\t"a#b" ]#c', '[Event "a\\"b"]', '[Event "a"]x', '[Event "a"] ]', '[1x "a"]',
    '[Event "a\r"]', '[Event "é ♠"]  # ok',
    "layout N:QS:3D", "layout N :QS", "layout\tN:QS", "LAYOUT N:QS", "layoutN:QS", "layout N:QS  E:3D\t#c",
    "layout N:Q♠\ufe0f", "layout K:QS", "deal Ann: 3H: 4C", "deal Ann:3H\t\t4C ", "deal  Ann : 3H", "reveal Ann:",
    "Deal Ann: 3H#c", "deal Ann: 3H 4\u00a0C", "deal Ann Lee: 10H TH", "deal Ann: 3H4C", "reveal P1: K♠\ufe0f",
    "deal dealer: 3H", "deal Ann #x: 3H",
]


@SETTINGS
@given(lines)
@example("P2: 8H->N; K♠\ufe0f->NE; draw")
@example("Bob: 7C->E; draw KS; KS->SE # out")
def test_fast_line_agrees_with_grammar(line: str) -> None:
    _check_agrees(fast_line(line, PATH, LINENO), line)


def test_fast_path_agrees_on_tricky_lines() -> None:
    """Lines that once split the fast path from the grammar (each was a real disagreement or crash)."""
    for line in TRICKY:
        _check_agrees(fast_line(line, PATH, LINENO), line)


def test_fast_path_takes_the_common_lines() -> None:
    """The fast path is not vacuous: every common kind of line goes through it."""
    turns = ("P2: 8H->N; K♠->NE; draw", "Bob: 7C->E; draw KS; KS->SE # x", "Cy: pass", "Mary Jo: S->NW;")
    for line in turns:
        assert type(fast_line(line, PATH, LINENO)) is Turn, line
    others = ("hand 12 dealer Mary Jo", "hand", "deal Ann: 3H 7C QS 2D 9H 4S 5C", "reveal Bob: 9C # r",
              "layout N:5D E:JS S:KH W:2C NE:KC", "blocked", "# a comment", '[Players "Ann, Bob"]',
              '[Event "a#b"] # c')
    for line in turns + others:
        fast = fast_line(line, PATH, LINENO)
        assert fast is not None, line
        _check_agrees(fast, line)


def _check_read(text: str) -> None:
    raw_lines = re.split(r"\r\n?|\n", text)  # the line ends of the reader
    for item in read_text(text, PATH, trivia=True):
        if isinstance(item, Diagnostic):
            assert item.path == PATH and item.code.startswith("KC1")
            assert 1 <= item.line <= len(raw_lines)
            assert 1 <= item.column <= len(raw_lines[item.line - 1]) + 1, (item, raw_lines[item.line - 1])
        else:
            assert 1 <= item.span.line <= len(raw_lines) and item.span.col >= 1


@SETTINGS
@given(st.text(max_size=200))
@example("hand " + "1" * 5000)
@example("\ufeff\r\n\r\n[Event \"a\\")
@example("P1: 8H->N\r\n\ufeffP1: pass")
def test_read_text_never_raises_on_any_text(text: str) -> None:
    _check_read(text)


@SETTINGS
@given(st.lists(lines, max_size=12), st.sampled_from(["\n", "\r\n"]), st.sampled_from(["", "\ufeff"]))
def test_read_text_never_raises_on_near_valid_logs(parts: list[str], newline: str, bom: str) -> None:
    _check_read(bom + newline.join(parts))


# --- whole logs, written mostly as logs are: single spaces, canonical spellings ---------------------
SPACED_NAMES = ["Ann", "Bob", "Mary Jo", "P1", "deal", "hand Lee"]
SPACED_ACTIONS = ["KH->NE", "10C->W", "W->S", "draw 4C", "draw", "pass", "Draw 5C", "DRAW 10S", "draw  9H", "9c->n"]
SPACED_CARDS = ["9C", "10H", "KS", "AD", "TH", "9c", "Q♠", "2H"]
SPACED_ENTRIES = ["N:QS", "E:3D", "S:10D", "W:JC", "NE:KC", "n:QS", "N:qs", "N: QS"]


@st.composite
def spaced_line(draw: st.DrawFn) -> str:
    """A turn, deal or layout line written as logs mostly are: single spaces, canonical spellings."""
    kind = draw(st.integers(0, 2))
    if kind == 0:
        acts = draw(st.lists(st.sampled_from(SPACED_ACTIONS), min_size=1, max_size=5))
        text = draw(st.sampled_from(SPACED_NAMES)) + ": " + "; ".join(acts)
        text += draw(st.sampled_from(["", "", ";", " ", " # out", "#x"]))
    elif kind == 1:
        cards = draw(st.lists(st.sampled_from(SPACED_CARDS), min_size=0, max_size=8))
        text = "deal " + draw(st.sampled_from(SPACED_NAMES)) + ": " + " ".join(cards)
    else:
        entries = draw(st.lists(st.sampled_from(SPACED_ENTRIES), min_size=0, max_size=6))
        text = "layout " + " ".join(entries) + draw(st.sampled_from(["", "", " ", " # c"]))
    return text


@SETTINGS
@given(st.lists(st.one_of(lines, spaced_line(), mutated(spaced_line())), max_size=12))
@example(["Ann: KH->NE; draw 4C", "deal Ann: 9C 10H KS", "layout N:QS E:3D S:10D W:JC", "Ann: draw 4C; Draw 5C",
          "Ann: draw ; draw 4C", "deal Ann: 9C  10H", "layout N:QS  E:3D", "deal Ann : 9C", "deal Ann: 9C ",
          "Bob: draw 4C; KH->NE # x", "Bob: draw 4C; draw 5C", "Bob: pass; draw 4C;"])
def test_read_lines_agrees_with_the_grammar(parts: list[str]) -> None:
    """read_lines reads each line as the grammar does, caches cold or warm (the second reading)."""
    for _ in range(2):
        for item in read_lines(parts, PATH):
            line_no = item.line if isinstance(item, Diagnostic) else item.span.line
            text = parts[line_no - 1].rstrip("\r\n")
            if line_no == 1:
                text = text.removeprefix("\ufeff")
            slow = parse_line(text, PATH, line_no)
            if isinstance(item, Diagnostic):
                assert item == slow
            else:
                assert type(item) is type(slow) and _all_fields(item) == _all_fields(slow), text  # type: ignore[arg-type]
