"""Duplicate deals: the same deal played once per turn of the seats, so that every entrant of
an arena plays every seat of every deal exactly once, and luck of the cards evens out.

Entrants are numbered 0 to ``entrants - 1``; a table has ``players`` seats, no more than there
are entrants. Game ``r`` of a deal (its rotation, 0 to ``entrants - 1``) seats entrant
``(r + s) % entrants`` at seat ``s``: over the deal's games each entrant sits at each seat once.

A deal's deck and each game's own random generator come from the arena's seed alone, through
SHA-256 (never Python's ``hash``), so they are the same on any machine, in any worker, in any
order the games are played.
"""

from __future__ import annotations

import hashlib
import random
from typing import NamedTuple

from ..model.cards import Card
from .dealing import shuffled_deck


class Seating(NamedTuple):
    """One game of an arena: which deal, which turn of the seats, who sits where."""

    deal: int
    """1-based."""
    rotation: int
    """0-based: the game's place among the deal's games."""
    lineup: tuple[int, ...]
    """The entrant at each seat."""


def seatings(entrants: int, players: int, deal: int) -> tuple[Seating, ...]:
    """The games of ``deal``: one per rotation of the seats, ``entrants`` of them."""
    if not 2 <= players <= entrants:
        raise ValueError(f"a table of {players} needs from 2 to {entrants} seats")
    return tuple(Seating(deal, r, tuple((r + s) % entrants for s in range(players))) for r in range(entrants))


def _derived(seed: int, *parts: int) -> random.Random:
    text = " ".join(map(str, ("kcref-arena", seed, *parts)))
    return random.Random(int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big"))


def deal_deck(seed: int, deal: int) -> list[Card]:
    """The deck of ``deal`` in an arena seeded with ``seed``: the same for all its games."""
    return shuffled_deck(_derived(seed, deal))


def game_rng(seed: int, deal: int, rotation: int) -> random.Random:
    """The random generator the bots of one game share (a bot's own choices, never the deck)."""
    return _derived(seed, deal, rotation, 1)
