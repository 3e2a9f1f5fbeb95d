"""One long hand, for what must not grow with a hand's length. By hand, or under another build's
Python (bench/builds.py runs it under the pure and the compiled build):

    python bench/long_hand.py report [--runs 7]     # kcref report's page over check_file of it
    python bench/long_hand.py feed [--repeat 200]   # LiveLog.feed, one line at turn 10 and turn 300

The hand (:func:`long_hand`) is a commercial hand of two players of more than 350 turns, in which
every player passes until turn 320 (paying for the play and the draw missed, as the commercial
rules allow), then plays greedily: legal, so the referee judges every turn and the report steps
through every line. Each mode prints ``key value`` pairs:

- ``report``: the CPU time of ``check_file`` and of ``kcref report``'s page for the hand, in-process
  (the shortest of ``--runs``, after one run of each to load what they use), and their ratio:
  ``check_ms A report_ms B turns N ratio R`` (issue 27: at most 5);
- ``feed``: what :meth:`kcref.referee.live.LiveLog.feed` takes to judge the line of turn 10 and of
  turn 300, the median of ``--repeat`` feeds of it (each taken back by ``undo``):
  ``turn10_ms A turn300_ms B`` (issue 27: at most 0.3 ms at turn 300 in the pure build).
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from kcref.engine.bots import NAMES, GreedyBot, play_hand
from kcref.engine.table import Table
from kcref.model.events import Action, Draw, Event, HandStart, Tag
from kcref.model.options import resolve
from kcref.notation.writer import event_text

FEED_TURNS = (10, 300)
"""The turns of the long hand at which one line fed is timed."""


class _Stalling:
    """A bot that passes (paying for the play and the draw it misses, as commercial rules
    allow) until turn ``turns``, then plays greedily: a hand as long as one likes."""

    def __init__(self, turns: int) -> None:
        self.turns = turns
        self.greedy = GreedyBot()

    def choose(self, t: Table, legal: Sequence[Action], can_end: bool, rng: random.Random) -> Action | None:
        if t.turns >= self.turns:
            return self.greedy.choose(t, legal, can_end, rng)
        if can_end:
            return None
        draws = [a for a in legal if isinstance(a, Draw)]
        return draws[0] if draws else (legal[0] if legal else None)


def long_hand(stall: int = 320, seed: int = 0) -> list[str]:
    """The lines of a log of one commercial hand of two players of more than ``stall`` turns."""
    names = NAMES[:2]
    played = play_hand(resolve("commercial", {}), names, 1, _Stalling(stall), random.Random(seed))
    head: list[Event] = [Tag("Players", ", ".join(names)), Tag("Rules", "commercial"), HandStart(1, names[1])]
    return [event_text(e) for e in (*head, *played.events)]


def turns_of(lines: list[str]) -> int:
    """How many turn lines ``lines`` hold."""
    return sum(1 for line in lines if line.startswith(tuple(f"{name}:" for name in NAMES)))


def feed_costs(lines: list[str], turns: Sequence[int] = FEED_TURNS, repeat: int = 200) -> dict[int, float]:
    """Seconds :meth:`LiveLog.feed` takes to judge the line of each of ``turns`` (the turn's
    number in the hand), the median of ``repeat`` feeds of it (each taken back by ``undo``)."""
    from kcref.referee.live import LiveLog

    first = next(i for i, line in enumerate(lines) if line.startswith("layout")) + 1
    costs: dict[int, float] = {}
    log = LiveLog("long.log")
    fed = 0
    for turn in sorted(turns):
        at = first + turn - 1
        for line in lines[fed:at]:
            assert log.feed(line).accepted
        fed = at
        times = []
        for _ in range(repeat):
            start = time.perf_counter()
            judged = log.feed(lines[at])
            times.append(time.perf_counter() - start)
            assert judged.accepted, judged
            log.undo()
        costs[turn] = statistics.median(times)
    return costs


def shortest(work: Callable[[], object], runs: int) -> float:
    """The shortest CPU time of ``runs`` runs of ``work``."""
    best = float("inf")
    for _ in range(runs):
        start = time.process_time()
        work()
        best = min(best, time.process_time() - start)
    return best


def report_over_check(lines: list[str], runs: int) -> tuple[float, float]:
    """The CPU seconds of ``check_file`` and of ``kcref report``'s page for the log of ``lines``."""
    from kcref.apps.report.page import build_report
    from kcref.files.inputs import resolve as resolve_inputs
    from kcref.referee.pipeline import check_file

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "long.log"
        path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
        if check_file(str(path)).errors:
            raise SystemExit("the long hand has errors: it should be legal")

        def check() -> object:
            return check_file(str(path))

        def page() -> object:
            return build_report(resolve_inputs([str(path)])).html

        check(), page()
        return shortest(check, runs), shortest(page, runs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("mode", choices=("report", "feed"))
    parser.add_argument("--runs", type=int, default=7, help="runs of each, for report [7]")
    parser.add_argument("--repeat", type=int, default=200, help="feeds of each line timed, for feed [200]")
    args = parser.parse_args()
    lines = long_hand()
    if args.mode == "report":
        checked, reported = report_over_check(lines, args.runs)
        print(f"check_ms {checked * 1e3:.2f} report_ms {reported * 1e3:.2f} turns {turns_of(lines)} "
              f"ratio {reported / checked:.2f}")
    else:
        costs = feed_costs(lines, repeat=args.repeat)
        print(" ".join(f"turn{turn}_ms {cost * 1e3:.4f}" for turn, cost in costs.items()))


if __name__ == "__main__":
    main()
