"""Peak memory and time of every kcref command on large logs, for hand use:

    python bench/memory.py [--mb 10] [--hands 10000] [--target 100] [--only NAME]

It builds two logs in a temporary folder, both made of the output of
`kcref play --players 4 --rules commercial --hands 2000`, repeated (the copies go unnumbered, so
hand numbers never restart): (a) one of about MB megabytes, (b) one of HANDS hands (``--mb 0``
or ``--hands 0`` leaves one out). Then, on each log, it runs each command as its own
subprocess, standard output to /dev/null (``kcref report`` writes its page into the folder), and
prints the peak resident memory of each (the child's ``ru_maxrss``, from ``wait4``, so that runs
do not mix; see bench/runner.py) beside the target, with the time taken (wall clock, and CPU time:
steadier on a busy machine) and the exit status. The
exit status is 1 when a command misses the target or fails (an exit status other than 0 or 1).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from runner import CURRENT, Sample, Tree, repeat_log, run_kcref

PART_HANDS = 2000
"""Hands in the self-play log that is repeated."""

# Each command line, with FILE standing for the log and PAGE for a page beside it; "<FILE" feeds
# the log on standard input.
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
    ("report -o PAGE", ["report", "FILE", "-o", "PAGE"]),
    ("report -o - (stdout)", ["report", "FILE", "-o", "-"]),
]


def self_play(hands: int = PART_HANDS) -> bytes:
    """A log of ``hands`` hands of self-play (4 players, commercial rules)."""
    return subprocess.run([sys.executable, "-m", "kcref", "play", "--players", "4", "--rules", "commercial",
                           "--hands", str(hands)], capture_output=True, check=True, env=CURRENT.env()).stdout


def build_log(folder: Path, megabytes: float, part: bytes | None = None) -> tuple[Path, int]:
    """A log of about ``megabytes`` MB made of one 2,000-hand self-play log repeated; its path
    and the number of copies."""
    path = folder / f"log-{megabytes:g}mb" / "big.log"
    path.parent.mkdir()
    return path, repeat_log(part if part is not None else self_play(), path, megabytes)


def build_hands_log(folder: Path, hands: int, part: bytes) -> Path:
    """A log of ``hands`` hands: the 2,000-hand self-play log repeated, and the rest of it."""
    path = folder / f"log-{hands}-hands" / "big.log"
    path.parent.mkdir()
    whole, rest = divmod(hands, PART_HANDS)
    repeat_log(part, path, 0)  # one copy, unnumbered, to learn its size: then the copies wanted
    copy = path.read_bytes()
    with open(path, "wb") as f:
        for _ in range(whole):
            f.write(copy)
        if rest:
            f.write(_first_hands(copy, rest))
    return path


def _first_hands(log: bytes, hands: int) -> bytes:
    """The lines of ``log`` before its hand number ``hands + 1``."""
    at, seen = 0, 0
    while True:
        at = log.find(b"\nhand ", at + 1)
        if at < 0:
            return log
        seen += 1
        if seen > hands:
            return log[:at + 1]


def measure(args: list[str], log: Path, tree: Tree = CURRENT) -> Sample:
    """Run ``kcref ARGS`` from ``tree`` (FILE replaced by ``log``, PAGE by a page beside it,
    ``<FILE`` feeding it on standard input), standard output to /dev/null."""
    names = {"FILE": str(log), "PAGE": str(log.with_suffix(".html"))}
    argv = [names.get(a, a) for a in args if a != "<FILE"]
    return run_kcref(tree, argv, log.parent, stdin=log if "<FILE" in args else None)


def run_all(log: Path, what: str, target: float, only: list[str] | None) -> bool:
    """Every command on ``log``, a line each; whether all met the target."""
    ok = True
    size = log.stat().st_size / 1e6
    data = log.read_bytes()
    hands = data.count(b"\nhand ") + data.startswith(b"hand ")
    print(f"\n{what}: {size:.1f} MB, {hands:,} hands; target: peak RSS < {target:g} MB\n")
    print(f"{'command':<24} {'peak RSS':>9} {'time':>8} {'CPU':>8} {'exit':>4}  target")
    for name, cmd in COMMANDS:
        if only and not any(name.startswith(o) for o in only):
            continue
        got = measure(cmd, log)
        met = got.rss_mb < target and got.status in (0, 1)
        ok &= met
        print(f"{name:<24} {got.rss_mb:>6.0f} MB {got.wall:>6.1f} s {got.cpu:>6.1f} s {got.status:>4}  "
              f"{'met' if met else 'MISSED'} (< {target:g} MB)", flush=True)
    return ok


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=float, default=10, help="size of the first log in MB (0: none) [10]")
    parser.add_argument("--hands", type=int, default=10_000, help="hands of the second log (0: none) [10000]")
    parser.add_argument("--target", type=float, default=100, help="peak memory target in MB [100]")
    parser.add_argument("--only", action="append", metavar="NAME",
                        help="run only the commands whose name starts with NAME (repeatable)")
    args = parser.parse_args(argv)
    ok = True
    with tempfile.TemporaryDirectory() as tmp:
        t = time.perf_counter()
        part = self_play()
        logs: list[tuple[Path, str]] = []
        if args.mb:
            path, copies = build_log(Path(tmp), args.mb, part)
            logs.append((path, f"(a) about {args.mb:g} MB ({copies} copies of a {PART_HANDS:,}-hand commercial log)"))
        if args.hands:
            logs.append((build_hands_log(Path(tmp), args.hands, part), f"(b) {args.hands:,} hands"))
        print(f"logs built in {time.perf_counter() - t:.0f} s")
        for path, what in logs:
            ok &= run_all(path, what, args.target, args.only)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
