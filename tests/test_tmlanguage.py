"""``editors/kcref.tmLanguage.json``, the TextMate grammar for editors and viewers without the
language server, against grammar/log.ebnf and kcref's reader: its keywords are the grammar's,
and on every line of every sample and case log it finds the cards and keywords where the reader
finds them (and no card where the reader finds none).

The tokenizer here does what a TextMate engine does with a grammar of ``match`` rules: at each
point of the line the rule that matches first wins (the earlier rule on a tie), its captures
give the scopes, and the search goes on after it. The patterns are read by Python's ``re``; they
use only what Oniguruma reads the same way (classes, ``(?i:...)``, fixed-width look-behind)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import NamedTuple

import pytest

from kcref.model.events import Assertion, Blocked, Deal, Draw, HandStart, Layout, Pass, PlayCard, Reveal, Tag, Turn
from kcref.notation.reader import read_text
from tests.util import ROOT

GRAMMAR = json.loads((ROOT / "editors" / "kcref.tmLanguage.json").read_text(encoding="utf-8"))
EBNF = (ROOT / "grammar" / "log.ebnf").read_text(encoding="utf-8")
LOGS = sorted([*ROOT.glob("samples/**/*.log"), *ROOT.glob("tests/cases/**/*.log")])


class Token(NamedTuple):
    start: int
    text: str
    scope: str


def _rules() -> list[tuple[re.Pattern[str], dict[str, str]]]:
    rules = []
    for rule in GRAMMAR["patterns"]:
        scopes = {"0": rule["name"]} if "name" in rule else {k: v["name"] for k, v in rule["captures"].items()}
        rules.append((re.compile(rule["match"]), scopes))
    return rules


RULES = _rules()


def tokenize(line: str) -> list[Token]:
    tokens: list[Token] = []
    at = 0
    while at < len(line):
        best: tuple[re.Match[str], dict[str, str]] | None = None
        for pattern, scopes in RULES:
            m = pattern.search(line, at)
            if m is not None and (best is None or m.start() < best[0].start()):
                best = (m, scopes)
        if best is None:
            break
        m, scopes = best
        for group, scope in scopes.items():
            if m.group(int(group)) is not None:
                tokens.append(Token(m.start(int(group)), m.group(int(group)), scope))
        at = max(m.end(), at + 1)
    return tokens


def test_its_keywords_are_the_grammars() -> None:
    """Every keyword token of the EBNF (``HAND ::= [Hh][Aa][Nn][Dd] !NAME-CHAR``...) and no other."""
    words = {"".join(pair[0] for pair in re.findall(r"\[([A-Z])([a-z])\]", body)).lower()
             for body in re.findall(r"^[A-Z]+\s+::= ((?:\[[A-Z][a-z]\])+) !NAME-CHAR", EBNF, re.M)}
    assert words >= {"hand", "deal", "draw", "pot"}
    keyword = next(r["match"] for r in GRAMMAR["patterns"] if r.get("name") == "keyword.control.kcref")
    assert set(re.search(r"\(\?i:([^)]*)\)", keyword).group(1).split("|")) == words  # type: ignore[union-attr]


def test_its_cards_are_the_grammars() -> None:
    """RANK SUIT, as section 5 of the EBNF spells them: every rank with every suit, letters or symbols."""
    ranks = ["10", *"23456789", *"AaTtJjQqKk"]
    suits = [*"SHDCshdc", *"\u2660\u2665\u2666\u2663\u2664\u2661\u2662\u2667", "\u2660\ufe0f"]
    assert '"10" | [2-9] | [Aa] | [Tt] | [Jj] | [Qq] | [Kk]' in EBNF
    for rank in ranks:
        for suit in suits:
            tokens = tokenize(f"deal Ann: {rank}{suit}")
            assert tokens[-1].text == rank + suit and tokens[-1].scope.startswith("constant.other.card.")
    assert [t.text for t in tokenize("deal Ann: 11S 5SS 5X") if t.scope.startswith("constant.other.card")] == []


def _expected(line: str) -> tuple[set[int], set[int]]:
    """Where the reader finds cards on ``line``, and keywords (0-based columns)."""
    items = list(read_text(line, trivia=True))
    cards: set[int] = set()
    keywords: set[int] = set()
    for event in items:
        if isinstance(event, (Deal, Reveal)):
            cards.update(c - 1 for c in event.cols)
            keywords.add(event.span.col - 1)
        if isinstance(event, Layout):  # its columns are the entries': PILE:CARD
            cards.update(_after(line, line.index(":", c - 1) + 1) for c in event.cols)
        if isinstance(event, (HandStart, Blocked, Assertion, Layout)):
            keywords.add(event.span.col - 1)
        if isinstance(event, Turn):
            for action, col in zip(event.actions, event.cols):
                if isinstance(action, PlayCard):
                    cards.add(col - 1)
                elif isinstance(action, (Draw, Pass)):
                    keywords.add(col - 1)
                    if isinstance(action, Draw) and action.card is not None:
                        cards.add(_draw_card(line, col))
    return cards, keywords


def _draw_card(line: str, col: int) -> int:
    """The column (0-based) of the card after ``draw`` at ``col``."""
    return _after(line, col - 1 + len("draw"))


def _after(line: str, at: int) -> int:
    """The first column from ``at`` on that is no blank."""
    while line[at] in " \t":
        at += 1
    return at


@pytest.mark.parametrize("path", LOGS, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_log_line_is_coloured_where_the_reader_reads(path: Path) -> None:
    for number, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
        items = list(read_text(line, trivia=True))
        if len(items) != 1 or not hasattr(items[0], "span"):
            continue  # a line with an error: colours need not agree with what the reader refuses
        cards, keywords = _expected(line)
        tokens = tokenize(line)
        found_cards = {t.start for t in tokens if t.scope.startswith("constant.other.card.")}
        found_keywords = {t.start for t in tokens if t.scope == "keyword.control.kcref"}
        where = f"{path.relative_to(ROOT)}:{number}: {line!r}"
        assert found_cards == cards, where
        assert keywords <= found_keywords, where
        if isinstance(items[0], Tag):
            assert any(t.scope == "entity.name.tag.kcref" and t.text == items[0].name for t in tokens), where
        if isinstance(items[0], Turn):
            assert tokens[0].scope == "variable.other.player.kcref" and tokens[0].text == items[0].player, where
