"""The package's folders are its layers, and a lower layer never imports a higher one.

The import graph is read from the source (every ``import`` and ``from ... import``, those inside
functions and ``TYPE_CHECKING`` blocks included), so a lazy import cannot hide an upward arrow.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.util import PACKAGE

LAYERS = ("model", "files", "notation", "engine", "referee", "scoring", "render", "apps", "cli")
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
    source = "def f():\n    from ..render import chart\n    from kcref.cli import main\n"
    found = _imports(PACKAGE / "model" / "cards.py", source)
    assert {"kcref.render", "kcref.render.chart", "kcref.cli"} <= found
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


RUNS_THINGS = ("subprocess", "multiprocessing", "concurrent", "threading", "signal", "socket", "time", "asyncio")
"""Modules that start processes, wait, or read the clock: what an application does, never a renderer."""


def _stdlib_imports(source: str) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.update(a.name.split(".")[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            found.add(node.module.split(".")[0])
    return found


def _runs_things(source: str) -> list[str]:
    """What in ``source`` starts a process, waits, reads the clock or the environment."""
    found = sorted(_stdlib_imports(source) & set(RUNS_THINGS))
    return found + [word for word in ("environ", "getenv") if word in source]


@pytest.mark.parametrize("path", [p for p in SOURCES if _layer(_module_name(p)) == "render"], ids=_module_name)
def test_a_renderer_runs_nothing(path: Path) -> None:
    """``kcref/render`` turns values into text: the running (files, workers, loops, polls) is ``kcref/apps``'s."""
    assert not _runs_things(path.read_text(encoding="utf-8")), _module_name(path)


def test_the_checker_sees_a_renderer_that_runs_things() -> None:
    assert _runs_things("import time\nfrom concurrent.futures import ProcessPoolExecutor\n") == ["concurrent", "time"]
    assert _runs_things("import os\nos.environ.get('NO_COLOR')\n") == ["environ"]
    assert _runs_things("from .cells import terminal\n") == []
