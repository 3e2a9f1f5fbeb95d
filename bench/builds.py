"""The pure build beside the compiled one (mypyc), each figure a paired ratio from one run. By hand:

    python bench/builds.py [--runs 5] [--compiled-python PATH] [--hands 1500]

bench/run.py prints these figures too, after its own. The compiled build is made first, in a
temporary folder (a copy of this tree installed with ``KCREF_MYPYC=1`` into a virtual environment
of its own: a few minutes), unless ``--compiled-python`` names the Python of an environment
where it is installed already. The pure build is this tree, run from its source. Every command runs
as a process, from a folder where no source tree can be imported, the two builds taking turns
run by run; a time is the CPU time (user + system) of the process, the median of ``--runs``.

- ``check --quiet`` on the 1,500-hand log (``kcref play --players 4 --rules commercial --seed 1``):
  pure / compiled (target >= 3), and a minimal referee written with the standard library alone
  (bench/plain_referee.py, a yardstick) over the compiled build (target >= 2.5);
- the bot loop: ``kcref play --players 4 --rules commercial --hands 1000`` (hands/s) and the
  library's ``legal_actions`` + ``apply`` in random play (bench/bot_loop.py, actions/s): compiled
  over pure (target >= 2.5 each);
- start-up: ``check --quiet`` on a 2-hand log over ``python -c pass``, each build (target <= 6.5);
- ``kcref report`` over ``check --quiet`` of the 1,500-hand log, each build (target <= 3), and of
  one hand of over 350 turns in-process (bench/long_hand.py report; target <= 5);
- ``LiveLog.feed`` at turn 300 of that hand (bench/long_hand.py feed, ms a line; target <= 0.3
  in the pure build).
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from runner import ROOT, Figure, Sample, Target, Tree, run, run_kcref, table  # noqa: E402

PURE = Tree("pure", ROOT)
HANDS = 1500
IGNORED = shutil.ignore_patterns(".git", "build", "*.egg-info", "__pycache__", ".kcref_cache", ".mypy_cache",
                                 ".ruff_cache", ".pytest_cache", ".hypothesis")


def build_compiled(work: Path) -> str:
    """Install a copy of this tree, compiled, into a virtual environment in ``work``; its Python."""
    source, venv = work / "src", work / "compiled-venv"
    shutil.copytree(ROOT, source, ignore=IGNORED)
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    python = str(venv / "bin" / "python")
    print("building the compiled build (mypyc) ...", file=sys.stderr, flush=True)
    subprocess.run([python, "-m", "pip", "install", "-q", str(source)], check=True,
                   env={**os.environ, "KCREF_MYPYC": "1"}, cwd=work)
    return python


def compiled_tree(python: str, work: Path) -> Tree:
    """The compiled build installed for ``python``; a ``SystemExit`` when it is not one."""
    tree = Tree("compiled", None, python)
    version = subprocess.run([python, "-m", "kcref", "--version"], env=tree.env(), cwd=work, capture_output=True,
                             text=True).stdout
    if "compiled" not in version:
        raise SystemExit(f"{python} does not run a compiled kcref: {version.strip() or 'no kcref'}")
    return tree


def compiled_build(python: str | None, work: Path) -> Tree:
    """The compiled build installed for ``python``, or, with None, one built in ``work``."""
    return compiled_tree(python or build_compiled(work), work)


def script(tree: Tree, name: str, args: list[str], work: Path) -> dict[str, float]:
    """Run bench/NAME under ``tree``'s build; what it prints as ``key value`` pairs."""
    env = tree.env()
    env["PYTHONPATH"] = os.pathsep.join([str(HERE), *([env["PYTHONPATH"]] if "PYTHONPATH" in env else [])])
    out = subprocess.run([tree.python, str(HERE / name), *args], env=env, cwd=work, capture_output=True, text=True,
                         check=True).stdout.split()
    return {key: float(value) for key, value in zip(out[::2], out[1::2])}


def make_logs(work: Path) -> tuple[Path, Path]:
    """The 1,500-hand log and a 2-hand log, written by ``kcref play``."""
    log, small = work / "c1500.log", work / "two.log"
    for path, hands in ((log, HANDS), (small, 2)):
        run_kcref(PURE, ["play", "--players", "4", "--rules", "commercial", "--seed", "1", "--hands", str(hands),
                         "-o", str(path)], work)
    return log, small


def build_figures(pure: Tree, compiled: Tree, work: Path, runs: int) -> list[Figure]:
    """Every figure of the two builds, the commands of each round taking turns."""
    log, small = make_logs(work)
    plain = HERE / "plain_referee.py"
    commands: dict[str, Callable[[Tree], Sample]] = {
        "quiet": lambda t: run_kcref(t, ["check", "--quiet", str(log)], work),
        "report": lambda t: run_kcref(t, ["report", str(log), "-o", str(work / f"{t.label}.html")], work),
        "play": lambda t: run_kcref(t, ["play", "--players", "4", "--rules", "commercial", "--seed", "1",
                                        "--hands", "1000", "-o", str(work / f"{t.label}-play.log")], work),
        "start": lambda t: run_kcref(t, ["check", "--quiet", str(small)], work),
        "python": lambda t: run([t.python, "-c", "pass"], cwd=work),
    }
    trees = [pure, compiled]
    for tree in trees:  # byte code compiled, templates cached: as a user's second run
        run_kcref(tree, ["report", str(small), "-o", str(work / "warm.html")], work)
    samples: dict[tuple[str, str], list[float]] = {}
    plain_times: list[float] = []
    for i in range(runs):
        for name, command in commands.items():
            for tree in trees if i % 2 == 0 else trees[::-1]:
                samples.setdefault((name, tree.label), []).append(command(tree).cpu)
        if plain.exists():
            plain_times.append(run([sys.executable, str(plain), str(log)], cwd=work).cpu)

    def m(name: str, tree: Tree) -> float:
        return statistics.median(samples[(name, tree.label)])

    loops = {t.label: script(t, "bot_loop.py", ["--actions", "200000"], work)["actions/s"] for t in trees}
    longs = {t.label: script(t, "long_hand.py", ["report"], work) for t in trees}
    figures = [
        Figure("check --quiet: pure / compiled, time", m("quiet", pure) / m("quiet", compiled), None,
               Target(3, ">="), ".2f", f"pure {m('quiet', pure):.2f} s, compiled {m('quiet', compiled):.2f} s, "
                                       f"{HANDS:,} hands"),
    ]
    if plain_times:
        yardstick = statistics.median(plain_times)
        figures += [
            Figure("check --quiet: plain referee / compiled, time", yardstick / m("quiet", compiled), None,
                   Target(2.5, ">="), ".2f", f"bench/plain_referee.py {yardstick:.2f} s"),
            Figure("check --quiet: plain referee / pure, time", yardstick / m("quiet", pure), None, None, ".2f"),
        ]
    figures += [
        Figure("play 1,000 hands: compiled / pure, hands/s", m("play", pure) / m("play", compiled), None,
               Target(2.5, ">="), ".2f", f"pure {1000 / m('play', pure):,.0f} hands/s, "
                                         f"compiled {1000 / m('play', compiled):,.0f}"),
        Figure("library bot loop: compiled / pure, actions/s", loops["compiled"] / loops["pure"], None,
               Target(2.5, ">="), ".2f", f"pure {loops['pure']:,.0f} actions/s, compiled {loops['compiled']:,.0f}"),
    ]
    for tree in trees:
        figures += [
            Figure(f"start-up over python -c pass ({tree.label})", m("start", tree) / m("python", tree), None,
                   Target(6.5, "<="), ".2f", f"check --quiet two.log {m('start', tree) * 1e3:.0f} ms, "
                                             f"python -c pass {m('python', tree) * 1e3:.0f} ms"),
            Figure(f"report / check --quiet, time ({tree.label})", m("report", tree) / m("quiet", tree), None,
                   Target(3, "<="), ".2f", f"report {m('report', tree):.2f} s, {HANDS:,} hands"),
            Figure(f"report / check, one long hand ({tree.label})", longs[tree.label]["ratio"], None,
                   Target(5, "<="), ".2f", f"{longs[tree.label]['turns']:.0f} turns; check "
                                           f"{longs[tree.label]['check_ms']:.1f} ms, in-process"),
        ]
    for tree in trees:
        feed = script(tree, "long_hand.py", ["feed"], work)
        figures.append(Figure(f"LiveLog.feed at turn 300, ms a line ({tree.label})", feed["turn300_ms"], None,
                              Target(0.3, "<=") if tree is pure else None, ".3f",
                              f"at turn 10: {feed['turn10_ms']:.3f} ms"))
    return figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="runs of each timed command [5]")
    parser.add_argument("--compiled-python", metavar="PATH",
                        help="the Python of an environment where the compiled build is installed [build one]")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        compiled = compiled_build(args.compiled_python, work)
        figures = build_figures(PURE, compiled, work, args.runs)
    print(table(figures, "cpu", args.runs, None))
    print(f"({time.perf_counter() - started:.0f} s)")
    return 0 if all(f.target is None or f.target.met(f.current) for f in figures) else 1


if __name__ == "__main__":
    sys.exit(main())
