"""Throughput of checking many logs with 1, 2 and 4 processes, for docs/scale.md. By hand:

    python bench/scale_bench.py [--files 200] [--hands 50] [--runs 3] [--workers 1 2 4] [--no-dask]

On FILES legal commercial logs of HANDS hands (generated into a temporary folder), it times, as
the median of RUNS runs, `kcref check --quiet --jobs N FOLDER` and (when dask is installed) the
Dask recipe of docs/scale.md with N workers, as it is written there. It prints files/s, hands/s
and actions/s by wall time, and the CPU time per file (all processes), from which
docs/scale.md's cost model is worked out.
"""

from __future__ import annotations

import argparse
import importlib.util
import re
import statistics
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

from run import count_actions, make_folder  # noqa: E402
from runner import CURRENT, ROOT, Sample, run, run_kcref  # noqa: E402


def recipe() -> str:
    """The first Python block of docs/scale.md (as tests/test_scale.py runs it)."""
    found = re.search(r"```python\n(.*?)```", (ROOT / "docs" / "scale.md").read_text(encoding="utf-8"), re.S)
    assert found, "docs/scale.md has no python block"
    return found.group(1)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=200)
    parser.add_argument("--hands", type=int, default=50)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2, 4])
    parser.add_argument("--no-dask", action="store_true")
    args = parser.parse_args(argv)
    dask = not args.no_dask and importlib.util.find_spec("dask") is not None
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        folder = work / "nights"
        make_folder(folder, args.files, args.hands)
        actions = sum(count_actions(p) for p in folder.glob("*.log"))
        script = work / "check_logs.py"
        script.write_text(recipe(), encoding="utf-8")
        ways: dict[str, Callable[[int], Sample]] = {
            "kcref check --jobs N": lambda n: run_kcref(CURRENT, ["check", "--quiet", "--jobs", str(n), str(folder)],
                                                        work)}
        if dask:
            ways["Dask recipe, N workers"] = lambda n: run([sys.executable, str(script), str(folder),
                                                            str(work / f"out{n}"), str(n)], env=CURRENT.env(),
                                                           cwd=work)
        samples: dict[tuple[str, int], list[Sample]] = {}
        for _ in range(args.runs):
            for n in args.workers:
                for name, way in ways.items():
                    samples.setdefault((name, n), []).append(way(n))
    print(f"{args.files} logs x {args.hands} hands ({args.files * args.hands:,} hands, {actions:,} actions); "
          f"median of {args.runs} runs{'' if dask else '; dask not installed'}")
    print(f"{'how':<24} {'N':>2} {'wall s':>7} {'files/s':>8} {'hands/s':>8} {'actions/s':>10} {'CPU ms/file':>11}")
    for (name, n), runs in samples.items():
        wall = statistics.median(s.wall for s in runs)
        cpu = statistics.median(s.cpu for s in runs)
        print(f"{name:<24} {n:>2} {wall:>7.2f} {args.files / wall:>8.1f} {args.files * args.hands / wall:>8,.0f} "
              f"{actions / wall:>10,.0f} {1000 * cpu / args.files:>11.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
