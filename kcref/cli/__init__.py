"""The ``kcref`` command line: each command parses its arguments, calls one library function,
prints and exits. One module per command, named as the command and defining ``command``; a
command's module is imported only when that command is run (or listed in the help), and the
libraries only inside the command, so that ``kcref --version`` starts fast and each command
imports only what it needs."""

from __future__ import annotations

import errno
import gc
import importlib
import os
import sys
from collections.abc import Iterator, MutableMapping
from typing import Any

import click

from .. import __version__
from ..model.status import ExitStatus
from ..model.version import build

__all__ = ["main", "run"]

COMMANDS = ("check", "fmt", "score", "show", "record", "serve", "report", "play", "arena", "rules", "explain",
            "completion", "lsp")
"""The commands, each the ``command`` of the module of ``kcref.cli`` of the same name."""


class Commands(MutableMapping[str, click.Command]):
    """A group's commands by name, each imported from its module when first asked for."""

    def __init__(self, names: tuple[str, ...]) -> None:
        self._commands: dict[str, click.Command | None] = dict.fromkeys(names)

    def __getitem__(self, name: str) -> click.Command:
        command = self._commands[name]
        if command is None:
            command = self._commands[name] = importlib.import_module(f"{__name__}.{name}").command
        return command

    def __setitem__(self, name: str, command: click.Command) -> None:
        self._commands[name] = command

    def __delitem__(self, name: str) -> None:
        del self._commands[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._commands)

    def __len__(self) -> int:
        return len(self._commands)


class Program(click.Group):
    """The ``kcref`` group: Ctrl-C in any command ends it with exit status 130 and a one-line
    note, the way shells expect (click would print ``Aborted!`` and exit 1, the status of
    errors found). Each command's own ``with`` and ``finally`` have run by then: no temp file,
    half-written output or worker process is left."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:
            name = f"kcref {ctx.invoked_subcommand}" if ctx.invoked_subcommand else "kcref"
            try:
                # The terminal echoed ^C without a line end.
                click.echo(f"{chr(10) if _is_terminal(sys.stderr) else ''}{name}: interrupted", err=True)
            except (OSError, ValueError):
                pass
            raise click.exceptions.Exit(ExitStatus.INTERRUPTED) from None
        except OSError as exc:
            if exc.errno not in _FULL:
                raise
            # Every file a command writes says its own failures (-o, fmt --write, the cache):
            # a full disk left to here is standard output's, which a shell's > put on it.
            name = f"kcref {ctx.invoked_subcommand}" if ctx.invoked_subcommand else "kcref"
            _drop_standard_output()
            try:
                click.echo(f"{name}: cannot write standard output: {exc.strerror or exc}", err=True)
            except (OSError, ValueError):
                pass
            raise click.exceptions.Exit(ExitStatus.USAGE) from None


_FULL = frozenset(getattr(errno, name) for name in ("ENOSPC", "EDQUOT", "EFBIG") if hasattr(errno, name))
"""The errors of a write that found no room: a full disk, a quota, a file size limit."""


def _drop_standard_output() -> None:
    """Send what standard output still holds to the null device, so that the interpreter's last
    flush does not fail again (it would print a traceback and exit 120)."""
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.stdout.fileno())
        os.close(null)
    except (OSError, ValueError, AttributeError):
        pass


def _is_terminal(stream: Any) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False


@click.group(cls=Program, commands=Commands(COMMANDS), context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, "-V", "--version", prog_name="kcref",
                      message=f"%(prog)s, version %(version)s ({build()})")
def main() -> None:
    """kcref: the referee and scorekeeper for Kings in the Corner.

    \b
    Examples:
      kcref check samples/classic-night.log
      kcref fmt --check nights/*.log
      kcref score nights/*.log
      kcref report nights/*.log -o season.html
    """


def run() -> None:
    """The ``kcref`` program (the console script, ``python -m kcref``): :data:`main` on the
    command line's arguments, and then the process exits."""
    try:
        main(prog_name="kcref")
    except KeyboardInterrupt:
        sys.exit(ExitStatus.INTERRUPTED)  # one that came when click was not listening
    finally:
        # The process ends here: the interpreter's last collection would go through every object
        # (mostly the modules loaded), a tenth of a short run, only to free what the exit frees.
        gc.freeze()
