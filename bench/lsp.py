"""How fast ``kcref lsp`` answers on a long log, by hand:

    python bench/lsp.py [--hands 1500] [--edits 10]

It makes the log of ``kcref play --players 4 --rules commercial --seed 4242 --hands HANDS``,
starts ``python -m kcref lsp`` and speaks to it over its pipes as an editor does (a scripted
client, JSON-RPC written by hand): it opens the log, then edits the last hand's last turn
EDITS times (a comment added, then taken away), and prints the median time from each change to
its diagnostics (the server waits for the typing to pause first: its debounce is counted in), and
from each save to its diagnostics (no debounce); then the median time of a completion and of a
hover on that turn line. The targets: diagnostics within 300 ms of a change, completion and
hover within 50 ms. The exit status is 1 when a median is over its target.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import IO, Any

ROOT = Path(__file__).resolve().parent.parent
TARGETS = {"change": 0.300, "completion": 0.050, "hover": 0.050}


class Client:
    """A language client over a server's pipes: requests, notifications, and what comes back."""

    def __init__(self) -> None:
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        self.process = subprocess.Popen([sys.executable, "-m", "kcref", "lsp"], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, env=env)
        self.timer = threading.Timer(600, self.process.kill)  # a bench that hangs must not stay
        self.timer.start()
        self.ids = 0

    def send(self, message: dict[str, Any]) -> None:
        body = json.dumps({"jsonrpc": "2.0", **message}).encode()
        stdin: IO[bytes] = self.process.stdin  # type: ignore[assignment]
        stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        stdin.flush()

    def receive(self) -> dict[str, Any]:
        stdout: IO[bytes] = self.process.stdout  # type: ignore[assignment]
        length = 0
        while True:
            line = stdout.readline()
            if not line:
                raise SystemExit("bench/lsp.py: the server stopped")
            if line in (b"\r\n", b"\n"):
                break
            name, _, value = line.decode().partition(":")
            if name.lower() == "content-length":
                length = int(value)
        message: dict[str, Any] = json.loads(stdout.read(length))
        return message

    def request(self, method: str, params: dict[str, Any]) -> Any:
        self.ids += 1
        self.send({"id": self.ids, "method": method, "params": params})
        while True:
            message = self.receive()
            if message.get("id") == self.ids:
                return message.get("result")

    def diagnostics(self, version: int) -> list[Any]:
        while True:
            message = self.receive()
            params = message.get("params") or {}
            if message.get("method") == "textDocument/publishDiagnostics" and params.get("version") == version:
                return list(params["diagnostics"])

    def stop(self) -> None:
        self.request("shutdown", {})
        self.send({"method": "exit"})
        try:
            self.process.wait(10)
        finally:
            if self.process.poll() is None:
                self.process.kill()
            self.timer.cancel()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=1500)
    parser.add_argument("--edits", type=int, default=10)
    args = parser.parse_args()
    text = subprocess.run([sys.executable, "-m", "kcref", "play", "--players", "4", "--rules", "commercial",
                           "--seed", "4242", "--hands", str(args.hands)], capture_output=True, check=True, text=True,
                          env={**os.environ, "PYTHONPATH": str(ROOT)}).stdout
    lines = text.split("\n")
    turn = max(i for i, line in enumerate(lines) if "->" in line)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "night.log"
        path.write_text(text, encoding="utf-8")
        uri = path.as_uri()
        client = Client()
        try:
            client.request("initialize", {"processId": os.getpid(), "capabilities": {}})
            client.send({"method": "initialized", "params": {}})
            start = time.perf_counter()
            client.send({"method": "textDocument/didOpen", "params": {"textDocument": {
                "uri": uri, "languageId": "kcref", "version": 0, "text": text}}})
            client.diagnostics(0)
            opened = time.perf_counter() - start
            times: dict[str, list[float]] = {"change": [], "save": [], "completion": [], "hover": []}
            end = len(lines[turn])
            for version in range(1, 2 * args.edits + 1):
                note = "  # a note"
                at = {"line": turn, "character": end}
                change = ({"range": {"start": at, "end": at}, "text": note} if version % 2 else
                          {"range": {"start": {"line": turn, "character": end},
                                     "end": {"line": turn, "character": end + len(note)}}, "text": ""})
                start = time.perf_counter()
                client.send({"method": "textDocument/didChange", "params": {
                    "textDocument": {"uri": uri, "version": version}, "contentChanges": [change]}})
                client.diagnostics(version)
                times["change"].append(time.perf_counter() - start)
                start = time.perf_counter()
                client.send({"method": "textDocument/didSave", "params": {"textDocument": {"uri": uri}}})
                client.diagnostics(version)
                times["save"].append(time.perf_counter() - start)
            where = {"textDocument": {"uri": uri}, "position": {"line": turn, "character": lines[turn].index(":") + 2}}
            for _ in range(args.edits):
                start = time.perf_counter()
                client.request("textDocument/completion", where)
                times["completion"].append(time.perf_counter() - start)
                start = time.perf_counter()
                client.request("textDocument/hover", where)
                times["hover"].append(time.perf_counter() - start)
        finally:
            client.stop()
    print(f"log: {args.hands} hands, {len(lines)} lines; opened and judged whole in {opened * 1000:.0f} ms")
    failed = False
    for name, values in times.items():
        median = statistics.median(values)
        target = TARGETS.get(name)
        over = target is not None and median > target
        failed = failed or over
        aim = f" (target {target * 1000:.0f} ms{': OVER' if over else ''})" if target is not None else ""
        label = {"change": "change -> diagnostics", "save": "save -> diagnostics"}.get(name, name)
        print(f"{label:<24} median {median * 1000:6.1f} ms, max {max(values) * 1000:6.1f} ms{aim}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
