"""The speed figures, each beside its target and the previous release. By hand:

    python bench/run.py [--runs 5] [--baseline REF | --no-baseline] [--big-mb 25 | --skip-big]
                        [--clock cpu|wall] [--instructions] [--compiled-python PATH | --no-compiled]

Every figure is measured through the CLI, as processes (``python -m kcref``), on logs written
into a temporary folder by ``kcref play``:

- check --quiet: actions per second of `kcref check --quiet` on a legal commercial log
  (`kcref play --players 4 --rules commercial --seed 1 --hands 1500`, actions counted with
  kcref's reader), start-up included; target >= 250,000.
- every penalty / quiet: the time of the text output with every penalty printed, with its source
  line and caret (`check -v`; a tree older than `-v` printed them so by default) over that of
  --quiet on the same log; target <= 1.25. Beside it, the default text output (one settlement
  line per hand) over --quiet, for information.
- score / check: the time of `kcref score` over that of `check --quiet`; target <= 1.2.
- filling the cache / quiet: a user's first `check --quiet` of the log, with the verdict cache on (the
  default) and empty, over --quiet without the cache (every other figure runs with KCREF_NO_CACHE=1).
- fmt --check: actions per second of `kcref fmt --check` on the same log; target >= 300,000.
- jobs 2 / jobs 1: the throughput of `check --quiet --jobs 2` over `--jobs 1` on 200 logs of 50
  hands each (wall time: CPU time cannot show work done in parallel); target >= 1.7.
- start-up: `kcref check` on a 2-hand log, less `python -c pass`; target <= 0.1 s.
- peak memory (max RSS) of `check`, `score`, `fmt --check` and `show` on a big log made of the
  1,500-hand log repeated (--big-mb, 25 MB by default: ~31 copies, a few minutes for both trees;
  the issue's figure is for 200 MB, `--big-mb 200`, ~20 minutes); target < 100 MB. A log loaded
  whole would take ten times its size, so 25 MB already tells a stream from a load. `check`'s
  summary must equal the part's counts times the copies.

The previous release is the newest git tag (`git describe --tags --abbrev=0`) or --baseline REF,
exported with `git archive` into the temporary folder and run the same way; the two trees take
turns, run by run, so that noise from other work on the machine hits both alike. A clone without
tags and without --baseline measures the current tree alone, and says so. Each figure is
the median of --runs runs (the big log: one run). Times are CPU time by default (user + system of
the process and its workers, from wait4: steadier than wall time on a busy machine); --clock wall
uses wall time. The ratio column is current / previous.

With --instructions (it needs valgrind), the CPU instructions of `check --quiet` on the 1,500-hand
log and on the 2-hand log, and of `python -c pass`, counted by cachegrind in one run each: they do
not depend on the machine's load or speed, so they compare trees, and machines, where times cannot.

Then the compiled build (mypyc) beside the pure one, as bench/builds.py prints them (it builds the
compiled build first, unless --compiled-python names one; --no-compiled leaves them out): check,
the bot loop, start-up, the report and ``LiveLog.feed``, each a paired ratio with its target.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

import builds  # noqa: E402
from runner import (  # noqa: E402
    CURRENT,
    Figure,
    Sample,
    Target,
    Tree,
    export_tree,
    instructions,
    newest_tag,
    repeat_log,
    run,
    run_kcref,
    summary_counts,
    table,
)

from kcref.engine.bots import play_log  # noqa: E402
from kcref.model.events import Turn  # noqa: E402
from kcref.notation.reader import read_file  # noqa: E402

HANDS = 1500
FILES, FILE_HANDS = 200, 50
BIG_COMMANDS = (("check", ["check", "--no-source"]), ("score", ["score"]), ("fmt --check", ["fmt", "--check"]),
                ("show", ["show"]))


class Bench:
    """The trees under comparison, the working folder, and the clock read from each sample."""

    def __init__(self, trees: Sequence[Tree], work: Path, clock: str) -> None:
        self.trees = list(trees)
        self.work = work
        self.clock = clock

    def rounds(self, runs: int, commands: dict[str, Callable[[Tree], Sample]]) -> dict[tuple[str, str], list[Sample]]:
        """Run every command on every tree ``runs`` times; the trees and the commands take turns
        within each round, and the order of the trees flips from one round to the next."""
        samples: dict[tuple[str, str], list[Sample]] = {}
        for i in range(runs):
            trees = self.trees if i % 2 == 0 else self.trees[::-1]
            for name, command in commands.items():
                for tree in trees:
                    samples.setdefault((name, tree.label), []).append(command(tree))
        return samples

    def median(self, samples: dict[tuple[str, str], list[Sample]], name: str, tree: Tree,
               clock: str | None = None) -> float:
        wall = (clock or self.clock) == "wall"
        return statistics.median(s.wall if wall else s.cpu for s in samples[(name, tree.label)])


def kcref_output(tree: Tree, args: list[str], cwd: Path) -> str:
    """What ``python -m kcref ARGS`` from ``tree`` prints (not timed)."""
    return subprocess.run([sys.executable, "-m", "kcref", *args], env=tree.env(), cwd=cwd, capture_output=True,
                          text=True).stdout


def fill_cache(tree: Tree, log: Path, work: Path) -> Sample:
    """``check --quiet`` as a user's first check of ``log`` runs by default: with the verdict
    cache on, and empty (a tree without a cache checks as ever)."""
    cache = work / "cache-fill"
    shutil.rmtree(cache, ignore_errors=True)
    env = tree.env()
    env.pop("KCREF_NO_CACHE")
    args = ["check", "--quiet", str(log)]
    if "--cache-dir" in kcref_output(tree, ["check", "--help"], work):
        args[1:1] = ["--cache-dir", str(cache)]
    return run([sys.executable, "-m", "kcref", *args], env=env, cwd=work)


def count_actions(path: Path) -> int:
    """Actions in a log, counted by kcref's reader."""
    return sum(len(item.actions) for item in read_file(str(path)) if isinstance(item, Turn))


def make_logs(work: Path) -> tuple[Path, Path, Path]:
    """The 1,500-hand log (by `kcref play`), a 2-hand log, and a folder of 200 logs of 50 hands."""
    log, small, folder = work / "c1500.log", work / "two.log", work / "files"
    for path, hands in ((log, HANDS), (small, 2)):
        subprocess.run([sys.executable, "-m", "kcref", "play", "--players", "4", "--rules", "commercial", "--seed",
                        "1", "--hands", str(hands), "-o", str(path)], check=True, env=CURRENT.env(), cwd=work)
    make_folder(folder, FILES, FILE_HANDS)
    return log, small, folder


def make_folder(folder: Path, files: int, hands: int) -> None:
    """``files`` legal commercial logs of ``hands`` hands each (4 players, seeds 0, 1, ...)."""
    folder.mkdir(parents=True, exist_ok=True)
    for i in range(files):
        with open(folder / f"night{i:03d}.log", "w", encoding="utf-8") as f:
            f.writelines(play_log(4, "commercial", seed=i, hands=hands))


def speed_figures(bench: Bench, log: Path, small: Path, folder: Path, runs: int) -> list[Figure]:
    """Every figure timed on the 1,500-hand log, the 200 small logs and the 2-hand log."""
    actions = count_actions(log)
    work = bench.work
    # -v prints every penalty on its own line; before it existed, the default output did.
    verbose = {t.label: ["-v"] if "--verbose" in kcref_output(t, ["check", "--help"], work) else []
               for t in bench.trees}
    commands: dict[str, Callable[[Tree], Sample]] = {
        "quiet": lambda t: run_kcref(t, ["check", "--quiet", str(log)], work),
        "every": lambda t: run_kcref(t, ["check", *verbose[t.label], str(log)], work),
        "text": lambda t: run_kcref(t, ["check", str(log)], work),
        "filling": lambda t: fill_cache(t, log, work),
        "score": lambda t: run_kcref(t, ["score", str(log)], work),
        "fmt": lambda t: run_kcref(t, ["fmt", "--check", str(log)], work),
        "jobs1": lambda t: run_kcref(t, ["check", "--quiet", "--jobs", "1", str(folder)], work),
        "jobs2": lambda t: run_kcref(t, ["check", "--quiet", "--jobs", "2", str(folder)], work),
        "start": lambda t: run_kcref(t, ["check", str(small)], work),
        "python": lambda t: run([sys.executable, "-c", "pass"], cwd=work),
    }
    for tree in bench.trees:  # compile the byte code of each tree before timing it
        run_kcref(tree, ["check", str(small)], work)
    s = bench.rounds(runs, commands)

    def per_tree(value: Callable[[Tree], float]) -> tuple[float, float | None]:
        current = value(bench.trees[0])
        return current, value(bench.trees[1]) if len(bench.trees) > 1 else None

    def m(name: str, clock: str | None = None) -> Callable[[Tree], float]:
        return lambda t: bench.median(s, name, t, clock)

    clock = bench.clock
    figures = [
        Figure("check --quiet, actions/s", *per_tree(lambda t: actions / m("quiet")(t)), Target(250_000, ">="), ",.0f",
               f"{actions:,} actions, {HANDS:,} hands"),
        Figure("check --quiet filling the cache / --quiet", *per_tree(lambda t: m("filling")(t) / m("quiet")(t)),
               None, ".2f", "the default first check of a file (v0.1.0: no cache)"),
        Figure("every penalty / --quiet, time", *per_tree(lambda t: m("every")(t) / m("quiet")(t)), Target(1.25, "<="),
               ".2f", "check -v (v0.1.0: check)"),
        Figure("default text / --quiet, time", *per_tree(lambda t: m("text")(t) / m("quiet")(t)), None, ".2f",
               "settlement lines (v0.1.0: every penalty)"),
        Figure("score / check --quiet, time", *per_tree(lambda t: m("score")(t) / m("quiet")(t)),
               Target(1.2, "<="), ".2f"),
        Figure("fmt --check, actions/s", *per_tree(lambda t: actions / m("fmt")(t)), Target(300_000, ">="), ",.0f"),
        Figure("--jobs 2 / --jobs 1, files/s", *per_tree(lambda t: m("jobs1", "wall")(t) / m("jobs2", "wall")(t)),
               Target(1.7, ">="), ".2f", f"wall; {FILES} files x {FILE_HANDS} hands; jobs 1: "
               f"{FILES / m('jobs1', 'wall')(bench.trees[0]):.0f} files/s; CPU time jobs 2 / jobs 1: "
               f"{m('jobs2', 'cpu')(bench.trees[0]) / m('jobs1', 'cpu')(bench.trees[0]):.2f}"),
        Figure("start-up over python -c pass, s", *per_tree(lambda t: m("start")(t) - m("python")(t)),
               Target(0.1, "<="), ".3f", f"python -c pass: {m('python')(bench.trees[0]):.3f} s"),
    ]
    if clock == "cpu":  # the wall clock beside it, for the first figure
        wall = actions / m("quiet", "wall")(bench.trees[0])
        figures[0] = replace(figures[0], note=f"{figures[0].note}; wall: {wall:,.0f}")
    return figures


def memory_figures(bench: Bench, log: Path, megabytes: float) -> list[Figure]:
    """Peak memory of each command on the big log (one run each, the trees in turn), and whether
    check's verdict on it equals its parts'."""
    big = bench.work / "big.log"
    part = bench.work / "part.log"
    copies = repeat_log(log.read_bytes(), big, megabytes)
    repeat_log(log.read_bytes(), part, 0)  # one copy, unnumbered like the copies in the big log
    size = big.stat().st_size / 1e6
    figures: list[Figure] = []
    verdicts: list[tuple[str, list[int] | None]] = []
    for name, args in BIG_COMMANDS:
        peaks: dict[str, float] = {}
        for tree in bench.trees:
            with tempfile.TemporaryFile(dir=bench.work) as out:
                sample = run_kcref(tree, [*args, str(big)], bench.work, stdout=out)
                peaks[tree.label] = sample.rss_mb
                if name == "check":
                    out.seek(max(0, out.seek(0, 2) - 4096))
                    verdicts.append((tree.label, summary_counts(out.read())))
        current = peaks[bench.trees[0].label]
        previous = peaks[bench.trees[1].label] if len(bench.trees) > 1 else None
        figures.append(Figure(f"peak memory: {name}, MB", current, previous, Target(100, "<"), ".0f",
                              f"{size:.0f} MB log ({copies} copies)" if not figures else ""))
    for label, counts in verdicts:
        with tempfile.TemporaryFile(dir=bench.work) as out:
            run_kcref(next(t for t in bench.trees if t.label == label), ["check", "--no-source", str(part)],
                      bench.work, stdout=out)
            out.seek(0)
            parts = summary_counts(out.read())
        same = counts is not None and parts is not None and counts[1:] == [c * copies for c in parts[1:]]
        figures.append(Figure(f"big log: verdict = {copies} x part ({label})", float(same), None,
                              Target(1, ">=", "same"), ".0f", f"{counts} vs {parts}",
                              shown="same" if same else "DIFFERS"))
    return figures


def instruction_figures(bench: Bench, log: Path, small: Path) -> list[Figure]:
    """The instructions of ``check --quiet`` on the 1,500-hand log and on the 2-hand log, and of
    ``python -c pass``, in millions (one run each: the count is exact)."""
    python = instructions([sys.executable, "-c", "pass"], cwd=bench.work) / 1e6
    figures = []
    for name, path in (("check --quiet, M instructions", log), ("check --quiet two.log, M instructions", small)):
        counts = [instructions([sys.executable, "-m", "kcref", "check", "--quiet", str(path)], env=tree.env(),
                               cwd=bench.work) / 1e6 for tree in bench.trees]
        note = f"python -c pass: {python:,.0f} M" if path is small else "cachegrind, one run"
        figures.append(Figure(name, counts[0], counts[1] if len(counts) > 1 else None, None, ",.0f", note))
    return figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="runs of each timed command [5]")
    parser.add_argument("--baseline", metavar="REF", help="the previous release [the newest git tag]")
    parser.add_argument("--no-baseline", action="store_true", help="measure the current tree alone")
    parser.add_argument("--big-mb", type=float, default=25, help="size of the big log in MB [25]")
    parser.add_argument("--skip-big", action="store_true", help="leave out the big log")
    parser.add_argument("--clock", choices=("cpu", "wall"), default="cpu", help="what a time is [cpu]")
    parser.add_argument("--instructions", action="store_true",
                        help="also count the instructions of check --quiet with valgrind")
    parser.add_argument("--compiled-python", metavar="PATH",
                        help="the Python of an environment where the compiled build is installed [build one]")
    parser.add_argument("--no-compiled", action="store_true",
                        help="leave out the figures of the compiled build beside the pure one (bench/builds.py)")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        (work / "builds").mkdir()
        trees = [CURRENT]
        ref = None if args.no_baseline else args.baseline or newest_tag()
        if ref is None and not args.no_baseline:
            print("no git tag to compare with: measuring the current tree alone (--baseline REF names one)",
                  file=sys.stderr)
        if ref:
            trees.append(export_tree(ref, work / "previous"))
        bench = Bench(trees, work, args.clock)
        log, small, folder = make_logs(work)
        figures = speed_figures(bench, log, small, folder, args.runs)
        if args.instructions:
            figures += instruction_figures(bench, log, small)
        if not args.skip_big:
            figures += memory_figures(bench, log, args.big_mb)
        if not args.no_compiled:
            compiled = builds.compiled_build(args.compiled_python, work)
            figures += builds.build_figures(builds.PURE, compiled, work / "builds", args.runs)
    print(table(figures, args.clock, args.runs, ref))
    print(f"({time.perf_counter() - started:.0f} s)")
    return 0 if all(f.target is None or f.target.met(f.current) for f in figures) else 1


if __name__ == "__main__":
    sys.exit(main())
