"""The writer and `kcref fmt`: read(fmt(x)) == read(x), fmt(fmt(x)) == fmt(x), atomic rewrites."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from kcref.cli import main
from kcref.files import atomic
from kcref.model.diagnostics import Diagnostic
from kcref.model.events import Blank
from kcref.notation.reader import read_text
from kcref.notation.writer import Spelling, write_text
from tests.strategies import logs, messy_logs
from tests.util import ROOT

SAMPLES = sorted(p for p in (ROOT / "samples").rglob("*.log") if "invalid" not in p.parts) + [
    p for p in sorted((ROOT / "samples" / "invalid").glob("*.log"))
    if not any(isinstance(i, Diagnostic) and i.is_error for i in read_text(p.read_text(encoding="utf-8")))
]
styles = st.builds(Spelling, st.sampled_from(["10", "T"]), st.booleans())


def events_of(text: str) -> list[object]:
    items = list(read_text(text, trivia=True))
    assert not [i for i in items if isinstance(i, Diagnostic)], items
    return items


def without_blanks(items: list[object]) -> list[object]:
    return [i for i in items if not isinstance(i, Blank)]


@pytest.mark.parametrize("sample", SAMPLES, ids=lambda p: p.name)
@pytest.mark.parametrize("style", [Spelling(), Spelling("T", True)], ids=["letters", "symbols"])
def test_samples_round_trip(sample: Path, style: Spelling) -> None:
    text = sample.read_text(encoding="utf-8")
    once = write_text(events_of(text), style)
    assert without_blanks(events_of(once)) == without_blanks(events_of(text))
    assert write_text(events_of(once), style) == once


@settings(max_examples=150, deadline=None)
@given(messy_logs(), styles)
def test_messy_text_reads_as_its_events(case: tuple[list[object], str], style: Spelling) -> None:
    expected, text = case
    read = events_of(text)
    assert without_blanks(read) == without_blanks(expected)
    once = write_text(read, style)
    assert without_blanks(events_of(once)) == without_blanks(expected)
    assert write_text(events_of(once), style) == once


@settings(max_examples=100, deadline=None)
@given(logs, styles)
def test_canonical_is_a_fixed_point(evs: list[object], style: Spelling) -> None:
    once = write_text(evs, style)
    assert write_text(events_of(once), style) == once
    assert once == "" or (once.endswith("\n") and not once.endswith("\n\n"))


def _log(tmp_path: Path, text: str) -> Path:
    f = tmp_path / "night.log"
    f.write_text(text, encoding="utf-8")
    return f


MESSY = '[Players "Ann, Bob"]\n\n\n  hand 1\nlayout n:5d  E:js S:KH W:2C\nAnn:4s->n;  draw 8c # ok\n\n'
CANON = '[Players "Ann, Bob"]\n\nhand 1\nlayout N:5D E:JS S:KH W:2C\nAnn: 4S->N; draw 8C # ok\n'


def test_cli_prints_canonical(tmp_path: Path) -> None:
    f = _log(tmp_path, MESSY)
    result = CliRunner().invoke(main, ["fmt", str(f)])
    assert result.exit_code == 0 and result.output == CANON
    result = CliRunner().invoke(main, ["fmt", "--symbols", "--ten", "T", "-"], input="Ann: 10h->N\n")
    assert result.output == "Ann: T♥->N\n"


def test_cli_check_and_write(tmp_path: Path) -> None:
    f = _log(tmp_path, MESSY)
    os.chmod(f, 0o640)
    result = CliRunner().invoke(main, ["fmt", "--check", str(f)])
    assert result.exit_code == 1 and "would reformat" in result.output
    result = CliRunner().invoke(main, ["fmt", "--write", str(f)])
    assert result.exit_code == 0 and f.read_text(encoding="utf-8") == CANON
    assert os.stat(f).st_mode & 0o777 == 0o640
    assert CliRunner().invoke(main, ["fmt", "--check", str(f)]).exit_code == 0
    assert [p.name for p in tmp_path.iterdir()] == ["night.log"]


def test_cli_refuses_files_with_errors(tmp_path: Path) -> None:
    f = _log(tmp_path, "hand 1\nAnn: drwa\n")
    result = CliRunner().invoke(main, ["fmt", "--write", str(f)])
    assert result.exit_code == 1 and "KC104" in result.output
    assert f.read_text(encoding="utf-8") == "hand 1\nAnn: drwa\n"


def test_cli_usage() -> None:
    assert CliRunner().invoke(main, ["fmt", "--check", "--write", "x.log"]).exit_code == 2
    assert CliRunner().invoke(main, ["fmt", "--write", "-"]).exit_code == 2


@pytest.mark.parametrize("fail_at", ["write", "replace"])
def test_write_failure_leaves_original(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fail_at: str) -> None:
    f = _log(tmp_path, MESSY)
    if fail_at == "replace":
        def boom(*_: object) -> None:
            raise PermissionError(13, "Permission denied")
        monkeypatch.setattr(atomic.os, "replace", boom)
    else:
        real_write = os.write

        def disk_full(fd: int, data: bytes) -> int:
            real_write(fd, bytes(data)[: len(data) // 2])
            raise OSError(28, "No space left on device")

        monkeypatch.setattr(atomic.os, "write", disk_full)
    with pytest.raises(OSError):
        atomic.write_atomically(str(f), CANON)
    monkeypatch.undo()
    assert f.read_text(encoding="utf-8") == MESSY
    assert [p.name for p in tmp_path.iterdir()] == ["night.log"]
