"""``kcref rules``."""

from __future__ import annotations

import click


@click.command("rules")
@click.argument("preset", required=False)
def command(preset: str | None) -> None:
    """List the rule presets and options, or show one PRESET in full.

    \b
    Examples:
      kcref rules
      kcref rules commercial
    """
    from ..model.options import PRESETS_BY_NAME
    from ..output.rules_text import overview, preset_detail

    if preset is None:
        click.echo(overview(), nl=False)
        return
    if preset.strip().lower() not in PRESETS_BY_NAME:
        raise click.BadParameter(f"unknown preset '{preset}': expected one of {', '.join(PRESETS_BY_NAME)}",
                                 param_hint="PRESET")
    click.echo(preset_detail(preset), nl=False)
