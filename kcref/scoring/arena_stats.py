"""The statistics of an arena: what its games say about each bot, and how sure that is.

Per entrant: the mean score per hand with a 95% confidence interval (normal approximation,
sample standard deviation), the share of games won with a 95% Wilson score interval, forfeits by
reason, and an openskill rating (:class:`kcref.scoring.ratings.Ratings`, every game one match).
Per pair of entrants, the duplicate comparison: on each deal both played, how often each placed
ahead of the other over the deal's games; a deal is won, drawn or lost by that count.

The sequential test (:class:`Sprt`) is the generalized SPRT that fishtest runs (Michel Van den
Bergh's GSPRT of fishtest's ``LLRcalc.py``): the log-likelihood ratio of the maximum-likelihood
distributions of the per-deal score whose mean is the expected score of ``elo0`` and of
``elo1`` (logistic Elo), stopped at Wald's bounds ``log(beta / (1 - alpha))`` and
``log((1 - beta) / alpha)``. Its unit is the deal, as fishtest's is the game pair: the games
of one deal share its cards and are not independent, so counting each game alone (the
trinomial) would overstate what is known. With two players a deal is two games and its score
takes five values, the pentanomial; with more players, more values; the test is the same.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from .ratings import Ratings

Z95 = 1.959963984540054
"""The standard normal quantile of a two-sided 95% interval."""


# --- one game, as the statistics read it -----------------------------------------------------


@dataclass(frozen=True, slots=True)
class ArenaGame:
    """The result of one game of an arena, by seat."""

    deal: int
    lineup: tuple[int, ...]
    """The entrant at each seat."""
    places: tuple[int, ...]
    """Each seat's place (0 first; equal places shared)."""
    scores: tuple[int, ...] | None
    """Each seat's score in the hand's scoring system; None for a game lost by forfeit."""
    forfeit: tuple[int, str] | None = None
    """The seat that forfeited and why (a reason's name), if one did."""

    def won(self, seat: int) -> bool:
        """The seat placed first, alone."""
        return self.places[seat] == 0 and self.places.count(0) == 1


# --- intervals ---------------------------------------------------------------------------------


class Estimate(NamedTuple):
    """A mean and its 95% confidence interval (None where fewer than two values were seen)."""

    mean: float
    low: float | None
    high: float | None
    n: int


def mean_interval(values: Sequence[float], z: float = Z95) -> Estimate:
    """The mean of ``values`` with its confidence interval, mean +- z s / sqrt(n)."""
    n = len(values)
    if n == 0:
        return Estimate(0.0, None, None, 0)
    mean = math.fsum(values) / n
    if n < 2:
        return Estimate(mean, None, None, n)
    sd = math.sqrt(math.fsum((v - mean) ** 2 for v in values) / (n - 1))
    half = z * sd / math.sqrt(n)
    return Estimate(mean, mean - half, mean + half, n)


def wilson(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion: ``successes`` out of ``n`` (0 to 1 when n is 0)."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z / (1 + z2 / n) * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    return (max(0.0, centre - half), min(1.0, centre + half))


def elo(score: float) -> float | None:
    """The logistic Elo difference that gives the expected ``score`` (0 to 1); None at 0 or 1."""
    if not 0 < score < 1:
        return None
    return -400 * math.log10(1 / score - 1)


def expected_score(elo_difference: float) -> float:
    """The expected score of a logistic Elo difference."""
    return 1 / (1 + 10 ** (-elo_difference / 400))


# --- the duplicate comparison ------------------------------------------------------------------


def deal_scores(games: Iterable[ArenaGame], a: int, b: int) -> dict[int, float]:
    """Per deal where entrants ``a`` and ``b`` met: ``a``'s share of the games placed ahead of
    ``b`` (a tie counts half), 0 to 1."""
    points: dict[int, float] = {}
    count: Counter[int] = Counter()
    for g in games:
        if a not in g.lineup or b not in g.lineup:
            continue
        pa = min(g.places[s] for s, e in enumerate(g.lineup) if e == a)
        pb = min(g.places[s] for s, e in enumerate(g.lineup) if e == b)
        points[g.deal] = points.get(g.deal, 0.0) + (1.0 if pa < pb else 0.5 if pa == pb else 0.0)
        count[g.deal] += 1
    return {deal: points[deal] / count[deal] for deal in sorted(points)}


class Pairwise(NamedTuple):
    """Two entrants on the same deals: deals won, drawn and lost by ``a``, its mean deal score
    with its 95% interval, and the Elo difference that score means."""

    a: int
    b: int
    won: int
    drawn: int
    lost: int
    score: Estimate
    elo: float | None


def pairwise(games: Sequence[ArenaGame], a: int, b: int) -> Pairwise:
    """The duplicate comparison of entrants ``a`` and ``b``."""
    scores = list(deal_scores(games, a, b).values())
    won = sum(s > 0.5 for s in scores)
    lost = sum(s < 0.5 for s in scores)
    estimate = mean_interval(scores)
    return Pairwise(a, b, won, len(scores) - won - lost, lost, estimate, elo(estimate.mean) if scores else None)


# --- the sequential probability ratio test ----------------------------------------------------


def _secular(pdf: Sequence[tuple[float, float]]) -> float:
    """The root x of sum p a / (1 + x a) = 0 with every 1 + x a > 0 (fishtest's ``secular``):
    the sum decreases in x there, so bisection finds it."""
    low = -1 / max(a for a, _ in pdf)
    high = -1 / min(a for a, _ in pdf)

    def f(x: float) -> float:
        return math.fsum(p * a / (1 + x * a) for a, p in pdf)

    lo, hi = low, high
    for _ in range(200):
        mid = (lo + hi) / 2
        if mid in (lo, hi):
            break
        if f(mid) > 0:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def _mle(pdf: Sequence[tuple[float, float]], s: float) -> list[float]:
    """The probabilities, on the values of ``pdf``, of the distribution nearest the empirical
    one (maximum likelihood) whose mean is ``s``."""
    x = _secular([(a - s, p) for a, p in pdf])
    return [p / (1 + x * (a - s)) for a, p in pdf]


def llr(scores: Sequence[float], elo0: float, elo1: float) -> float:
    """The generalized log-likelihood ratio of H1 (Elo ``elo1``) against H0 (``elo0``) for the
    per-deal ``scores`` (0 to 1). Each value seen counts at least 1e-3 times, as fishtest
    regularizes, so that a score never seen still has a likelihood."""
    return llr_of_counts(Counter(scores), elo0, elo1)


def llr_of_counts(seen: Mapping[float, int], elo0: float, elo1: float) -> float:
    """:func:`llr` of the scores counted in ``seen`` (each score to how many deals had it)."""
    counts = dict(seen)
    for end in (0.0, 1.0):
        counts.setdefault(end, 0)
    weights = {v: max(c, 1e-3) for v, c in counts.items()}
    total = math.fsum(weights.values())
    pdf = [(v, w / total) for v, w in sorted(weights.items())]
    p0 = _mle(pdf, expected_score(elo0))
    p1 = _mle(pdf, expected_score(elo1))
    deals = sum(seen.values())
    return deals * math.fsum(p * (math.log(q1) - math.log(q0)) for (_, p), q0, q1 in zip(pdf, p0, p1))


class Decision(NamedTuple):
    """Where a sequential test stands."""

    llr: float
    lower: float
    upper: float
    accepted: str | None
    """``"H0"`` (not better than elo0), ``"H1"`` (elo1 or better) or None: go on."""


MAX_SPRT_ELO = 2000
"""The largest Elo difference a hypothesis of the SPRT may state (an expected score of 99.999%)."""


@dataclass(frozen=True, slots=True)
class Sprt:
    """A GSPRT of H0 (Elo difference ``elo0``) against H1 (``elo1``), with error rates
    ``alpha`` (accepting H1 when H0 holds) and ``beta`` (accepting H0 when H1 holds)."""

    elo0: float = 0.0
    elo1: float = 5.0
    alpha: float = 0.05
    beta: float = 0.05

    def __post_init__(self) -> None:
        if not (0 < self.alpha < 1 and 0 < self.beta < 1):
            raise ValueError("alpha and beta must lie between 0 and 1")
        for name, value in (("elo0", self.elo0), ("elo1", self.elo1)):
            # Past it the expected score is 0 or 1 to the last bit: no distribution of scores
            # between 0 and 1 has that mean, and the test has nothing to weigh.
            if not (math.isfinite(value) and abs(value) <= MAX_SPRT_ELO):
                raise ValueError(f"{name} must lie between -{MAX_SPRT_ELO} and {MAX_SPRT_ELO}, not {value:g}")
        if not self.elo0 < self.elo1:
            raise ValueError("elo1 must be greater than elo0")

    @property
    def lower(self) -> float:
        return math.log(self.beta / (1 - self.alpha))

    @property
    def upper(self) -> float:
        return math.log((1 - self.beta) / self.alpha)

    def decide(self, scores: Sequence[float]) -> Decision:
        """The test after the per-deal ``scores`` of the first entrant against the second."""
        return self.decide_counts(Counter(scores))

    def decide_counts(self, seen: Mapping[float, int]) -> Decision:
        """:meth:`decide` on the scores counted in ``seen`` (score to deals)."""
        value = llr_of_counts(seen, self.elo0, self.elo1) if any(seen.values()) else 0.0
        accepted = "H1" if value >= self.upper else "H0" if value <= self.lower else None
        return Decision(value, self.lower, self.upper, accepted)


# --- the whole arena ---------------------------------------------------------------------------


class EntrantStats(NamedTuple):
    """One entrant's results."""

    entrant: int
    games: int
    score: Estimate
    """Mean score per hand over the games finished without a forfeit."""
    wins: int
    win_low: float
    win_high: float
    forfeits: tuple[tuple[str, int], ...]
    """Forfeits by reason, most first."""
    mu: float
    sigma: float

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma


def entrant_stats(games: Sequence[ArenaGame], names: Sequence[str]) -> tuple[EntrantStats, ...]:
    """Every entrant's results over ``games``, in entrant order (``names``: the entrants')."""
    scores: list[list[float]] = [[] for _ in names]
    played = [0] * len(names)
    wins = [0] * len(names)
    forfeits: list[Counter[str]] = [Counter() for _ in names]
    rater = Ratings()
    for g in games:
        for seat, e in enumerate(g.lineup):
            played[e] += 1
            wins[e] += g.won(seat)
            if g.scores is not None:
                scores[e].append(g.scores[seat])
        if g.forfeit is not None:
            forfeits[g.lineup[g.forfeit[0]]][g.forfeit[1]] += 1
        rater.match([names[e] for e in g.lineup], g.places)
    rated = {r.name: r for r in rater.result()}
    out = []
    for e, name in enumerate(names):
        low, high = wilson(wins[e], played[e])
        r = rated.get(name)
        out.append(EntrantStats(e, played[e], mean_interval(scores[e]), wins[e], low, high,
                                tuple(sorted(forfeits[e].items(), key=lambda kv: (-kv[1], kv[0]))),
                                r.mu if r else 25.0, r.sigma if r else 25 / 3))
    return tuple(out)
