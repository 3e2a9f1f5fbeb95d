"""The public library API: every name resolves, `dir(kcref)` shows it, importing it stays cheap,
type checkers see it, and the package ships as typed."""

from __future__ import annotations

import ast
import importlib
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import kcref
from tests.util import PACKAGE, ROOT

INIT = PACKAGE / "__init__.py"

BOT_AUTHOR_NAMES = {
    # reading and checking
    "read_text", "read_file", "check_text", "check_file", "FileReport",
    # the engine
    "start_hand", "begin_turn", "legal_actions", "apply", "can_end_turn", "end_turn", "declare_blocked",
    "reveal", "settle", "IllegalAction", "Table", "Holding",
    # dealing and options
    "deal_from_deck", "shuffled_deck", "Dealt", "Options", "PRESETS", "preset", "resolve",
    # events and actions
    "Action", "Event", "PlayCard", "MovePile", "Draw", "Pass", "PASS", "Tag", "HandStart", "Deal", "Layout",
    "Turn", "Blocked", "Reveal",
    # writing, cards, refereeing, bots
    "event_text", "write_text", "Card", "Pile", "parse_card",
    "referee_hand", "referee_hands", "HandVerdict", "Penalty",
    "play_log", "play_hand", "BOTS",
}
"""What a bot author reaches for; the API may grow, but none of these may go."""

HEAVY = ("pyparsing", "tabulate", "kcref.engine", "kcref.notation", "kcref.referee", "kcref.scoring",
         "kcref.render", "kcref.apps")
"""Modules that ``import kcref`` and ``kcref --version`` must not load."""


def test_the_bot_author_names_are_public() -> None:
    assert set(kcref.__all__) >= BOT_AUTHOR_NAMES, sorted(BOT_AUTHOR_NAMES - set(kcref.__all__))


def test_every_public_name_resolves_to_its_module() -> None:
    assert len(kcref.__all__) == len(set(kcref.__all__)), "a name is exported twice"
    for name in kcref.__all__:
        value = getattr(kcref, name)
        if name == "__version__":
            continue
        module = importlib.import_module(f"kcref.{kcref._EXPORTS[name]}")
        assert value is getattr(module, name), name


def test_dir_shows_the_api() -> None:
    shown = dir(kcref)
    assert shown == sorted(kcref.__all__)
    assert {"check_file", "legal_actions", "deal_from_deck", "__version__"} <= set(shown)


def test_an_unknown_name_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="no attribute 'Scoreboard'"):
        _ = kcref.Scoreboard
    with pytest.raises(ImportError):
        from kcref import Scoreboard  # type: ignore[attr-defined]  # noqa: F401


def _type_checking_imports() -> dict[str, str]:
    """Name -> module of the imports under ``if TYPE_CHECKING:`` in kcref/__init__.py."""
    tree = ast.parse(INIT.read_text(encoding="utf-8"))
    blocks = [node for node in tree.body if isinstance(node, ast.If)
              and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING"]
    assert len(blocks) == 1
    found: dict[str, str] = {}
    for node in blocks[0].body:
        assert isinstance(node, ast.ImportFrom) and node.level == 1 and node.module
        for alias in node.names:
            # ``X as X`` marks an explicit re-export for type checkers (mypy --strict)
            assert alias.asname == alias.name, f"import {alias.name} as {alias.name}"
            found[alias.name] = node.module
    return found


def test_type_checkers_see_every_public_name() -> None:
    assert _type_checking_imports() == kcref._EXPORTS


LOADED = """
import runpy, sys
try:
    {run}
except SystemExit as exit:
    assert not exit.code, exit.code
print("\\n".join(sorted(sys.modules)), file=sys.stderr)
"""


def _loaded_modules(run: str) -> set[str]:
    """The modules in ``sys.modules`` after a fresh Python runs the statement ``run``."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    result = subprocess.run([sys.executable, "-c", LOADED.format(run=run)], env=env, capture_output=True,
                            text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    return set(result.stderr.split())


@pytest.mark.parametrize("run", [
    "import kcref; kcref.__version__; dir(kcref)",
    "sys.argv = ['kcref', '--version']; runpy.run_module('kcref', run_name='__main__')",
], ids=["import", "version"])
def test_import_and_version_stay_light(run: str) -> None:
    loaded = _loaded_modules(run)
    assert "kcref" in loaded
    heavy = sorted(m for m in loaded if m.startswith(HEAVY))
    assert not heavy, f"loaded at start-up: {heavy}"


def test_first_use_imports_the_name() -> None:
    loaded = _loaded_modules("import kcref; kcref.legal_actions")
    assert "kcref.engine.turns" in loaded and "pyparsing" not in loaded


def test_py_typed_ships_with_the_package(tmp_path: Path) -> None:
    assert (PACKAGE / "py.typed").is_file()
    config = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert '[tool.setuptools.package-data]\nkcref = ["py.typed"]' in config
    pytest.importorskip("setuptools")
    source = tmp_path / "src"
    source.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, source / name)
    shutil.copytree(PACKAGE, source / "kcref", ignore=shutil.ignore_patterns("__pycache__"))
    result = subprocess.run([sys.executable, "-c", "import setuptools; setuptools.setup()", "-q", "build_py",
                             "--build-lib", str(tmp_path / "lib")], cwd=source, capture_output=True, text=True,
                            timeout=120)
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "lib" / "kcref" / "py.typed").is_file()
    assert (tmp_path / "lib" / "kcref" / "engine" / "turns.py").is_file()


EXAMPLES = sorted((ROOT / "examples").glob("*.py"))


def test_there_are_examples() -> None:
    assert EXAMPLES


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda p: p.name)
def test_example_runs(example: Path, tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    result = subprocess.run([sys.executable, str(example)], cwd=tmp_path, env=env, capture_output=True,
                            text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout


def test_cautious_bot_writes_clean_logs(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    for seed in ("2", "3"):
        result = subprocess.run([sys.executable, str(ROOT / "examples" / "cautious_bot.py"), seed], cwd=tmp_path,
                                env=env, capture_output=True, text=True, timeout=60)
        assert result.returncode == 0, result.stderr
        report = kcref.check_text(result.stdout, f"seed-{seed}.log")
        assert report.errors == 0 and len(report.hands) == 1 and report.hands[0].valid, report.diagnostics


ARCHITECTURE = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")


def test_architecture_doc_names_every_layer() -> None:
    from tests.test_layers import LAYERS

    missing = [layer for layer in LAYERS if f"`kcref/{layer}/`" not in ARCHITECTURE]
    assert not missing, missing


def test_architecture_doc_lists_the_public_api() -> None:
    section = ARCHITECTURE.split("\n## The public API\n", 1)[1].split("\n## ", 1)[0]
    listed = {name for line in section.splitlines() if line.startswith(("- ", "  "))
              for name in re.findall(r"`(\w+)`", line)}
    assert listed == set(kcref._EXPORTS), (sorted(listed - set(kcref._EXPORTS)),
                                           sorted(set(kcref._EXPORTS) - listed))


def test_architecture_doc_names_every_module() -> None:
    """A module added to a layer is named on the architecture page, so the page stays a map."""
    from tests.test_layers import LAYERS

    missing = [f"{layer}/{path.stem}" for layer in LAYERS for path in sorted((PACKAGE / layer).glob("*.py"))
               if path.stem not in ("__init__", "__main__") and f"`{path.stem}`" not in ARCHITECTURE]
    assert not missing, missing
