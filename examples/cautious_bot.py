"""An example bot for kcref: it keeps its Kings for corners and never moves piles.

Run it from the repo root:  python examples/cautious_bot.py [SEED]
It plays one 3-player hand of classic rules against two greedy bots, prints the log, and
checks it with kcref's referee (the log must be clean).

The loop is the whole bot API: deal a hand into a Table, ask `legal_actions` for what the
player whose turn it is may do, `apply` one, and `end_turn` when done. `can_end_turn` says
whether stopping now is allowed; `apply` raises `kcref.IllegalAction` (with a stable `code`)
for anything the rules forbid.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Sequence

import kcref
from kcref import BOTS, Action, Draw, PlayCard, Table, Turn, event_text


class CautiousBot:
    """Plays Kings first, then cards from hand onto piles; never moves a pile; always draws."""

    def choose(self, t: Table, legal: Sequence[Action], can_end: bool, rng: random.Random) -> Action | None:
        plays = [a for a in legal if isinstance(a, PlayCard)]
        plays.sort(key=lambda a: (not a.card.is_king, -a.card.rank))
        if plays:
            return plays[0]
        draws = [a for a in legal if isinstance(a, Draw)]
        if draws:
            return draws[0]
        return None if can_end else (legal[0] if legal else None)


def main(seed: int) -> int:
    rng = random.Random(seed)
    names = ("Ann", "Bob", "Cy")
    bots = {"Ann": CautiousBot(), "Bob": BOTS["greedy"], "Cy": BOTS["greedy"]}
    options = kcref.preset("classic")
    dealt = kcref.deal_from_deck(options, names, dealer=2, deck=kcref.shuffled_deck(rng))
    t = dealt.table
    lines = ['[Players "Ann, Bob, Cy"]', "hand 1 dealer Cy", *(event_text(e) for e in dealt.events())]
    while not t.over:
        seat = t.player
        actions: list[Action] = []
        while not t.over:
            action = bots[t.name].choose(t, kcref.legal_actions(t), kcref.can_end_turn(t), rng)
            if action is None:
                break
            kcref.apply(t, action)
            actions.append(action)
        if not actions:
            kcref.apply(t, kcref.PASS)
            actions.append(kcref.PASS)
        kcref.end_turn(t)
        lines.append(event_text(Turn(names[seat], tuple(actions))))
    if t.blocked:
        lines.append("blocked")
    text = "\n".join(lines) + "\n"
    print(text, end="")
    report = kcref.check_text(text, "cautious.log")
    winner = names[t.winner] if t.winner is not None else "nobody (blocked)"
    print(f"# winner: {winner}; kcref check: {report.errors} errors", file=sys.stderr)
    return 1 if report.errors else 0


if __name__ == "__main__":
    sys.exit(main(int(sys.argv[1]) if len(sys.argv) > 1 else 1))
