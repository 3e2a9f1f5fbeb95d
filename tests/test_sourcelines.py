"""SourceLines.add_lines keeps exactly what add would, line by line, whatever the budgets."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from kcref.notation.sourcelines import SourceLines

# (starts a hand?, length of the line) for consecutive lines, some skipped (blank lines are not kept)
steps = st.lists(st.tuples(st.booleans(), st.integers(0, 400), st.integers(1, 3)), max_size=40)


def _state(sources: SourceLines) -> list[tuple[int, int, dict[int, str]]]:
    return [(p.start, p.cost, dict(p.lines)) for p in sources.parts]


@settings(max_examples=200, deadline=None)
@given(steps, st.integers(100, 2000), st.integers(100, 5000))
def test_add_lines_is_add_line_by_line(plan: list[tuple[bool, int, int]], hand_budget: int, total: int) -> None:
    one, many = SourceLines(hand_budget, total), SourceLines(hand_budget, total)
    batch: dict[int, str] = {}
    lineno = 0
    for starts, length, gap in plan:
        lineno += gap
        text = chr(ord("a") + lineno % 26) * length
        if starts:
            many.add_lines(batch)
            batch = {}
            one.hand(lineno)
            many.hand(lineno)
        one.add(lineno, text)
        batch[lineno] = text
    many.add_lines(batch)
    assert _state(many) == _state(one) and many.cost == one.cost
    assert [many.get(n) for n in range(lineno + 2)] == [one.get(n) for n in range(lineno + 2)]
