"""Playing an arena: its deals one after another, in this process, in worker processes or on
a Dask cluster, each deal's games handed back in the order of the deals whatever ran them, so
that the same seed gives the same results and the same logs everywhere.

Deals are sent ahead to the workers a few at a time; an SPRT that decides, Ctrl-C, or an error
stops the arena there: the work still out is thrown away, the workers ended (each ends the
programs of its ``exec:`` bots as it goes), and the games played so far are what the run
returns.
"""

from __future__ import annotations

import os
import signal
from collections import Counter, deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ...engine.duplicate import seatings
from ...files.atomic import signals_guarded, write_atomically
from ...scoring.arena_stats import Decision, Sprt, deal_scores
from .games import GameResult, Setup, play_game
from .protocol import end_every_program

AHEAD = 4
"""Deals sent ahead per worker, so that no worker waits for the next."""


def play_deal(setup: Setup, deal: int) -> list[GameResult]:
    """Every game of ``deal``, one per rotation of the seats."""
    return [play_game(setup, s) for s in seatings(len(setup.entrants), setup.players, deal)]


@dataclass
class ArenaRun:
    """The games of an arena so far, in the order of the deals."""

    setup: Setup
    deals: int
    """Deals asked for (with an SPRT: the most it may play)."""
    results: list[GameResult] = field(default_factory=list)
    deals_played: int = 0
    interrupted: bool = False
    sprt: Sprt | None = None
    decision: Decision | None = None
    deal_scores: Counter[float] = field(default_factory=Counter)
    """The first entrant's score against the second per deal (for the SPRT): score to deals."""


Progress = Callable[[ArenaRun], None]


def run_arena(setup: Setup, deals: int, *, jobs: int = 1, dask: str | None = None, sprt: Sprt | None = None,
              output: str | None = None, progress: Progress | None = None) -> ArenaRun:
    """Play ``deals`` deals (fewer where ``sprt`` decides first); write each game's log into the
    folder ``output`` as it comes. Ctrl-C stops it: the run so far comes back, ``interrupted``."""
    run = ArenaRun(setup, deals, sprt=sprt)
    if output is not None:
        os.makedirs(output, exist_ok=True)
    source = _on_dask(setup, deals, dask) if dask else _in_workers(setup, deals, jobs) if jobs > 1 \
        else (play_deal(setup, d) for d in range(1, deals + 1))
    try:
        # SIGTERM and SIGHUP unwind as Ctrl-C does, through the games' own endings of their bots.
        with signals_guarded():
            for games in source:
                run.results.extend(games)
                run.deals_played += 1
                if output is not None:
                    for result in games:
                        write_game(output, result)
                if sprt is not None:
                    run.deal_scores.update(deal_scores((r.game for r in games), 0, 1).values())
                    run.decision = sprt.decide_counts(run.deal_scores)
                if progress is not None:
                    progress(run)
                if run.decision is not None and run.decision.accepted is not None:
                    break
    except KeyboardInterrupt:
        run.interrupted = True
    finally:
        close = getattr(source, "close", None)
        if close is not None:
            close()
    return run


def game_file(result: GameResult) -> str:
    """The name of a game's log: its deal and its place among the deal's games."""
    return f"deal-{result.seating.deal:05d}-game-{result.seating.rotation + 1}.log"


def write_game(folder: str, result: GameResult) -> None:
    """Write a game's log, and the standard error of each ``exec:`` bot that wrote any."""
    name = game_file(result)
    write_atomically(str(Path(folder, name)), result.log)
    for seat, text in enumerate(result.stderr):
        if text:
            write_atomically(str(Path(folder, f"{name[:-4]}.seat{seat + 1}.stderr")), text)


# --- local worker processes --------------------------------------------------------------------


def _worker_start() -> None:
    """A worker leaves Ctrl-C to its parent, which stops it with SIGTERM: the worker then ends
    its bots' programs and exits at once (an exception would not do: the pool's worker loop
    catches it as the game's result and takes the next game)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, _exit_on_signal)


def _exit_on_signal(signum: int, frame: Any) -> None:
    end_every_program()
    os._exit(128 + signum)


def _in_workers(setup: Setup, deals: int, jobs: int) -> Iterator[list[GameResult]]:
    from concurrent.futures import ProcessPoolExecutor

    from ...referee.pipeline import results_in_order, stop_pool

    pool = ProcessPoolExecutor(max_workers=jobs, initializer=_worker_start)
    done = False
    try:
        with signals_guarded():
            yield from results_in_order(pool, play_deal, ((setup, deal) for deal in range(1, deals + 1)),
                                        jobs * AHEAD)
        done = True
    finally:
        if done:
            pool.shutdown(wait=True)
        else:
            stop_pool(pool)


# --- a Dask cluster ---------------------------------------------------------------------------


def _on_dask(setup: Setup, deals: int, address: str) -> Iterator[list[GameResult]]:
    from distributed import Client

    client = Client(address, timeout=30, set_as_default=False)
    pending: deque[Any] = deque()
    next_deal = 1
    ahead = max(1, sum(client.nthreads().values())) * AHEAD
    try:
        while next_deal <= deals or pending:
            while next_deal <= deals and len(pending) < ahead:
                pending.append(client.submit(play_deal, setup, next_deal, pure=False))
                next_deal += 1
            yield pending.popleft().result()
    finally:
        if pending:
            client.cancel(list(pending))
        client.close()
