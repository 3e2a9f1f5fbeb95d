"""Which files ``kcref check`` reads: files as given, directories searched for logs."""

from __future__ import annotations

import fnmatch
import os
from collections.abc import Iterable, Sequence

DEFAULT_GLOBS: tuple[str, ...] = ("*.log", "*.kc")


class NoLogs(ValueError):
    """A directory given holds no file that matches the globs."""


def expand_paths(args: Iterable[str], globs: Sequence[str] = DEFAULT_GLOBS) -> list[str]:
    """Files in the order given; a directory stands for the files below it whose names match one
    of ``globs``, sorted by path, hidden folders skipped. ``-`` and missing paths are kept as they
    are (reading them reports the problem). Raises ``NoLogs`` naming each directory that holds
    no log: checking nothing there is never what was meant."""
    out: list[str] = []
    empty: list[str] = []
    for arg in args:
        if arg != "-" and os.path.isdir(arg):
            found = []
            for root, dirs, files in os.walk(arg):
                dirs[:] = sorted(d for d in dirs if not d.startswith("."))
                found += [os.path.join(root, f) for f in files
                          if any(fnmatch.fnmatch(f, g) for g in globs)]
            if not found:
                empty.append(arg)
            out.extend(sorted(found))
        else:
            out.append(arg)
    if empty:
        raise NoLogs(f"no log files found in {', '.join(empty)} (looked for {', '.join(globs)})")
    return out
