"""``kcref report``."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from .common import Failed, cannot_write, gitignored, no_gitignore, refuse_a_log_read, resolve_inputs

if TYPE_CHECKING:
    from ..files.inputs import Inputs


@click.command("report")
@click.argument("files", nargs=-1, required=True, type=click.Path(dir_okay=True, allow_dash=True))
@click.option("-o", "--output", "out", default="report.html", show_default=True, metavar="FILE",
              help="Write the page to FILE, into a folder (as report.html), or to standard output (-).")
@click.option("--glob", "globs", multiple=True, metavar="PATTERN",
              help="File names to read inside directories (repeatable) [default: *.log and *.kc].")
@no_gitignore
@click.option("--title", help="The page's title [default: the Event tag].")
@click.option("--watch", is_flag=True, help="Rebuild the page whenever a log changes, until Ctrl-C; the page reloads "
                                           "itself and shows the last hand.")
@click.pass_context
def command(ctx: click.Context, files: tuple[str, ...], out: str, globs: tuple[str, ...], no_gitignore: bool,
            title: str | None, watch: bool) -> None:
    """Write a night, or a season, as one self-contained HTML page.

    FILE may be a log, a directory (searched for *.log and *.kc files), or - for standard
    input. The page holds the standings of 'kcref score', each player's running total, season
    statistics and ratings, and every hand with its diagnostics and a replay of the table, step
    by step. It needs no network: inline styles, pictures and script.

    Logs with errors still make a page: their hands show the errors, and are left out of the
    standings as 'kcref score --skip-invalid' leaves them out. Exit status: 0 written, 1
    written but the logs hold errors, 2 bad usage, or a file that cannot be read or written.

    \b
    Examples:
      kcref report nights/*.log -o season.html
      kcref report nights/ -o site/
      kcref report night.log -o - > night.html
      kcref report --watch night.log -o night.html
    """
    from ..apps.report.output import target_path

    if watch and "-" in files:
        raise click.UsageError("--watch reads the logs again when they change: it does not go with standard input")
    if watch and out == "-":
        raise click.UsageError("--watch rewrites a file: give -o FILE")
    target = target_path(out)
    exclusions = gitignored(no_gitignore)

    def build() -> int:
        inputs = resolve_inputs(files, globs, exclusions=exclusions)
        refuse_a_log_read(target, inputs.paths)
        return _build(inputs, title, watch, target)

    if not watch:
        ctx.exit(build())
    from ..apps.report.output import watch as watch_logs
    from ..files.inputs import DEFAULT_GLOBS

    def rebuild() -> None:
        try:
            build()
        except Failed as exc:  # said, and the watch goes on: the next change may mend it
            click.echo(exc.message, err=True)
        except click.ClickException as exc:
            click.echo(f"kcref report: {exc.format_message()}", err=True)

    click.echo("kcref report: watching the logs; Ctrl-C stops", err=True)
    try:
        watch_logs(files, globs or DEFAULT_GLOBS, rebuild, output=target, say=lambda m: click.echo(m, err=True),
                   exclusions=exclusions)
    except KeyboardInterrupt:
        click.echo("kcref report: stopped", err=True)


def _build(inputs: Inputs, title: str | None, live: bool, target: str) -> int:
    """Make the page of ``inputs`` and write it to ``target`` (``-``: standard output); its exit status."""
    from ..apps.report.output import unreadable_line, write_page, written_note
    from ..apps.report.page import build_report
    from ..files.atomic import CannotWrite

    result = build_report(inputs, title, live=live)
    for problem in result.unreadable:  # a file that cannot be read is named, as check names it
        click.echo(unreadable_line(problem), err=True)
    try:
        if target == "-":
            for chunk in result.page:
                click.echo(chunk, nl=False)
            return result.status
        try:
            write_page(target, result.page)
        except CannotWrite as exc:
            raise cannot_write(target, exc) from None
    finally:
        result.page.close()
    click.echo(written_note(target, result.hands, result.errors), err=True)
    return result.status
