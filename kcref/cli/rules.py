"""``kcref rules``."""

from __future__ import annotations

import click

from .common import Failed
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
    from ..render.rules_text import MissingPage, overview, preset_detail, ruling_text, rulings

    number = preset is not None and preset.strip().isdecimal()
    if preset is None or number:
        try:
            found = rulings()
        except MissingPage as exc:
            raise Failed(f"kcref rules: {exc}") from None
    if preset is None:
        click.echo(overview(), nl=False)
        return
    if number:
        if int(preset) not in found:
            raise click.BadParameter(f"there is no ruling {int(preset)}: they are numbered 1 to {max(found)}",
                                     param_hint="PRESET")
        click.echo(ruling_text(int(preset)), nl=False)
        return
    if preset.strip().lower() not in PRESETS_BY_NAME:
        raise click.BadParameter(f"unknown preset '{preset}': expected one of {', '.join(PRESETS_BY_NAME)}",
                                 param_hint="PRESET")
    click.echo(preset_detail(preset), nl=False)
