"""``kcref lsp``."""

from __future__ import annotations

import click

INSTALL = "pip install 'kcref[lsp]'"


@click.command("lsp")
@click.option("--stdio", is_flag=True, help="Speak over standard input and output (the only way; accepted "
                                            "because many editors pass it).")
@click.pass_context
def command(ctx: click.Context, stdio: bool) -> None:
    """Run the language server: editors show kcref check's diagnostics as a log is typed, complete
    the legal plays, show the table under the cursor, format, fix and colour the log.

    It speaks the Language Server Protocol over standard input and output; docs/editors.md says
    how to start it from Neovim, VS Code, Helix and Emacs. It needs the optional extra:
    pip install 'kcref[lsp]'. Exit status: 0 when the editor ends it, 2 the extra is missing.

    \b
    Examples:
      kcref lsp
    """
    from ..model.status import ExitStatus

    try:
        from ..apps.lsp.server import serve
    except ImportError as exc:
        if exc.name not in ("pygls", "lsprotocol") and not str(exc.name).startswith(("pygls.", "lsprotocol.")):
            raise
        click.echo(f"kcref lsp: the language server needs pygls and lsprotocol: {INSTALL}", err=True)
        ctx.exit(ExitStatus.USAGE)
    serve()
