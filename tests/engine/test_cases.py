"""The data-driven rule cases of tests/cases/rules/: each log states its expected diagnostics
in ``#! expect CODE at LINE:COL`` headers (``#! expect clean`` for none), and ``kcref check``
must report exactly those, whether a fault is caught by the set-up checks or by the referee."""

from __future__ import annotations

from pathlib import Path

import pytest
from logs import expectations

from kcref.referee.pipeline import check_text

CASES = sorted((Path(__file__).parent.parent / "cases" / "rules").glob("*.log"))


@pytest.mark.parametrize("path", CASES, ids=[p.name for p in CASES])
def test_case(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    expected = expectations(text)
    assert expected or "#! expect clean" in text, "a case must state its expectations"
    report = check_text(text, str(path))
    found = sorted((d.code, d.line, d.column) for d in report.diagnostics)
    assert found == expected, "\n".join(f"{d.line}:{d.column} {d.code} {d.message}"
                                         for d in report.diagnostics)


def test_there_are_cases() -> None:
    assert len(CASES) >= 40
