"""A hand is judged up to its first line that cannot be judged, never past it, and the referee
never fails on a hand that the set-up checks let through, whatever the options and the lines."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kcref.model.cards import CORNERS, DECK, FOUNDATIONS
from kcref.model.options import OPTION_TAGS, PRESETS_BY_NAME
from kcref.notation.reader import read_text
from kcref.referee.grouping import MAX_HAND_ITEMS, HandRecord
from kcref.referee.pipeline import check_text
from kcref.referee.replay import referee_hands, table_at
from kcref.referee.setup_checks import checked_hands

NAMES = ("Ann", "Bob", "Cy", "Dee")
OPTION_VALUES = {
    "Draw": ["end", "start", "stuck"], "LayoutKings": ["stay", "corner"], "ForcedKings": ["off", "error", "chips"],
    "DrawnKing": ["hand", "place"], "CompletedPiles": ["stay", "remove"],
    "Scoring": ["none", "chips", "stacks", "penalty", "pips", "dutch"], "Target": ["none", "5"],
    "Hands": ["none", "2"], "Chips": ["0", "80"], "Stack": ["0", "3"], "Ante": ["0", "2"],
    "NoPlayChips": ["1"], "MissedDrawChips": ["2"], "KingHeldChips": ["3"], "CardChips": ["1"], "KingChips": ["0", "4"],
}
PILES = [p.value for p in FOUNDATIONS + CORNERS]


def test_every_option_has_values_here() -> None:
    assert set(OPTION_VALUES) == {t.tag for t in OPTION_TAGS}


@st.composite
def hands_to_judge(draw: st.DrawFn) -> str:
    """A log of one or two hands that are mostly well-formed: shuffled deals, a layout, then
    random turns, blocked and reveal lines, so that many pass the set-up checks."""
    rng = random.Random(draw(st.integers(0, 2**32)))
    n = draw(st.integers(2, 4))
    lines = [f'[Players "{", ".join(NAMES[:n])}"]', f'[Rules "{draw(st.sampled_from(sorted(PRESETS_BY_NAME)))}"]']
    for tag in draw(st.lists(st.sampled_from(sorted(OPTION_VALUES)), max_size=4, unique=True)):
        lines.append(f'[{tag} "{draw(st.sampled_from(OPTION_VALUES[tag]))}"]')
    for hand in range(1, draw(st.integers(1, 2)) + 1):
        deck = [str(c) for c in DECK]
        rng.shuffle(deck)
        lines.append(f"hand {hand}")
        for seat in range(n):
            if draw(st.booleans()):
                lines.append(f"deal {NAMES[seat]}: {' '.join(deck.pop() for _ in range(7))}")
        if draw(st.integers(0, 9)):
            entries = [f"{p}:{deck.pop()}" for p in PILES[:4]]
            if draw(st.booleans()):
                entries.append(f"{draw(st.sampled_from(PILES[4:]))}:{deck.pop()}")
            lines.append("layout " + " ".join(entries))
        for _ in range(draw(st.integers(0, 12))):
            kind = draw(st.integers(0, 19))
            if kind == 0:
                lines.append("blocked")
            elif kind == 1:
                lines.append(f"reveal {draw(st.sampled_from(NAMES[:n]))}: "
                             + " ".join(rng.sample([str(c) for c in DECK], draw(st.integers(1, 3)))))
            else:
                acts = []
                for _ in range(draw(st.integers(1, 4))):
                    a = draw(st.integers(0, 4))
                    card = str(rng.choice(DECK))
                    if a <= 1:
                        acts.append(f"{card}->{rng.choice(PILES)}")
                    elif a == 2:
                        acts.append(f"{rng.choice(PILES)}->{rng.choice(PILES)}")
                    elif a == 3:
                        acts.append(draw(st.sampled_from(["draw", f"draw {card}"])))
                    else:
                        acts.append("pass")
                lines.append(f"{draw(st.sampled_from(NAMES[:n] + ('P1',)))}: {'; '.join(acts)}")
    return "\n".join(lines) + "\n"


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hands_to_judge())
def test_the_referee_never_fails_on_a_hand_the_set_up_lets_through(text: str) -> None:
    records = [r for r in checked_hands(read_text(text, "x.log"), "x.log") if isinstance(r, HandRecord)]
    verdicts = list(referee_hands(records))  # must not raise
    for record, verdict in zip(records, verdicts):
        assert verdict.valid <= record.valid
        if record.cut is not None:
            assert verdict.stopped_at is not None and verdict.stopped_at <= record.cut.line
            assert not any(d.line > record.cut.line for d in verdict.diagnostics)
        for line in {e.span.line for e in record.events}:
            table_at(record, line)  # kcref show at any line must not raise either
    check_text(text, "x.log")


def test_blocked_with_no_layout_is_a_set_up_error_not_a_crash() -> None:
    for body in ("blocked", "reveal Ann: 3C", "blocked\nAnn: draw"):
        report = check_text(f'[Players "Ann, Bob"]\nhand\n{body}\n')
        codes = [d.code for d in report.diagnostics]
        assert codes[:2] == ["KC212", "KC504"], codes
        assert not report.hands[0].valid and report.hands[0].stopped_at == 3


def test_a_hand_too_long_to_referee_is_cut_with_a_warning() -> None:
    turns = "Ann: draw\nBob: draw\n" * (MAX_HAND_ITEMS // 3)
    text = f'[Players "Ann, Bob"]\nhand 1\nlayout N:9D E:JS S:3C W:5H\n{turns}'
    report = check_text(text)
    long = [d for d in report.diagnostics if d.code == "KC505"]
    assert len(long) == 1 and long[0].line == 3 + MAX_HAND_ITEMS // 2
    [verdict] = report.hands
    assert not verdict.valid and verdict.stopped_at is not None
    assert len(report.hands) == 1


@st.composite
def edited_games(draw: st.DrawFn) -> str:
    """A game the bots played, then edited by hand: lines dropped, doubled, swapped or with one
    card changed, so that the referee goes deep into hands before meeting the fault."""
    from kcref.engine.bots import play_log

    preset = draw(st.sampled_from(sorted(PRESETS_BY_NAME)))
    overrides = {tag: draw(st.sampled_from(OPTION_VALUES[tag]))
                 for tag in draw(st.lists(st.sampled_from(["Draw", "ForcedKings", "DrawnKing", "LayoutKings",
                                                           "CompletedPiles", "Scoring"]), max_size=2, unique=True))}
    lines = "".join(play_log(draw(st.integers(2, 4)), preset, overrides, seed=draw(st.integers(0, 10_000)),
                             hands=1, bot=draw(st.sampled_from(["random", "greedy"])))).splitlines()
    rng = random.Random(draw(st.integers(0, 2**32)))
    for _ in range(draw(st.integers(0, 3))):
        i = rng.randrange(len(lines))
        edit = draw(st.integers(0, 3))
        if edit == 0:
            del lines[i]
        elif edit == 1:
            lines.insert(i, lines[i])
        elif edit == 2:
            j = rng.randrange(len(lines))
            lines[i], lines[j] = lines[j], lines[i]
        else:
            words = lines[i].split(" ")
            k = rng.randrange(len(words))
            words[k] = rng.choice([str(rng.choice(DECK)), str(rng.choice(DECK)) + "->" + rng.choice(PILES), "draw"])
            lines[i] = " ".join(words)
    return "\n".join(lines) + "\n"


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(edited_games())
def test_the_referee_never_fails_on_an_edited_game(text: str) -> None:
    test_the_referee_never_fails_on_a_hand_the_set_up_lets_through.hypothesis.inner_test(text)  # type: ignore[attr-defined]
