"""The configuration recipe of docs/ci.md, run for real against the samples."""

from __future__ import annotations

import json
from pathlib import Path

from tests.test_ci_recipes import block, break_a_night, sh, shell

__all__ = ["shell"]  # the fixture, shared


def test_configuration_recipe(shell: tuple[Path, dict[str, str]]) -> None:
    folder, env = shell
    (folder / "kcref.toml").write_text(block("Configuration and suppression", "toml"), encoding="utf-8")
    commands = [line for line in block("Configuration and suppression", "sh").splitlines() if line]
    for command in commands:
        result = sh(command, folder, env)
        assert result.returncode == 0, (command, result.stdout, result.stderr)
    counted = sh(commands[0], folder, env).stdout
    break_a_night(folder)
    assert sh(commands[0], folder, env).stdout != counted
    assert sh(commands[1], folder, env).returncode == 1
    # A suppression on each line at fault: the folder passes, even under strict = true.
    bad = folder / "nights" / "z-bad.log"
    lines = bad.read_text(encoding="utf-8").splitlines()
    found = sh(f"kcref check --isolated --format json {bad}", folder, env).stdout
    codes: dict[int, list[str]] = {}
    for d in json.loads(found)["diagnostics"]:
        codes.setdefault(d["line"], []).append(d["code"])
    for line, named in codes.items():
        lines[line - 1] += f"  # kcref: ignore[{', '.join(named)}]"
    bad.write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = sh(commands[1], folder, env)
    assert result.returncode == 0, result.stdout
    assert "KC007" not in result.stdout
