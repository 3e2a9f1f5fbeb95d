"""The exit statuses of every ``kcref`` command: one table, so that they mean the same everywhere."""

from __future__ import annotations

import enum


class ExitStatus(enum.IntEnum):
    """How a command ended. The worst outcome of a run wins: ``max()`` of the statuses."""

    OK = 0
    """Done: no errors (``check``), canonical (``fmt --check``), scored, drawn, written."""
    FOUND = 1
    """Errors found in the logs, or a log that is not canonical (``fmt --check``)."""
    USAGE = 2
    """Bad usage, or a file that cannot be read or written, or a hand or line not there."""
    INTERRUPTED = 130
    """Stopped by Ctrl-C (SIGINT), as shells count it: 128 + 2. Nothing half-written is left."""
