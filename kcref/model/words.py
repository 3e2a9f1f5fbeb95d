"""Small pieces of English shared by every message and table: counts and lists of names."""

from __future__ import annotations

from collections.abc import Sequence


def plural(n: int, word: str, many: str | None = None) -> str:
    """``1 chip``, ``2 chips``; ``many`` for an irregular plural (``plural(2, "penalty", "penalties")``)."""
    return f"{n} {word}" if n == 1 else f"{n} {many or word + 's'}"


def names_list(names: Sequence[str]) -> str:
    """``Ann``, ``Ann and Bob``, ``Ann, Bob and Cy``."""
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]
