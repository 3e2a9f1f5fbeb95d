"""A real ``kcref serve`` process on 127.0.0.1: lines posted over HTTP, ``kill -9`` mid-hand,
then the log passes ``kcref check``, a second writer is refused while it runs, and a restart
resumes where it stood and plays the hand to its end."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

httpx = pytest.importorskip("httpx", reason="pip install 'kcref[test]'")
pytest.importorskip("uvicorn", reason="pip install 'kcref[serve]'")

from tests.serve_util import HAND, TAGS, Server, serving  # noqa: E402
from tests.util import ROOT  # noqa: E402

TIMEOUT = 10.0


def _kcref(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "kcref", *args], capture_output=True, text=True, cwd=ROOT,
                          env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=60)


def _post(server: Server, path: str, **body: object) -> httpx.Response:
    with httpx.Client(timeout=TIMEOUT) as client:
        if "version" not in body:
            body["version"] = client.get(server.base + "state", headers={"X-Kcref-Key": server.key}).json()["version"]
        return client.post(server.base + path, json=body, headers={"X-Kcref-Key": server.key})


def test_kill_9_mid_hand_leaves_a_log_that_check_passes_and_serve_resumes(tmp_path: Path) -> None:
    log = tmp_path / "night.log"
    with serving(log, *TAGS, "--lan", "--host", "127.0.0.1", "--view") as server:
        assert server.base.startswith("http://127.0.0.1:") and "spectators (no writing)" in server.printed
        assert "▀" in server.printed or "▄" in server.printed or "█" in server.printed  # the QR code
        for line in HAND[:5]:
            response = _post(server, "line", text=line)
            assert response.status_code == 200, response.text
        refused = _post(server, "line", text="Ann: 3S->N")  # Bob's turn
        assert refused.status_code == 422 and refused.json()["diagnostics"][0]["code"] == "KC310"
        # One writer per log: kcref record is refused while the server holds the lock.
        record = _kcref("record", str(log))
        assert record.returncode == 2 and "another" in record.stderr
        os.kill(server.process.pid, signal.SIGKILL)
        server.process.wait(timeout=10)
    text = log.read_text(encoding="utf-8")
    assert text == "".join(line + "\n" for line in ['[Players "Ann, Bob"]', '[Rules "commercial"]', *HAND[:5]])
    checked = _kcref("check", str(log))
    assert checked.returncode == 0, checked.stdout + checked.stderr
    with serving(log) as server:
        state = httpx.get(server.base + "state", headers={"X-Kcref-Key": server.key}, timeout=TIMEOUT).json()
        assert (state["lines"], state["turn"], state["recent"][-1]) == (7, "Bob", HAND[4])
        for line in HAND[5:]:
            assert _post(server, "line", text=line).status_code == 200
        state = httpx.get(server.base + "state", headers={"X-Kcref-Key": server.key}, timeout=TIMEOUT).json()
        assert state["end"] is not None and "Ann went out" in state["end"]["settlement"]
        assert "Ann" in state["end"]["standings"]
        process = server.process
    assert process.returncode == 130  # stopped with Ctrl-C, as every command
    assert _kcref("check", str(log)).returncode == 0
    assert _kcref("fmt", "--check", str(log)).returncode == 0


def test_a_second_server_on_the_same_log_is_refused(tmp_path: Path) -> None:
    log = tmp_path / "night.log"
    with serving(log, *TAGS):
        second = _kcref("serve", str(log), "--port", "0")
    assert second.returncode == 2 and "holds the log's lock" in second.stderr
