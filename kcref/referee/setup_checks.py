"""Checks of one hand that need no replay: players, deals, layout, cards seen twice (KC205-KC215)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any

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
    """:func:`~kcref.referee.grouping.iter_hands` with each hand's set-up checked: a hand's set-up
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
    start = record.start
    if start.number is not None and previous_number is not None and start.number != previous_number + 1:
        yield diagnostic(record.path, start.span.line, start.span.col, "KC214",
                         f"hand {start.number} follows hand {previous_number}; expected hand {previous_number + 1}")
    if record.players:  # else KC201/KC202.. already said why; nothing here can be resolved
        yield from _SetUp(record).run()


class _SetUp:
    """What a hand's lines have shown of its set-up so far: one handler per kind of line."""

    def __init__(self, record: HandRecord) -> None:
        self.record = record
        self.path = record.path
        self.seen: dict[Card, tuple[int | None, str, int]] = {}
        """card -> (seat or None, how it was first seen, line); the words are built only for a message."""
        self.dealt: dict[int, Span] = {}
        self.layouts = 0
        self.turned = False
        self.early = False
        """A play line came before the layout (KC212), so KC215 would repeat it."""
        self.seat = -1
        """The seat of the player of the latest deal, turn or reveal line."""

    @property
    def who(self) -> str:
        return self.record.players[self.seat]

    def run(self) -> Iterator[Diagnostic]:
        for event in self.record.events:
            if isinstance(event, (Deal, Turn, Reveal)):
                found = self.record.seat(event.player)
                if found is None:
                    yield self.unknown(event)
                    continue
                self.seat = found
            if self.layouts == 0 and not self.turned and type(event) in PLAY_LINES:
                self.early = True
                at = event.span
                yield diagnostic(self.path, at.line, at.col, "KC212", f"{PLAY_LINES[type(event)]} before the "
                                 "hand's layout: write 'layout N:CARD E:CARD S:CARD W:CARD' first")
            handler = _HANDLERS.get(type(event))
            if handler is not None:
                yield from handler(self, event)
        if self.layouts == 0 and not self.early:
            at = self.record.start.span
            yield diagnostic(self.path, at.line, at.col, "KC215", "this hand has no layout")

    def see(self, card: Card, what: str, line: int, col: int, seat: int | None,
            reveal: bool = False) -> Iterator[Diagnostic]:
        """KC210 when ``card`` was seen before in this hand (``what`` says how it is seen now)."""
        first = self.seen.get(card)
        if first is None:
            self.seen[card] = (seat, what, line)
        # A reveal shows cards its player still holds: some may be ones they were dealt or drew.
        elif not (reveal and first[0] == seat):
            yield diagnostic(self.path, line, col, "KC210",
                             f"{card} appears twice in this hand: it was already {first[1]} at line {first[2]}")

    def deal(self, event: Deal) -> Iterator[Diagnostic]:
        at = event.span
        if self.turned:
            yield diagnostic(self.path, at.line, at.col, "KC213", "a deal line cannot follow the hand's first turn")
        if self.seat in self.dealt:
            yield diagnostic(self.path, at.line, at.col, "KC209",
                             f"{self.who}'s deal is already recorded at line {self.dealt[self.seat].line}")
        self.dealt[self.seat] = at
        if len(event.cards) != HAND_SIZE:
            col = event.cols[HAND_SIZE] if len(event.cards) > HAND_SIZE else at.col
            yield diagnostic(self.path, at.line, col, "KC208",
                             f"{self.who} is dealt {len(event.cards)} cards; a deal is exactly {HAND_SIZE}")
        what = f"dealt to {self.who}"
        for card, col in zip(event.cards, event.cols or [at.col] * len(event.cards)):
            yield from self.see(card, what, at.line, col, self.seat)

    def layout(self, event: Layout) -> Iterator[Diagnostic]:
        at = event.span
        if self.turned:
            yield diagnostic(self.path, at.line, at.col, "KC213", "the layout cannot follow the hand's first turn")
        self.layouts += 1
        if self.layouts == 2:
            yield diagnostic(self.path, at.line, at.col, "KC212", "this hand already has a layout")
        problem = _layout_piles_problem(event)
        if problem:
            yield diagnostic(self.path, at.line, at.col, "KC211",
                             f"the layout must name N, E, S and W once each ({problem})")
        for (pile, card), col in zip(event.piles, event.cols or [at.col] * len(event.piles)):
            yield from self.see(card, f"in the layout at {pile}", at.line, col, None)

    def turn(self, event: Turn) -> Iterator[Diagnostic]:
        self.turned = True
        for action, col in zip(event.actions, event.cols):
            if type(action) is Draw and action.card is not None:
                yield from self.see(action.card, f"drawn by {self.who}", event.span.line, col, self.seat)

    def reveal(self, event: Reveal) -> Iterator[Diagnostic]:
        at = event.span
        for card, col in zip(event.cards, event.cols or [at.col] * len(event.cards)):
            yield from self.see(card, f"revealed by {self.who}", at.line, col, self.seat, reveal=True)

    def blocked(self, event: Blocked) -> Iterator[Diagnostic]:
        self.turned = True
        yield from ()

    def unknown(self, event: Deal | Turn | Reveal) -> Diagnostic:
        """KC205 for the player of a line, at the player's name where the line says where it is."""
        at = event.span
        col = event.player_col or at.col if isinstance(event, (Deal, Reveal)) else at.col
        return unknown_player(event.player, self.record.players, Span(at.path, at.line, col))


_HANDLERS: dict[type, Callable[[_SetUp, Any], Iterator[Diagnostic]]] = {
    Deal: _SetUp.deal, Layout: _SetUp.layout, Turn: _SetUp.turn, Reveal: _SetUp.reveal, Blocked: _SetUp.blocked,
}


def _layout_piles_problem(event: Layout) -> str:
    """What is wrong with the foundations a layout names ("N missing; E named twice"), or ""."""
    piles = [p for p, _ in event.piles]
    missing = [p.value for p in FOUNDATIONS if p not in piles]
    twice = sorted({p.value for p in piles if piles.count(p) > 1})
    parts = ([f"{', '.join(missing)} missing"] if missing else []) + (
        [f"{', '.join(twice)} named twice"] if twice else [])
    return "; ".join(parts)
