"""Benchmark the verdict cache of `kcref check`. Run by hand:

    python bench/cache_bench.py [--files N] [--hands H]

It writes N logs (1,000 by default) of H hands each (10 by default), played by the greedy bot with
`kcref.engine.bots.play_log` (4 players, presets in turn: classic, commercial, family), into a
temporary folder, then runs `kcref check --quiet` on them twice from there, the cache folder
`.kcref_cache/` starting empty: the first run checks every file and fills the cache, the
second finds every file unchanged (the cache's secret is made in the temporary folder too, never
in the user's home). It prints the CPU time of each run (user + system, of the child process)
and their ratio, against the target: the second takes <= 10% of the first; and, for
information, a run with `--no-cache` (what a check costs without the cache's writes).
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from kcref.engine.bots import play_log

ROOT = Path(__file__).resolve().parent.parent

RATIO_TARGET = 0.10
PRESETS = ("classic", "commercial", "family")


def generate(folder: Path, files: int, hands: int) -> None:
    """``files`` legal logs of ``hands`` hands each, the presets taking turns."""
    for i in range(files):
        lines = play_log(4, PRESETS[i % len(PRESETS)], seed=i, hands=hands, bot="greedy")
        (folder / f"night-{i:04d}.log").write_text("".join(lines), encoding="utf-8")


def cpu_of_check(folder: Path, *options: str) -> tuple[float, int]:
    """The CPU time (user + system) of one `kcref check --quiet .` run in ``folder``, and its exit status."""
    # The cache's secret is made in the temporary folder too, not in the user's home.
    env = {**os.environ, "PYTHONPATH": str(ROOT), "XDG_CACHE_HOME": str(folder / ".user-cache"),
           "LOCALAPPDATA": str(folder / ".user-cache")}
    env.pop("KCREF_NO_CACHE", None)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run([sys.executable, "-m", "kcref", "check", "--quiet", *options, "."], cwd=folder, env=env,
                          stdout=subprocess.DEVNULL, check=False)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), done.returncode


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=1000)
    parser.add_argument("--hands", type=int, default=10)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as temp:
        folder = Path(temp)
        generate(folder, args.files, args.hands)
        plain, _ = cpu_of_check(folder, "--no-cache")
        first, status1 = cpu_of_check(folder)
        entries = len(list((folder / ".kcref_cache").glob("*.entry")))
        second, status2 = cpu_of_check(folder)
    ratio = second / first
    print(f"{args.files} files of {args.hands} hands; exit statuses {status1}, {status2}; {entries} cache entries")
    print(f"first check (cache empty):  {first:.2f} s CPU")
    print(f"second check (unchanged):   {second:.2f} s CPU")
    print(f"ratio: {ratio:.1%} (target <= {RATIO_TARGET:.0%}): {'met' if ratio <= RATIO_TARGET else 'NOT met'}")
    print(f"for information: --no-cache {plain:.2f} s CPU (the second run is {second / plain:.1%} of it; "
          f"the first, which fills the cache, {first / plain:.0%})")


if __name__ == "__main__":
    main()
