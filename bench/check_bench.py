"""Benchmark `kcref check` end to end. Run by hand:

    python bench/check_bench.py [--hands N] [--runs R] [--profile]

It writes a complete, legal log of N hands (2,000 by default) played by the greedy bot with
`kcref.engine.bots` (4 players, presets in turn: classic, commercial, family) to a temporary file,
then times, as the median of R runs:

- the full check (`kcref.referee.pipeline.check_file`: read, set-up checks, replay of every action), in
  actions judged per second, against the target of >= 100,000 actions/s;
- the reader alone on the same file (`kcref.notation.reader.read_file`), for comparison;
- start-up: `kcref --version` against `python -c pass` (target: within 0.25 s).
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from kcref.engine.bots import play_log
from kcref.notation.reader import read_file
from kcref.referee.pipeline import check_file

ACTIONS_TARGET = 100_000
STARTUP_TARGET = 0.25
PRESETS = ("classic", "commercial", "family")


def generate(path: str, hands: int, seed: int = 2026) -> None:
    """A legal log of ``hands`` hands, the presets taking turns in blocks of hands."""
    per_block = max(hands // len(PRESETS), 1)
    with open(path, "w", encoding="utf-8") as f:
        written = 0
        for i, rules in enumerate(PRESETS):
            count = per_block if i < len(PRESETS) - 1 else hands - written
            for line in play_log(4, rules, seed=seed + i, hands=count, bot="greedy"):
                # Headers after the first block change the rules from the next hand on.
                if line.startswith("[Players") and i:
                    continue
                f.write(line)
            written += count


def median_time(fn: Callable[[], object], runs: int) -> tuple[float, object]:
    times, result = [], None
    for _ in range(runs):
        start = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times), result


def startup(runs: int) -> tuple[float, float]:
    kcref = shutil.which("kcref")
    cmd = [kcref, "--version"] if kcref else [sys.executable, "-m", "kcref.cli", "--version"]
    base, _ = median_time(lambda: subprocess.run([sys.executable, "-c", "pass"], check=True), runs)
    ours, _ = median_time(lambda: subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL), runs)
    return base, ours


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=2000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args(argv)

    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "bench.log")
        t0 = time.perf_counter()
        generate(path, args.hands)
        gen = time.perf_counter() - t0
        size = os.path.getsize(path)
        with open(path, "rb") as f:
            lines = sum(1 for _ in f)
        check_s, report = median_time(lambda: check_file(path), args.runs)
        actions = sum(h.actions for h in report.hands)  # type: ignore[attr-defined]
        errors = report.errors  # type: ignore[attr-defined]
        read_s, _ = median_time(lambda: sum(1 for _ in read_file(path)), args.runs)
        if args.profile:
            cProfile.runctx("check_file(path)", globals(), {"path": path}, os.path.join(tmp, "prof"))
            pstats.Stats(os.path.join(tmp, "prof")).sort_stats("cumtime").print_stats(25)
    base, ours = startup(max(args.runs, 5))

    print(f"log: {args.hands} hands, {lines:,} lines, {actions:,} actions, {size / 1e6:.1f} MB "
          f"(generated in {gen:.1f} s by `kcref.engine.bots`); errors found: {errors}")
    rows = [
        ("kcref check (full)", f"{actions / check_s:,.0f} actions/s", f"{lines / check_s:,.0f} lines/s",
         f">= {ACTIONS_TARGET:,} actions/s", "met" if actions / check_s >= ACTIONS_TARGET else "MISSED"),
        ("reader alone", f"{actions / read_s:,.0f} actions/s", f"{lines / read_s:,.0f} lines/s", "", ""),
        ("start-up", f"kcref --version {ours:.3f} s", f"python -c pass {base:.3f} s",
         f"<= +{STARTUP_TARGET} s", "met" if ours - base <= STARTUP_TARGET else "MISSED"),
    ]
    width = [max(len(r[i]) for r in rows) for i in range(5)]
    for r in rows:
        print("  ".join(c.ljust(w) for c, w in zip(r, width)))
    return 0 if errors == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
