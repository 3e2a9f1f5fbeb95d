"""A real editor: Neovim, headless, opens a log with its built-in LSP client attached to ``kcref
lsp``; what it holds (``vim.diagnostic.get()``, a completion list) is what ``kcref check
--format json`` says and the legal actions of the player to move."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

from kcref.engine.turns import legal_actions
from kcref.notation.reader import read_text
from kcref.notation.writer import action_text
from kcref.referee.replay import table_at
from kcref.render.table_view import locate
from tests.util import ROOT

NVIM = shutil.which("nvim")
SCRIPT = ROOT / "tests" / "data" / "lsp_neovim.lua"


def test_neovim_shows_checks_diagnostics_and_the_legal_actions(tmp_path: Path) -> None:
    assert NVIM is not None, "Neovim is needed (.ci/run installs it: apt-get install neovim)"
    log = tmp_path / "night.log"
    text = (ROOT / "samples" / "invalid" / "illegal-plays.log").read_text(encoding="utf-8")
    log.write_text(text, encoding="utf-8")
    out = tmp_path / "out.json"
    line = text.split("\n").index("Bob: 5S->E; draw 7S  # 5S, not 5H: black on black")
    env = {**os.environ, "KCREF_PYTHON": sys.executable, "KCREF_ROOT": str(ROOT), "KCREF_LOG": str(log),
           "KCREF_OUT": str(out), "KCREF_LINE": str(line), "KCREF_COLUMN": "5", "KCREF_NO_CACHE": "1"}
    nvim = subprocess.Popen([NVIM, "--headless", "--clean", "-n", "-c", f"luafile {SCRIPT}"], env=env, cwd=tmp_path,
                            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            start_new_session=True)
    try:
        _, errors = nvim.communicate(timeout=20)
    finally:
        if nvim.poll() is None:
            os.killpg(nvim.pid, signal.SIGKILL)  # its group: the server it started goes with it
            nvim.wait()
    assert out.exists(), errors.decode(errors="replace")
    got = json.loads(out.read_text(encoding="utf-8"))
    check = subprocess.run([sys.executable, "-m", "kcref", "check", "--format", "json", str(log)],
                           capture_output=True, text=True, cwd=tmp_path, timeout=60,
                           env={**os.environ, "PYTHONPATH": str(ROOT), "KCREF_NO_CACHE": "1"})
    expected = [(d["line"] - 1, d["column"] - 1, d["code"], d["message"])
                for d in json.loads(check.stdout)["diagnostics"]]
    assert sorted((d["line"], d["col"], d["code"], d["message"]) for d in got["diagnostics"]) == sorted(expected)
    located = locate(read_text(text, "x", trivia=True), "x", None, line)
    position = table_at(located.record, line, located.stacks, located.pot)
    assert position.table is not None and position.table.name == "Bob"
    assert got["completion"] == [action_text(a) for a in legal_actions(position.table)]
