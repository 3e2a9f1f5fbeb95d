"""The compiled build's list of modules (``COMPILED`` in setup.py) names modules that exist, and
docs/compiled.md names each of them; the build says which it is, and the suite runs on the build
it is meant to test (``KCREF_EXPECT_COMPILED=1``: the compiled one, installed)."""

from __future__ import annotations

import ast
import importlib
import os
import subprocess
import sys
from importlib.machinery import ExtensionFileLoader

from kcref.model.version import build
from tests.util import PACKAGE, ROOT

EXPECT_COMPILED = os.environ.get("KCREF_EXPECT_COMPILED") == "1"
"""Set by .ci/run for its run of the suite on the compiled build."""


def _compiled() -> list[str]:
    tree = ast.parse((ROOT / "setup.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "COMPILED" for t in node.targets):
            return [ast.literal_eval(e) for e in node.value.elts]  # type: ignore[attr-defined]
    raise AssertionError("setup.py has no COMPILED list")


def test_every_compiled_module_exists_and_is_documented() -> None:
    page = (ROOT / "docs" / "compiled.md").read_text(encoding="utf-8")
    modules = _compiled()
    assert modules and len(set(modules)) == len(modules)
    for path in modules:
        assert (PACKAGE.parent / path).is_file(), path
        folder, name = path.split("/")[-2:]
        assert f"{folder}/{name}" in page or f"`{name}`" in page, path


def test_the_version_says_which_build() -> None:
    out = subprocess.run([sys.executable, "-m", "kcref", "--version"], capture_output=True, text=True, cwd=ROOT,
                         check=True).stdout
    assert out.rstrip().endswith(f"({build()})") and build() in ("pure Python", "compiled with mypyc")


def test_the_suite_runs_on_the_build_it_means_to() -> None:
    """With ``KCREF_EXPECT_COMPILED=1``, every module of ``COMPILED`` is an extension module of an
    installed kcref, not the checkout's source; without it, none is (the pure build)."""
    names = [path.removesuffix(".py").replace("/", ".") for path in _compiled()]
    extensions = [name for name in names if isinstance(importlib.import_module(name).__loader__, ExtensionFileLoader)]
    if EXPECT_COMPILED:
        assert build() == "compiled with mypyc" and extensions == names
        assert ROOT not in PACKAGE.parents, f"the suite imports the checkout's kcref ({PACKAGE})"
    else:
        assert build() == "pure Python" and extensions == [], "the compiled build: set KCREF_EXPECT_COMPILED=1"
