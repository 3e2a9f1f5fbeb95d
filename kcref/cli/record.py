"""``kcref record``."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import TYPE_CHECKING

import click

from .common import Failed, wants_colour
from .registry import PresetName, TagValue

if TYPE_CHECKING:
    from ..referee.live import LiveLog


@click.command("record")
@click.argument("file", type=click.Path(dir_okay=False, allow_dash=False))
@click.option("--players", help='The players in seat order, P1 first: "Ann, Bob, Cy" (a Players tag).')
@click.option("--rules", type=PresetName(), help="The rules preset (a Rules tag): classic, commercial or family.")
@click.option("--option", "options", type=TagValue(), multiple=True, metavar="TAG=VALUE",
              help="A rule option tag, e.g. Draw=start (repeatable; kcref rules lists them).")
@click.option("--ascii", "plain", is_flag=True, help="Suit letters instead of symbols, and no colour.")
@click.pass_context
def command(ctx: click.Context, file: str, players: str | None, rules: str | None, options: tuple[tuple[str, str], ...],
            plain: bool) -> None:
    """Keep the log at the table: type each line as it is played, judged at once.

    FILE is the log: a new one is started (with the tags given), an existing one resumed where it
    stands. At a terminal, the prompt shows whose turn it is and Tab completes the legal actions;
    'help' lists the commands (show, undo, help, quit). Otherwise (standard input or output not a
    terminal) the lines are read from standard input, judged the same way, and each refused line
    is reported at its input line. Every accepted line is on disk before the next is read. Exit
    status: 0 every line written, 1 a line refused (not at a terminal), 2 bad usage, a log locked
    by another kcref record, or a log that cannot be resumed (errors, or not in canonical form).

    \b
    Examples:
      kcref record tonight.log --players "Ann, Bob, Cy" --rules commercial
      kcref record tonight.log < lines.txt
    """
    import os

    from ..apps.record.session import LineSource, StreamSource, record
    from ..apps.show import view_style

    if file == "-":
        raise click.UsageError("record writes a log file: give its path (standard input holds the lines to record)")
    given = [("--players", "Players", players), ("--rules", "Rules", rules),
             *(("--option", name, value) for name, value in options)]
    for hint, name, value in given:
        if value is not None and ("\n" in value or "\r" in value):
            raise click.BadParameter(f"the {name} tag is one line of the log: its value holds a line end",
                                     param_hint=f"'{hint}'")
    tags = [(name, value) for _, name, value in given if value is not None]
    interactive = sys.stdin.isatty() and sys.stdout.isatty()
    terminal = interactive and sys.stdout.isatty()
    style = view_style(plain=plain, full=False, terminal=terminal, colour=wants_colour("auto", terminal, os.environ))
    source_for: Callable[[LiveLog], LineSource]
    if interactive:
        from ..apps.record.prompt import PromptSource

        source_for = PromptSource
    else:
        def source_for(log: LiveLog) -> LineSource:
            return StreamSource(sys.stdin.buffer)
    try:
        status = record(file, tags, source_for, sys.stdout, sys.stderr, style)
    except OSError as exc:
        raise Failed(f"kcref record: {exc}") from None
    ctx.exit(status)
