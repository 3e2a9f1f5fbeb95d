"""``kcref score``."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import click

from .common import Failed, no_gitignore, resolve_inputs
from .registry import Described, RegistryChoice, RegistryOption


def views() -> Iterable[Described]:
    """``--by``: the views of :data:`kcref.render.score_formats.VIEWS`."""
    from ..render.score_formats import VIEWS

    return VIEWS.values()


def score_formats() -> Iterable[Described]:
    """``--format``: the formats of :data:`kcref.render.score_formats.SCORE_FORMATS`."""
    from ..render.score_formats import SCORE_FORMATS

    return SCORE_FORMATS.values()


class FormatChoice(RegistryChoice):
    """``--format``: a refusal names the formats of the registry as the help groups them, tabulate's apart."""

    def get_invalid_choice_message(self, value: Any, ctx: click.Context | None) -> str:
        from ..render.score_formats import SCORE_FORMATS

        own = ", ".join(f.name for f in SCORE_FORMATS.values() if not f.tabulate)
        tables = ", ".join(f.name for f in SCORE_FORMATS.values() if f.tabulate)
        return f"'{value}' is not a format: expected {own} or a tabulate table format ({tables})"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        from ..render.score_formats import known_without_tabulate

        # The default (and csv, json) need not list tabulate's formats, which imports tabulate.
        if isinstance(value, str) and known_without_tabulate(value):
            return value
        return super().convert(value, param, ctx)


@click.command("score")
@click.argument("files", nargs=-1, required=True, type=click.Path(dir_okay=True, allow_dash=True))
@click.option("--by", cls=RegistryOption, type=RegistryChoice(views), default="player", show_default=True,
              help="What a row is: {choices}.")
@click.option("--format", "fmt", cls=RegistryOption, type=FormatChoice(score_formats), default="simple",
              show_default=True, metavar="FORMAT", help="Output format: {choices}.")
@click.option("--glob", "globs", multiple=True, metavar="PATTERN",
              help="File names to score inside directories (repeatable) [default: *.log and *.kc].")
@click.option("--chart", is_flag=True, help="Also draw each player's running total, hand by hand.")
@click.option("--ascii", "ascii_only", is_flag=True, help="Draw the chart in plain ASCII.")
@click.option("--skip-invalid", is_flag=True, help="Leave out the hands with errors (each is named) and score "
                                                    "the rest, instead of refusing.")
@click.option("--config", "config_file", type=click.Path(dir_okay=False), metavar="PATH",
              help="Read the configuration from this file only (a kcref.toml, or a pyproject.toml's [tool.kcref]).")
@click.option("--isolated", is_flag=True, help="Read no configuration file.")
@no_gitignore
@click.pass_context
def command(ctx: click.Context, files: tuple[str, ...], by: str, fmt: str, globs: tuple[str, ...], chart: bool,
          ascii_only: bool, skip_invalid: bool, config_file: str | None, isolated: bool, no_gitignore: bool) -> None:
    """Total the scores of game logs across hands, games and nights (files, in the order given).

    FILE may be a log, a directory (searched for *.log and *.kc files), or - for standard
    input.

    Every file is refereed first. A file with errors is refused (exit 1: 'kcref check'
    shows them) unless --skip-invalid leaves out the hands with errors. Unfinished hands,
    and hands whose score depends on cards nobody recorded, are not scored. The standings
    rank players by games won, then points in the scoring system's winning direction. A
    configuration file (docs/config.md) gives the rules, options and glob of logs without tags.
    Exit status: 0 scored, 1 errors in the logs, 2 bad usage or a file that cannot be read.

    \b
    Examples:
      kcref score nights/
      kcref score --by hand --chart night.log
      kcref score --by night --format github nights/*.log
      kcref score --format json --skip-invalid nights/*.log
    """
    from ..apps.score import score_inputs
    from ..files.config import Config, ConfigError, Finder, scoring_config
    from ..render.score_formats import score_format

    if chart and not score_format(fmt).for_people:
        raise click.UsageError(f"--chart draws in the terminal: it does not go with --format {fmt}")
    if ascii_only and not chart:
        raise click.UsageError("--ascii goes with --chart")
    if isolated and config_file is not None:
        raise click.UsageError("give --config or --isolated, not both")
    try:
        given = Config(glob=globs, respect_gitignore=False if no_gitignore else None)
        finder = Finder(given, config_file=config_file, isolated=isolated)
        here = finder.for_folder(".")
        inputs = resolve_inputs(files, here.glob, exclusions=here.exclusions())
        configs = {path: scoring_config(finder.for_path(path)) for path in inputs.paths}
    except ConfigError as exc:
        raise Failed(f"kcref score: {exc}") from None
    result = score_inputs(inputs, by, fmt, chart, ascii_only, skip_invalid, configs.__getitem__)
    for chunk in result.out_chunks:
        click.echo(chunk, nl=False)
    for chunk in result.err_chunks:
        click.echo(chunk, nl=False, err=True)
    ctx.exit(result.status)
