"""Replaying a hand once, looking at the table after each line on the way (a ``Watch`` of
``referee_hand``), gives at every line what ``table_at`` gives replaying from the start, and the
verdict ``referee_hand`` gives without looking: the report's steps are ``kcref show --line N``."""

from __future__ import annotations

from pathlib import Path

import pytest

from kcref.engine.carry import ChipCarry
from kcref.notation.reader import read_file
from kcref.referee.grouping import HandRecord
from kcref.referee.replay import Position, Watch, referee_hand, table_at
from kcref.referee.setup_checks import checked_hands
from kcref.render.table_svg import TableState, state_of
from tests.util import ROOT

LOGS = sorted(p for folder in ("samples", "tests/cases", "tests/corpus") for p in (ROOT / folder).rglob("*")
              if p.suffix in (".log", ".kc") and p.is_file())


def _records(path: Path) -> list[HandRecord]:
    return [r for r in checked_hands(read_file(str(path)), str(path)) if isinstance(r, HandRecord)]


def _seen(position: Position, line: int | None) -> tuple[TableState | None, object, object]:
    table = None if position.table is None else state_of(position.table, line)
    return table, position.error, position.cut


def _watched(record: HandRecord, lines: list[int | None], stacks: dict[str, int] | None = None,
             pot: int = 0) -> tuple[list[tuple[TableState | None, object, object]], object]:
    """What a watch sees after each of ``lines`` as the referee judges ``record``, and the verdict."""
    seen: list[tuple[TableState | None, object, object]] = []

    def see(line: int | None, position: Position) -> bool:
        seen.append(_seen(position, line))
        return True

    verdict = referee_hand(record, stacks, pot, Watch(lines, see))
    return seen, verdict


def test_there_are_logs_to_compare() -> None:
    assert len(LOGS) > 50


@pytest.mark.parametrize("path", LOGS, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_line_of_every_hand_as_table_at_gives_it(path: Path) -> None:
    carry = ChipCarry()
    records = _records(path)
    for i, record in enumerate(records):
        carry.before(record.options)
        stacks = dict(carry.stacks) if carry.stacks is not None else None
        start = record.start.span.line
        end = records[i + 1].start.span.line if i + 1 < len(records) else max(
            (e.span.line for e in record.events), default=start) + 2
        lines: list[int | None] = [*range(start - 1, end + 1), None]
        once, watched = _watched(record, lines, stacks, carry.pot) if record.players else ([], None)
        again = [_seen(table_at(record, line, stacks, carry.pot), line) for line in lines]
        verdict = referee_hand(record, stacks, carry.pot)
        if record.players:
            assert once == again, (record.index, [line for line, a, b in zip(lines, once, again) if a != b][:3])
            assert watched == verdict
        if verdict.valid:
            carry.after(record.options, verdict.players, verdict.stacks_end, verdict.pot_left)


def test_a_table_once_settled_is_not_settled_again() -> None:
    """The going out settles a copy: a later line still sees the table as the referee has it."""
    record = _records(ROOT / "samples" / "commercial-night.log")[0]
    out_line = max(e.span.line for e in record.playable)
    lines = [out_line, out_line, out_line + 1]
    stacks: list[list[int] | None] = []

    def see(line: int | None, position: Position) -> bool:
        table = position.table
        stacks.append(table.stacks[:] if table is not None and table.stacks is not None else None)
        return True

    referee_hand(record, None, 0, Watch(lines, see))
    assert stacks[0] == stacks[1] == stacks[2] is not None
