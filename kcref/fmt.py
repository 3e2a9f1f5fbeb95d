"""``kcref fmt``: canonical form of a log, checked or rewritten in place atomically."""

from __future__ import annotations

import os
import tempfile
from typing import NamedTuple

from .diagnostics import Diagnostic
from .events import Event
from .reader import read_stream
from .writer import DEFAULT_STYLE, Style, write_text


class Formatted(NamedTuple):
    """A file's original text, its canonical text (None when it has errors), and the errors."""

    path: str
    original: str
    canonical: str | None
    errors: list[Diagnostic]

    @property
    def changed(self) -> bool:
        return self.canonical is not None and self.canonical != self.original


def format_bytes(data: bytes, path: str, style: Style = DEFAULT_STYLE) -> Formatted:
    """The canonical form of a log given as bytes; refuses (canonical None) when it has errors."""
    import io

    events: list[Event] = []
    errors: list[Diagnostic] = []
    for item in read_stream(io.BytesIO(data), path, trivia=True):
        if isinstance(item, Diagnostic):
            if item.is_error:
                errors.append(item)
        else:
            events.append(item)
    original = data.decode("utf-8", "replace")
    return Formatted(path, original, None if errors else write_text(events, style), errors)


def write_atomically(path: str, text: str) -> None:
    """Replace the file at ``path`` with ``text``: a temp file beside it, then a rename.

    If anything fails on the way, the original file is left as it was.
    """
    directory = os.path.dirname(os.path.abspath(path))
    try:
        mode = os.stat(path).st_mode & 0o7777
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        mode = 0o666 & ~umask
    fd, tmp = tempfile.mkstemp(prefix=".kcref-", suffix=".tmp", dir=directory)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
