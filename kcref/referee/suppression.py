"""Inline suppression: a trailing comment ``# kcref: ignore[KC216]`` (or ``[KC216, KC401]``) on a
log line silences those codes on that line, and nothing else; a suppression that silences
nothing there is itself a warning (KC007). A comment alone on its line trails no line: it
silences nothing. What is silenced is counted, by code (:attr:`Suppressions.silenced`).

The comments come with the events the reader makes of the lines (their ``comment`` field), or,
for a line that could not be read as an event, with the line's text kept for the caret display.
A file without the word ``kcref:`` in a comment costs one substring test per line read.
"""

from collections import Counter
from collections.abc import Iterable
from typing import NamedTuple

from ..model.clip import clip
from ..model.diagnostics import Diagnostic, diagnostic
from ..model.patterns import lazy_pattern
from ..model.words import names_list, noun
from ..notation.lexicon import SUPPRESSION_MARK

MARK = SUPPRESSION_MARK
"""What a comment must hold to be looked at more closely."""
UNUSED = "KC007"


_suppression = lazy_pattern(r"\bkcref:[ \t]*ignore\[([^\]]*)\]")
"""What makes a comment a suppression, looked for after its '#' (compiled on first use: most
logs hold none). Not one pattern from the '#' on (``#.*?kcref:...``): tried from every '#' of
a line, that took time in the square of the line's length."""


def line_comment(line: str) -> str:
    """The comment of a whole line, as the reader takes it: from the line's first '#', but on a
    tag line from the first '#' after the tag's quoted value, as a '#' inside the quotes is part
    of the value (``[Draw "start # kcref: ignore[KC206]"]`` holds no comment); "" when there is
    none (a value whose quotes never close runs to the end of the line)."""
    hash_at = line.find("#")
    if hash_at < 0:
        return ""
    quote = line.find('"')
    if line.lstrip(" \t").startswith("[") and 0 <= quote < hash_at:
        at = quote + 1
        while at < len(line) and line[at] != '"':
            at += 2 if line[at] == "\\" else 1
        hash_at = line.find("#", at + 1) if at < len(line) else -1
    return "" if hash_at < 0 else line[hash_at:]


class _Line(NamedTuple):
    """The suppression on one line: the codes it names (as written, upper-cased), those used."""

    column: int
    codes: tuple[str, ...]
    used: set[str]


class Suppressions:
    """The suppressions of one file seen so far, and which of them silenced something."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.lines: dict[int, _Line] = {}
        self.silenced: Counter[str] = Counter()
        """How many diagnostics of each code were silenced so far."""

    def __bool__(self) -> bool:
        return bool(self.lines)

    def note(self, line: int, text: str, source: str = "") -> None:
        """Read the suppression (if any) in ``text``, a comment or a whole line, of line ``line``
        (``source``: the line's text, to find the comment's column)."""
        if MARK not in text or line in self.lines:
            return
        hash_at = text.find("#")
        found = _suppression().search(text, hash_at + 1) if hash_at >= 0 else None
        if found is None:
            return
        at = (source or text).find(text[hash_at:found.end()])
        if source and at >= 0 and not source[:at].strip():
            return  # a comment alone on its line: it trails nothing, so it silences nothing
        codes = tuple(dict.fromkeys(c.strip().upper() for c in found[1].split(",") if c.strip()))
        self.lines[line] = _Line(at + 1 if at >= 0 and source else 1, codes, set())

    def silences(self, d: Diagnostic) -> bool:
        """Whether a suppression on the line of ``d`` names its code."""
        entry = self.lines.get(d.line)
        return entry is not None and d.code in entry.codes

    def kept(self, diagnostics: Iterable[Diagnostic]) -> list[Diagnostic]:
        """The diagnostics no suppression silences (the others are marked used, and counted)."""
        lines, out, silenced = self.lines, [], self.silenced
        for d in diagnostics:
            entry = lines.get(d.line)
            if entry is not None and d.code in entry.codes:
                entry.used.add(d.code)
                silenced[d.code] += 1
            else:
                out.append(d)
        return out

    def unused(self, upto: int | None = None) -> list[Diagnostic]:
        """KC007 for each suppression up to line ``upto`` (all, without it) that silenced some
        code it names nowhere; those lines are settled and forgotten."""
        settled = [line for line in self.lines if upto is None or line <= upto]
        out = []
        for line in settled:
            entry = self.lines.pop(line)
            idle = [c for c in entry.codes if c not in entry.used]
            if not entry.codes:
                message = "this suppression names no code: write the codes to silence, as ignore[KC216]"
            elif idle:
                message = (f"unused suppression: {clip(names_list(idle))} {noun(len(idle), 'is', 'are')} not "
                           "reported on this line")
            else:
                continue
            out.append(diagnostic(self.path, line, entry.column, UNUSED, message))
        return out
