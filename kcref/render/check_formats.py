"""Print check results for people (text) and machines (JSON, GitHub workflow commands, JUnit,
SARIF, GitLab Code Quality).

A printer is told of each file as it starts, of each diagnostic as it is found (and, when the
settings :attr:`~CheckSettings.prints_settlements`, of each hand's settlement line once the hand's
diagnostics are out), and of each file's report when it ends, so every format
streams while a large log is checked (JUnit, whose suites open with their counts, waits in
temporary files on disk).

:data:`CHECK_FORMATS` is the one list of formats: ``kcref check --format`` offers, explains and
completes what it holds. A new format is a :class:`Printer` subclass and one line there.
"""

from __future__ import annotations

import functools
import re
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import IO, TYPE_CHECKING, NamedTuple, TextIO

from ..files.inputs import STDIN, display_name
from ..model.clip import clip
from ..model.codes import BY_CODE, Severity
from ..model.diagnostics import (
    MESSAGE_LIMIT,
    REPLACEMENT,
    Diagnostic,
    defang,
    github_command,
    json_text,
    log_command,
    printable,
)
from ..model.words import names_list, plural
from .diagnostic_lines import format_github, format_located, format_text
from .settlement import settlement_line

if TYPE_CHECKING:
    from ..referee.pipeline import FileReport, Keep
    from ..referee.verdict import HandVerdict

# Only the formats that need them import shlex, json, tempfile, bisect and xml.sax.saxutils
# (which pulls in urllib and http.client): plain text starts without them.


ERROR = Severity.ERROR


def summary(reports: Sequence[FileReport]) -> str:
    """``12 files, 87 hands, 2 errors, 1 warning, 5 penalties, 3 notes``, and what was not
    shown, when anything was: ``; 3 errors ignored by configuration; 1 error suppressed``."""
    def count(sev: Severity) -> int:
        return sum(r.count(sev) for r in reports)

    penalties = sum(r.penalties for r in reports)
    shown = ", ".join([
        plural(len(reports), "file"), plural(sum(r.hand_count for r in reports), "hand"),
        plural(count(Severity.ERROR), "error"), plural(count(Severity.WARNING), "warning"),
        plural(penalties, "penalty", "penalties"),
        plural(count(Severity.INFO) - penalties, "note"),
    ])
    for counts, how in ((hidden(reports, "ignored"), "ignored by configuration"),
                        (hidden(reports, "suppressed"), "suppressed")):
        if counts:
            shown += f"; {names_list(hidden_kinds(counts))} {how}"
    return shown


HIDDEN = ("ignored", "suppressed")
"""Why a diagnostic found was not shown nor counted, as :class:`FileReport` counts them: the
configuration's ``select``/``ignore``, or a ``# kcref: ignore[...]`` comment on its line."""


def hidden(reports: Sequence[FileReport], why: str) -> Counter[str]:
    """How many diagnostics of each code the reports left out for ``why`` (one of :data:`HIDDEN`)."""
    total: Counter[str] = Counter()
    for r in reports:
        total.update(getattr(r, why))
    return total


def hidden_kinds(counts: Counter[str]) -> list[str]:
    """``3 errors``, ``1 penalty``...: ``counts`` (by code) by kind, as the summary names them,
    those there are only."""
    kinds = dict.fromkeys(("error", "warning", "penalty", "note"), 0)
    for code, n in counts.items():
        severity = BY_CODE[code].severity
        kind = "error" if severity is ERROR else "warning" if severity is Severity.WARNING else (
            "penalty" if code.startswith("KC4") else "note")
        kinds[kind] += n
    return [plural(n, kind, "penalties" if kind == "penalty" else None) for kind, n in kinds.items() if n]


def hidden_by_code(report: FileReport, why: str) -> dict[str, int]:
    """What ``report`` left out for ``why`` (one of :data:`HIDDEN`): a count by code, in code order."""
    counts: Counter[str] = getattr(report, why)
    return {code: counts[code] for code in sorted(counts) if counts[code]}


def _unfolded(d: Diagnostic) -> bool:
    """All but penalties (KC4xx), which the text format sums up per hand."""
    return not d.code.startswith("KC4")


_ERROR, _WARNING = Severity.ERROR, Severity.WARNING


# Not d.is_error: a property call, and every diagnostic of a log may come here.
def _fails(d: Diagnostic) -> bool:
    return d.severity is _ERROR


def _fails_strictly(d: Diagnostic) -> bool:
    severity = d.severity
    return severity is _ERROR or severity is _WARNING


@dataclass(frozen=True, slots=True)
class CheckSettings:
    """How ``kcref check`` runs and what it prints, built once from the command line and the
    configuration, and the one place that decides which diagnostics are shown."""

    format: str = "text"
    """The name of the output format (:data:`CHECK_FORMATS`)."""
    quiet: bool = False
    """Print only what fails, no summary."""
    strict: bool = False
    """Warnings fail too."""
    verbose: bool = False
    """Each penalty on its own line, instead of a hand's settlement line."""
    show_source: bool = True
    """The source line and a caret under each message."""
    statistics: bool = False
    """The counts of each code instead of the diagnostics (``format``: text or json)."""
    jobs: int = 1
    """Worker processes."""
    configurations: tuple[str, ...] = ()
    """The configuration files in force (machine formats name them in their metadata)."""
    stdin_name: str | None = None
    """What standard input is called in what is printed (``--stdin-filename``; ``None``: ``<stdin>``)."""
    colour: bool = False
    """Text output styled for a terminal (``--color``)."""

    def name_of(self, path: str) -> str:
        """How the file read from ``path`` is named in what is printed."""
        return self.stdin_name if path == STDIN and self.stdin_name else display_name(path)

    def fails(self, d: Diagnostic) -> bool:
        """Whether a diagnostic fails the check: an error, or a warning under ``strict``."""
        return d.severity is _ERROR or (self.strict and d.severity is _WARNING)

    @property
    def prints_settlements(self) -> bool:
        """Whether a hand's penalties print as one settlement line, after the hand's other
        diagnostics (the text format, neither verbose nor quiet): the printer is then told of
        each one (:meth:`Printer.settlement`)."""
        return (not self.statistics and CHECK_FORMATS[self.format].prints_settlements
                and not self.verbose and not self.quiet)

    def shown(self, d: Diagnostic) -> bool:
        """Whether a diagnostic is printed: under ``quiet`` those that fail; with settlement
        lines all but the penalties they sum up; else all."""
        if self.quiet:
            return self.fails(d)
        return not self.prints_settlements or _unfolded(d)

    @property
    def takes_all(self) -> bool:
        """Whether the printer is handed every diagnostic, shown or not (junit sorts them into
        test cases at the end of each file)."""
        return not self.statistics and CHECK_FORMATS[self.format].takes_all

    @property
    def only_failures(self) -> bool:
        """Whether nothing but what fails is handed on (``quiet``, unless the printer takes all):
        a file that passes then needs no more than its counts."""
        return self.quiet and not self.takes_all

    @property
    def kept(self) -> Keep | None:
        """What the pipeline is to hand on to the printer (all are counted): what :meth:`shown`
        accepts, as a module-level function (it goes to worker processes and is asked of every
        diagnostic: a log may hold a penalty on every turn); ``None``: every diagnostic."""
        if self.takes_all:
            return None
        if self.quiet:
            return _fails_strictly if self.strict else _fails
        return _unfolded if self.prints_settlements else None


def penalty_settlement_line(verdict: HandVerdict) -> str | None:
    """The settlement line the text format prints for a hand (see :class:`TextPrinter`), or
    ``None``: a hand that paid no penalty, or that has an error, gets none."""
    if not verdict.penalties or not verdict.valid:
        return None
    for d in verdict.diagnostics:
        if d.severity is ERROR:
            return None  # an assertion's error (a rule error makes the hand not valid)
    return settlement_line(verdict)


class Printer:
    """Plain text: ``path:line:col: severity CODE message``, the source line, a caret."""

    def __init__(self, out: TextIO, settings: CheckSettings = CheckSettings()) -> None:
        self.out = out
        self.settings = settings

    def settlement(self, path: str, line: int, text: str) -> None:
        """Print a hand's settlement line ``text`` (:func:`penalty_settlement_line`; ``line``: the hand's
        ``hand`` line), after the hand's diagnostics, whether the hand was judged now or kept
        from an earlier check (the verdict cache); only told when the settings print settlement lines
        (:attr:`CheckSettings.prints_settlements`)."""

    def start_file(self, path: str) -> None:
        pass

    def diagnostic(self, d: Diagnostic) -> None:
        if self.settings.shown(d):
            self.out.write(self.text(d) + "\n")

    def text(self, d: Diagnostic) -> str:
        show_source = self.settings.show_source
        line = format_text(d, show_source, self.settings.colour)
        if show_source and d.is_error and d.code.startswith("KC3") and d.path != "<stdin>":
            from .cells import shell_path

            # Quoted first, then made printable: an odd name still reads as one shell word.
            line += "\n" + defang(f"    = the table then: kcref show {printable(shell_path(d.path))} --line {d.line}")
        return line

    def end_file(self, report: FileReport) -> None:
        pass

    def finish(self, reports: Sequence[FileReport]) -> None:
        if not self.settings.quiet:
            self.out.write(summary(reports) + "\n")


class TextPrinter(Printer):
    """Plain text for people: errors, warnings and notes as :class:`Printer` prints them, but a
    hand's penalties (KC4xx) in one settlement line, printed when the hand is judged, after the
    hand's other diagnostics (``path:LINE: hand 2: Eli went out and took the pot of 21; cards
    left: ...; chips paid: ...``, LINE being the hand's ``hand`` line; see
    :func:`kcref.render.settlement.settlement_line`). A hand with an error gets none: its
    errors say how it went. ``verbose`` prints every penalty on its own, as :class:`Printer`."""

    def settlement(self, path: str, line: int, text: str) -> None:
        self.out.write(format_located(path, line, text) + "\n")


class GithubPrinter(Printer):
    """GitHub Actions: a ``::group::`` per file holding the plain lines and one workflow command
    per diagnostic (GitHub shows only the first 10 annotations of a step, so the plain lines
    stay readable in the log), then the summary."""

    def start_file(self, path: str) -> None:
        self.out.write(github_command("group", f"kcref check {printable(path)}") + "\n")

    def diagnostic(self, d: Diagnostic) -> None:
        if self.settings.shown(d):
            self.out.write(format_text(d, show_source=False) + "\n" + format_github(d) + "\n")

    def end_file(self, report: FileReport) -> None:
        self.out.write("::endgroup::\n")

    def finish(self, reports: Sequence[FileReport]) -> None:
        self.out.write(summary(reports) + "\n")


class JsonPrinter(Printer):
    """One JSON object: ``diagnostics`` (path, line, column, end_column, severity, code, message), ``files``
    and ``summary``. It streams: each diagnostic is written as it is found."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.written = 0

    def diagnostic(self, d: Diagnostic) -> None:
        if self.settings.shown(d):
            self.out.write(('{\n  "diagnostics": [' if not self.written else ",")
                           + "\n    " + json_text(d.as_dict(), level=2))
            self.written += 1

    def finish(self, reports: Sequence[FileReport]) -> None:
        files = [{"path": r.path, "hands": r.hand_count, "errors": r.count(Severity.ERROR),
                  "warnings": r.count(Severity.WARNING), "penalties": r.penalties,
                  "notes": r.count(Severity.INFO) - r.penalties,
                  **{why: hidden_by_code(r, why) for why in HIDDEN}} for r in reports]
        head = "\n  ]" if self.written else '{\n  "diagnostics": []'
        self.out.write(f'{head},\n  "files": {json_text(files, level=1)},\n'
                       f'  "summary": {json_text(summary(reports), level=1)},\n'
                       f'  "configurations": {json_text(list(self.settings.configurations), level=1)}\n}}\n')


class JunitPrinter(Printer):
    """JUnit XML: a test suite per file and a test case per hand (plus one for the lines
    before the first hand when they hold anything); errors fail their case.

    A suite's counts come before its cases, so each file's diagnostics, then its cases, wait in
    temporary files on disk, never in memory: a log of any size prints in flat memory.
    """

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.found: IO[str] | None = None
        self.started = False

    def start_file(self, path: str) -> None:
        import tempfile

        self._close()
        self.found = tempfile.TemporaryFile("w+", encoding="utf-8", newline="\n")  # noqa: SIM115 - closed in _close

    def diagnostic(self, d: Diagnostic) -> None:
        import json

        if self.found is None:
            self.start_file(d.path)
        assert self.found is not None
        self.found.write(json.dumps([d.line, d.column, d.severity.value, d.code, d.path, d.message]) + "\n")

    def _found(self) -> Iterator[Diagnostic]:
        import json

        if self.found is None:
            return
        self.found.seek(0)
        for row in self.found:
            line, column, severity, code, path, message = json.loads(row)
            yield Diagnostic(path, line, column, Severity(severity), code, message)

    def _case(self, path: str, name: str, diags: list[Diagnostic]) -> tuple[str, bool]:
        from xml.sax.saxutils import escape

        fails, shown = self.settings.fails, self.settings.shown
        bad = [d for d in diags if fails(d)]
        other = [d for d in diags if not fails(d) and shown(d)]
        inner = ""
        if bad:
            text = "\n".join(format_text(d, show_source=False) for d in bad)
            inner += (f"<failure message={_attr(clip(bad[0].message, MESSAGE_LIMIT))} type={_attr(bad[0].code)}>"
                      f"{escape(text)}</failure>")
        if other:
            inner += f"<system-out>{escape(chr(10).join(format_text(d, False) for d in other))}</system-out>"
        return f'    <testcase classname={_attr(path)} name={_attr(name)}>{inner}</testcase>\n', bool(bad)

    def end_file(self, report: FileReport) -> None:
        import bisect
        import tempfile

        starts = report.hand_lines
        with tempfile.TemporaryFile("w+", encoding="utf-8", newline="\n") as cases:
            count = failures = 0

            def close(index: int, diags: list[Diagnostic]) -> None:
                nonlocal count, failures
                if index == 0 and not diags:
                    return  # no case for the lines before the first hand when they hold nothing
                name = "before the first hand" if index == 0 else f"hand {index} (line {starts[index - 1]})"
                text, failed = self._case(report.path, name, diags)
                cases.write(text)
                count += 1
                failures += failed

            current, diags = 0, list[Diagnostic]()
            for d in self._found():
                # Diagnostics come in line order: each belongs to the last hand that starts at or before it.
                index = max(bisect.bisect_right(starts, d.line), current)
                while current < index:
                    close(current, diags)
                    current, diags = current + 1, []
                diags.append(d)
            while current <= len(starts):
                close(current, diags)
                current, diags = current + 1, []
            self._write_head()
            self.out.write(xml_safe(f'  <testsuite name={_attr(report.path)} tests="{count}" '
                                    f'failures="{failures}" errors="0">\n'))
            cases.seek(0)
            for text in cases:
                self.out.write(xml_safe(text))
            self.out.write("  </testsuite>\n")
        self._close()

    def _write_head(self) -> None:
        if not self.started:
            self.out.write('<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="kcref check">\n')
            self.started = True

    def _close(self) -> None:
        if self.found is not None:
            self.found.close()
            self.found = None

    def finish(self, reports: Sequence[FileReport]) -> None:
        self._write_head()
        self.out.write("</testsuites>\n")


SARIF_LEVELS = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "note"}
"""A severity as a SARIF result's ``level``."""

SARIF_SCHEMA = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"


def rule_descriptor(code: str) -> dict[str, object]:
    """A SARIF ``reportingDescriptor`` for a code: its id, short and full description, help."""
    from .explain_text import family, help_text, origin_lines

    info = BY_CODE[code]
    return {"id": code, "name": family(code).name.title().replace(" ", ""),
            "shortDescription": {"text": info.summary},
            "fullDescription": {"text": " ".join([info.summary + ".", *origin_lines(info)])},
            "help": {"text": help_text(code)},
            "defaultConfiguration": {"level": SARIF_LEVELS[info.severity]},
            "properties": {"tags": [family(code).name]}}


def artifact_uri(path: str) -> dict[str, str]:
    """A SARIF ``artifactLocation`` for a path as given: a relative path is a URI reference
    relative to ``%SRCROOT%`` (the checkout, for GitHub code scanning), percent-escaped, with
    forward slashes; an absolute one a ``file:`` URI. The escapes are of the name's own bytes
    (:func:`os.fsencode`), so a name that is not UTF-8 is written as it is on disk."""
    import os
    from urllib.parse import quote

    from ..files.inputs import STDIN_NAME

    if path == STDIN_NAME:
        return {"uri": quote(path)}
    if os.path.isabs(path):
        return {"uri": "file://" + quote(os.fsencode(path.replace(os.sep, "/")))}
    return {"uri": quote(os.fsencode(os.path.normpath(path).replace(os.sep, "/"))), "uriBaseId": "%SRCROOT%"}


class SarifPrinter(Printer):
    """SARIF 2.1.0 (GitHub code scanning): one run whose results stream as they are found, then
    the tool and its rules (each code met, with its help text: the order of a JSON object's
    members carries no meaning)."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.written = 0
        self.codes: set[str] = set()

    def diagnostic(self, d: Diagnostic) -> None:
        if not self.settings.shown(d):
            return
        location: dict[str, object] = {"artifactLocation": artifact_uri(d.path)}
        if d.line >= 1:
            location["region"] = {"startLine": d.line, "startColumn": max(d.column, 1), "endColumn": d.end_column}
        result = {"ruleId": d.code, "level": SARIF_LEVELS[d.severity], "message": {"text": d.message},
                  "locations": [{"physicalLocation": location}]}
        self.out.write(('{\n  "$schema": "' + SARIF_SCHEMA + '",\n  "version": "2.1.0",\n  "runs": [{\n'
                        '    "columnKind": "unicodeCodePoints",\n    "results": [' if not self.written else ",")
                       + "\n      " + json_text(result, level=3))
        self.written += 1
        self.codes.add(d.code)

    def finish(self, reports: Sequence[FileReport]) -> None:
        from ..model.version import VERSION

        if not self.written:
            self.out.write('{\n  "$schema": "' + SARIF_SCHEMA + '",\n  "version": "2.1.0",\n  "runs": [{\n'
                           '    "columnKind": "unicodeCodePoints",\n    "results": [')
        driver = {"name": "kcref", "version": VERSION, "semanticVersion": VERSION,
                  "informationUri": "https://pypi.org/project/kcref/",
                  "rules": [rule_descriptor(code) for code in sorted(self.codes)]}
        # The configuration files in force, and what was found but not reported (by code).
        properties = {"configurations": list(self.settings.configurations),
                      **{why: dict(sorted(hidden(reports, why).items())) for why in HIDDEN}}
        self.out.write(("\n    ]" if self.written else "]") + ',\n    "tool": '
                       + json_text({"driver": driver}, level=2) + ',\n    "properties": '
                       + json_text(properties, level=2) + "\n  }]\n}\n")


GITLAB_SEVERITIES = {Severity.ERROR: "major", Severity.WARNING: "minor", Severity.INFO: "info"}
"""A severity as a GitLab Code Quality ``severity`` (of info, minor, major, critical, blocker)."""


def fingerprint(d: Diagnostic, occurrence: int) -> str:
    """A GitLab finding's fingerprint: a hash of the path, the code, the message, the source
    line's text (trimmed) and ``occurrence``, the number of identical findings before it in the
    file. The line number is left out, so that a finding keeps its fingerprint when lines are
    added or removed above it; the occurrence keeps two identical findings apart."""
    import hashlib
    import json

    key = json.dumps([d.path, d.code, d.message, d.source.strip(), occurrence], ensure_ascii=True)
    return hashlib.sha256(key.encode("ascii")).hexdigest()


class GitlabPrinter(Printer):
    """GitLab Code Quality: a JSON array of findings (description, check_name, fingerprint,
    severity, location with path and first line), streamed as found."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.written = 0
        self.seen: dict[tuple[str, str, str], int] = {}

    def start_file(self, path: str) -> None:
        self.seen.clear()

    def diagnostic(self, d: Diagnostic) -> None:
        if not self.settings.shown(d):
            return
        key = (d.code, d.message, d.source.strip())
        occurrence = self.seen[key] = self.seen.get(key, -1) + 1
        line = max(d.line, 1)
        positions = {"begin": {"line": line, "column": max(d.column, 1)}, "end": {"line": line, "column": d.end_column}}
        finding = {"description": f"{d.code} {d.message}", "check_name": d.code,
                   "fingerprint": fingerprint(d, occurrence), "severity": GITLAB_SEVERITIES[d.severity],
                   "location": {"path": d.path, "positions": positions}}
        self.out.write(("[" if not self.written else ",") + "\n  " + json_text(finding, level=1))
        self.written += 1

    def finish(self, reports: Sequence[FileReport]) -> None:
        self.out.write("\n]\n" if self.written else "[]\n")


@functools.cache
def _not_xml() -> re.Pattern[str]:
    """Characters that XML 1.0 does not allow anywhere, even as references (compiled when first
    needed: it takes milliseconds)."""
    return re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def _attr(value: str) -> str:
    """``value`` as a quoted XML attribute, printable (no control, bidi or format character)."""
    from xml.sax.saxutils import quoteattr

    return quoteattr(printable(value))


def xml_safe(document: str) -> str:
    """An XML document whose every character is one XML 1.0 allows (any other becomes U+FFFD)
    and in which no ``##[`` stands for a CI log to read as a command (``[`` becomes ``&#91;``:
    markup never holds ``##``, so only text and attribute values change, and not in meaning)."""
    return log_command().sub(r"\1&#91;", _not_xml().sub(REPLACEMENT, document))


class CheckFormat(NamedTuple):
    """An output format of ``kcref check``."""

    name: str
    """What ``--format`` calls it."""
    printer: type[Printer]
    help: str
    """What it prints, in a few words (the command's help and shell completion show it)."""
    prints_settlements: bool = False
    """A hand's penalties print as one settlement line (see :attr:`CheckSettings.prints_settlements`)."""
    takes_all: bool = False
    """The printer is handed every diagnostic, shown or not (see :attr:`CheckSettings.takes_all`)."""


CHECK_FORMATS: dict[str, CheckFormat] = {f.name: f for f in (
    CheckFormat("text", TextPrinter, "each message with its source line and a caret (a hand's penalties in "
                "one line; all with --verbose), then a summary", prints_settlements=True),
    CheckFormat("json", JsonPrinter, "one JSON object: the diagnostics, each file's counts, the summary"),
    CheckFormat("github", GithubPrinter, "GitHub Actions: a group per file, a workflow command per message"),
    CheckFormat("junit", JunitPrinter, "JUnit XML: a test suite per file, a test case per hand", takes_all=True),
    CheckFormat("sarif", SarifPrinter, "SARIF 2.1.0 for GitHub code scanning: results with locations, rules with help"),
    CheckFormat("gitlab", GitlabPrinter, "GitLab Code Quality JSON: a finding per message, with a stable fingerprint"),
)}
"""The formats by name, in the order the help lists them."""
