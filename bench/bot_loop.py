"""The library's bot loop, as a bot author writes it: deal, then ask ``legal_actions`` and
``apply`` one at random, ending the turn when the random bot stops, hand after hand. By hand, or
with another build's Python (bench/builds.py runs it under the pure and the compiled build):

    python bench/bot_loop.py [--actions 200000] [--seed 1]

It prints ``actions/s N``: the actions applied per second of CPU time (the deals included).
"""

from __future__ import annotations

import argparse
import random
import time

from kcref.engine.bots import BOTS
from kcref.engine.dealing import deal_from_deck, shuffled_deck
from kcref.engine.turns import apply, can_end_turn, end_turn, legal_actions
from kcref.model.events import PASS
from kcref.model.options import resolve

NAMES = ("Ann", "Bob", "Cy", "Dee")


def random_play(actions: int, seed: int) -> int:
    """Play commercial hands of four at random until ``actions`` actions are applied; how many were."""
    options = resolve("commercial", {})
    rng = random.Random(seed)
    bot = BOTS["random"]
    done = dealer = 0
    while done < actions:
        t = deal_from_deck(options, NAMES, dealer, shuffled_deck(rng)).table
        while not t.over and t.turns < 2000:
            played = 0
            while not t.over:
                action = bot.choose(t, legal_actions(t), can_end_turn(t), rng)
                if action is None:
                    break
                apply(t, action)
                played += 1
            if not played:
                apply(t, PASS)
                played = 1
            done += played
            end_turn(t)
        dealer = (dealer + 1) % len(NAMES)
    return done


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--actions", type=int, default=200_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    start = time.process_time()
    done = random_play(args.actions, args.seed)
    print(f"actions/s {done / (time.process_time() - start):.0f}")


if __name__ == "__main__":
    main()
