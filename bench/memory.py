"""Peak memory of every kcref command on one huge log, for hand use:

    python bench/memory.py [--mb 200] [--target 100] [--only NAME]

It builds a log of about MB megabytes in a temporary folder: the output of
`kcref play --players 4 --rules commercial --hands 2000`, repeated (the copies go unnumbered,
so hand numbers never restart). Then it runs each command as its own subprocess, standard
output to /dev/null, and prints the peak resident memory of each (the child's ``ru_maxrss``, from
``wait4``, so that runs do not mix; see bench/runner.py) beside the target, with the time taken
and the exit status. The exit status is 1 when a command misses the target or
fails (an exit status other than 0 or 1).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from runner import CURRENT, Sample, Tree, repeat_log, run_kcref

# Each command line, with FILE standing for the log; "<FILE" feeds the log on standard input.
COMMANDS: list[tuple[str, list[str]]] = [
    ("check --quiet", ["check", "--quiet", "FILE"]),
    ("check", ["check", "FILE"]),
    ("check - (stdin)", ["check", "-", "<FILE"]),
    ("check --format json", ["check", "--format", "json", "FILE"]),
    ("check --format github", ["check", "--format", "github", "FILE"]),
    ("check --format junit", ["check", "--format", "junit", "FILE"]),
    ("score", ["score", "FILE"]),
    ("score --by night", ["score", "--by", "night", "FILE"]),
    ("score --by hand", ["score", "--by", "hand", "FILE"]),
    ("score --by hand github", ["score", "--by", "hand", "--format", "github", "FILE"]),
    ("score --by hand grid", ["score", "--by", "hand", "--format", "grid", "FILE"]),
    ("score --by hand csv", ["score", "--by", "hand", "--format", "csv", "FILE"]),
    ("score --by hand --chart", ["score", "--by", "hand", "--chart", "FILE"]),
    ("score --format json", ["score", "--format", "json", "FILE"]),
    ("score --chart", ["score", "--chart", "FILE"]),
    ("fmt --check", ["fmt", "--check", "FILE"]),
    ("fmt > /dev/null", ["fmt", "FILE"]),
    ("fmt --write", ["fmt", "--write", "FILE"]),
    ("show", ["show", "FILE"]),
]

def build_log(folder: Path, megabytes: float) -> tuple[Path, int]:
    """A log of about ``megabytes`` MB made of one 2,000-hand self-play log repeated; its path
    and the number of copies."""
    part = subprocess.run([sys.executable, "-m", "kcref", "play", "--players", "4", "--rules", "commercial",
                           "--hands", "2000"], capture_output=True, check=True, env=CURRENT.env()).stdout
    path = folder / "huge.log"
    return path, repeat_log(part, path, megabytes)


def measure(args: list[str], log: Path, tree: Tree = CURRENT) -> Sample:
    """Run ``kcref ARGS`` from ``tree`` (FILE replaced by ``log``, ``<FILE`` feeding it on
    standard input), standard output to /dev/null."""
    argv = [str(log) if a == "FILE" else a for a in args if a != "<FILE"]
    return run_kcref(tree, argv, log.parent, stdin=log if "<FILE" in args else None)


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
        size = log.stat().st_size / 1e6
        print(f"log: {size:.0f} MB ({copies} copies of a 2,000-hand commercial log), built in "
              f"{time.perf_counter() - t:.0f} s; target: peak RSS < {args.target:g} MB\n")
        print(f"{'command':<24} {'peak RSS':>9} {'time':>8} {'exit':>4}  target")
        for name, cmd in COMMANDS:
            if args.only and not any(name.startswith(o) for o in args.only):
                continue
            got = measure(cmd, log)
            met = got.rss_mb < args.target and got.status in (0, 1)
            ok &= met
            print(f"{name:<24} {got.rss_mb:>6.0f} MB {got.wall:>6.1f} s {got.status:>4}  "
                  f"{'met' if met else 'MISSED'} (< {args.target:g} MB)", flush=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
