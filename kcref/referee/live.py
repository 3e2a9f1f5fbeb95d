"""Judging a log line by line, as it is written at the table: the engine of ``kcref record``.

A :class:`LiveLog` holds the accepted lines of a log (as the state they leave: the tags in
force, the finished hands' verdicts, the chips carried, the hand being played). :meth:`LiveLog.feed`
judges ONE new line against that state and accepts it or refuses it; :meth:`LiveLog.undo`
takes back the last accepted line. A bot harness or a web front-end can drive it as the
recorder does.

How a line is judged, without replaying the whole log: only the hand being played is judged
again, with the new line after it, through the very stages of ``kcref check`` (the reader,
:func:`~kcref.referee.setup_checks.checked_hands`, :func:`~kcref.referee.replay.referee_hand`
with the chips carried in, :func:`~kcref.referee.assertions.check_assertions`). What comes
before that hand is given to the grouping as a short head: the tags in force and the previous
hand's ``hand`` line with its dealer written out (so that the dealer passes left and the hand
numbers follow on exactly as in a whole file). A line is refused when the hand, judged with it,
has an error; as every accepted state has none, that error is the new line's doing. So the
verdicts are exactly ``kcref check``'s, and the cost of a line is bounded by the length of
one hand, never of the log. A finished hand's verdict is computed once, when the next ``hand``
line closes it, and kept.

While a hand is being played it is not yet finished: the warning that it stops before anyone
goes out (KC501), the note on unknown cards (KC502) and, before its layout, the missing layout
(KC215, with its KC504 note) are held back until the next ``hand`` line closes it. A ``hand``
line that closes a hand with no layout at all is refused, as ``kcref check`` would find an
error there.

Diagnostics carry the line number the line has (or would have had) in the log file, and
columns of the text as it was fed; :meth:`Judgement.at` moves those of the fed line to another
place (the line of an input a batch reads them from).
"""

from __future__ import annotations

import enum
from array import array
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace
from functools import cached_property
from typing import NamedTuple

from ..engine.carry import ChipCarry
from ..engine.table import Table
from ..model.diagnostics import Diagnostic
from ..model.events import (
    Blank,
    Blocked,
    Comment,
    Deal,
    Event,
    HandStart,
    Layout,
    Reveal,
    Span,
    Tag,
    Turn,
)
from ..notation.reader import Item, read_text, split_lines
from ..notation.writer import event_text
from .assertions import check_assertions
from .grouping import HandRecord, split_players
from .pipeline import FileReport
from .replay import referee_hand, table_at
from .setup_checks import checked_hands
from .verdict import HandVerdict

WHILE_PLAYED = frozenset({"KC501", "KC502"})
"""Held back at the ``hand`` line of the hand being played: it is not over yet."""
BEFORE_LAYOUT = frozenset({"KC215", "KC504"})
"""Held back at the ``hand`` line of the hand being played while it has no layout yet."""
NOT_YET = frozenset({"KC004"})
"""About a log that holds no hand: it does not, yet."""
UNKNOWN_WORD = "KC101"
"""A line that starts with no keyword nor player: while a turn is expected, its actions alone."""
_ENDS_HAND = (Turn, Blocked, Reveal)
"""Lines after which a finished hand's settlement is worth showing (again)."""


class Expect(enum.Enum):
    """What the log expects next, for a prompt: the word to show (a player's name for a turn)."""

    TAG = "tag"
    """No ``Players`` tag yet."""
    HAND = "hand"
    DEAL = "deal"
    LAYOUT = "layout"
    TURN = "turn"
    REVEAL = "reveal"
    """The hand is over, and some player's cards left are unknown where they count (points, chips)."""


class Judgement(NamedTuple):
    """What :meth:`LiveLog.feed` made of one line."""

    accepted: bool
    line: int
    """The line of the log the text has (accepted) or would have had (refused)."""
    text: str
    """The canonical text of the line ('' for a blank line, or a line that cannot be read)."""
    diagnostics: tuple[Diagnostic, ...]
    """Refused: the errors that refuse it. Accepted: what the line brought, in line order
    (penalties, warnings, notes; with a ``hand`` line, the end of the hand it closes)."""
    verdict: HandVerdict | None = None
    """The verdict on the hand being played when this line ended it (or revealed cards of a
    hand that is over)."""
    written: str = ""
    """What to append to the log file now: the line's canonical text and line end, after the
    blank line that waited for a line to follow (a blank line itself waits: ''). The set-up of a
    hand (its ``hand`` line, deals, comments) waits for the hand's layout and is written with
    it, so that the log on disk never holds a hand without a layout (an error)."""
    closed: HandVerdict | None = None
    """A ``hand`` line: the final verdict of the hand it closed."""

    @property
    def errors(self) -> tuple[Diagnostic, ...]:
        return tuple(d for d in self.diagnostics if d.is_error)

    def at(self, path: str, line: int) -> tuple[Diagnostic, ...]:
        """The diagnostics, those of this line moved to ``path`` at ``line`` (say the line of
        the input the line was read from); the others stay where they are in the log."""
        return tuple(d._replace(path=path, line=line) if d.line == self.line else d for d in self.diagnostics)


class LogHasErrors(ValueError):
    """A log that cannot be resumed: it has errors (``diagnostics``), or it is not in canonical form."""

    def __init__(self, message: str, diagnostics: tuple[Diagnostic, ...] = ()) -> None:
        super().__init__(message)
        self.diagnostics = diagnostics


def _latest(tags: Iterable[Tag]) -> tuple[Tag, ...]:
    """The latest tag of each name, in order of each name's first tag: those in force."""
    by_name: dict[str, Tag] = {}
    for tag in tags:
        by_name[tag.name] = tag
    return tuple(by_name.values())


@dataclass(frozen=True)
class _State:
    """Everything an accepted line leaves: immutable, so that undo is going back to the last one."""

    lines: int = 0
    """Lines written to the log."""
    blank: bool = False
    """A blank line waits to be written before the next line."""
    held: str = ""
    """The set-up lines of the hand being played, accepted, waiting for its layout to be written."""
    before: tuple[Tag, ...] = ()
    """The tags in force when the previous hand started (all tags so far when no hand has)."""
    previous: HandStart | None = None
    """The previous hand's ``hand`` line, its dealer written out."""
    between: tuple[Tag, ...] = ()
    """Tags from the previous hand's lines (they apply from the next hand on)."""
    hand: tuple[Event, ...] = ()
    """The hand being played: its ``hand`` line and its lines since (tags among them)."""
    sources: tuple[tuple[int, str], ...] = ()
    """The text of the lines of the hand being played, by line, for the caret display."""
    stacks: tuple[tuple[str, int], ...] = ()
    pot: int = 0
    """Chips carried into the hand being played (where the scoring system keeps them)."""
    game_hands: int = 0
    """Hands carried in the game of kept stacks under way (:attr:`kcref.engine.carry.ChipCarry.hands`)."""
    finished: tuple[HandVerdict, ...] = ()
    finished_lines: tuple[int, ...] = ()
    first_tags: tuple[Tag, ...] = ()
    """The first tag of each name, for reports."""
    record: HandRecord | None = None
    verdict: HandVerdict | None = None
    visible: tuple[Diagnostic, ...] = ()
    """The diagnostics of the hand being played, as they stand (never an error)."""
    held_back: tuple[Diagnostic, ...] = ()
    """Those that wait for the end of the hand being played."""

    @property
    def head(self) -> tuple[Event, ...]:
        """What the grouping reads before the hand being played."""
        if self.previous is None:
            return self.before
        return (*self.before, self.previous, *self.between)

    @property
    def floor(self) -> int:
        """The first line of the hand being played (0: no hand yet)."""
        return self.hand[0].span.line if self.hand else 0

    @cached_property
    def table(self) -> Table | None:
        record = self.record
        if record is None or not record.players:
            return None
        return table_at(record, None, dict(self.stacks), self.pot).table


class _Judged(NamedTuple):
    judged: list[tuple[HandRecord, HandVerdict]]
    visible: tuple[Diagnostic, ...]
    """In the order ``kcref check`` gives them (by line and column, else as found)."""
    held_back: tuple[Diagnostic, ...]


class LiveLog:
    """A log being written line by line: feed it lines, read the table, undo.

    ``path`` is the name diagnostics carry.
    """

    def __init__(self, path: str = "<log>") -> None:
        self.path = path
        self._state = _State()
        self._history: list[tuple[_State, Judgement]] = []

    # --- resuming --------------------------------------------------------------------------

    @classmethod
    def resume(cls, text: str, path: str = "<log>") -> LiveLog:
        """The log whose text so far is ``text``, every line judged as if fed (so :meth:`undo`
        takes back its lines too).

        Raises :class:`LogHasErrors` when a line has an error (``kcref check`` shows them all)
        or when the text is not in canonical form (``kcref fmt --write`` puts it in it).
        """
        log = cls(path)
        canonical: list[str] = []
        for number, line in enumerate(split_lines(text.removeprefix("\ufeff")), 1):
            judged = log.feed(line)
            if not judged.accepted:
                raise LogHasErrors(f"{path} has errors: run 'kcref check' on it and fix them first",
                                   judged.at(path, number))
            canonical.append(judged.written)
        if log._state.held:
            raise LogHasErrors(f"{path} ends with a hand that has no layout: run 'kcref check' on it and fix it first")
        if log._state.blank or "".join(canonical) != text.replace("\r\n", "\n"):
            raise LogHasErrors(f"{path} is not in canonical form: run 'kcref fmt --write' on it first")
        return log

    # --- reading the state -----------------------------------------------------------------

    @property
    def lines(self) -> int:
        """Lines in the log so far."""
        return self._state.lines

    @property
    def table(self) -> Table | None:
        """The table of the hand being played, as it stands (``None`` before its layout).
        Read it, never change it: copy it to try moves."""
        return self._state.table

    @property
    def record(self) -> HandRecord | None:
        """The hand being played, as the referee reads it."""
        return self._state.record

    @property
    def verdict(self) -> HandVerdict | None:
        """The referee's verdict on the hand being played so far."""
        return self._state.verdict

    @property
    def finished(self) -> tuple[HandVerdict, ...]:
        """The verdicts on the hands closed by a later ``hand`` line."""
        return self._state.finished

    @property
    def players(self) -> tuple[str, ...]:
        """The players of the hand being played, else those of the ``Players`` tag in force."""
        if self.record is not None and self.record.players:
            return self.record.players
        s = self._state
        tag = next((t for t in reversed((*s.head, *s.hand)) if isinstance(t, Tag) and t.name == "Players"), None)
        return tuple(split_players(tag.value)) if tag is not None else ()

    @property
    def unwritten(self) -> str:
        """The accepted lines not yet written: the set-up of a hand that has no layout yet."""
        return self._state.held

    @property
    def held_back(self) -> tuple[Diagnostic, ...]:
        """What ``kcref check`` would add about the hand being played if the log ended here
        (it is unfinished, some cards are unknown, it has no layout)."""
        return self._state.held_back

    @property
    def tags(self) -> tuple[Tag, ...]:
        """The latest tag of each name so far (those in force for the next hand)."""
        s = self._state
        return _latest(e for e in (*s.head, *s.hand) if isinstance(e, Tag))

    @property
    def turn(self) -> str | None:
        """The name of the player whose turn it is, while a hand is being played."""
        t = self.table
        return None if t is None or t.over else t.name

    @property
    def expect(self) -> Expect:
        """What the log expects next."""
        record, t = self.record, self.table
        if record is None:
            return Expect.HAND if self.players else Expect.TAG
        if t is None:
            dealt = sum(1 for e in record.events if type(e) is Deal)
            return Expect.DEAL if dealt < len(record.players) else Expect.LAYOUT
        if not t.over:
            return Expect.TURN
        verdict = self.verdict
        return Expect.REVEAL if verdict is not None and verdict.unvalued else Expect.HAND

    @property
    def next_number(self) -> int:
        """The number the next hand takes."""
        record = self.record
        if record is None:
            return 1
        return (record.number if record.number is not None else record.index) + 1

    def report(self) -> FileReport:
        """The log as ``kcref check`` reports it, with the verdicts of the finished hands and of
        the hand being played once it is over: what ``kcref score`` scores."""
        s = self._state
        hands, lines = list(s.finished), array("q", s.finished_lines)
        if s.verdict is not None and s.verdict.finished:
            hands.append(s.verdict)
            lines.append(s.floor)
        return FileReport(self.path, hands=hands, tags=list(s.first_tags), hand_lines=lines)

    # --- feeding lines ---------------------------------------------------------------------

    def feed(self, text: str) -> Judgement:
        """Judge one line against the log so far: accept it (the log then holds it) or refuse it.

        ``text`` is one line of the log notation. While a turn is expected, the actions alone
        (``5H->E; draw``) stand for a turn of the player whose turn it is.
        """
        if "\n" in text or "\r" in text:
            raise ValueError("feed takes one line at a time")
        s = self._state
        if not text.strip(" \t"):
            return self._accept(replace(s, blank=s.lines > 0), Judgement(True, 0, "", ()))
        line = s.lines + 1 + (1 if s.blank else 0)
        item, shift = self._read(text, line)
        if item is None:
            return self._accept(replace(s, blank=s.lines > 0), Judgement(True, 0, "", ()))
        if isinstance(item, Diagnostic):
            return Judgement(False, line, "", (self._shifted(item, shift, text),))
        canonical = event_text(item)
        written, held = _release(s, item, ("\n" if s.blank else "") + canonical + "\n")
        moved = replace(s, lines=line, blank=False, held=held)
        if isinstance(item, Comment):
            return self._accept(moved, Judgement(True, line, canonical, (), written=written))
        return self._judge_event(item, moved, text, shift, canonical, written)

    def undo(self) -> Judgement | None:
        """Take back the last accepted line; its judgement (``written`` says what to cut from
        the end of the log file), or ``None`` when there is nothing to take back."""
        if not self._history:
            return None
        state, judged = self._history.pop()
        self._state = state
        return judged

    def _accept(self, state: _State, judged: Judgement) -> Judgement:
        self._history.append((self._state, judged))
        self._state = state
        return judged

    def _read(self, text: str, line: int) -> tuple[Event | Diagnostic | None, int]:
        """The line read, at ``line``, and how many characters were put before it (the turn
        shorthand: ``Bob: `` before actions alone)."""
        item = _read_one(text, self.path, line)
        turn = self.turn
        if isinstance(item, Diagnostic) and turn is not None:
            prefix = f"{turn}: "
            expanded = _read_one(prefix + text, self.path, line)
            if isinstance(expanded, Turn) or (item.code == UNKNOWN_WORD and isinstance(expanded, Diagnostic)):
                return expanded, len(prefix)
        return item, 0

    @staticmethod
    def _shifted(d: Diagnostic, shift: int, text: str) -> Diagnostic:
        """``d`` in the columns of the text as fed, with that text as its source."""
        return d._replace(column=max(1, d.column - shift), source=text)

    def _judge_event(self, event: Event, moved: _State, text: str, shift: int, canonical: str,
                     written: str) -> Judgement:
        s = self._state
        line = moved.lines
        judged = _judge(self.path, s, event)
        errors = [d for d in judged.visible if d.is_error]
        sources = dict(s.sources)
        if errors:
            shown = tuple(self._shifted(d, shift, text) if d.line == line else _with_source(d, sources)
                          for d in errors)
            return Judgement(False, line, canonical, shown)
        seen = set(s.visible)
        new = [d for d in judged.visible if d not in seen]
        shown = tuple(self._shifted(d, shift, text) if d.line == line else _with_source(d, sources) for d in new)
        if isinstance(event, HandStart):
            return self._new_hand(event, moved, judged, text, canonical, written, shown)
        record, verdict = judged.judged[-1] if judged.judged else (None, None)
        state = replace(moved, hand=(*s.hand, event) if s.hand else s.hand,
                        before=_latest((*s.before, event)) if isinstance(event, Tag) and not s.hand else s.before,
                        first_tags=_first_tags(s.first_tags, event),
                        sources=(*s.sources, (line, text)) if s.hand else s.sources,
                        record=record, verdict=verdict, visible=judged.visible, held_back=judged.held_back)
        ended = None
        if verdict is not None and verdict.finished and isinstance(event, _ENDS_HAND):
            ended = verdict
        return self._accept(state, Judgement(True, line, canonical, shown, ended, written))

    def _new_hand(self, event: HandStart, moved: _State, judged: _Judged, text: str, canonical: str, written: str,
                  shown: tuple[Diagnostic, ...]) -> Judgement:
        s = self._state
        line = moved.lines
        record, verdict = judged.judged[-1]
        floor = line
        state = replace(moved, hand=(event,), sources=((line, text),), record=record, verdict=verdict,
                        visible=tuple(d for d in judged.visible if d.line >= floor), held_back=judged.held_back)
        closed = None
        if s.hand:
            old_record, closed = judged.judged[0]
            carry = ChipCarry(dict(s.stacks), s.pot, s.game_hands)
            carry.before(old_record.options)
            if closed.valid:
                carry.after(old_record.options, closed.players, closed.stacks_end, closed.pot_left)
            in_force = _latest((*s.before, *s.between))
            start = old_record.start
            previous = HandStart(start.number, old_record.players[old_record.dealer], start.span,
                                 dealer_col=start.dealer_col)
            state = replace(state, before=in_force, previous=previous,
                            between=tuple(e for e in s.hand if isinstance(e, Tag)),
                            stacks=tuple(carry.stacks.items()), pot=carry.pot, game_hands=carry.hands,
                            finished=(*s.finished, closed), finished_lines=(*s.finished_lines, s.floor))
        return self._accept(state, Judgement(True, line, canonical, shown, None, written, closed))


def _release(s: _State, event: Event, out: str) -> tuple[str, str]:
    """What to write now and what to hold, once ``event`` (written ``out``) is accepted: a
    hand's set-up is held until its layout (see :attr:`Judgement.written`)."""
    if isinstance(event, HandStart):
        return "", out
    if s.held:
        return (s.held + out, "") if isinstance(event, Layout) else ("", s.held + out)
    return out, ""


def _where(d: Diagnostic) -> tuple[int, int]:
    return d.line, d.column


def _with_source(d: Diagnostic, sources: dict[int, str]) -> Diagnostic:
    text = sources.get(d.line)
    return d if text is None or d.source else d._replace(source=text)


def _first_tags(tags: tuple[Tag, ...], event: Event) -> tuple[Tag, ...]:
    if isinstance(event, Tag) and all(t.name != event.name for t in tags):
        return (*tags, event)
    return tags


def _read_one(text: str, path: str, line: int) -> Event | Diagnostic | None:
    """The one line ``text`` read as the line ``line`` of ``path``: its event, or its first
    syntax error (``None``: a line with nothing on it)."""
    items = [i for i in read_text(text, path, trivia=True) if not isinstance(i, Blank)]
    if not items:
        return None
    item: Item = next((i for i in items if isinstance(i, Diagnostic) and i.is_error), items[0])
    if isinstance(item, Diagnostic):
        return item._replace(line=line)
    return replace(item, span=Span(path, line, item.span.col))


def _judge(path: str, s: _State, event: Event) -> _Judged:
    """The hand being played judged with ``event`` after it (and the hand it starts, for a
    ``hand`` line), through the stages of ``kcref check``."""
    floor = s.floor
    found: list[Diagnostic] = []
    records: list[HandRecord] = []
    for item in checked_hands(_window(s, event), path):
        if isinstance(item, Diagnostic):
            if item.line >= floor and item.code not in NOT_YET:
                found.append(item)
        elif isinstance(item, HandRecord) and item.start.span.line >= floor:
            records.append(item)
    carry = ChipCarry(dict(s.stacks), s.pot, s.game_hands)
    judged: list[tuple[HandRecord, HandVerdict]] = []
    for record in records:
        carry.before(record.options)
        verdict = referee_hand(record, carry.stacks, carry.pot)
        asserted = check_assertions(record, verdict)
        if asserted:
            verdict = replace(verdict, diagnostics=verdict.diagnostics + tuple(asserted))
        found.extend(verdict.diagnostics)
        judged.append((record, verdict))
        if verdict.valid:
            carry.after(record.options, verdict.players, verdict.stacks_end, verdict.pot_left)
    found.sort(key=_where)  # stable, as kcref check sorts a hand's diagnostics
    held_back: list[Diagnostic] = []
    if judged:
        held_back = [d for d in found if _held_back(d, judged[-1][0])]
        found = [d for d in found if not _held_back(d, judged[-1][0])]
    return _Judged(judged, tuple(found), tuple(held_back))


def _window(s: _State, event: Event) -> Iterator[Event]:
    yield from s.head
    yield from s.hand
    yield event


def _held_back(d: Diagnostic, playing: HandRecord) -> bool:
    """Whether ``d`` waits for the end of the hand being played (see the module's docstring)."""
    if d.line != playing.start.span.line:
        return False
    if d.code in WHILE_PLAYED:
        return True
    cut = playing.cut
    return d.code in BEFORE_LAYOUT and cut is not None and cut.code == "KC215"

