"""``kcref play``."""

from __future__ import annotations

from collections.abc import Iterable

import click

from .common import cannot_write
from .registry import Described, Entry, PresetName, RegistryChoice, RegistryOption, TagValue, first_clause


def bots() -> Iterable[Described]:
    """``--bot``: the bots of :data:`kcref.engine.bots.BOTS`, each told by its docstring."""
    from ..engine.bots import BOTS

    return [Entry(name, first_clause(type(bot).__doc__)) for name, bot in BOTS.items()]


@click.command("play")
@click.option("--players", "-n", type=click.IntRange(2, 6), default=3, show_default=True,
              help="How many players (named Ann, Bob, Cy, Dee, Eve, Fay).")
@click.option("--rules", "rules_name", type=PresetName(), default="classic", show_default=True,
              help="The rules preset.")
@click.option("--option", "options", type=TagValue(), multiple=True, metavar="TAG=VALUE",
              help="Override one rule option, as its log tag would (repeatable), e.g. Draw=start.")
@click.option("--seed", type=int, default=0, show_default=True, help="The seed: the same seed gives the same log.")
@click.option("--hands", type=click.IntRange(1, None), default=1, show_default=True, help="How many hands.")
@click.option("--bot", cls=RegistryOption, type=RegistryChoice(bots), default="greedy", show_default=True,
              help="How the players choose: {choices}.")
@click.option("-o", "--output", type=click.Path(), metavar="FILE",
              help="Write the log to FILE (whole, or not at all) instead of standard output.")
def command(players: int, rules_name: str, options: tuple[tuple[str, str], ...], seed: int, hands: int, bot: str,
         output: str | None) -> None:
    """Let bots play whole hands and write the complete log.

    Every deal, layout, turn and drawn card is written, so `kcref check` can judge it all.

    \b
    Examples:
      kcref play --players 4 --rules commercial --seed 7 --hands 5
      kcref play --rules classic --option Draw=start --bot random -o night.log
    """
    from ..engine.bots import play_log
    from ..files.atomic import CannotWrite, write_atomically

    try:
        text = "".join(play_log(players, rules_name, dict(options), seed=seed, hands=hands, bot=bot))
    except ValueError as exc:
        raise click.UsageError(str(exc)) from None
    if output is None:
        click.echo(text, nl=False)
        return
    try:
        write_atomically(output, text)
    except CannotWrite as exc:
        raise cannot_write(output, exc) from None
