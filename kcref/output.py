"""Render check reports for people (text) and machines (JSON, GitHub workflow commands)."""

from __future__ import annotations

import json
from typing import Sequence

from .check import FileReport
from .codes import Severity
from .diagnostics import Diagnostic, format_github, format_text

FORMATS = ("text", "json", "github")


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _show_hint(d: Diagnostic, show_source: bool) -> str:
    """After a rule error, how to see the table it happened at."""
    if not show_source or not d.is_error or not d.code.startswith("KC3") or d.path == "<stdin>":
        return ""
    return f"\n    = the table then: kcref show {d.path} --line {d.line}"


def summary(reports: Sequence[FileReport]) -> str:
    """``2 files, 5 hands: 1 error, 0 warnings, 3 notes``."""
    hands = sum(len(r.hands) for r in reports)
    errors = sum(r.count(Severity.ERROR) for r in reports)
    warnings = sum(r.count(Severity.WARNING) for r in reports)
    notes = sum(r.count(Severity.INFO) for r in reports)
    return (f"{_plural(len(reports), 'file')}, {_plural(hands, 'hand')}: {_plural(errors, 'error')}, "
            f"{_plural(warnings, 'warning')}, {_plural(notes, 'note')}")


def render(reports: Sequence[FileReport], fmt: str, show_source: bool = True) -> str:
    """The whole output of ``kcref check`` in one of FORMATS (ending with a newline)."""
    if fmt == "json":
        body = {
            "diagnostics": [d.as_dict() for r in reports for d in r.diagnostics],
            "files": [
                {"path": r.path, "hands": len(r.hands), "errors": r.count(Severity.ERROR),
                 "warnings": r.count(Severity.WARNING), "notes": r.count(Severity.INFO)}
                for r in reports
            ],
            "summary": summary(reports),
        }
        return json.dumps(body, ensure_ascii=False, indent=2) + "\n"
    if fmt == "github":
        lines = [format_github(d) for r in reports for d in r.diagnostics]
    else:
        lines = [format_text(d, show_source) + _show_hint(d, show_source) for r in reports for d in r.diagnostics]
    lines.append(summary(reports))
    return "\n".join(lines) + "\n"
