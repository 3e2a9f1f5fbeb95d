"""The set-up checks' quick path (a hand set up as nearly all are) says nothing only when the
full checks would say nothing, and it does take the hands of real logs."""

from __future__ import annotations

import glob
from functools import cache
from typing import TypeVar

from hypothesis import given, settings
from hypothesis import strategies as st

from kcref.engine.bots import play_log
from kcref.model.cards import DECK, Pile
from kcref.model.events import Assertion, Claim, Deal, Layout, Quantity, Reveal, Turn, Value
from kcref.notation.reader import read_file, read_text
from kcref.referee.grouping import HandRecord, iter_hands
from kcref.referee.setup_checks import _plain, _SetUp


def _records(items: object, path: str) -> list[HandRecord]:
    return [r for r in iter_hands(items, path) if isinstance(r, HandRecord)]  # type: ignore[arg-type]


@cache
def _played(players: int, rules: str) -> tuple[HandRecord, ...]:
    text = "".join(play_log(players, rules, seed=players, hands=4))
    return tuple(_records(read_text(text, "<p>"), "<p>"))


def test_the_hands_of_played_logs_are_plain() -> None:
    for players in (2, 4, 6):
        for rules in ("classic", "commercial"):
            hands = _played(players, rules)
            assert hands and all(_plain(h) for h in hands)


def test_plain_hands_have_nothing_to_say_in_the_test_logs() -> None:
    for path in sorted(glob.glob("tests/**/*.log", recursive=True)):
        for record in _records(read_file(path), path):
            if record.players and _plain(record):
                assert _SetUp(record).run() == [], (path, record.start)


CARDS = st.sampled_from(DECK)


V = TypeVar("V", bound=Value)


def _with(value: V, **changes: object) -> V:
    """``value`` with some of its fields changed (a value's fields are its constructor's parameters)."""
    return type(value)(**{**dict(zip(type(value).__match_args__, value.fields())), **changes})


@st.composite
def mutated_hand(draw: st.DrawFn) -> HandRecord:
    """A played hand with a few of its set-up events changed, dropped, moved or repeated."""
    record = draw(st.sampled_from(_played(draw(st.sampled_from([2, 3, 4])), "classic")))
    events = list(record.events)
    for _ in range(draw(st.integers(1, 3))):
        at = draw(st.integers(0, min(len(events), len(record.players) + 1) - 1 if draw(st.booleans()) else len(events) - 1))
        event = events[at]
        how = draw(st.integers(0, 7))
        if how == 0:
            del events[at]
        elif how == 1:
            events.insert(draw(st.integers(0, len(events))), event)
        elif how == 2:
            events.insert(draw(st.integers(0, len(events))), events.pop(at))
        elif how == 3 and isinstance(event, (Deal, Turn)):
            events[at] = _with(event, player=draw(st.sampled_from(["Ann", "Bob", "Cy", "P1", "P2", "Zed", "ann"])))
        elif how == 4 and isinstance(event, Deal):
            cards = list(event.cards)
            if draw(st.booleans()):
                cards[draw(st.integers(0, len(cards) - 1))] = draw(CARDS)
            else:  # one card fewer, or one more that no one holds yet
                held = {c for e in events if isinstance(e, Deal) for c in e.cards}
                cards = cards[:-1] if draw(st.booleans()) else [*cards, next(c for c in DECK if c not in held)]
            events[at] = _with(event, cards=tuple(cards), cols=())
        elif how == 5 and isinstance(event, Layout):
            piles = list(event.piles)
            seen = {c for e in events for c in (*getattr(e, "cards", ()), *(c for _, c in getattr(e, "piles", ())))}
            card = draw(CARDS) if draw(st.booleans()) else next(c for c in draw(st.permutations(DECK)) if c not in seen)
            entry = (draw(st.sampled_from(list(Pile))), card)
            if draw(st.booleans()):
                piles[draw(st.integers(0, len(piles) - 1))] = entry
            else:
                piles.insert(draw(st.integers(0, len(piles))), entry)
            events[at] = _with(event, piles=tuple(piles), cols=())
        elif how == 6:
            events.insert(at, Reveal("Ann", (draw(CARDS),), event.span))
        else:
            events.insert(at, Assertion(Quantity.SCORE, (Claim("Ann", 1),), event.span))
    return _with(record, events=tuple(events))


@settings(max_examples=300, deadline=None)
@given(mutated_hand())
def test_a_plain_hand_has_nothing_to_say(record: HandRecord) -> None:
    if _plain(record):
        assert _SetUp(record).run() == []
