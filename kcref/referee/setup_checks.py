"""Checks of one hand that need no replay: players, deals, layout, cards seen twice (KC205-KC215)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any, Final

from ..model.cards import FOUNDATIONS, HAND_SIZE, Card
from ..model.codes import STOPS_READING
from ..model.diagnostics import Diagnostic, diagnostic
from ..model.events import Assertion, Blocked, Deal, Draw, Layout, Reveal, Span, Tag, Turn, written_draw_steps
from ..notation.reader import Item
from .grouping import NO_DEFAULTS, Cut, Defaults, HandRecord, iter_hands, resolve_player, unknown_player

PLAY_LINES: Final[dict[type, str]] = {Turn: "a turn", Reveal: "a reveal", Blocked: "a blocked line"}
"""The lines that need the layout on the table, as a message names them."""


def check_hand(record: HandRecord, previous_number: int | None = None) -> tuple[HandRecord, list[Diagnostic]]:
    """Check a hand's set-up; return the record, cut at its first error, and the diagnostics."""
    number = record.start.number
    if (number is None or previous_number is None or number == previous_number + 1) and (
            not record.players or _plain(record)):
        return record, []  # what _problems finds in nearly every hand: nothing, without a generator
    diags = list(_problems(record, previous_number))
    errors = [d for d in diags if d.is_error]
    if errors:
        first = min(errors, key=lambda d: (d.line, d.column))
        record = record.with_cut(Cut(first.line, first.column, first.code))
    return record, diags


def checked_hands(items: Iterable[Item], path: str,
                  defaults: Defaults = NO_DEFAULTS) -> Iterator[HandRecord | Diagnostic | Tag]:
    """:func:`~kcref.referee.grouping.iter_hands` with each hand's set-up checked: a hand's set-up
    diagnostics come just before the hand, which is cut at the first of them that is an error."""
    previous_number: int | None = None
    for item in iter_hands(items, path, defaults):
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
    if record.players and not _plain(record):  # else KC201/KC202.. already said why, or all is well
        yield from _SetUp(record).run()


_FOUNDATION_SET: Final = frozenset(FOUNDATIONS)
_AFTER_LAYOUT: Final = (Turn, Blocked, Assertion)


def _plain(record: HandRecord) -> bool:
    """The hand is set up as nearly all are, so that :class:`_SetUp` would find nothing to say:
    one deal of HAND_SIZE cards per player, by name, then one layout that names each
    foundation once, then turns of listed players, a blocked line and assertions; no card seen
    twice. False says "look closely", not that something is wrong."""
    events, players = record.events, record.players
    n = len(players)
    deals = events[:n]
    if len(events) <= n or type(events[n]) is not Layout:
        return False
    names: set[str] = set()
    cards: list[Card] = []
    for deal in deals:
        if type(deal) is not Deal or len(deal.cards) != HAND_SIZE:
            return False
        names.add(deal.player)
        cards += deal.cards
    if not names.issuperset(players):  # so each player has one deal
        return False
    piles = events[n].piles  # type: ignore[union-attr]
    layout = dict(piles)  # pile -> card: a pile named twice leaves fewer entries than piles
    if len(layout) != len(piles) or not layout.keys() >= _FOUNDATION_SET:
        return False
    cards += layout.values()
    for event in events[n + 1:]:
        if type(event) is Turn:
            if event.player not in names:
                return False
            for action in event.actions:
                if type(action) is Draw and action.card is not None:
                    cards.append(action.card)
        elif type(event) not in _AFTER_LAYOUT:
            return False
    return len(set(cards)) == len(cards)


class _SetUp:
    """What a hand's lines have shown of its set-up so far: one handler per kind of line.

    Handlers add diagnostics to ``out`` (most lines have none: no generator per line)."""

    def __init__(self, record: HandRecord) -> None:
        self.record = record
        self.path = record.path
        self.out: list[Diagnostic] = []
        self.seen: dict[Card, tuple[int | None, str, int]] = {}
        """card -> (seat or None, how it was first seen, line); see :meth:`first_seen` for words."""
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

    def run(self) -> list[Diagnostic]:
        out, players, handlers = self.out, self.record.players, _HANDLERS
        for event in self.record.events:
            kind = type(event)
            if kind is Turn or kind is Deal or kind is Reveal:
                ref = event.player  # type: ignore[union-attr]
                found = players.index(ref) if ref in players else resolve_player(ref, players)
                if found is None:
                    out.append(self.unknown(event))  # type: ignore[arg-type]
                    continue
                self.seat = found
            if self.layouts == 0 and not self.turned and kind in PLAY_LINES:
                self.early = True
                at = event.span
                out.append(diagnostic(self.path, at.line, at.col, "KC212", f"{PLAY_LINES[kind]} before the "
                                      "hand's layout: write 'layout N:CARD E:CARD S:CARD W:CARD' first"))
            handler = handlers.get(kind)
            if handler is not None:
                handler(self, event)
        cut = self.record.cut
        if self.layouts == 0 and not self.early and not (cut is not None and cut.code in STOPS_READING):
            # (where the reading stopped within the hand, its layout may lie in what was not read)
            at = self.record.start.span
            out.append(diagnostic(self.path, at.line, at.col, "KC215", "this hand has no layout"))
        return out

    def see(self, card: Card, what: str, line: int, col: int, seat: int | None, reveal: bool = False) -> None:
        """KC210 when ``card`` was seen before in this hand (``what`` says how it is seen now:
        ``dealt``, ``layout PILE``, ``drawn`` or ``revealed``)."""
        first = self.seen.get(card)
        if first is None:
            self.seen[card] = (seat, what, line)
        # A reveal shows cards its player still holds: some may be ones they were dealt or drew.
        elif not (reveal and first[0] == seat):
            self.out.append(diagnostic(self.path, line, col, "KC210", f"{card} appears twice in this hand: it was "
                                       f"already {self.first_seen(first)} at line {first[2]}"))

    def first_seen(self, first: tuple[int | None, str, int]) -> str:
        """How a card was first seen, in words: 'dealt to Ann', 'in the layout at N'..."""
        seat, what, _ = first
        how, _, pile = what.partition(" ")
        if how == "layout":
            return f"in the layout at {pile}"
        return f"{how} {'to' if how == 'dealt' else 'by'} {self.record.players[seat]}"  # type: ignore[index]

    def deal(self, event: Deal) -> None:
        at, out = event.span, self.out
        if self.turned:
            out.append(diagnostic(self.path, at.line, at.col, "KC213",
                                  "a deal line cannot follow the hand's first turn"))
        if self.seat in self.dealt:
            out.append(diagnostic(self.path, at.line, at.col, "KC209",
                                  f"{self.who}'s deal is already recorded at line {self.dealt[self.seat].line}"))
        self.dealt[self.seat] = at
        if len(event.cards) != HAND_SIZE:
            col = event.cols[HAND_SIZE] if len(event.cards) > HAND_SIZE else at.col
            out.append(diagnostic(self.path, at.line, col, "KC208",
                                  f"{self.who} is dealt {len(event.cards)} cards; a deal is exactly {HAND_SIZE}"))
        for card, col in zip(event.cards, event.cols or [at.col] * len(event.cards)):
            self.see(card, "dealt", at.line, col, self.seat)

    def layout(self, event: Layout) -> None:
        at, out = event.span, self.out
        if self.turned:
            out.append(diagnostic(self.path, at.line, at.col, "KC213",
                                  "the layout cannot follow the hand's first turn"))
        self.layouts += 1
        if self.layouts == 2:
            out.append(diagnostic(self.path, at.line, at.col, "KC212", "this hand already has a layout"))
        problem = _layout_piles_problem(event)
        if problem:
            out.append(diagnostic(self.path, at.line, at.col, "KC211",
                                  f"the layout must name N, E, S and W once each ({problem})"))
        for (pile, card), col in zip(event.piles, event.cols or [at.col] * len(event.piles)):
            self.see(card, f"layout {pile}", at.line, col, None)

    def turn(self, event: Turn) -> None:
        self.turned = True
        for at in written_draw_steps(event.actions):
            card: Card = event.actions[at].card  # type: ignore[union-attr,assignment]
            self.see(card, "drawn", event.span.line, event.cols[at], self.seat)

    def reveal(self, event: Reveal) -> None:
        at, seen = event.span, self.seen
        for card, col in zip(event.cards, event.cols or [at.col] * len(event.cards)):
            first = seen.get(card)
            # A card seen on another line is judged by the replay, against where the play left
            # it (KC326, ruling 19); only a card shown twice by this reveal is seen twice here.
            if first is None:
                self.see(card, "revealed", at.line, col, self.seat, reveal=True)
            elif first[2] == at.line:
                self.see(card, "revealed", at.line, col, self.seat)

    def blocked(self, event: Blocked) -> None:
        self.turned = True

    def unknown(self, event: Deal | Turn | Reveal) -> Diagnostic:
        """KC205 for the player of a line, at the player's name where the line says where it is."""
        at = event.span
        col = event.player_col or at.col if isinstance(event, (Deal, Reveal)) else at.col
        return unknown_player(event.player, self.record.players, Span(at.path, at.line, col))


_HANDLERS: Final[dict[type, Callable[[_SetUp, Any], None]]] = {
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
