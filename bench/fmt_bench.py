"""Benchmark `kcref fmt` on a huge log: peak memory and time of each mode. Run by hand:

    python bench/fmt_bench.py [--mb 200]

It writes a log of about MB megabytes to a temporary folder (a played 500-hand log repeated,
with `->` written ` -> ` so that it is not canonical), then runs, each in a fresh process:

- `kcref fmt BIG > /dev/null` (printing, through a spool file);
- `kcref fmt --check BIG` (compared as it streams; exit 1);
- `kcref fmt --check - < BIG` (standard input, copied aside as it is read; exit 1);
- `kcref fmt --write BIG` (a temp file beside it, renamed at the end), then `--check` (exit 0).

Target: every peak RSS under 100 MB, whatever the size of the log.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from kcref.engine.bots import play_log  # noqa: E402

TARGET_MB = 100


def measure(args: list[str], stdin: str | None = None) -> tuple[float, float, int]:
    """Run ``kcref ARGS`` (stdout to /dev/null) from a small measuring process: the peak RSS of
    kcref in MB, its time in seconds, and its exit status."""
    code = (
        "import os, resource, subprocess, sys, time\n"
        "stdin = open(sys.argv[1], 'rb') if sys.argv[1] else subprocess.DEVNULL\n"
        "t = time.perf_counter()\n"
        "p = subprocess.run([sys.executable, '-m', 'kcref', *sys.argv[2:]], stdin=stdin,\n"
        "                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)\n"
        "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, time.perf_counter() - t, p.returncode)\n"
    )
    env = {**os.environ, "PYTHONPATH": str(HERE.parent)}
    out = subprocess.run([sys.executable, "-c", code, stdin or "", *args], capture_output=True, text=True,
                         check=True, env=env).stdout.split()
    return int(out[0]) / 1024, float(out[1]), int(out[2])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=int, default=200, help="size of the log, in MB")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        part = "".join(play_log(4, "commercial", seed=1, hands=500)).replace("->", " -> ").encode()
        big = os.path.join(tmp, "big.log")
        with open(big, "wb") as f:
            for _ in range(max(1, args.mb * 1_000_000 // len(part))):
                f.write(part)
        size = os.path.getsize(big) / 1e6
        runs = [
            ("fmt BIG", measure(["fmt", big]), 0),
            ("fmt --check BIG", measure(["fmt", "--check", big]), 1),
            ("fmt --check - < BIG", measure(["fmt", "--check", "-"], stdin=big), 1),
            ("fmt --write BIG", measure(["fmt", "--write", big]), 0),
            ("fmt --check BIG (after)", measure(["fmt", "--check", big]), 0),
        ]
    ok = True
    print(f"log of {size:.0f} MB; target: peak < {TARGET_MB} MB")
    for name, (mb, seconds, status), expected in runs:
        met = mb < TARGET_MB and status == expected
        ok = ok and met
        print(f"{name:<26} peak {mb:6.1f} MB  {seconds:7.1f} s  exit {status} (expected {expected})  "
              f"{'met' if met else 'MISSED'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
