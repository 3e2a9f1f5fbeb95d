"""Tally: hands whose players and options are equal but not the same objects are counted together."""

from __future__ import annotations

from typing import Any, NamedTuple

from kcref.model.options import preset
from kcref.scoring.standings import SCORED, Judged, Tally


class _Verdict(NamedTuple):
    """What Tally.add reads of a verdict."""

    players: tuple[str, ...]
    options: Any
    rules: str
    path: str = "night.log"
    index: int = 1
    number: int | None = None
    winner_name: str | None = "Ann"
    blocked: bool = False
    valid: bool = True
    stacks_end: tuple[int, ...] | None = None
    pot_left: int = 0


def test_rule_sets_and_players_counted_by_value_not_by_object() -> None:
    classic = preset("classic")
    twin = classic._replace()  # equal, another object
    other = classic._replace(target=3)
    assert twin == classic and twin is not classic and other != classic
    tally = Tally(keep_rows=True, keep_running=False)
    names = ["Ann", "Bob"]
    hands = [(("Ann", "Bob"), classic), (tuple(names), twin), (("Ann", "Bob"), other),
             (("Ann", "Bob"), twin), (("Ann", "Bob"), classic)]
    for i, (players, options) in enumerate(hands, 1):
        tally.add(_Verdict(players, options, "classic", index=i), i, Judged(SCORED, "", (1, 0)))  # type: ignore[arg-type]
    tally.end_night("night.log", (), len(hands))
    board = tally.finish()
    assert [(rs.options, rs.hands) for rs in board.rule_sets] == [(classic, 4), (other, 1)]
    assert [(s.name, s.hands_played, s.hands_won) for s in board.standings] == [("Ann", 5, 5), ("Bob", 5, 0)]
    assert [row.totals for row in board.rows] == [(i, 0) for i in range(1, 6)]
