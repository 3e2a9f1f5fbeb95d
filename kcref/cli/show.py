"""``kcref show``."""

from __future__ import annotations

import sys

import click

from .common import Failed, colour_option, resolve_inputs, wants_colour


@click.command("show")
@click.argument("file", type=click.Path(allow_dash=True))
@click.option("--hand", "hand", type=click.IntRange(1, None), help="The hand (its number, else its position).")
@click.option("--line", "line", type=click.IntRange(1, None), help="Show the table as it stands after this line.")
@click.option("--full", is_flag=True, help="Every card of every pile, not just the bottom and top.")
@click.option("--ascii", "plain", is_flag=True, help="Suit letters instead of symbols, and no colour.")
@click.option("--format", "fmt", type=click.Choice(["text", "svg"]), default="text", show_default=True,
              help="Draw in text, or as a standalone SVG picture (the picture of 'kcref report').")
@colour_option
def command(file: str, hand: int | None, line: int | None, full: bool, plain: bool, fmt: str, colour: str) -> None:
    """Draw the table at a moment of a log: piles, stock, hands, chips, whose turn.

    FILE is one log, or - for standard input. By default the table at the end of the last
    hand; --hand picks a hand, --line the moment after a line (before a hand's layout line:
    the cards dealt so far). Colour at a terminal, never with NO_COLOR set, always with
    FORCE_COLOR set (--color says otherwise).
    --format svg writes the same moment as an SVG picture (cards drawn in suit colours). Exit
    status: 0 drawn, 2 bad usage, a file that cannot be read, or a hand or line not there.

    \b
    Examples:
      kcref show samples/classic-night.log --hand 2
      kcref show samples/commercial-night.log --line 25 --full
      kcref show samples/commercial-night.log --line 14 --format svg > moment.svg
      kcref play --hands 2 | kcref show - --hand 1
    """
    import os

    from ..apps.show import NotShown, show_input, view_style

    if hand is not None and line is not None:
        raise click.UsageError("give --hand or --line, not both")
    if fmt == "svg" and (full or plain):
        raise click.UsageError("--full and --ascii draw text: they do not go with --format svg")
    inputs = resolve_inputs((file,), one_file=True)
    terminal = sys.stdout.isatty()
    style = view_style(plain=plain, full=full, terminal=terminal, colour=wants_colour(colour, terminal, os.environ))
    try:
        text = show_input(inputs, hand, line, style, fmt)
    except NotShown as exc:
        raise Failed(str(exc)) from None
    click.echo(text, nl=False, color=style.colour)
