"""The one diagnostic type and the output formats that print it."""

from __future__ import annotations

import json
from typing import Iterable, NamedTuple

from .codes import BY_CODE, Severity


class Diagnostic(NamedTuple):
    """One problem (or note) found in a log, at a 1-based line and column."""

    path: str
    line: int
    column: int
    severity: Severity
    code: str
    message: str
    source: str = ""
    """The text of the source line, for the caret display (not part of JSON output)."""

    @property
    def is_error(self) -> bool:
        return self.severity is Severity.ERROR

    def as_dict(self) -> dict[str, object]:
        """The JSON form: path, line, column, severity, code, message."""
        return {
            "path": self.path,
            "line": self.line,
            "column": self.column,
            "severity": self.severity.value,
            "code": self.code,
            "message": self.message,
        }


def diagnostic(path: str, line: int, column: int, code: str, message: str, source: str = "") -> Diagnostic:
    """Make a diagnostic whose severity comes from the code table."""
    return Diagnostic(path, line, column, BY_CODE[code].severity, code, message, source)


# Control characters (but tab) from a log must not reach a terminal as they are: each becomes
# one U+FFFD, so the caret still lines up under the column.
_CONTROLS = {c: "\ufffd" for c in [*range(0x00, 0x09), *range(0x0A, 0x20), *range(0x7F, 0xA0)]}
_CONTROLS_BUT_BREAKS = {c: r for c, r in _CONTROLS.items() if c not in (0x0A, 0x0D)}


def printable(text: str, keep_breaks: bool = False) -> str:
    """``text`` with every control character but tab (and CR, LF with ``keep_breaks``) replaced
    by U+FFFD."""
    return text.translate(_CONTROLS_BUT_BREAKS if keep_breaks else _CONTROLS)


def format_text(d: Diagnostic, show_source: bool = True) -> str:
    """``path:line:col: severity CODE message``, then the source line and a caret."""
    head = printable(f"{d.path}:{d.line}:{d.column}: {d.severity.value} {d.code} {d.message}")
    if not show_source or not d.source or d.line <= 0:
        return head
    src = printable(d.source.rstrip("\r\n"))
    # The caret sits under the column; tabs before it are kept so that it lines up in a terminal.
    pad = "".join("\t" if ch == "\t" else " " for ch in src[: max(d.column - 1, 0)])
    return f"{head}\n    {src}\n    {pad}^"


def _gh_escape_data(s: str) -> str:
    return s.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _gh_escape_prop(s: str) -> str:
    return _gh_escape_data(s).replace(":", "%3A").replace(",", "%2C")


def format_github(d: Diagnostic) -> str:
    """A GitHub Actions workflow command (``::error file=…,line=…,col=…,title=CODE::message``)."""
    kind = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "notice"}[d.severity]
    props = f"file={_gh_escape_prop(printable(d.path, keep_breaks=True))},line={d.line},col={d.column},title={_gh_escape_prop(d.code)}"
    return f"::{kind} {props}::{_gh_escape_data(printable(d.message, keep_breaks=True))}"


def format_json(diagnostics: Iterable[Diagnostic], **extra: object) -> str:
    """One JSON object whose ``diagnostics`` is a list of diagnostic objects."""
    body: dict[str, object] = {"diagnostics": [d.as_dict() for d in diagnostics]}
    body.update(extra)
    return json.dumps(body, ensure_ascii=False, indent=2)
