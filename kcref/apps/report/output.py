"""Where ``kcref report`` writes its page, and ``--watch``: rebuild it whenever a log changes.

The page comes as text chunks, made as they are written (:class:`kcref.apps.report.page.Page`),
and is written whole or not at all (:func:`write_page`, through
:func:`kcref.files.atomic.open_output`), so a browser reloading it never reads half a page.
Watching polls the inputs' modification times and sizes (a folder is searched again each time, so
a new log in it is seen): no dependency, and it works on every file system, network shares included.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterable, Sequence
from typing import NamedTuple

from ...files.excludes import NO_EXCLUSIONS, Exclusions
from ...files.inputs import DEFAULT_GLOBS, STDIN, Found, resolve
from ...model.diagnostics import Diagnostic, printable
from ...model.words import plural

PAGE_NAME = "report.html"
"""The page's name inside a folder given as the output."""
POLL_SECONDS = 1.0


def target_path(out: str) -> str:
    """The file to write for ``-o``: a folder gets :data:`PAGE_NAME` inside it; ``-`` stays ``-``
    (standard output)."""
    if out != STDIN and os.path.isdir(out):
        return os.path.join(out, PAGE_NAME)
    return out


def write_page(target: str, chunks: Iterable[str]) -> None:
    """Write the page, given as pieces of text in order, to the file ``target``: streamed into a
    temp file beside it that takes its place once the last piece is written, so the file is
    whole or as it was (a device or a FIFO is written in place). Raises
    :class:`~kcref.files.atomic.CannotWrite`; anything ``chunks`` raises leaves the file as it was."""
    from ...files.atomic import open_output

    with open_output(target) as page:
        out = page.text(newline="")
        for chunk in chunks:
            out.write(chunk)
        page.commit()


def written_note(target: str, hands: int, errors: int) -> str:
    """The line on standard error once the page is written: where, how many hands, how many
    errors the logs hold (printable)."""
    found = f", {plural(errors, 'error')} in the logs" if errors else ""
    return f"kcref report: wrote {printable(target)} ({plural(hands, 'hand')}{found})"


def unreadable_line(d: Diagnostic) -> str:
    """A file that cannot be read, on standard error as ``kcref check`` says it (printable)."""
    from ...render.cells import terminal_diagnostic
    from ...render.diagnostic_lines import format_text

    return format_text(terminal_diagnostic(d), show_source=False)


class Stamp(NamedTuple):
    """A log as last seen: its path, modification time and size."""

    path: str
    mtime_ns: int
    size: int


def stamps(args: Sequence[str], globs: Sequence[str] = DEFAULT_GLOBS,
           exclusions: Exclusions = NO_EXCLUSIONS) -> tuple[Stamp, ...]:
    """The logs the arguments name now (folders searched again), each with its time and size (a
    log that cannot be read counts as time 0, size -1: when it comes back, that is a change)."""
    out = []
    try:
        entries = resolve(args, globs, exclusions=exclusions).entries
    except ValueError:
        return ()
    for entry in entries:
        if not isinstance(entry, Found):
            continue
        try:
            st = os.stat(entry.path)
        except OSError:
            out.append(Stamp(entry.path, 0, -1))
            continue
        out.append(Stamp(entry.path, st.st_mtime_ns, st.st_size))
    return tuple(out)


def _folders(paths: Sequence[str]) -> tuple[str, ...]:
    """Those of ``paths`` that are folders now."""
    return tuple(p for p in paths if os.path.isdir(p))


def watch(args: Sequence[str], globs: Sequence[str], rebuild: Callable[[], object], *,
          output: str | None = None, say: Callable[[str], None] = lambda _: None,
          interval: float = POLL_SECONDS, sleep: Callable[[float], None] = time.sleep,
          rounds: int | None = None, exclusions: Exclusions = NO_EXCLUSIONS) -> None:
    """Call ``rebuild`` now, then each time the logs named by ``args`` (less what ``exclusions``
    leaves out of a folder) change, polling every
    ``interval`` seconds, until interrupted (Ctrl-C raises ``KeyboardInterrupt`` out of here) or,
    for tests, after ``rounds`` polls.

    A log given as a file that becomes a folder, or the page's path (``output``) becoming one,
    is said (``say``: ``kcref report: PATH: is a folder``) instead of rebuilt over, and the watch
    goes on: it rebuilds once they are files again (or the logs change)."""
    files = [a for a in args if a != STDIN and not os.path.isdir(a)]
    if output is not None and output != STDIN:
        files.append(output)

    def attempt(folders: tuple[str, ...]) -> None:
        if folders:
            for path in folders:
                say(f"kcref report: {printable(path)}: is a folder")
            return
        rebuild()

    seen = (stamps(args, globs, exclusions), _folders(files))
    attempt(seen[1])
    done = 0
    while rounds is None or done < rounds:
        sleep(interval)
        done += 1
        now = (stamps(args, globs, exclusions), _folders(files))
        if now != seen:
            seen = now
            attempt(now[1])
