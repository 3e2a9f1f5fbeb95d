"""A diagnostic as a line of output: plain text (with its source line and a caret) and a GitHub
Actions workflow command. Every command that reports a diagnostic prints it with these."""

from __future__ import annotations

from ..model.clip import clip, window
from ..model.codes import Severity
from ..model.diagnostics import (
    MESSAGE_LIMIT,
    Diagnostic,
    defang,
    github_command,
    printable,
    shown_path,
)

GITHUB_KINDS = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "notice"}
"""The workflow command that carries a diagnostic of each severity."""


def format_text(d: Diagnostic, show_source: bool = True) -> str:
    """``path:line:col: severity CODE message``, then the source line and a caret.

    A long source line is shown as a window of about :data:`kcref.model.clip.LIMIT` characters
    around the column; every line is :func:`printable` and :func:`defang`-ed.
    """
    head = defang(f"{shown_path(d.path)}:{d.line}:{d.column}: {d.severity.value} {d.code} "
                  f"{printable(clip(d.message, MESSAGE_LIMIT))}")
    if not show_source or not d.source or d.line <= 0:
        return head
    shown = window(d.source.rstrip("\r\n"), d.column)
    src = defang(printable(shown.text))
    # The caret sits under the column; tabs before it are kept so that it lines up in a terminal.
    pad = "".join("\t" if ch == "\t" else " " for ch in src[: max(shown.column - 1, 0)])
    return f"{head}\n    {src}\n    {pad}^"


def format_github(d: Diagnostic) -> str:
    """A GitHub Actions workflow command (``::error file=…,line=…,col=…,title=CODE::message``)."""
    return github_command(GITHUB_KINDS[d.severity], printable(clip(d.message, MESSAGE_LIMIT), keep_breaks=True),
                          file=printable(d.path, keep_breaks=True), line=str(d.line), col=str(d.column),
                          title=d.code)
