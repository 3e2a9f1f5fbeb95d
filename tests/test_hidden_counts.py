"""What a check finds but does not report (ignored by the configuration, suppressed by a comment)
is counted where people and machines look: the summary line, --statistics, JSON and SARIF, and
the same from the verdict cache as from a fresh check."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from kcref.cli import main
from tests.util import ROOT, working_directory

FRIDAY = (ROOT / "samples" / "invalid" / "illegal-plays.log").read_text(encoding="utf-8")


def check(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["check", *args])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.output


@pytest.fixture
def night(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """friday.log with its KC301 suppressed, and a kcref.toml that ignores KC31 (KC310, KC313)."""
    (tmp_path / ".git").mkdir()
    (tmp_path / "friday.log").write_text(
        FRIDAY.replace("draw 7S  # 5S, not 5H: black on black", "draw 7S  # kcref: ignore[KC301]"), encoding="utf-8")
    (tmp_path / "kcref.toml").write_text('ignore = ["KC31"]\n', encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_the_summary_counts_what_is_not_reported(night: Path) -> None:
    status, out = check("--no-source", "friday.log")
    assert status == 1  # KC308 is still reported
    assert out.endswith("1 file, 4 hands, 1 error, 0 warnings, 0 penalties, 1 note; "
                        "2 errors ignored by configuration; 1 error suppressed\n")
    status, out = check("--no-source", "--select", "KC6", "friday.log")
    assert status == 0  # ignored means ignored: the exit status does not change, but it shows
    assert out == ("1 file, 4 hands, 0 errors, 0 warnings, 0 penalties, 0 notes; "
                   "3 errors and 1 note ignored by configuration; 1 error suppressed\n")
    status, out = check("--isolated", "--no-source", "friday.log")
    assert out.endswith("0 penalties, 1 note; 1 error suppressed\n")
    assert check("--quiet", "--select", "KC6", "friday.log") == (0, "")  # --quiet prints no summary
    doc = json.loads(check("--format", "json", "friday.log")[1])
    assert doc["files"][0]["ignored"] == {"KC310": 1, "KC313": 1}
    assert doc["files"][0]["suppressed"] == {"KC301": 1}
    assert doc["summary"].endswith("; 2 errors ignored by configuration; 1 error suppressed")
    assert doc["configurations"] == ["kcref.toml"]


def test_penalties_and_warnings_are_named_as_the_summary_names_them(night: Path) -> None:
    sample = (ROOT / "samples" / "commercial-night.log").read_text(encoding="utf-8")
    (night / "commercial.log").write_text(sample, encoding="utf-8")
    status, shown = check("--isolated", "commercial.log")
    counts = shown.splitlines()[-1]
    assert status == 0 and "0 errors" in counts and ";" not in counts
    status, out = check("--isolated", "--select", "KC6", "commercial.log")
    assert status == 0
    penalties = counts.split(", ")[4]
    assert out.splitlines()[-1] == f"1 file, 3 hands, 0 errors, 0 warnings, 0 penalties, 0 notes; {penalties} " \
                                   "ignored by configuration"


RUNS = [[], ["-v"], ["--quiet"], ["--format", "json"], ["--format", "github"], ["--format", "sarif"],
        ["--statistics"], ["--statistics", "--format", "json"], ["-j", "2"]]


@pytest.mark.parametrize("args", RUNS, ids=" ".join)
def test_the_cache_keeps_the_counts(night: Path, args: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("KCREF_NO_CACHE", raising=False)
    (night / "other.log").write_text(FRIDAY, encoding="utf-8")
    files = ["friday.log", "other.log"]
    fresh = check(*args, "--no-cache", *files)
    assert "ignored" in fresh[1] or "--quiet" in args
    with working_directory(night):
        first = check(*args, "--cache-dir", "c", *files)
        second = check(*args, "--cache-dir", "c", *files)
    assert len(list((night / "c").glob("*.entry"))) == 2
    assert first == fresh and second == fresh
