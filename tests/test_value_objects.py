"""Value objects are one idiom: stdlib frozen, slotted dataclasses, built by their constructors.

docs/architecture.md says which idiom and why; these tests hold the package to it: each record
is what ``@dataclass(frozen=True, slots=True)`` makes (nothing replaces its methods), and no
module builds a record around its constructor (``object.__new__``, ``tuple.__new__``) or
changes an object's class.
"""

from __future__ import annotations

import ast
import dataclasses
import pickle
from pathlib import Path

import pytest

from kcref.model import events
from kcref.model.cards import Pile, parse_card
from kcref.model.events import Deal, Draw, HandStart, Layout, PlayCard, Span, Tag, Turn
from kcref.notation.reader import read_text
from kcref.referee.grouping import Cut, HandRecord, iter_hands
from kcref.referee.pipeline import check_text
from kcref.referee.verdict import HandVerdict
from kcref.scoring.games import RunningTotals
from kcref.scoring.season import HeadToHead
from kcref.scoring.standings import Night, RuleSet, Standing
from tests.util import PACKAGE

EVENT_CLASSES = [c for c in vars(events).values() if isinstance(c, type) and dataclasses.is_dataclass(c)]
RECORDS = [*EVENT_CLASSES, HandRecord, HandVerdict, Night, Standing, RuleSet, RunningTotals, HeadToHead]

SPAN = Span("t.log", 3, 1)
KS, TH = parse_card("KS"), parse_card("10H")


def test_every_event_class_is_found() -> None:
    assert {c.__name__ for c in EVENT_CLASSES} == {
        "Tag", "HandStart", "Deal", "Layout", "Turn", "Blocked", "Reveal", "Assertion", "Comment", "Blank"}


@pytest.mark.parametrize("cls", RECORDS, ids=lambda c: c.__name__)
def test_a_record_is_a_plain_frozen_slotted_dataclass(cls: type) -> None:
    params = cls.__dataclass_params__  # type: ignore[attr-defined]
    assert (params.init, params.repr, params.eq, params.frozen) == (True, True, True, True)
    # No instance dictionary: slotted (in the compiled build, a native class, which has none either).
    assert "__dict__" not in dir(cls)
    # the methods are those dataclass generated for this class, not shared ones from a base
    for name in ("__init__", "__repr__", "__eq__"):
        assert getattr(cls, name).__qualname__ == f"{cls.__qualname__}.{name}", name
    assert cls.__mro__[1:] == (object,)


def test_records_keep_the_dataclass_behaviour() -> None:
    actions = (PlayCard(KS, Pile.NE), Draw(TH))
    made = [
        Turn("Ann", actions, SPAN, "# c", (6, 14)),
        Deal("Bob", (KS, TH), SPAN, "", (11, 14), 6),
        Layout(((Pile.N, KS), (Pile.E, TH)), SPAN, "", (8, 13)),
        HandStart(12, "Mary Jo", SPAN, "", 16),
        Tag("Players", "Ann, Bob", SPAN),
    ]
    for event in made:
        assert pickle.loads(pickle.dumps(event)) == event
        with pytest.raises(dataclasses.FrozenInstanceError):
            event.span = SPAN  # type: ignore[misc]
        moved = dataclasses.replace(event, span=Span("t.log", 9, 1))
        assert moved == event and hash(moved) == hash(event) and moved.span != event.span
    turn = made[0]
    match turn:
        case Turn(player="Ann", actions=(PlayCard(), Draw(card=card))):
            assert card == TH
        case _:
            pytest.fail("a Turn matches by its fields")
    verdict = check_text('[Players "Ann, Bob"]\nhand 1 dealer Bob\nlayout N:9D E:JS S:3C W:5H\nBob: draw\n',
                         "t.log", keep_hands=True).hands[0]
    assert pickle.loads(pickle.dumps(verdict)) == verdict
    values = {f.name: getattr(verdict, f.name) for f in dataclasses.fields(verdict)}
    assert dataclasses.replace(verdict, actions=7) == HandVerdict(**{**values, "actions": 7}) != verdict
    assert dataclasses.asdict(turn)["actions"] == ((KS, Pile.NE), (TH,))


def test_verdicts_and_records_come_back_from_a_worker() -> None:
    """What a worker process of ``check_paths`` sends back, pickled: compiled records pickle through
    their constructors, as plain ones may."""
    text = ('[Players "Ann, Bob"]\n[Rules "commercial"]\nhand 1 dealer Bob\nlayout N:9D E:JS S:3C W:5H\n'
            "Bob: draw\nAnn: 8C->N; draw\nhand 2\nlayout N:9D E:JS S:3C W:5C\nAnn: 8H->N\n")
    report = check_text(text, "t.log", keep_hands=True)
    assert len(report.hands) == 2 and report.errors and report.diagnostics
    assert pickle.loads(pickle.dumps(report)) == report
    records = [r for r in iter_hands(read_text(text, "t.log"), "t.log") if isinstance(r, HandRecord)]
    assert len(records) == 2 and records[0].tags and records[1].events
    for record in [*records, records[1].with_cut(Cut(9, 5, "KC104"))]:
        back = pickle.loads(pickle.dumps(record))
        assert back == record and type(back) is HandRecord and back.cut == record.cut


def _bypasses(source: str) -> list[str]:
    """Where ``source`` reaches ``object.__new__`` or ``tuple.__new__``, or assigns ``__class__``."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if (isinstance(node, ast.Attribute) and node.attr == "__new__" and isinstance(node.value, ast.Name)
                and node.value.id in ("object", "tuple")):
            found.append(f"{node.value.id}.__new__ at line {node.lineno}")
        targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(
            node, (ast.AugAssign, ast.AnnAssign)) else []
        found += [f"__class__ assigned at line {t.lineno}" for t in targets
                  if isinstance(t, ast.Attribute) and t.attr == "__class__"]
    return found


def test_the_scan_sees_a_bypass() -> None:
    source = "new = tuple.__new__\nx = object.__new__(C)\nx.__class__ = D\nn = int.__new__(Card, 3)\n"
    assert sorted(_bypasses(source)) == ["__class__ assigned at line 3", "object.__new__ at line 2",
                                        "tuple.__new__ at line 1"]


@pytest.mark.parametrize("path", sorted(PACKAGE.rglob("*.py")),
                         ids=lambda p: str(p.relative_to(PACKAGE)))
def test_no_module_builds_a_record_around_its_constructor(path: Path) -> None:
    assert not _bypasses(path.read_text(encoding="utf-8")), path
