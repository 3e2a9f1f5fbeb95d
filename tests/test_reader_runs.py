"""Reading in runs (``read_runs``) gives the items of a plain reading, in the same order, and the
grouping into hands makes the same records of both; the reader's quick hand line is the
constructor's."""

from __future__ import annotations

import glob
import io
from pathlib import Path

import pytest

from kcref.engine.bots import play_log
from kcref.model.diagnostics import Diagnostic
from kcref.notation import reader
from kcref.notation.lexicon import SUPPRESSION_MARK
from kcref.notation.reader import RUN_LENGTH, Run, read_runs, read_stream, read_text
from kcref.notation.sourcelines import SourceLines
from kcref.notation.textlines import text_stream
from kcref.referee import grouping
from kcref.referee.grouping import HandRecord, iter_hands

ROOT = Path(__file__).resolve().parent.parent


def _flat(items: object) -> list[object]:
    out: list[object] = []
    for item in items:  # type: ignore[attr-defined]
        if type(item) is Run:
            assert 0 < len(item.events) <= RUN_LENGTH
            assert item.actions == sum(len(e.actions) for e in item.events if hasattr(e, "actions"))
            assert item.marked == [e for e in item.events if SUPPRESSION_MARK in e.comment]
            out.extend(item.events)
        else:
            out.append(item)
    return out


def _fields(item: object) -> object:
    if isinstance(item, Diagnostic):
        return item
    return type(item), item.fields()  # type: ignore[attr-defined]


def _logs() -> list[tuple[str, str]]:
    logs = [(path, Path(path).read_text(encoding="utf-8", errors="surrogateescape"))
            for path in sorted(glob.glob(str(ROOT / "samples" / "**" / "*.log"), recursive=True))]
    played = "".join(play_log(3, "commercial", seed=4, hands=5))
    # Lines the quick paths decline, syntax errors, comments, suppressions and a line before any hand.
    odd = ("Ann: 4S->N\n" + played.replace("draw", "drwa", 1).replace("deal Bob: ", "deal Bob:  ", 1)
           .replace("\nhand 3", "\n# a comment\nhand 3 # kcref: ignore[KC216]")
           .replace("\nlayout", " # kcref: ignore[KC208]\nlayout", 1)
           .replace("layout", "layout  ", 1) + "\n\n   \nAnn: pass # kcref: ignore[KC401]\n")
    return [*logs, ("played", played), ("odd", "\ufeff" + odd.replace("\n", "\r\n"))]


@pytest.mark.parametrize(("name", "text"), _logs())
def test_runs_hold_the_items_of_a_plain_reading_and_group_alike(name: str, text: str) -> None:
    data = text.encode("utf-8", "surrogateescape")
    plain_keep, runs_keep = SourceLines(), SourceLines()
    plain = list(read_stream(io.BytesIO(data), name, keep=plain_keep))
    runs = list(read_runs(io.BytesIO(data), name, runs_keep))
    assert [_fields(i) for i in _flat(runs)] == [_fields(i) for i in plain]
    assert [p.lines for p in runs_keep.parts] == [p.lines for p in plain_keep.parts]
    assert [_fields(i) for i in _flat(read_runs(text_stream(text), name))] == [
        _fields(i) for i in read_text(text, name)]
    grouped = list(iter_hands(read_runs(io.BytesIO(data), name), name))
    assert grouped == list(iter_hands(plain, name))
    assert [r.events for r in grouped if isinstance(r, HandRecord)] == [
        r.events for r in iter_hands(plain, name) if isinstance(r, HandRecord)]
    for record in grouped:
        if isinstance(record, HandRecord):
            assert record.marked == tuple(e for e in record.events if SUPPRESSION_MARK in e.comment)  # type: ignore[union-attr]


def test_a_hand_too_long_is_cut_at_the_same_line_in_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    text = "".join(play_log(2, "classic", seed=2, hands=3))
    monkeypatch.setattr(grouping, "MAX_HAND_ITEMS", 23)
    monkeypatch.setattr(reader, "RUN_LENGTH", 5)
    plain = list(iter_hands(read_text(text, "t.log"), "t.log"))
    assert any(isinstance(i, Diagnostic) and i.code == "KC505" for i in plain)
    assert list(iter_hands(read_runs(text_stream(text), "t.log"), "t.log")) == plain


HAND_LINES = ["hand 12 dealer Ann", "hand 007 dealer Ann", "hand 123456789 dealer Mary Jo", "hand 1234567890 dealer Ann",
              "hand \u0663 dealer Ann", "hand 3 dealer Ann ", "hand 3 dealer  Ann", "HAND 3 dealer Ann", "hand 3 Dealer Ann",
              "hand 3 dealer Anne", "hand 3 dealer Ann # x", "hand 3 dealer Ann:", "hand -3 dealer Ann", "hand 3  dealer Ann"]


def test_the_quick_hand_lines_read_as_the_grammar_reads_them() -> None:
    lines = ["Ann: pass", "Mary Jo: pass", *HAND_LINES]
    items = list(reader.read_lines(lines, "t.log"))
    assert len(items) == len(lines)
    for lineno, (item, line) in enumerate(zip(items, lines), 1):
        slow = reader.parse_line(line, "t.log", lineno)
        assert _fields(item) == _fields(slow), line
