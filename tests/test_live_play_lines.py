"""A play line (turn, blocked, reveal) fed to a ``LiveLog`` is judged alone, against the replay of
the hand so far: what it gives is exactly what judging the whole hand again gives, and what
``kcref check`` gives of the whole text, on generated hands, with an illegal line fed among them."""

from __future__ import annotations

from collections.abc import Iterable
from unittest import mock

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import kcref
from kcref.engine.bots import NAMES
from kcref.model.events import Blocked, Event, Reveal, Turn
from kcref.notation.writer import event_text
from kcref.referee import grouping, live
from kcref.referee.live import Judgement, LiveLog
from kcref.referee.replay import table_at
from kcref.render.table_svg import TableState, state_of
from tests.strategies import actions, cards
from tests.util import ROOT


def _whole(log: LiveLog, line: str) -> Judgement:
    """``line`` fed to ``log``, every line judged with the whole hand again (as before play lines
    were judged alone)."""
    with mock.patch.object(live, "_judge_play", lambda s, event: None):
        return log.feed(line)


def _table(log: LiveLog) -> TableState | None:
    t = log.table
    return None if t is None else state_of(t)


def _replayed_table(log: LiveLog) -> TableState | None:
    """The table of the hand being played, replayed from its start."""
    record = log.record
    if record is None or not record.players:
        return None
    t = table_at(record, None, dict(log._state.carried.stacks), log._state.carried.pot).table
    return None if t is None else state_of(t)


def _where(d: kcref.Diagnostic) -> tuple[int, int, str, str]:
    return d.line, d.column, d.code, d.message


def _errors(diagnostics: Iterable[kcref.Diagnostic]) -> set[tuple[int, int, str, str]]:
    return {_where(d) for d in diagnostics if d.is_error}


@st.composite
def _odd_line(draw: st.DrawFn, names: tuple[str, ...], next_line: str) -> str:
    """A line that is mostly illegal where it is fed: a turn of random actions (by a player, an
    unknown one, a seat tag), a blocked line, a reveal, or the next line by another player."""
    who = st.sampled_from([*names, "Zed", "P6"])
    event: Event = draw(st.one_of(
        st.builds(Turn, who, st.lists(actions, min_size=1, max_size=4).map(tuple)),
        st.builds(Blocked),
        st.builds(Reveal, who, st.lists(cards, min_size=1, max_size=8).map(tuple)),
    ))
    line = event_text(event)
    if next_line.partition(":")[0] in names and draw(st.booleans()):
        line = draw(st.sampled_from(names)) + ":" + next_line.partition(":")[2]
    return line


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_lines_fed_judge_as_the_whole_hand_and_as_check(data: st.DataObject) -> None:
    """Every line of a generated log (its deals kept or not: cards unknown), with an odd line
    fed somewhere among them: each judgement is the one judging the whole hand again gives, the
    log's verdicts, held-back diagnostics and table too; the odd line, refused, has the first
    error ``kcref check`` finds in the log with it, and the log holds what it held; the lines
    before it are all accepted; what the log writes checks with the log's verdicts."""
    players = data.draw(st.integers(2, 6), label="players")
    rules = data.draw(st.sampled_from(["classic", "family", "commercial"]), label="rules")
    seed = data.draw(st.integers(0, 10_000), label="seed")
    bot = data.draw(st.sampled_from(["random", "greedy"]), label="bot")
    text = "".join(kcref.play_log(players, rules, seed=seed, hands=2, bot=bot))
    lines = text.splitlines()
    if data.draw(st.booleans(), label="deals unknown"):
        lines = [line for line in lines if not line.startswith("deal ")]
    at = data.draw(st.sampled_from(range(len(lines) + 1)), label="at")  # mostly within a hand
    odd = data.draw(_odd_line(NAMES[:players], lines[at] if at < len(lines) else ""), label="odd")
    log, whole = LiveLog("t.log"), LiveLog("t.log")
    file = ""
    for index, line in enumerate([*lines[:at], odd, *lines[at:]]):
        before = (file, log.unwritten, log.lines, log.verdict, _table(log))
        judged = log.feed(line)
        assert judged == _whole(whole, line)
        assert (log.verdict, log.held_back, log.finished) == (whole.verdict, whole.held_back, whole.finished)
        assert _table(log) == _table(whole) == _replayed_table(log)
        if index < at:
            assert judged.accepted, judged
        if not judged.accepted:
            assert (file, log.unwritten, log.lines, log.verdict, _table(log)) == before
            if index == at:
                checked = kcref.check_text(file + log.unwritten + "\n" * (judged.line - 1 - before[2]) + odd + "\n",
                                           "t.log")
                held = {_where(d) for d in log.held_back}  # a hand without a layout yet: check says so
                first = next(d for d in checked.diagnostics if d.is_error and _where(d) not in held)
                assert judged.line == first.line
                assert _where(first) in {_where(d) for d in judged.diagnostics}
            continue
        file += judged.written
    checked = kcref.check_text(file + log.unwritten, "t.log")
    assert _errors(checked.diagnostics) == _errors(log.held_back)
    mine = log.report().hands
    assert mine == checked.hands[:len(mine)]
    if not log.unwritten:
        assert [*log.finished, log.verdict] == checked.hands


def test_a_long_hand_s_play_lines_are_judged_alone() -> None:
    """Past the layout, no line of a hand judges the hand again, and the hand is the one
    ``kcref check`` judges."""
    text = "".join(kcref.play_log(2, "commercial", seed=3, hands=1, bot="random"))
    lines = text.splitlines()
    layout = next(i for i, line in enumerate(lines) if line.startswith("layout"))
    log = LiveLog("t.log")
    for line in lines[:layout + 1]:
        assert log.feed(line).accepted
    with mock.patch.object(live, "_judge", side_effect=AssertionError("the hand judged again")):
        for line in lines[layout + 1:]:
            assert log.feed(line).accepted
    assert [log.verdict] == kcref.check_text(text, "t.log").hands


def test_a_hand_too_long_to_referee_is_cut_where_check_cuts_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """The play line that takes a hand past the lines and actions the grouping keeps (KC505,
    made small here) is judged with the whole hand, as check judges it."""
    monkeypatch.setattr(grouping, "MAX_HAND_ITEMS", 60)
    monkeypatch.setattr(live, "MAX_HAND_ITEMS", 60)
    text = "".join(kcref.play_log(2, "commercial", seed=3, hands=2, bot="random"))
    log, whole = LiveLog("t.log"), LiveLog("t.log")
    said = []
    for line in text.splitlines():
        judged = log.feed(line)
        assert judged == _whole(whole, line)
        assert (log.verdict, log.held_back) == (whole.verdict, whole.held_back)
        said += [d.code for d in judged.diagnostics]
    assert said.count("KC505") == 2  # each hand is cut
    assert [*log.finished, log.verdict] == kcref.check_text(text, "t.log").hands


def test_a_reveal_showing_a_card_twice_is_refused_as_check_finds_it() -> None:
    """A reveal judged alone would count a card shown twice as two of the player's cards; the
    set-up checks find it seen twice (KC210), and so does the live log."""
    text = (ROOT / "tests" / "cases" / "rules" / "reveal_twice.log").read_text(encoding="utf-8")
    lines = text.splitlines()
    log = LiveLog("t.log")
    for line in lines[:-1]:
        assert log.feed(line).accepted
    judged = log.feed(lines[-1])
    assert not judged.accepted
    checked = kcref.check_text(text, "t.log")
    assert {_where(d) for d in judged.errors} == _errors(checked.diagnostics)
    assert [d.code for d in judged.errors] == ["KC210"]
