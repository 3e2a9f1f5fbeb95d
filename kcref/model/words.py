"""Small pieces of English shared by every message and table: counts, lists of names, and
"did you mean"."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

CLOSE = 0.6
"""How alike (difflib's ratio) a word and a choice must be for the choice to be suggested."""


def noun(n: int, word: str, many: str | None = None) -> str:
    """``chip`` for 1, ``chips`` otherwise (the word alone: ``the dealt Kings``)."""
    return word if n == 1 else many or word + "s"


def plural(n: int, word: str, many: str | None = None) -> str:
    """``1 chip``, ``2 chips``; ``many`` for an irregular plural (``plural(2, "penalty", "penalties")``)."""
    return f"{n} {noun(n, word, many)}"


def names_list(names: Sequence[str], conjunction: str = "and") -> str:
    """``Ann``, ``Ann and Bob``, ``Ann, Bob and Cy`` (or ``N, E or S`` with ``conjunction="or"``)."""
    if len(names) <= 1:
        return "".join(names)
    return f"{', '.join(names[:-1])} {conjunction} {names[-1]}"


def did_you_mean(word: str, choices: Iterable[str], cutoff: float = CLOSE) -> str:
    """``; did you mean 'x'?`` for the choice closest to ``word``, or "" when none is close
    (or ``word`` is empty, or is one of the choices). Case counts: fold both sides first where
    it should not. A higher ``cutoff`` asks for a closer choice."""
    options = list(choices)
    if not word or word in options or not any(_may_be_close(word, c) for c in options):
        return ""
    import difflib  # only a misspelt word comes here: the import costs more than most runs' work

    close = difflib.get_close_matches(word, options, n=1, cutoff=cutoff)
    return f"; did you mean '{close[0]}'?" if close else ""


def _may_be_close(word: str, choice: str) -> bool:
    """False when the lengths alone rule ``choice`` out (difflib's own first test), so that a
    junk word of any length never reaches difflib's costlier ones."""
    return 2.0 * min(len(word), len(choice)) / (len(word) + len(choice)) >= CLOSE
