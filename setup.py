"""The one build step pyproject.toml cannot state: the pages kcref prints (``kcref rules`` reads
the rulings from docs/rules.md) are copied into the built package as regular files, so that the
source tree keeps a single copy of each and holds no symbolic link.

Which pages, and from where: kcref/render/page_files.py (read here without importing kcref).
"""

from __future__ import annotations

import os
import runpy

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = os.path.dirname(os.path.abspath(__file__))
PAGES: dict[str, str] = runpy.run_path(os.path.join(HERE, "kcref", "render", "page_files.py"))["PAGES"]


class BuildWithPages(build_py):
    """``build_py``, then each page copied to ``kcref/render/pages/`` of the build (an editable
    install reads the source tree, as a checkout does)."""

    def run(self) -> None:
        super().run()
        if self.editable_mode:
            return
        target = os.path.join(self.build_lib, "kcref", "render", "pages")
        self.mkpath(target)
        for name, source in PAGES.items():
            self.copy_file(os.path.join(HERE, *source.split("/")), os.path.join(target, name))


setup(cmdclass={"build_py": BuildWithPages})
