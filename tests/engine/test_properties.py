"""Properties of random games played by a random legal-action bot."""

from __future__ import annotations

import random

from bot import NAMES, action_col, header, play_hand, turn_line
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from logs import read_log

from kcref.engine.faults import IllegalAction
from kcref.engine.table import Table
from kcref.engine.turns import apply, can_end_turn, end_turn, legal_actions
from kcref.model.cards import DECK, Pile
from kcref.model.codes import Severity
from kcref.model.events import PASS, Action, Draw, MovePile, PlayCard
from kcref.model.options import (
    CompletedPiles,
    DrawnKing,
    DrawTime,
    ForcedKings,
    LayoutKings,
    Options,
    with_scoring,
)
from kcref.model.systems import SYSTEMS
from kcref.referee.pipeline import check_text
from kcref.referee.replay import referee_hands

PILES = tuple(Pile)
UNIVERSE: tuple[Action, ...] = (
    *(PlayCard(c, p) for c in DECK for p in PILES),
    *(MovePile(s, d) for s in PILES for d in PILES),
    Draw(None), *(Draw(c) for c in DECK), PASS,
)

options_st = st.builds(
    lambda draw, lk, fk, dk, cp, sc: with_scoring(
        Options(draw=draw, layout_kings=lk, forced_kings=fk, drawn_king=dk, completed=cp), sc),
    st.sampled_from(list(DrawTime)), st.sampled_from(list(LayoutKings)),
    st.sampled_from(list(ForcedKings)), st.sampled_from(list(DrawnKing)),
    st.sampled_from(list(CompletedPiles)), st.sampled_from(list(SYSTEMS.values())),
)
game_st = st.tuples(st.integers(0, 2**32), options_st, st.integers(2, 6))
SETTINGS = settings(max_examples=50, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])


def _play(seed: int, options: Options, n: int, keep: bool = False):
    rng = random.Random(seed)
    played = play_hand(rng, options, NAMES[:n], n - 1, keep=keep)
    text = "\n".join([*header(options, n), "hand 1", *played.lines]) + "\n"
    return played, text


def _accepted(t: Table, action: Action) -> bool:
    try:
        apply(t.copy(), action)
    except IllegalAction:
        return False
    return True


@SETTINGS
@given(game_st)
def test_random_games_replay_clean(game) -> None:
    seed, options, n = game
    played, text = _play(seed, options, n)
    [v] = referee_hands(read_log(text))
    assert not v.errors, list(v.errors)
    assert all(d.severity is not Severity.WARNING or d.code == "KC503" for d in v.diagnostics)
    t = played.table
    assert v.valid and v.finished and (v.winner, v.blocked) == (t.winner, t.blocked)
    assert v.stacks_end == (tuple(t.stacks) if t.stacks is not None else None)
    assert not any(d.code == "KC502" for d in v.diagnostics), "a bot's log is full information"


@SETTINGS
@given(game_st)
def test_chips_and_cards_are_conserved(game) -> None:
    seed, options, n = game
    played, text = _play(seed, options, n, keep=True)
    for _, _, _, snaps in played.turns:
        for t in snaps:
            assert t.card_count() == 52
            assert t.seen | set(t.deck or ()) == set(DECK) and not t.seen & set(t.deck or ())
            if t.stacks is not None:
                assert sum(t.stacks) + t.pot == sum(snaps[0].stacks) + snaps[0].pot
    [v] = referee_hands(read_log(text))
    if v.stacks_start is not None:
        assert sum(v.stacks_start) + v.pot_start == sum(v.stacks_end) + v.pot_left


@SETTINGS
@given(game_st, st.randoms(use_true_random=False))
def test_legal_actions_are_exactly_the_accepted_ones(game, rnd) -> None:
    seed, options, n = game
    played, _ = _play(seed, options, n, keep=True)
    snaps = [t for _, _, _, ts in played.turns for t in ts]
    for t in rnd.sample(snaps, min(4, len(snaps))):
        legal = set(legal_actions(t))
        top = t.deck[-1] if t.deck else None
        for action in UNIVERSE:
            expected = action in legal or (action == Draw(None) and Draw(top) in legal)
            assert _accepted(t, action) == expected, (action, t)
        ended = t.copy()
        try:
            end_turn(ended)
            ok = True
        except IllegalAction:
            ok = False
        assert ok == can_end_turn(t) or t.blocked


@SETTINGS
@given(game_st, st.randoms(use_true_random=False))
def test_an_injected_illegal_action_is_caught_exactly_there(game, rnd) -> None:
    seed, options, n = game
    played, _ = _play(seed, options, n, keep=True)
    k = rnd.randrange(len(played.turns))
    line_index, seat, actions, snaps = played.turns[k]
    j = rnd.randrange(len(snaps))
    t = snaps[j]
    # A written draw of an unseen card cannot be told from the real one without the deck order.
    candidates = [a for a in UNIVERSE if not (type(a) is Draw and a.card is not None and a.card not in t.seen)
                  and not _accepted(t, a)]
    bad = rnd.choice(candidates)
    changed = [*actions[:j], bad, *actions[j + 1:]]
    lines = list(played.lines)
    lines[line_index] = turn_line(NAMES[seat], changed)
    del lines[line_index + 1:]
    text = "\n".join([*header(played.table.options, n), "hand 1", *lines]) + "\n"
    # The whole check: some faults (a card drawn twice) are caught by the set-up checks first.
    report = check_text(text, "injected.log")
    errors = [d for d in report.diagnostics if d.is_error]
    head = len(header(played.table.options, n)) + 1
    expected = [(head + line_index + 1, action_col(NAMES[seat], changed, j))]
    assert [(d.line, d.column) for d in errors] == expected, (bad, [d.message for d in errors])
