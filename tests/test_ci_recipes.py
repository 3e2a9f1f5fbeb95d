"""The recipes of docs/ci.md and the pre-commit hooks, run for real against the samples."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from kcref.cli import main
from tests.util import ROOT, shell_env

DOC = (ROOT / "docs" / "ci.md").read_text(encoding="utf-8")


def block(heading: str, lang: str) -> str:
    """The first ``lang`` code block under the heading ``## heading`` of docs/ci.md."""
    section = DOC.split(f"## {heading}\n", 1)[1].split("\n## ", 1)[0]
    m = re.search(rf"```{lang}\n(.*?)```", section, re.S)
    assert m, f"no {lang} block under {heading}"
    return m.group(1)


@pytest.fixture
def shell(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    """A folder with nights/ (two good logs) and a `kcref` on PATH that runs this checkout."""
    nights = tmp_path / "nights"
    nights.mkdir()
    for name in ("classic-night.log", "commercial-night.log"):
        shutil.copy(ROOT / "samples" / name, nights / name)
    env = shell_env(tmp_path)
    return tmp_path, env


def sh(command: str, cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["bash", "-c", command], cwd=cwd, env=env, capture_output=True, text=True, timeout=120)


def break_a_night(folder: Path) -> None:
    shutil.copy(ROOT / "samples" / "invalid" / "illegal-plays.log", folder / "nights" / "z-bad.log")


def test_shell_loop(shell: tuple[Path, dict[str, str]]) -> None:
    folder, env = shell
    script = block("A plain shell loop", "sh")
    good = sh(script, folder, env)
    assert good.returncode == 0, good.stderr
    assert good.stdout.splitlines() == ["ok      nights/classic-night.log", "ok      nights/commercial-night.log"]
    break_a_night(folder)
    bad = sh(script, folder, env)
    assert bad.returncode == 1 and bad.stdout.splitlines()[-1] == "FAILED  nights/z-bad.log"


def _kcref_lines(yaml_text: str) -> list[str]:
    return [m.group(1) for m in re.finditer(r"(?:- run: |    - )(kcref .*)", yaml_text)]


@pytest.mark.parametrize("heading", ["GitHub Actions", "GitLab CI", "GitHub code scanning", "GitLab Code Quality"])
def test_ci_commands(heading: str, shell: tuple[Path, dict[str, str]]) -> None:
    folder, env = shell
    commands = _kcref_lines(block(heading, "yaml"))
    assert commands
    for command in commands:
        result = sh(command, folder, env)
        assert result.returncode == 0, (command, result.stdout, result.stderr)
    break_a_night(folder)
    assert sh(commands[0], folder, env).returncode == 1


def test_github_annotations_on_github(shell: tuple[Path, dict[str, str]]) -> None:
    folder, env = shell
    break_a_night(folder)
    result = sh("kcref check --jobs 2 nights/", folder, {**env, "GITHUB_ACTIONS": "true"})
    assert result.returncode == 1
    assert result.stdout.count("::error file=nights/z-bad.log") == 4
    assert result.stdout.count("::group::") == result.stdout.count("::endgroup::") == 3


def hooks() -> list[dict[str, str]]:
    """The hooks of .pre-commit-hooks.yaml (a flat list of `key: value` mappings)."""
    found: list[dict[str, str]] = []
    for line in (ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8").splitlines():
        m = re.match(r"^(- |  )(\w+): (.*)$", line)
        if m:
            if m.group(1) == "- ":
                found.append({})
            found[-1][m.group(2)] = m.group(3)
    return found


def test_the_docs_give_the_hooks_a_folder_of_log_files() -> None:
    """docs/ci.md's `files:` for a folder of *.log game logs takes those and *.kc, nothing else."""
    text = (ROOT / "docs" / "ci.md").read_text(encoding="utf-8")
    given = re.findall(r"^ +- id: (kcref-[\w-]+)\n +files: (.+)$", text, re.M)
    assert {hook for hook, _ in given} == {"kcref-check", "kcref-fmt"} and len({p for _, p in given}) == 1
    pattern = re.compile(given[0][1])
    assert all(pattern.search(name) for name in ("nights/2024-05-01.log", "a.kc", "nights/b.kc"))
    assert not [name for name in ("npm-debug.log", "build/nights/x.log", "nights.log", "a.txt") if pattern.search(name)]


def test_pre_commit_hooks(shell: tuple[Path, dict[str, str]], tmp_path: Path) -> None:
    folder, env = shell
    by_id = {h["id"]: h for h in hooks()}
    assert set(by_id) == {"kcref-check", "kcref-fmt", "kcref-fmt-check"}
    for hook in by_id.values():
        assert hook["language"] == "python"
        pattern = re.compile(hook["files"].replace("\\\\", "\\"))
        assert pattern.search("a.kc") and pattern.search("nights/x.kc")
        # A repository's other *.log files are not game logs (an npm-debug.log once got KC101).
        assert not [name for name in ("npm-debug.log", "nights/x.log", "a.txt", "a.kcx") if pattern.search(name)]
    # pre-commit runs `entry` with the staged files that match `files` appended.
    staged = "nights/classic-night.log nights/commercial-night.log"
    for hook in by_id.values():
        assert sh(f"{hook['entry']} {staged}", folder, env).returncode == 0, hook["id"]
    break_a_night(folder)
    result = sh(f"{by_id['kcref-check']['entry']} nights/z-bad.log", folder, env)
    assert result.returncode == 1 and len(result.stdout.splitlines()) >= 4
    messy = folder / "nights" / "messy.log"
    text = '[Players "Ann, Bob"]\nhand 1\nlayout n:5d E:JS S:KH W:2C\n'
    messy.write_text(text, encoding="utf-8")
    # The check-only hook fails, shows the change, and leaves the file alone.
    result = sh(f"{by_id['kcref-fmt-check']['entry']} nights/messy.log", folder, env)
    assert result.returncode == 1 and "would reformat nights/messy.log" in result.stderr
    assert "-layout n:5d E:JS S:KH W:2C\n+layout N:5D E:JS S:KH W:2C\n" in result.stdout
    assert messy.read_text(encoding="utf-8") == text
    # The rewriting hook, as black's: it rewrites the file (pre-commit fails the commit on the change).
    result = sh(f"{by_id['kcref-fmt']['entry']} nights/messy.log", folder, env)
    assert result.returncode == 0 and "reformatted nights/messy.log" in result.stderr
    assert "layout N:5D E:JS S:KH W:2C" in messy.read_text(encoding="utf-8")
    assert sh(f"{by_id['kcref-fmt-check']['entry']} nights/messy.log", folder, env).returncode == 0


def test_completion_scripts() -> None:
    for shell_name, marker in (("bash", "complete -o nosort -F _kcref_completion kcref"),
                               ("zsh", "compdef _kcref_completion kcref"), ("fish", "complete --no-files --command kcref")):
        result = CliRunner().invoke(main, ["completion", shell_name])
        assert result.exit_code == 0 and marker in result.output, result.output[-300:]


def test_every_command_has_help_with_an_example() -> None:
    for name in main.commands:
        result = CliRunner().invoke(main, [name, "--help"])
        assert result.exit_code == 0 and "Examples:" in result.output, name
