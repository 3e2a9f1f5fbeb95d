"""kcref: the referee and scorekeeper for Kings in the Corner.

Read a log into events with :func:`read_text` / :func:`read_file`, check it with
:func:`check_text` / :func:`check_file` (the verdict per hand is in ``report.hands``), and play
hands yourself through the engine: :func:`start_hand`, :func:`legal_actions`, :func:`apply`,
:func:`end_turn`. Names are imported lazily so that ``kcref --version`` starts fast.
"""

from __future__ import annotations

import importlib

__version__ = "0.1.0"

_EXPORTS = {
    "check_file": "referee.pipeline", "check_text": "referee.pipeline", "FileReport": "referee.pipeline",
    "read_file": "notation.reader", "read_text": "notation.reader",
    "start_hand": "engine.turns", "begin_turn": "engine.turns", "apply": "engine.turns", "end_turn": "engine.turns",
    "can_end_turn": "engine.turns", "legal_actions": "engine.turns", "declare_blocked": "engine.turns",
    "reveal": "engine.turns", "settle": "engine.turns",
    "IllegalAction": "engine.faults", "Table": "engine.table",
    "deal_from_deck": "engine.dealing", "shuffled_deck": "engine.dealing",
    "referee_hand": "referee.replay", "referee_hands": "referee.replay",
    "HandVerdict": "referee.verdict", "Penalty": "referee.verdict",
    "Options": "model.options", "PRESETS": "model.options", "preset": "model.options",
    "PASS": "model.events", "PlayCard": "model.events", "MovePile": "model.events", "Draw": "model.events", "Pass": "model.events",
    "play_log": "engine.bots", "play_hand": "engine.bots", "BOTS": "engine.bots",
}

__all__ = ["__version__", *_EXPORTS]


def __getattr__(name: str) -> object:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'kcref' has no attribute {name!r}")
    return getattr(importlib.import_module(f".{module}", __name__), name)
