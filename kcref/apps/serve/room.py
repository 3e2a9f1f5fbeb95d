"""One table being served: its :class:`~kcref.referee.live.LiveLog`, its locked
:class:`~kcref.files.logfile.LogFile`, and the pages listening to it.

A submission is judged, written and fsync'd (:meth:`LogFile.append`) before anyone is told it
was accepted, then every listening page is sent the new state. The methods are plain functions
called from the server's one event loop, with no ``await`` inside: two submissions never
interleave, and the second of two built on the same state is refused as stale.

Each submission names the :attr:`TableRoom.version` it was built on: the number of changes
(lines accepted, lines taken back) since the server started. The line count alone would not do:
an undo and a new line leave the same count with another table.
"""

from __future__ import annotations

import asyncio
import json
from typing import NamedTuple

from ...files.logfile import Changed, LogFile, WriteFailed
from ...referee.live import LiveLog
from ..record.session import lines_of, stopped
from .page_state import JSON, diagnostic_json, snapshot

PROGRAM = "kcref serve"
MOVED_ON = "the table has moved on: this line was built on an older state; here is the new one"
QUEUED = 64
"""Messages a slow page may have waiting before it is dropped (it reconnects and reloads the state)."""
DROPPED = ""
"""The last message a dropped page's queue receives: its connection is closed."""


class Outcome(NamedTuple):
    """The answer to a submission: an HTTP status and its JSON body."""

    status: int
    body: JSON


class Broadcast:
    """The pages listening to something: each has a queue that receives every message sent."""

    def __init__(self) -> None:
        self.listeners: set[asyncio.Queue[str]] = set()

    def listen(self) -> asyncio.Queue[str]:
        """A queue that receives every message from now on (see :meth:`leave`)."""
        queue: asyncio.Queue[str] = asyncio.Queue()
        self.listeners.add(queue)
        return queue

    def leave(self, queue: asyncio.Queue[str]) -> None:
        self.listeners.discard(queue)

    def send(self, message: str) -> None:
        """Send ``message`` to every page; one too slow to keep up is dropped: it is sent
        :data:`DROPPED` last, and its page reconnects and reloads the state."""
        for queue in list(self.listeners):
            if queue.qsize() >= QUEUED:
                self.listeners.discard(queue)
                queue.put_nowait(DROPPED)
            else:
                queue.put_nowait(message)


class TableRoom:
    """The table ``name``, its log ``log`` resumed from ``file`` (open and locked). ``night``,
    when several tables are served, hears of every change of each (for the standings across them)."""

    def __init__(self, name: str, log: LiveLog, file: LogFile, night: Broadcast | None = None) -> None:
        self.name = name
        self.log = log
        self.file = file
        self.night = night
        self.version = 0
        self.stopped = ""
        """Why the log can no longer be written (another program changed it, the disk is full): set once."""
        self.pages = Broadcast()
        self._state: JSON | None = None

    # --- reading ---------------------------------------------------------------------------

    def state(self) -> JSON:
        """The table as the page draws it now (built once per change)."""
        if self._state is None:
            self._state = snapshot(self.log, self.version, self.name)
            self._state["stopped"] = self.stopped
        return self._state

    def log_text(self) -> bytes:
        """The log as it is on disk."""
        return self.file.recorded()

    def report_page(self, recorded: bytes) -> str:
        """The night's ``kcref report`` page of ``recorded`` (the log's bytes, read by
        :meth:`log_text` between two writes), as a live page that reloads itself: it is read
        from a copy, under the log's own name, so that no write is read half done."""
        import os
        import tempfile

        from ...files.inputs import resolve
        from ..report.page import build_report

        with tempfile.TemporaryDirectory(prefix="kcref-serve-") as folder:
            copy = os.path.join(folder, os.path.basename(self.file.path))
            with open(copy, "wb") as f:
                f.write(recorded)
            result = build_report(resolve([copy]), live=True)
            try:
                return result.html
            finally:
                result.page.close()

    # --- changing --------------------------------------------------------------------------

    def submit(self, text: str, version: int) -> Outcome:
        """Judge the line ``text``, built on the state ``version``: written and broadcast (200),
        refused with kcref's diagnostics (422), stale (409), or the log cannot be written (503)."""
        refused = self._refuse(version)
        if refused is not None:
            return refused
        judged = self.log.feed(text)
        if not judged.accepted:
            return Outcome(422, {"accepted": False, "line": judged.line, "text": text,
                                 "diagnostics": [diagnostic_json(d) for d in judged.diagnostics],
                                 "state": self.state()})
        if judged.written:
            try:
                self.file.append(judged.written)
            except (Changed, WriteFailed) as exc:
                self.log.undo()
                return self._stop(stopped(self.file, exc, self._on_disk(), judged.written, program=PROGRAM))
        notes = [diagnostic_json(d) for d in judged.diagnostics]
        self._changed({"kind": "line", "line": judged.line, "text": judged.text, "notes": notes})
        return Outcome(200, {"accepted": True, "line": judged.line, "text": judged.text, "notes": notes,
                             "state": self.state()})

    def undo(self, version: int) -> Outcome:
        """Take back the last accepted line (from the file too), as ``undo`` does in ``kcref record``."""
        refused = self._refuse(version)
        if refused is not None:
            return refused
        lines = self._on_disk()
        try:
            self.file.check()
        except Changed as exc:
            return self._stop(stopped(self.file, exc, lines, "", undo=True, program=PROGRAM))
        judged = self.log.undo()
        if judged is None:
            return Outcome(409, {"error": "nothing to undo", "state": self.state()})
        try:
            self.file.cut(judged.written)
        except Changed as exc:
            return self._stop(stopped(self.file, exc, lines, "", undo=True, program=PROGRAM))
        self._changed({"kind": "undo", "line": judged.line, "text": judged.text})
        return Outcome(200, {"undone": judged.text, "line": judged.line, "state": self.state()})

    def _refuse(self, version: int) -> Outcome | None:
        if self.stopped:
            return Outcome(503, {"error": self.stopped, "state": self.state()})
        if version != self.version:
            return Outcome(409, {"error": MOVED_ON, "state": self.state()})
        return None

    def _stop(self, why: str) -> Outcome:
        self.stopped = why
        self._changed({"kind": "stopped", "error": why})
        return Outcome(503, {"error": why, "state": self.state()})

    def _on_disk(self) -> int:
        return self.log.lines - lines_of(self.log.unwritten)

    def _changed(self, message: JSON) -> None:
        """A change: a new version, and every listening page told of it with the new state."""
        self.version += 1
        self._state = None
        message["state"] = self.state()
        self.pages.send(json.dumps(message))
        if self.night is not None:
            self.night.send(json.dumps({"kind": "changed", "table": self.name}))

