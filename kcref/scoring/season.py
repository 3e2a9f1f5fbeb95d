"""Season statistics per player, from the referee's verdicts: what ``kcref report`` tabulates.

A hand counts when the referee judged it to its end without an error and it is finished
(someone went out, or it is blocked): the hands ``kcref score`` leaves out (errors) or that
never ended are not counted. Per player:

- hands played and won, the win rate, the average number of cards left at the end (the winner's
  none included), the longest run of hands won in a row (hands in the order of the files, only
  the hands the player was in);
- chips won (the pots taken) and paid (ante, penalties and cards left:
  :func:`kcref.referee.hand_score.chips_paid`) in the hands where chips are played;
- in the other hands, the points of the hand's scoring system (:func:`kcref.referee.hand_score.hand_score`):
  won where the highest total wins, paid where the lowest does (penalty points).

Head to head, for each pair of players, the hands both played and how often each finished ahead
of the other (:func:`finishing_ranks`: the one who went out first, then fewer points or cards
left; a tie counts for neither).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from ..referee.hand_score import chips_paid, hand_score
from ..referee.verdict import HandVerdict


def counted(v: HandVerdict) -> bool:
    """The hand counts in the season's statistics: judged to its end without an error, finished."""
    return v.valid and v.finished and not v.errors


def finishing_ranks(v: HandVerdict) -> tuple[int, ...]:
    """Per seat, its place in the hand (0 first; equal places shared): the player who went out
    first, then by the points of the cards left where the scoring system values them and they
    are known, else by how many cards were left (a blocked hand: by its settlement alone)."""
    points = v.points

    def key(seat: int) -> tuple[int, int]:
        if seat == v.winner:
            return (0, 0)
        value = points[seat] if points is not None else None
        return (1, value if value is not None else v.cards_left_count(seat))

    keys = [key(seat) for seat in range(len(v.players))]
    return tuple(sorted(set(keys)).index(k) for k in keys)


@dataclass
class PlayerSeason:
    """One player's statistics over the counted hands."""

    name: str
    hands_played: int = 0
    hands_won: int = 0
    cards_left: int = 0
    """Cards left at the end, summed over the hands played."""
    chips_won: int = 0
    chips_paid: int = 0
    chip_hands: int = 0
    """Hands played with chips."""
    points_won: int = 0
    points_paid: int = 0
    point_hands: int = 0
    """Hands scored in points (not chips)."""
    longest_streak: int = 0
    streak: int = 0
    """Hands won in a row up to now."""

    @property
    def win_rate(self) -> float:
        """Hands won over hands played (0 when none was played)."""
        return self.hands_won / self.hands_played if self.hands_played else 0.0

    @property
    def average_cards_left(self) -> float:
        return self.cards_left / self.hands_played if self.hands_played else 0.0


@dataclass(frozen=True, slots=True)
class HeadToHead:
    """Two players (in order of first appearance) over the counted hands both played."""

    first: str
    second: str
    hands: int
    first_ahead: int
    second_ahead: int


@dataclass
class Season:
    """The statistics of every player of a counted hand, in order of first appearance."""

    players: dict[str, PlayerSeason] = field(default_factory=dict)
    pairs: dict[tuple[str, str], list[int]] = field(default_factory=dict)
    """Per pair (in order of first appearance): hands together, first ahead, second ahead."""
    hands: int = 0
    """Hands counted."""

    def add(self, v: HandVerdict) -> None:
        """Count the hand ``v`` if it counts (see :func:`counted`)."""
        if not counted(v):
            return
        self.hands += 1
        score = hand_score(v).scores
        chips = v.stacks_start is not None and v.stacks_end is not None
        highest = v.options.scoring.highest_wins
        players = self.players
        for seat, name in enumerate(v.players):
            p = players.get(name)
            if p is None:
                p = players[name] = PlayerSeason(name)
            p.hands_played += 1
            p.cards_left += v.cards_left_count(seat)
            if seat == v.winner:
                p.hands_won += 1
                p.streak += 1
                p.longest_streak = max(p.longest_streak, p.streak)
            else:
                p.streak = 0
            if chips:
                p.chip_hands += 1
                p.chips_won += v.pot if seat == v.winner else 0
                p.chips_paid += chips_paid(v, seat) or 0
            elif score is not None:
                p.point_hands += 1
                if highest:
                    p.points_won += score[seat]
                else:
                    p.points_paid += score[seat]
        self._pairs(v)

    def _pairs(self, v: HandVerdict) -> None:
        ranks = finishing_ranks(v)
        order = list(self.players)
        seats = sorted(range(len(v.players)), key=lambda s: order.index(v.players[s]))
        for i, a in enumerate(seats):
            for b in seats[i + 1:]:
                tally = self.pairs.setdefault((v.players[a], v.players[b]), [0, 0, 0])
                tally[0] += 1
                tally[1] += ranks[a] < ranks[b]
                tally[2] += ranks[b] < ranks[a]

    def head_to_head(self) -> tuple[HeadToHead, ...]:
        """Every pair that played a counted hand together."""
        return tuple(HeadToHead(a, b, *tally) for (a, b), tally in self.pairs.items())

    def versus(self, a: str, b: str) -> tuple[int, int, int]:
        """Hands ``a`` and ``b`` played together, how often ``a`` finished ahead, how often ``b`` did."""
        if (a, b) in self.pairs:
            n, x, y = self.pairs[a, b]
            return n, x, y
        if (b, a) in self.pairs:
            n, y, x = self.pairs[b, a]
            return n, x, y
        return 0, 0, 0


def season(verdicts: Iterable[HandVerdict]) -> Season:
    """The statistics of the hands of ``verdicts``, taken in order."""
    s = Season()
    for v in verdicts:
        s.add(v)
    return s
