"""Which configuration applies, and saying so: never a file above the repository (or, outside
any repository, above the working folder); the files in force named by --verbose, JSON and
SARIF; a hostile TOML file is a clear exit 2, never a traceback."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
from click.testing import CliRunner

from kcref.cli import main
from kcref.files.config import Finder
from tests.util import ROOT, working_directory

BAD = (ROOT / "samples" / "invalid" / "illegal-plays.log").read_text(encoding="utf-8")
"""Four rule errors, one a hand."""
SCHEMA = json.loads((ROOT / "tests" / "data" / "sarif-schema-2.1.0.json").read_text(encoding="utf-8"))


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture
def above(tmp_path: Path) -> Path:
    """tmp/kcref.toml that ignores every code, above tmp/repo (a repository) and tmp/plain (none),
    each holding bad.log."""
    (tmp_path / "kcref.toml").write_text('ignore = ["KC"]\n', encoding="utf-8")
    for name in ("repo", "plain"):
        (tmp_path / name / "nights").mkdir(parents=True)
        (tmp_path / name / "nights" / "bad.log").write_text(BAD, encoding="utf-8")
    (tmp_path / "repo" / ".git").mkdir()
    return tmp_path


@pytest.mark.parametrize("where", [".", "repo", "repo/nights"])
def test_a_file_above_the_repository_never_applies(above: Path, where: str) -> None:
    with working_directory(above / where):
        log = str(above / "repo" / "nights" / "bad.log")
        status, out, _ = run("check", log)
        assert status == 1 and "4 errors" in out and "ignored" not in out
        # A file inside the repository does, from any working folder.
        (above / "repo" / "kcref.toml").write_text('ignore = ["KC31"]\n', encoding="utf-8")
        status, out, _ = run("check", log)
        assert status == 1 and "2 errors, " in out and "2 errors ignored by configuration" in out
        # An explicit --config always applies.
        status, out, _ = run("check", "--config", str(above / "kcref.toml"), log)
        assert status == 0 and out.endswith("; 4 errors ignored by configuration\n")


def test_a_git_file_marks_a_repository_too(above: Path) -> None:
    (above / "repo" / ".git").rmdir()
    (above / "repo" / ".git").write_text("gitdir: /elsewhere/.git/worktrees/repo\n", encoding="utf-8")
    with working_directory(above):
        status, out, _ = run("check", "repo/nights/bad.log")
    assert status == 1 and "4 errors" in out


def test_outside_a_repository_the_search_stops_at_the_working_folder(above: Path) -> None:
    log = str(above / "plain" / "nights" / "bad.log")
    for where in (above / "plain", above / "plain" / "nights", ROOT):
        with working_directory(where):
            status, out, _ = run("check", log)
        assert status == 1 and "4 errors" in out, where
    with working_directory(above):  # the working folder's own file applies to the files below it
        status, out, _ = run("check", log)
    assert status == 0 and "4 errors ignored by configuration" in out


def test_the_top_of_the_search(above: Path) -> None:
    with working_directory(above / "plain"):
        finder = Finder()
        assert finder.top(str(above / "repo" / "nights")) == str(above / "repo")
        assert finder.top(str(above / "plain" / "nights")) == str(above / "plain")
        assert finder.top(str(above)) == str(above)  # not within the working folder: itself only
        assert finder.repository(str(above / "plain")) is None


def test_verbose_json_and_sarif_name_the_files_in_force(above: Path) -> None:
    (above / "repo" / "kcref.toml").write_text('ignore = ["KC31"]\n', encoding="utf-8")
    (above / "repo" / "nights" / "pyproject.toml").write_text('[tool.kcref]\nselect = ["KC3"]\n', encoding="utf-8")
    (above / "repo" / "other.log").write_text(BAD, encoding="utf-8")
    with working_directory(above / "repo"):
        status, out, err = run("check", "-v", "nights/bad.log", "other.log")
        assert err == ("kcref check: configuration: kcref.toml\n"
                       "kcref check: configuration: nights/pyproject.toml\n")
        assert "kcref.toml" not in out
        status, out, err = run("check", "nights/bad.log")
        assert err == ""  # not without --verbose
        doc = json.loads(run("check", "--format", "json", "nights/bad.log", "other.log")[1])
        assert doc["configurations"] == ["kcref.toml", "nights/pyproject.toml"]
        assert list(doc) == ["diagnostics", "files", "summary", "configurations"]
        assert doc["files"][1]["ignored"] == {"KC310": 1, "KC313": 1}
        doc = json.loads(run("check", "--format", "sarif", "nights/bad.log", "other.log")[1])
        jsonschema.Draft4Validator(SCHEMA).validate(doc)
        properties = doc["runs"][0]["properties"]
        assert properties["configurations"] == ["kcref.toml", "nights/pyproject.toml"]
        assert properties["ignored"] == {"KC310": 1, "KC313": 1}  # other.log only: KC3 selected in nights/
        status, out, err = run("check", "-v", "--isolated", "--format", "json", "other.log")
        assert status == 1 and err == "kcref check: configuration: none (the built-in settings)\n"
        assert json.loads(out)["configurations"] == []


@pytest.mark.parametrize(("text", "words"), [
    ("a = " + "[" * 5000 + "]" * 5000 + "\n", "nested too deeply"),
    ("jobs = " + "1" * 4301 + "\n", "a number too long to read"),
    ('cache-dir = "\\u0000"\n', "cache-dir: expected a folder name (not empty, without NUL characters)"),
    ('cache-dir = "x\\u0000y"\n', "cache-dir: expected a folder name"),
    ('cache-dir = ""\n', "cache-dir: expected a folder name"),
])
@pytest.mark.parametrize("name", ["kcref.toml", "pyproject.toml"])
def test_a_hostile_file_is_a_clear_usage_error(tmp_path: Path, text: str, words: str, name: str) -> None:
    if name == "pyproject.toml":
        text = "[tool.kcref]\n" + text
    (tmp_path / name).write_text(text, encoding="utf-8")
    (tmp_path / "x.log").write_text(BAD, encoding="utf-8")
    with working_directory(tmp_path):
        for args in (["check", "x.log"], ["check", "--config", name, "x.log"], ["score", "x.log"]):
            result = CliRunner().invoke(main, args)
            assert result.exit_code == 2, (args, result.output, result.exception)
            assert isinstance(result.exception, SystemExit)
            command = args[0]
            assert result.output.startswith(f"kcref {command}: {name}: ") and words in result.output, result.output
            assert "Traceback" not in result.output
