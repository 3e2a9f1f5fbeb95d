"""``kcref record`` as one function: open and lock the log, resume it, then one loop that takes
lines from a line source (a prompt at a terminal, or standard input), judges each with a
:class:`~kcref.referee.live.LiveLog`, writes the accepted ones (each on disk before the next
line is read) and says what happened.

The loop is the same whatever the source: the recorder's words (``show``, ``undo``, ``help``,
``quit``) work in both, and a source that is not interactive only makes the output terse (no
view after each line; each refused line as a diagnostic at its line of the input).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import BinaryIO, Protocol, TextIO

from ...files.logfile import Changed, Locked, LogFile, WriteFailed
from ...model.diagnostics import Diagnostic, diagnostic
from ...model.status import ExitStatus
from ...model.words import plural
from ...notation.reader import split_lines
from ...referee.live import Judgement, LiveLog, LogHasErrors
from ...render.cells import terminal
from ...render.table_view import DEFAULT_VIEW, ViewStyle
from .view import (
    COMMANDS,
    HELP,
    after_line,
    compact_view,
    diagnostic_lines,
    full_table,
    prompt_text,
    tag_line,
)

SHOWN_ERRORS = 20
"""At most this many errors of a log that cannot be resumed are printed."""


class Stopped(Exception):
    """The recording cannot go on: the log cannot be written, or another program changed it.
    The message says what happened and what was not written."""


class LineSource(Protocol):
    """Where the lines come from."""

    interactive: bool
    """A person types them, and reads what follows each."""

    def read(self, prompt: str) -> tuple[str, int] | None:
        """The next line (without its line end) and its number in the input; ``None`` at the end."""


class StreamSource:
    """The lines of a byte stream (standard input), numbered from 1. A line that is not UTF-8
    comes back empty, its number in :attr:`undecodable` (the recording refuses it)."""

    interactive = False

    def __init__(self, stream: BinaryIO) -> None:
        self.stream = stream
        self.number = 0
        self.undecodable: set[int] = set()
        """The numbers of the lines that were not UTF-8."""

    def read(self, prompt: str) -> tuple[str, int] | None:
        raw = self.stream.readline()
        if not raw:
            return None
        self.number += 1
        if self.number == 1:
            raw = raw.removeprefix(b"\xef\xbb\xbf")
        try:
            return raw.decode("utf-8").rstrip("\r\n"), self.number
        except UnicodeDecodeError:
            self.undecodable.add(self.number)
            return "", self.number


class Record:
    """One recording: the log, its file, the source of lines and where to print."""

    def __init__(self, log: LiveLog, file: LogFile, source: LineSource, out: TextIO, err: TextIO,
                 style: ViewStyle = DEFAULT_VIEW, input_name: str = "<stdin>", since: int | None = None) -> None:
        self.log = log
        self.file = file
        self.source = source
        self.out = out
        self.err = err
        self.style = style
        self.input_name = input_name
        self.refused = 0
        self.since = self.on_disk() if since is None else since
        """The lines the log held when this session started."""
        self.words: dict[str, Callable[[], bool]] = {
            "show": self.show, "undo": self.undo, "help": self.help, "quit": self.quit,
        }
        assert set(self.words) == set(COMMANDS)

    def run(self) -> ExitStatus:
        """Take lines until the source ends or ``quit``; FOUND if a line was refused (not at a
        terminal, where a refused line is typed again); USAGE when the log could not be written
        or another program changed it (the recording stops there, nothing more written)."""
        try:
            self.take_lines()
        except Stopped as stop:
            self.err.write(str(stop))
            return ExitStatus.USAGE
        except KeyboardInterrupt:
            self.end()  # each line is written whole or not at all: say where the log stands
            raise
        self.end()
        return ExitStatus.FOUND if self.refused and not self.source.interactive else ExitStatus.OK

    def take_lines(self) -> None:
        while True:
            got = self.source.read(prompt_text(self.log) if self.source.interactive else "")
            if got is None:
                return
            text, number = got
            word = self.words.get(text.strip().lower())
            if word is not None:
                if not word():
                    return
                continue
            for piece in split_lines(text) or [""]:
                self.line(piece, number)

    def end(self) -> None:
        """Say what the log holds; a hand's set-up still waiting for its layout is not written (it
        would be an error), and is an error of the input when the lines come from one."""
        log = self.log
        waiting = lines_of(log.unwritten)
        if waiting and self.source.interactive:
            self.out.write(f"Not written: the last {plural(waiting, 'line')}, a hand with no layout yet.\n")
        elif waiting:
            self.refused += 1
            self.err.write(diagnostic_lines([d for d in log.held_back if d.is_error], show_source=False))
            self.err.write(f"kcref record: not written, as the hand has no layout: the last "
                           f"{plural(waiting, 'line')} accepted\n")
        if self.source.interactive:
            self.out.write(f"{terminal(self.file.path)} holds {plural(log.lines - waiting, 'line')}.\n")

    def line(self, text: str, number: int) -> None:
        """Judge one line; write it, or say why not."""
        if isinstance(self.source, StreamSource) and number in self.source.undecodable:
            self.refused += 1
            d = diagnostic(self.input_name, number, 1, "KC002", "the line is not UTF-8 text")
            self.err.write(diagnostic_lines([d]))
            return
        if self.source.interactive and not text.strip():
            return
        judged = self.log.feed(text)
        if judged.accepted:
            self.write(judged)
            if self.source.interactive:
                self.out.write(after_line(self.log, judged, self.style))
            return
        self.refused += 1
        if self.source.interactive:
            self.out.write(diagnostic_lines(judged.diagnostics) + "Not written: fix the line and type it again.\n")
        else:
            self.err.write(diagnostic_lines(judged.at(self.input_name, number)))

    def write(self, judged: Judgement) -> None:
        """Append what an accepted line writes; when that fails, the line is taken back and the
        recording stops (:class:`Stopped`)."""
        if not judged.written:
            return
        try:
            self.file.append(judged.written)
        except (Changed, WriteFailed) as exc:
            self.log.undo()
            raise Stopped(stopped(self.file, exc, self.on_disk(), judged.written, since=self.since)) from None

    def on_disk(self) -> int:
        """The lines of the log on disk (the accepted lines but a set-up still waiting for its layout)."""
        return self.log.lines - lines_of(self.log.unwritten)

    # --- the recorder's words: each says whether to go on ---------------------------------------

    def show(self) -> bool:
        self.out.write(full_table(self.log, self.style))
        return True

    def undo(self) -> bool:
        try:
            self.file.check()
        except Changed as exc:
            raise Stopped(stopped(self.file, exc, self.on_disk(), "", undo=True, since=self.since)) from None
        lines = self.on_disk()
        judged = self.log.undo()
        if judged is None:
            self.out.write("Nothing to undo.\n")
            return True
        try:
            self.file.cut(judged.written)
        except Changed as exc:
            raise Stopped(stopped(self.file, exc, lines, "", undo=True, since=self.since)) from None
        if self.source.interactive:
            what = f"line {judged.line}: {terminal(judged.text)}" if judged.text else "a blank line"
            self.out.write(f"Took back {what}\n" + compact_view(self.log, self.style))
        return True

    def help(self) -> bool:
        self.out.write(HELP)
        return True

    def quit(self) -> bool:
        return False


def stopped(file: LogFile, exc: OSError, lines: int, unwritten: str, undo: bool = False, since: int = 0,
            program: str = "kcref record") -> str:
    """Why the recording of ``file`` stops (``exc``), where the log stands (``lines`` on disk, of
    which those after line ``since`` written by this session) and what was not written, to be
    typed again (in the words of ``program``, the command that writes the log)."""
    path = terminal(file.path)
    last = f"line {lines}: {terminal(file.last_line)}" if lines else "none"
    if isinstance(exc, WriteFailed):
        cut = ("the file is cut back to its last whole line" if exc.restored else
               "the file could not be cut back, and may end with part of a line: run 'kcref check' on it")
        said = (f"{program}: cannot write {path}: {terminal(exc.strerror or str(exc))}: the line is not "
                f"written ({cut}); stopping. The last line written is {last}.\n")
    else:
        what = "the last line is not taken back" if undo else "nothing more is written"
        said = (f"{program}: {path} changed under the recorder (another program wrote it: "
                f"{terminal(exc.strerror or str(exc))}): stopping, {what}; nothing of this session is lost: "
                f"the last line written was {last}.\n")
        said += _elsewhere(file, lines, since)
    if unwritten:
        said += "Not written (type it again once the log is sorted out):\n"
        said += "".join(f"    {terminal(line)}\n" for line in split_lines(unwritten))
    return said


def _elsewhere(file: LogFile, lines: int, since: int) -> str:
    """The lines this session wrote (after line ``since``, up to line ``lines``) that the file at
    the path does not hold, when it is another file now or none: they are only in the file the
    recorder holds open, which is gone once it stops, so they are printed."""
    try:
        ours = file.recorded()
    except OSError:
        return ""
    try:
        with open(file.path, "rb") as f:
            theirs = f.read()
    except OSError:
        theirs = b""
    if theirs.startswith(ours):
        return ""
    mine, now = split_lines(ours.decode("utf-8", "replace")), split_lines(theirs.decode("utf-8", "replace"))
    same = next((i for i, (a, b) in enumerate(zip(mine, now)) if a != b), min(len(mine), len(now)))
    missing = mine[max(same, since):lines]
    if not missing:
        return ""
    return (f"What is at {terminal(file.path)} now lacks these lines this session wrote:\n"
            + "".join(f"    {terminal(line)}\n" for line in missing))


def lines_of(text: str) -> int:
    """The lines of ``text`` (blank ones included)."""
    return text.count("\n")


def where_it_stands(log: LiveLog) -> str:
    """A resumed log in a few words: its lines and hands, and what comes next."""
    hands = len(log.finished) + (1 if log.record is not None else 0)
    return (f"{plural(log.lines, 'line')}, {plural(hands, 'hand')}; next: {prompt_text(log)[:-2]}\n"
            + compact_view(log))


def record(path: str, tags: Iterable[tuple[str, str]], source_for: Callable[[LiveLog], LineSource],
           out: TextIO, err: TextIO, style: ViewStyle = DEFAULT_VIEW) -> ExitStatus:
    """``kcref record PATH``: lock and resume the log at ``path`` (or start it), add the ``tags``
    not already in force, then record the lines of ``source_for(log)``.

    USAGE (2) when the log is locked by another recording, cannot be read or written, cannot be
    resumed (errors, not canonical), or a tag given is refused; FOUND (1) when a line was
    refused; else OK.
    """
    try:
        file = LogFile(path)
    except Locked:
        err.write(f"kcref record: {terminal(path)} is being recorded by another kcref record "
                  f"(it holds the log's lock); finish that one first\n")
        return ExitStatus.USAGE
    except OSError as exc:
        err.write(f"kcref record: cannot open {terminal(path)}: {terminal(exc.strerror or str(exc))}\n")
        return ExitStatus.USAGE
    with file:
        log = resumed_log(file, path, err)
        if log is None:
            return ExitStatus.USAGE
        resumed, since = log.lines > 0, log.lines
        if not add_tags(log, file, tags, err):
            return ExitStatus.USAGE
        source = source_for(log)
        if source.interactive:
            start = f"Resumed {terminal(path)}: " + where_it_stands(log) if resumed else \
                f"Recording a new log: {terminal(path)} ('help' lists the commands)\n"
            out.write(start)
        return Record(log, file, source, out, err, style, since=since).run()


def _unreadable(data: bytes, path: str) -> Diagnostic | None:
    """Why ``data`` is no log at all (not UTF-8, or binary), in the words of ``kcref check``."""
    import io

    from ...model.codes import UNREADABLE
    from ...notation.textlines import text_lines

    return next((line for line in text_lines(io.BytesIO(data), path)
                 if isinstance(line, Diagnostic) and line.code in UNREADABLE), None)


def resumed_log(file: LogFile, path: str, err: TextIO, program: str = "kcref record") -> LiveLog | None:
    """The log in ``file`` (opened and locked at ``path``) resumed as :meth:`LiveLog.resume`
    resumes it; ``None`` when it cannot be, after saying why on ``err`` (in the words of
    ``program``, the command that writes the log)."""
    data = file.read()
    problem = _unreadable(data, path) if not data.isascii() or b"\0" in data else None
    if problem is not None:
        err.write(diagnostic_lines([problem]))
        err.write(f"{program}: cannot resume: {terminal(path)} is not a log kcref can read\n")
        return None
    text = data.decode("utf-8")
    try:
        return LiveLog.resume(text, path)
    except LogHasErrors as exc:
        err.write(diagnostic_lines(exc.diagnostics[:SHOWN_ERRORS]))
        err.write(f"{program}: cannot resume: {terminal(str(exc))}\n")
        return None


def add_tags(log: LiveLog, file: LogFile, tags: Iterable[tuple[str, str]], err: TextIO,
             program: str = "kcref record") -> bool:
    """Feed and write the tags given that are not already in force, as a new or resumed log
    takes the options of its command line; False (after saying why on ``err``) when one is
    refused or cannot be written."""
    in_force = {t.name: t.value for t in log.tags}
    since = log.lines
    for name, value in tags:
        if in_force.get(name) == value:
            continue
        judged = log.feed(tag_line(name, value))
        if not judged.accepted:
            err.write(diagnostic_lines(judged.diagnostics, show_source=False))
            err.write(f"{program}: the tag {terminal(name)} is refused\n")
            return False
        if judged.written:
            try:
                file.append(judged.written)
            except (Changed, WriteFailed) as exc:
                log.undo()
                err.write(stopped(file, exc, log.lines - lines_of(log.unwritten), judged.written, since=since,
                                  program=program))
                return False
    return True

