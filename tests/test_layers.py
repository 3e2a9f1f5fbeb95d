"""The package's folders are its layers, and a lower layer never imports a higher one.

The import graph is read from the source (every ``import`` and ``from ... import``, those inside
functions and ``TYPE_CHECKING`` blocks included), so a lazy import cannot hide an upward arrow.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "kcref"

LAYERS = ("model", "files", "notation", "engine", "referee", "scoring", "output", "apps", "cli")
"""Lowest first. A module may import its own layer and the layers before it."""

TOP_LEVEL = {"__init__", "__main__"}
"""The only modules outside a layer: the public API and ``python -m kcref``."""


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _imports(path: Path, source: str | None = None) -> set[str]:
    """The kcref modules and packages that ``path`` imports (or ``source``, read as if it were
    at ``path``), as absolute dotted names."""
    tree = ast.parse(path.read_text(encoding="utf-8") if source is None else source)
    package = _module_name(path).split(".")
    if path.name != "__init__.py":
        package = package[:-1]
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.split(".")[0] == "kcref")
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if target.split(".")[0] != "kcref":
                continue
            found.add(target)
            # ``from kcref.model import cards`` imports the module kcref.model.cards
            found.update(f"{target}.{a.name}" for a in node.names
                         if (PACKAGE.parent / Path(*f"{target}.{a.name}".split("."))).with_suffix(".py").exists())
    return found


def _layer(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[1] in LAYERS else None


SOURCES = sorted(PACKAGE.rglob("*.py"))


def test_every_module_is_in_a_layer() -> None:
    outside = [_module_name(p) for p in SOURCES
               if _layer(_module_name(p)) is None and p.stem not in TOP_LEVEL]
    assert not outside, f"modules outside the layer folders {LAYERS}: {outside}"
    folders = {p.name for p in PACKAGE.iterdir() if p.is_dir() and p.name != "__pycache__"}
    assert folders <= set(LAYERS), f"folders that are not layers: {sorted(folders - set(LAYERS))}"


@pytest.mark.parametrize("path", [p for p in SOURCES if _layer(_module_name(p))], ids=_module_name)
def test_no_upward_import(path: Path) -> None:
    own = LAYERS.index(_layer(_module_name(path)))  # type: ignore[arg-type]
    upward = sorted(m for m in _imports(path)
                    if (layer := _layer(m)) is not None and LAYERS.index(layer) > own)
    assert not upward, f"{_module_name(path)} (layer {LAYERS[own]}) imports a higher layer: {upward}"


def test_layers_do_not_import_the_top_level_package() -> None:
    """``from kcref import x`` below the CLI would import the public API, which names every layer."""
    offenders = sorted(_module_name(p) for p in SOURCES if _layer(_module_name(p)) not in (None, "cli")
                       and any(m == "kcref" for m in _imports(p)))
    assert not offenders, offenders


def test_the_checker_sees_an_upward_import() -> None:
    """The test above can fail: an upward import, even a lazy one, is found."""
    source = "def f():\n    from ..output import chart\n    from kcref.cli import main\n"
    found = _imports(PACKAGE / "model" / "cards.py", source)
    assert {"kcref.output", "kcref.output.chart", "kcref.cli"} <= found
    assert not _imports(PACKAGE / "model" / "cards.py", "from .clip import clip\n") - {"kcref.model.clip"}


def _circle(graph: dict[str, set[str]]) -> list[str] | None:
    """A path of imports that comes back to where it started, if there is one."""
    done: set[str] = set()
    path: list[str] = []

    def visit(module: str) -> list[str] | None:
        if module in path:
            return path[path.index(module):] + [module]
        if module in done:
            return None
        path.append(module)
        for imported in sorted(graph.get(module, ())):
            found = visit(imported)
            if found is not None:
                return found
        path.pop()
        done.add(module)
        return None

    for module in sorted(graph):
        found = visit(module)
        if found is not None:
            return found
    return None


def test_no_import_circle() -> None:
    """No module imports, even lazily or for type checking only, one that imports it back
    (through any number of modules): each pair of rooms has one direction."""
    graph = {_module_name(p): _imports(p) for p in SOURCES}
    assert _circle(graph) is None, " -> ".join(_circle(graph) or [])


def test_the_checker_sees_an_import_circle() -> None:
    graph = {"kcref.a": {"kcref.b"}, "kcref.b": {"kcref.c"}, "kcref.c": {"kcref.a", "kcref.d"}, "kcref.d": set()}
    assert _circle(graph) == ["kcref.a", "kcref.b", "kcref.c", "kcref.a"]
    assert _circle({"kcref.a": {"kcref.b"}, "kcref.b": set()}) is None
