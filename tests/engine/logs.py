"""Read test logs into hand records with the real reader and set-up checks."""

from __future__ import annotations

import re

from kcref.model.diagnostics import Diagnostic
from kcref.notation.reader import read_text
from kcref.referee.grouping import HandRecord, iter_hands
from kcref.referee.setup_checks import check_hand


def read_log(text: str, path: str = "case.log") -> list[HandRecord]:
    """The hands of ``text``; a test log must have no syntax or set-up error."""
    records: list[HandRecord] = []
    previous: int | None = None
    for item in iter_hands(read_text(text, path), path):
        if isinstance(item, Diagnostic):
            assert not item.is_error, f"the test log itself is broken: {item}"
        elif isinstance(item, HandRecord):
            record, diags = check_hand(item, previous)
            previous = record.number
            errors = [d for d in diags if d.is_error]
            assert not errors, f"the test log itself is broken: {errors}"
            records.append(record)
    return records


_EXPECT = re.compile(r"#!\s*expect\s+(?:(clean)|(KC\d{3})\s+at\s+(\d+):(\d+))")


def expectations(text: str) -> list[tuple[str, int, int]]:
    """The ``#! expect CODE at L:C`` lines of a case ("clean" expects nothing), sorted."""
    return sorted((m.group(2), int(m.group(3)), int(m.group(4)))
                  for m in _EXPECT.finditer(text) if not m.group(1))
