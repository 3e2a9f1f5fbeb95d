"""What a command reads: files as given, folders searched for logs, and ``-`` for standard input.

``check``, ``fmt`` and ``score`` take any number of them; ``show`` takes one file or ``-``. Every
command resolves its arguments here, so a missing file, a folder where one file is needed and an
unreadable file or folder are worded alike (``PATH:0:0: error KC001 cannot read: ...``) and make
the run exit 2, and standard input is named ``<stdin>`` everywhere.
"""

import os
import sys
from collections.abc import Sequence
from typing import BinaryIO, NamedTuple

from ..model.diagnostics import Diagnostic, diagnostic, printable
from .discover import DEFAULT_GLOBS, Entry, Found, Problem, Skipped, cannot_read, search
from .excludes import NO_EXCLUSIONS, Exclusions

STDIN = "-"
STDIN_NAME = "<stdin>"

__all__ = ["DEFAULT_GLOBS", "STDIN", "STDIN_NAME", "Found", "Inputs", "Problem", "Skipped", "UsageProblem",
           "display_name", "open_input", "problem_diagnostic", "resolve",
           "skipped_note"]


class UsageProblem(ValueError):
    """The arguments cannot be used as given: a usage error (exit 2). The message says why."""


class Inputs(NamedTuple):
    """The resolved arguments, in the order given (a folder's files sorted by path)."""

    entries: list[Entry]
    """Files to read (``Found``; ``-`` is standard input), things that could not be read
    (``Problem``: the run exits 2) and files that are not logs (``Skipped``: a word on stderr)."""

    @property
    def paths(self) -> list[str]:
        return [e.path for e in self.entries if isinstance(e, Found)]

    @property
    def problems(self) -> list[Problem]:
        return [e for e in self.entries if isinstance(e, Problem)]

    @property
    def skipped(self) -> list[Skipped]:
        return [e for e in self.entries if isinstance(e, Skipped)]


def display_name(path: str) -> str:
    """How a path is named in messages and outputs: ``<stdin>`` for ``-``."""
    return STDIN_NAME if path == STDIN else path


def resolve(args: Sequence[str], globs: Sequence[str] = DEFAULT_GLOBS, *, one_file: bool = False,
            exclusions: Exclusions = NO_EXCLUSIONS) -> Inputs:
    """Resolve command-line arguments into what to read.

    A file is read as given (reading it reports a missing or unreadable file, and a FIFO given
    by name is read once, as a stream). A folder stands for the regular files below it whose
    names match one of ``globs``, less what ``exclusions`` leaves out (see
    :func:`kcref.files.discover.search`); with ``one_file`` a folder
    is a problem instead. Raises ``UsageProblem`` when ``-`` is given more than once, or when a
    folder holds no log: checking nothing there is never what was meant.
    """
    if list(args).count(STDIN) > 1:
        raise UsageProblem("'-' (standard input) is given more than once: it can be read only once")
    entries: list[Entry] = []
    empty: list[str] = []
    passed_over: list[Skipped] = []
    for arg in args:
        if arg == STDIN or not os.path.isdir(arg):
            entries.append(Found(arg))
        elif one_file:
            entries.append(Problem(arg, cannot_read(IsADirectoryError())))
        else:
            found = search(arg, globs, exclusions)
            if not any(isinstance(e, (Found, Problem)) for e in found):
                empty.append(arg)
                passed_over.extend(e for e in found if isinstance(e, Skipped))
            entries.extend(found)
    if empty:
        notes = "".join(f"; {skipped_note(s)}" for s in passed_over)
        raise UsageProblem(printable(f"no log files found in {', '.join(empty)} (looked for {', '.join(globs)})"
                                     f"{notes}"))
    return Inputs(entries)


def problem_diagnostic(problem: Problem) -> Diagnostic:
    """The diagnostic that reports a path that could not be read (KC001, at line 0)."""
    return diagnostic(problem.path, 0, 0, "KC001", problem.reason)



def skipped_note(skipped: Skipped) -> str:
    """The word said about a file found in a folder that is not read (safe for a terminal)."""
    return printable(f"skipped {skipped.path}: {skipped.kind}, not a regular file")



def open_input(path: str, stdin: BinaryIO | None = None) -> BinaryIO | Diagnostic:
    """Open a file given to read (``-``: ``stdin``, by default the process's standard input),
    or the KC001 diagnostic that says why it cannot be."""
    if path == STDIN:
        return stdin or sys.stdin.buffer
    try:
        return open(path, "rb")
    except OSError as exc:
        return problem_diagnostic(Problem(path, cannot_read(exc)))
