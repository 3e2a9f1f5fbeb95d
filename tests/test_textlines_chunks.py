"""text_lines hands out whole chunks of plain lines at once; it must say exactly what a check of
each line would: the same lines, the same KC005 for a too long line, the same stop at a NUL or
at a byte that is not UTF-8, wherever the chunks of the stream fall."""

from __future__ import annotations

import io

from hypothesis import given, settings
from hypothesis import strategies as st

from kcref.model.diagnostics import Diagnostic
from kcref.notation import textlines
from kcref.notation.textlines import LINE_LIMIT, text_lines

PLAIN = st.sampled_from(["Ann: 4S->N; draw", "", "hand 1", "deal Bob: 9D 8S 7D 2H 8C QH 6D", "# note"])
LINES = st.one_of(
    PLAIN, PLAIN, PLAIN,
    st.builds(lambda n: "x" * n, st.sampled_from([LINE_LIMIT - 1, LINE_LIMIT, LINE_LIMIT + 1, 3 * LINE_LIMIT])),
    st.sampled_from(["Zoë: pass", "K♠->N", "bad \x00 byte", "not utf8 \udcff"]),
)


def _expected(lines: list[str]) -> list[tuple[int, str]]:
    """What checking each line alone gives: (line, text) or (line, code), up to a stop."""
    out: list[tuple[int, str]] = []
    for n, line in enumerate(lines, 1):
        if "\x00" in line:
            return [*out, (n, "KC003")]
        if "\udcff" in line:
            return [*out, (n, "KC002")]
        out.append((n, "KC005") if len(line) > LINE_LIMIT else (n, line))
    return out


class _Trickle(io.BytesIO):
    """A stream that hands out at most ``size`` bytes per read, so chunks fall anywhere."""

    def __init__(self, data: bytes, size: int) -> None:
        super().__init__(data)
        self.size = size

    def read1(self, n: int = -1) -> bytes:
        return self.read(min(n, self.size))


@settings(max_examples=25, deadline=None)
@given(st.lists(LINES, max_size=12), st.integers(1, 3 * LINE_LIMIT), st.booleans())
def test_chunks_of_plain_lines_read_as_line_by_line(lines: list[str], size: int, end: bool) -> None:
    data = "\n".join(lines) + ("\n" if end and lines else "")
    stream = _Trickle(data.encode("utf-8", "surrogateescape"), size)
    if not lines or b"\x00" in stream.getvalue()[:textlines.SNIFF]:
        return  # the sniff of the head speaks first: another test's concern
    got = [(item.line, item.code) if isinstance(item, Diagnostic) else item for item in text_lines(stream, "t")]
    numbered = [g if isinstance(g, tuple) else None for g in got]
    texts = [g for g in got if isinstance(g, str)]
    want = _expected(lines if end or not lines or lines[-1] else lines[:-1])
    assert texts == [w for _, w in want if not w.startswith("KC")]
    assert [g for g in numbered if g is not None] == [w for w in want if w[1].startswith("KC")]
