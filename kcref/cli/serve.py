"""``kcref serve``."""

from __future__ import annotations

import sys

import click

from .common import Failed
from .registry import PresetName, TagValue

EXTRA = "kcref serve needs the optional extra 'serve' (Starlette, uvicorn, segno): pip install 'kcref[serve]'"


@click.command("serve")
@click.argument("file", type=click.Path(dir_okay=False, allow_dash=False))
@click.option("--players", help='The players in seat order, P1 first: "Ann, Bob, Cy" (a Players tag).')
@click.option("--rules", type=PresetName(), help="The rules preset (a Rules tag): classic, commercial or family.")
@click.option("--option", "options", type=TagValue(), multiple=True, metavar="TAG=VALUE",
              help="A rule option tag, e.g. Draw=start (repeatable; kcref rules lists them).")
@click.option("--host", help="The address to listen on (default 127.0.0.1; with --lan, the machine's network address).")
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True,
              help="The port to listen on (0: any free port).")
@click.option("--lan", is_flag=True, help="Listen on the local network, and print the URL as a QR code too.")
@click.option("--view", is_flag=True, help="Also print a link for spectators: it shows the game, it cannot write.")
@click.pass_context
def command(ctx: click.Context, file: str, players: str | None, rules: str | None, options: tuple[tuple[str, str], ...],
            host: str | None, port: int, lan: bool, view: bool) -> None:
    """Serve the game to the players' phones: each tap builds the next line, judged at once.

    FILE is the log, started or resumed exactly as kcref record does (the same options, the same
    lock: one writer per log). The URL printed holds a secret key: open it on a phone or a
    computer; every page sees every accepted line at once. Every accepted line is on disk
    before the page is told. Exit status: 130 stopped with Ctrl-C, 2 bad usage, the extra
    'serve' missing, a log locked or that cannot be resumed, or an address that cannot be used.

    \b
    Examples:
      kcref serve tonight.log --players "Ann, Bob, Cy" --rules commercial
      kcref serve tonight.log --lan --view
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
    given = [("--players", "Players", players), ("--rules", "Rules", rules),
             *(("--option", name, value) for name, value in options)]
    for hint, name, value in given:
        if value is not None and ("\n" in value or "\r" in value):
            raise click.BadParameter(f"the {name} tag is one line of the log: its value holds a line end",
                                     param_hint=f"'{hint}'")
    tags = [(name, value) for _, name, value in given if value is not None]
    ctx.exit(serve([("1", file, tags)], host, port, lan, view, sys.stdout, sys.stderr))
