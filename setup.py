"""The build steps pyproject.toml cannot state.

- The pages kcref prints (``kcref rules`` reads the rulings from docs/rules.md) are copied into
  the built package as regular files, so that the source tree keeps a single copy of each and
  holds no symbolic link. Which pages, and from where: kcref/render/page_files.py (read here
  without importing kcref).
- With ``KCREF_MYPYC=1`` the modules of :data:`COMPILED` are compiled with mypyc (as black ships
  them), mypy being asked for as a build requirement; without it the build is pure Python and
  needs no C compiler. docs/compiled.md says which modules, and why not the others.
"""

from __future__ import annotations

import os
import runpy

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = os.path.dirname(os.path.abspath(__file__))
PAGE_FILES = runpy.run_path(os.path.join(HERE, "kcref", "render", "page_files.py"))
PAGES: dict[str, str] = PAGE_FILES["PAGES"]
COMPILED = [
    "kcref/model/options.py", "kcref/model/events.py", "kcref/model/diagnostics.py",
    "kcref/engine/table.py", "kcref/engine/moves.py", "kcref/engine/turns.py", "kcref/engine/policy.py",
    "kcref/engine/values.py", "kcref/engine/carry.py", "kcref/engine/bots.py", "kcref/engine/dealing.py",
    "kcref/notation/reader.py", "kcref/notation/sourcelines.py", "kcref/notation/textlines.py",
    "kcref/notation/writer.py",
    "kcref/referee/grouping.py", "kcref/referee/setup_checks.py", "kcref/referee/replay.py",
    "kcref/referee/verdict.py", "kcref/referee/pipeline.py",
    "kcref/render/table_svg.py", "kcref/render/replay_steps.py",
]
"""The modules a compiled build compiles: the reader, the engine and the referee, where a check
spends its time (docs/compiled.md)."""
MYPYC = os.environ.get("KCREF_MYPYC") == "1"


def compiled_modules() -> list[object]:
    """mypyc's extension modules of :data:`COMPILED` (none for a pure build). While the build
    asks for its requirements mypy is not there yet: it comes with them (``setup_requires``)."""
    if not MYPYC:
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        return []
    return list(mypycify(COMPILED, opt_level="3"))


class BuildWithPages(build_py):
    """``build_py``, then each page copied to ``kcref/render/pages/`` (``FOLDER``) of the build (an
    editable install reads the source tree, as a checkout does)."""

    def run(self) -> None:
        super().run()
        if self.editable_mode:
            return
        target = os.path.join(self.build_lib, "kcref", "render", PAGE_FILES["FOLDER"])
        self.mkpath(target)
        for name, source in PAGES.items():
            self.copy_file(os.path.join(HERE, *source.split("/")), os.path.join(target, name))


setup(cmdclass={"build_py": BuildWithPages}, ext_modules=compiled_modules(),
      setup_requires=["mypy==2.4.1", "pyparsing>=3.1"] if MYPYC else [])
