"""``kcref rules``."""

from __future__ import annotations

import click

from .registry import PresetName


@click.command("rules")
@click.argument("preset", type=PresetName(), required=False, metavar="[PRESET|N]")
def command(preset: str | None) -> None:
    """List the rule presets, options and rulings, or show one PRESET in full, or one ruling by
    its number.

    \b
    Examples:
      kcref rules
      kcref rules commercial
      kcref rules 22
    """
    from ..model.options import PRESETS_BY_NAME
    from ..output.rules_text import overview, preset_detail, ruling_text, rulings

    if preset is None:
        click.echo(overview(), nl=False)
        return
    if preset.strip().isdecimal():
        if int(preset) not in rulings():
            raise click.BadParameter(f"there is no ruling {int(preset)}: they are numbered 1 to {max(rulings())}",
                                     param_hint="PRESET")
        click.echo(ruling_text(int(preset)), nl=False)
        return
    if preset.strip().lower() not in PRESETS_BY_NAME:
        raise click.BadParameter(f"unknown preset '{preset}': expected one of {', '.join(PRESETS_BY_NAME)}",
                                 param_hint="PRESET")
    click.echo(preset_detail(preset), nl=False)
