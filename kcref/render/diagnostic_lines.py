"""A diagnostic as a line of output: plain text (with its source line and a caret) and a GitHub
Actions workflow command. Every command that reports a diagnostic prints it with these."""

from __future__ import annotations

import functools

from ..model.clip import LIMIT, clip, window
from ..model.codes import Severity
from ..model.diagnostics import (
    MESSAGE_LIMIT,
    Diagnostic,
    defang,
    github_command,
    printable,
    shown_path,
)

SEVERITY_COLOURS = {Severity.ERROR: "red", Severity.WARNING: "yellow", Severity.INFO: "cyan"}
"""At a terminal that takes colour: each severity's word in its colour (bold), the code bold."""

GITHUB_KINDS = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "notice"}
"""The workflow command that carries a diagnostic of each severity."""


def format_text(d: Diagnostic, show_source: bool = True, colour: bool = False) -> str:
    """``path:line:col: severity CODE message``, then the source line and a caret; with
    ``colour``, the path, the severity and the code styled for a terminal.

    A long source line is shown as a window of about :data:`kcref.model.clip.LIMIT` characters
    around the column; every line is :func:`printable` and :func:`defang`-ed (before any style
    is added: the escapes of a style are kcref's own, never a log's).
    """
    prefix = f"{_shown_path(d.path)}:{d.line}:{d.column}: {d.severity.value} {d.code} "
    message = clip(d.message, MESSAGE_LIMIT)
    head = prefix + message
    if not _plain(head):
        head = defang(prefix + printable(message))
    if colour:
        head = _styled(head, d)
    if not show_source or not d.source or d.line <= 0:
        return head
    src, column = d.source.rstrip("\r\n"), d.column
    if len(src) > LIMIT:
        src, column = window(src, column)
    if _plain(src):
        # No tab either (a plain line has no control character): the caret is spaces away.
        return f"{head}\n    {src}\n    {' ' * min(max(column - 1, 0), len(src))}^"
    src = defang(printable(src))
    # The caret sits under the column; tabs before it are kept so that it lines up in a terminal.
    pad = "".join("\t" if ch == "\t" else " " for ch in src[: max(column - 1, 0)])
    return f"{head}\n    {src}\n    {pad}^"


def _styled(head: str, d: Diagnostic) -> str:
    """The head line of :func:`format_text` with its location bold, and its severity and code in
    colour (the head's text, made safe already, is left as it is)."""
    import click

    location, rest = head.split(f": {d.severity.value} {d.code} ", 1)
    severity = click.style(d.severity.value, fg=SEVERITY_COLOURS[d.severity], bold=True)
    return f"{click.style(location, bold=True)}: {severity} {click.style(d.code, bold=True)} {rest}"


def format_located(path: str, line: int, text: str) -> str:
    """``path:line: text``: a line of plain output about a place in a log that is not a
    diagnostic (a hand's settlement), made safe as :func:`format_text` makes a diagnostic."""
    head = f"{_shown_path(path)}:{line}: {text}"
    return head if _plain(head) else defang(printable(head))


def _plain(text: str) -> bool:
    """Whether ``text`` is already as :func:`printable` and :func:`defang` would make it, by a
    quick test that spares nearly every line the full escaping: printable ASCII (each character
    that printable() hides is a control or not ASCII), no ``##`` and no ``:`` after leading spaces."""
    return text.isascii() and text.isprintable() and "##" not in text and not text.lstrip(" ").startswith(":")


@functools.lru_cache(maxsize=64)
def _shown_path(path: str) -> str:
    """:func:`shown_path`, worked out once for the many diagnostics of one file."""
    return shown_path(path)


def format_github(d: Diagnostic) -> str:
    """A GitHub Actions workflow command (``::error file=…,line=…,col=…,title=CODE::message``)."""
    return github_command(GITHUB_KINDS[d.severity], printable(clip(d.message, MESSAGE_LIMIT), keep_breaks=True),
                          file=printable(d.path, keep_breaks=True), line=str(d.line), col=str(d.column),
                          title=d.code)
