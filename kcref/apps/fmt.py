"""``kcref fmt`` as one function: format every input in order, and say what became of each."""

from __future__ import annotations

import errno
from collections.abc import Callable
from typing import BinaryIO, NamedTuple

from ..files.inputs import STDIN, Found, Inputs, Problem, display_name, problem_diagnostic
from ..model.diagnostics import Diagnostic, printable
from ..model.status import ExitStatus
from ..notation.formatter import Mode, Outcome, format_file
from ..notation.writer import Spelling
from ..render.diagnostic_lines import format_text


class TenSpelling(NamedTuple):
    """A way to write the rank ten (``Spelling.ten``, ``kcref fmt --ten``)."""

    name: str
    help: str


TEN_SPELLINGS = (TenSpelling("10", "10H, 10♥"), TenSpelling("T", "TH, T♥: every card two characters"))
"""The spellings of ten that ``kcref fmt`` writes, the default first."""

Say = Callable[[str], None]
"""Takes one line for standard error."""

OUTCOME_STATUS = {Outcome.UNREADABLE: ExitStatus.USAGE, Outcome.ERRORS: ExitStatus.FOUND}
"""The exit status a file's outcome calls for (any other outcome: OK, but CHANGED under CHECK: FOUND)."""


def run_fmt(inputs: Inputs, mode: Mode, spelling: Spelling, out: BinaryIO, say: Say,
            stdin_name: str | None = None) -> ExitStatus:
    """Format ``inputs`` in ``mode``: canonical text (PRINT) or a unified diff (DIFF) on ``out``,
    and on ``say`` the errors, what was or would be reformatted, and what could not be written.
    ``stdin_name`` names standard input in all of these (by default ``<stdin>``).

    Returns USAGE if a file could not be read or rewritten, FOUND if a file has syntax errors
    or (CHECK, DIFF) is not canonical, else OK.
    """
    status = ExitStatus.OK

    def error(d: Diagnostic) -> None:
        say(format_text(d))

    for entry in inputs.entries:
        if isinstance(entry, Problem):
            error(problem_diagnostic(entry))
            status = ExitStatus.USAGE
        if not isinstance(entry, Found):
            continue  # a file skipped has had its word
        given = stdin_name if stdin_name and entry.path == STDIN else display_name(entry.path)
        name = printable(given)
        try:
            outcome = format_file(entry.path, mode, spelling, on_error=error, out=out, name=given)
        except OSError as exc:
            if exc.errno == errno.EPIPE and mode is not Mode.WRITE:
                raise  # the reader of standard output has gone (| head): as for every command
            # Only --write writes the file: otherwise what failed is printing it (or its diff).
            done = "cannot write" if mode is Mode.WRITE else "cannot print"
            say(f"{name}: {done}: {exc.strerror or exc}; the file is unchanged")
            status = ExitStatus.USAGE
            continue
        status = max(status, OUTCOME_STATUS.get(outcome, ExitStatus.OK))
        if outcome is Outcome.CHANGED:
            say(f"{'reformatted' if mode is Mode.WRITE else 'would reformat'} {name}")
            if mode in (Mode.CHECK, Mode.DIFF):
                status = max(status, ExitStatus.FOUND)
    return status
