"""``kcref check --quiet`` one file at a time: the checker hands the printer only what it shows
(the rest is counted, not given its source line), and every format prints exactly what it
prints when it is handed every diagnostic."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from kcref.apps.check import run as check_report
from kcref.files.inputs import resolve
from kcref.render.check_formats import CHECK_FORMATS, CheckSettings

PENALTIES = ('[Players "Ann, Bob"]\n[Rules "commercial"]\nhand 1\nlayout N:5D E:JS S:KH W:2C\n'
             "Ann: draw\nBob: draw\nAnn: 9Z->N\n")
"""Penalties (info), then a rule error."""
NO_HAND = '[Players "Ann, Bob"]\n'
"""KC004, a warning before any hand (junit's case for the lines before the first hand)."""
WARNINGS = ('[Players "Ann, Bob"]\nhand 1 dealer Bob\nlayout N:5D E:JS S:KH W:2C\nAnn: draw\n'
            "hand 3 dealer Bob\nlayout N:5D E:JS S:KH W:2C\nAnn: draw\n")
"""KC214 and KC216 warnings, KC501 warnings: nothing fails but under --strict."""


def _check(paths: list[str], fmt: str, strict: bool) -> tuple[str, int]:
    out = io.StringIO()
    status = check_report.run_check(resolve(paths), CheckSettings(format=fmt, quiet=True, strict=strict), out)
    return out.getvalue(), int(status)


@pytest.mark.parametrize("strict", [False, True])
@pytest.mark.parametrize("fmt", list(CHECK_FORMATS))
def test_quiet_prints_the_same_as_when_every_diagnostic_is_handed_on(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fmt: str, strict: bool) -> None:
    paths = []
    for name, text in (("a.log", PENALTIES), ("b.log", NO_HAND), ("c.log", WARNINGS)):
        (tmp_path / name).write_text(text, encoding="utf-8")
        paths.append(str(tmp_path / name))
    monkeypatch.chdir(tmp_path)
    kept = _check(paths, fmt, strict)
    # Every printer counted as one that takes every diagnostic: the pipeline hands on them all.
    for name, f in list(CHECK_FORMATS.items()):
        monkeypatch.setitem(CHECK_FORMATS, name, f._replace(takes_all=True))
    assert kept == _check(paths, fmt, strict)
    assert kept[0]


def test_only_junit_takes_what_it_does_not_show() -> None:
    """A format that does not take all must drop what it does not show (the test above checks
    each); junit keeps every diagnostic for its test cases."""
    assert {f.printer.__name__ for f in CHECK_FORMATS.values() if f.takes_all} == {"JunitPrinter"}
