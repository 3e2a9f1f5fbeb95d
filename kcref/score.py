"""``kcref score``: referee every file, then total the scores across hands, games and nights.

``score_paths`` is the whole command as one function: it returns what to print and the exit
status, so that the command line only parses arguments and prints.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from .chart import chart as draw_chart
from .check import FileReport, check_paths
from .diagnostics import format_text
from .score_output import render
from .standings import Scoreboard, scoreboard

EXIT_OK, EXIT_ERRORS, EXIT_USAGE = 0, 1, 2


class ScoreResult(NamedTuple):
    """What ``kcref score`` prints on standard output and standard error, and its exit status."""

    out: str
    err: str
    status: int
    board: Scoreboard | None = None


def score_reports(reports: Sequence[FileReport], by: str = "player", fmt: str = "simple",
                  chart: bool = False, ascii_only: bool = False, skip_invalid: bool = False) -> ScoreResult:
    """Score checked files: refuse unreadable files (status 2) and, unless ``skip_invalid``,
    files with errors (status 1, the errors on standard error); else render the scoreboard."""
    unreadable = [d for r in reports if r.unreadable for d in r.diagnostics if d.is_error]
    if unreadable:
        return ScoreResult("", "".join(format_text(d) + "\n" for d in unreadable), EXIT_USAGE)
    errors = [d for r in reports for d in r.diagnostics if d.is_error]
    if errors and not skip_invalid:
        bad = [r.path for r in reports if r.errors]
        err = "".join(format_text(d) + "\n" for d in errors)
        err += (f"kcref score: {len(errors)} error{'s' * (len(errors) != 1)} in {', '.join(bad)}; "
                f"'kcref check {' '.join(bad)}' shows them with every warning and note. "
                f"Fix them, or use --skip-invalid to score the other hands.\n")
        return ScoreResult("", err, EXIT_ERRORS)
    board = scoreboard(reports)
    drawn = draw_chart(board, ascii_only) if chart else ""
    rendered = render(board, by, fmt, drawn)
    return ScoreResult(rendered.out, rendered.err, EXIT_OK, board)


def score_paths(paths: Sequence[str], by: str = "player", fmt: str = "simple", chart: bool = False,
                ascii_only: bool = False, skip_invalid: bool = False) -> ScoreResult:
    """``kcref score PATH...``: check every file in order (``-`` is standard input), then score."""
    return score_reports(list(check_paths(paths)), by, fmt, chart, ascii_only, skip_invalid)
