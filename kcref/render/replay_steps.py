"""A hand step by step, for the replay of ``kcref report``: the table after each of its lines.

Each step is what ``kcref show --line N`` draws for that line: the tables come from
:func:`kcref.referee.replay.referee_hand`, the referee's own replay as it judges the hand (a
:class:`~kcref.referee.replay.Watch` looks at the table after each line: what
:func:`kcref.referee.replay.table_at` gives for it), so the report has no rules of its own and
replays each hand once. The steps run from the layout line to the hand's last line, or to
the line where the referee stopped (a rule error: the table as it stood then, with the message; a
line that cannot be judged: the table before it).

For the page, each step is encoded compactly as it is taken, straight from the referee's table
(:class:`Encoder`; no snapshot of the table is kept): a card is one character, a step is a short
list holding only what changed since the step before, and the texts are given once per hand;
the page's script applies the steps to the one picture drawn by :mod:`kcref.render.table_svg`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, NamedTuple

from ..engine.moves import in_order
from ..engine.table import PILES, Table
from ..model.cards import DECK, Card
from ..model.diagnostics import printable
from ..model.events import Deal, Layout
from ..referee.grouping import HandRecord
from ..referee.replay import Position, Watch, referee_hand
from ..referee.verdict import HandVerdict
from .table_svg import Seat, TableState
from .table_view import status_text

CARD_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
"""A card in the replay data is one character: the card of :data:`kcref.model.cards.DECK` at the
same position (the page's script has the list of card names, :func:`card_names`)."""
CARD_CHAR = {card: CARD_CHARS[i] for i, card in enumerate(DECK)}
NOT_REPLAYED = "the hand cannot be replayed: it has syntax or set-up errors before its layout (see its diagnostics)"


class HandReplay(NamedTuple):
    """The steps of one hand as the page's script reads them (:meth:`Encoder.step`), the line each
    shows the table after, the texts they show and, when the referee stopped before its end, why."""

    lines: tuple[int | None, ...] = ()
    steps: tuple[list[object], ...] = ()
    texts: tuple[str, ...] = ()
    stop: str = ""


def stop_note(position: Position) -> str:
    """Why the replay stopped at ``position``, as ``kcref show`` words it ("" when it did not)."""
    if position.error is not None:
        e = position.error
        return f"stopped at line {e.line}: {e.code} {e.message}"
    if position.cut is not None:
        return f"stopped before line {position.cut.line}, which cannot be judged ({position.cut.code})"
    return ""


def _layout(record: HandRecord) -> Layout | None:
    return next((e for e in record.playable if isinstance(e, Layout)), None)


def dealing_state(record: HandRecord, line: int) -> TableState | None:
    """Before a valid hand's layout line: the cards dealt up to ``line`` (the stock still whole);
    None at or after the layout line."""
    layout = _layout(record)
    if not record.valid or layout is None or line >= layout.span.line:
        return None
    dealt: dict[int, tuple[Card, ...]] = {}
    for event in record.events:
        if isinstance(event, Deal) and event.span.line <= line:
            seat = record.seat(event.player)
            if seat is not None:
                dealt[seat] = event.cards
    seats = tuple(Seat(name, tuple(in_order(frozenset(dealt[i]))) if i in dealt else (), 0)
                  for i, name in enumerate(record.players))
    stock = 52 - sum(s.size for s in seats)
    return TableState(((),) * 8, stock, seats, None,
                      f"the cards are being dealt: the layout is turned up at line {layout.span.line}", None, line)


def step_lines(record: HandRecord) -> list[int]:
    """The lines the replay stops at: each line of the hand from its layout on that the referee
    judges, then the line where it was cut, if any."""
    layout = _layout(record)
    if layout is None:
        return []
    start = layout.span.line
    lines = sorted({e.span.line for e in record.playable if e.span.line >= start})
    if record.cut is not None and record.cut.line >= start and (not lines or record.cut.line > lines[-1]):
        lines.append(record.cut.line)
    return lines


class _Steps:
    """The steps of one hand encoded on the referee's way through it (a :class:`Watch`'s ``see``)."""

    def __init__(self) -> None:
        self.encoder = Encoder()
        self.lines: list[int | None] = []
        self.steps: list[list[object]] = []
        self.stop = ""

    def see(self, line: int | None, position: Position) -> bool:
        """Take the table after ``line`` as a step; False once the replay has stopped."""
        if position.table is None:
            return True  # no table yet: the verdict says why
        note = stop_note(position)
        self.lines.append(line)
        self.steps.append(self.encoder.step(position.table, line, note))
        if note:
            self.stop = note
            return False
        return True

    def replay(self) -> HandReplay:
        """The steps taken."""
        return HandReplay(tuple(self.lines), tuple(self.steps), tuple(self.encoder.texts), self.stop)


def replayed_hand(record: HandRecord, stacks: Mapping[str, int] | None = None,
                  pot: int = 0) -> tuple[HandVerdict, HandReplay]:
    """The referee's verdict on ``record`` (chips carried in as the referee carries them) and the
    table after each of its lines, encoded for the page, from the one replay that judges it."""
    if not record.players:
        return referee_hand(record, stacks, pot), HandReplay(stop=NOT_REPLAYED)
    steps = _Steps()
    verdict = referee_hand(record, stacks, pot, Watch(step_lines(record), steps.see))
    if not steps.steps:
        # Not even the layout was laid: the error that stopped the replay, or the cut, says why.
        error = next((d for d in verdict.diagnostics if d.is_error), None)
        return verdict, HandReplay(stop=stop_note(Position(None, error, record.cut)) or NOT_REPLAYED)
    return verdict, steps.replay()


# --- the replay as the page's script reads it -----------------------------------------------------


def _cards(cards: Iterable[Card]) -> str:
    return "".join([CARD_CHARS[card] for card in cards])  # a card is its place in DECK


class Encoder:
    """One hand's steps encoded for the page's script straight from the table, each as what
    changed since the step before (:meth:`step`), and the texts they show, each written once
    (:attr:`texts`)."""

    def __init__(self) -> None:
        self.texts: list[str] = []
        self._text_ids: dict[str, int] = {}
        # The step before: its line, its fields (those of :meth:`step` but the lines and the
        # cards), the cards of its piles and the seats' known cards (empty before the first step).
        self._line = 0
        self._fields: list[object] = []
        self._piles: list[list[Card]] = []
        self._known: list[set[Card]] = []

    def _text(self, text: str) -> int:
        found = self._text_ids.get(text)
        if found is None:
            found = self._text_ids[text] = len(self.texts)
            self.texts.append(printable(text))
        return found

    def _piles_changed(self, table: Table) -> str | None:
        """Each pile that differs from the step before (the first step: every pile), its
        position (a digit) then its cards, bottom first; None when none changed."""
        piles, before = table.piles, self._piles
        if not before:
            self._piles = [list(piles[pile]) for pile in PILES]
            return "".join([f"{i}{_cards(cards)}" for i, cards in enumerate(self._piles)])
        parts = []
        for i, pile in enumerate(PILES):
            cards = piles[pile]
            if cards != before[i]:
                parts.append(f"{i}{_cards(cards)}")
                before[i] = list(cards)
        return "".join(parts) if parts else None

    def _known_changed(self, table: Table) -> str | None:
        """Each seat whose known cards differ from the step before (the first step: every
        seat), its position (a digit) then its cards, in deck order; None when none changed."""
        holdings, before = table.holdings, self._known
        if not before:
            self._known = [set(h.known) for h in holdings]
            return "".join([f"{i}{_cards(in_order(known))}" for i, known in enumerate(self._known)])
        parts = []
        for i, holding in enumerate(holdings):
            known = holding.known
            if known != before[i]:
                parts.append(f"{i}{_cards(in_order(known))}")
                before[i] = set(known)
        return "".join(parts) if parts else None

    def step(self, table: Table, line: int | None, note: str = "") -> list[object]:
        """The table after ``line`` as the page's script reads it (``note``: why the replay stopped
        there, if it did): a list of ``[lines, player, stock, status, piles, seats, unknown,
        stacks, pot, note]``, each None when it is as in the step before (and the Nones at the
        end left off):

        ``lines``, how many lines after the step before (the first step: its line); ``player``,
        whose turn (-1: nobody); ``stock``, its size; ``status`` and ``note``, positions in
        :attr:`texts`; ``piles``, each pile of :data:`kcref.engine.table.PILES` that changed,
        its position (a digit) then its cards (a character each: :data:`CARD_CHARS`), bottom
        first; ``seats``, each seat whose known cards changed, the same way, in deck order;
        ``unknown``, the unknown cards of every seat; ``stacks``, every seat's chips; ``pot``.
        """
        at = line or 0
        stacks = table.stacks
        fields: list[object] = [
            -1 if table.over else table.player, table.stock, self._text(status_text(table)),
            [h.unknown for h in table.holdings], None if stacks is None else list(stacks),
            None if stacks is None else table.pot, self._text(note)]
        before = self._fields
        shown = [None if value == was else value for value, was in zip(fields, before)] if before else fields
        out = [at - self._line, shown[0], shown[1], shown[2], self._piles_changed(table),
               self._known_changed(table), shown[3], shown[4], shown[5], shown[6]]
        self._line, self._fields = at, fields
        while out[-1] is None:
            out.pop()
        return out


def encode_replay(record: HandRecord | None, replay: HandReplay) -> dict[str, Any]:
    """A hand's replay for the page: the players' names, the texts, the steps (:meth:`Encoder.step`)
    and why it stopped."""
    names = [printable(n) for n in record.players] if record is not None else []
    return {"names": names, "texts": list(replay.texts), "steps": list(replay.steps), "stop": printable(replay.stop)}


def card_names() -> list[str]:
    """The card of each character of :data:`CARD_CHARS`, by name, for the page's script."""
    return [str(c) for c in DECK]
