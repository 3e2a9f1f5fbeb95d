"""How fast ``kcref serve`` tells every page of a line, and how much memory it takes, by hand:

    python bench/serve.py [--clients 20] [--lines 1000] [--target-ms 50] [--target-mb 100]

It starts ``kcref serve`` on a new log in a temporary folder (127.0.0.1, a free port), connects
CLIENTS WebSocket clients (as pages do), then submits LINES lines one after another over HTTP:
the lines of ``kcref play --players 4 --rules commercial`` self-play, every one of them legal,
so each is judged by the referee, written and fsync'd, then broadcast. For each line it times
from the submission to the moment the broadcast of that line has reached every client, and
prints the median and the 99th percentile of those times, and the server's peak memory (its
``VmHWM``, Linux). Submissions are paced at just under 20 a second, the server's limit for one
client, so 1,000 lines take about a minute. The exit status is 1 when a target is missed.

The WebSocket clients are written here on ``wsproto`` (part of the ``serve`` extra), so the
bench needs nothing beyond ``pip install 'kcref[serve,test]'`` (httpx submits the lines).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
from runner import CURRENT
from wsproto import ConnectionType, WSConnection
from wsproto.events import AcceptConnection, CloseConnection, Ping, Request, TextMessage

PACE = 1 / 19
"""Seconds between submissions: under the 20 writes a second the server allows one client."""


class Client:
    """A page listening on the WebSocket: the time each version of the table reached it."""

    def __init__(self) -> None:
        self.arrived: dict[int, float] = {}
        self.ready = asyncio.Event()

    async def run(self, host: str, port: int, key: str) -> None:
        reader, writer = await asyncio.open_connection(host, port)
        ws = WSConnection(ConnectionType.CLIENT)
        origin = f"http://{host}:{port}".encode()
        writer.write(ws.send(Request(host=f"{host}:{port}", target=f"/ws?key={key}",
                                     extra_headers=[(b"origin", origin)])))
        text = ""
        try:
            while data := await reader.read(1 << 16):
                ws.receive_data(data)
                for event in ws.events():
                    if isinstance(event, AcceptConnection):
                        self.ready.set()
                    elif isinstance(event, TextMessage):
                        text += event.data
                        if event.message_finished:
                            now = time.perf_counter()
                            self.arrived[json.loads(text)["state"]["version"]] = now
                            text = ""
                    elif isinstance(event, Ping):
                        writer.write(ws.send(event.response()))
                    elif isinstance(event, CloseConnection):
                        return
        finally:
            writer.close()


def play_lines(count: int) -> list[str]:
    """``count`` legal lines of commercial self-play (blank lines between hands included), after its tags."""
    hands = 1
    while True:
        text = subprocess.run([sys.executable, "-m", "kcref", "play", "--players", "4", "--rules", "commercial",
                               "--hands", str(hands), "--seed", "1"], capture_output=True, text=True, check=True,
                              env=CURRENT.env()).stdout
        lines = [line for line in text.splitlines() if not line.startswith("[")][1:]  # the tags, the blank after
        if len(lines) >= count:
            return lines[:count]
        hands *= 2


def peak_mb(pid: int) -> float | None:
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return None
    found = re.search(r"^VmHWM:\s+(\d+) kB", status, re.M)
    return int(found.group(1)) / 1024 if found else None


async def measure(port: int, key: str, clients: int, lines: list[str]) -> list[float]:
    host = "127.0.0.1"
    pages = [Client() for _ in range(clients)]
    tasks = [asyncio.ensure_future(page.run(host, port, key)) for page in pages]
    await asyncio.wait_for(asyncio.gather(*(page.ready.wait() for page in pages)), 20)
    times: list[float] = []
    base = f"http://{host}:{port}"
    async with httpx.AsyncClient(headers={"X-Kcref-Key": key}, timeout=10) as http:
        version = (await http.get(f"{base}/state")).json()["version"]
        for text in lines:
            started = time.perf_counter()
            answer = await http.post(f"{base}/line", json={"text": text, "version": version})
            if answer.status_code != 200:
                raise SystemExit(f"refused ({answer.status_code}): {text!r}: {answer.text[:300]}")
            version = answer.json()["state"]["version"]
            while not all(version in page.arrived for page in pages):
                await asyncio.sleep(0.0005)
            times.append(max(page.arrived[version] for page in pages) - started)
            await asyncio.sleep(max(0.0, PACE - (time.perf_counter() - started)))
    for task in tasks:
        task.cancel()
    return times


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=20, help="WebSocket clients [20]")
    parser.add_argument("--lines", type=int, default=1000, help="lines submitted [1000]")
    parser.add_argument("--target-ms", type=float, default=50, help="p99 target in ms [50]")
    parser.add_argument("--target-mb", type=float, default=100, help="peak memory target in MB [100]")
    args = parser.parse_args(argv)
    lines = play_lines(args.lines)
    with tempfile.TemporaryDirectory() as folder:
        log = Path(folder) / "bench.log"
        server = subprocess.Popen([sys.executable, "-m", "kcref", "serve", str(log), "--port", "0", "--players",
                                   "Ann, Bob, Cy, Dee", "--rules", "commercial"], stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL, text=True, env={**CURRENT.env(), "PYTHONUNBUFFERED": "1"})
        try:
            assert server.stdout is not None
            first = server.stdout.readline()
            found = re.search(r"http://127\.0\.0\.1:(\d+)/\?key=(\S+)", first)
            if found is None:
                raise SystemExit(f"kcref serve did not start (run it by hand to see why): {first!r}")
            times = asyncio.run(measure(int(found.group(1)), found.group(2), args.clients, lines))
            peak = peak_mb(server.pid)
        finally:
            os.kill(server.pid, signal.SIGINT)
            try:
                server.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.kill(server.pid, signal.SIGKILL)
                server.wait()
        written = log.read_text(encoding="utf-8").count("\n")
    ms = sorted(t * 1000 for t in times)
    p50, p99 = statistics.median(ms), ms[min(len(ms) - 1, round(0.99 * len(ms)) - 1)]
    print(f"kcref serve: {len(ms)} lines, {args.clients} clients, {written} lines in the log")
    print(f"submit to every client: p50 {p50:.1f} ms, p99 {p99:.1f} ms, max {ms[-1]:.1f} ms "
          f"(target p99 < {args.target_ms:g} ms)")
    print(f"server peak memory: {'n/a' if peak is None else f'{peak:.1f} MB'} (target < {args.target_mb:g} MB)")
    missed = p99 >= args.target_ms or (peak is not None and peak >= args.target_mb)
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
