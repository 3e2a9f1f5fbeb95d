"""Peak memory and time of ``kcref record`` on a long input, beside ``kcref check``, by hand:

    python bench/record_bench.py [--lines 108000] [--dir FOLDER] [--skip-pipe] [--repeat N]

It builds a canonical log of about LINES lines in a temporary folder (under FOLDER if given: a
tmpfs such as /dev/shm makes the piped run's one ``fsync`` a line cheap): the output of
``kcref play --players 4 --rules commercial --hands 2000``, repeated, the copies unnumbered
(see bench/runner.py). Then it runs, each as its own process (the child's ``ru_maxrss``, from
``wait4``):

- ``kcref record NEW < LOG``: every line piped into a new log, judged and written one by one;
- ``kcref record LOG < /dev/null``: the log resumed (read and judged), nothing added;
- ``kcref check --quiet LOG``, the yardstick.

It prints the peak memory and time of each (with ``--repeat N``, the resumed log and the check
are run N times each, one after the other, and the shortest time is kept: on a busy machine the
times of one run vary), how many times the time of ``check`` resuming takes, and checks that
the piped log is the log itself. The exit status is 1 when a run fails or a peak is over the
target (``--target``, 100 MB).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

from runner import CURRENT, Sample, repeat_log, run_kcref


def build_log(folder: Path, lines: int) -> Path:
    """A canonical log of about ``lines`` lines: 2,000-hand commercial self-play logs, repeated."""
    part = subprocess.run([sys.executable, "-m", "kcref", "play", "--players", "4", "--rules", "commercial",
                           "--hands", "2000"], capture_output=True, check=True, env=CURRENT.env()).stdout
    raw = folder / "raw.log"
    repeat_log(part, raw, len(part) * lines / part.count(b"\n") / 1e6)
    log = folder / "night.log"
    with open(log, "wb") as out:
        subprocess.run([sys.executable, "-m", "kcref", "fmt", str(raw)], stdout=out, check=True, env=CURRENT.env())
    raw.unlink()
    return log


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=108_000, help="lines in the log [108000]")
    parser.add_argument("--dir", type=Path, default=None, help="where the temporary folder goes")
    parser.add_argument("--target", type=float, default=100, help="peak memory target in MB [100]")
    parser.add_argument("--skip-pipe", action="store_true", help="skip the (slow: an fsync a line) piped run")
    parser.add_argument("--repeat", type=int, default=1, help="runs of resume and check, the shortest kept [1]")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        folder = Path(tmp)
        log = build_log(folder, args.lines)
        count = log.read_bytes().count(b"\n")
        print(f"log: {count:,} lines, {log.stat().st_size / 1e6:.1f} MB; target: peak RSS < {args.target:g} MB\n")
        print(f"{'run':<32} {'peak RSS':>9} {'time':>8} {'exit':>4}")
        runs: list[tuple[str, Sample]] = []
        if not args.skip_pipe:
            new = folder / "piped.log"
            runs.append(("record NEW < LOG (piped)", run_kcref(CURRENT, ["record", str(new)], folder, stdin=log)))
            if new.read_bytes() != log.read_bytes():
                print("the piped log differs from the log")
                return 1
        resumed: list[Sample] = []
        checked: list[Sample] = []
        for _ in range(max(1, args.repeat)):
            resumed.append(run_kcref(CURRENT, ["record", str(log)], folder))
            checked.append(run_kcref(CURRENT, ["check", "--quiet", str(log)], folder))
        runs.append(("record LOG < /dev/null (resume)", _best(resumed)))
        runs.append(("check --quiet LOG", _best(checked)))
        ok = True
        for name, got in runs:
            print(f"{name:<32} {got.rss_mb:>6.0f} MB {got.wall:>6.1f} s {got.status:>4}", flush=True)
            ok &= got.status == 0 and got.rss_mb < args.target
        print(f"\nresuming takes {runs[-2][1].wall / runs[-1][1].wall:.2f} times the time of check")
    return 0 if ok else 1


def _best(samples: list[Sample]) -> Sample:
    """The shortest run, with the largest peak of all and the worst exit status."""
    best = min(samples, key=lambda s: s.wall)
    return Sample(best.wall, best.cpu, max(s.rss_mb for s in samples), max(s.status for s in samples))


if __name__ == "__main__":
    sys.exit(main())
