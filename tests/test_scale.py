"""Checking many logs: `check_paths` in worker processes, a file's verdict as a plain JSON row
(`report_row`, `check_row`), and the Dask recipe of docs/scale.md, run as written."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import kcref
from tests.util import ROOT

SAMPLES = sorted((ROOT / "samples").rglob("*.log"))
SCALE_DOC = ROOT / "docs" / "scale.md"


def _plain(value: object) -> bool:
    """Only JSON's own types, all the way down."""
    if isinstance(value, dict):
        return all(isinstance(k, str) and _plain(v) for k, v in value.items())
    if isinstance(value, list):
        return all(_plain(v) for v in value)
    return value is None or isinstance(value, (str, int, bool))


def test_a_row_is_the_report_in_plain_json_types() -> None:
    for path in SAMPLES:
        report = kcref.check_file(str(path))
        row = kcref.report_row(report)
        assert _plain(row), row
        assert json.loads(json.dumps(row)) == row
        assert (row["path"], row["hands"], row["errors"], row["penalties"], row["unreadable"]) == (
            str(path), report.hand_count, report.errors, report.penalties, report.unreadable)
        assert row["warnings"] == report.count(kcref.Severity.WARNING)
        assert row["notes"] == report.count(kcref.Severity.INFO) - report.penalties
        verdicts = row["verdicts"]
        assert isinstance(verdicts, list) and len(verdicts) == len(report.hands)
        for hand, verdict, line in zip(verdicts, report.hands, report.hand_lines):
            assert (hand["index"], hand["number"], hand["line"], hand["valid"], hand["blocked"]) == (
                verdict.index, verdict.number, line, verdict.valid, verdict.blocked)
            assert hand["winner"] == verdict.winner_name and hand["players"] == list(verdict.players)
            assert hand["errors"] == len(verdict.errors)


def test_a_row_gives_each_players_score() -> None:
    row = kcref.check_row(str(ROOT / "samples" / "classic-night.log"))
    first = row["verdicts"][0]  # type: ignore[index]
    # classic: the winner scores a point, everyone else nothing
    assert first["winner"] is not None and first["valid"]
    assert first["scores"] == [int(name == first["winner"]) for name in first["players"]]


def test_an_invalid_log_has_errors_and_unscored_hands() -> None:
    row = kcref.check_row(str(ROOT / "samples" / "invalid" / "illegal-plays.log"))
    assert row["errors"] > 0  # type: ignore[operator]
    assert any(h["scores"] is None and not h["valid"] for h in row["verdicts"])  # type: ignore[attr-defined]


def test_check_row_is_report_row_in_flat_memory() -> None:
    for path in SAMPLES:
        assert kcref.check_row(str(path)) == kcref.report_row(kcref.check_file(str(path)))


def test_an_unreadable_path_is_a_row_too(tmp_path: Path) -> None:
    row = kcref.check_row(str(tmp_path / "missing.log"))
    assert row == {"path": str(tmp_path / "missing.log"), "hands": 0, "errors": 1, "warnings": 0, "penalties": 0,
                   "notes": 0, "unreadable": True, "verdicts": []}


def _row_in_a_child(path: bytes, timeout: float = 60) -> dict[str, object]:
    """``check_row(path)`` in a child process, which is killed if it has not answered in
    ``timeout`` seconds (a row that blocks would hang the tests)."""
    code = "import json, os, sys, kcref; print(json.dumps(kcref.check_row(os.fsdecode(bytes.fromhex(sys.argv[1])))))"
    done = subprocess.run([sys.executable, "-c", code, path.hex()], capture_output=True, text=True, timeout=timeout,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)  # type: ignore[no-any-return]


def _release(fifo: Path) -> None:
    """Open ``fifo`` for writing and close it at once, a few times: a reader blocked opening it
    then reads its end."""
    for _ in range(8):
        try:
            os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
        except OSError:
            return  # no reader waits (ENXIO), or no FIFO


def _unreadable(path: str) -> dict[str, object]:
    return {"path": path, "hands": 0, "errors": 1, "warnings": 0, "penalties": 0, "notes": 0, "unreadable": True,
            "verdicts": []}


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_fifo_is_an_unreadable_row_not_a_wait(tmp_path: Path) -> None:
    fifo = tmp_path / "x.log"
    os.mkfifo(fifo)
    assert _row_in_a_child(os.fsencode(fifo)) == _unreadable(str(fifo))
    assert kcref.check_row(str(tmp_path)) == _unreadable(str(tmp_path))


def test_a_path_holding_a_nul_is_an_unreadable_row() -> None:
    path = str(ROOT / "samples" / "classic-night.log") + "\x00.log"
    assert kcref.check_row(path) == _unreadable(path)


def test_report_row_refuses_a_report_without_its_verdicts() -> None:
    report = kcref.check_file(str(ROOT / "samples" / "classic-night.log"), keep_hands=False)
    with pytest.raises(ValueError, match="keep_hands"):
        kcref.report_row(report)


def test_check_paths_keeps_the_order_given_in_chunks() -> None:
    paths = [str(p) for p in SAMPLES] * 5  # more paths than a chunk per worker
    one = [kcref.report_row(r) for r in kcref.check_paths(paths, jobs=1)]
    two = [kcref.report_row(r) for r in kcref.check_paths(paths, jobs=2)]
    assert two == one
    assert [r["path"] for r in two] == paths
    lean = list(kcref.check_paths(paths, jobs=2, keep_hands=False))
    assert [(r.path, r.hand_count, r.errors, len(r.diagnostics), r.hands) for r in lean] == [
        (r["path"], r["hands"], r["errors"], len(d.diagnostics), []) for r, d in
        zip(one, kcref.check_paths(paths, jobs=1))]


def _recipe() -> str:
    """The first Python block of docs/scale.md: the recipe, as a reader copies it."""
    match = re.search(r"```python\n(.*?)```", SCALE_DOC.read_text(encoding="utf-8"), re.S)
    assert match, "docs/scale.md has no python block"
    return match.group(1)


def test_the_dask_recipe_runs_as_written(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("dask.bag", reason="the Dask recipe needs dask: pip install '.[scale]'")
    nights = tmp_path / "nights"
    for i, sample in enumerate(SAMPLES):
        folder = nights / f"week{i % 2}"
        folder.mkdir(parents=True, exist_ok=True)
        shutil.copy(sample, folder / sample.name)
    if hasattr(os, "mkfifo"):
        os.mkfifo(nights / "week0" / "x.log")  # found by the glob; opened for reading, it would wait for a writer
    (tmp_path / "check_logs.py").write_text(_recipe(), encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    try:
        result = subprocess.run([sys.executable, "check_logs.py", "nights", "verdicts", "2"], cwd=tmp_path, env=env,
                                capture_output=True, text=True, timeout=120)
    except subprocess.TimeoutExpired:
        _release(nights / "week0" / "x.log")  # the workers left waiting on it end instead of lingering
        raise
    rows = [json.loads(line) for part in sorted((tmp_path / "verdicts").glob("*.jsonl"))
            for line in part.read_text(encoding="utf-8").splitlines()]
    paths = sorted(str(p.relative_to(tmp_path)) for p in nights.rglob("*.log"))
    assert [r["path"] for r in rows] == paths
    monkeypatch.chdir(tmp_path)
    assert rows == [kcref.check_row(p) for p in paths]
    if hasattr(os, "mkfifo"):
        assert rows[paths.index(os.path.join("nights", "week0", "x.log"))] == _unreadable("nights/week0/x.log")
    errors = sum(r["errors"] for r in rows)
    assert errors > 0, "the invalid samples have errors"
    assert result.stdout.splitlines()[-1] == f"{len(rows)} files, {sum(r['hands'] for r in rows)} hands, {errors} errors"
    assert result.returncode == 1, result.stderr


def test_keep_sends_back_only_the_diagnostics_wanted(tmp_path: Path) -> None:
    """``keep`` filters what a report holds (what --quiet prints), never what it counts, alike with
    and without worker processes."""
    from kcref.referee.pipeline import check_paths
    from kcref.render.check_formats import CheckSettings

    paths = []
    for i in range(3):
        path = tmp_path / f"n{i}.log"
        path.write_text("".join(kcref.play_log(4, "commercial", {}, seed=i, hands=3)) + "Ann: 9Z->N\n",
                        encoding="utf-8")
        paths.append(str(path))
    whole = list(check_paths(paths, keep_hands=False))
    keep = CheckSettings(quiet=True).kept
    for jobs in (1, 2):
        kept = list(check_paths(paths, jobs=jobs, keep_hands=False, keep=keep))
        assert [r.counts for r in kept] == [r.counts for r in whole]
        assert [r.penalties for r in kept] == [r.penalties for r in whole]
        assert [r.diagnostics for r in kept] == [[d for d in r.diagnostics if d.is_error] for r in whole]
        assert all(r.diagnostics for r in kept) and any(r.penalties for r in kept)
