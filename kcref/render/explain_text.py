"""``kcref explain``: a diagnostic code in plain words (its severity, where its rule comes from,
a wrong and a right example with what kcref says of the wrong one), the list of codes, and the
help text that SARIF output gives each rule."""

from __future__ import annotations

import textwrap
from typing import NamedTuple

from ..model.code_examples import EXAMPLES, NO_EXAMPLE
from ..model.codes import BY_CODE, CODES, CodeInfo
from ..model.diagnostics import printable
from ..model.options import OPTION_TAGS, PRESETS

WIDTH = 100
"""Where ``kcref explain`` wraps its prose (never the example logs)."""


class Family(NamedTuple):
    """The codes that share a prefix, and where their rules come from."""

    prefix: str
    name: str
    origin: str


FAMILIES = (
    Family("KC0", "input files", "kcref itself: a log must be a readable UTF-8 text file"),
    Family("KC1", "syntax", "the log notation kcref reads (grammar/README.md)"),
    Family("KC2", "set-up", "the common core of the game (every seed) and the log notation"),
    Family("KC3", "rules of play", "the common core of the game, as every seed (000, 001, 003, 004) states it"),
    Family("KC4", "penalties", "the chip game (seed 000, and 003 and 004 for their variants)"),
    Family("KC5", "notes about a hand", "kcref's rulings on what it cannot judge"),
    Family("KC6", "assertions", "the score, chips, paid and pot lines a log may write (kcref's notation)"),
)
"""The code ranges, as ``kcref/model/codes.py`` states them."""


def family(code: str) -> Family:
    """The family of a code (by its first three characters)."""
    return next(f for f in FAMILIES if code.startswith(f.prefix))


def codes_with_prefix(prefix: str) -> list[CodeInfo]:
    """The codes that start with ``prefix`` (upper-cased), in the table's order."""
    prefix = prefix.strip().upper()
    return [c for c in CODES if c.code.startswith(prefix)]


def _and(items: list[str]) -> str:
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"


def origin_lines(info: CodeInfo) -> list[str]:
    """Where the code's rule comes from: its family, its rulings, its options with their seeds
    and each preset's value."""
    lines = [f"From {family(info.code).origin}."] if not info.options else []
    if info.rulings:
        word = "Ruling" if len(info.rulings) == 1 else "Rulings"
        lines.append(f"{word} {_and([str(n) for n in info.rulings])} (docs/rules.md; `kcref rules` prints them).")
    by_tag = {t.tag: t for t in OPTION_TAGS}
    for tag in info.options:
        option = by_tag[tag]
        values = ", ".join(f"{p.name} {_value(getattr(p.options, option.field))}" for p in PRESETS)
        lines.append(f"Option {tag} (seeds {option.source}): {option.description}; presets: {values}.")
    return lines


def _value(value: object) -> str:
    from .rules_text import value_text

    return value_text(value)


def _indented(text: str) -> str:
    return textwrap.indent(printable(text, keep_breaks=True), "    ")


def _verdict(code: str, text: str) -> list[str]:
    """What kcref says of an example log about ``code``, as ``line:col: severity CODE message``."""
    from ..referee.pipeline import check_text

    found = [d for d in check_text(text, "example.log").diagnostics if d.code == code]
    return [printable(f"{d.line}:{d.column}: {d.severity.value} {d.code} {d.message}") for d in found]


def explain(code: str) -> str:
    """``kcref explain CODE``: the code in full. Raises ``KeyError`` for an unknown code."""
    info = BY_CODE[code.strip().upper()]
    out = [f"{info.code} ({info.severity.value}, {family(info.code).name}): {info.summary}", ""]
    out += [textwrap.fill(line, WIDTH, subsequent_indent="  ") for line in origin_lines(info)]
    example = EXAMPLES.get(info.code)
    if example is None:
        out += ["", f"No example log: {NO_EXAMPLE[info.code]}."]
    else:
        out += ["", "Wrong:", _indented(example.wrong).rstrip("\n"), "kcref check says:"]
        out += [f"    {line}" for line in _verdict(info.code, example.wrong)]
        out += ["", "Right:", _indented(example.right).rstrip("\n")]
    return "\n".join(out) + "\n"


def code_list(codes: list[CodeInfo] | None = None) -> str:
    """``kcref explain --list`` (or a family's codes): one line a code, grouped by family."""
    chosen = CODES if codes is None else codes
    blocks = []
    for fam in FAMILIES:
        members = [c for c in chosen if c.code.startswith(fam.prefix)]
        if members:
            blocks.append("\n".join([f"{fam.prefix}xx {fam.name}",
                                     *(f"  {c.code}  {c.severity.value:<7}  {c.summary}" for c in members)]))
    return "\n\n".join(blocks) + "\n"


def help_text(code: str) -> str:
    """The code's help as plain text, without running the referee: summary, origin and examples
    (SARIF's ``help`` of each rule)."""
    info = BY_CODE[code]
    lines = [f"{info.code} ({info.severity.value}): {info.summary}.", *origin_lines(info)]
    example = EXAMPLES.get(code)
    if example is not None:
        lines += ["", "Wrong:", example.wrong.rstrip("\n"), "", "Right:", example.right.rstrip("\n")]
    return "\n".join(lines)
