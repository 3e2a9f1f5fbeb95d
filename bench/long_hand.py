"""One long hand, reported and checked, by hand (bench/builds.py runs it under each build):

    python bench/long_hand.py [--turns 345] [--runs 7]

The hand is the first of ``kcref play --players 4 --rules commercial --seed 1``, with rounds of
``pass`` turns after its first turn until it has about ``--turns`` turns: legal under the
commercial rules (a pass while the stock lasts costs chips, and blocks nothing), so the referee
judges every turn, and the report steps through every line. It prints the CPU time of
``check_file`` and of ``kcref report``'s page for that log, in-process (the shortest of
``--runs``, after one run of each to load and compile what they use), and their ratio:
``check_ms A report_ms B turns N ratio R``. Replaying a hand once for the report, the ratio does
not grow with the hand's length.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from kcref.apps.report.page import build_report
from kcref.engine.bots import play_log
from kcref.files.inputs import resolve
from kcref.referee.pipeline import check_file

NAMES = ("Ann", "Bob", "Cy", "Dee")


def long_hand(turns: int) -> tuple[str, int]:
    """The log of one commercial hand of about ``turns`` turns, and how many it has."""
    lines = "".join(play_log(4, "commercial", seed=1, hands=1)).splitlines()
    first = next(i for i, line in enumerate(lines) if line.startswith("Ann:"))
    played = sum(1 for line in lines if line.split(":")[0] in NAMES)
    rounds = max(0, (turns - played) // len(NAMES))
    passes = [f"{name}: pass" for _ in range(rounds) for name in (*NAMES[1:], NAMES[0])]
    return "\n".join([*lines[:first + 1], *passes, *lines[first + 1:]]) + "\n", played + len(passes)


def shortest(work: Callable[[], object], runs: int) -> float:
    """The shortest CPU time of ``runs`` runs of ``work``."""
    best = float("inf")
    for _ in range(runs):
        start = time.process_time()
        work()
        best = min(best, time.process_time() - start)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=345)
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    text, turns = long_hand(args.turns)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "long.log"
        path.write_text(text, encoding="utf-8")
        report = check_file(str(path))
        if report.errors:
            raise SystemExit(f"the long hand has {report.errors} errors: it should be legal")

        def check() -> object:
            return check_file(str(path))

        def page() -> object:
            return build_report(resolve([str(path)])).html

        check(), page()
        checked, reported = shortest(check, args.runs), shortest(page, args.runs)
    print(f"check_ms {checked * 1e3:.2f} report_ms {reported * 1e3:.2f} turns {turns} ratio {reported / checked:.2f}")


if __name__ == "__main__":
    main()
