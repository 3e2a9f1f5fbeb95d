"""Value objects are built by their constructors, in the idioms docs/architecture.md describes.

These tests hold the package to them: each event of a line, each action and the hand's record
and verdict is a final, slotted :class:`~kcref.model.events.Value` whose fields are its
constructor's parameters, each ``Final``; the other records are what
``@dataclass(frozen=True, slots=True)`` makes (nothing replaces its methods); and no module
builds a record around its constructor (``object.__new__``, ``tuple.__new__``) or changes an
object's class.
"""

from __future__ import annotations

import ast
import pickle
from pathlib import Path

import pytest

from kcref.model import events
from kcref.model.cards import Pile, parse_card
from kcref.model.codes import Severity
from kcref.model.diagnostics import Diagnostic
from kcref.model.events import Deal, Draw, HandStart, Layout, MovePile, Pass, PlayCard, Reveal, Span, Tag, Turn
from kcref.model.options import preset
from kcref.notation.reader import read_text
from kcref.referee.grouping import Cut, HandRecord, iter_hands
from kcref.referee.pipeline import check_text
from kcref.referee.verdict import HandVerdict, Penalty
from kcref.scoring.games import RunningTotals
from kcref.scoring.season import HeadToHead
from kcref.scoring.standings import Night, RuleSet, Standing
from tests.util import COMPILED_BUILD, PACKAGE

EVENT_CLASSES = [c for c in vars(events).values()
                 if isinstance(c, type) and issubclass(c, events.LineEvent) and c is not events.LineEvent]
RECORDS = [Night, Standing, RuleSet, RunningTotals, HeadToHead]
VALUES: dict[str, list[type[events.Value]]] = {
    "model/events.py": [*EVENT_CLASSES, PlayCard, MovePile, Draw, Pass],
    "model/diagnostics.py": [Diagnostic],
    "referee/grouping.py": [HandRecord],
    "referee/verdict.py": [HandVerdict, Penalty],
}
"""The modules that define :class:`~kcref.model.events.Value` classes, and those classes."""

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


def _value_classes_in_source(module: str) -> dict[str, ast.ClassDef]:
    tree = ast.parse((PACKAGE / module).read_text(encoding="utf-8"))
    return {node.name: node for node in tree.body if isinstance(node, ast.ClassDef)
            and node.name != "LineEvent" and any(isinstance(b, ast.Name) and b.id in ("LineEvent", "Value")
                                                 for b in node.bases)}


@pytest.mark.parametrize("module", sorted(VALUES))
def test_every_value_class_is_written_in_the_one_idiom(module: str) -> None:
    classes = _value_classes_in_source(module)
    by_name = {cls.__name__: cls for cls in VALUES[module]}
    assert set(by_name) == set(classes)
    for name, node in classes.items():
        assert [d.id for d in node.decorator_list if isinstance(d, ast.Name)] == ["final"], name
        inits = [f for f in node.body if isinstance(f, ast.FunctionDef) and f.name == "__init__"]
        params = [a.arg for a in inits[0].args.args[1:]] if inits else []
        for init in inits:
            assert not init.args.kwonlyargs and not init.args.vararg and not init.args.kwarg, name
            # every statement sets one parameter as a Final attribute of the same name, in order (or is a docstring)
            sets = [st for st in init.body if not (isinstance(st, ast.Expr) and isinstance(st.value, ast.Constant))]
            assert [ast.unparse(st) for st in sets] == [f"self.{p}: Final = {p}" for p in params], name
        cls = by_name[name]
        assert cls.__match_args__ == tuple(params) and set(cls._compared) <= set(params), name
        assigned = {t.id: ast.unparse(st.value) for st in node.body if isinstance(st, ast.Assign)
                    for t in st.targets if isinstance(t, ast.Name)}
        assert assigned["__slots__"] == ("__match_args__" if params else "()"), name
        if params:
            assert ast.literal_eval(assigned["__match_args__"]) == tuple(params), name
        if issubclass(cls, events.LineEvent):
            assert {"span", "cols"}.isdisjoint(cls._compared), name
            assert cls.__mro__[1:] == (events.LineEvent, events.Value, object), name
        else:  # an action, a diagnostic, a hand's record, verdict or penalty: all of it is its value
            assert cls._compared == cls.__match_args__ and cls.__mro__[1:] == (events.Value, object), name
        assert "__dict__" not in dir(cls), name


def test_events_compare_without_their_place_pickle_and_match() -> None:
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
        assert pickle.loads(pickle.dumps(event)).fields() == event.fields()
        if COMPILED_BUILD:  # the pure build leaves it to mypy (a Final attribute)
            with pytest.raises(AttributeError):
                event.span = SPAN  # type: ignore[misc]
        moved = type(event)(*[Span("t.log", 9, 1) if name == "span" else value
                              for name, value in zip(type(event).__match_args__, event.fields())])
        assert moved == event and hash(moved) == hash(event) and moved.span != event.span
        assert repr(moved) != repr(event) and repr(event).startswith(type(event).__name__ + "(")
    assert made[0] != Turn("Ann", actions, SPAN, "# other", (6, 14)) and made[3] != HandStart(12, "Mary", SPAN)
    assert made[3] != made[4] and Deal("Bob", (KS,)) != Reveal("Bob", (KS,))
    turn = made[0]
    match turn:
        case Turn(player="Ann", actions=(PlayCard(), Draw(card=card))):
            assert card == TH
        case _:
            pytest.fail("a Turn matches by its fields")
    match turn:
        case Turn("Ann", _, Span(line=3), "# c"):
            pass
        case _:
            pytest.fail("a Turn matches by position, in the constructor's order")


def test_the_record_and_the_verdict_are_values() -> None:
    text = '[Players "Ann, Bob"]\nhand 1 dealer Bob\nlayout N:9D E:JS S:3C W:5H\nBob: draw\nAnn: pass\n'
    verdict = check_text(text, "t.log", keep_hands=True).hands[0]
    assert pickle.loads(pickle.dumps(verdict)) == verdict
    again = HandVerdict(*verdict.fields())
    assert again == verdict and hash(again) == hash(verdict) and repr(again) == repr(verdict)
    assert repr(verdict).startswith("HandVerdict(path='t.log', index=1, number=1, players=('Ann', 'Bob'), ")
    more = verdict.with_diagnostics(verdict.diagnostics[:1])
    assert more.diagnostics == verdict.diagnostics + verdict.diagnostics[:1] and more != verdict
    assert more.fields()[:19] == verdict.fields()[:19] and more.fields()[20:] == verdict.fields()[20:]
    # equality takes every field: any one changed (to a value of its type) makes another verdict
    others = {"number": 2, "winner": 1, "points": (), "stacks_start": (), "stacks_end": (), "stopped_at": 9,
              "options": preset("commercial"), "valid": not verdict.valid, "blocked": not verdict.blocked,
              "inexact_pot": not verdict.inexact_pot}
    for at, name in enumerate(HandVerdict.__match_args__):
        changed = [*verdict.fields()]
        value = changed[at]
        changed[at] = others[name] if name in others else value + (1 if isinstance(value, int) else value[:1] or (0,))
        assert HandVerdict(*changed) != verdict, name
    match verdict:
        case HandVerdict(path="t.log", players=("Ann", "Bob"), winner=None):
            pass
        case _:
            pytest.fail("a verdict matches by its fields")
    record = next(r for r in iter_hands(read_text(text, "t.log"), "t.log") if isinstance(r, HandRecord))
    assert HandRecord(*record.fields()) == record and record.with_index(1) == record
    assert record.with_index(4).fields() == (*record.fields()[:1], 4, *record.fields()[2:])
    turn = Turn("Bob", (Draw(),), Span("t.log", 6, 1), "# kcref: ignore[KC401]")
    grown = record.with_event(turn)
    assert grown.events == (*record.events, turn) and grown.marked == (turn,) and grown != record
    plain = Turn("Bob", (Draw(),), Span("t.log", 6, 1))
    assert record.with_event(plain).marked == () and record.with_event(plain).events[-1] is plain


def test_a_diagnostic_is_a_value() -> None:
    d = Diagnostic("t.log", 4, 6, Severity.ERROR, "KC301", "no such card", "Bob: 5S->N")
    assert pickle.loads(pickle.dumps(d)) == d and Diagnostic(*d.fields()) == d and hash(Diagnostic(*d.fields())) == hash(d)
    assert repr(d) == ("Diagnostic(path='t.log', line=4, column=6, severity=<Severity.ERROR: 'error'>, code='KC301', "
                       "message='no such card', source='Bob: 5S->N')")
    assert d.with_source("") == Diagnostic("t.log", 4, 6, Severity.ERROR, "KC301", "no such card") != d
    assert d.with_path("u.log").fields() == ("u.log", *d.fields()[1:])
    assert not isinstance(d, tuple)
    penalty = Penalty(1, 2, "KC401", SPAN)
    assert pickle.loads(pickle.dumps(penalty)) == penalty != Penalty(1, 3, "KC401", SPAN)


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
