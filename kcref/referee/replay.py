"""Replay the hands of a log and judge every line: the referee.

Rule errors become error diagnostics at the offending action; penalties become info
diagnostics; after a hand's first rule error its remaining lines are not judged (the table
is no longer reliable) and checking resumes at the next hand. A hand with a line that cannot be
judged (a syntax or set-up error) is replayed up to that line, and a note says so.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from itertools import islice
from operator import attrgetter
from typing import Final, NamedTuple

from ..engine import moves
from ..engine.carry import ChipCarry, carry_in
from ..engine.faults import IllegalAction
from ..engine.policy import Fault
from ..engine.table import Table, Unchecked
from ..engine.turns import (
    apply,
    begin_turn,
    declare_blocked,
    end_turn,
    reveal,
    settle,
    start_hand,
)
from ..engine.values import hand_value
from ..model.cards import Card, Pile
from ..model.codes import BY_CODE, Severity
from ..model.diagnostics import Diagnostic, diagnostic
from ..model.events import Blocked, Deal, Event, Layout, Reveal, Span, Turn
from ..model.systems import CardValue
from ..model.words import names_list
from .assertions import carried_in, carry_on
from .grouping import Cut, HandRecord
from .verdict import HandVerdict, Penalty

CUT_REASONS: Final[Mapping[str, str]] = {
    "KC1": "syntax error",
    "KC205": "unknown player",
    "KC206": "tag",
    "KC208": "deal",
    "KC209": "deal recorded twice",
    "KC210": "card seen twice",
    "KC211": "layout",
    "KC212": "layout",
    "KC213": "line out of place",
    "KC215": "missing layout",
}
"""What the note KC504 tells the reader to fix, by the code (or code family) of the cut."""
QUIET_CUTS: Final = frozenset({"KC201", "KC202", "KC203", "KC204", "KC505"})
"""Cuts whose own message already says the hand is not refereed: no KC504 repeats it."""
NOTE_KINDS: Final[Mapping[str, tuple[Severity, bool]]] = {
    code: (info.severity, code.startswith("KC4")) for code, info in BY_CODE.items()}
"""The severity of each code, and whether it is a penalty (chips paid into the pot: the KC4
family; the debt note KC503 is not one): one look-up per note."""
LINE_AND_COLUMN: Final = attrgetter("line", "column")
"""The sort key of diagnostics: (line, column)."""


class _Replay:
    """The replay of one hand: the table, and the diagnostics found so far."""

    def __init__(self, record: HandRecord) -> None:
        self.record = record
        self.diagnostics: list[Diagnostic] = []
        self.penalties: list[Penalty] = []
        self.table: Table | None = None
        self.noted = 0
        self.stopped = False
        self.error: Diagnostic | None = None
        """The rule error that stopped the replay, once one has."""
        self.ended_by: str = ""
        """Why no turn may come now although the table may not know it (a blocked or reveal line)."""
        self.out_at: Span | None = None
        self.actions = 0
        self.seats = _seat_map(record.players)
        self.events = record.playable
        """The events the referee may judge: those before the hand's cut, if it has one."""
        self.begin = 0
        """The index in ``events`` of the first play line (a turn, blocked or reveal line), once started."""
        self.next = 0
        """The index in ``events`` of the first event not yet judged (see :meth:`run`)."""
        self.in_order = 0
        """The diagnostics before this index are in line order already (see :func:`_sort_from`)."""

    def copy(self) -> _Replay:
        """An independent copy: judging more lines on it, or finishing it, leaves this one as it is."""
        other = _Replay(self.record)
        other.diagnostics = list(self.diagnostics)
        other.penalties = list(self.penalties)
        other.table = self.table.copy() if self.table is not None else None
        other.noted, other.stopped, other.error, other.ended_by = self.noted, self.stopped, self.error, self.ended_by
        other.out_at, other.actions = self.out_at, self.actions
        other.seats, other.events, other.begin, other.next = self.seats, self.events, self.begin, self.next
        other.in_order = self.in_order
        return other

    # --- reporting ---------------------------------------------------------------------------

    def _report(self, span: Span, col: int, code: str, message: str) -> None:
        path = span.path or self.record.path
        self.diagnostics.append(diagnostic(path, span.line, col, code, message))

    def _fail(self, span: Span, col: int, err: IllegalAction) -> None:
        self._report(span, col, err.code, err.message)
        self.error = self.diagnostics[-1]
        self.stopped = True

    def _drain_notes(self, span: Span, cols: tuple[int, ...], default: Span) -> None:
        """Report the engine's new notes (penalties, debts) at the actions they name."""
        t = self.table
        assert t is not None
        notes = t.notes
        own_path = self.record.path
        for note in islice(notes, self.noted, None):
            line_span = default if note.step is None else span
            path, line, col = line_span.path or own_path, line_span.line, _column(cols, note.step, line_span)
            severity, penalty = NOTE_KINDS[note.code]
            self.diagnostics.append(Diagnostic(path, line, col, severity, note.code, note.message))
            if penalty:
                self.penalties.append(Penalty(note.seat, note.chips, note.code, Span(path, line, col)))
        self.noted = len(notes)

    # --- the events --------------------------------------------------------------------------

    def start(self, stacks: Mapping[str, int] | None, pot: int) -> int:
        """Lay out the hand with the chips carried in; return the pot it starts with."""
        rec = self.record
        deals: dict[int, tuple[Card, ...]] = {}
        layout: Layout | None = None
        seats = self.seats
        self.begin = len(self.events)
        for i, ev in enumerate(self.events):
            kind = type(ev)
            if kind is Deal:
                seat = seats.get(ev.player)  # type: ignore[union-attr]
                if seat is None:
                    seat = self._seat(ev.player)  # type: ignore[union-attr]
                deals[seat] = ev.cards  # type: ignore[union-attr]
            elif kind is Layout:
                layout = ev  # type: ignore[assignment]
            elif kind in (Turn, Blocked, Reveal):
                self.begin = i
                break
        self.next = self.begin
        if layout is None:
            return 0  # the layout lies past the cut (the set-up checks refuse a hand without one)
        carried = carry_in(rec.options, rec.players, rec.dealer, stacks, pot)
        piles: tuple[tuple[Pile, Card], ...] = layout.piles
        try:
            self.table = start_hand(rec.options, rec.players, rec.dealer, deals, piles,
                                    stacks=carried.stacks, pot=carried.pot)
        except IllegalAction as e:
            self._fail(layout.span, _column(layout.cols, e.step, layout.span), e)
            return 0
        if self.table.notes:
            self._drain_notes(rec.start.span, (), rec.start.span)
        return carried.pot if self.table.stacks is not None else 0

    def _seat(self, ref: str) -> int:
        seat = self.seats.get(ref)
        if seat is None:
            found = self.record.seat(ref)
            assert found is not None, f"unresolved player {ref!r}: set-up checks should refuse it"
            seat = self.seats[ref] = found
        return seat

    def _turn_refused(self, ev: Turn, err: IllegalAction) -> None:
        """Report the rule error that refused (part of) the turn ``ev``."""
        t = self.table
        assert t is not None
        # The engine counts the turn's actions as it accepts them: t.step is the refused one.
        self.actions += t.step
        step = t.step if err.step is None else err.step
        self._drain_notes(ev.span, ev.cols, ev.span)
        self._fail(ev.span, _column(ev.cols, step, ev.span), err)

    def _went_out(self, ev: Turn, step: int) -> None:
        """Remember where the player went out (the end of the hand's notes point there)."""
        self.out_at = Span(ev.span.path, ev.span.line, _column(ev.cols, step, ev.span))

    def blocked(self, ev: Blocked) -> None:
        t = self.table
        assert t is not None
        if self.ended_by:
            self._fail(ev.span, ev.span.col, IllegalAction("KC320", f"the hand is already over: "
                                                                    f"{self.ended_by} came before"))
            return
        try:
            declare_blocked(t)
        except IllegalAction as e:
            self._fail(ev.span, ev.span.col, e)
            return
        self.ended_by = f"the blocked line (line {ev.span.line})"

    def reveal(self, ev: Reveal) -> None:
        t = self.table
        assert t is not None
        seat = self._seat(ev.player)
        try:
            reveal(t, seat, ev.cards)
        except IllegalAction as e:
            self._fail(ev.span, _column(ev.cols, e.step, ev.span), e)
            return
        if not self.ended_by:
            self.ended_by = f"a reveal (line {ev.span.line})"

    def turn(self, ev: Turn) -> None:
        """Judge a turn line: begin the turn, apply each action, end the turn."""
        t = self.table
        assert t is not None
        if self.ended_by and not t.over:
            self._fail(ev.span, ev.span.col, IllegalAction("KC320", f"no turn may follow {self.ended_by}"))
            return
        try:
            begin_turn(t, self._seat(ev.player))
            for action in ev.actions:
                apply(t, action)
            end_turn(t)
        except IllegalAction as e:
            self._turn_refused(ev, e)
            return
        self.actions += len(ev.actions)
        if t.winner is not None and self.out_at is None:
            self._went_out(ev, t.out_step)
        if len(t.notes) != self.noted:
            self._drain_notes(ev.span, ev.cols, ev.span)

    def run(self, until: int | None = None) -> None:
        """Judge the hand's turns, blocked and reveal lines (those up to line ``until``) not judged
        yet: called again with a later line, the replay goes on from where it stopped."""
        if self.table is None or self.stopped:
            return
        for ev in self._play_lines(until):
            if isinstance(ev, Turn):
                self.turn(ev)
            elif isinstance(ev, Blocked):
                self.blocked(ev)
            elif isinstance(ev, Reveal):
                self.reveal(ev)
            if self.stopped:
                break

    def _play_lines(self, until: int | None) -> Iterable[Event]:
        """The events not judged yet from the first play line on (start read those before it), up
        to line ``until``; they count as judged from now on (a replay that stops never goes on)."""
        events = self.events
        first = self.next
        if until is None:
            self.next = len(events)
            return islice(events, first, None) if first else events
        end, count = first, len(events)
        while end < count and events[end].span.line <= until:
            end += 1
        self.next = end
        return islice(events, first, end)

    def position(self, line: int | None) -> Position:
        """Judge the lines up to line ``line`` (None: to the end) not judged yet; the table as it
        then stands. Once someone has gone out the chips are settled, as they are the moment the
        hand ends: on a copy, as a reveal line after the going out may still show cards left, to pay for."""
        self.run(line)
        t = self.table
        if t is not None and t.winner is not None and not self.stopped:
            t = t.copy()
            settle(t)
        cut = self.record.cut
        return Position(t, self.error, cut if cut is not None and (line is None or line >= cut.line) else None)

    # --- the end -----------------------------------------------------------------------------

    def finish(self, stacks_start: tuple[int, ...] | None, pot_start: int) -> HandVerdict:
        rec = self.record
        t = self.table
        cut = rec.cut
        complete = cut is None and not self.stopped
        pot, points = self._end(t, complete) if t is not None else (0, None)
        if cut is not None and rec.players and cut.code not in QUIET_CUTS:
            self._report(Span(rec.path, cut.line, cut.column), cut.column, "KC504", self._cut_note())
        diagnostics = self.diagnostics
        stopped_at = _stopped_at(diagnostics, cut, self.stopped, self.in_order)
        if t is None:
            return HandVerdict(
                path=rec.path, index=rec.index, number=rec.start.number, players=rec.players,
                dealer=rec.dealer, rules=rec.rules, options=rec.options, valid=False, winner=None,
                blocked=False, cards_left=(), points=points, stacks_start=stacks_start,
                stacks_end=None, ante=0, pot_start=pot_start, pot=pot, pot_left=pot_start,
                penalties=tuple(self.penalties), diagnostics=tuple(diagnostics), actions=self.actions,
                unvalued=(), stopped_at=stopped_at)
        stacks = t.stacks
        left = t.unchecked.get(Unchecked.CARDS_LEFT) if t.unchecked else None
        return HandVerdict(
            path=rec.path, index=rec.index, number=rec.start.number, players=rec.players,
            dealer=rec.dealer, rules=rec.rules, options=rec.options, valid=complete,
            winner=t.winner, blocked=t.blocked, cards_left=_cards_left(t), points=points,
            stacks_start=stacks_start, stacks_end=tuple(stacks) if stacks is not None else None,
            ante=t.ante, pot_start=pot_start, pot=pot, pot_left=t.pot,
            penalties=tuple(self.penalties), diagnostics=tuple(diagnostics), actions=self.actions,
            unvalued=tuple(sorted(left)) if left else (), stopped_at=stopped_at,
            unpriced=_unpriced(t) if t.unchecked else ())

    def _end(self, t: Table, complete: bool) -> tuple[int, tuple[int | None, ...] | None]:
        """Settle a hand judged to its end: the pot won (or left) and the points of the cards left."""
        rec = self.record
        start = rec.start.span
        pot = t.pot
        points: tuple[int | None, ...] | None = None
        if complete:
            if t.winner is not None:
                pot = settle(t)
            elif not t.blocked:
                self._report(start, start.col, "KC501", "the hand stops before anyone goes out, and it is not blocked")
            if len(t.notes) != self.noted:
                self._drain_notes(start, (), self.out_at or start)
            value = rec.options.scoring.card_value
            if value is not None:
                points = tuple(self._points(t, seat, value) for seat in range(t.n))
        if t.unchecked:
            self._report(start, start.col, "KC502", _unchecked_message(t))
        return pot, points

    def _cut_note(self) -> str:
        rec = self.record
        cut = rec.cut
        assert cut is not None
        what = CUT_REASONS.get(cut.code) or CUT_REASONS.get(cut.code[:3], "error on that line")
        number = rec.number if rec.number is not None else rec.index
        if cut.line == rec.start.span.line:
            return f"hand {number} is not refereed: fix the {what} first"
        return f"hand {number} is not refereed past line {cut.line}: fix the {what} first"

    @staticmethod
    def _points(t: Table, seat: int, value: CardValue) -> int | None:
        pts = hand_value(t, seat, value)
        if pts is None:
            t.mark_unchecked(Unchecked.CARDS_LEFT, seat)
        return pts


_last_seats: list[tuple[tuple[str, ...], dict[str, int]]] = []
"""The players of the last hand replayed, and the seats of the references to them resolved so far."""


def _seat_map(players: tuple[str, ...]) -> dict[str, int]:
    """The seat of each player reference (a name, a seat tag) resolved so far among ``players``,
    filled in as references are met: a log's hands mostly share their players, so the map is
    kept from one hand to the next while they do."""
    last = _last_seats[0] if _last_seats else None
    if last is not None and last[0] == players:
        return last[1]
    seats: dict[str, int] = {}
    _last_seats[:] = [(players, seats)]
    return seats


def _stopped_at(diagnostics: list[Diagnostic], cut: Cut | None, failed: bool, in_order: int = 0) -> int | None:
    """Sort a hand's ``diagnostics`` into line order (those before ``in_order`` are already);
    return the line past which the hand was not judged (its first error, or its cut), or None
    when it was judged to its end. Only a rule error (``failed``) puts an error among them:
    else there is none to look for."""
    stopped_at = cut.line if cut is not None else None
    if diagnostics:
        _sort_from(diagnostics, in_order)
        if not failed:
            return stopped_at
        error = Severity.ERROR
        for d in diagnostics:  # in line order, the first error is the one on the earliest line
            if d.severity is error:
                if stopped_at is None or d.line < stopped_at:
                    stopped_at = d.line
                break
    return stopped_at


def _sort_from(diagnostics: list[Diagnostic], in_order: int) -> None:
    """Sort ``diagnostics`` by line and column, stably, those before ``in_order`` being in that
    order already: each of the others is put in its place, after those found before it."""
    if in_order <= 1:
        diagnostics.sort(key=LINE_AND_COLUMN)
        return
    rest = sorted(diagnostics[in_order:], key=LINE_AND_COLUMN)
    del diagnostics[in_order:]
    for d in rest:
        diagnostics.insert(bisect_right(diagnostics, LINE_AND_COLUMN(d), key=LINE_AND_COLUMN), d)


def _column(cols: tuple[int, ...], step: int | None, span: Span) -> int:
    """The column of action or card ``step`` of a line (``cols``), else the line's own column
    (``None`` or -1: the line as a whole)."""
    return cols[step] if step is not None and 0 <= step < len(cols) else span.col


def _cards_left(t: Table) -> tuple[tuple[Card, ...] | int, ...]:
    """Per seat: the cards left in deck order when they are all known, else how many."""
    return tuple([len(h) if h.unknown else tuple(moves.in_order(h.known)) for h in t.holdings])


def _unpriced(t: Table) -> tuple[int, ...]:
    """The seats a check that costs chips could not judge (see :attr:`HandVerdict.unpriced`)."""
    if t.stacks is None:
        return ()
    kinds = []
    if t.policy.king_fault is Fault.CHIPS:
        kinds += [Unchecked.DEALT_KINGS, Unchecked.DRAWN_KINGS]
    if t.policy.missed_draw is Fault.CHIPS:
        kinds.append(Unchecked.STUCK)
    seats: set[int] = set()
    for kind in kinds:
        seats.update(t.unchecked.get(kind, ()))
    return tuple(sorted(seats))


def _unchecked_message(t: Table) -> str:
    parts = [what.value.format(who=names_list([t.names[s] for s in sorted(t.unchecked[what])]))
             for what in Unchecked if t.unchecked.get(what)]
    return "not checked, as some cards are unknown: " + "; ".join(parts)


def referee_hand(record: HandRecord, stacks: Mapping[str, int] | None = None, pot: int = 0,
                 watch: Watch | None = None) -> HandVerdict:
    """Replay one hand and judge it.

    ``stacks`` (by player name) and ``pot`` carry chips in from earlier hands where the scoring
    system keeps stacks between hands (a name not in ``stacks`` starts as the system starts a
    stack: scoring ``stacks``, with the ``Stack`` option); elsewhere (scoring ``chips`` shares
    the chips out afresh each hand) both are ignored. A record whose set-up is invalid gets a
    verdict with ``valid`` false and no diagnostics of its own. With ``watch``, the table after
    each of its lines is shown to it on the way (:class:`Watch`): the replay's own, not one more.
    """
    replay, stacks_start, pot_start = _replayed(record, stacks, pot, watch)
    return replay.finish(stacks_start, pot_start)


def _replayed(record: HandRecord, stacks: Mapping[str, int] | None, pot: int,
              watch: Watch | None = None) -> tuple[_Replay, tuple[int, ...] | None, int]:
    """The replay of ``record`` laid out with the chips carried in and judged to its end (shown
    to ``watch`` on the way), not finished yet; the stacks (before the ante) and the pot it starts with."""
    replay = _Replay(record)
    if not record.players:
        return replay, None, pot
    pot_start = replay.start(stacks, pot)
    t = replay.table
    stacks_start = None
    if t is not None and t.stacks is not None:
        stacks_start = tuple([s + t.ante for s in t.stacks])
    if watch is not None:
        for line in watch.lines:
            if not watch.see(line, replay.position(line)):
                break
    replay.run()
    return replay, stacks_start, pot_start


class OpenHand:
    """A hand replayed as far as its lines go and not finished: a hand being played. Its
    verdict so far and its table can be read at any time, and :meth:`then` goes on with the
    lines that follow, judging them alone, on a copy: this replay stays as it is.

    What :class:`kcref.referee.live.LiveLog` keeps of the hand being played, so that a new line
    is judged against the state the last one left instead of replaying the hand again. Made by
    :func:`open_hand`.

    Its diagnostics are kept in line order (a stable sort, as :meth:`_Replay.finish` sorts them),
    so that finishing the replay puts only those it adds in their place.
    """

    def __init__(self, replay: _Replay, stacks_start: tuple[int, ...] | None, pot_start: int) -> None:
        self._replay, self._stacks_start, self._pot_start = replay, stacks_start, pot_start

    @property
    def record(self) -> HandRecord:
        return self._replay.record

    @property
    def stopped(self) -> bool:
        """A rule error stopped the replay: the lines after it are not judged."""
        return self._replay.stopped

    @property
    def out_line(self) -> int | None:
        """The line on which a player went out, if one did."""
        out_at = self._replay.out_at
        return None if out_at is None else out_at.line

    def verdict(self) -> HandVerdict:
        """The verdict on the hand as far as it goes: what :func:`referee_hand` gives for the record."""
        return self._replay.copy().finish(self._stacks_start, self._pot_start)

    def table(self) -> Table | None:
        """The table at the end of the record: what :func:`table_at` gives for it. It is the
        replay's own, unless someone has gone out (a settled copy): read it, never change it."""
        return self._replay.position(None).table

    def then(self, record: HandRecord) -> OpenHand:
        """The replay of ``record``, this replay's record with lines added after its own (and
        cut, if at all, after them), gone on from this replay: only the lines added are judged."""
        replay = self._replay.copy()
        replay.record, replay.events = record, record.playable
        replay.run()
        _in_order(replay)
        return OpenHand(replay, self._stacks_start, self._pot_start)


def open_hand(record: HandRecord, stacks: Mapping[str, int] | None = None, pot: int = 0) -> OpenHand:
    """``record`` replayed to its end, not finished (see :class:`OpenHand`); ``stacks`` and
    ``pot`` are the chips carried in, as :func:`referee_hand` takes them."""
    replay, stacks_start, pot_start = _replayed(record, stacks, pot)
    _in_order(replay)
    return OpenHand(replay, stacks_start, pot_start)


def _in_order(replay: _Replay) -> None:
    """Put the diagnostics of ``replay`` in line order, as finishing it would."""
    _sort_from(replay.diagnostics, replay.in_order)
    replay.in_order = len(replay.diagnostics)


class Position(NamedTuple):
    """The table as it stands at some line of a hand, for ``kcref show``."""

    table: Table | None
    """None when the hand cannot even be laid out (an invalid set-up or layout)."""
    error: Diagnostic | None
    """The rule error that stopped the replay before that line, if any: the table is then
    shown as it stood when the error was found."""
    cut: Cut | None = None
    """The line that cannot be judged (a syntax or set-up error) where the replay stopped
    before reaching the line asked for, if any."""


class Watch(NamedTuple):
    """What looks at the table on the way through a replay (the report's steps): the position
    after each of ``lines`` (in ascending order; None: the hand's end) is shown to ``see``, which
    says whether to go on. A position's table is the replay's own, which the next line changes:
    ``see`` reads it at once (once someone has gone out, it is a settled copy)."""

    lines: Sequence[int | None]
    see: Callable[[int | None, Position], bool]


def table_at(record: HandRecord, line: int | None = None, stacks: Mapping[str, int] | None = None,
             pot: int = 0) -> Position:
    """Replay ``record`` up to and including ``line`` (default: to its end); once someone has gone
    out the chips are settled, as they are the moment the hand ends."""
    replay = _Replay(record)
    if not record.players:
        return Position(None, None)
    replay.start(stacks, pot)
    return replay.position(line)


Judge = Callable[[HandRecord, Mapping[str, int] | None, int], HandVerdict]
"""A judge of one hand with the chips carried in (stacks by name, the pot): :func:`referee_hand`,
or one that also looks at the table on the way."""


def referee_hands(records: Iterable[HandRecord], judge: Judge | None = None) -> Iterator[HandVerdict]:
    """Judge hands in order, carrying chip stacks (and a pot nobody won) from hand to hand
    while the scoring system keeps them (:class:`kcref.engine.carry.ChipCarry`). A hand with a
    rule error is void for the chips carried. Each hand is judged by ``judge`` (default:
    :func:`referee_hand`)."""
    judge = judge or referee_hand
    carry = ChipCarry()
    for record in records:
        carry.before(record.options)
        verdict = carried_in(judge(record, carry.stacks, carry.pot), carry)
        carry_on(carry, verdict)
        yield verdict
