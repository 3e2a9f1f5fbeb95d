"""``kcref arena``."""

from __future__ import annotations

import sys

import click

from ..model.status import ExitStatus
from .common import Failed, cannot_write
from .registry import PresetName, TagValue

MAX_SECONDS = 1e6
"""The longest --move-time or --game-time (eleven days and more): a limit the system's clock
calls can wait for."""


def seconds(ctx: click.Context, param: click.Parameter, value: float) -> float:
    """A time limit: more than 0 and at most :data:`MAX_SECONDS` (NaN is neither)."""
    if not 0 < value <= MAX_SECONDS:
        raise click.BadParameter(f"{value:g} is not a number of seconds from 0 (not included) to {MAX_SECONDS:g}")
    return value


@click.command("arena")
@click.argument("bots", nargs=-1, required=True)
@click.option("--players", "-n", type=click.IntRange(2, 6), default=None,
              help="Seats at each table (default: one per bot, at most 6).")
@click.option("--rules", "rules_name", type=PresetName(), default="classic", show_default=True,
              help="The rules preset.")
@click.option("--option", "options", type=TagValue(), multiple=True, metavar="TAG=VALUE",
              help="Override one rule option, as its log tag would (repeatable), e.g. Draw=start.")
@click.option("--deals", type=click.IntRange(1, None), default=100, show_default=True,
              help="How many deals; each is played once per turn of the seats (with --sprt: the most).")
@click.option("--seed", type=int, default=0, show_default=True, help="The seed of the deals.")
@click.option("--move-time", type=click.FloatRange(0, MAX_SECONDS, min_open=True), default=1.0, show_default=True,
              callback=seconds, help="Seconds a bot may think over one move.")
@click.option("--game-time", type=click.FloatRange(0, MAX_SECONDS, min_open=True), default=60.0, show_default=True,
              callback=seconds, help="Seconds a bot may think over one game.")
@click.option("--sprt", is_flag=True, help="Stop as soon as a sequential test decides between two bots.")
@click.option("--elo0", type=float, default=0.0, show_default=True, help="The SPRT's H0: this Elo difference.")
@click.option("--elo1", type=float, default=5.0, show_default=True, help="The SPRT's H1: this Elo difference.")
@click.option("--alpha", type=click.FloatRange(0, 1, min_open=True, max_open=True), default=0.05,
              show_default=True, help="The SPRT's chance of accepting H1 when H0 holds.")
@click.option("--beta", type=click.FloatRange(0, 1, min_open=True, max_open=True), default=0.05,
              show_default=True, help="The SPRT's chance of accepting H0 when H1 holds.")
@click.option("--jobs", "-j", type=click.IntRange(1, None), default=1, show_default=True,
              help="Play in this many local processes.")
@click.option("--dask", metavar="ADDRESS", help="Play on the Dask cluster at ADDRESS (the scale extra).")
@click.option("-o", "--output", type=click.Path(file_okay=False), metavar="DIR",
              help="Write each game's log (and each exec: bot's standard error) into DIR.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True,
              help="How to print the results.")
def command(bots: tuple[str, ...], players: int | None, rules_name: str, options: tuple[tuple[str, str], ...],
            deals: int, seed: int, move_time: float, game_time: float, sprt: bool, elo0: float, elo1: float,
            alpha: float, beta: float, jobs: int, dask: str | None, output: str | None, fmt: str) -> None:
    """Let bots play each other on duplicate deals and say which is better.

    A bot is a built-in bot's name, FILE.py:Class, module:Class, a bot installed in the
    entry-point group kcref.bots, or exec:COMMAND (a program speaking docs/bot-protocol.md).

    \b
    Examples:
      kcref arena greedy random --players 2 --deals 200 --seed 7
      kcref arena new.py:Bot old.py:Bot --sprt --elo0 0 --elo1 10 -j 2
    """
    from ..apps.arena.entrants import BadBot, entrants
    from ..apps.arena.games import Setup
    from ..apps.arena.progress import ProgressLine
    from ..apps.arena.results import arena_json, arena_text
    from ..apps.arena.run import run_arena
    from ..files.atomic import CannotWrite
    from ..model.diagnostics import printable
    from ..model.options import resolve
    from ..scoring.arena_stats import Sprt

    seats = players if players is not None else min(max(2, len(bots)), 6)
    if sprt and len(bots) != 2:
        raise click.UsageError("--sprt compares two bots: name exactly two")
    try:
        resolve(rules_name, dict(options))
        test = Sprt(elo0, elo1, alpha, beta) if sprt else None
        setup = Setup(entrants(bots, seats), seats, rules_name, options, seed, move_time, game_time)
    except (ValueError, BadBot) as exc:
        raise click.UsageError(printable(str(exc))) from None
    progress = ProgressLine(sys.stderr) if sys.stderr.isatty() else None
    try:
        run = run_arena(setup, deals, jobs=jobs, dask=dask, sprt=test, output=output, progress=progress)
    except CannotWrite as exc:
        raise cannot_write(output or "", exc) from None
    except OSError as exc:
        raise Failed(printable(f"kcref arena: {exc}")) from None
    finally:
        if progress is not None:
            progress.clear()
    click.echo(arena_json(run) if fmt == "json" else arena_text(run), nl=False)
    if run.interrupted:
        raise click.exceptions.Exit(ExitStatus.INTERRUPTED)
