"""Checks of one hand that need no replay: players, deals, layout, cards seen twice (KC205-KC215)."""

from __future__ import annotations

from typing import Iterable, Iterator

from ..model.cards import FOUNDATIONS, HAND_SIZE, Card
from ..model.diagnostics import Diagnostic, diagnostic
from ..model.events import Blocked, Deal, Draw, Layout, Reveal, Span, Tag, Turn
from ..notation.reader import Item
from .grouping import Cut, HandRecord, iter_hands, unknown_player

PLAY_LINES: dict[type, str] = {Turn: "a turn", Reveal: "a reveal", Blocked: "a blocked line"}
"""The lines that need the layout on the table, as a message names them."""


def check_hand(record: HandRecord, previous_number: int | None = None) -> tuple[HandRecord, list[Diagnostic]]:
    """Check a hand's set-up; return the record, cut at its first error, and the diagnostics."""
    diags = list(_problems(record, previous_number))
    errors = [d for d in diags if d.is_error]
    if errors:
        first = min(errors, key=lambda d: (d.line, d.column))
        record = record.with_cut(Cut(first.line, first.column, first.code))
    return record, diags


def checked_hands(items: Iterable[Item], path: str) -> Iterator[HandRecord | Diagnostic | Tag]:
    """:func:`~kcref.hands.iter_hands` with each hand's set-up checked: a hand's set-up
    diagnostics come just before the hand, which is cut at the first of them that is an error."""
    previous_number: int | None = None
    for item in iter_hands(items, path):
        if isinstance(item, HandRecord):
            record, diags = check_hand(item, previous_number)
            previous_number = record.number
            yield from diags
            yield record
        else:
            yield item


def _problems(record: HandRecord, previous_number: int | None) -> Iterator[Diagnostic]:
    path = record.path
    start = record.start
    if start.number is not None and previous_number is not None and start.number != previous_number + 1:
        yield diagnostic(path, start.span.line, start.span.col, "KC214",
                         f"hand {start.number} follows hand {previous_number}; expected hand {previous_number + 1}")
    if not record.players:
        return  # KC201/KC202.. already said why; nothing here can be resolved
    # card -> (seat or None, how it was first seen, line); the words are built only for a message
    seen: dict[Card, tuple[int | None, str, int]] = {}
    dealt: dict[int, Span] = {}
    layouts = 0
    turned = False
    early = False  # a play line came before the layout (KC212), so KC215 would repeat it

    def see(card: Card, seat: int | None, what: str, line: int, col: int, reveal: bool = False) -> Diagnostic | None:
        first = seen.get(card)
        if first is None:
            seen[card] = (seat, what, line)
            return None
        # A reveal shows cards its player still holds: some may be ones they were dealt or drew.
        if reveal and first[0] == seat:
            return None
        return diagnostic(path, line, col, "KC210",
                          f"{card} appears twice in this hand: it was already {first[1]} at line {first[2]}")

    seat = -1
    for event in record.events:
        at = event.span
        if isinstance(event, (Deal, Turn, Reveal)):
            found = record.seat(event.player)
            if found is None:
                col = event.player_col or at.col if isinstance(event, (Deal, Reveal)) else at.col
                yield unknown_player(event.player, record.players, Span(at.path, at.line, col))
                continue
            seat = found
            who = record.players[seat]
        if layouts == 0 and not turned and type(event) in PLAY_LINES:
            early = True
            yield diagnostic(path, at.line, at.col, "KC212", f"{PLAY_LINES[type(event)]} before the hand's layout: "
                             "write 'layout N:CARD E:CARD S:CARD W:CARD' first")
        if isinstance(event, Deal):
            if turned:
                yield diagnostic(path, at.line, at.col, "KC213", "a deal line cannot follow the hand's first turn")
            if seat in dealt:
                yield diagnostic(path, at.line, at.col, "KC209",
                                 f"{who}'s deal is already recorded at line {dealt[seat].line}")
            dealt[seat] = at
            if len(event.cards) != HAND_SIZE:
                col = event.cols[HAND_SIZE] if len(event.cards) > HAND_SIZE else at.col
                yield diagnostic(path, at.line, col, "KC208",
                                 f"{who} is dealt {len(event.cards)} cards; a deal is exactly {HAND_SIZE}")
            what = f"dealt to {who}"
            for card, col in zip(event.cards, event.cols or [at.col] * len(event.cards)):
                if (d := see(card, seat, what, at.line, col)) is not None:
                    yield d
        elif isinstance(event, Layout):
            if turned:
                yield diagnostic(path, at.line, at.col, "KC213", "the layout cannot follow the hand's first turn")
            layouts += 1
            if layouts == 2:
                yield diagnostic(path, at.line, at.col, "KC212", "this hand already has a layout")
            piles = [p for p, _ in event.piles]
            missing = [p.value for p in FOUNDATIONS if p not in piles]
            twice = sorted({p.value for p in piles if piles.count(p) > 1})
            if missing or twice:
                parts = ([f"{', '.join(missing)} missing"] if missing else []) + (
                    [f"{', '.join(twice)} named twice"] if twice else [])
                yield diagnostic(path, at.line, at.col, "KC211",
                                 f"the layout must name N, E, S and W once each ({'; '.join(parts)})")
            for (pile, card), col in zip(event.piles, event.cols or [at.col] * len(event.piles)):
                if (d := see(card, None, f"in the layout at {pile}", at.line, col)) is not None:
                    yield d
        elif isinstance(event, Turn):
            turned = True
            for action, col in zip(event.actions, event.cols):
                if type(action) is Draw and action.card is not None:
                    if (d := see(action.card, seat, f"drawn by {who}", at.line, col)) is not None:
                        yield d
        elif isinstance(event, Reveal):
            for card, col in zip(event.cards, event.cols or [at.col] * len(event.cards)):
                if (d := see(card, seat, f"revealed by {who}", at.line, col, reveal=True)) is not None:
                    yield d
        elif isinstance(event, Blocked):
            turned = True
    if layouts == 0 and not early:
        yield diagnostic(path, start.span.line, start.span.col, "KC215", "this hand has no layout")
