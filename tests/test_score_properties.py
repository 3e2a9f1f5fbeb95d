"""Properties of `kcref score` on random valid games played by the engine's random bot."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kcref.apps.score import score_reports
from kcref.model.options import Options, preset, with_scoring
from kcref.model.status import ExitStatus
from kcref.model.systems import NONE, PENALTY, STACKS, SYSTEMS, ScoringSystem
from kcref.referee.hand_score import hand_score
from kcref.referee.pipeline import FileReport, check_text
from kcref.scoring.standings import Scoreboard, scoreboard
from tests.engine.bot import game_log

SETTINGS = settings(max_examples=30, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
# Stacks are left out on purpose: the referee gives every night fresh stacks, so a stacks game
# ends with its night (tests/cases/score/stacks_nights shows it).
SPANNING = [s for s in SYSTEMS.values() if s is not STACKS]


@st.composite
def scoring_options(draw: st.DrawFn, systems: list[ScoringSystem] = SPANNING) -> Options:
    """A scoring system with a small Target or Hands, so that games end now and then."""
    scoring = draw(st.sampled_from(systems))
    base = with_scoring(preset(draw(st.sampled_from(["classic", "commercial", "family"]))), scoring)
    target = draw(st.sampled_from([None, base.target, 2, 20, 40]))
    hands = draw(st.sampled_from([None, None, 2, 3]))
    return base._replace(target=target, hands=hands)


def split(text: str, cuts: set[int]) -> list[str]:
    """The same log as several files: each repeats the header and holds a run of its hands."""
    header, _, rest = text.partition("\nhand ")
    hands = ["hand " + h for h in rest.split("\nhand ")]
    pieces: list[list[str]] = [[]]
    for i, h in enumerate(hands):
        if i in cuts and pieces[-1]:
            pieces.append([])
        pieces[-1].append(h)
    return [header + "\n" + "\n".join(p) for p in pieces]


def summary(board: Scoreboard) -> tuple[object, ...]:
    """What must not depend on how the hands are shared out among files."""
    return (board.standings, board.games, [(r.status, r.scores, r.totals, r.game, r.game_over) for r in board.rows])


def reports(texts: list[str]) -> list[FileReport]:
    return [check_text(t, f"night{i}.log") for i, t in enumerate(texts)]


@SETTINGS
@given(st.integers(0, 2**32), scoring_options(), st.integers(2, 4), st.integers(2, 8), st.sets(st.integers(1, 7)))
def test_totals_do_not_depend_on_how_hands_are_split_into_files(seed: int, options: Options, players: int,
                                                                  hands: int, cuts: set[int]) -> None:
    text = game_log(random.Random(seed), options, players, hands)
    whole = reports([text])
    parts = reports(split(text, cuts))
    assert sum(len(r.hands) for r in parts) == hands
    assert not any(r.errors for r in whole + parts)
    assert summary(scoreboard(whole)) == summary(scoreboard(parts))


@SETTINGS
@given(st.integers(0, 2**32), scoring_options(list(SYSTEMS.values())), st.integers(2, 5), st.integers(1, 6))
def test_standings_add_up(seed: int, options: Options, players: int, hands: int) -> None:
    """Points are the sum of the scored hands; hands won and games won are counted once each."""
    report = check_text(game_log(random.Random(seed), options, players, hands), "night.log")
    result = score_reports([report], fmt="json")
    assert result.status == ExitStatus.OK and result.board is not None
    board = result.board
    scored = [v for v in report.hands if hand_score(v).scored]
    assert len(board.scored) == len(scored)
    for s in board.standings:
        mine = [(v, v.players.index(s.name)) for v in scored if s.name in v.players]
        assert s.hands_played == len(mine)
        assert s.hands_won == sum(1 for v, seat in mine if v.winner == seat)
        assert dict(s.points) == {options.scoring: sum(hand_score(v).scores[seat] for v, seat in mine)}
        assert s.games_won == sum(1 for g in board.games if g.over and s.name in g.best)
    assert [s.rank for s in board.standings] == sorted(s.rank for s in board.standings)
    assert sum(g.hands for g in board.games) == len(board.scored)
    for g in board.games:
        rows = [r for r in board.scored if r.game == g.number]
        summed: dict[str, int] = {}
        for r in rows:
            for name, pts in zip(r.players, r.scores or ()):
                summed[name] = summed.get(name, 0) + pts
        assert dict(g.totals) == summed == dict(zip(rows[-1].players, rows[-1].game_totals or ())) | {
            n: p for n, p in summed.items() if n not in rows[-1].players}
        assert [r.game_over for r in rows] == [False] * (len(rows) - 1) + [g.over]
    assert all(g.over for g in board.games[:-1])
    if options.scoring is NONE and options.target is None and options.hands is None:
        assert all(g.hands == 1 for g in board.games)


def test_split_keeps_every_hand() -> None:
    text = game_log(random.Random(3), with_scoring(preset("classic"), PENALTY), 2, 4)
    pieces = split(text, {1, 3})
    assert len(pieces) == 3
    assert all(p.startswith('[Players "Ann, Bob"]') for p in pieces)
    assert sum(p.count("\nhand ") + p.startswith("hand ") for p in pieces) == 4
    assert [r.index for r in scoreboard(reports(pieces)).rows] == [1, 1, 2, 1]
