"""A hand step by step, for the replay of ``kcref report``: the table after each of its lines.

Each step is what ``kcref show --line N`` draws for that line: the table comes from
:func:`kcref.referee.replay.table_at`, the same replay as the referee's, so the report has no
rules of its own. The steps run from the layout line to the hand's last line, or to the line
where the referee stopped (a rule error: the table as it stood then, with the message; a line
that cannot be judged: the table before it). Replaying from the start for every line costs about
50 µs a line (a 2,000-hand log of 33,000 lines: about 1.5 s), so no stepping of our own is kept.

For the page, each step is encoded compactly (:func:`encode_step`): a card is one character, and
a step holds only what changed since the one before; the page's script applies the steps to the
one picture drawn by :mod:`kcref.output.table_svg`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, NamedTuple

from ..engine.moves import in_order
from ..model.cards import DECK, Card
from ..model.diagnostics import printable
from ..model.events import Deal, Layout
from ..referee.grouping import HandRecord
from ..referee.replay import Position, table_at
from .table_svg import Seat, TableState, state_of

CARD_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
"""A card in the replay data is one character: the card of :data:`kcref.model.cards.DECK` at the
same position (the page's script has the list of card names, :func:`replay_data`)."""
CARD_CHAR = {card: CARD_CHARS[i] for i, card in enumerate(DECK)}
NOT_REPLAYED = "the hand cannot be replayed: it has syntax or set-up errors before its layout (see its diagnostics)"


class HandReplay(NamedTuple):
    """The steps of one hand and, when the referee stopped before its end, why."""

    steps: tuple[TableState, ...]
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


def hand_replay(record: HandRecord, stacks: Mapping[str, int] | None = None, pot: int = 0) -> HandReplay:
    """The table after each line of ``record`` (chips carried in as the referee carries them)."""
    if not record.players:
        return HandReplay((), NOT_REPLAYED)
    steps: list[TableState] = []
    for line in step_lines(record):
        position = table_at(record, line, dict(stacks) if stacks is not None else None, pot)
        if position.table is None:
            break
        note = stop_note(position)
        steps.append(state_of(position.table, line, note))
        if note:
            return HandReplay(tuple(steps), note)
    if not steps:
        first = table_at(record, None, dict(stacks) if stacks is not None else None, pot)
        return HandReplay((), stop_note(first) or NOT_REPLAYED)
    return HandReplay(tuple(steps))


# --- the replay as the page's script reads it -----------------------------------------------------


def _cards(cards: Iterable[Card]) -> str:
    return "".join(CARD_CHAR[c] for c in cards)


def encode_step(state: TableState, before: dict[str, Any]) -> dict[str, Any]:
    """A step as the page's script reads it, only what changed since ``before`` (updated):
    ``l`` line, ``k`` stock, ``p`` player (-1: nobody), ``c`` piles (card characters, comma
    between piles), ``h`` known cards per seat, ``u`` unknown cards per seat, ``s`` stacks,
    ``o`` pot, ``t`` status, ``n`` note."""
    full = {
        "l": state.line,
        "k": state.stock,
        "p": -1 if state.player is None else state.player,
        "c": ",".join(_cards(p) for p in state.piles),
        "h": ",".join(_cards(s.known) for s in state.seats),
        "u": [s.unknown for s in state.seats],
        "s": [s.stack for s in state.seats] if state.pot is not None else None,
        "o": state.pot,
        "t": printable(state.status),
        "n": printable(state.note),
    }
    step = {k: v for k, v in full.items() if k == "l" or before.get(k, ...) != v}
    before.update(full)
    return step


def encode_replay(record: HandRecord, replay: HandReplay) -> dict[str, Any]:
    """A hand's replay for the page: the players' names, the steps (:func:`encode_step`), why it stopped."""
    before: dict[str, Any] = {}
    return {"names": [printable(n) for n in record.players], "steps": [encode_step(s, before) for s in replay.steps],
            "stop": replay.stop}


def replay_data(hands: list[dict[str, Any]]) -> dict[str, Any]:
    """The page's replay data: the card names in :data:`CARD_CHARS` order, and every hand's replay."""
    return {"cards": [str(c) for c in DECK], "hands": hands}
