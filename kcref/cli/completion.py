"""``kcref completion``."""

from __future__ import annotations

import click


@click.command("completion")
@click.argument("shell", type=click.Choice(["bash", "zsh", "fish"]))
@click.pass_context
def command(ctx: click.Context, shell: str) -> None:
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
    click.echo(cls(ctx.find_root().command, {}, "kcref", "_KCREF_COMPLETE").source())
