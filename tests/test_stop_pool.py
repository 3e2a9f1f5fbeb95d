"""Stopping a pool of workers never hangs, whatever a worker was doing when it was ended.

A worker ended while it wrote its result leaves half a message in the pool's result pipe. The
pool's thread then waits for the rest, which only an end of the pipe stops: ``stop_pool`` must
close this process's writing end. The torn message is made here on purpose, so the test does not
depend on when a signal happens to come (the race that ``kcref check --jobs 2`` met, about once
in 30 Ctrl-Cs under load).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

from tests.util import ROOT

SCRIPT = textwrap.dedent("""
    import os, struct, sys, time
    from concurrent.futures import ProcessPoolExecutor
    from kcref.referee.pipeline import stop_pool

    def torn_result():
        # In the worker: the result pipe is a local of the stdlib's worker loop that called us.
        result_queue = sys._getframe(1).f_locals["result_queue"]
        # A message header announcing 1,000 bytes, then only 10 of them, as a worker ended mid-write leaves it.
        os.write(result_queue._writer.fileno(), struct.pack("!i", 1000) + b"x" * 10)
        time.sleep(60)

    if __name__ == "__main__":
        pool = ProcessPoolExecutor(max_workers=1)
        pool.submit(torn_result)
        time.sleep(1)  # the pool's thread has read the header and waits for the rest
        stop_pool(pool)
        print("stopped")
""")


def test_a_worker_ended_mid_result_does_not_hang_the_stop(tmp_path: Path) -> None:
    script = tmp_path / "torn.py"
    script.write_text(SCRIPT, encoding="utf-8")
    p = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)}, start_new_session=True)
    try:
        out, err = p.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)  # the script and its worker: a hung stop leaves both behind
        p.communicate()
        raise AssertionError("stop_pool hung on a torn result") from None
    assert out == "stopped\n", err
