"""Season statistics and ratings on small logs whose answers can be read off the log."""

from __future__ import annotations

import pytest

from kcref.referee.pipeline import check_text
from kcref.referee.verdict import HandVerdict
from kcref.scoring.ratings import ratings
from kcref.scoring.season import finishing_ranks, season
from tests.util import ROOT

ANN_OUT = """\
deal Ann: JH 10C 9D 8S 3S 2H KC
deal Bob: 6D 5S 3H 8H QC 7D AS
layout N:QS E:4H S:9C W:KD
Ann: JH->N; 10C->N; 9D->N; 8S->N; 3S->E; 2H->E; KC->NE  # out
"""
BOB_OUT = """\
deal Ann: QC 10S 4H 3C KH 9S 6D
deal Bob: 7H 6S 5D 4C 10C 9H AS
layout N:8C E:JD S:5S W:2D
Bob: 7H->N; 6S->N; 5D->N; 4C->N; 10C->E; 9H->E; AS->W  # out
"""
SEASON = f"""\
[Players "Ann, Bob"]
[Rules "classic"]

hand 1 dealer Bob
{ANN_OUT}
hand 2 dealer Ann
{BOB_OUT}
hand 3 dealer Ann
{BOB_OUT}
hand 4 dealer Ann
{BOB_OUT.replace("AS->W  # out", "AS->S  # a rule error")}
"""


@pytest.fixture(scope="module")
def verdicts() -> list[HandVerdict]:
    report = check_text(SEASON, "season.log")
    assert report.errors == 1  # hand 4: counted nowhere
    return report.hands


def test_hands_won_rate_cards_left_streak(verdicts: list[HandVerdict]) -> None:
    s = season(verdicts)
    ann, bob = s.players["Ann"], s.players["Bob"]
    assert s.hands == 3
    assert (ann.hands_played, ann.hands_won, ann.cards_left, ann.longest_streak) == (3, 1, 14, 1)
    assert (bob.hands_played, bob.hands_won, bob.cards_left, bob.longest_streak) == (3, 2, 7, 2)
    assert ann.win_rate == pytest.approx(1 / 3) and bob.average_cards_left == pytest.approx(7 / 3)
    assert (ann.points_won, bob.points_won, ann.point_hands) == (1, 2, 3)  # classic: a point a hand won
    assert ann.chip_hands == 0 and ann.points_paid == 0
    assert s.versus("Ann", "Bob") == (3, 1, 2) and s.versus("Bob", "Ann") == (3, 2, 1)
    assert [(h.first, h.second, h.hands) for h in s.head_to_head()] == [("Ann", "Bob", 3)]


def test_chips_won_and_paid() -> None:
    """Hand 1 of the commercial sample: each seat starts with 20 of the 80 chips; the log states
    the pot (16) and every stack after it."""
    report = check_text((ROOT / "samples/commercial-night.log").read_text(encoding="utf-8"))
    s = season(report.hands[:1])
    paid = {name: p.chips_paid for name, p in s.players.items()}
    assert paid == {"Dora": 20 - 17, "Eli": 20 - 35 + 16, "Fran": 20 - 15, "Gus": 20 - 13}
    assert s.players["Eli"].chips_won == 16 and s.players["Dora"].chips_won == 0
    assert s.players["Eli"].point_hands == 0


def test_finishing_ranks_winner_then_cards_left() -> None:
    report = check_text((ROOT / "samples/commercial-night.log").read_text(encoding="utf-8"))
    # Hand 1: Eli out; Dora 2 cards left, Fran 4, Gus 6.
    assert finishing_ranks(report.hands[0]) == (1, 0, 2, 3)


def test_ratings_follow_the_results(verdicts: list[HandVerdict]) -> None:
    rated = {r.name: r for r in ratings(verdicts)}
    assert rated["Bob"].mu > 25 > rated["Ann"].mu
    assert all(r.sigma < 25 / 3 and r.hands == 3 for r in rated.values())
    assert [r.name for r in ratings(verdicts)] == ["Bob", "Ann"]
    assert rated["Bob"].ordinal == pytest.approx(rated["Bob"].mu - 3 * rated["Bob"].sigma)
    assert ratings(verdicts[3:]) == ()  # a hand with an error is not rated
