"""The reasons a turn is closed: each carries a real, distinct rules-of-play error code."""

from __future__ import annotations

import pytest
from helpers import play, table

from kcref.engine.table import Closed
from kcref.engine.turns import end_turn
from kcref.model.codes import BY_CODE, Severity


@pytest.mark.parametrize("closed", list(Closed), ids=lambda c: c.name)
def test_each_reason_has_a_rules_of_play_error_code(closed: Closed) -> None:
    info = BY_CODE.get(closed.code)
    assert info is not None, f"{closed.code} is not in kcref/model/codes.py"
    assert info.severity is Severity.ERROR and closed.code.startswith("KC3")
    assert closed.message.format(winner="Ann")  # ``{winner}`` is the only field a message may hold


def test_codes_are_distinct() -> None:
    assert len({c.code for c in Closed}) == len(Closed)


def test_a_turn_opens_unclosed_and_the_draw_at_its_end_closes_it() -> None:
    t = table()
    assert t.closed is None
    play(t, "draw", end=False)
    assert t.closed is Closed.DRAWN
    end_turn(t)
    assert t.closed is None
