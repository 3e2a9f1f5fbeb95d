"""The ``kcref`` command line: each command parses its arguments, calls one library function,
prints and exits. One module per command, each defining ``command``; libraries are imported
inside the commands, so that ``kcref --version`` starts fast."""

from __future__ import annotations

import click

from .. import __version__
from . import check, completion, fmt, play, rules, score, show

__all__ = ["main"]


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, "-V", "--version", prog_name="kcref")
def main() -> None:
    """kcref: the referee and scorekeeper for Kings in the Corner.

    \b
    Examples:
      kcref check samples/classic-night.log
      kcref fmt --check nights/*.log
      kcref score nights/*.log
    """


for _module in (check, fmt, score, show, play, rules, completion):
    main.add_command(_module.command)
