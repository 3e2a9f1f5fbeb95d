"""Every `$ command` in README.md and docs/commands.md prints exactly the output pasted under it,
the README's first hand is the log its session checks, and the library examples of docs/library.md
run as they stand."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from kcref import check_file
from tests.util import ROOT, UPDATE, shell_env

README = ROOT / "README.md"
COMMANDS = ROOT / "docs" / "commands.md"
LIBRARY_PAGE = ROOT / "docs" / "library.md"
BLOCK = re.compile(r"```\n(\$ .*?)```", re.S)
PLAIN = re.compile(r"```\n(.*?)```", re.S)


def sessions(text: str) -> list[tuple[str, str]]:
    """(command, expected output) for every `$ ` line of every plain code block."""
    out: list[tuple[str, str]] = []
    for m in BLOCK.finditer(text):
        for chunk in re.split(r"^(?=\$ )", m.group(1), flags=re.M):
            if chunk.startswith("$ "):
                command, _, expected = chunk[2:].partition("\n")
                out.append((command, expected))
    return out


def first_hand(text: str) -> str:
    """The log of the README's "A first hand to paste", which its session checks as first.log."""
    section = text.split("\n## A first hand to paste\n", 1)[1].split("\n## ", 1)[0]
    found = PLAIN.search(section)
    assert found is not None and not found.group(1).startswith("$ "), "the section shows no log"
    return found.group(1)


def test_the_pages_hold_the_sessions() -> None:
    counts = [len(sessions(page.read_text(encoding="utf-8"))) for page in (README, COMMANDS)]
    assert sum(counts) >= 10 and min(counts) >= 1, counts


@pytest.mark.parametrize("page", [README, COMMANDS], ids=lambda p: p.name)
def test_sessions_print_what_the_page_shows(page: Path, tmp_path: Path) -> None:
    (tmp_path / "samples").symlink_to(ROOT / "samples")
    env = shell_env(tmp_path)
    text = page.read_text(encoding="utf-8")
    if page == README:
        (tmp_path / "first.log").write_text(first_hand(text), encoding="utf-8")
    found = sessions(text)
    for command, expected in found:
        result = subprocess.run(["bash", "-c", command], cwd=tmp_path, env=env, capture_output=True,
                                text=True, timeout=120)
        assert result.returncode in (0, 1), (command, result.stderr)
        if UPDATE:
            text = text.replace(f"$ {command}\n{expected}", f"$ {command}\n{result.stdout}", 1)
        else:
            assert result.stdout == expected, command
    if UPDATE:
        page.write_text(text, encoding="utf-8")


LIBRARY = re.compile(r"```python\n(.*?)```", re.S)


def library_blocks(text: str) -> list[str]:
    """The Python code blocks of docs/library.md."""
    return LIBRARY.findall(text)


def test_library_code(tmp_path: Path) -> None:
    """Each library example runs as it stands; the bot's log checks clean, and the referee agrees
    with the engine on who won and the chips."""
    (tmp_path / "samples").symlink_to(ROOT / "samples")
    env = shell_env(tmp_path)
    blocks = library_blocks(LIBRARY_PAGE.read_text(encoding="utf-8"))
    assert len(blocks) >= 2
    outputs: list[str] = []
    for i, code in enumerate(blocks):
        script = tmp_path / f"block{i}.py"
        script.write_text(code, encoding="utf-8")
        result = subprocess.run([sys.executable, script.name], cwd=tmp_path, env=env, capture_output=True,
                                text=True, timeout=120)
        assert result.returncode == 0, (code, result.stderr)
        outputs.append(result.stdout)

    report = check_file(str(ROOT / "samples" / "commercial-night.log"))
    first = outputs[0].splitlines()
    assert len(first) == len(report.diagnostics) + len(report.hands)
    assert first[0].split()[:3] == [str(report.diagnostics[0].line), str(report.diagnostics[0].column),
                                    report.diagnostics[0].code]

    logs = sorted(tmp_path.glob("*.log"))
    assert len(logs) == 1, "the bot example writes one log"
    checked = subprocess.run(["kcref", "check", logs[0].name], cwd=tmp_path, env=env, capture_output=True,
                             text=True, timeout=120)
    assert checked.returncode == 0, checked.stdout
    assert checked.stdout.splitlines()[-1].startswith("1 file, 1 hand, 0 errors, 0 warnings"), checked.stdout
    verdict, = check_file(str(logs[0])).hands
    assert verdict.valid and verdict.winner_name is not None and verdict.stacks_end is not None
    bot_output = outputs[-1]
    assert verdict.winner_name in bot_output and str(list(verdict.stacks_end)) in bot_output, bot_output
