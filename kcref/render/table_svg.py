"""The table at one moment of a hand as an SVG picture: the eight piles around the stock, each
player's hand (the known cards face up, the unknown ones face down, or only a count), whose
turn it is, the chips.

One drawer serves both ``kcref show --format svg`` (a standalone picture) and the replay of
``kcref report``: there the picture is drawn once and a little script changes it step by step,
so every part the script changes is an element found by a ``data-`` attribute, and every card is
a ``<use>`` of one of the 53 ``<symbol>``s (:func:`card_symbols`) defined once. The elements are
built with :mod:`xml.etree.ElementTree`, which escapes every text and attribute: names come from
the log and are hostile.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Sequence
from functools import cache
from typing import Final, final

from ..engine.moves import in_order
from ..engine.table import PILES, Table
from ..model.cards import DECK, Card, Colour, Pile
from ..model.diagnostics import printable
from ..model.events import Value
from .table_view import status_text

SVG_NS = "http://www.w3.org/2000/svg"
CARD_W, CARD_H = 40, 56
"""A card on the table; a card in a hand is drawn at :data:`HAND_SCALE` of it."""
HAND_SCALE = 0.7
HAND_STEP = 18
"""How far apart the cards of a hand are drawn (they overlap)."""
HAND_SLOTS = 15
"""The most cards of a hand drawn; a longer hand ends with ``+n``."""
CELL_W, CELL_H = 104, 84
TOP = 58
"""Room above the piles for the line shown, whose turn it is, and why the replay stopped."""
SEAT_H = 46
MAX_SEATS = 6
"""The most players a hand has (seats ``P1`` to ``P6``)."""
WIDTH = 420
RED, BLACK = "#c8102e", "#1a1a1a"
GRID: tuple[tuple[Pile | None, ...], ...] = (
    (Pile.NW, Pile.N, Pile.NE),
    (Pile.W, None, Pile.E),
    (Pile.SW, Pile.S, Pile.SE),
)
BACK = "back"
"""The symbol id of a card face down (after the ``c-`` prefix of every card symbol)."""


@final
class Seat(Value):
    """One player's hand as the picture shows it."""

    __match_args__ = ("name", "known", "unknown", "stack")
    __slots__ = __match_args__
    _compared = __match_args__

    def __init__(self, name: str, known: tuple[Card, ...], unknown: int, stack: int | None = None) -> None:
        self.name: Final = name
        self.known: Final = known
        """The known cards, in deck order."""
        self.unknown: Final = unknown
        self.stack: Final = stack
        """Chips, where chips are played."""

    @property
    def size(self) -> int:
        """How many cards the player holds."""
        return len(self.known) + self.unknown


@final
class TableState(Value):
    """What the picture shows: a plain snapshot of a :class:`kcref.engine.table.Table` (one is
    taken after each line the report's replay steps through)."""

    __match_args__ = ("piles", "stock", "seats", "player", "status", "pot", "line", "note")
    __slots__ = __match_args__
    _compared = __match_args__

    def __init__(self, piles: tuple[tuple[Card, ...], ...], stock: int, seats: tuple[Seat, ...], player: int | None,
                 status: str, pot: int | None = None, line: int | None = None, note: str = "") -> None:
        self.piles: Final = piles
        """The cards of each pile of :data:`kcref.engine.table.PILES`, bottom first."""
        self.stock: Final = stock
        self.seats: Final = seats
        self.player: Final = player
        """Whose turn it is; None once the hand is over."""
        self.status: Final = status
        self.pot: Final = pot
        self.line: Final = line
        """The log line after which the table stands so, if any."""
        self.note: Final = note
        """Why the replay stopped here (a rule error, a line that cannot be judged), if it did."""


def card_id(card: Card) -> str:
    """The symbol id of a card: ``c-10H``."""
    return f"c-{card}"


def state_of(table: Table, line: int | None = None, note: str = "") -> TableState:
    """The snapshot of ``table`` (after log line ``line``)."""
    names, stacks, piles = table.names, table.stacks, table.piles
    seats = tuple([Seat(names[i], tuple(in_order(h.known)), h.unknown, None if stacks is None else stacks[i])
                   for i, h in enumerate(table.holdings)])
    return TableState(tuple([tuple(piles[p]) for p in PILES]), table.stock, seats,
                      None if table.over else table.player, status_text(table),
                      None if stacks is None else table.pot, line, note)


# --- the card symbols ---------------------------------------------------------------------------


def _el(parent: ET.Element | None, tag: str, text: str | None = None, /, **attrs: object) -> ET.Element:
    """An element (under ``parent``) with attributes (``_`` in a name stands for ``-``)."""
    values = {k.rstrip("_").replace("_", "-"): str(v) for k, v in attrs.items() if v is not None}
    el = ET.Element(tag, values) if parent is None else ET.SubElement(parent, tag, values)
    if text is not None:
        el.text = printable(text)
    return el


def _card_symbol(defs: ET.Element, card: Card) -> None:
    colour = RED if card.colour is Colour.RED else BLACK
    sym = _el(defs, "symbol", id=card_id(card), viewBox=f"0 0 {CARD_W} {CARD_H}")
    _el(sym, "rect", x=0.5, y=0.5, width=CARD_W - 1, height=CARD_H - 1, rx=4, fill="#fff", stroke="#777")
    rank = card.rank.text()
    _el(sym, "text", rank, x=4, y=15, fill=colour, font_size=13 if len(rank) < 2 else 11, font_weight="bold")
    _el(sym, "text", card.suit.symbol, x=4, y=28, fill=colour, font_size=12)
    _el(sym, "text", card.suit.symbol, x=CARD_W - 6, y=CARD_H - 8, fill=colour, font_size=22, text_anchor="end")


def card_symbols(parent: ET.Element | None = None) -> ET.Element:
    """A ``<defs>`` of the 52 cards and the back, drawn from the card data: no image, no font."""
    defs = _el(parent, "defs")
    _el(defs, "style", "text{font-family:system-ui,-apple-system,'Segoe UI',Roboto,Arial,sans-serif}"
                       ".turn [data-role=mark]{fill:#fff3b0}.turn [data-role=name]{font-weight:bold}")
    for card in DECK:
        _card_symbol(defs, card)
    back = _el(defs, "symbol", id=f"c-{BACK}", viewBox=f"0 0 {CARD_W} {CARD_H}")
    _el(back, "rect", x=0.5, y=0.5, width=CARD_W - 1, height=CARD_H - 1, rx=4, fill="#2a4d8f", stroke="#777")
    _el(back, "rect", x=5, y=5, width=CARD_W - 10, height=CARD_H - 10, rx=2, fill="none", stroke="#9fb6e0")
    return defs


# --- the table ----------------------------------------------------------------------------------


def height(players: int) -> int:
    """The picture's height for a number of players."""
    return TOP + 3 * CELL_H + players * SEAT_H + 10


def _use(parent: ET.Element, card: Card | None, x: int, y: int, scale: float = 1.0) -> None:
    href = f"#{card_id(card)}" if card is not None else f"#c-{BACK}"
    _el(parent, "use", href=href, x=x, y=y, width=round(CARD_W * scale, 1), height=round(CARD_H * scale, 1))


def _pile(parent: ET.Element, pile: Pile, cards: Sequence[Card], x: int, y: int) -> None:
    g = _el(parent, "g", data_pile=pile.value, data_count=len(cards),
            data_top=str(cards[-1]) if cards else "", data_bottom=str(cards[0]) if cards else "",
            data_cards=" ".join(map(str, cards)))
    _el(g, "text", pile.value, x=x, y=y - 4, font_size=10, fill="#355")
    _el(g, "rect", x=x + 0.5, y=y + 0.5, width=CARD_W - 1, height=CARD_H - 1, rx=4, fill="none", stroke="#7a9",
        stroke_dasharray="3 3")
    # The bottom card (what the pile was started with), then the top card (what plays on it)
    # overlapping it; a pile of one card shows it as its bottom.
    for role, card, dx, shown in (("bottom", cards[0] if cards else None, 0, bool(cards)),
                                  ("top", cards[-1] if cards else None, 26, len(cards) > 1)):
        use = ET.SubElement(g, "use", {"data-role": role, "x": str(x + dx), "y": str(y), "width": str(CARD_W),
                                       "height": str(CARD_H)})
        use.set("href", f"#{card_id(card)}" if card is not None else f"#c-{BACK}")
        if not shown:
            use.set("visibility", "hidden")
    _el(g, "text", str(len(cards)) if len(cards) > 1 else "", x=x + CARD_W + 30, y=y + CARD_H - 2, font_size=10,
        fill="#355", data_role="count")


def _stock(parent: ET.Element, stock: int, x: int, y: int) -> None:
    g = _el(parent, "g", data_stock=stock)
    _use(g, None, x + 13, y)
    _el(g, "text", f"stock {stock}", x=x + 13 + CARD_W / 2, y=y + CARD_H + 12, font_size=11, text_anchor="middle",
        data_role="label")


def _seat(parent: ET.Element, seat: Seat, index: int, turn: bool, y: int) -> None:
    g = _el(parent, "g", data_seat=index, data_name=printable(seat.name), data_count=seat.size,
            data_known=" ".join(map(str, seat.known)), data_unknown=seat.unknown,
            class_="seat turn" if turn else "seat")
    _el(g, "rect", x=4, y=y - 2, width=WIDTH - 8, height=SEAT_H - 4, rx=6, fill="none", data_role="mark")
    _el(g, "text", seat.name, x=10, y=y + 15, font_size=13, data_role="name")
    chips = f", chips {seat.stack}" if seat.stack is not None else ""
    _el(g, "text", f"{seat.size} card{'' if seat.size == 1 else 's'}{chips}", x=10, y=y + 32, font_size=10,
        fill="#444", data_role="count")
    cards: list[Card | None] = [*seat.known, *([None] * seat.unknown)]
    for slot in range(HAND_SLOTS):
        use = ET.SubElement(g, "use", {"data-slot": str(slot), "x": str(110 + slot * HAND_STEP), "y": str(y),
                                       "width": str(round(CARD_W * HAND_SCALE, 1)),
                                       "height": str(round(CARD_H * HAND_SCALE, 1))})
        card = cards[slot] if slot < len(cards) else None
        use.set("href", f"#{card_id(card)}" if card is not None else f"#c-{BACK}")
        if slot >= len(cards):
            use.set("visibility", "hidden")
    more = len(cards) - HAND_SLOTS
    _el(g, "text", f"+{more}" if more > 0 else "", x=110 + (HAND_SLOTS - 1) * HAND_STEP + 34, y=y + 24, font_size=11,
        data_role="more")


def draw(state: TableState, *, standalone: bool = True) -> ET.Element:
    """The picture of ``state``: a whole SVG document with its card symbols (``standalone``), or
    an ``<svg>`` that uses the symbols of :func:`card_symbols` defined elsewhere in the page."""
    h = height(len(state.seats))
    attrs = {"viewBox": f"0 0 {WIDTH} {h}", "width": str(WIDTH), "height": str(h), "class": "kc-table",
             "data-base-height": str(height(0)), "data-seat-height": str(SEAT_H),
             "role": "img", "data-line": "" if state.line is None else str(state.line),
             "data-player": "" if state.player is None else str(state.player), "data-stock": str(state.stock)}
    if standalone:
        attrs["xmlns"] = SVG_NS
    svg = ET.Element("svg", attrs)
    _el(svg, "title", "The table" + (f" after line {state.line}" if state.line is not None else ""))
    if standalone:
        card_symbols(svg)
    _el(svg, "rect", x=0, y=0, width=WIDTH, height="100%", rx=10, fill="#e4f0e6")
    _el(svg, "text", f"after line {state.line}" if state.line is not None else "", x=10, y=16, font_size=11,
        fill="#355", data_role="line")
    _el(svg, "text", f"pot {state.pot}" if state.pot is not None else "", x=WIDTH - 10, y=16, font_size=11,
        text_anchor="end", data_role="pot")
    _el(svg, "text", state.status, x=10, y=33, font_size=13, data_role="status")
    _el(svg, "text", state.note, x=10, y=49, font_size=11, fill=RED, data_role="note")
    piles = dict(zip(PILES, state.piles))
    for r, row in enumerate(GRID):
        for c, pile in enumerate(row):
            x, y = 20 + c * CELL_W + (WIDTH - 40 - 3 * CELL_W) // 2, TOP + 12 + r * CELL_H
            if pile is None:
                _stock(svg, state.stock, x, y)
            else:
                _pile(svg, pile, piles[pile], x, y)
    top = TOP + 3 * CELL_H + 6
    seats = list(state.seats)
    if not standalone:  # the replay's picture: every seat there may be, the script shows those in play
        seats += [Seat("", (), 0)] * (MAX_SEATS - len(seats))
    for i, seat in enumerate(seats):
        _seat(svg, seat, i, i == state.player, top + i * SEAT_H)
    return svg


def svg_text(state: TableState, *, standalone: bool = True) -> str:
    """:func:`draw` as text (a standalone document starts with the XML declaration)."""
    body = ET.tostring(draw(state, standalone=standalone), encoding="unicode")
    return ('<?xml version="1.0" encoding="UTF-8"?>\n' + body + "\n") if standalone else body


@cache
def symbols_text() -> str:
    """The card symbols as a hidden ``<svg>`` for a page whose pictures use them. They depend on
    the deck alone, so they are drawn once (``kcref report --watch`` makes page after page)."""
    svg = ET.Element("svg", {"width": "0", "height": "0", "style": "position:absolute", "aria-hidden": "true"})
    card_symbols(svg)
    return ET.tostring(svg, encoding="unicode")


@cache
def replay_picture() -> str:
    """The picture the report's replay changes step by step (an ``<svg>`` using the symbols of
    :func:`symbols_text`): the empty table, with every seat there may be. The same on every page,
    so drawn once."""
    return svg_text(TableState(((),) * 8, 0, (), None, ""), standalone=False)
