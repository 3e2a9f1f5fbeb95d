"""Print check results for people (text) and machines (JSON, GitHub workflow commands, JUnit).

A printer is told of each file as it starts, of each diagnostic as it is found, and of each
file's report when it ends, so text and GitHub output stream while a large log is checked.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Sequence
from typing import TextIO
from xml.sax.saxutils import escape, quoteattr

from .check import FileReport
from .codes import Severity
from .diagnostics import (LOG_COMMAND, MESSAGE_LIMIT, REPLACEMENT, Diagnostic, clip, defang, format_github,
                          format_text, github_command, json_text, printable)

FORMATS = ("text", "json", "github", "junit")


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def summary(reports: Sequence[FileReport]) -> str:
    """``12 files, 87 hands, 2 errors, 1 warning, 5 penalties, 3 notes``."""
    count = lambda sev: sum(r.count(sev) for r in reports)  # noqa: E731
    penalties = sum(r.penalties for r in reports)
    return ", ".join([
        _plural(len(reports), "file"), _plural(sum(r.hand_count for r in reports), "hand"),
        _plural(count(Severity.ERROR), "error"), _plural(count(Severity.WARNING), "warning"),
        _plural(penalties, "penalty").replace("penaltys", "penalties"),
        _plural(count(Severity.INFO) - penalties, "note"),
    ])


def failing(d: Diagnostic, strict: bool) -> bool:
    """Whether a diagnostic fails the check: an error, or a warning under ``--strict``."""
    return d.is_error or (strict and d.severity is Severity.WARNING)


class Printer:
    """Plain text: ``path:line:col: severity CODE message``, the source line, a caret."""

    def __init__(self, out: TextIO, show_source: bool = True, quiet: bool = False, strict: bool = False) -> None:
        self.out = out
        self.show_source = show_source
        self.quiet = quiet
        self.strict = strict

    def shown(self, d: Diagnostic) -> bool:
        return not self.quiet or failing(d, self.strict)

    def start_file(self, path: str) -> None:
        pass

    def diagnostic(self, d: Diagnostic) -> None:
        if self.shown(d):
            self.out.write(self.text(d) + "\n")

    def text(self, d: Diagnostic) -> str:
        line = format_text(d, self.show_source)
        if self.show_source and d.is_error and d.code.startswith("KC3") and d.path != "<stdin>":
            # Quoted first, then made printable: an odd name still reads as one shell word.
            line += "\n" + defang(f"    = the table then: kcref show {printable(shlex.quote(d.path))} --line {d.line}")
        return line

    def end_file(self, report: FileReport) -> None:
        pass

    def finish(self, reports: Sequence[FileReport]) -> None:
        if not self.quiet:
            self.out.write(summary(reports) + "\n")


class GithubPrinter(Printer):
    """GitHub Actions: a ``::group::`` per file holding the plain lines and one workflow command
    per diagnostic (GitHub shows only the first 10 annotations of a step, so the plain lines
    stay readable in the log), then the summary."""

    def start_file(self, path: str) -> None:
        self.out.write(github_command("group", f"kcref check {printable(path)}") + "\n")

    def diagnostic(self, d: Diagnostic) -> None:
        if self.shown(d):
            self.out.write(format_text(d, show_source=False) + "\n" + format_github(d) + "\n")

    def end_file(self, report: FileReport) -> None:
        self.out.write("::endgroup::\n")

    def finish(self, reports: Sequence[FileReport]) -> None:
        self.out.write(summary(reports) + "\n")


class JsonPrinter(Printer):
    """One JSON object: ``diagnostics`` (path, line, column, severity, code, message), ``files``
    and ``summary``."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.items: list[dict[str, object]] = []

    def diagnostic(self, d: Diagnostic) -> None:
        if self.shown(d):
            self.items.append(d.as_dict())

    def finish(self, reports: Sequence[FileReport]) -> None:
        body = {
            "diagnostics": self.items,
            "files": [{"path": r.path, "hands": r.hand_count, "errors": r.count(Severity.ERROR),
                       "warnings": r.count(Severity.WARNING), "penalties": r.penalties,
                       "notes": r.count(Severity.INFO) - r.penalties} for r in reports],
            "summary": summary(reports),
        }
        self.out.write(json_text(body) + "\n")


class JunitPrinter(Printer):
    """JUnit XML: a test suite per file and a test case per hand (plus one for the lines
    before the first hand when they hold anything); errors fail their case."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.current: list[Diagnostic] = []
        self.suites: list[str] = []

    def start_file(self, path: str) -> None:
        self.current = []

    def diagnostic(self, d: Diagnostic) -> None:
        self.current.append(d)

    def end_file(self, report: FileReport) -> None:
        starts = report.hand_lines
        cases: list[tuple[str, list[Diagnostic]]] = [("before the first hand", [])]
        cases += [(f"hand {i + 1} (line {line})", []) for i, line in enumerate(starts)]
        for d in self.current:
            index = sum(1 for line in starts if line <= d.line)
            cases[index][1].append(d)
        if not cases[0][1]:
            cases.pop(0)
        body, failures = [], 0
        for name, diags in cases:
            bad = [d for d in diags if failing(d, self.strict)]
            other = [d for d in diags if not failing(d, self.strict) and self.shown(d)]
            inner = ""
            if bad:
                failures += 1
                text = "\n".join(format_text(d, show_source=False) for d in bad)
                inner += (f"<failure message={_attr(clip(bad[0].message, MESSAGE_LIMIT))} type={_attr(bad[0].code)}>"
                          f"{escape(text)}</failure>")
            if other:
                inner += f"<system-out>{escape(chr(10).join(format_text(d, False) for d in other))}</system-out>"
            body.append(f'    <testcase classname={_attr(report.path)} name={_attr(name)}>{inner}</testcase>')
        self.suites.append(f'  <testsuite name={_attr(report.path)} tests="{len(cases)}" failures="{failures}" '
                           f'errors="0">\n' + "\n".join(body) + "\n  </testsuite>")

    def finish(self, reports: Sequence[FileReport]) -> None:
        document = ('<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="kcref check">\n'
                    + "\n".join(self.suites) + "\n</testsuites>\n")
        self.out.write(xml_safe(document))


# Characters that XML 1.0 does not allow anywhere, even as references.
_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def _attr(value: str) -> str:
    """``value`` as a quoted XML attribute, printable (no control, bidi or format character)."""
    return quoteattr(printable(value))


def xml_safe(document: str) -> str:
    """An XML document whose every character is one XML 1.0 allows (any other becomes U+FFFD)
    and in which no ``##[`` stands for a CI log to read as a command (``[`` becomes ``&#91;``:
    markup never holds ``##``, so only text and attribute values change, and not in meaning)."""
    return LOG_COMMAND.sub(r"\1&#91;", _NOT_XML.sub(REPLACEMENT, document))


PRINTERS: dict[str, type[Printer]] = {
    "text": Printer, "github": GithubPrinter, "json": JsonPrinter, "junit": JunitPrinter,
}
