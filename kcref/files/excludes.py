"""Which files a folder search passes over: those git ignores, and those the configuration's
``exclude`` and ``extend-exclude`` name.

Both are written as lines of a ``.gitignore`` and read by the ``pathspec`` library, as black
reads them. Git's files are those of the repository the folder lies in: each ``.gitignore`` from
the repository's root down to the folder searched and below it (a pattern relative to the
folder of its file; a deeper file overrides a shallower one, as git lets it), and
``.git/info/exclude``. The configuration's patterns are relative to the folder of the file that
holds them (the working folder's, without one). They apply to what a search finds in a folder,
never to a file named on the command line: naming a file is asking for it.

``pathspec`` is imported only by a search that has a pattern to match.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from pathspec import GitIgnoreSpec

GITIGNORE = ".gitignore"
REPOSITORY_MARK = ".git"
"""What makes a folder the root of a repository (a folder, or a file in a git worktree)."""


def repository_root(folder: str) -> str | None:
    """The root of the repository the absolute path ``folder`` lies in: the first folder upwards
    holding :data:`REPOSITORY_MARK`; ``None`` outside any repository."""
    while True:
        if os.path.lexists(os.path.join(folder, REPOSITORY_MARK)):
            return folder
        parent = os.path.dirname(folder)
        if parent == folder:
            return None
        folder = parent


class Exclusions(NamedTuple):
    """What a folder search leaves out besides hidden folders: the configuration's patterns and,
    unless told not to, what git ignores."""

    patterns: tuple[str, ...] = ()
    """``exclude`` and ``extend-exclude``, lines of a ``.gitignore``."""
    base: str = "."
    """The folder ``patterns`` are relative to."""
    gitignore: bool = True
    """Whether the repository's ``.gitignore`` files count (``--no-gitignore``: no)."""

    def walk(self, folder: str) -> Walk:
        """The rules of a search of ``folder``: the patterns that apply above it, read now, and
        those met below it, read as the search goes down."""
        folder = os.path.abspath(folder)
        walk = Walk()
        if self.patterns:
            walk.add(os.path.abspath(self.base), self.patterns)
        if self.gitignore:
            root = repository_root(folder)
            if root is not None:
                info = os.path.join(root, REPOSITORY_MARK, "info", "exclude")
                walk.add(root, _lines(info))
                walk.read_gitignore(root)
                for above in _between(root, folder):
                    walk.read_gitignore(above)
        walk.reads_gitignore = self.gitignore
        return walk


NO_EXCLUSIONS = Exclusions(gitignore=False)
"""Nothing left out but hidden folders."""


@dataclass
class Walk:
    """The patterns in force during one folder search, each with the folder it is relative to,
    shallowest first: for a path, the last one that matches decides."""

    specs: list[tuple[str, GitIgnoreSpec]]
    reads_gitignore: bool

    def __init__(self) -> None:
        self.specs = []
        self.reads_gitignore = False

    def add(self, folder: str, lines: Sequence[str]) -> None:
        if not any(line.strip() and not line.lstrip().startswith("#") for line in lines):
            return
        self.specs.append((folder, _spec(lines)))

    def read_gitignore(self, folder: str) -> None:
        """Take the ``.gitignore`` of ``folder`` (an absolute path), if it has one."""
        self.add(folder, _lines(os.path.join(folder, GITIGNORE)))

    def entered(self, folder: str) -> None:
        """The search goes into ``folder`` (an absolute path, below the one searched)."""
        if self.reads_gitignore:
            self.read_gitignore(folder)

    def excluded(self, path: str, is_dir: bool) -> bool:
        """Whether the search passes over ``path`` (an absolute path)."""
        verdict = False
        for folder, spec in self.specs:
            relative = _relative(path, folder)
            if relative is None:
                continue
            include = spec.check_file(relative + "/" if is_dir else relative).include
            if include is not None:
                verdict = include
        return verdict


def _spec(lines: Sequence[str]) -> GitIgnoreSpec:
    """``lines`` compiled; a line that is no pattern (``!`` or ``\\`` alone) is passed over, as
    git passes it over."""
    from pathspec import GitIgnoreSpec

    try:
        return GitIgnoreSpec.from_lines(lines)
    except ValueError:
        return GitIgnoreSpec.from_lines([line for line in lines if pattern_problem(line) is None])


def pattern_problem(pattern: str) -> str | None:
    """Why ``pattern`` is not a line of a ``.gitignore`` that can be read, or ``None`` when it is one."""
    from pathspec import GitIgnoreSpec

    try:
        GitIgnoreSpec.from_lines([pattern])
    except ValueError as exc:
        return str(exc)
    return None


def matches_pattern(pattern: str, path: str, folder: str) -> bool:
    """Whether ``pattern`` (a line of a ``.gitignore`` relative to ``folder``) matches the file at
    ``path``, or a folder above it below ``folder``."""
    relative = _relative(os.path.abspath(path), os.path.abspath(folder))
    return relative is not None and _pattern(pattern).match_file(relative)


@functools.lru_cache(maxsize=256)
def _pattern(pattern: str) -> GitIgnoreSpec:
    """``pattern`` compiled, once for every file it is asked of."""
    from pathspec import GitIgnoreSpec

    return GitIgnoreSpec.from_lines([pattern])


def _relative(path: str, folder: str) -> str | None:
    """``path`` relative to ``folder`` with ``/`` between names, or ``None`` when it is not below it."""
    prefix = folder.rstrip(os.sep) + os.sep
    if not path.startswith(prefix):
        return None
    return path[len(prefix):].replace(os.sep, "/")


def _between(root: str, folder: str) -> Iterable[str]:
    """The folders below ``root`` down to ``folder`` (included), shallowest first."""
    relative = _relative(folder, root)
    if relative is None:
        return []
    names = relative.split("/")
    return [os.path.join(root, *names[:n]) for n in range(1, len(names) + 1)]


def _lines(path: str) -> list[str]:
    """The lines of a file of patterns; none when it cannot be read (git reads it the same way),
    or is not a regular file: a FIFO would block the search, a device such as ``/dev/zero``
    never end it."""
    if not os.path.isfile(path):
        return []
    try:
        with open(path, encoding="utf-8", errors="surrogateescape") as f:
            return f.read().splitlines()
    except OSError:
        return []
