"""``kcref show``: the table as it stands at a line of a log, drawn as the cross it is on a table."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import NamedTuple

from ..engine.carry import ChipCarry
from ..engine.moves import in_order
from ..engine.table import Table
from ..model.cards import Card, Colour, Pile
from ..model.codes import UNREADABLE
from ..model.diagnostics import Diagnostic, printable
from ..model.events import Deal, Layout
from ..model.words import plural
from ..notation.reader import Item
from ..referee.assertions import carried_in, carry_on
from ..referee.grouping import HandRecord
from ..referee.replay import Position, referee_hand
from ..referee.setup_checks import checked_hands

GRID: tuple[tuple[Pile | None, ...], ...] = (
    (Pile.NW, Pile.N, Pile.NE),
    (Pile.W, None, Pile.E),
    (Pile.SW, Pile.S, Pile.SE),
)


class ViewStyle(NamedTuple):
    """How to draw: suit symbols or letters, red and black or plain, every card or the ends."""

    ascii: bool = False
    colour: bool = False
    full: bool = False


DEFAULT_VIEW = ViewStyle()


class Located(NamedTuple):
    """The hand a request points at, what chips it starts with, and where in it to stop."""

    record: HandRecord
    stacks: Mapping[str, int] | None
    pot: int
    line: int | None


class Text(NamedTuple):
    """A piece of output: the plain text (for widths) and the same text styled."""

    plain: str
    styled: str


class Unreadable(LookupError):
    """The log cannot be read as text: ``diagnostic`` says why (KC001-KC003)."""

    def __init__(self, diag: Diagnostic) -> None:
        super().__init__(f"{diag.path}: {diag.message}")
        self.diagnostic = diag


class _Counted:
    """The items read, passed on as they come, counting the lines read (with trivia, every line
    gives an item)."""

    def __init__(self, items: Iterable[Item]) -> None:
        self.items = items
        self.lines = 0

    def __iter__(self) -> Iterator[Item]:
        for item in self.items:
            self.lines = max(self.lines, item.line if isinstance(item, Diagnostic) else item.span.line)
            yield item


def _records(items: Iterable[Item], path: str) -> Iterator[HandRecord]:
    for item in checked_hands(items, path):
        if isinstance(item, HandRecord):
            yield item
        elif isinstance(item, Diagnostic) and item.code in UNREADABLE:
            raise Unreadable(item)


def locate(items: Iterable[Item], path: str, hand: int | None = None, line: int | None = None) -> Located:
    """Find the hand at ``line`` (or hand number ``hand``, or the last hand) among the ``items``
    read (with trivia) from the log named ``path``. The items are read once, and no further
    than needed.

    Raises ``Unreadable`` for a log that is not text, ``LookupError`` with a sentence for a hand
    or line that is not there.
    """
    carry = ChipCarry()
    chosen: Located | None = None
    seen = 0
    counted = _Counted(items)
    for record in _records(counted, path):
        seen += 1
        start = record.start.span.line
        if line is not None and start > line:
            break
        carry.before(record.options)
        if hand is not None and hand in (record.number, record.index) and (
                record.number == hand or record.number is None):
            return Located(record, dict(carry.stacks), carry.pot, line)
        chosen = Located(record, dict(carry.stacks), carry.pot, line)
        if record.options.scoring.keeps_stacks and record.valid:
            carry_on(carry, carried_in(referee_hand(record, carry.stacks, carry.pot), carry))
    else:
        if line is not None and line > counted.lines:
            raise LookupError(f"line {line} is past the end of {path}, which has {plural(counted.lines, 'line')}")
    if hand is not None:
        raise LookupError(f"{path} has no hand {hand} ({plural(seen, 'hand')} in all)")
    if chosen is None:
        if line is not None and seen:
            raise LookupError(f"line {line} of {path} stands before the first hand")
        raise LookupError(f"{path} holds no hand")
    return chosen


def card_face(card: Card, style: ViewStyle) -> Text:
    plain = card.text("10", symbols=not style.ascii)
    if style.colour and card.suit.colour is Colour.RED:
        return Text(plain, f"\x1b[31m{plain}\x1b[0m")
    return Text(plain, plain)


def _join(parts: list[Text], sep: str = " ") -> Text:
    return Text(sep.join(p.plain for p in parts), sep.join(p.styled for p in parts))


def pile_text(cards: list[Card], style: ViewStyle) -> Text:
    """A pile as its bottom and top card (``5♦ … 3♥ (3)``), or all of it with ``full``."""
    if not cards:
        return Text("-" if style.ascii else "—", "-" if style.ascii else "—")
    if style.full or len(cards) <= 2:
        return _join([card_face(c, style) for c in cards])
    dots = " .. " if style.ascii else " … "
    a, b = card_face(cards[0], style), card_face(cards[-1], style)
    tail = f" ({len(cards)})"
    return Text(a.plain + dots + b.plain + tail, a.styled + dots + b.styled + tail)


def _pad(t: Text, width: int) -> str:
    left = (width - len(t.plain)) // 2
    return " " * left + t.styled + " " * (width - len(t.plain) - left)


def _header(located: Located, unfinished: bool = False) -> str:
    """``night.log: hand 2, classic rules, dealer Cy, after line 14`` (printable); without a line,
    at the end of the hand, or after its last line for a hand that stops ``unfinished``."""
    record = located.record
    if located.line is not None:
        where = f"after line {located.line}"
    elif unfinished:
        where = "after its last line: the hand is not over"
    else:
        where = "at the end of the hand"
    number = record.number if record.number is not None else record.index
    players = record.players  # none for a hand whose Players tag is missing or unusable
    dealer = f"dealer {players[record.dealer]}, " if 0 <= record.dealer < len(players) else ""
    return printable(f"{record.path}: hand {number}, {record.rules} rules, {dealer}{where}")


def draw_table(located: Located, position: Position, style: ViewStyle) -> str:
    """The picture of the table, the hands, chips and whose turn it is."""
    t = position.table
    unfinished = t is not None and not t.over and position.error is None and position.cut is None
    lines = [_header(located, unfinished)]
    if t is None:
        lines.append("the hand cannot be replayed: it has syntax or set-up errors (kcref check shows them)")
        return "\n".join(lines) + "\n"
    if position.error is not None:
        e = position.error
        lines.append(f"stopped at line {e.line}: {e.code} {e.message}; the table is shown as it stood then")
    elif position.cut is not None:
        lines.append(f"stopped before line {position.cut.line}, which cannot be judged ({position.cut.code}: "
                     f"kcref check says why); the table is shown as it stood then")
    lines.append("")
    cells = [[(Text(p.value, p.value) if p else Text("", ""),
               pile_text(t.piles[p], style) if p else Text(f"stock {t.stock}", f"stock {t.stock}"))
              for p in row] for row in GRID]
    width = max(len(x.plain) for row in cells for pair in row for x in pair) + 2
    for row in cells:
        lines.append("".join(_pad(label, width) for label, _ in row).rstrip())
        lines.append("".join(_pad(content, width) for _, content in row).rstrip())
    lines.append("")
    lines.extend(_players(t, style))
    lines.append(status_text(t))
    return "\n".join(lines) + "\n"


def _players(t: Table, style: ViewStyle) -> list[str]:
    name_width = max(len(n) for n in t.names)
    out = []
    for seat, hand in enumerate(t.holdings):
        mark = ">" if seat == t.player and not t.over else " "
        count = plural(len(hand), "card")
        cards = _join([card_face(c, style) for c in in_order(hand.known)])
        if hand.unknown:
            unknown = "unknown" if not hand.known else f"+ {hand.unknown} unknown"
            cards = Text(f"{cards.plain} {unknown}".strip(), f"{cards.styled} {unknown}".strip())
        chips = f"  chips {t.stacks[seat]:>3}" if t.stacks is not None else ""
        out.append(f"{mark} {t.names[seat]:<{name_width}}  {count:>8}{chips}  {cards.styled}".rstrip())
    if t.stacks is not None:
        out.append(f"  pot {t.pot}")
    return out


def status_text(t: Table) -> str:
    """Who is to play, or how the hand ended."""
    if t.winner is not None:
        return f"{t.names[t.winner]} went out: the hand is over"
    if t.blocked:
        return "the hand is blocked: nobody can play"
    return f"{t.name} to play"


def draw_dealing(located: Located, layout: Layout, style: ViewStyle) -> str:
    """The hand before its layout is turned up: the cards dealt so far, and who is still waiting."""
    record, line = located.record, located.line
    dealt: dict[int, tuple[Card, ...]] = {}
    for event in record.events:
        if isinstance(event, Deal) and line is not None and event.span.line <= line:
            seat = record.seat(event.player)
            if seat is not None:
                dealt[seat] = event.cards
    first = record.players[(record.dealer + 1) % len(record.players)]
    lines = [_header(located), "", f"the cards are being dealt: the layout is turned up at line {layout.span.line}", ""]
    width = max(len(n) for n in record.players)
    for seat, name in enumerate(record.players):
        if seat in dealt:
            cards = dealt[seat]
            count = plural(len(cards), "card")
            text = _join([card_face(c, style) for c in in_order(frozenset(cards))]).styled
        else:
            count, text = "", "not dealt yet"
        lines.append(f"  {name:<{width}}  {count:>8}  {text}".rstrip())
    lines.append(f"{first} plays first")
    return "\n".join(lines) + "\n"

