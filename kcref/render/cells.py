"""Text from a log or a file name, made safe for the score format that carries it.

Everything a log or a command line holds is hostile: player names, tag values, file names and
the messages that quote them. In every format they are terminal-safe (no control character, no
bidi control, no lone surrogate from an undecodable file name), and in a table one line per row
and clipped; each markup format then gets its own escaping (HTML, LaTeX, wiki and pipe tables).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from ..model.clip import ELLIPSIS, LIMIT, clip
from ..model.diagnostics import Diagnostic, defang, printable


def terminal(text: str) -> str:
    """``text`` safe in plain output: :func:`~kcref.model.diagnostics.printable` (controls, bidi and
    format characters, lone surrogates become U+FFFD, one for one) and
    :func:`~kcref.model.diagnostics.defang`-ed (no CI system reads it as a command)."""
    return defang(printable(text))


def terminal_diagnostic(d: Diagnostic) -> Diagnostic:
    """A diagnostic whose path, message and source line print safely (``format_text`` handles
    control characters; this also covers bidi controls and lone surrogates, and a path that
    starts a line is no workflow command)."""
    return d.replace(path=terminal(d.path), message=terminal(d.message), source=terminal(d.source))


def shell_path(path: str) -> str:
    """``path`` as one word of a command to paste into a shell: quoted, and a relative name that
    starts with ``-`` led by ``./``, so that the command does not take it for an option."""
    import shlex

    return shlex.quote(f"./{path}" if path.startswith("-") else path)


def clip_path(path: str, limit: int = LIMIT) -> str:
    """A path clipped at its start, so that the file's own name stays: ``…/nights/friday.log``."""
    if len(path) <= limit:
        return path
    return ELLIPSIS + path[len(path) - max(limit - 1, 0):]


def _latex(text: str) -> str:
    from tabulate import LATEX_ESCAPE_RULES  # only LaTeX needs tabulate here

    return "".join(LATEX_ESCAPE_RULES.get(ch, ch) for ch in text)


def _html(text: str) -> str:
    import html  # only the HTML formats need it

    return html.escape(text)


_WIKI = {ord(c): f"&#{ord(c)};" for c in "|[]{}~<&"}


def _wiki(text: str) -> str:
    # A lone apostrophe is text; two or more start wiki italics or bold.
    return text.translate(_WIKI).replace("''", "&#39;&#39;")


_PIPE = {ord("|"): "\\|"}
_ENTITY_PIPE = {ord("|"): "&#124;"}

MARKUP: Mapping[str, Callable[[str], str]] = {
    "unsafehtml": _html,
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
    "html": _html,
    "unsafehtml": _html,
    "mediawiki": _wiki,
    **dict.fromkeys(("latex", "latex_raw", "latex_booktabs", "latex_longtable"), _latex),
}
"""Escaping of the lines of text around a table, per format (LaTeX's are comments, escaped all
the same: a file name holding a newline must not end the comment)."""


def cell(text: str, fmt: str, limit: int | None = LIMIT, path: bool = False) -> str:
    """A table cell: terminal-safe, on one line (a tab is a space), clipped (from the start for
    a path), and escaped for ``fmt`` where tabulate does not escape it. A cell may start a line:
    a leading ``:`` is defanged (see :func:`terminal`), so that no CI runner reads a command."""
    safe = terminal(text).replace("\t", " ")
    if limit is not None:
        safe = clip_path(safe, limit) if path else clip(safe, limit)
    escape = MARKUP.get(fmt)
    return escape(safe) if escape is not None else safe


def prose(text: str, fmt: str) -> str:
    """A line of text around a table: terminal-safe, on one line, escaped for ``fmt``."""
    safe = terminal(text)
    escape = PROSE_MARKUP.get(fmt)
    return escape(safe) if escape is not None else safe
