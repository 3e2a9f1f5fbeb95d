"""Searching a folder for logs: regular files whose names match the globs, hidden folders skipped.

The search never opens a file. It does not follow symbolic links to folders (no loops), and it
keeps only regular files (a link to one is fine): a FIFO, a device or a socket found in a folder
is skipped with a word, since reading one could block forever or never end. What git ignores,
and what the configuration excludes, is passed over (:mod:`kcref.files.excludes`). A folder that cannot
be listed, or a matching name that cannot be looked at (a broken link, a link loop), is a problem
to report, never silently passed over.
"""

import fnmatch
import os
import stat
from collections.abc import Sequence
from typing import NamedTuple

from .excludes import NO_EXCLUSIONS, Exclusions, Walk

DEFAULT_GLOBS: tuple[str, ...] = ("*.log", "*.kc")


class Found(NamedTuple):
    """A regular file found by the search."""

    path: str


class Skipped(NamedTuple):
    """A file whose name matches but which is not a regular file, and what it is."""

    path: str
    kind: str


class Problem(NamedTuple):
    """A folder or file the search could not look at, and why (``cannot read: ...``)."""

    path: str
    reason: str


Entry = Found | Skipped | Problem


def cannot_read(exc: OSError, link: bool = False) -> str:
    """Why a path cannot be read, in the words every command uses (``cannot read: ...``)."""
    if isinstance(exc, FileNotFoundError):
        return "cannot read: a broken symbolic link" if link else "cannot read: no such file"
    if isinstance(exc, IsADirectoryError):
        return "cannot read: it is a directory"
    return f"cannot read: {exc.strerror or exc}"


_KINDS = ((stat.S_ISFIFO, "a FIFO (named pipe)"), (stat.S_ISCHR, "a character device"),
          (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"))


def file_kind(mode: int) -> str:
    """What a non-regular file is, in words."""
    return next((word for test, word in _KINDS if test(mode)), "not a regular file")


def matches(name: str, globs: Sequence[str]) -> bool:
    """Whether a file name matches one of the globs."""
    return any(fnmatch.fnmatch(name, g) for g in globs)


def search(folder: str, globs: Sequence[str] = DEFAULT_GLOBS, exclusions: Exclusions = NO_EXCLUSIONS) -> list[Entry]:
    """Everything below ``folder`` whose name matches one of ``globs``, sorted by path.

    Hidden folders (``.git``) are not searched, nor folders reached through a symbolic link, nor
    what ``exclusions`` leaves out (a folder left out is not searched).
    """
    out: list[Entry] = []
    walk = exclusions.walk(folder) if exclusions != NO_EXCLUSIONS else None
    pending = [folder]
    while pending:
        here = pending.pop()
        if walk is not None and here != folder:
            walk.entered(os.path.abspath(here))
        try:
            with os.scandir(here) as it:
                entries = list(it)
        except OSError as exc:
            out.append(Problem(here, cannot_read(exc)))
            continue
        for entry in entries:
            try:
                is_dir = entry.is_dir(follow_symlinks=False)
            except OSError:
                is_dir = False
            if is_dir:
                if not entry.name.startswith(".") and not _left_out(walk, entry.path, True):
                    pending.append(entry.path)
                continue
            if not matches(entry.name, globs) or _left_out(walk, entry.path, False):
                continue
            out.append(_classify(entry))
    out.sort(key=lambda e: e.path)
    return out


def _left_out(walk: Walk | None, path: str, is_dir: bool) -> bool:
    return walk is not None and walk.excluded(os.path.abspath(path), is_dir)


def _classify(entry: os.DirEntry[str]) -> Entry:
    try:
        link = entry.is_symlink()
    except OSError:
        link = False
    try:
        mode = os.stat(entry.path).st_mode  # follows a link: a link to a regular file is a log
    except OSError as exc:
        return Problem(entry.path, cannot_read(exc, link=link))
    if stat.S_ISREG(mode):
        return Found(entry.path)
    if stat.S_ISDIR(mode):
        return Skipped(entry.path, "a symbolic link to a folder" if link else "a folder")
    return Skipped(entry.path, file_kind(mode))
