"""The JSON-lines protocol of ``exec:`` bots (docs/bot-protocol.md), version 1.

kcref starts the bot's program once per game and seat, in a session of its own (so that
everything it starts can be ended with it), writes one JSON object a line to its standard
input and reads one a line from its standard output:

- ``hello`` (the seat, the players, the rules, the game's seed, the time limits) is answered by
  ``ready``;
- ``move`` (what the seat sees, the legal actions as they are written in a log, whether the
  turn may end) is answered by ``action`` (one of the legal actions, or null to end the turn);
- ``quit`` ends the game: the program has a moment to exit before it is killed.

A bot whose program ends, does not answer in time, answers something that is not such a
message, an action it was not offered, or more than :data:`MAX_ANSWER` bytes without a line
end, forfeits the game (:class:`kcref.engine.seats.Forfeit`). Its standard error is read as it
comes, and the last :data:`MAX_STDERR` bytes are kept for the game's record.
"""

from __future__ import annotations

import json
import os
import random
import select
import signal
import subprocess
import time
from collections.abc import Mapping, Sequence
from typing import Any, final

from ...engine.seats import Forfeit, ForfeitReason, SeatView
from ...engine.table import PILES
from ...model.cards import DECK
from ...model.events import Action
from ...notation.writer import action_text, card_text

PROTOCOL = 1
MAX_ANSWER = 64 * 1024
"""The most an answer may hold, in bytes, its line end included."""
MAX_STDERR = 64 * 1024
START_TIME = 5.0
"""Seconds a program has to answer ``hello`` (it may be starting an interpreter)."""
QUIT_GRACE = 0.2
"""Seconds a program has to exit after ``quit`` before it is killed."""


_CARD_TEXT = {card: card_text(card) for card in DECK}
_PILE_TEXT = {pile: pile.value for pile in PILES}


def view_message(view: SeatView, legal: Sequence[str], can_end: bool) -> dict[str, Any]:
    """The ``move`` message: what the seat sees, and what it may do (``legal``: the actions as a
    log writes them)."""
    text = _CARD_TEXT
    king = view.pending_king
    return {
        "type": "move", "seat": view.seat, "player": view.player, "dealer": view.dealer,
        "hand": [text[c] for c in view.hand], "hand_sizes": list(view.hand_sizes),
        "piles": {_PILE_TEXT[pile]: [text[c] for c in cards] for pile, cards in view.piles},
        "removed": [[text[c] for c in pile] for pile in view.removed],
        "stock": view.stock, "drawn": view.drawn, "plays": view.plays, "step": view.step,
        "pending_king": text[king] if king is not None else None,
        "turns": view.turns, "stacks": list(view.stacks) if view.stacks is not None else None,
        "pot": view.pot, "legal": list(legal), "can_end": can_end,
    }


def hello_message(seat: int, names: Sequence[str], dealer: int, rules: str, options: Mapping[str, str],
                  seed: int, move_time: float, game_time: float) -> dict[str, Any]:
    """The ``hello`` message that opens a game."""
    return {"type": "hello", "protocol": PROTOCOL, "seat": seat, "names": list(names), "dealer": dealer,
            "rules": rules, "options": dict(options), "seed": seed, "move_time": move_time,
            "game_time": game_time}


def _line(message: Mapping[str, Any]) -> bytes:
    return (json.dumps(message, separators=(",", ":")) + "\n").encode()


@final
class ExecBot:
    """A seat bot played by a program through the protocol; :meth:`close` ends it, always."""

    def __init__(self, command: Sequence[str], seat: int, move_time: float, game_time: float) -> None:
        self.seat = seat
        self.move_time = move_time
        self.time_left = game_time
        self._buffer = b""
        self._stderr = bytearray()
        """The tail of what the program wrote to its standard error, read as it comes."""
        self._process: subprocess.Popen[bytes] | None = None
        try:
            self._process = subprocess.Popen(
                list(command), stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                start_new_session=True, close_fds=True)
        except OSError as exc:
            raise Forfeit(seat, ForfeitReason.START, f"cannot start {command[0]!r}: {exc.strerror or exc}") from None
        _running.add(self._process.pid)
        assert self._process.stderr is not None
        self._err_fd = self._process.stderr.fileno()
        os.set_blocking(self._err_fd, False)

    # --- the conversation ----------------------------------------------------------------------

    def greet(self, hello: Mapping[str, Any]) -> None:
        """Send ``hello`` and wait for ``ready``."""
        answer = self._ask(hello, max(START_TIME, self.move_time), starting=True)
        if answer.get("type") != "ready":
            raise Forfeit(self.seat, ForfeitReason.START, f"answered hello with {_shown(answer)}, not ready")

    def choose(self, view: SeatView | None, legal: Sequence[Action], can_end: bool,
               rng: random.Random) -> Action | None:
        assert view is not None  # an exec: bot reads its view: it is always given one
        texts = [action_text(a) for a in legal]
        answer = self._ask(view_message(view, texts, can_end), min(self.move_time, self.time_left))
        if answer.get("type") != "action" or "action" not in answer:
            raise Forfeit(self.seat, ForfeitReason.GARBAGE, f"answered a move with {_shown(answer)}")
        chosen = answer["action"]
        if chosen is None:
            return None
        if not isinstance(chosen, str):
            raise Forfeit(self.seat, ForfeitReason.GARBAGE, f"an action that is not a string: {_shown(chosen)}")
        try:
            return legal[texts.index(chosen)]
        except ValueError:
            raise Forfeit(self.seat, ForfeitReason.ILLEGAL,
                          f"{_shown(chosen)} is not one of the legal actions") from None

    def _ask(self, message: Mapping[str, Any], limit: float, starting: bool = False) -> dict[str, Any]:
        process = self._process
        assert process is not None and process.stdin is not None
        start = time.monotonic()
        try:
            process.stdin.write(_line(message))
            process.stdin.flush()
        except OSError:
            raise self._ended() from None
        if starting:
            what = f"hello within {limit:g} s"
        elif limit < self.move_time:
            what = "a move before its time for the game ran out"
        else:
            what = f"a move within {limit:g} s"
        line = self._read_line(start + limit, what)
        if not starting:
            self.time_left -= time.monotonic() - start
        try:
            answer = json.loads(line)
        except ValueError:
            raise Forfeit(self.seat, ForfeitReason.GARBAGE, f"not JSON: {_shown(line)}") from None
        if not isinstance(answer, dict):
            raise Forfeit(self.seat, ForfeitReason.GARBAGE, f"not a JSON object: {_shown(line)}")
        return answer

    def _read_line(self, deadline: float, what: str) -> bytes:
        process = self._process
        assert process is not None and process.stdout is not None
        fd = process.stdout.fileno()
        while True:
            end = self._buffer.find(b"\n")
            if end >= 0:
                line, self._buffer = self._buffer[:end], self._buffer[end + 1:]
                return line
            if len(self._buffer) >= MAX_ANSWER:
                raise Forfeit(self.seat, ForfeitReason.FLOOD, f"{len(self._buffer)} bytes without a line end")
            wait = deadline - time.monotonic()
            ready = select.select([fd, self._err_fd], [], [], wait)[0] if wait > 0 else []
            if not ready:
                raise Forfeit(self.seat, ForfeitReason.TIME, f"no answer to {what}")
            if self._err_fd in ready:
                self._drain_stderr()
            if fd in ready:
                chunk = os.read(fd, MAX_ANSWER)
                if not chunk:
                    raise self._ended()
                self._buffer += chunk

    def _drain_stderr(self) -> None:
        """Read what the program wrote to its standard error so far, keeping the tail: a program
        that writes a lot there fills neither memory nor disk, nor blocks."""
        err = self._stderr
        while True:
            try:
                chunk = os.read(self._err_fd, 65536)
            except (BlockingIOError, OSError):
                return
            if not chunk:
                return
            err += chunk
            if len(err) > MAX_STDERR:
                del err[:len(err) - MAX_STDERR]

    def _ended(self) -> Forfeit:
        process = self._process
        assert process is not None
        try:
            code = process.wait(QUIT_GRACE)
        except subprocess.TimeoutExpired:
            return Forfeit(self.seat, ForfeitReason.CRASH, "closed its output")
        return Forfeit(self.seat, ForfeitReason.CRASH, f"the program ended (exit status {code})")

    # --- the end ---------------------------------------------------------------------------------

    def close(self) -> str:
        """End the program and everything it started; return the tail of its standard error."""
        process = self._process
        if process is not None:
            try:
                if process.poll() is None and process.stdin is not None:
                    process.stdin.write(_line({"type": "quit"}))
                    process.stdin.flush()
            except OSError:
                pass
            for stream in (process.stdin, process.stdout):
                try:
                    if stream is not None:
                        stream.close()
                except OSError:
                    pass
            end = time.monotonic() + QUIT_GRACE
            while process.poll() is None and time.monotonic() < end:
                # Drained while it exits: a program blocked on a full standard error never would.
                select.select([self._err_fd], [], [], max(0.0, min(0.01, end - time.monotonic())))
                self._drain_stderr()
            _kill_group(process.pid)
            process.wait()
            _running.discard(process.pid)
            self._drain_stderr()
            if process.stderr is not None:
                process.stderr.close()
            self._process = None
        return self._stderr.decode("utf-8", "replace")


_running: set[int] = set()
"""The sessions (by the process id of their leader) of the programs this process started and
has not ended yet."""


def end_every_program() -> None:
    """Kill every program this process started, and all they started: for a process that is
    about to exit without unwinding (a worker told to stop)."""
    for pgid in list(_running):
        _kill_group(pgid)
        try:
            os.waitpid(pgid, 0)
        except ChildProcessError:
            pass
    _running.clear()


def _kill_group(pgid: int) -> None:
    """Kill every process left in the session's group (the program's children too)."""
    try:
        os.killpg(pgid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def _shown(value: object) -> str:
    """A bot's answer, short and on one line, fit to quote in a log comment."""
    text = value.decode("utf-8", "replace") if isinstance(value, bytes) else json.dumps(value)
    text = "".join(c if c.isprintable() else "?" for c in text)
    return text if len(text) <= 60 else text[:57] + "..."
