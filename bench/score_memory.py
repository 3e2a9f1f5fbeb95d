"""Peak memory of ``kcref score`` in every view and the formats that list every hand, on one
huge log, for hand use:

    python bench/score_memory.py [--mb 200] [--target 100] [--only NAME]

The log and the measure are those of ``bench/memory.py`` (the output of `kcref play --players 4
--rules commercial --hands 2000`, repeated; each command a subprocess, standard output to
/dev/null). The exit status is 1 when a command misses the target or fails.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

from memory import build_log, measure

COMMANDS: list[tuple[str, list[str]]] = [
    ("--by hand", ["score", "--by", "hand", "FILE"]),
    ("--by hand --format github", ["score", "--by", "hand", "--format", "github", "FILE"]),
    ("--by hand --format grid", ["score", "--by", "hand", "--format", "grid", "FILE"]),
    ("--by hand --format csv", ["score", "--by", "hand", "--format", "csv", "FILE"]),
    ("--by hand --chart", ["score", "--by", "hand", "--chart", "FILE"]),
    ("--format json", ["score", "--format", "json", "FILE"]),
    ("--by player", ["score", "--by", "player", "FILE"]),
    ("--by player --chart", ["score", "--chart", "FILE"]),
    ("--by night", ["score", "--by", "night", "FILE"]),
]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=float, default=200, help="size of the log in MB [200]")
    parser.add_argument("--target", type=float, default=100, help="peak memory target in MB [100]")
    parser.add_argument("--only", action="append", metavar="NAME",
                        help="run only the commands whose name starts with NAME (repeatable)")
    args = parser.parse_args(argv)
    ok = True
    with tempfile.TemporaryDirectory() as tmp:
        t = time.perf_counter()
        log, copies = build_log(Path(tmp), args.mb)
        print(f"log: {log.stat().st_size / 1e6:.0f} MB ({copies} copies of a 2,000-hand commercial log), built in "
              f"{time.perf_counter() - t:.0f} s; target: peak RSS < {args.target:g} MB\n")
        print(f"{'kcref score':<28} {'peak RSS':>9} {'time':>8} {'exit':>4}  target")
        for name, cmd in COMMANDS:
            if args.only and not any(name.startswith(o) for o in args.only):
                continue
            mb, seconds, status, err = measure(cmd, log)
            met = mb < args.target and status in (0, 1)
            ok &= met
            print(f"{name:<28} {mb:>6.0f} MB {seconds:>6.1f} s {status:>4}  "
                  f"{'met' if met else 'MISSED'} (< {args.target:g} MB)", flush=True)
            if status not in (0, 1) and err:
                print("    " + err.splitlines()[-1][:200])
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
