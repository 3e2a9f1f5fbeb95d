"""The ``kcref`` command line: each command parses its arguments, calls one library function,
prints and exits. One module per command, named as the command and defining ``command``; a
command's module is imported only when that command is run (or listed in the help), and the
libraries only inside the command, so that ``kcref --version`` starts fast and each command
imports only what it needs."""

from __future__ import annotations

import gc
import importlib
from collections.abc import Iterator, MutableMapping

import click

from .. import __version__

__all__ = ["main", "run"]

COMMANDS = ("check", "fmt", "score", "show", "record", "report", "play", "rules", "explain", "completion")
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


@click.group(commands=Commands(COMMANDS), context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, "-V", "--version", prog_name="kcref")
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
    finally:
        # The process ends here: the interpreter's last collection would go through every object
        # (mostly the modules loaded), a tenth of a short run, only to free what the exit frees.
        gc.freeze()
