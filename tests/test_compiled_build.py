"""The compiled build's list of modules (``COMPILED`` in setup.py) names modules that exist, and
docs/compiled.md names each of them; the build says which it is."""

from __future__ import annotations

import ast
import subprocess
import sys

from kcref.model.version import build
from tests.util import ROOT


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
        assert (ROOT / path).is_file(), path
        folder, name = path.split("/")[-2:]
        assert f"{folder}/{name}" in page or f"`{name}`" in page, path


def test_the_version_says_which_build() -> None:
    out = subprocess.run([sys.executable, "-m", "kcref", "--version"], capture_output=True, text=True, cwd=ROOT,
                         check=True).stdout
    assert out.rstrip().endswith(f"({build()})") and build() in ("pure Python", "compiled with mypyc")
