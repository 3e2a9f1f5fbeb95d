"""The ``kcref`` command line: parse arguments, call the library, print, exit."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

import click

from . import __version__
from .model.codes import Severity

if TYPE_CHECKING:
    from .files.inputs import Inputs

EXIT_OK, EXIT_FOUND, EXIT_USAGE = 0, 1, 2


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


@main.command()
@click.argument("files", nargs=-1, required=True, type=click.Path(dir_okay=True, allow_dash=True))
@click.option("--format", "fmt", type=click.Choice(["text", "json", "github", "junit"]),
              help="Output format [default: github when GITHUB_ACTIONS=true, else text].")
@click.option("--glob", "globs", multiple=True, metavar="PATTERN",
              help="File names to check inside directories (repeatable) [default: *.log and *.kc].")
@click.option("--jobs", "-j", type=click.IntRange(1, None), default=1, show_default=True,
              help="Check files in this many parallel processes (output keeps the order given).")
@click.option("--quiet", "-q", is_flag=True, help="Print only errors (and warnings with --strict), no summary.")
@click.option("--strict", is_flag=True, help="Treat warnings as errors.")
@click.option("--no-source", is_flag=True, help="Do not show the source line and caret under each message.")
def check(files: tuple[str, ...], fmt: str | None, globs: tuple[str, ...], jobs: int, quiet: bool,
          strict: bool, no_source: bool) -> None:
    """Check game logs; report every problem as PATH:LINE:COL: SEVERITY CODE message.

    FILE may be a log, a directory (searched for *.log and *.kc files), or - for standard
    input. Exit status: 0 no errors (warnings and notes allowed, unless --strict), 1 errors
    found, 2 bad usage or a file that cannot be read.

    \b
    Examples:
      kcref check samples/classic-night.log
      kcref check --jobs 2 --strict nights/
      kcref check --format json night.log
      cat night.log | kcref check -
    """
    import os

    from .files.inputs import Found, Problem, display_name
    from .output.check_formats import PRINTERS
    from .referee.pipeline import FileReport, check_file, check_inputs, problem_report

    fmt = fmt or ("github" if os.environ.get("GITHUB_ACTIONS") == "true" else "text")
    inputs = _resolve(files, globs)
    out = sys.stdout
    printer = PRINTERS[fmt](out, show_source=not no_source, quiet=quiet, strict=strict)
    reports: list[FileReport] = []

    def done(report: FileReport) -> None:
        for d in report.diagnostics:
            printer.diagnostic(d)
        printer.end_file(report)
        reports.append(report)

    count = len(inputs.paths) + len(inputs.problems)
    progress = _want_progress(count)
    if jobs > 1 or progress:
        # Reports come back whole (from worker processes, or behind a progress bar) and print in order.
        results = check_inputs(inputs, jobs=jobs, keep_hands=False)
        if progress:
            with click.progressbar(results, length=count, label="checking", file=sys.stderr) as bar:
                collected = list(bar)
        else:
            collected = results  # type: ignore[assignment]
        for report in collected:
            printer.start_file(report.path)
            done(report)
    else:
        for entry in inputs.entries:
            if isinstance(entry, Found):
                printer.start_file(display_name(entry.path))
                # Streaming: each hand's diagnostics print as soon as it is judged.
                printer.end_file(report := check_file(entry.path, keep_hands=False, emit=printer.diagnostic))
                reports.append(report)
            elif isinstance(entry, Problem):
                printer.start_file(entry.path)
                done(problem_report(entry))
    printer.finish(reports)
    out.flush()
    if any(r.unreadable for r in reports):
        sys.exit(EXIT_USAGE)
    failed = any(r.errors or (strict and r.count(Severity.WARNING)) for r in reports)
    sys.exit(EXIT_FOUND if failed else EXIT_OK)


def _resolve(args: tuple[str, ...], globs: tuple[str, ...] = (), one_file: bool = False) -> "Inputs":
    """The command's inputs (see kcref.inputs); a word on standard error for each file skipped."""
    from .files.inputs import DEFAULT_GLOBS, UsageProblem, resolve, skipped_note

    try:
        inputs = resolve(args, globs or DEFAULT_GLOBS, one_file=one_file)
    except UsageProblem as exc:
        raise click.UsageError(str(exc)) from None
    name = click.get_current_context().info_name
    for skipped in inputs.skipped:
        click.echo(f"kcref {name}: {skipped_note(skipped)}", err=True)
    return inputs


def _want_progress(files: int) -> bool:
    """A progress bar on standard error when it is a terminal and there are many files."""
    return sys.stderr.isatty() and files >= 10


@main.command()
@click.argument("files", nargs=-1, required=True, type=click.Path(allow_dash=True))
@click.option("--check", "check_only", is_flag=True, help="Print nothing; exit 1 if a file is not canonical.")
@click.option("--write", is_flag=True, help="Rewrite files in place (atomically; through symbolic links).")
@click.option("--glob", "globs", multiple=True, metavar="PATTERN",
              help="File names to format inside directories (repeatable) [default: *.log and *.kc].")
@click.option("--ten", type=click.Choice(["10", "T"]), default="10", show_default=True,
              help="How to write the rank ten.")
@click.option("--symbols", is_flag=True, help="Write suits as ♠ ♥ ♦ ♣ instead of S H D C.")
def fmt(files: tuple[str, ...], check_only: bool, write: bool, globs: tuple[str, ...], ten: str,
        symbols: bool) -> None:
    """Print logs in canonical form, or check or rewrite them.

    FILE may be a log, a directory (searched for *.log and *.kc files), or - for standard
    input. Canonical form keeps every event, comment and blank-line break, and writes one
    spacing style, upper-case cards and piles, lower-case keywords. A file with syntax errors
    is left alone and its errors are printed. --write writes through a symbolic link, keeps
    the file's mode, and refuses a read-only file. Exit status: 0 done (or all canonical with
    --check), 1 a file is not canonical (--check) or has errors, 2 bad usage, a file that
    cannot be read, or one that cannot be rewritten.

    \b
    Examples:
      kcref fmt night.log
      kcref fmt --check nights/
      kcref fmt --write --ten T night.log
    """
    from .files.inputs import Found, Problem, display_name, problem_diagnostic
    from .model.diagnostics import Diagnostic, format_text, printable
    from .notation.formatter import Mode, Outcome, format_file
    from .notation.writer import Spelling

    if check_only and write:
        raise click.UsageError("--check and --write cannot be used together")
    if write and "-" in files:
        raise click.UsageError("--write cannot rewrite standard input")
    inputs = _resolve(files, globs)
    mode = Mode.CHECK if check_only else Mode.WRITE if write else Mode.PRINT
    spelling = Spelling(ten=ten, symbols=symbols)
    sys.stdout.flush()
    out = sys.stdout.buffer
    status = EXIT_OK

    def say(d: Diagnostic) -> None:
        click.echo(format_text(d), err=True)

    for entry in inputs.entries:
        if isinstance(entry, Problem):
            say(problem_diagnostic(entry))
            status = EXIT_USAGE
        if not isinstance(entry, Found):
            continue  # a file skipped has had its word
        name = printable(display_name(entry.path))
        try:
            outcome = format_file(entry.path, mode, spelling, on_error=say, out=out)
        except OSError as exc:
            click.echo(f"{name}: cannot write: {exc.strerror or exc}; the file is unchanged", err=True)
            status = EXIT_USAGE
            continue
        if outcome is Outcome.UNREADABLE:
            status = EXIT_USAGE
        elif outcome is Outcome.ERRORS:
            status = max(status, EXIT_FOUND)
        elif outcome is Outcome.CHANGED:
            if check_only:
                click.echo(f"would reformat {name}", err=True)
                status = max(status, EXIT_FOUND)
            else:
                click.echo(f"reformatted {name}", err=True)
    sys.exit(status)


@main.command()
@click.argument("preset", required=False)
def rules(preset: str | None) -> None:
    """List the rule presets and options, or show one PRESET in full.

    \b
    Examples:
      kcref rules
      kcref rules commercial
    """
    from .model.options import PRESETS_BY_NAME
    from .output.rules_text import overview, preset_detail

    if preset is None:
        click.echo(overview(), nl=False)
        return
    if preset.strip().lower() not in PRESETS_BY_NAME:
        raise click.BadParameter(f"unknown preset '{preset}': expected one of {', '.join(PRESETS_BY_NAME)}",
                                 param_hint="PRESET")
    click.echo(preset_detail(preset), nl=False)


@main.command()
@click.option("--players", "-n", type=click.IntRange(2, 6), default=3, show_default=True,
              help="How many players (named Ann, Bob, Cy, Dee, Eve, Fay).")
@click.option("--rules", "rules_name", default="classic", show_default=True, help="The rules preset.")
@click.option("--option", "options", multiple=True, metavar="TAG=VALUE",
              help="Override one rule option, as its log tag would (repeatable), e.g. Draw=start.")
@click.option("--seed", type=int, default=0, show_default=True, help="The seed: the same seed gives the same log.")
@click.option("--hands", type=click.IntRange(1, None), default=1, show_default=True, help="How many hands.")
@click.option("--bot", type=click.Choice(["random", "greedy"]), default="greedy", show_default=True,
              help="random: any legal action; greedy: as many cards as it can.")
@click.option("-o", "--output", type=click.Path(dir_okay=False, writable=True),
              help="Write the log to this file (atomically) instead of standard output.")
def play(players: int, rules_name: str, options: tuple[str, ...], seed: int, hands: int, bot: str,
         output: str | None) -> None:
    """Let bots play whole hands and write the complete log.

    Every deal, layout, turn and drawn card is written, so `kcref check` can judge it all.

    \b
    Examples:
      kcref play --players 4 --rules commercial --seed 7 --hands 5
      kcref play --rules classic --option Draw=start --bot random -o night.log
    """
    from .engine.bots import play_log
    from .model.diagnostics import printable
    from .notation.formatter import write_atomically

    overrides: dict[str, str] = {}
    for item in options:
        tag, sep, value = item.partition("=")
        if not sep or not tag.strip():
            raise click.BadParameter(f"'{item}' is not TAG=VALUE", param_hint="--option")
        overrides[tag.strip()] = value.strip()
    try:
        text = "".join(play_log(players, rules_name, overrides, seed=seed, hands=hands, bot=bot))
    except ValueError as exc:
        raise click.UsageError(str(exc)) from None
    if output is None:
        click.echo(text, nl=False)
        return
    try:
        write_atomically(output, text)
    except OSError as exc:
        click.echo(f"{printable(output)}: cannot write: {exc.strerror or exc}", err=True)
        sys.exit(EXIT_USAGE)


@main.command()
@click.argument("file", type=click.Path(allow_dash=True))
@click.option("--hand", "hand", type=click.IntRange(1, None), help="The hand (its number, else its position).")
@click.option("--line", "line", type=click.IntRange(1, None), help="Show the table as it stands after this line.")
@click.option("--full", is_flag=True, help="Every card of every pile, not just the bottom and top.")
@click.option("--ascii", "plain", is_flag=True, help="Suit letters instead of symbols, and no colour.")
def show(file: str, hand: int | None, line: int | None, full: bool, plain: bool) -> None:
    """Draw the table at a moment of a log: piles, stock, hands, chips, whose turn.

    FILE is one log, or - for standard input. By default the table at the end of the last
    hand; --hand picks a hand, --line the moment after a line (before a hand's layout line:
    the cards dealt so far). Colour only on a terminal, and never with NO_COLOR set. Exit
    status: 0 drawn, 2 bad usage, a file that cannot be read, or a hand or line not there.

    \b
    Examples:
      kcref show samples/classic-night.log --hand 2
      kcref show samples/commercial-night.log --line 25 --full
      kcref play --hands 2 | kcref show - --hand 1
    """
    import os

    from .files.inputs import Problem, problem_diagnostic
    from .model.diagnostics import format_text, printable
    from .output.table_view import Unreadable, ViewStyle
    from .output.table_view import show as show_table

    if hand is not None and line is not None:
        raise click.UsageError("give --hand or --line, not both")
    problems = [e for e in _resolve((file,), one_file=True).entries if isinstance(e, Problem)]
    if problems:
        click.echo(format_text(problem_diagnostic(problems[0])), err=True)
        sys.exit(EXIT_USAGE)
    colour = not plain and sys.stdout.isatty() and not os.environ.get("NO_COLOR")
    try:
        text = show_table(file, hand, line, ViewStyle(ascii=plain or not sys.stdout.isatty(), colour=colour, full=full))
    except Unreadable as exc:
        click.echo(format_text(exc.diagnostic), err=True)
        sys.exit(EXIT_USAGE)
    except LookupError as exc:
        click.echo(f"kcref show: {printable(str(exc))}", err=True)
        sys.exit(EXIT_USAGE)
    click.echo(text, nl=False)


def _score_format(ctx: click.Context, param: click.Parameter, value: str) -> str:
    from .output.score_formats import FORMATS

    if value not in FORMATS:
        raise click.BadParameter(f"'{value}' is not a format: expected csv, json or a tabulate table format "
                                 f"({', '.join(f for f in FORMATS if f not in ('csv', 'json'))})")
    return value


@main.command()
@click.argument("files", nargs=-1, required=True, type=click.Path(dir_okay=True, allow_dash=True))
@click.option("--by", type=click.Choice(["player", "hand", "night"]), default="player", show_default=True,
              help="Standings per player, one row per hand, or totals per night (file).")
@click.option("--format", "fmt", default="simple", show_default=True, metavar="FORMAT", callback=_score_format,
              help="Any tabulate table format (plain, simple, github, grid, html, latex, ...), csv or json.")
@click.option("--glob", "globs", multiple=True, metavar="PATTERN",
              help="File names to score inside directories (repeatable) [default: *.log and *.kc].")
@click.option("--chart", is_flag=True, help="Also draw each player's running total, hand by hand.")
@click.option("--ascii", "ascii_only", is_flag=True, help="Draw the chart in plain ASCII.")
@click.option("--skip-invalid", is_flag=True, help="Leave out the hands with errors (each is named) and score "
                                                    "the rest, instead of refusing.")
def score(files: tuple[str, ...], by: str, fmt: str, globs: tuple[str, ...], chart: bool, ascii_only: bool,
          skip_invalid: bool) -> None:
    """Total the scores of game logs across hands, games and nights (files, in the order given).

    FILE may be a log, a directory (searched for *.log and *.kc files), or - for standard
    input.

    Every file is refereed first. A file with errors is refused (exit 1: 'kcref check'
    shows them) unless --skip-invalid leaves out the hands with errors. Unfinished hands,
    and hands whose score depends on cards nobody recorded, are not scored. The standings
    rank players by games won, then points in the scoring system's winning direction.
    Exit status: 0 scored, 1 errors in the logs, 2 bad usage or a file that cannot be read.

    \b
    Examples:
      kcref score nights/
      kcref score --by hand --chart night.log
      kcref score --by night --format github nights/*.log
      kcref score --format json --skip-invalid nights/*.log
    """
    from .output.score_report import score_inputs

    if chart and fmt in ("csv", "json", "tsv"):
        raise click.UsageError(f"--chart draws in the terminal: it does not go with --format {fmt}")
    if ascii_only and not chart:
        raise click.UsageError("--ascii goes with --chart")
    inputs = _resolve(files, globs)
    result = score_inputs(inputs, by, fmt, chart, ascii_only, skip_invalid)
    for chunk in result.out_chunks:
        click.echo(chunk, nl=False)
    for chunk in result.err_chunks:
        click.echo(chunk, nl=False, err=True)
    sys.exit(result.status)


@main.command()
@click.argument("shell", type=click.Choice(["bash", "zsh", "fish"]))
def completion(shell: str) -> None:
    """Print the shell completion script for SHELL; load it from your shell's start-up file.

    \b
    Examples:
      eval "$(kcref completion bash)"        # in ~/.bashrc
      eval "$(kcref completion zsh)"         # in ~/.zshrc
      kcref completion fish > ~/.config/fish/completions/kcref.fish
    """
    from click.shell_completion import get_completion_class

    cls = get_completion_class(shell)
    assert cls is not None  # the three choices are click's own
    click.echo(cls(main, {}, "kcref", "_KCREF_COMPLETE").source())
