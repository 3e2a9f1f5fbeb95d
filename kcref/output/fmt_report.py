"""``kcref fmt`` as one function: format every input in order, and say what became of each."""

from __future__ import annotations

from collections.abc import Callable
from typing import BinaryIO, NamedTuple

from ..files.inputs import Found, Inputs, Problem, display_name, problem_diagnostic
from ..model.diagnostics import Diagnostic, printable
from ..model.status import ExitStatus
from ..notation.formatter import Mode, Outcome, format_file
from ..notation.writer import Spelling
from .diagnostic_lines import format_text


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


def run_fmt(inputs: Inputs, mode: Mode, spelling: Spelling, out: BinaryIO, say: Say) -> ExitStatus:
    """Format ``inputs`` in ``mode``: canonical text on ``out`` (PRINT), and on ``say`` the
    errors, what was or would be reformatted, and what could not be written.

    Returns USAGE if a file could not be read or rewritten, FOUND if a file has syntax errors
    or (CHECK) is not canonical, else OK.
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
        name = printable(display_name(entry.path))
        try:
            outcome = format_file(entry.path, mode, spelling, on_error=error, out=out)
        except OSError as exc:
            say(f"{name}: cannot write: {exc.strerror or exc}; the file is unchanged")
            status = ExitStatus.USAGE
            continue
        status = max(status, OUTCOME_STATUS.get(outcome, ExitStatus.OK))
        if outcome is Outcome.CHANGED:
            say(f"{'would reformat' if mode is Mode.CHECK else 'reformatted'} {name}")
            if mode is Mode.CHECK:
                status = max(status, ExitStatus.FOUND)
    return status
