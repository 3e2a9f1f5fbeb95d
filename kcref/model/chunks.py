"""Text made of many small pieces (lines, cells, markup), handed on in chunks of about a given
size: few enough writes for a large output, and never the whole of it in memory."""

from __future__ import annotations

from collections.abc import Iterable, Iterator


def joined(pieces: Iterable[str], size: int) -> Iterator[str]:
    """``pieces`` joined into chunks of at least ``size`` characters (the last one may be
    shorter), in order; nothing for no text."""
    held: list[str] = []
    length = 0
    for piece in pieces:
        held.append(piece)
        length += len(piece)
        if length >= size:
            yield "".join(held)
            held, length = [], 0
    if held:
        yield "".join(held)
