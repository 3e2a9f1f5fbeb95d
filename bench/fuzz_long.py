"""A long fuzz run over every kcref command and output format, for hand use:

    python bench/fuzz_long.py --minutes 10 [--seed S] [--out DIR] [--subprocess-every N]

Each round mutates a log (tests/fuzzing.py: samples, the crash corpus and self-play logs, with
line, text and byte edits) and runs one command line on it in-process (check in every format,
score in many formats and views, fmt, show; now and then rules or play), or one of the runs of
several commands: a ``report`` page (written whole), ``record`` fed the log line by line (what it
writes must check clean and resume) and the verdict ``cache`` (cold, warm, and with its entries
mutated on disk: each prints what a fresh check prints). Every Nth input is
also run as a real subprocess under a 1 GiB address-space limit and a 20 s timeout, with a
hostile file name (newlines, ``::`` commands, bytes that are not UTF-8), which finds what
in-process runs cannot: encoding errors on real streams, hangs, memory blow-ups.

A problem is an exception, an exit status outside 0-2, a traceback, JSON or JUnit output that
does not parse, or a raw control character on a terminal stream. Problems are grouped into
classes (command + kind); the first inputs of each class are saved under DIR/<class>/ (the log
and the command line), the first one also shrunk line by line to a small reproduction
(``min.log``). The counts are printed at the end; the exit status is 1 when anything was found.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import resource
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))

from tests.fuzzing import (  # noqa: E402
    FILE_COMMANDS,
    SPECIAL,
    VARIANTS,
    base_logs,
    extra_variants,
    mutate,
    play_problems,
    run_on_log,
    special_problems,
)

KEEP_PER_CLASS = 5
SUBPROCESS_TIMEOUT = 20
GIB = 1 << 30
HOSTILE_FILE_NAMES = [b"plain.log", b"nl\n::error title=INJECTED::pwned\n.log", b"bad\xffname.log",
                      b"esc\x1b]0;PWNED\x07.log", b"comma,colon:percent%.log", b"-dash.log", b"sp ace.log"]


def _limit_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (GIB, GIB))


def subprocess_problems(args: list[str], data: bytes, folder: Path, name: bytes) -> list[str]:
    """Run ``python -m kcref ARGS FILE`` for real (FILE named ``name``); what went wrong."""
    sub = folder / "sub"
    sub.mkdir(exist_ok=True)
    for old in os.listdir(os.fsencode(sub)):
        os.unlink(os.path.join(os.fsencode(sub), old))
    path = os.path.join(os.fsencode(sub), name)
    with open(path, "wb") as f:
        f.write(data)
    # Commands that take a folder get the folder (so the hostile name comes from discovery).
    target = os.fsencode(sub) if args[0] == "check" else path
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONIOENCODING": "utf-8"}
    env.pop("GITHUB_ACTIONS", None)
    try:
        p = subprocess.run([sys.executable, "-m", "kcref", *args, target], capture_output=True, env=env,
                           timeout=SUBPROCESS_TIMEOUT, preexec_fn=_limit_memory, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        return [f"subprocess: no answer in {SUBPROCESS_TIMEOUT} s"]
    found = []
    if p.returncode not in (0, 1, 2):
        found.append(f"subprocess: exit status {p.returncode}")
    if b"Traceback (most recent call last)" in p.stderr:
        last = p.stderr.strip().splitlines()[-1].decode("utf-8", "replace")
        found.append(f"subprocess traceback: {last[:160]}")
    if b"\n::error title=INJECTED::pwned\n" in b"\n" + p.stdout:
        found.append("subprocess: a newline in a file name reaches the output raw (a forged line)")
    return found


def class_of(args: list[str], problem: str) -> str:
    """A short, stable name for a class of problems (numbers and paths blurred)."""
    fmt = args[args.index("--format") + 1] if "--format" in args else ""
    fmt = fmt if fmt in ("json", "junit", "github") else ""  # the other formats share their text
    label = re.sub(r"(raw control characters on std(?:out|err)).*", r"\1", problem)
    label = re.sub(r"/\S+", "PATH", label)
    label = re.sub(r"line \d+, column \d+|\d+", "N", label)
    return f"{args[0]} {fmt} | {label[:120]}".replace("  ", " ")


def _slug(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9]+", "-", name).strip("-")[:80]


def shrink(data: bytes, still_fails: Callable[[bytes], bool], budget: int = 300) -> bytes:
    """Drop chunks of lines, then single lines, while the problem stays (at most ``budget`` runs)."""
    lines = data.split(b"\n")
    chunk = max(1, len(lines) // 2)
    while chunk >= 1 and budget > 0:
        i = 0
        while i < len(lines) and budget > 0:
            candidate = lines[:i] + lines[i + chunk:]
            budget -= 1
            if candidate and still_fails(b"\n".join(candidate)):
                lines = candidate
            else:
                i += chunk
        chunk //= 2
    return b"\n".join(lines)


class Round(NamedTuple):
    """One input tried: what ran it (a command, a run of :data:`SPECIAL`, or ``other``), its
    command line, the log, how it ran, and the problems found."""

    command: str
    args: list[str]
    data: bytes
    mode: str
    found: list[str]


def one_round(rng: random.Random, folder: Path, rounds: int, subprocess_every: int) -> Round:
    """Try one input: a command and a mutated log chosen with ``rng`` (every ``subprocess_every``
    th round also as a real subprocess, with a hostile file name)."""
    command = rng.choice([*FILE_COMMANDS, *SPECIAL, "other"])
    if command == "other":
        args = extra_variants(rng)
        return Round(command, args, b"", "in-process", play_problems(args))
    data = mutate(rng.choice(base_logs()), rng, rng.randint(1, 5))
    if command in SPECIAL:
        args, found = special_problems(command, data, folder, rng)
        return Round(command, args, data, "in-process", found)
    args = list(rng.choice(VARIANTS[command]))
    found, _ = run_on_log(args, data, folder)
    if subprocess_every and rounds % subprocess_every == 0 and args[:2] != ["fmt", "--write"]:
        name = rng.choice(HOSTILE_FILE_NAMES)
        found += subprocess_problems(args, data, folder, name)
        return Round(command, args, data, f"subprocess, file name {name!r}", found)
    return Round(command, args, data, "in-process", found)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=10)
    parser.add_argument("--seed", type=int, default=None, help="default: a random seed (printed)")
    parser.add_argument("--out", type=Path, default=HERE / "out" / "fuzz")
    parser.add_argument("--subprocess-every", type=int, default=40, metavar="N",
                        help="also run every Nth input as a real subprocess (0: never)")
    args = parser.parse_args(argv)
    seed = args.seed if args.seed is not None else random.randrange(2**32)
    rng = random.Random(seed)
    print(f"fuzzing for {args.minutes:g} min, seed {seed}, crashing inputs to {args.out}")

    tried = Counter[str]()
    classes = Counter[str]()
    examples: dict[str, tuple[str, list[str], bytes, str]] = {}
    deadline = time.monotonic() + args.minutes * 60
    rounds = 0
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        while time.monotonic() < deadline:
            rounds += 1
            command, cmd, data, mode, found = one_round(rng, folder, rounds, args.subprocess_every)
            name = cmd[0] if command == "other" else command
            tried["in-process " + name] += 1
            if mode.startswith("subprocess"):
                tried["subprocess " + name] += 1
            for problem in found:
                key = class_of(cmd, problem)
                classes[key] += 1
                if classes[key] <= KEEP_PER_CLASS:
                    where = args.out / _slug(key)
                    where.mkdir(parents=True, exist_ok=True)
                    n = classes[key]
                    (where / f"{n}.log").write_bytes(data)
                    (where / f"{n}.args").write_text(f"{' '.join(cmd)}\n# {mode}\n# {problem}\n", encoding="utf-8")
                    examples.setdefault(key, (command, cmd, data, mode))

        print("shrinking the first input of each class ...")
        for key, (kind, cmd, data, mode) in examples.items():
            if not data or not mode.startswith("in-process"):
                continue

            def still_fails(candidate: bytes, cmd: list[str] = cmd, key: str = key, kind: str = kind) -> bool:
                if kind in SPECIAL:
                    found = special_problems(kind, candidate, folder, random.Random(0))[1]
                else:
                    found, _ = run_on_log(cmd, candidate, folder)
                return any(class_of(cmd, p) == key for p in found)

            small = shrink(data, still_fails)
            (args.out / _slug(key) / "min.log").write_bytes(small)

    total = sum(tried.values())
    print(f"\n{total:,} inputs tried ({rounds / (args.minutes * 60):,.0f}/s):")
    for what, n in sorted(tried.items()):
        print(f"  {n:>8,}  {what}")
    print(f"\n{sum(classes.values()):,} problems in {len(classes)} classes:")
    for key, n in classes.most_common():
        print(f"  {n:>6,}  {key}\n          {args.out / _slug(key)}")
    return 1 if classes else 0


if __name__ == "__main__":
    sys.exit(main())
