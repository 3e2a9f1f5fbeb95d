"""The one diagnostic type, and the escaping that makes text from a log safe to print in any output.

How a diagnostic is printed (a text line, a GitHub workflow command) is the output layer's:
:mod:`kcref.render.diagnostic_lines`."""

from __future__ import annotations

import re
from typing import Final, final

from .codes import BY_CODE, Severity
from .events import Value
from .patterns import lazy_pattern


@final
class Diagnostic(Value):
    """One problem (or note) found in a log, at a 1-based line and column; compared by all its fields."""

    __match_args__ = ("path", "line", "column", "severity", "code", "message", "source")
    __slots__ = __match_args__
    _compared = __match_args__

    def __init__(self, path: str, line: int, column: int, severity: Severity, code: str, message: str,
                 source: str = "") -> None:
        self.path: Final = path
        self.line: Final = line
        self.column: Final = column
        self.severity: Final = severity
        self.code: Final = code
        self.message: Final = message
        self.source: Final = source
        """The text of the source line, for the caret display (not part of JSON output)."""

    def with_path(self, path: str) -> Diagnostic:
        """This diagnostic in the file named ``path``."""
        return self.replace(path=path)

    def with_source(self, source: str) -> Diagnostic:
        """This diagnostic with ``source`` as the text of its line (``""``: none kept)."""
        return self.replace(source=source)

    @property
    def is_error(self) -> bool:
        return self.severity is Severity.ERROR

    @property
    def end_column(self) -> int:
        """The column just past the token the diagnostic points at (see :func:`end_column`)."""
        return end_column(self.source, self.column)

    def as_dict(self) -> dict[str, object]:
        """The JSON form: path, line, column, end_column, severity, code, message."""
        return {
            "path": self.path,
            "line": self.line,
            "column": self.column,
            "end_column": self.end_column,
            "severity": self.severity.value,
            "code": self.code,
            "message": self.message,
        }


def diagnostic(path: str, line: int, column: int, code: str, message: str, source: str = "") -> Diagnostic:
    """Make a diagnostic whose severity comes from the code table."""
    return Diagnostic(path, line, column, BY_CODE[code].severity, code, message, source)


SURROGATES = f"{chr(0xD800)}-{chr(0xDFFF)}"
"""The lone surrogates, as a range of a character class (spelt with ``chr``: a compiled build
takes no such string literal)."""

# Characters that must not reach a terminal or a CI log as they are: controls (C0 but tab, DEL,
# C1), format characters (bidi controls, zero-width characters, invisible tags: all of category
# Cf), line and paragraph separators, lone surrogates (undecodable bytes of a file name, which
# cannot even be encoded for output) and noncharacters (U+FFFE, U+FFFF are not XML either).
# The ranges are spelled out because building them from unicodedata would scan every code point
# at each start;
# tests/test_hostile_output.py checks them against the running Python's tables.
# U+FE0F (a variation selector, category Mn) is not among them: a suit symbol may carry it.
_HIDDEN_RANGES = (
    "\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\xad\u0600-\u0605\u061c\u06dd\u070f\u0890\u0891\u08e2"
    f"\u180e\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u206f{SURROGATES}\ufdd0-\ufdef"
    "\ufeff\ufff9-\ufffb\ufffe\uffff\U000110bd\U000110cd\U00013430-\U0001343f\U0001bca0-\U0001bca3"
    "\U0001d173-\U0001d17a\U000e0001\U000e0020-\U000e007f"
    + "".join(f"{chr(plane * 0x10000 + 0xFFFE)}{chr(plane * 0x10000 + 0xFFFF)}" for plane in range(1, 17))
)
REPLACEMENT = "\ufffd"
"""What each hidden character is shown as: one visible character for one character, so a caret
still lines up under its column."""


def printable(text: str, keep_breaks: bool = False) -> str:
    """``text`` with every character that could act on a terminal or hide text replaced by
    U+FFFD, one for one: controls but tab (CR and LF stay with ``keep_breaks``), bidi and other
    format characters, line separators, lone surrogates and noncharacters."""
    if text.isascii() and text.isprintable():
        return text  # nearly every path and message: no pattern to compile nor run
    return (hidden_but_breaks() if keep_breaks else _hidden()).sub(REPLACEMENT, text)


# Compiled on first use: these classes are large, and most runs print nothing that needs them.
_hidden = lazy_pattern(f"[{_HIDDEN_RANGES}\n\r]")


hidden_but_breaks = lazy_pattern(f"[{_HIDDEN_RANGES}]")
"""The characters :func:`printable` hides, but CR and LF (which JSON escapes as it writes them)."""


# GitHub Actions reads a workflow command from any line of a step's output that starts with
# '::' once leading white space is trimmed, and a legacy command wherever '##[' stands in a line;
# Azure Pipelines ('##vso[') and TeamCity ('##teamcity[') read theirs anywhere in a line too.
# The runner compares culture-sensitively, so characters that collate as nothing (variation
# selectors, combining marks) before the '::' do not hide it either.
log_command = lazy_pattern(r"(##\w*)\[")
"""Where a CI system reads a command in the middle of a line: the ``[`` after ``##`` (and a
word). Compiled on first use: a check that prints nothing needs it not."""


_IGNORED_LEAD = frozenset(["Mn", "Me", "Cf", "Cc", "Cs", "Co", "Cn", "Zs", "Zl", "Zp"])


def _lead(line: str) -> int:
    """The index of the first character of ``line`` that GitHub would not trim or ignore."""
    import unicodedata  # only what is printed comes here

    for i, ch in enumerate(line):
        if not (ch.isspace() or unicodedata.category(ch) in _IGNORED_LEAD):
            return i
    return len(line)


def starts_like_command(line: str) -> bool:
    """Whether GitHub Actions could read ``line`` as a ``::command::`` (ignoring what it trims)."""
    return line[_lead(line):].startswith(":")


def defang(line: str) -> str:
    """One line of plain output that no CI system reads as a command: a leading ``:`` (after
    white space) and the ``[`` of ``##[`` (or ``##vso[``, ``##teamcity[``) become U+FFFD, one
    for one so columns stay put."""
    line = log_command().sub(r"\1" + REPLACEMENT, line)
    at = _lead(line)
    if line.startswith(":", at):
        line = line[:at] + REPLACEMENT + line[at + 1:]
    return line


def shown_path(path: str) -> str:
    """A path as plain output shows it: printable, and written ``./…`` when it would start a line
    with ``:`` (the same file, and no workflow command)."""
    text = printable(path)
    return f"./{text}" if starts_like_command(text) else text


MESSAGE_LIMIT = 400
"""The longest message that output prints whole (messages clip what they quote already; this
is the last guard)."""


def _gh_escape_data(s: str) -> str:
    return s.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _gh_escape_prop(s: str) -> str:
    return _gh_escape_data(s).replace(":", "%3A").replace(",", "%2C")


def github_command(kind: str, data: str, **props: str) -> str:
    """A GitHub Actions workflow command ``::kind k=v,…::data``, every field escaped as the
    runner unescapes it (data: ``%`` CR LF; properties also ``:`` and ``,``)."""
    fields = ",".join(f"{key}={_gh_escape_prop(value)}" for key, value in props.items())
    return f"::{kind}{' ' + fields if fields else ''}::{_gh_escape_data(data)}"


# JSON carries text whole: only what would act on a terminal or a CI log is written as a \u
# escape, which any reader turns back into the same text. Lone surrogates (from undecodable file
# names) have no UTF-8 form and I-JSON (RFC 7493) forbids them even escaped: they become U+FFFD.
_SURROGATE = f"[{SURROGATES}]"  # a pattern compiled on first use (re caches it)


def _json_escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    if code > 0xFFFF:
        code -= 0x10000
        return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"
    return f"\\u{code:04x}"


def json_text(value: object, level: int = 0) -> str:
    """``value`` as indented JSON that is safe to print: valid UTF-8, no raw control, bidi or
    separator character, and no ``##[`` (:func:`log_command`) that a CI log would read as a command.

    ``level`` indents every line but the first by that many levels, for a value nested in a
    larger document written piece by piece.
    """
    import json  # only the machine formats write JSON

    text = json.dumps(_no_surrogates(value), ensure_ascii=False, indent=2)
    # Outside strings JSON has no such characters nor '##', so these replacements stay in strings.
    text = log_command().sub(r"\1\\u005b", hidden_but_breaks().sub(_json_escape, text))
    return text.replace("\n", "\n" + "  " * level) if level else text


def _no_surrogates(value: object) -> object:
    if isinstance(value, str):
        return value if value.isascii() else re.sub(_SURROGATE, REPLACEMENT, value)
    if isinstance(value, dict):
        return {_no_surrogates(k): _no_surrogates(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_no_surrogates(v) for v in value]
    return value


_token = lazy_pattern(r"[^ \t;,#\"\[\]]*")
"""A token a diagnostic points at: up to a blank, a separator of actions, cards or claims
(``;`` ``,``), a comment, or a tag's brackets and quotes."""


def end_column(source: str, column: int) -> int:
    """The column just past the token that starts at ``column`` (1-based) of the line ``source``:
    where a diagnostic's range ends (a card, an action such as ``5S->E``, a player, a keyword, a
    figure). A ``:`` that ends the token is left out (``Bob:`` points at ``Bob``). At least one
    character is covered where the column lies within the line; past its end, none."""
    start = column - 1
    if start < 0 or start >= len(source):
        return max(column, 1)
    match = _token().match(source, start)
    end = match.end() if match is not None else start
    if end - start > 1 and source[end - 1] == ":":
        end -= 1
    return max(end, start + 1) + 1
