"""Every `$ command` in README.md prints exactly the output pasted under it."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

from tests.util import ROOT, UPDATE, shell_env

README = ROOT / "README.md"
BLOCK = re.compile(r"```\n(\$ .*?)```", re.S)


def sessions(text: str) -> list[tuple[str, str]]:
    """(command, expected output) for every `$ ` line of every plain code block."""
    out: list[tuple[str, str]] = []
    for m in BLOCK.finditer(text):
        for chunk in re.split(r"^(?=\$ )", m.group(1), flags=re.M):
            if chunk.startswith("$ "):
                command, _, expected = chunk[2:].partition("\n")
                out.append((command, expected))
    return out


def test_readme_sessions(tmp_path: Path) -> None:
    (tmp_path / "samples").symlink_to(ROOT / "samples")
    env = shell_env(tmp_path)
    text = README.read_text(encoding="utf-8")
    found = sessions(text)
    assert len(found) >= 10
    for command, expected in found:
        result = subprocess.run(["bash", "-c", command], cwd=tmp_path, env=env, capture_output=True,
                                text=True, timeout=120)
        assert result.returncode in (0, 1), (command, result.stderr)
        if UPDATE:
            text = text.replace(f"$ {command}\n{expected}", f"$ {command}\n{result.stdout}", 1)
        else:
            assert result.stdout == expected, command
    if UPDATE:
        README.write_text(text, encoding="utf-8")
