"""kcref: the referee and scorekeeper for Kings in the Corner.

The public API, for bot authors and tools (``dir(kcref)`` lists it):

- reading: :func:`read_text`, :func:`read_file` stream typed events and syntax diagnostics;
- checking: :func:`check_text`, :func:`check_file` give a :class:`FileReport` (its
  ``diagnostics``, and the verdict on each hand in ``hands``); :func:`check_paths` checks many
  files in worker processes; :func:`report_row` and :func:`check_row` give a file's verdict as
  plain JSON data, for distributed engines (docs/scale.md);
- dealing and playing: :func:`deal_from_deck` deals a :class:`Dealt` hand whose ``table`` is
  played with :func:`legal_actions`, :func:`apply`, :func:`can_end_turn`, :func:`end_turn` and
  :func:`settle` (anything the rules forbid raises :class:`IllegalAction`);
- writing: :func:`event_text`, :func:`write_text` write events back as canonical log text;
- refereeing: :func:`referee_hands` replays hands into :class:`HandVerdict` values;
- live judging: a :class:`LiveLog` judges a log as it is written, one line at a time
  (:meth:`LiveLog.feed` gives a :class:`Judgement`; :meth:`LiveLog.undo`), as ``kcref record`` does;
- scoring systems: :data:`SYSTEMS`, one :class:`ScoringSystem` record each;
- bots: :data:`BOTS`, :func:`play_hand`, :func:`play_log` (what ``kcref play`` runs).

Names are imported lazily, on first use, so that ``import kcref`` and ``kcref --version`` start
fast: importing the package loads none of the engine, the parser or the table printer.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from .model.version import VERSION as __version__

_MODULES: dict[str, tuple[str, ...]] = {
    # reading and writing logs
    "notation.reader": ("read_text", "read_file"),
    "notation.writer": ("event_text", "write_text", "write_lines", "Spelling"),
    # checking: the whole pipeline, and its parts
    "referee.pipeline": ("check_text", "check_file", "FileReport", "check_paths", "check_row", "report_row"),
    "referee.replay": ("referee_hand", "referee_hands"),
    "referee.verdict": ("HandVerdict", "Penalty"),
    # judging a log as it is written, line by line (what ``kcref record`` runs)
    "referee.live": ("LiveLog", "Judgement", "Expect", "LogHasErrors"),
    "model.diagnostics": ("Diagnostic",),
    "model.codes": ("Severity",),
    # the engine: a table, and the moves on it
    "engine.turns": ("start_hand", "begin_turn", "legal_actions", "apply", "can_end_turn", "end_turn",
                     "declare_blocked", "reveal", "settle"),
    "engine.faults": ("IllegalAction",),
    "engine.table": ("Table", "Holding"),
    "engine.dealing": ("deal_from_deck", "shuffled_deck", "Dealt"),
    "engine.bots": ("play_log", "play_hand", "play_turn", "Bot", "BOTS"),
    # rule options
    "model.options": ("Options", "PRESETS", "preset", "resolve", "with_scoring"),
    # scoring systems: one record each, in a registry (kcref.model.systems.register adds one)
    "model.systems": ("ScoringSystem", "HandScorer", "ChipPlay", "SYSTEMS"),
    # events: the lines of a log, and the actions of a turn
    "model.events": ("Event", "Tag", "HandStart", "Deal", "Layout", "Turn", "Blocked", "Reveal",
                     "Assertion", "Comment", "Blank", "Span",
                     "Action", "PlayCard", "MovePile", "Draw", "Pass", "PASS"),
    # cards and piles
    "model.cards": ("Card", "Rank", "Suit", "Pile", "DECK", "FOUNDATIONS", "CORNERS", "parse_card",
                    "parse_pile"),
}

_EXPORTS: dict[str, str] = {name: module for module, names in _MODULES.items() for name in names}
"""Each public name and the module (under ``kcref.``) that defines it."""

__all__ = ["__version__", *_EXPORTS]

if TYPE_CHECKING:  # what type checkers see; at run time ``__getattr__`` imports on first use
    from .engine.bots import BOTS as BOTS
    from .engine.bots import Bot as Bot
    from .engine.bots import play_hand as play_hand
    from .engine.bots import play_log as play_log
    from .engine.bots import play_turn as play_turn
    from .engine.dealing import Dealt as Dealt
    from .engine.dealing import deal_from_deck as deal_from_deck
    from .engine.dealing import shuffled_deck as shuffled_deck
    from .engine.faults import IllegalAction as IllegalAction
    from .engine.table import Holding as Holding
    from .engine.table import Table as Table
    from .engine.turns import apply as apply
    from .engine.turns import begin_turn as begin_turn
    from .engine.turns import can_end_turn as can_end_turn
    from .engine.turns import declare_blocked as declare_blocked
    from .engine.turns import end_turn as end_turn
    from .engine.turns import legal_actions as legal_actions
    from .engine.turns import reveal as reveal
    from .engine.turns import settle as settle
    from .engine.turns import start_hand as start_hand
    from .model.cards import CORNERS as CORNERS
    from .model.cards import DECK as DECK
    from .model.cards import FOUNDATIONS as FOUNDATIONS
    from .model.cards import Card as Card
    from .model.cards import Pile as Pile
    from .model.cards import Rank as Rank
    from .model.cards import Suit as Suit
    from .model.cards import parse_card as parse_card
    from .model.cards import parse_pile as parse_pile
    from .model.codes import Severity as Severity
    from .model.diagnostics import Diagnostic as Diagnostic
    from .model.events import PASS as PASS
    from .model.events import Action as Action
    from .model.events import Assertion as Assertion
    from .model.events import Blank as Blank
    from .model.events import Blocked as Blocked
    from .model.events import Comment as Comment
    from .model.events import Deal as Deal
    from .model.events import Draw as Draw
    from .model.events import Event as Event
    from .model.events import HandStart as HandStart
    from .model.events import Layout as Layout
    from .model.events import MovePile as MovePile
    from .model.events import Pass as Pass
    from .model.events import PlayCard as PlayCard
    from .model.events import Reveal as Reveal
    from .model.events import Span as Span
    from .model.events import Tag as Tag
    from .model.events import Turn as Turn
    from .model.options import PRESETS as PRESETS
    from .model.options import Options as Options
    from .model.options import preset as preset
    from .model.options import resolve as resolve
    from .model.options import with_scoring as with_scoring
    from .model.systems import SYSTEMS as SYSTEMS
    from .model.systems import ChipPlay as ChipPlay
    from .model.systems import HandScorer as HandScorer
    from .model.systems import ScoringSystem as ScoringSystem
    from .notation.reader import read_file as read_file
    from .notation.reader import read_text as read_text
    from .notation.writer import Spelling as Spelling
    from .notation.writer import event_text as event_text
    from .notation.writer import write_lines as write_lines
    from .notation.writer import write_text as write_text
    from .referee.live import Expect as Expect
    from .referee.live import Judgement as Judgement
    from .referee.live import LiveLog as LiveLog
    from .referee.live import LogHasErrors as LogHasErrors
    from .referee.pipeline import FileReport as FileReport
    from .referee.pipeline import check_file as check_file
    from .referee.pipeline import check_paths as check_paths
    from .referee.pipeline import check_row as check_row
    from .referee.pipeline import check_text as check_text
    from .referee.pipeline import report_row as report_row
    from .referee.replay import referee_hand as referee_hand
    from .referee.replay import referee_hands as referee_hands
    from .referee.verdict import HandVerdict as HandVerdict
    from .referee.verdict import Penalty as Penalty


def __getattr__(name: str) -> object:
    """Import a public name from its module on first use, and keep it here for the next."""
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'kcref' has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    """The public API, so that ``dir(kcref)`` in a shell shows what there is to use."""
    return sorted(__all__)
