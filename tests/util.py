"""Shared test helpers: the repo root, the package under test, and golden files that can be
regenerated on purpose."""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import kcref
from kcref.model.version import build

ROOT = Path(__file__).resolve().parent.parent
"""The checkout: the samples, the docs, the golden files, the packaging files."""
PACKAGE = Path(kcref.__file__).resolve().parent
"""The kcref under test: the checkout's ``kcref/`` folder, or an installed build's (see
.ci/test-installed), whose modules' ``.py`` files are there too (beside their extension modules,
in the compiled build)."""
COMPILED_BUILD = build() == "compiled with mypyc"
"""The kcref under test is the compiled build (docs/compiled.md)."""
needs_source = pytest.mark.skipif(
    not (ROOT / "kcref").is_dir(),
    reason="needs the checkout's kcref/ source, which the run on an installed build leaves out (the pure run has it)")
UPDATE = os.environ.get("KCREF_UPDATE_GOLDEN") == "1"
"""Rewrite the golden files (and the docs' sessions) from what the pure build prints: the compiled
build is held to them, so it does not write them."""
if UPDATE and COMPILED_BUILD:
    raise pytest.UsageError("KCREF_UPDATE_GOLDEN=1 on the compiled build: golden files are written by the pure build")


def assert_golden(path: Path, actual: str) -> None:
    """Compare ``actual`` with the golden file exactly; with KCREF_UPDATE_GOLDEN=1, rewrite it."""
    if UPDATE:
        path.write_text(actual, encoding="utf-8")
        return
    assert path.exists(), f"missing golden file {path} (run with KCREF_UPDATE_GOLDEN=1 to create it)"
    assert actual == path.read_text(encoding="utf-8")


def shell_env(folder: Path) -> dict[str, str]:
    """An environment whose ``kcref`` on PATH runs the kcref under test (for tests that run shell lines)."""
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
