"""The bots an arena plays, as a command line names them.

A bot is named by one of:

- a built-in bot's name (``greedy``, ``random``: :data:`kcref.engine.bots.BOTS`), or the name of
  a bot another package installs in the entry-point group ``kcref.bots``;
- ``FILE.py:Class`` or ``module:Class``: a Python class whose instances are seat bots
  (:class:`kcref.engine.seats.SeatBot`); each game gets a fresh instance;
- ``exec:COMMAND``: a program of any language speaking the JSON-lines protocol
  (:mod:`kcref.apps.arena.protocol`); each game starts it afresh, once per seat it plays.

Each entrant also gets a player name for the logs, made from what names it (``Greedy``,
``Cautious``, ``mybot``), unique in the arena.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import re
import shlex
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any

from ...engine.bots import BOTS
from ...engine.seats import SeatBot
from ...notation.lexicon import KEYWORDS
from ...notation.reader import is_name

ENTRY_POINT_GROUP = "kcref.bots"
EXEC = "exec:"


class BadBot(ValueError):
    """A bot's name that names no bot, or a bot that cannot be loaded."""


@dataclass(frozen=True, slots=True)
class Entrant:
    """One bot of an arena: how the command line named it, and its player name in the logs."""

    spec: str
    name: str

    @property
    def command(self) -> tuple[str, ...] | None:
        """The program and its arguments of an ``exec:`` bot; None for a Python bot."""
        if not self.spec.startswith(EXEC):
            return None
        return tuple(shlex.split(self.spec[len(EXEC):]))


def _label(spec: str) -> str:
    if spec.startswith(EXEC):
        words = shlex.split(spec[len(EXEC):])
        if not words:
            raise BadBot(f"{spec!r} names no program")
        # The script an interpreter runs names the bot better than the interpreter does.
        named = [w for w in words[1:] if not w.startswith("-") and Path(w).suffix]
        return Path((named or words)[0]).stem
    if ":" in spec:
        return spec.rsplit(":", 1)[1]
    return spec[:1].upper() + spec[1:]


def _player_name(label: str, taken: set[str]) -> str:
    """``label`` as a usable player name (letters, digits, _ ' . -), not a keyword nor a seat
    tag, and not ``taken``."""
    word = re.sub(r"[^\w'.\-]+", "-", label).strip("-")[:24] or "Bot"
    if not is_name(word) or word.lower() in KEYWORDS or re.fullmatch(r"[Pp][1-6]", word):
        word = f"Bot-{word}" if is_name(f"Bot-{word}") else "Bot"
    name, n = word, 1
    while name in taken:
        n += 1
        name = f"{word}-{n}"
    taken.add(name)
    return name


def entrants(specs: Sequence[str], players: int) -> tuple[Entrant, ...]:
    """The entrants for ``specs``; with fewer bots than seats, the bots are repeated in order
    until every seat has an entrant of its own. Raises :class:`BadBot` for a name that is not
    a bot's (the bots themselves are loaded in each game)."""
    if len(specs) < 2:
        raise BadBot("an arena needs at least two bots")
    for spec in specs:
        seat_bot_factory(spec)
    lineup = [specs[i % len(specs)] for i in range(max(players, len(specs)))]
    taken: set[str] = set()
    return tuple(Entrant(spec, _player_name(_label(spec), taken)) for spec in lineup)


# --- Python bots -------------------------------------------------------------------------------


_loaded: dict[str, Callable[[], SeatBot]] = {}
"""Bot factories by name, loaded once per process."""


def seat_bot_factory(spec: str) -> Callable[[], SeatBot]:
    """What makes a fresh seat bot for the Python bot ``spec`` (for ``exec:``, a check of the
    command alone: :mod:`kcref.apps.arena.protocol` starts it)."""
    found = _loaded.get(spec)
    if found is None:
        found = _loaded[spec] = _load(spec)
    return found


def _exec_placeholder() -> SeatBot:
    raise BadBot("an exec: bot is started by the protocol, not made here")


def _load(spec: str) -> Callable[[], SeatBot]:
    if spec.startswith(EXEC):
        if not shlex.split(spec[len(EXEC):]):
            raise BadBot(f"{spec!r} names no program")
        return _exec_placeholder
    if spec in BOTS:
        return _factory(spec, type(BOTS[spec]))
    if ":" in spec:
        where, _, attribute = spec.rpartition(":")
        return _factory(spec, getattr(_module(where), attribute, None))
    found = [ep for ep in entry_points(group=ENTRY_POINT_GROUP) if ep.name == spec]
    if found:
        try:
            return _factory(spec, found[0].load())
        except Exception as exc:
            raise BadBot(f"the bot {spec!r} of {found[0].value} cannot be loaded: {exc}") from None
    raise BadBot(f"no bot named {spec!r}: name a built-in bot ({', '.join(BOTS)}), FILE.py:Class, "
                 f"module:Class, an installed bot of the group {ENTRY_POINT_GROUP}, or exec:COMMAND")


def _factory(spec: str, made: Any) -> Callable[[], SeatBot]:
    if callable(made):
        def fresh() -> SeatBot:
            bot = made()
            if not callable(getattr(bot, "choose", None)):
                raise BadBot(f"{spec!r} made an object without a choose method")
            return bot  # type: ignore[no-any-return]

        return fresh
    raise BadBot(f"{spec!r} is not a class")


def _module(where: str) -> Any:
    try:
        if where.endswith(".py"):
            path = Path(where).resolve()
            name = "kcref_arena_bot_" + hashlib.sha256(str(path).encode()).hexdigest()[:16]
            if name in sys.modules:
                return sys.modules[name]
            spec = importlib.util.spec_from_file_location(name, path)
            if spec is None or spec.loader is None:
                raise BadBot(f"{where} cannot be loaded as a Python file")
            module = importlib.util.module_from_spec(spec)
            sys.modules[name] = module
            try:
                spec.loader.exec_module(module)
            except BaseException:
                del sys.modules[name]
                raise
            return module
        return importlib.import_module(where)
    except BadBot:
        raise
    except Exception as exc:
        raise BadBot(f"{where} cannot be loaded: {type(exc).__name__}: {exc}") from None
