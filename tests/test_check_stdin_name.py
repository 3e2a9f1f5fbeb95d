"""``kcref check --stdin-filename NAME``: standard input goes by NAME in every format, with or
without workers, and takes the configuration of NAME (as an editor or a pre-commit wrapper that
pipes a buffer expects)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from kcref.cli import main

BAD = '[Players "Ann, Bob"]\nhand 1\nlayout N:9D E:JS S:3C W:KC\nBob: 8S->N; draw\n'
"""The wrong player's turn: KC310 at line 4."""


@pytest.fixture
def club(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / ".git").mkdir()
    (tmp_path / "old").mkdir()
    (tmp_path / "ok.log").write_text('[Players "Ann, Bob"]\n', encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.mark.parametrize("jobs", ["1", "2"])
@pytest.mark.parametrize("fmt", ["text", "json", "github", "sarif", "gitlab", "junit"])
def test_standard_input_goes_by_the_name_given(club: Path, fmt: str, jobs: str) -> None:
    args = ["check", "--no-cache", "-j", jobs, "--format", fmt, "--stdin-filename", "old/night.log", "-", "ok.log"]
    result = CliRunner().invoke(main, args, input=BAD)
    assert result.exit_code == 1, result.output
    assert "old/night.log" in result.output and "<stdin>" not in result.output
    if fmt == "json":
        document = json.loads(result.output)
        assert [d["path"] for d in document["diagnostics"] if d["code"] == "KC310"] == ["old/night.log"]
        assert [f["path"] for f in document["files"]] == ["old/night.log", "ok.log"]


def test_standard_input_takes_the_configuration_of_its_name(club: Path) -> None:
    (club / "kcref.toml").write_text('[per-file-ignores]\n"old/" = ["KC3"]\n', encoding="utf-8")
    named = CliRunner().invoke(main, ["check", "--stdin-filename", "old/night.log", "-"], input=BAD)
    elsewhere = CliRunner().invoke(main, ["check", "--stdin-filename", "night.log", "-"], input=BAD)
    unnamed = CliRunner().invoke(main, ["check", "-"], input=BAD)
    assert (named.exit_code, elsewhere.exit_code, unnamed.exit_code) == (0, 1, 1)
    assert "1 error ignored by configuration" in named.output and "<stdin>:4:1" in unnamed.output
