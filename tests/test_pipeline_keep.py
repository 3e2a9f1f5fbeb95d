"""check_text/check_file with ``keep``: only the diagnostics it accepts are handed on, each with
its source line as without ``keep``; every one is still counted."""

from __future__ import annotations

from kcref.model.diagnostics import Diagnostic
from kcref.referee.pipeline import check_file, check_row, check_text

LOG = ('[Players "Ann, Bob"]\n[Rules "commercial"]\nhand 1\nlayout N:5D E:JS S:KH W:2C\n'
       "Ann: draw\nBob: draw\nAnn: 9Z->N\n")


def _is_error(d: Diagnostic) -> bool:
    return d.is_error


def test_keep_hands_on_the_kept_with_their_source_and_counts_all() -> None:
    whole = check_text(LOG)
    emitted: list[Diagnostic] = []
    kept = check_text(LOG, emit=emitted.append, keep=_is_error)
    assert any(not d.is_error for d in whole.diagnostics) and any(d.is_error for d in whole.diagnostics)
    assert emitted == [d for d in whole.diagnostics if d.is_error] and all(d.source for d in emitted)
    assert kept.counts == whole.counts and kept.penalties == whole.penalties and not kept.diagnostics


def test_check_file_keeps_into_the_report_and_check_row_counts_alike(tmp_path: object) -> None:
    from pathlib import Path

    path = Path(str(tmp_path)) / "k.log"
    path.write_text(LOG, encoding="utf-8")
    whole = check_file(str(path))
    kept = check_file(str(path), keep=_is_error)
    assert kept.diagnostics == [d for d in whole.diagnostics if d.is_error]
    assert kept.counts == whole.counts
    row = check_row(str(path))
    assert (row["errors"], row["penalties"]) == (whole.errors, whole.penalties)
