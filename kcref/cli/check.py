"""``kcref check``."""

from __future__ import annotations

import sys
from collections.abc import Iterable
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, TextIO

import click

from .common import resolve_inputs
from .registry import Described, RegistryChoice, RegistryOption

if TYPE_CHECKING:
    from ..referee.pipeline import FileReport


def check_formats() -> Iterable[Described]:
    """``--format``: the output formats of :data:`kcref.output.check_formats.CHECK_FORMATS`."""
    from ..output.check_formats import CHECK_FORMATS

    return CHECK_FORMATS.values()


def stderr_is_terminal() -> bool:
    """Whether standard error is a terminal (then a progress bar shows there)."""
    return sys.stderr.isatty()


def progress_bar(reports: Iterable[FileReport], count: int) -> AbstractContextManager[Iterable[FileReport]]:
    """The files going by, on standard error."""
    return click.progressbar(reports, length=count, label="checking", file=sys.stderr)


@click.command("check")
@click.argument("files", nargs=-1, required=True, type=click.Path(dir_okay=True, allow_dash=True))
@click.option("--format", "fmt", cls=RegistryOption, type=RegistryChoice(check_formats),
              help="Output format [default: github when GITHUB_ACTIONS=true, else text]: {choices}.")
@click.option("--glob", "globs", multiple=True, metavar="PATTERN",
              help="File names to check inside directories (repeatable) [default: *.log and *.kc].")
@click.option("--jobs", "-j", type=click.IntRange(1, None), default=1, show_default=True,
              help="Check files in this many parallel processes (output keeps the order given).")
@click.option("--quiet", "-q", is_flag=True, help="Print only errors (and warnings with --strict), no summary.")
@click.option("--strict", is_flag=True, help="Treat warnings as errors.")
@click.option("--verbose", "-v", is_flag=True,
              help="Text format: print each penalty on its own line (by default a hand's penalties make one line).")
@click.option("--no-source", is_flag=True, help="Do not show the source line and caret under each message.")
@click.option("--exit-zero", is_flag=True,
              help="Exit 0 even when errors are found (2 still means bad usage or a file that cannot be read).")
@click.option("--output-file", "-o", "out", type=click.File("w", encoding="utf-8", lazy=False, atomic=True),
              default="-", metavar="FILE",
              help="Write the results to FILE instead of standard output.")
@click.pass_context
def command(ctx: click.Context, files: tuple[str, ...], fmt: str | None, globs: tuple[str, ...], jobs: int,
          quiet: bool, strict: bool, verbose: bool, no_source: bool, exit_zero: bool, out: TextIO) -> None:
    """Check game logs; report every problem as PATH:LINE:COL: SEVERITY CODE message.

    FILE may be a log, a directory (searched for *.log and *.kc files), or - for standard
    input. Exit status: 0 no errors (warnings and notes allowed, unless --strict; or any
    errors, with --exit-zero), 1 errors found, 2 bad usage or a file that cannot be read.

    \b
    Examples:
      kcref check samples/classic-night.log
      kcref check --jobs 2 --strict nights/
      kcref check --format json night.log
      kcref check --format sarif --exit-zero -o kcref.sarif nights/
      cat night.log | kcref check -
    """
    import os

    from ..model.status import ExitStatus
    from ..output.check_report import default_format, run_check

    inputs = resolve_inputs(files, globs)
    # A FILE is written whole or not at all (click's atomic file, put in place as the command ends).
    status = run_check(inputs, fmt or default_format(os.environ), out, jobs=jobs, quiet=quiet, strict=strict,
                       show_source=not no_source, verbose=verbose,
                       progress=progress_bar if stderr_is_terminal() else None)
    ctx.exit(ExitStatus.OK if exit_zero and status is ExitStatus.FOUND else status)
