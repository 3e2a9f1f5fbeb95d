"""The arena's statistics against values worked out by hand, and the SPRT on simulated bots."""

from __future__ import annotations

import math
import random

import pytest

from kcref.scoring.arena_stats import (
    ArenaGame,
    Sprt,
    deal_scores,
    elo,
    entrant_stats,
    expected_score,
    llr,
    mean_interval,
    pairwise,
    wilson,
)


def test_mean_and_its_interval() -> None:
    # 2, 4, 4, 4, 5, 5, 7, 9: mean 5, sample variance 32/7
    e = mean_interval([2, 4, 4, 4, 5, 5, 7, 9])
    half = 1.959963984540054 * math.sqrt(32 / 7) / math.sqrt(8)
    assert e.mean == 5 and e.n == 8
    assert e.low == pytest.approx(5 - half) and e.high == pytest.approx(5 + half)
    assert mean_interval([3]) == (3.0, None, None, 1)


def test_wilson_interval() -> None:
    # 8 of 10, z = 1.96: centre (0.8 + 0.19208) / 1.38416, half 1.96 / 1.38416 * sqrt(0.016 + 0.0096040)
    low, high = wilson(8, 10, z=1.96)
    centre, half = 0.99208 / 1.38416, 1.96 / 1.38416 * math.sqrt(0.025604)
    assert (low, high) == pytest.approx((centre - half, centre + half), abs=1e-12)
    assert (low, high) == pytest.approx((0.49016, 0.94332), abs=1e-5)
    assert wilson(0, 0) == (0.0, 1.0)
    assert wilson(0, 5)[0] == 0.0 and wilson(5, 5)[1] == 1.0


def test_elo_and_expected_score_are_inverse() -> None:
    assert elo(0.5) == 0 and elo(1.0) is None
    assert expected_score(400) == pytest.approx(10 / 11)
    assert elo(expected_score(123.0)) == pytest.approx(123.0)


def game(deal: int, lineup: tuple[int, ...], places: tuple[int, ...], scores: tuple[int, ...] | None = None,
         forfeit: tuple[int, str] | None = None) -> ArenaGame:
    return ArenaGame(deal, lineup, places, scores if scores is not None or forfeit else tuple(places), forfeit)


KNOWN = [
    # deal 1: A ahead in both games; deal 2: one each; deal 3: A behind, then a tie
    game(1, (0, 1), (0, 1), (1, 0)), game(1, (1, 0), (1, 0), (0, 1)),
    game(2, (0, 1), (0, 1), (1, 0)), game(2, (1, 0), (0, 1), (1, 0)),
    game(3, (0, 1), (1, 0), (0, 1)), game(3, (1, 0), (0, 0), (0, 0)),
]


def test_the_duplicate_comparison_of_a_known_set() -> None:
    assert deal_scores(KNOWN, 0, 1) == {1: 1.0, 2: 0.5, 3: 0.25}
    p = pairwise(KNOWN, 0, 1)
    assert (p.won, p.drawn, p.lost) == (1, 1, 1)
    assert p.score.mean == pytest.approx(1.75 / 3)
    assert p.elo == pytest.approx(-400 * math.log10(3 / 1.75 - 1))
    reverse = pairwise(KNOWN, 1, 0)
    assert (reverse.won, reverse.lost) == (1, 1) and reverse.score.mean == pytest.approx(1.25 / 3)


def test_the_bots_of_a_known_set() -> None:
    games = [*KNOWN, game(4, (0, 1), (1, 0), None, forfeit=(0, "TIME"))]
    a, b = entrant_stats(games, ["A", "B"])
    assert (a.games, a.wins, b.wins) == (7, 3, 3)  # the tie of deal 3 is nobody's win
    assert a.score.mean == pytest.approx(3 / 6) and a.score.n == 6  # the forfeited game has no score
    assert a.forfeits == (("TIME", 1),) and b.forfeits == ()
    assert (a.win_low, a.win_high) == pytest.approx(wilson(3, 7))
    assert a.mu != b.mu or a.sigma != b.sigma


def test_the_llr_of_a_two_valued_score_is_the_binomial_one() -> None:
    # Scores of 0 and 1 only: the nearest distribution with mean s is Bernoulli(s), so
    # LLR = n (p log(s1 / s0) + (1 - p) log((1 - s1) / (1 - s0))), p the share of 1s.
    scores = [1.0] * 60 + [0.0] * 40
    s0, s1 = expected_score(0), expected_score(50)
    expected = 60 * math.log(s1 / s0) + 40 * math.log((1 - s1) / (1 - s0))
    assert llr(scores, 0, 50) == pytest.approx(expected, rel=1e-6)


def test_the_sprt_bounds_and_arguments() -> None:
    s = Sprt(0, 10, 0.05, 0.05)
    assert s.lower == pytest.approx(math.log(0.05 / 0.95)) and s.upper == pytest.approx(math.log(0.95 / 0.05))
    assert s.decide([]).accepted is None
    with pytest.raises(ValueError):
        Sprt(10, 0)
    with pytest.raises(ValueError):
        Sprt(0, 10, alpha=0)


@pytest.mark.parametrize(("elo0", "elo1"), [(0, math.inf), (0, 1e308), (math.nan, 10), (-1e6, 0), (0, 2001)])
def test_an_elo_out_of_reach_is_refused(elo0: float, elo1: float) -> None:
    """An expected score of 0 or 1 to the last bit once made ``kcref arena --sprt --elo1 inf``
    end in a ZeroDivisionError (an OverflowError for --elo0 -1e6); each is a bad value."""
    with pytest.raises(ValueError, match="must lie between -2000 and 2000"):
        Sprt(elo0, elo1)


@pytest.mark.parametrize("seen", [{0.0: 3}, {1.0: 5}, {0.5: 2, 1.0: 1}, {0.25: 1}])
def test_the_widest_hypotheses_still_decide(seen: dict[float, int]) -> None:
    assert math.isfinite(Sprt(-2000, 2000).decide_counts(seen).llr)
    assert math.isfinite(Sprt(1999, 2000).decide_counts(seen).llr)


def _run(sprt: Sprt, strength: float, seed: int, most: int = 20000) -> tuple[str | None, int]:
    """Deals of two 2-player games between bots whose expected score per game is ``strength``."""
    rng = random.Random(seed)
    scores: list[float] = []
    while len(scores) < most:
        deal = sum(1.0 if rng.random() < strength else 0.0 for _ in range(2)) / 2
        scores.append(deal)
        if len(scores) % 10 == 0:
            decision = sprt.decide(scores)
            if decision.accepted:
                return decision.accepted, len(scores)
    return None, len(scores)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_sprt_finds_the_stronger_bot_and_the_equal_ones(seed: int) -> None:
    sprt = Sprt(0, 20, 0.05, 0.05)
    assert _run(sprt, expected_score(60), seed)[0] == "H1"
    assert _run(sprt, 0.5, seed)[0] == "H0"
    assert _run(sprt, expected_score(-60), seed)[0] == "H0"
