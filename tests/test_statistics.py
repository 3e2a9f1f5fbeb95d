"""``kcref check --statistics``: a count per code, most frequent first, in text or JSON."""

from __future__ import annotations

import json
import re
from pathlib import Path

from click.testing import CliRunner

from kcref.cli import main

LOG = ('[Players "Ann, Bob"]\nhand 1\nlayout N:9D E:JS S:3C W:KC\nAnn: 8D->N; draw\n'
       "hand 3\nlayout N:9D E:JS S:3C W:KC\nBob: 8D->N; draw\nhand 4\nlayout N:9D E:JS S:3C W:KC\n")
"""Two KC301 errors (hands 1 and 3), one KC214 (hand 3 follows hand 1), and the notes of unfinished hands."""


def run(*args: str, env: dict[str, str] | None = None) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args), env=env)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.output


def test_text_counts_each_code_most_frequent_first(tmp_path: Path) -> None:
    log = tmp_path / "x.log"
    log.write_text(LOG, encoding="utf-8")
    _, plain = run("check", "--format", "json", str(log))
    found = [d["code"] for d in json.loads(plain)["diagnostics"]]
    status, out = run("check", "--statistics", str(log))
    assert status == 1  # errors found, as without --statistics
    rows = [line.split("\t") for line in out.splitlines()]
    assert [(int(n), code) for n, code, *_ in rows] == sorted(
        ((found.count(c), c) for c in set(found)), key=lambda row: (-row[0], row[1]))
    assert rows[0][:3] == ["2", "KC301", "error"]
    assert rows[0][3].startswith("a card does not fit")
    assert not re.search(r"x\.log:\d", out)  # no diagnostics
    assert run("check", "--statistics", "--exit-zero", str(log))[0] == 0


def test_json_and_selection(tmp_path: Path) -> None:
    log = tmp_path / "x.log"
    log.write_text(LOG, encoding="utf-8")
    status, out = run("check", "--statistics", "--format", "json", "--select", "KC3,KC2", str(log))
    assert status == 1
    assert json.loads(out) == [
        {"code": "KC301", "count": 2, "severity": "error",
         "summary": "a card does not fit on the pile's top card (one rank lower, opposite colour)"},
        {"code": "KC214", "count": 1, "severity": "warning", "summary": "a hand number is out of sequence"},
    ]
    status, out = run("check", "--statistics", "--format", "json", "--ignore", "KC3", str(log))
    assert status == 0 and "KC301" not in out
    status, out = run("check", "--statistics", "--format", "junit", str(log))
    assert status == 2 and "--statistics prints text or json" in out
    # On GitHub Actions the default format is github: --statistics prints text there.
    status, out = run("check", "--statistics", str(log), env={"GITHUB_ACTIONS": "true"})
    assert status == 1 and out.startswith("2\tKC301")


def test_nothing_found_prints_nothing(tmp_path: Path) -> None:
    log = tmp_path / "x.log"
    log.write_text(LOG, encoding="utf-8")
    assert run("check", "--statistics", "--select", "KC6", str(log)) == (0, "")
    assert run("check", "--statistics", "--format", "json", "--select", "KC6", str(log)) == (0, "[]\n")
