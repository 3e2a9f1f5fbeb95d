"""Run kcref commands as processes and measure them: wall time, CPU time and peak memory.

Shared by bench/run.py and bench/memory.py. A :class:`Tree` is a kcref source tree (this
checkout, or a release exported into a temporary folder with :func:`export_tree`); every command
runs as ``python -m kcref`` with that tree first on ``PYTHONPATH``, from a neutral working
folder, so two trees can be run side by side.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import IO

ROOT = Path(__file__).resolve().parent.parent

SUMMARY = re.compile(rb"(\d+) files?, (\d+) hands?, (\d+) errors?, (\d+) warnings?, "
                     rb"(\d+) penalt(?:y|ies), (\d+) notes?")
"""The summary line of ``kcref check``."""


@dataclass(frozen=True)
class Tree:
    """A kcref to run: its label in tables, and the folder holding ``kcref/`` (a source tree, put
    first on ``PYTHONPATH``), or None for the kcref installed for ``python`` (a compiled build in a
    virtual environment of its own, run from a folder where no source tree can be imported)."""

    label: str
    root: Path | None
    python: str = sys.executable

    def env(self) -> dict[str, str]:
        # Bytecode is cached (in a folder of its own per tree), as an installed package has its
        # .pyc files: with PYTHONDONTWRITEBYTECODE set, every run would compile kcref again and
        # start-up would measure the compiler.
        env = {**os.environ, "PYTHONPYCACHEPREFIX": str(Path(tempfile.gettempdir()) / f"kcref-bench-pyc-{self.label}")}
        env.pop("PYTHONPATH", None)
        if self.root is not None:
            env["PYTHONPATH"] = str(self.root)
        for name in ("GITHUB_ACTIONS", "NO_COLOR", "PYTHONSTARTUP", "PYTHONDONTWRITEBYTECODE"):
            env.pop(name, None)
        # Every run checks afresh: with the verdict cache each run after the first would only replay
        # the first (bench/cache_bench.py measures the cache; the "filling the cache" figure turns
        # it on where it says so).
        env["KCREF_NO_CACHE"] = "1"
        return env


CURRENT = Tree("current", ROOT)


@dataclass(frozen=True)
class Sample:
    """One run of a command."""

    wall: float
    """Seconds, start to exit."""
    cpu: float
    """User + system seconds of the process and of the children it waited for (worker processes)."""
    rss_mb: float
    """Peak resident memory of the process (or of its largest waited-for child), in MB."""
    status: int


def run(argv: list[str], *, env: dict[str, str] | None = None, cwd: Path | None = None, stdin: Path | None = None,
        stdout: IO[bytes] | int = subprocess.DEVNULL) -> Sample:
    """Run ``argv`` and measure it with ``wait4``: the rusage of that one child, so runs never mix."""
    with open(stdin, "rb") if stdin else open(os.devnull, "rb") as source:
        start = time.perf_counter()
        proc = subprocess.Popen(argv, stdin=source, stdout=stdout, stderr=subprocess.DEVNULL, env=env, cwd=cwd)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)  # reaped here: keep Popen from waiting again
    return Sample(wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, proc.returncode)


def run_kcref(tree: Tree, args: list[str], cwd: Path, **kwargs: object) -> Sample:
    """``python -m kcref ARGS`` from ``tree``."""
    return run([tree.python, "-m", "kcref", *args], env=tree.env(), cwd=cwd, **kwargs)  # type: ignore[arg-type]


def export_tree(ref: str, folder: Path) -> Tree:
    """The tree of git ``ref`` of this checkout, exported into ``folder`` (``git archive | tar``)."""
    folder.mkdir(parents=True, exist_ok=True)
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", ref], capture_output=True, check=True).stdout
    subprocess.run(["tar", "-x", "-C", str(folder)], input=archive, check=True)
    return Tree(ref, folder)


def newest_tag() -> str | None:
    """The newest tag reachable from HEAD (``git describe --tags --abbrev=0``); None when there is none."""
    found = subprocess.run(["git", "-C", str(ROOT), "describe", "--tags", "--abbrev=0"], capture_output=True,
                           text=True)
    if found.returncode != 0:
        return None
    return found.stdout.strip() or None


_I_REFS = re.compile(rb"I\s+refs:\s+([\d,]+)")


def instructions(argv: list[str], *, env: dict[str, str] | None = None, cwd: Path | None = None) -> int:
    """The CPU instructions ``argv`` executes (valgrind's cachegrind, no cache simulation): exact
    and steady where times are not. Raises ``RuntimeError`` when valgrind gives no count."""
    done = subprocess.run(["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null",
                           *argv], env=env, cwd=cwd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                          stderr=subprocess.PIPE)
    found = _I_REFS.search(done.stderr)
    if found is None:
        raise RuntimeError(f"valgrind gave no instruction count for {argv}: {done.stderr[-500:]!r}")
    return int(found[1].replace(b",", b""))


def repeat_log(part: bytes, path: Path, megabytes: float) -> int:
    """Write ``part`` to ``path`` as many times as makes about ``megabytes`` MB; the number of
    copies. The copies go unnumbered (``hand 12`` becomes ``hand``), so that hand numbers never
    restart (a KC214 warning each time)."""
    part = re.sub(rb"(?m)^hand \d+ ", b"hand ", part)
    copies = max(1, round(megabytes * 1e6 / len(part)))
    with open(path, "wb") as f:
        for _ in range(copies):
            f.write(part)
    return copies


def summary_counts(output: bytes) -> list[int] | None:
    """The numbers of the last summary line in ``kcref check``'s output: files, hands, errors,
    warnings, penalties, notes."""
    found = SUMMARY.findall(output)
    return [int(n) for n in found[-1]] if found else None


# --- figures and their table ------------------------------------------------------------------


COMPARE: dict[str, Callable[[float, float], bool]] = {
    ">=": lambda value, bound: value >= bound,
    "<=": lambda value, bound: value <= bound,
    "<": lambda value, bound: value < bound,
}


@dataclass(frozen=True)
class Target:
    """A bound on a figure, and how a value must compare with it (a key of :data:`COMPARE`)."""

    bound: float
    op: str
    words: str = ""
    """What to print for the target, when not the bound."""

    def met(self, value: float) -> bool:
        return COMPARE[self.op](value, self.bound)

    def text(self, fmt: str) -> str:
        return self.words or f"{self.op} {self.bound:{fmt}}"


@dataclass(frozen=True)
class Figure:
    name: str
    current: float
    previous: float | None
    target: Target | None
    fmt: str
    note: str = ""
    shown: str = ""
    """What to print for the value, when not the number."""

    def row(self) -> list[str]:
        prev = "" if self.previous is None else f"{self.previous:{self.fmt}}"
        ratio = "" if not self.previous else f"{self.current / self.previous:.2f}"
        ok = "" if self.target is None else "met" if self.target.met(self.current) else "MISSED"
        target = "" if self.target is None else self.target.text(self.fmt)
        return [self.name, self.shown or f"{self.current:{self.fmt}}", target, prev, ratio, ok, self.note]


def table(figures: list[Figure], clock: str, runs: int, previous: str | None) -> str:
    head = ["figure", "measured", "target", f"previous ({previous})" if previous else "previous", "now/prev", "",
            "notes"]
    rows = [head, *(f.row() for f in figures)]
    widths = [max(len(r[i]) for r in rows) for i in range(len(head))]
    lines = ["  ".join(c.rjust(w) if 0 < i < 5 else c.ljust(w) for i, (c, w) in enumerate(zip(r, widths))).rstrip()
             for r in rows]
    lines.insert(1, "-" * len(lines[0]))
    return (f"Times: {clock} time ({'user + system of the process and its workers' if clock == 'cpu' else 'wall'}),"
            f" median of {runs} runs; the big log: one run.\n" + "\n".join(lines))
