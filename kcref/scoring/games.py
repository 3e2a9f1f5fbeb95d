"""Games and running totals: how scored hands are grouped into games, and each player's total
after each hand.

- A game ends after the hand in which a player reaches the ``Target`` (chips and hands won:
  that player's total; stacks: a stack of ``Stack`` plus the chips won in the game; penalty
  systems: anyone's penalty total), or after the agreed number of hands (``Hands``).
- With ``none`` scoring and neither option set, each hand is a game.
- With ``stacks``, a game also ends with the night: the referee starts every file with fresh
  stacks of ``Stack`` chips. Whether a game of stacks is over is the referee's carry's to say
  (:func:`kcref.engine.carry.game_over`): it starts the next game with fresh stacks, and the
  scoreboard ends its game there (:class:`kcref.scoring.standings.Tally`).
- A change of scoring system ends the current game (a change of ``Target`` or ``Hands`` does
  not: the game goes on under the new value).
- Otherwise the game runs on (``dutch`` without ``Hands``): at the end of the files it is still
  in progress, and its leader is named but no win is counted.

Each of these is asked of the scoring system's record (:mod:`kcref.model.systems`): where a
running total opens, which way a game is won, whether it ends with the night or each hand.

A game that is over is won by the best total (highest for none, chips and stacks; lowest for
penalty, pips and dutch) among the players who played every scored hand of it (everyone in it
if nobody did); ties share the win, and each of them counts a game won. Under none, chips and
stacks a game in which nobody won a hand has no winner.
"""

from __future__ import annotations

from array import array
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

from ..model.options import Options
from ..model.systems import ScoringSystem

NO_TOTAL = -(2**63)
"""In :class:`RunningTotals`, a hand the player was not in."""


class Game(NamedTuple):
    """One game: its hands, totals and, once over, its winners."""

    number: int
    scoring: ScoringSystem
    target: int | None
    agreed_hands: int | None
    """The ``Hands`` option in force at the game's last hand."""
    hands: int
    names: tuple[str, ...]
    """The players of the game, in order of first appearance."""
    points: tuple[int, ...]
    """Points in the game per player, in ``names`` order."""
    over: bool
    ended_by: str
    """``target``, ``hands``, ``hand`` (one hand per game), ``night`` (stacks), ``scoring`` (the
    system changed); empty while the game is in progress."""
    best: tuple[str, ...]
    """The winners of a game that is over, the leaders of one in progress (may be empty)."""

    @property
    def totals(self) -> tuple[tuple[str, int], ...]:
        """Points in the game per player, in order of first appearance."""
        return tuple(zip(self.names, self.points))

    def total(self, name: str) -> int:
        return self.points[self.names.index(name)]


@dataclass(frozen=True, slots=True)
class RunningTotals:
    """For one scoring system: each player's running total after each scored hand of that system
    (:data:`NO_TOTAL` for a hand the player was not in), which of those hands ended a game, and
    which began a night."""

    scoring: ScoringSystem
    series: Mapping[str, Sequence[int]]
    """Per player, in order of first appearance."""
    ends: bytes
    """One byte per hand: 1 where the hand ended its game."""
    night_starts: bytes = b""
    """One byte per hand: 1 where the hand is the first of this system's hands in a later night
    (file) than the hand before it."""

    @property
    def hands(self) -> int:
        return len(self.ends)


# --- while the hands come ---------------------------------------------------------------------


@dataclass
class GameSoFar:
    """The game being played: mutated hand by hand while the scoreboard is built."""

    number: int
    scoring: ScoringSystem
    options: Options
    totals: dict[str, int] = field(default_factory=dict)
    played: dict[str, int] = field(default_factory=dict)
    hands: int = 0
    won_any: bool = False
    last_night: int = 0
    """The file of the game's latest hand."""
    last_row: int | None = None
    """The position of the game's latest hand in the rows kept, if they are kept."""

    def add(self, players: Sequence[str], scores: Sequence[int], winner: str | None, options: Options) -> None:
        self.options = options
        self.hands += 1
        self.won_any = self.won_any or winner is not None
        for name, pts in zip(players, scores):
            self.totals[name] = self.totals.get(name, 0) + pts
            self.played[name] = self.played.get(name, 0) + 1

    def end(self) -> str:
        """Why the game is over after its latest hand, or "" if it goes on."""
        o = self.options
        if o.target is not None and self.totals:
            base = self.scoring.opening(o)
            if max(self.totals.values()) + base >= o.target:
                return "target"
        if o.hands is not None and self.hands >= o.hands:
            return "hands"
        if self.scoring.games.each_hand and o.target is None and o.hands is None:
            return "hand"
        return ""

    def best(self) -> tuple[str, ...]:
        """The best totals among those who played every hand (everyone, if nobody did)."""
        if self.scoring.highest_wins and not self.won_any:
            return ()
        eligible = [n for n, k in self.played.items() if k == self.hands] or list(self.played)
        pick = max if self.scoring.highest_wins else min
        best = pick(self.totals[n] for n in eligible)
        return tuple(n for n in eligible if self.totals[n] == best)


class Series:
    """The running totals of one scoring system, hand by hand, as compact arrays."""

    def __init__(self) -> None:
        self.series: dict[str, array[int]] = {}
        self.ends = bytearray()
        self.night_starts = bytearray()
        self._night: int | None = None

    def add(self, players: Sequence[str], totals: Sequence[int], night: int) -> None:
        for name in players:
            if name not in self.series:
                self.series[name] = array("q", [NO_TOTAL]) * len(self.ends)
        now = dict(zip(players, totals))
        for name, values in self.series.items():
            values.append(now.get(name, NO_TOTAL))
        self.ends.append(0)
        self.night_starts.append(self._night is not None and night != self._night)
        self._night = night
