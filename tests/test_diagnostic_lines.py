"""``format_text`` takes a quick path for the plain lines that make up nearly every report; it
must print exactly what the full escaping (:func:`printable`, :func:`defang`) prints, for any
path, message and source line."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from kcref.model.clip import clip, window
from kcref.model.codes import Severity
from kcref.model.diagnostics import MESSAGE_LIMIT, Diagnostic, defang, printable, shown_path
from kcref.render.diagnostic_lines import format_text


def escaped_in_full(d: Diagnostic, show_source: bool = True) -> str:
    """What ``format_text`` prints, every line through the full escaping."""
    head = defang(f"{shown_path(d.path)}:{d.line}:{d.column}: {d.severity.value} {d.code} "
                  f"{printable(clip(d.message, MESSAGE_LIMIT))}")
    if not show_source or not d.source or d.line <= 0:
        return head
    shown = window(d.source.rstrip("\r\n"), d.column)
    src = defang(printable(shown.text))
    pad = "".join("\t" if ch == "\t" else " " for ch in src[: max(shown.column - 1, 0)])
    return f"{head}\n    {src}\n    {pad}^"


# Plain text, and what the escaping acts on: controls, tabs, line ends, '#', '[', ':', blanks,
# format characters, lone surrogates, a combining mark, wide and astral characters.
TRICKY = st.text(st.sampled_from(list("aZ9 ->;:#[]./\t\r\n\x00\x1b\x7f\x85\u200b\u202e\u2028\ud800\u0301\ufe0f♥\U0001f0a1")),
                 max_size=30)
PLAIN = st.text(st.characters(min_codepoint=0x20, max_codepoint=0x7e), max_size=120)


@given(path=st.one_of(PLAIN, TRICKY), message=st.one_of(PLAIN, TRICKY), source=st.one_of(PLAIN, TRICKY),
       line=st.integers(-1, 99), column=st.integers(0, 130), show_source=st.booleans())
def test_quick_path_prints_what_full_escaping_prints(path: str, message: str, source: str, line: int, column: int,
                                                     show_source: bool) -> None:
    d = Diagnostic(path, line, column, Severity.INFO, "KC401", message, source)
    assert format_text(d, show_source) == escaped_in_full(d, show_source)


def test_plain_lines_print_as_they_are() -> None:
    d = Diagnostic("night.log", 3, 30, Severity.INFO, "KC401", "Bob made no play: pays 1 chip", "Bob: draw 4H")
    assert format_text(d) == "night.log:3:30: info KC401 Bob made no play: pays 1 chip\n    Bob: draw 4H\n" \
                             "                ^"
    assert format_text(Diagnostic(":x", 3, 30, Severity.INFO, "KC401", "a ##[b", "Bob: draw 4H")) == \
        "./:x:3:30: info KC401 a ##\ufffdb\n    Bob: draw 4H\n                ^"
