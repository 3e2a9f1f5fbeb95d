"""Every kcref benchmark figure in one run, as a table with the target beside each. By hand:

    python bench/run.py [--runs R] [--big-mb M] [--skip-big]

- reader: lines/s of `kcref.notation.reader.read_file` against a plain `re` tokenizer (the ceiling) on a
  generated log of 200,000 turn lines (bench/reader_bench.py); target >= 50% of the ceiling.
- check: actions judged per second by `kcref.referee.pipeline.check_file` on a legal log of 2,000 hands
  played by `kcref.engine.bots` (bench/check_bench.py); target >= 100,000 actions/s.
- play: hands per second of `kcref play` (the greedy bot, 4 players).
- start-up: `kcref --version` against `python -c pass`; target within 0.25 s.
- huge input: peak memory (max RSS of the child process) of `kcref check` on a log of about
  200 MB made of the 2,000-hand log repeated, target < 100 MB; its summary must equal the
  part's counts times the repeats (the same verdict as its parts).

Each figure is the median of R runs (the huge log: one run).
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

import check_bench  # noqa: E402
import reader_bench  # noqa: E402

from kcref.engine.bots import play_log  # noqa: E402
from kcref.referee.pipeline import check_file  # noqa: E402

SUMMARY = re.compile(r"(\d+) files?, (\d+) hands?, (\d+) errors?, (\d+) warnings?, (\d+) penalt(?:y|ies), (\d+) notes?")


def kcref_cmd() -> list[str]:
    return [sys.executable, "-m", "kcref"]


def peak_rss_mb(cmd: list[str]) -> tuple[float, str, float]:
    """Run ``cmd`` in a fresh process; its peak RSS in MB, its stdout's last line, and the time."""
    code = ("import resource, subprocess, sys, time; t = time.perf_counter(); "
            "p = subprocess.run(sys.argv[1:], capture_output=True, text=True); "
            "rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss; "
            "print(rss, time.perf_counter() - t); print(p.stdout.strip().splitlines()[-1])")
    out = subprocess.run([sys.executable, "-c", code, *cmd], capture_output=True, text=True, check=True).stdout
    first, last = out.splitlines()[0], out.splitlines()[-1]
    rss_kb, seconds = first.split()
    return int(rss_kb) / 1024, last, float(seconds)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--big-mb", type=int, default=200)
    parser.add_argument("--skip-big", action="store_true", help="leave out the huge-input run")
    args = parser.parse_args(argv)
    rows: list[tuple[str, str, str, bool]] = []

    with tempfile.TemporaryDirectory() as tmp:
        # reader against the ceiling
        path = os.path.join(tmp, "reader.log")
        lines = reader_bench.generate(path, 200_000)
        ceiling = reader_bench.median_time(lambda: reader_bench.tokenize_file(path), args.runs)
        reader = reader_bench.median_time(lambda: reader_bench.read_all(path), args.runs)
        ratio = ceiling / reader
        rows.append(("reader", f"{lines / reader:,.0f} lines/s = {ratio:.0%} of the re ceiling "
                               f"({lines / ceiling:,.0f} lines/s)", ">= 50% of the ceiling", ratio >= 0.5))

        # check throughput
        log = os.path.join(tmp, "hands.log")
        check_bench.generate(log, 2000)
        report = check_file(log)
        actions = sum(h.actions for h in report.hands)
        seconds = reader_bench.median_time(lambda: check_file(log), args.runs)
        rows.append(("check", f"{actions / seconds:,.0f} actions/s ({actions:,} actions, 2,000 hands)",
                     ">= 100,000 actions/s", actions / seconds >= 100_000))

        # self-play
        hands = 500
        seconds = reader_bench.median_time(lambda: sum(1 for _ in play_log(4, "commercial", seed=1, hands=hands)),
                                           args.runs)
        rows.append(("play", f"{hands / seconds:,.0f} hands/s (greedy bot, 4 players)", "(no target)", True))

        # start-up
        base, ours = check_bench.startup(max(args.runs, 5))
        rows.append(("start-up", f"kcref --version {ours:.3f} s, python -c pass {base:.3f} s",
                     "<= +0.25 s", ours - base <= 0.25))

        # huge input, streamed
        if not args.skip_big:
            part_mb = os.path.getsize(log) / 1e6
            repeats = max(1, round(args.big_mb / part_mb))
            big = os.path.join(tmp, "big.log")
            # Hand numbers would restart with every copy (KC214 warnings): the copies go unnumbered.
            data = re.sub(rb"(?m)^hand \d+ ", b"hand ", Path(log).read_bytes())
            Path(log).write_bytes(data)
            with open(big, "wb") as f:
                for _ in range(repeats):
                    f.write(data)
            part = subprocess.run([*kcref_cmd(), "check", "--no-source", log], capture_output=True, text=True)
            part_counts = [int(x) for x in SUMMARY.search(part.stdout).groups()]  # type: ignore[union-attr]
            mb, last, secs = peak_rss_mb([*kcref_cmd(), "check", "--no-source", big])
            big_counts = [int(x) for x in SUMMARY.search(last).groups()]  # type: ignore[union-attr]
            same = big_counts[1:] == [c * repeats for c in part_counts[1:]]
            rows.append(("huge input", f"peak {mb:.0f} MB on {os.path.getsize(big) / 1e6:.0f} MB "
                                       f"({repeats} x {part_mb:.1f} MB, {secs:.0f} s); verdict "
                                       f"{'= parts' if same else 'DIFFERS from parts'}",
                         "< 100 MB, same verdict", mb < 100 and same))

    width = max(len(r[1]) for r in rows)
    print(f"{'figure':<11} {'measured (median of ' + str(args.runs) + ' runs)':<{width}}  {'target':<22} ok")
    for name, measured, target, ok in rows:
        print(f"{name:<11} {measured:<{width}}  {target:<22} {'met' if ok else 'MISSED'}")
    return 0 if all(r[3] for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
