"""A rating per player across nights, with its uncertainty, from the ``openskill`` library.

Each counted hand (:func:`kcref.scoring.season.counted`) is one match of the Plackett-Luce model
(``openskill.models.PlackettLuce``, default parameters: every player starts at mu 25, sigma
25/3), each player a team of one, ranked by :func:`kcref.scoring.season.finishing_ranks`: the
player who went out first, the others by the points of their cards left, or how many cards they
had left (a blocked hand: by its settlement alone); equal places are ties. Hands are rated in the
order of the files. The ordinal, mu - 3 sigma, is a cautious estimate of skill: it ranks the
table. openskill is imported only here, when ratings are asked for.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, NamedTuple

from ..referee.verdict import HandVerdict
from .season import counted, finishing_ranks

METHOD = ("Plackett-Luce ratings (openskill): each finished hand without errors is one match, players "
          "ranked by who went out, then by the points or number of cards left; everyone starts at "
          "mu 25, sigma 8.33; the ordinal is mu - 3 sigma, and the table is sorted by it.")
"""How the ratings are computed, in words, for the report."""


class Rating(NamedTuple):
    """One player's rating after the hands rated."""

    name: str
    mu: float
    sigma: float
    hands: int

    @property
    def ordinal(self) -> float:
        """mu - 3 sigma: a skill the player very probably has at least."""
        return self.mu - 3 * self.sigma


class Ratings:
    """Every player's rating, updated hand by hand (:meth:`add`), in the order the hands come."""

    def __init__(self) -> None:
        self._model: Any = None
        self._current: dict[str, Any] = {}
        self._hands: dict[str, int] = {}

    def add(self, v: HandVerdict) -> None:
        """Rate the hand ``v``, if it counts (one match; a hand of one player rates nobody)."""
        if not counted(v) or len(v.players) < 2:
            return
        self.match(v.players, finishing_ranks(v))

    def match(self, players: Sequence[str], ranks: Sequence[int]) -> None:
        """Rate one match of ``players`` (each a team of one), placed by ``ranks`` (0 first,
        equal ranks tie)."""
        model = self._model
        if model is None:
            from openskill.models import PlackettLuce

            model = self._model = PlackettLuce()
        current, hands = self._current, self._hands
        teams = [[current.get(name) or model.rating(name=name)] for name in players]
        rated = model.rate(teams, ranks=[float(r) for r in ranks])
        for name, (player,) in zip(players, rated):
            current[name] = player
            hands[name] = hands.get(name, 0) + 1

    def result(self) -> tuple[Rating, ...]:
        """Every player of a counted hand, rated, best ordinal first (then by name)."""
        out = [Rating(name, float(r.mu), float(r.sigma), self._hands[name]) for name, r in self._current.items()]
        return tuple(sorted(out, key=lambda r: (-r.ordinal, r.name.casefold(), r.name)))


def ratings(verdicts: Iterable[HandVerdict]) -> tuple[Rating, ...]:
    """Every player of a counted hand, rated, best ordinal first (then by name)."""
    rater = Ratings()
    for v in verdicts:
        rater.add(v)
    return rater.result()
