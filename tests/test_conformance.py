"""Conformance cases of grammar/cases/: every input reads exactly as its case file says.

The file format and the rendering of expected items are described in grammar/README.md. In
short: ``## title`` starts a case, the lines up to the first ``=>`` line are its input (with
``<U+XXXX>``, ``<TAB>``, ``<CR>``, ``<BOM>`` and ``<SP>`` standing for characters that are
hard to see), and each ``=> ...`` line is one item the reader must yield, in order, rendered
in the compact notation of ``render``.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

import pytest

from kcref.model.diagnostics import Diagnostic
from kcref.model.events import (
    Action,
    Assertion,
    Blank,
    Blocked,
    Comment,
    Deal,
    Draw,
    HandStart,
    Layout,
    MovePile,
    Pass,
    PlayCard,
    Reveal,
    Tag,
    Turn,
)
from kcref.notation.reader import Item, read_text

CASES_DIR = Path(__file__).resolve().parent.parent / "grammar" / "cases"
CASE_PATH = "<case>"
NOTHING = "(nothing)"
"""The expected line of a case whose input yields no item at all."""

_NAMED = {"TAB": "\t", "CR": "\r", "BOM": "\ufeff", "SP": " "}
_ESCAPE = re.compile(r"<(?:U\+(?P<hex>[0-9A-F]{4,6})|(?P<name>TAB|CR|BOM|SP))>")


@dataclass(frozen=True)
class Case:
    """One conformance case: where it is, its title, its input text and expected items."""

    file: str
    line: int
    title: str
    text: str
    expected: tuple[str, ...]

    @property
    def id(self) -> str:
        return f"{self.file}:{self.line}"


def decode_input(line: str) -> str:
    """Replace the ``<...>`` escapes of a case input line by the characters they stand for."""
    return _ESCAPE.sub(lambda m: chr(int(m["hex"], 16)) if m["hex"] else _NAMED[m["name"]], line)


def parse_cases(text: str, file: str) -> list[Case]:
    """Split a case file into cases. Raises ``ValueError`` for a malformed case file."""
    cases: list[Case] = []
    title: str | None = None
    start = 0
    inputs: list[str] = []
    expected: list[str] = []

    def close() -> None:
        if title is None:
            return
        if not expected:
            raise ValueError(f"{file}:{start}: case {title!r} has no '=>' line")
        items = () if expected == [NOTHING] else tuple(expected)
        cases.append(Case(file, start, title, "\n".join(decode_input(s) for s in inputs), items))

    for number, line in enumerate(text.split("\n"), 1):
        if line.startswith("## "):
            close()
            title, start, inputs, expected = line[3:].strip(), number, [], []
            continue
        if title is None:
            continue  # the preamble before the first case
        if line != line.rstrip() or "\t" in line:
            raise ValueError(f"{file}:{number}: write trailing blanks and tabs as <SP> and <TAB>")
        if line.startswith("=> "):
            expected.append(line[3:])
        elif expected:
            if line:
                raise ValueError(f"{file}:{number}: text after the expected items of a case")
        else:
            inputs.append(line)
    close()
    return cases


def _shows(ch: str) -> bool:
    return ch == " " or (ch.isprintable() and ch != "\ufe0f")


def visible(text: str) -> str:
    """``text`` with hard-to-see characters written as the escapes of case inputs."""
    return "".join(
        "<TAB>" if ch == "\t" else "<CR>" if ch == "\r" else ch if _shows(ch) else f"<U+{ord(ch):04X}>"
        for ch in text
    )


def _action(action: Action, col: int) -> str:
    if isinstance(action, PlayCard):
        return f"{action.card}->{action.pile}@{col}"
    if isinstance(action, MovePile):
        return f"{action.source}->{action.target}@{col}"
    if isinstance(action, Draw):
        return f"draw@{col}" if action.card is None else f"draw {action.card}@{col}"
    assert isinstance(action, Pass)
    return f"pass@{col}"


def render(item: Item) -> str:
    """The compact canonical form of one reader item, every value and column visible."""
    if isinstance(item, Diagnostic):
        return f"{item.severity.value} {item.code}@{item.line}:{item.column} {visible(item.message)}"
    at = f"@{item.span.line}:{item.span.col}"
    if isinstance(item, Blank):
        return f"Blank{at}"
    if isinstance(item, Comment):
        return f"Comment{at} {visible(item.text)}"
    if isinstance(item, Tag):
        body = f"Tag{at} {item.name} {visible(json.dumps(item.value, ensure_ascii=False))}"
    elif isinstance(item, HandStart):
        body = f"Hand{at}"
        if item.number is not None:
            body += f" {item.number}"
        if item.dealer is not None:
            body += f" dealer {item.dealer}@{item.dealer_col}"
    elif isinstance(item, (Deal, Reveal)):
        cards = " ".join(f"{c}@{col}" for c, col in zip(item.cards, item.cols, strict=True))
        body = f"{type(item).__name__}{at} {item.player}: {cards}"
    elif isinstance(item, Layout):
        entries = " ".join(f"{p}:{c}@{col}" for (p, c), col in zip(item.piles, item.cols, strict=True))
        body = f"Layout{at} {entries}"
    elif isinstance(item, Turn):
        actions = "; ".join(_action(a, col) for a, col in zip(item.actions, item.cols, strict=True))
        body = f"Turn{at} {item.player}: {actions}"
    elif isinstance(item, Assertion):
        claims = ", ".join(
            f"{c.amount}@{amount_col}" if c.player is None else f"{c.player}@{col} {c.amount}@{amount_col}"
            for c, col, amount_col in zip(item.claims, item.cols, item.amount_cols, strict=True))
        body = f"Assert{at} {item.quantity.value} {claims}"
    else:
        assert isinstance(item, Blocked)
        body = f"Blocked{at}"
    return f"{body} {visible(item.comment)}" if item.comment else body


def all_cases() -> list[Case]:
    """Every case of every ``*.txt`` file in grammar/cases/, in file order."""
    cases: list[Case] = []
    for path in sorted(CASES_DIR.glob("*.txt")):
        cases.extend(parse_cases(path.read_text(encoding="utf-8"), path.name))
    return cases


CASES = all_cases()


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_case(case: Case) -> None:
    items = list(read_text(case.text, CASE_PATH, trivia=True))
    assert all(d.path == CASE_PATH for d in items if isinstance(d, Diagnostic))
    assert all(i.span.path == CASE_PATH for i in items if not isinstance(i, Diagnostic))
    assert [render(i) for i in items] == list(case.expected), case.title


def test_there_are_enough_cases() -> None:
    """The suite keeps its breadth: at least 60 accepted and 30 rejected inputs."""
    rejected = [c for c in CASES if any(e.startswith("error ") for e in c.expected)]
    accepted = [c for c in CASES if not any(e.startswith("error ") for e in c.expected)]
    assert len(accepted) >= 60 and len(rejected) >= 30
    for code in ("KC100", "KC101", "KC102", "KC103", "KC104", "KC105"):
        assert any(f"error {code}@" in e for c in rejected for e in c.expected), code


def test_case_ids_are_unique() -> None:
    assert len({c.id for c in CASES}) == len(CASES)


def test_case_file_format() -> None:
    """The case-file reader itself: escapes, several expected items, and malformed files."""
    text = "preamble\n## two lines\n<BOM>a<TAB>b<CR>\n<U+FE0F>c<SP>\n=> x\n=> y\n\n## next\nz\n=> w\n"
    cases = parse_cases(text, "f.txt")
    assert [(c.id, c.title) for c in cases] == [("f.txt:2", "two lines"), ("f.txt:8", "next")]
    assert cases[0].text == "\ufeffa\tb\r\n\ufe0fc " and cases[0].expected == ("x", "y")
    for bad in ("## a\nx\n", "## a\nx \n=> y\n", "## a\nx\n=> y\nstray\n"):
        with pytest.raises(ValueError):
            parse_cases(bad, "bad.txt")
