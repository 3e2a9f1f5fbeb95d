"""Text from a log or a file name, made safe for the score format that carries it.

Everything a log or a command line holds is hostile: player names, tag values, file names and
the messages that quote them. In every format they are terminal-safe (no control character, no
bidi control, no lone surrogate from an undecodable file name), and in a table one line per row
and clipped; each markup format then gets its own escaping (HTML, LaTeX, wiki and pipe tables).
"""

from __future__ import annotations

import html
import json
from collections.abc import Callable, Mapping

from tabulate import LATEX_ESCAPE_RULES

from .clip import ELLIPSIS, LIMIT, clip
from .diagnostics import Diagnostic, printable

REPLACEMENT = "\ufffd"
BIDI = (0x061C, 0x200E, 0x200F, *range(0x202A, 0x202F), *range(0x2066, 0x206A))
"""Bidirectional controls: they can reorder what a terminal or a browser shows (Trojan Source)."""
SURROGATES = range(0xD800, 0xE000)
"""Lone surrogates: an undecodable byte of a file name (``surrogateescape``) cannot be printed."""
_UNSEEN = {c: REPLACEMENT for c in (*BIDI, *SURROGATES)}
# What JSON prints raw with ensure_ascii=False but must not reach a terminal: written as \uXXXX.
_JSON_UNSEEN = {c: f"\\u{c:04x}" for c in (0x7F, *range(0x80, 0xA0), *BIDI, *SURROGATES)}


def terminal(text: str) -> str:
    """``text`` with every control character but tab, every bidi control and every lone
    surrogate replaced by U+FFFD (one character each, so columns still line up)."""
    return printable(text).translate(_UNSEEN)


def no_command(text: str) -> str:
    """``text`` that may start a line, with a leading ``::`` split (``: :``): a CI runner must never
    read it as a workflow command (``::error::…``)."""
    stripped = text.lstrip()
    if not stripped.startswith("::"):
        return text
    return text[: len(text) - len(stripped)] + ": :" + stripped[2:]


def terminal_diagnostic(d: Diagnostic) -> Diagnostic:
    """A diagnostic whose path, message and source line print safely (``format_text`` handles
    control characters; this also covers bidi controls and lone surrogates, and a path that
    starts a line is no workflow command)."""
    return d._replace(path=no_command(terminal(d.path)), message=terminal(d.message), source=terminal(d.source))


def clip_path(path: str, limit: int = LIMIT) -> str:
    """A path clipped at its start, so that the file's own name stays: ``…/nights/friday.log``."""
    if len(path) <= limit:
        return path
    return ELLIPSIS + path[len(path) - max(limit - 1, 0):]


def json_text(value: object, indent: int | None = 2, level: int = 0) -> str:
    """``value`` as JSON (UTF-8 text kept as it is) in which nothing unprintable stays raw:
    C1 controls, bidi controls and lone surrogates are written as ``\\uXXXX`` escapes.

    ``level`` indents every line but the first by that many levels, for a value nested in a
    larger document written piece by piece.
    """
    text = json.dumps(value, ensure_ascii=False, indent=indent).translate(_JSON_UNSEEN)
    return text.replace("\n", "\n" + " " * (indent or 0) * level) if level else text


def _latex(text: str) -> str:
    return "".join(LATEX_ESCAPE_RULES.get(ch, ch) for ch in text)


_WIKI = {ord(c): f"&#{ord(c)};" for c in "|[]{}~<&"}


def _wiki(text: str) -> str:
    # A lone apostrophe is text; two or more start wiki italics or bold.
    return text.translate(_WIKI).replace("''", "&#39;&#39;")


_PIPE = {ord("|"): "\\|"}
_ENTITY_PIPE = {ord("|"): "&#124;"}

MARKUP: Mapping[str, Callable[[str], str]] = {
    "unsafehtml": html.escape,
    "latex_raw": _latex,
    "mediawiki": _wiki,
    "github": lambda t: t.translate(_PIPE),
    "pipe": lambda t: t.translate(_PIPE),
    "jira": lambda t: t.translate(_PIPE),
    "asciidoc": lambda t: t.translate(_PIPE),
    "orgtbl": lambda t: t.replace("|", "\\vert{}"),
    "textile": lambda t: t.translate(_ENTITY_PIPE),
    "moinmoin": lambda t: t.translate(_ENTITY_PIPE),
    "youtrack": lambda t: t.translate(_ENTITY_PIPE),
}
"""Escaping of the table formats whose cells tabulate does not escape itself but that are markup
(``html`` and ``latex`` are escaped by tabulate; ``unsafehtml`` and ``latex_raw`` are not)."""

PROSE_MARKUP: Mapping[str, Callable[[str], str]] = {
    "html": html.escape,
    "unsafehtml": html.escape,
    "mediawiki": _wiki,
}
"""Escaping of the lines of text around a table, per format."""


def cell(text: str, fmt: str, limit: int | None = LIMIT, path: bool = False) -> str:
    """A table cell: terminal-safe, on one line (a tab is a space), clipped (from the start for
    a path), and escaped for ``fmt`` where tabulate does not escape it. A cell may start a line:
    a leading ``::`` is split (``: :``), so that a CI runner never reads it as a workflow command."""
    safe = no_command(terminal(text).replace("\t", " "))
    if limit is not None:
        safe = clip_path(safe, limit) if path else clip(safe, limit)
    escape = MARKUP.get(fmt)
    return escape(safe) if escape is not None else safe


def prose(text: str, fmt: str) -> str:
    """A line of text around a table: terminal-safe, on one line, escaped for ``fmt``."""
    safe = terminal(text)
    escape = PROSE_MARKUP.get(fmt)
    return escape(safe) if escape is not None else safe
