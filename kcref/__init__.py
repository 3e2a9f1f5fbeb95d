"""kcref: the referee and scorekeeper for Kings in the Corner.

Read a log into events with :func:`kcref.reader.read_text` / :func:`read_file`, check it with
:func:`check_text` / :func:`check_file`, and write events back with :mod:`kcref.writer`.
"""

from __future__ import annotations

__version__ = "0.1.0"

__all__ = ["__version__", "check_file", "check_text", "read_file", "read_text"]


def __getattr__(name: str) -> object:
    # Imports are lazy so that `kcref --version` starts fast.
    if name in ("check_file", "check_text"):
        from . import check

        return getattr(check, name)
    if name in ("read_file", "read_text"):
        from . import reader

        return getattr(reader, name)
    raise AttributeError(f"module 'kcref' has no attribute {name!r}")
