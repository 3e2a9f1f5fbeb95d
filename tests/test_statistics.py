"""``kcref check --statistics``: a count per code, most frequent first, in text or JSON."""

from __future__ import annotations

import json
import re
from pathlib import Path

from click.testing import CliRunner

from kcref.cli import main
from tests.util import ROOT

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
    rows = json.loads(out)
    assert rows[:2] == [
        {"code": "KC301", "count": 2, "severity": "error",
         "summary": "a card does not fit on the pile's top card (one rank lower, opposite colour)"},
        {"code": "KC214", "count": 1, "severity": "warning", "summary": "a hand number is out of sequence"},
    ]
    # What the selection leaves out is listed after, each row saying why.
    assert [(r["code"], r["hidden"]) for r in rows[2:]] == [("KC501", "ignored")]
    status, out = run("check", "--statistics", "--format", "json", "--ignore", "KC3", str(log))
    assert status == 0
    assert {"code": "KC301", "count": 2, "severity": "error", "hidden": "ignored",
            "summary": "a card does not fit on the pile's top card (one rank lower, opposite colour)"} in json.loads(out)
    status, out = run("check", "--statistics", "--format", "junit", str(log))
    assert status == 2 and "--statistics prints text or json" in out
    # On GitHub Actions the default format is github: --statistics prints text there.
    status, out = run("check", "--statistics", str(log), env={"GITHUB_ACTIONS": "true"})
    assert status == 1 and out.startswith("2\tKC301")
    # So does a configuration's format, a default too (it once made --statistics a usage error);
    # json stays json.
    (tmp_path / ".git").mkdir()
    for toml, start in (('format = "github"\n', "2\tKC301"), ('format = "json"\n', "[")):
        (tmp_path / "kcref.toml").write_text(toml, encoding="utf-8")
        status, out = run("check", "--no-cache", "--statistics", "--config", str(tmp_path / "kcref.toml"), str(log))
        assert status == 1 and out.startswith(start), out


def test_nothing_found_prints_nothing(tmp_path: Path) -> None:
    log = tmp_path / "x.log"
    log.write_text((ROOT / "samples" / "short-classic.log").read_text(encoding="utf-8"), encoding="utf-8")
    assert run("check", "--statistics", str(log)) == (0, "")
    assert run("check", "--statistics", "--format", "json", str(log)) == (0, "[]\n")


def test_what_is_not_reported_is_still_counted(tmp_path: Path) -> None:
    log = tmp_path / "x.log"
    log.write_text(LOG.replace("Bob: 8D->N; draw", "Bob: 8D->N; draw  # kcref: ignore[KC301]"), encoding="utf-8")
    status, out = run("check", "--statistics", "--select", "KC6", str(log))
    assert status == 0
    rows = [line.split("\t") for line in out.splitlines()]
    assert ["1", "KC301", "error", "ignored by configuration: a card does not fit on the pile's top card (one rank "
            "lower, opposite colour)"] in rows
    assert rows[-1][:3] == ["1", "KC301", "error"] and rows[-1][3].startswith("suppressed: a card")
    assert all(row[3].startswith(("ignored by configuration: ", "suppressed: ")) for row in rows)
    assert [row[1] for row in rows].count("KC214") == 1  # each code once for each reason
    # --quiet: only what would fail.
    status, out = run("check", "--statistics", "--quiet", "--select", "KC6", str(log))
    assert [line.split("\t")[1] for line in out.splitlines()] == ["KC301", "KC301"]
