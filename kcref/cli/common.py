"""What every command shares: reading its file arguments, writing its output file, and ending
with a message already worded."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import IO, TYPE_CHECKING

import click

from ..model.status import ExitStatus

if TYPE_CHECKING:
    from ..files.atomic import AtomicFile, StreamFile
    from ..files.excludes import Exclusions
    from ..files.inputs import Inputs


class Failed(click.ClickException):
    """The command cannot go on (a usage error, or a file that cannot be read or written); its
    message, already worded (and printable), goes to standard error as it is."""

    exit_code = ExitStatus.USAGE

    def show(self, file: IO[str] | None = None) -> None:
        click.echo(self.message, file=file, err=True)


no_gitignore = click.option("--no-gitignore", is_flag=True,
                            help="In folders, read the logs git ignores too (.gitignore files).")
"""``--no-gitignore``, for every command that searches folders."""


def gitignored(no_gitignore: bool) -> Exclusions:
    """What a folder search passes over for a command that reads no configuration: what git
    ignores, unless ``--no-gitignore``."""
    from ..files.excludes import Exclusions

    return Exclusions(gitignore=not no_gitignore)


def resolve_inputs(args: Sequence[str], globs: Sequence[str] = (), one_file: bool = False,
                   exclusions: Exclusions | None = None) -> Inputs:
    """The command's inputs (see :func:`kcref.files.inputs.resolve`); a word on standard error
    for each file skipped. Raises a usage error for arguments that cannot be used."""
    from ..files.inputs import DEFAULT_GLOBS, UsageProblem, resolve, skipped_note

    try:
        inputs = resolve(args, globs or DEFAULT_GLOBS, one_file=one_file,
                         exclusions=exclusions or gitignored(False))
    except UsageProblem as exc:
        raise click.UsageError(str(exc)) from None
    name = click.get_current_context().info_name
    for skipped in inputs.skipped:
        click.echo(f"kcref {name}: {skipped_note(skipped)}", err=True)
    return inputs


colour_option = click.option(
    "--color", "colour", type=click.Choice(["auto", "always", "never"]), default="auto", show_default=True,
    help="Colour the output: at a terminal (auto; NO_COLOR set: never, FORCE_COLOR set: always), always, never.")
"""``--color``, for every command that may colour what it prints."""


def wants_colour(choice: str, terminal: bool, environ: Mapping[str, str]) -> bool:
    """Whether to colour: ``always`` or ``never`` as said; ``auto``: never with ``NO_COLOR`` set
    (not empty), always with ``FORCE_COLOR`` set, else only at a terminal (https://no-color.org)."""
    if choice != "auto":
        return choice == "always"
    if environ.get("NO_COLOR"):
        return False
    return bool(environ.get("FORCE_COLOR")) or terminal


def cannot_write(path: str, exc: OSError) -> Failed:
    """``kcref CMD: cannot write PATH: REASON``, the end of a command whose output file cannot be
    written (exit 2)."""
    from ..model.diagnostics import printable

    name = click.get_current_context().info_name
    return Failed(printable(f"kcref {name}: cannot write {path}: {exc.strerror or exc}"))


def refuse_a_log_read(out: str, paths: Sequence[str]) -> None:
    """An output file that is one of the logs read (``paths``; through a link too) would be
    replaced by what is written about it: refused (:func:`cannot_write`), the log left as it is."""
    import os
    import stat

    from ..files.atomic import CannotWrite
    from ..files.inputs import STDIN

    try:
        st = os.stat(out)
    except (OSError, ValueError):
        return  # not there yet (or not a name at all): nothing it could replace
    if not stat.S_ISREG(st.st_mode):
        return  # a device or a FIFO is written through, never replaced
    for path in paths:
        if path == STDIN:
            continue
        try:
            log = os.stat(path)
        except (OSError, ValueError):
            continue
        if (log.st_dev, log.st_ino) == (st.st_dev, st.st_ino):
            raise cannot_write(out, CannotWrite("it is one of the logs read"))


@contextmanager
def output_file(path: str) -> Iterator[AtomicFile | StreamFile]:
    """The command's output file (see :func:`kcref.files.atomic.open_output`): written whole, once
    committed, or not at all; one that cannot be written ends the command (:func:`cannot_write`)."""
    from ..files.atomic import CannotWrite, open_output

    try:
        with open_output(path) as out:
            yield out
    except CannotWrite as exc:
        raise cannot_write(path, exc) from None
