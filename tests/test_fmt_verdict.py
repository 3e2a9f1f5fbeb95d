"""``kcref fmt`` never changes a verdict: the codes a check finds in a log are the codes it finds
in the log's canonical form (lines move, as fmt drops blank lines: line numbers are not compared).

fmt formats only a log it can read whole, without a syntax error (it refuses the others), so
only those are compared; every other code, including the suppressions' own KC007 and the
KC004 of a log without a hand, must come out the same."""

from __future__ import annotations

import io
import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from kcref.model.codes import CODES
from kcref.notation.formatter import Mode, Outcome, format_file
from kcref.referee.pipeline import check_file
from tests.strategies import messy_logs

FREQUENT = ["KC004", "KC007", "KC201", "KC205", "KC207", "KC213", "KC215", "KC501", "KC504"]
"""Codes the random logs often give, so that suppressions often meet what they name."""
SUPPRESSIONS = st.builds(lambda codes: "# kcref: ignore[" + ", ".join(codes) + "]",
                         st.lists(st.sampled_from(FREQUENT) | st.sampled_from([c.code for c in CODES]), max_size=2))
EXTRA = st.one_of(SUPPRESSIONS, st.just(""), st.just("  "), st.just("# a comment"))


def fmt(data: bytes) -> bytes | None:
    """What ``kcref fmt`` prints for ``data``; ``None`` when it refuses the log."""
    out = io.BytesIO()
    outcome = format_file("-", Mode.PRINT, on_error=lambda d: None, out=out, stdin=io.BytesIO(data))
    return out.getvalue() if outcome is Outcome.PRINTED else None


def codes(data: bytes) -> set[str]:
    return {d.code for d in check_file("-", stdin=io.BytesIO(data)).diagnostics}


@st.composite
def logs_with_suppressions(draw: st.DrawFn) -> str:
    """A messy log (or its lines before the first hand), with suppression comments after some
    lines, and blank lines, comments and suppressions alone on lines of their own (above the
    first line too)."""
    _, text = draw(messy_logs())
    lines = text.split("\n")
    if draw(st.booleans()):  # the header only: no hand (KC004), whose place blank lines may move
        lines = list(itertools.takewhile(lambda line: not line.strip().lower().startswith("hand"), lines))
    for at, extra in draw(st.lists(st.tuples(st.integers(0, 30) | st.just(0), EXTRA), max_size=6)):
        if at >= len(lines):
            continue
        if extra.startswith("# kcref") and draw(st.booleans()) and lines[at].strip():
            lines[at] += "  " + extra  # a trailing suppression
        else:
            lines.insert(at, extra)  # a line of its own
    return "\n".join(lines)


@settings(max_examples=100, deadline=None)
@given(logs_with_suppressions())
def test_fmt_keeps_the_codes_found(text: str) -> None:
    data = text.encode("utf-8")
    canonical = fmt(data)
    if canonical is None:
        return
    assert codes(canonical) == codes(data)
    assert fmt(canonical) == canonical


def test_a_leading_blank_line_changes_nothing() -> None:
    for text in ('\n[Players "Ann, Bob"]  # kcref: ignore[KC004]\n', "\n# kcref: ignore[KC004]\n",
                 '\n\n# the header\n\n[Event "x"]  # kcref: ignore[KC004]\n[Players "Ann, Bob"]\n'):
        data = text.encode("utf-8")
        canonical = fmt(data)
        assert canonical is not None and canonical != data
        assert codes(canonical) == codes(data), text
