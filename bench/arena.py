"""The speed of ``kcref arena``, by hand:

    python bench/arena.py [--deals 300] [--moves 2000]

It prints:

- games per second of an arena of the built-in bots (greedy and random, 2 players, classic),
  on 1 and on 2 processes;
- what the arena adds to the same games played as ``kcref play`` plays them (the engine's
  ``play_hand`` with the bots given the whole table, and the log written), in-process: the bots
  held to what they are offered and to their time, the stock kept off the table, the scores and
  places read from the table, the log's tags (target: under 10%). The built-in bots read no
  view, and are made none; the same bots made to read one show what a seat's view costs besides;
- the protocol's cost per move of an ``exec:`` bot: round trips of a ``move`` to a Python
  program that answers at once, and what starting the program costs a game (target: under
  200 µs a move).
"""

from __future__ import annotations

import argparse
import gc
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from kcref.apps.arena.entrants import entrants
from kcref.apps.arena.games import Setup, play_game
from kcref.apps.arena.protocol import ExecBot, hello_message
from kcref.apps.arena.run import run_arena
from kcref.engine.bots import BOTS, GreedyBot, RandomBot, play_hand
from kcref.engine.dealing import deal_from_deck
from kcref.engine.duplicate import deal_deck, game_rng, seatings
from kcref.engine.seats import blind_actions, seat_view
from kcref.engine.turns import can_end_turn, legal_actions
from kcref.model.events import HandStart
from kcref.model.options import resolve
from kcref.notation.writer import event_text

ANSWER_AT_ONCE = """
import json, sys
for line in sys.stdin:
    m = json.loads(line)
    if m["type"] == "hello":
        print('{"type": "ready"}', flush=True)
    elif m["type"] == "move":
        print(json.dumps({"type": "action", "action": m["legal"][0]}), flush=True)
    else:
        break
"""


class LookingGreedy(GreedyBot):
    """The greedy bot, said to read its view: the arena makes it one every move."""

    reads_view = True


class LookingRandom(RandomBot):
    """The random bot, said to read its view."""

    reads_view = True


def _setup(looking: bool = False) -> Setup:
    bots = (f"{__file__}:LookingGreedy", f"{__file__}:LookingRandom") if looking else ("greedy", "random")
    return Setup(entrants(bots, 2), 2, "classic", (), 11)


def games_per_second(deals: int, jobs: int) -> float:
    start = time.perf_counter()
    run = run_arena(_setup(), deals, jobs=jobs)
    return len(run.results) / (time.perf_counter() - start)


def as_play_plays_them(deals: int) -> float:
    """The arena's games played as ``kcref play`` plays: one loop, bots given the whole table."""
    setup = _setup()
    options = resolve(setup.rules, {})
    start = time.process_time()
    for deal in range(1, deals + 1):
        for s in seatings(2, 2, deal):
            names = tuple(setup.entrants[e].name for e in s.lineup)
            bots = [BOTS[setup.entrants[e].spec] for e in s.lineup]
            played = play_hand(options, names, 1, bots, game_rng(setup.seed, deal, s.rotation),
                               deck=deal_deck(setup.seed, deal))
            "\n".join([event_text(HandStart(1, names[1])), *(event_text(e) for e in played.events)])
    return time.process_time() - start


def as_arena_plays_them(deals: int, looking: bool = False) -> float:
    setup = _setup(looking)
    start = time.process_time()
    for deal in range(1, deals + 1):
        for s in seatings(2, 2, deal):
            play_game(setup, s)
    return time.process_time() - start


def protocol_round_trip(moves: int) -> tuple[float, float]:
    """Seconds per ``move`` round trip, and seconds to start and end the program."""
    options = resolve("classic", {})
    t = deal_from_deck(options, ("Ann", "Bob"), 1, deal_deck(1, 1)).table
    view, legal = seat_view(t, t.player), blind_actions(legal_actions(t))
    can_end = can_end_turn(t)
    with tempfile.TemporaryDirectory() as tmp:
        script = Path(tmp, "bot.py")
        script.write_text(ANSWER_AT_ONCE, encoding="utf-8")
        start = time.perf_counter()
        bot = ExecBot((sys.executable, str(script)), 0, 1.0, 600.0)
        bot.greet(hello_message(0, ("Ann", "Bob"), 1, "classic", {}, 1, 1.0, 600.0))
        started = time.perf_counter() - start
        rng = game_rng(1, 1, 0)
        start = time.perf_counter()
        for _ in range(moves):
            bot.choose(view, legal, can_end, rng)
        per_move = (time.perf_counter() - start) / moves
        start = time.perf_counter()
        bot.close()
        return per_move, started + time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--deals", type=int, default=300, help="deals per measure [300]")
    parser.add_argument("--moves", type=int, default=2000, help="protocol round trips [2000]")
    args = parser.parse_args(argv)
    print(f"{os.cpu_count()} cores; greedy against random, 2 players, classic, {args.deals} deals "
          f"({2 * args.deals} games)\n")
    for jobs in (1, 2):
        print(f"arena, {jobs} process{'es' if jobs > 1 else ''}: {games_per_second(args.deals, jobs):8.0f} games/s")
    plays, arenas, lookings = [], [], []
    gc.disable()  # as timeit does: a collection falling in one run and not the other is noise
    try:
        for _ in range(5):  # taken in turns, the least of each kept: a busy machine slows some runs
            plays.append(as_play_plays_them(args.deals))
            arenas.append(as_arena_plays_them(args.deals))
            lookings.append(as_arena_plays_them(args.deals, looking=True))
            gc.collect()
    finally:
        gc.enable()
    play, arena, looking = min(plays), min(arenas), min(lookings)
    print(f"\nthe same games in-process, CPU time: as kcref play plays them {play:.3f} s, as the arena does "
          f"{arena:.3f} s: the arena adds {100 * (arena / play - 1):.1f}% (target: under 10%); "
          f"with bots that read their view, {100 * (looking / play - 1):.1f}%")
    per_move, start_stop = protocol_round_trip(args.moves)
    print(f"\nexec: protocol, a move's round trip to a Python program: {per_move * 1e6:.0f} µs "
          f"(target: under 200 µs); starting and ending the program: {start_stop * 1e3:.0f} ms a game and seat")
    return 0


if __name__ == "__main__":
    sys.exit(main())
