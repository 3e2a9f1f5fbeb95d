"""``kcref explain``."""

from __future__ import annotations

import click
from click.shell_completion import CompletionItem


def complete_code(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    """The codes (and their families' prefixes) that start with what was typed, each with its summary."""
    from ..model.codes import CODES

    typed = incomplete.upper()
    return [CompletionItem(c.code, help=c.summary) for c in CODES if c.code.startswith(typed)]


@click.command("explain")
@click.argument("code", required=False, shell_complete=complete_code)
@click.option("--list", "list_all", is_flag=True, help="List every code, with its severity and meaning.")
@click.pass_context
def command(ctx: click.Context, code: str | None, list_all: bool) -> None:
    """Explain a diagnostic CODE: its severity, where its rule comes from, a wrong and a right
    example; or list the codes.

    CODE may also be a prefix (KC3, KC40) to list the codes that start with it. Exit status: 0
    done, 2 an unknown code.

    \b
    Examples:
      kcref explain KC301
      kcref explain KC2
      kcref explain --list
    """
    from ..model.codes import BY_CODE
    from ..model.diagnostics import printable
    from ..model.words import did_you_mean
    from ..render.explain_text import code_list, codes_with_prefix, explain

    if list_all or code is None:
        if code is not None:
            raise click.UsageError("give a CODE or --list, not both")
        if not list_all:
            raise click.UsageError("give a CODE to explain, or --list")
        click.echo(code_list(), nl=False)
        return
    wanted = code.strip().upper()
    if wanted in BY_CODE:
        click.echo(explain(wanted), nl=False)
        return
    family = codes_with_prefix(wanted) if wanted.startswith("KC") and len(wanted) < 5 else []
    if family:
        click.echo(code_list(family), nl=False)
        return
    raise click.BadParameter(f"unknown code '{printable(code)}'{did_you_mean(wanted, BY_CODE)} "
                             "(kcref explain --list lists them)", ctx=ctx, param_hint="CODE")
