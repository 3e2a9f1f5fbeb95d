"""A random legal-action bot for the engine tests: it plays whole hands through
``legal_actions``/``apply``/``end_turn`` and writes them as a log."""

from __future__ import annotations

import enum
import random
from collections.abc import Sequence
from typing import NamedTuple

from kcref.engine.dealing import deal_from_deck, shuffled_deck
from kcref.engine.table import Table
from kcref.engine.turns import apply, can_end_turn, end_turn, legal_actions, settle
from kcref.model.events import PASS, Action, Draw
from kcref.model.options import OPTION_TAGS, PRESETS_BY_NAME, Options

NAMES = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay")


def option_tags(options: Options) -> list[str]:
    """Tags that set every option of ``options`` explicitly (on top of the classic preset)."""
    lines = []
    for tag in OPTION_TAGS:
        value = getattr(options, tag.field)
        text = "none" if value is None else value.value if isinstance(value, enum.Enum) else str(value)
        lines.append(f'[{tag.tag} "{text}"]')
    return lines


def play_turn(t: Table, rng: random.Random, stop: float = 0.15,
              snapshots: list[Table] | None = None) -> list[Action]:
    """One turn of random legal actions (ended by the bot, or by the rules). With
    ``snapshots``, a copy of the table before each action (and after the last) is kept."""
    actions: list[Action] = []
    while not t.over:
        if snapshots is not None:
            snapshots.append(t.copy())
        legal = legal_actions(t)
        can_end = can_end_turn(t)
        if not legal:
            assert can_end, f"no legal action and the turn cannot end: {t!r}"
            break
        if can_end and rng.random() < stop:
            draws = [a for a in legal if type(a) is Draw]
            if draws and rng.random() < 0.9:  # mostly draw rather than pay for skipping it
                apply(t, draws[0])
                actions.append(draws[0])
                continue
            break
        action = rng.choice(legal)
        apply(t, action)
        actions.append(action)
    if not actions:
        apply(t, PASS)
        actions.append(PASS)
    if snapshots is not None:
        del snapshots[len(actions):]
        snapshots.append(t.copy())
    return actions


class Played(NamedTuple):
    lines: list[str]
    """The hand's lines after its ``hand`` line."""
    table: Table
    turns: list[tuple[int, int, list[Action], list[Table]]]
    """Per turn: its index in ``lines``, the seat, its actions, and the snapshots (if kept)."""


def play_hand(rng: random.Random, options: Options, names: Sequence[str], dealer: int,
              max_turns: int = 600, keep: bool = False, **kw) -> Played:
    """Play one hand at random; return its lines (deal, layout, turns) and the final table."""
    dealt = deal_from_deck(options, names, dealer, shuffled_deck(rng), **kw)
    t = dealt.table
    lines = [f"deal {names[s]}: {' '.join(map(str, cards))}" for s, cards in enumerate(dealt.deals)]
    lines.append("layout " + " ".join(f"{p}:{c}" for p, c in dealt.layout))
    turns = []
    while not t.over and t.turns < max_turns:
        seat = t.player
        snaps: list[Table] | None = [] if keep else None
        actions = play_turn(t, rng, snapshots=snaps)
        end_turn(t)
        turns.append((len(lines), seat, actions, snaps or []))
        lines.append(turn_line(names[seat], actions))
    if t.blocked:
        lines.append("blocked")
    settle(t)
    return Played(lines, t, turns)


def turn_line(name: str, actions: Sequence[Action]) -> str:
    return f"{name}: " + "; ".join(map(str, actions))


def action_col(name: str, actions: Sequence[Action], j: int) -> int:
    """The 1-based column of action ``j`` in ``turn_line(name, actions)``."""
    return len(name) + 3 + sum(len(str(a)) + 2 for a in actions[:j])


def header(options: Options, n: int) -> list[str]:
    return [f'[Players "{", ".join(NAMES[:n])}"]', *option_tags(options)]


def game_log(rng: random.Random, options: Options, n: int, hands: int = 1) -> str:
    """A log of ``hands`` random hands between ``n`` players under ``options``."""
    names = NAMES[:n]
    out = header(options, n)
    dealer = n - 1
    for h in range(hands):
        out.append(f"hand {h + 1} dealer {names[dealer]}")
        out.extend(play_hand(rng, options, names, dealer).lines)
        dealer = (dealer + 1) % n
    return "\n".join(out) + "\n"


PRESET_OPTIONS = {name: p.options for name, p in PRESETS_BY_NAME.items()}
