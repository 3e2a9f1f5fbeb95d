"""Describe presets, options and rulings in words: ``kcref rules`` and the table in ``docs/rules.md``.

The rulings are read from ``docs/rules.md`` itself: a built package holds a copy of it as
``kcref/render/pages/rules.md`` (with ``codes.md`` and the grammar's page, see
:mod:`kcref.render.page_files`), and a checkout reads the file in ``docs/``.
"""

from __future__ import annotations

import enum
import functools
import re
import textwrap
from pathlib import Path
from typing import Any

from ..model.options import OPTION_TAGS, PRESETS, PRESETS_BY_NAME, Options, Preset
from .page_files import FOLDER, PAGES

SEEDS_NOTE = ("The seeds are the four published descriptions of the game that kcref is built from: 000 a boxed\n"
              "set's sheet (English/Spanish), 001 Italian, 003 and 004 Dutch. docs/rules.md says what each holds.")


def value_text(value: object) -> str:
    """An option value as written in a tag."""
    if isinstance(value, enum.Enum):
        return str(value.value)
    return "none" if value is None else str(value)


def tabulate(*args: Any, **kwargs: Any) -> str:
    """tabulate's table, imported when first drawn (``kcref score`` needs only :func:`value_text`)."""
    from tabulate import tabulate as draw

    return draw(*args, **kwargs)


def _defaults(opts: Options) -> dict[str, str]:
    return {name: value_text(value) for name, value in zip(opts._fields, opts)}


def options_table(fmt: str = "simple") -> str:
    """Every option tag with its values, its default in each preset, and the seed it comes from."""
    per_preset = {p.name: _defaults(p.options) for p in PRESETS}
    rows = [[t.tag, t.values, *(per_preset[p.name][t.field] for p in PRESETS), t.source, t.description]
            for t in OPTION_TAGS]
    headers = ["tag", "values", *(p.name for p in PRESETS), "seeds", "meaning"]
    return tabulate(rows, headers, tablefmt=fmt)


class MissingPage(LookupError):
    """A page kcref prints is not installed, or holds nothing it can use; the message says which."""


def page(name: str) -> str:
    """A documentation page shipped with the package (``rules.md``, ``codes.md``, ``grammar.md``):
    the built package's copy, else (a checkout) the page's file in the source tree. Raises
    :class:`MissingPage` when neither can be read."""
    from importlib.resources import files

    shipped = files("kcref.render").joinpath(FOLDER, name)
    source = Path(__file__).resolve().parents[2].joinpath(*PAGES[name].split("/"))
    for found in (shipped, source):
        try:
            if found.is_file():
                return found.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue
    raise MissingPage(f"the page {name} is not installed with kcref (reinstall kcref; "
                      f"in a checkout it is {PAGES[name]})")


_RULING = re.compile(r"^(\d+)\. (.*(?:\n {3,}\S.*)*)", re.M)
WIDTH = 100
"""Where the rulings are wrapped."""


@functools.cache
def rulings() -> dict[int, str]:
    """The numbered rulings of ``docs/rules.md``, by number, each on one line (bold marks dropped).
    Raises :class:`MissingPage` when the page is missing or holds no ruling."""
    found = {int(m.group(1)): " ".join(m.group(2).replace("**", "").split())
             for m in _RULING.finditer(page("rules.md"))}
    if not found:
        raise MissingPage("the page rules.md installed with kcref holds no ruling (reinstall kcref; "
                          f"in a checkout it is {PAGES['rules.md']})")
    return found


def ruling_text(number: int) -> str:
    """One ruling, numbered and wrapped. Raises ``KeyError`` for a number that is not a ruling."""
    return textwrap.fill(f"{number}. {rulings()[number]}", WIDTH, subsequent_indent="    ") + "\n"


def overview() -> str:
    """``kcref rules``: the presets, the options, then the rulings."""
    presets = tabulate([[p.name, p.summary, p.source] for p in PRESETS], ["preset", "in short", "from"],
                       tablefmt="simple")
    numbered = "".join(ruling_text(n) for n in rulings())
    return (f"{presets}\n\nPick a preset with [Rules \"NAME\"]; override one option with its own tag, "
            f"e.g. [Draw \"start\"].\n\n{options_table()}\n\n{SEEDS_NOTE}\n\n"
            f"Rulings: what kcref decides where the seeds disagree or are silent (docs/rules.md says more;\n"
            f"kcref rules N prints ruling N alone).\n\n{numbered}")


def preset_detail(name: str) -> str:
    """``kcref rules NAME``: one preset in full. Raises ``KeyError`` for an unknown name."""
    p: Preset = PRESETS_BY_NAME[name.strip().lower()]
    values = _defaults(p.options)
    rows = [[t.tag, values[t.field], t.description] for t in OPTION_TAGS]
    return (f"{p.name}: {p.summary}\nFrom {p.source}.\n\n"
            f"{tabulate(rows, ['tag', 'value', 'meaning'], tablefmt='simple')}\n")


def options_markdown() -> str:
    """The options table as Markdown, as it stands in ``docs/rules.md`` (a test keeps them equal)."""
    per_preset = {p.name: _defaults(p.options) for p in PRESETS}
    head = ["tag", "values", *(p.name for p in PRESETS), "seeds", "meaning"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for t in OPTION_TAGS:
        cells = [f"`{t.tag}`", t.values.replace("|", "\\|"),
                 *(per_preset[p.name][t.field] for p in PRESETS), t.source, t.description]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"
