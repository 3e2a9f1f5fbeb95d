"""A bot for `kcref arena` in plain Python, with no kcref import: it speaks the JSON-lines
protocol of docs/bot-protocol.md on standard input and output.

    kcref arena greedy 'exec:python examples/protocol_bot.py' --deals 50

It plays a King to a corner when it can, else the card that goes on the pile holding the most
cards, else draws, else ends its turn. Anything it wants to say goes to standard error, which
the arena keeps per game.
"""

from __future__ import annotations

import json
import sys

PROTOCOL = 1


def choose(move: dict) -> str | None:
    """The action to take, as the move's legal actions write it, or None to end the turn."""
    legal = move["legal"]
    piles = move["piles"]
    plays = [a for a in legal if "->" in a and a.split("->")[0][-1] in "SHDC"]
    kings = [a for a in plays if a.startswith("K") and a.split("->")[1] in ("NE", "NW", "SE", "SW")]
    if kings:
        return kings[0]
    if plays:
        return max(plays, key=lambda a: (len(piles.get(a.split("->")[1], [])), a))
    draws = [a for a in legal if a.startswith("draw")]
    if draws:
        return draws[0]
    if move["can_end"]:
        return None
    return legal[0] if legal else None


SAMPLE = {"type": "move", "seat": 0, "player": 0, "hand": ["KS", "8H", "3C"], "hand_sizes": [3, 5],
          "piles": {"N": ["9S"], "E": ["4D"], "S": ["QC"], "W": ["2H"]}, "stock": 30,
          "legal": ["KS->NE", "8H->N", "draw"], "can_end": False}
"""A move as the arena sends it, answered when the bot is run by hand (no hello on its input)."""


def main() -> int:
    greeted = False
    for line in [] if sys.stdin.isatty() else sys.stdin:
        message = json.loads(line)
        kind = message.get("type")
        if kind == "hello":
            greeted = True
            if message.get("protocol") != PROTOCOL:
                print(f"protocol {message.get('protocol')} is not mine", file=sys.stderr)
                return 1
            answer: dict = {"type": "ready", "name": "protocol-bot", "protocol": PROTOCOL}
        elif kind == "move":
            answer = {"type": "action", "action": choose(message)}
        elif kind == "quit":
            return 0
        else:
            continue
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()
    if not greeted:
        print(json.dumps({"type": "action", "action": choose(SAMPLE)}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
