"""``kcref serve``."""

from __future__ import annotations

import sys
from typing import TextIO

import click

from .common import Failed
from .registry import PresetName, TagValue

EXTRA = "kcref serve needs the optional extra 'serve' (Starlette, uvicorn, segno): pip install 'kcref[serve]'"


@click.command("serve")
@click.argument("file", type=click.Path(allow_dash=False))
@click.option("--players", "players_given", multiple=True,
              help='The players in seat order, P1 first: "Ann, Bob, Cy" (a Players tag); once per table.')
@click.option("--tables", type=click.IntRange(1, 99),
              help="Serve this many tables: FILE is then the night's folder, with table-1.log, table-2.log ...")
@click.option("--players-file", type=click.File("r", encoding="utf-8"),
              help="The seating of several tables: one line of players a table.")
@click.option("--rules", type=PresetName(), help="The rules preset (a Rules tag): classic, commercial or family.")
@click.option("--option", "options", type=TagValue(), multiple=True, metavar="TAG=VALUE",
              help="A rule option tag, e.g. Draw=start (repeatable; kcref rules lists them).")
@click.option("--host", help="The address to listen on (default 127.0.0.1; with --lan, the machine's network address).")
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True,
              help="The port to listen on (0: any free port).")
@click.option("--lan", is_flag=True, help="Listen on the local network, and print the URL as a QR code too.")
@click.option("--view", is_flag=True, help="Also print a link for spectators: it shows the game, it cannot write.")
@click.pass_context
def command(ctx: click.Context, file: str, players_given: tuple[str, ...], tables: int | None,
            players_file: TextIO | None, rules: str | None, options: tuple[tuple[str, str], ...],
            host: str | None, port: int, lan: bool, view: bool) -> None:
    """Serve the game to the players' phones: each tap builds the next line, judged at once.

    FILE is the log, started or resumed exactly as kcref record does (the same options, the same
    lock: one writer per log). The URL printed holds a secret key: open it on a phone or a
    computer; every page sees every accepted line at once. Every accepted line is on disk
    before the page is told. With --tables (or --players-file, or --players given once per
    table), FILE is the night's folder: each table has its log (table-N.log), its URL and its
    keys, and one more URL shows the standings across the tables. Exit status: 130 stopped with
    Ctrl-C, 2 bad usage, the extra 'serve' missing, a log locked or that cannot be resumed, or
    an address that cannot be used.

    \b
    Examples:
      kcref serve tonight.log --players "Ann, Bob, Cy" --rules commercial
      kcref serve tonight.log --lan --view
      kcref serve night/ --tables 3 --players-file seating.txt --rules commercial --lan
    """
    try:
        import segno  # noqa: F401
        import starlette  # noqa: F401
        import uvicorn  # noqa: F401
        import wsproto  # noqa: F401
    except ImportError:
        raise Failed(EXTRA) from None
    from ..apps.serve.run import serve

    if file == "-":
        raise click.UsageError("serve writes a log file: give its path")
    given: list[tuple[str, str, str | None]] = [("--players", "Players", p) for p in players_given]
    given += [("--rules", "Rules", rules), *(("--option", name, value) for name, value in options)]
    for hint, name, value in given:
        if value is not None and ("\n" in value or "\r" in value):
            raise click.BadParameter(f"the {name} tag is one line of the log: its value holds a line end",
                                     param_hint=f"'{hint}'")
    rule_tags = [(name, value) for _, name, value in given[len(players_given):] if value is not None]
    if tables is None and players_file is None and len(players_given) <= 1:
        players = [("Players", players_given[0])] if players_given else []
        ctx.exit(serve([("1", file, players + rule_tags)], host, port, lan, view, sys.stdout, sys.stderr))
    ctx.exit(serve(_night(file, tables, players_file, players_given, rule_tags), host, port, lan, view,
                   sys.stdout, sys.stderr))


def _night(folder: str, tables: int | None, players_file: TextIO | None, players_given: tuple[str, ...],
           rule_tags: list[tuple[str, str]]) -> list[tuple[str, str, list[tuple[str, str]]]]:
    """The logs of the tables of a night in ``folder`` (made if need be), each with its tags."""
    import os

    from ..apps.serve.tables import LOG_NAME, SeatingProblem, seating

    if players_file is not None and players_given:
        raise click.UsageError("give the players with --players-file or --players, not both")
    seated: list[str] = list(players_given)
    if players_file is not None:
        try:
            seated = seating(players_file.read(), tables)
        except SeatingProblem as exc:
            raise click.BadParameter(str(exc), param_hint="'--players-file'") from None
    count = tables if tables is not None else len(seated)
    if seated and len(seated) != count:
        raise click.BadParameter(f"{len(seated)} tables seated for --tables {count}: give --players once per table",
                                 param_hint="'--players'")
    if os.path.exists(folder) and not os.path.isdir(folder):
        raise click.BadParameter("with several tables, FILE is the night's folder", param_hint="'FILE'")
    try:
        os.makedirs(folder, exist_ok=True)
    except OSError as exc:
        raise Failed(f"kcref serve: cannot make the folder {folder}: {exc.strerror or exc}") from None
    return [(str(n), os.path.join(folder, LOG_NAME.format(n)),
             ([("Players", seated[n - 1])] if seated else []) + rule_tags) for n in range(1, count + 1)]
