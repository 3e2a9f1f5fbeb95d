"""A real ``kcref serve`` for the tests: started as a process on a free port of 127.0.0.1, its
URLs read from what it prints (within a deadline), stopped by its PID however the test ends."""

from __future__ import annotations

import os
import queue
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import NamedTuple

from tests.util import ROOT

STARTS_WITHIN = 20.0
"""Seconds a server has to print its URL."""
HAND = ["hand 1", "deal Ann: AD 8C JD JH KC 5S 3S", "deal Bob: AH KH 10S 4C 7S 7D 4H", "layout N:9D E:2H S:KD W:QC",
        "Ann: KC->NE; 8C->N; JD->W; W->S; JH->W; S->NW; AD->S; draw 6D",
        "Bob: KH->SE; 7D->N; 10S->NW; N->NW; 4H->N; draw 8S",
        "Ann: 3S->N; E->N; 6D->E; 5S->E"]
"""A whole commercial hand of two players (``kcref play --players 2 --rules commercial --seed 3``)."""
TAGS = ("--players", "Ann, Bob", "--rules", "commercial")


class Server(NamedTuple):
    process: subprocess.Popen[str]
    url: str
    """The players' URL (with the write key)."""
    base: str
    """The URL of the table's folder: ``http://127.0.0.1:PORT/``."""
    key: str
    printed: str
    """What it printed before serving."""


@contextmanager
def serving(log: Path, *args: str) -> Iterator[Server]:
    """``kcref serve LOG ARGS --port 0`` until the block ends (then stopped by its PID)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONUNBUFFERED": "1"}
    process = subprocess.Popen([sys.executable, "-m", "kcref", "serve", str(log), "--port", "0", *args],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env, cwd=ROOT)
    lines: queue.Queue[str | None] = queue.Queue()

    def read() -> None:
        assert process.stdout is not None
        for line in process.stdout:
            lines.put(line)
        lines.put(None)

    threading.Thread(target=read, daemon=True).start()
    try:
        printed: list[str] = []
        deadline = time.monotonic() + STARTS_WITHIN
        url = ""
        while not url:
            line = lines.get(timeout=max(0.1, deadline - time.monotonic()))
            if line is None:
                raise AssertionError("kcref serve ended before serving:\n" + "".join(printed))
            printed.append(line)
            if ": open http://" in line:
                url = line.split(": open ", 1)[1].strip()
        while not printed[-1].startswith("Ctrl-C"):
            line = lines.get(timeout=max(0.1, deadline - time.monotonic()))
            assert line is not None, "".join(printed)
            printed.append(line)
        base, _, key = url.partition("?key=")
        yield Server(process, url, base, key, "".join(printed))
    finally:
        stop(process)


def stop(process: subprocess.Popen[str]) -> None:
    """Stop the server by its PID: Ctrl-C first, then kill."""
    if process.poll() is None:
        os.kill(process.pid, signal.SIGINT)
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.kill(process.pid, signal.SIGKILL)
            process.wait(timeout=10)
