"""``kcref fmt``."""

from __future__ import annotations

import sys
from collections.abc import Iterable

import click

from .common import gitignored, no_gitignore, resolve_inputs
from .registry import Described, RegistryChoice, RegistryOption


def ten_spellings() -> Iterable[Described]:
    """``--ten``: the spellings of :data:`kcref.apps.fmt.TEN_SPELLINGS`."""
    from ..apps.fmt import TEN_SPELLINGS

    return TEN_SPELLINGS


@click.command("fmt")
@click.argument("files", nargs=-1, required=True, type=click.Path(allow_dash=True))
@click.option("--check", "check_only", is_flag=True, help="Print nothing; exit 1 if a file is not canonical.")
@click.option("--write", is_flag=True, help="Rewrite files in place (atomically; through symbolic links).")
@click.option("--diff", is_flag=True,
              help="Print a unified diff of what would change; exit 1 if a file is not canonical.")
@click.option("--stdin-filename", metavar="NAME", help="The name of standard input (-) in messages and diffs.")
@click.option("--glob", "globs", multiple=True, metavar="PATTERN",
              help="File names to format inside directories (repeatable) [default: *.log and *.kc].")
@no_gitignore
@click.option("--ten", cls=RegistryOption, type=RegistryChoice(ten_spellings), default="10", show_default=True,
              help="How to write the rank ten: {choices}.")
@click.option("--symbols", is_flag=True, help="Write suits as ♠ ♥ ♦ ♣ instead of S H D C.")
@click.pass_context
def command(ctx: click.Context, files: tuple[str, ...], check_only: bool, write: bool, diff: bool,
            stdin_filename: str | None, globs: tuple[str, ...], no_gitignore: bool, ten: str, symbols: bool) -> None:
    """Print logs in canonical form, or check or rewrite them.

    FILE may be a log, a directory (searched for *.log and *.kc files), or - for standard
    input. Canonical form keeps every event, comment and blank-line break, and writes one
    spacing style, upper-case cards and piles, lower-case keywords. A file with syntax errors
    is left alone and its errors are printed. --write writes through a symbolic link, keeps
    the file's mode, and refuses a read-only file. Exit status: 0 done (or all canonical with
    --check), 1 a file is not canonical (--check) or has errors, 2 bad usage, a file that
    cannot be read, or one that cannot be rewritten. --diff prints a unified diff from each
    file to its canonical form and exits 1 when there is one (as --check does; both together
    are --diff).

    \b
    Examples:
      kcref fmt night.log
      kcref fmt --check nights/
      kcref fmt --write --ten T night.log
      kcref fmt --diff nights/
      kcref fmt --stdin-filename night.log - < night.log
    """
    from ..apps.fmt import run_fmt
    from ..notation.formatter import Mode
    from ..notation.writer import Spelling

    if write and (check_only or diff):
        raise click.UsageError(f"--write and {'--check' if check_only else '--diff'} cannot be used together")
    if write and "-" in files:
        raise click.UsageError("--write cannot rewrite standard input")
    inputs = resolve_inputs(files, globs, exclusions=gitignored(no_gitignore))
    mode = Mode.DIFF if diff else Mode.CHECK if check_only else Mode.WRITE if write else Mode.PRINT
    sys.stdout.flush()  # the canonical text goes to the bytes beneath it
    ctx.exit(run_fmt(inputs, mode, Spelling(ten=ten, symbols=symbols), sys.stdout.buffer,
                     lambda line: click.echo(line, err=True), stdin_name=stdin_filename))
