"""The README is a map: every command has a line in its table, every option is named in the docs,
and every link of the README and of the pages under docs/ leads to a file of the repository, and to
a heading of it where it names one."""

from __future__ import annotations

import re
from pathlib import Path

import click
import pytest

from kcref.cli import main
from tests.util import ROOT

README = ROOT / "README.md"
PAGES = sorted([README, *(ROOT / "docs").glob("*.md"), ROOT / "grammar" / "README.md"])
LINK = re.compile(r"\]\(([^)\s]+)\)")
FENCE = re.compile(r"^```.*?^```", re.S | re.M)


def anchor(heading: str) -> str:
    """The anchor GitHub gives a Markdown heading: lower case, punctuation dropped, spaces to dashes."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def anchors(page: Path) -> set[str]:
    text = FENCE.sub("", page.read_text(encoding="utf-8"))
    return {anchor(m.group(1)) for m in re.finditer(r"^#+ (.*)$", text, re.M)}


def links(page: Path) -> list[str]:
    return LINK.findall(FENCE.sub("", page.read_text(encoding="utf-8")))


def test_anchor_is_githubs() -> None:
    assert anchor("`kcref rules`, `kcref explain` and `kcref completion`") == (
        "kcref-rules-kcref-explain-and-kcref-completion")
    assert anchor("Scoring (`kcref score`)") == "scoring-kcref-score"


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_link_leads_somewhere(page: Path) -> None:
    broken: list[str] = []
    for target in links(page):
        if re.match(r"[a-z]+:", target):
            continue
        path, _, heading = target.partition("#")
        file = (page.parent / path).resolve() if path else page
        inside = file.exists() and ROOT.resolve() in (file, *file.parents)
        if not inside or (heading and file.suffix == ".md" and heading not in anchors(file)):
            broken.append(target)
    assert not broken, broken


def test_every_command_has_a_line_in_the_readme_table() -> None:
    text = README.read_text(encoding="utf-8")
    table = text.split("\n## Commands\n", 1)[1].split("\n## ", 1)[0]
    rows = {m.group(1): m.group(0) for m in re.finditer(r"^\| `kcref (\w+)[^|]*\|.*$", table, re.M)}
    names = main.list_commands(click.Context(main))
    assert names and sorted(rows) == sorted(names), (sorted(rows), names)
    assert all("](docs/" in row for row in rows.values()), "each line links the page that covers it"


def test_every_option_is_documented() -> None:
    """Each option of each command is named in docs/commands.md, docs/config.md or the command's
    own page (docs/record.md for `kcref record`), so moving the README's reference lost none."""
    ctx = click.Context(main)
    shared = "".join((ROOT / "docs" / name).read_text(encoding="utf-8") for name in ("commands.md", "config.md"))
    missing: list[str] = []
    for name in main.list_commands(ctx):
        command = main.get_command(ctx, name)
        assert command is not None
        own = ROOT / "docs" / f"{name}.md"
        text = shared + (own.read_text(encoding="utf-8") if own.exists() else "")
        for param in command.params:
            if not isinstance(param, click.Option) or param.hidden:
                continue
            spellings = [*param.opts, *param.secondary_opts]
            if not any(re.search(rf"(?<![\w-]){re.escape(s)}(?![\w-])", text) for s in spellings):
                missing.append(f"{name} {spellings[0]}")
    assert not missing, missing
