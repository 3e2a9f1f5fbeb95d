"""Shared test helpers: the repo root, and golden files that can be regenerated on purpose."""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
UPDATE = os.environ.get("KCREF_UPDATE_GOLDEN") == "1"


def assert_golden(path: Path, actual: str) -> None:
    """Compare ``actual`` with the golden file exactly; with KCREF_UPDATE_GOLDEN=1, rewrite it."""
    if UPDATE:
        path.write_text(actual, encoding="utf-8")
        return
    assert path.exists(), f"missing golden file {path} (run with KCREF_UPDATE_GOLDEN=1 to create it)"
    assert actual == path.read_text(encoding="utf-8")


def shell_env(folder: Path) -> dict[str, str]:
    """An environment whose ``kcref`` on PATH runs this checkout (for tests that run shell lines)."""
    bin_dir = folder / "bin"
    bin_dir.mkdir(exist_ok=True)
    shim = bin_dir / "kcref"
    shim.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m kcref "$@"\n', encoding="utf-8")
    shim.chmod(0o755)
    env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}", "PYTHONPATH": str(ROOT)}
    for name in ("GITHUB_ACTIONS", "NO_COLOR"):
        env.pop(name, None)
    return env


@contextlib.contextmanager
def working_directory(path: Path) -> Iterator[None]:
    """``contextlib.chdir`` (Python 3.11) for the 3.10 the package supports."""
    before = os.getcwd()
    os.chdir(path)
    try:
        yield
    finally:
        os.chdir(before)
