"""``kcref check``."""

from __future__ import annotations

import sys
from collections.abc import Iterable
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, TextIO

import click

from .common import (
    Failed,
    colour_option,
    no_gitignore,
    output_file,
    refuse_a_log_read,
    resolve_inputs,
    wants_colour,
)
from .registry import Described, RegistryChoice, RegistryOption

if TYPE_CHECKING:
    from click.shell_completion import CompletionItem

    from ..files.config import Config
    from ..referee.pipeline import FileReport


def check_formats() -> Iterable[Described]:
    """``--format``: the output formats of :data:`kcref.render.check_formats.CHECK_FORMATS`."""
    from ..render.check_formats import CHECK_FORMATS

    return CHECK_FORMATS.values()


def stderr_is_terminal() -> bool:
    """Whether standard error is a terminal (then a progress bar shows there)."""
    return sys.stderr.isatty()


def progress_bar(reports: Iterable[FileReport], count: int) -> AbstractContextManager[Iterable[FileReport]]:
    """The files going by, on standard error."""
    return click.progressbar(reports, length=count, label="checking", file=sys.stderr)


def complete_codes(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    """The codes that start with the last of the comma-separated prefixes typed, each with its summary."""
    from click.shell_completion import CompletionItem

    from ..model.codes import CODES

    done, _, typed = incomplete.rpartition(",")
    head = done + "," if done else ""
    return [CompletionItem(head + c.code, help=c.summary) for c in CODES if c.code.startswith(typed.upper())]


def code_prefixes(ctx: click.Context, param: click.Parameter, values: tuple[str, ...]) -> tuple[str, ...]:
    """``--select KC2,KC301 --select KC5``: the prefixes, each one the start of a code."""
    from ..files.config import code_prefixes as checked

    words = [w for value in values for w in value.split(",") if w.strip()]
    try:
        return checked(words)
    except ValueError as exc:
        raise click.BadParameter(str(exc), ctx=ctx, param=param) from None


CODES_HELP = "(comma-separated code prefixes such as KC2 or KC216; repeatable)"


@click.command("check")
@click.argument("files", nargs=-1, required=True, type=click.Path(dir_okay=True, allow_dash=True))
@click.option("--format", "fmt", cls=RegistryOption, type=RegistryChoice(check_formats),
              help="Output format [default: github when GITHUB_ACTIONS=true, else text]: {choices}.")
@click.option("--glob", "globs", multiple=True, metavar="PATTERN",
              help="File names to check inside directories (repeatable) [default: *.log and *.kc].")
@click.option("--jobs", "-j", type=click.IntRange(1, None), default=None,
              help="Check files in this many parallel processes (output keeps the order given) [default: 1].")
@click.option("--quiet", "-q", is_flag=True, help="Print only errors (and warnings with --strict), no summary.")
@click.option("--strict/--no-strict", default=None,
              help="Treat warnings as errors (--no-strict: not, whatever the configuration says).")
@click.option("--verbose", "-v", is_flag=True,
              help="Name the configuration files in force (on standard error); text format: print each penalty "
                   "on its own line (by default a hand's penalties make one line).")
@click.option("--no-source", is_flag=True, help="Do not show the source line and caret under each message.")
@click.option("--exit-zero", is_flag=True,
              help="Exit 0 even when errors are found (2 still means bad usage or a file that cannot be read).")
@click.option("--output-file", "-o", "out", type=click.Path(allow_dash=True), default="-", metavar="FILE",
              help="Write the results to FILE (whole, or not at all) instead of standard output.")
@click.option("--select", multiple=True, metavar="CODES", callback=code_prefixes, shell_complete=complete_codes,
              help=f"Report only the codes that start with these {CODES_HELP} [default: all].")
@click.option("--ignore", multiple=True, metavar="CODES", callback=code_prefixes, shell_complete=complete_codes,
              help=f"Do not report these codes {CODES_HELP}; KC001-KC003 are always reported.")
@click.option("--extend-ignore", multiple=True, metavar="CODES", callback=code_prefixes,
              shell_complete=complete_codes,
              help=f"Ignore these codes too, on top of the configured ignore {CODES_HELP}.")
@click.option("--config", "config_file", type=click.Path(dir_okay=False), metavar="PATH",
              help="Read the configuration from this file only (a kcref.toml, or a pyproject.toml's [tool.kcref]).")
@click.option("--isolated", is_flag=True, help="Read no configuration file.")
@click.option("--statistics", is_flag=True,
              help="Instead of the messages, print how many there are of each code, most frequent first "
                   "(text, or a JSON list with --format json).")
@colour_option
@click.option("--stdin-filename", metavar="NAME",
              help="The name of standard input (-): in what is printed, and for its configuration.")
@no_gitignore
@click.option("--no-cache", is_flag=True,
              help="Neither read nor write the cache of unchanged files' results (also: KCREF_NO_CACHE=1).")
@click.option("--cache-dir", type=click.Path(file_okay=False), default=None, metavar="DIR",
              help="Keep the cache in DIR [default: .kcref_cache in the working folder].")
@click.pass_context
def command(ctx: click.Context, files: tuple[str, ...], fmt: str | None, globs: tuple[str, ...], jobs: int | None,
          quiet: bool, strict: bool | None, verbose: bool, no_source: bool, exit_zero: bool, out: str,
          select: tuple[str, ...], ignore: tuple[str, ...], extend_ignore: tuple[str, ...], config_file: str | None,
          isolated: bool, statistics: bool, colour: str, stdin_filename: str | None, no_gitignore: bool, no_cache: bool,
          cache_dir: str | None) -> None:
    """Check game logs; report every problem as PATH:LINE:COL: SEVERITY CODE message.

    FILE may be a log, a directory (searched for *.log and *.kc files), or - for standard
    input. Exit status: 0 no errors (warnings and notes allowed, unless --strict; or any
    errors, with --exit-zero), 1 errors found, 2 bad usage or a file that cannot be read (or
    an -o FILE that cannot be written: it is then left as it was), 130 Ctrl-C.

    \b
    Examples:
      kcref check samples/classic-night.log
      kcref check --jobs 2 --strict nights/
      kcref check --format json night.log
      kcref check --format sarif --exit-zero -o kcref.sarif nights/
      kcref check --ignore KC216 --statistics nights/
      cat night.log | kcref check -

    Settings may also come from a kcref.toml or a pyproject.toml's [tool.kcref] table, found
    upwards from each file's folder, never above its repository (docs/config.md); the command
    line wins over the file, and --verbose names the files in force.
    """
    import os

    from ..apps.check.run import default_format, run_check
    from ..files.config import Config, ConfigError, Finder, in_force
    from ..model.status import ExitStatus
    from ..render.check_formats import CheckSettings

    if isolated and config_file is not None:
        raise click.UsageError("give --config or --isolated, not both")
    given = Config(select=select or None, ignore=ignore, extend_ignore=extend_ignore, strict=strict,
                   glob=globs, format=fmt, jobs=jobs, cache=False if no_cache else None,
                   respect_gitignore=False if no_gitignore else None)
    try:
        finder = Finder(given, config_file=config_file, isolated=isolated)
        here = finder.for_folder(".")
        _check_format(here)
        inputs = resolve_inputs(files, here.glob, exclusions=here.exclusions())
        configs = {path: finder.for_path(stdin_filename if path == "-" and stdin_filename else path)
                   for path in inputs.paths}
    except ConfigError as exc:
        raise Failed(f"kcref check: {exc}") from None
    fmt = here.format or ("text" if statistics else default_format(os.environ))
    in_use = in_force([here, *configs.values()])
    if verbose:
        from ..model.diagnostics import printable

        for path in in_use or ["none (the built-in settings)"]:
            click.echo(f"kcref check: configuration: {printable(path)}", err=True)
    if statistics:
        from ..render.check_statistics import STATISTICS_FORMATS

        if fmt not in STATISTICS_FORMATS and given.format is None:
            fmt = "text"  # the configuration's format is a default: the flag asked for the counts
        if fmt not in STATISTICS_FORMATS:
            raise click.UsageError(f"--statistics prints {' or '.join(STATISTICS_FORMATS)}, not {fmt}")
    from ..files.cache import CACHE_DIR, Cache, cache_off

    if cache_dir is None and here.cache_dir is not None and here.path is not None:
        cache_dir = os.path.join(os.path.dirname(here.path), here.cache_dir)  # a file's: from its folder
    cache = None if here.cache is False or cache_off(os.environ) else Cache(cache_dir or CACHE_DIR)

    settings = CheckSettings(format=fmt, quiet=quiet, strict=bool(here.strict), verbose=verbose,
                             show_source=not no_source, statistics=statistics, jobs=here.jobs or 1,
                             configurations=tuple(in_use), stdin_name=stdin_filename,
                             colour=wants_colour(colour, out == "-" and sys.stdout.isatty(), os.environ))

    def check_into(stream: TextIO) -> ExitStatus:
        return run_check(inputs, settings, stream, progress=progress_bar if stderr_is_terminal() else None,
                         configs=configs.__getitem__, cache=cache)

    if out == "-":
        # Standard output as click gives it to a text file option (flushed as the command ends).
        stdout: TextIO = click.File("w", encoding="utf-8", lazy=False).convert("-", None, ctx)  # type: ignore[assignment]
        status = check_into(stdout)
    else:
        # Streamed into a temp file, put in place only once the check has run to its end: a
        # failed write, a Ctrl-C or a signal leaves the FILE as it was.
        refuse_a_log_read(out, inputs.paths)
        with output_file(out) as target:
            status = check_into(target.text())
            target.commit()
    ctx.exit(ExitStatus.OK if exit_zero and status is ExitStatus.FOUND else status)


def _check_format(config: Config) -> None:
    """A configuration file's ``format`` is one of ``--format``'s choices."""
    from ..files.config import ConfigError
    from ..model.diagnostics import printable
    from ..model.words import did_you_mean

    names = [f.name for f in check_formats()]
    if config.format is not None and config.format not in names:
        raise ConfigError(printable(f"{config.path}: format: unknown format '{config.format}'"
                                    f"{did_you_mean(config.format, names)}: expected one of {', '.join(names)}"))
