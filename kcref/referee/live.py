"""Judging a log line by line, as it is written at the table: the engine of ``kcref record``.

A :class:`LiveLog` holds the accepted lines of a log (as the state they leave: the tags in
force, the finished hands' verdicts, the chips carried, the hand being played). :meth:`LiveLog.feed`
judges ONE new line against that state and accepts it or refuses it; :meth:`LiveLog.undo`
takes back the last accepted line. A bot harness or a web front-end can drive it as the
recorder does.

How a line is judged, without replaying the whole log: only the hand being played is judged
again, with the new line after it, through the very stages of ``kcref check`` (the reader,
the grouping and the set-up checks of :func:`~kcref.referee.setup_checks.checked_hands`,
:func:`~kcref.referee.replay.referee_hand`
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

Each line is first read as ``kcref check`` reads a file's line (:func:`~kcref.notation.textlines.read_line`):
a line that would make the file binary (a NUL byte, KC003), that is not UTF-8 text (a lone
surrogate, KC002) or that is longer than a line may be (KC005) is refused, so that the log
written never holds what ``kcref check`` rejects.

What is kept is what the hand being played needs: its lines' states (for :meth:`LiveLog.undo`),
the finished hands' verdicts (for :meth:`LiveLog.report`) and the text of every line accepted,
a hand at a time. Taking back the ``hand`` line of the hand being played rebuilds the hand before
from that text (each earlier hand judged at once, as ``kcref check`` judges it), and
:meth:`LiveLog.resume` judges a log that way too: each hand whole, except the last, fed line by line.

Diagnostics carry the line number the line has (or would have had) in the log file, and
columns of the text as it was fed; :meth:`Judgement.at` moves those of the fed line to another
place (the line of an input a batch reads them from).
"""

from __future__ import annotations

import enum
from array import array
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from functools import cached_property
from typing import NamedTuple

from ..engine.carry import ChipCarry
from ..engine.table import Table
from ..model.diagnostics import Diagnostic
from ..model.events import (
    Assertion,
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
from ..notation.lexicon import SUPPRESSION_MARK
from ..notation.reader import BOM, RUN_LENGTH, Item, Run, fast_line, read_lines, split_lines
from ..notation.textlines import SNIFF, read_line
from ..notation.writer import event_text
from .assertions import check_assertions
from .grouping import MAX_TAG_NAMES, HandRecord, iter_hands, split_players
from .pipeline import FileReport
from .replay import referee_hand, table_at
from .setup_checks import check_hand
from .verdict import HandVerdict

WHILE_PLAYED = frozenset({"KC501", "KC502"})
"""Held back at the ``hand`` line of the hand being played: it is not over yet."""
BEFORE_LAYOUT = frozenset({"KC215", "KC504"})
"""Held back at the ``hand`` line of the hand being played while it has no layout yet."""
NOT_YET = frozenset({"KC004"})
"""About a log that holds no hand: it does not, yet."""
UNKNOWN_WORD = "KC101"
"""A line that starts with no keyword nor player: while a turn is expected, its actions alone."""
_BODY = frozenset({Deal, Layout, Turn, Reveal, Blocked, Assertion})
"""The events of a hand's body, which the reader hands on in runs (:class:`~kcref.notation.reader.Run`)."""
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
    done: int = 0
    """Hands closed by a later ``hand`` line (their verdicts are the log's, see :class:`LiveLog`)."""
    first_tags: tuple[Tag, ...] = ()
    """The first tag of each name, for reports (at most :data:`MAX_TAG_NAMES` names, as ``kcref check`` keeps)."""
    start: str = ""
    """The log's text, up to :data:`SNIFF` characters or a little more: where ``kcref check``
    looks for a binary or UTF-16 file."""
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
        """Each line accepted since the ``hand`` line of the hand being played (that one
        included; since the start before the first hand): the state before it, and its judgement."""
        self._texts: list[str] = []
        """Those lines as they were fed."""
        self._segments: list[str] = []
        """The lines of each part of the log before: the lines before the first ``hand`` line,
        then each hand's, as they were fed, each with a line end."""
        self._finished: list[HandVerdict] = []
        self._finished_lines = array("q")

    # --- resuming --------------------------------------------------------------------------

    @classmethod
    def resume(cls, text: str, path: str = "<log>") -> LiveLog:
        """The log whose text so far is ``text``, every line judged as if fed (so :meth:`undo`
        takes back its lines too).

        Raises :class:`LogHasErrors` when a line has an error (``kcref check`` shows them all)
        or when the text is not in canonical form (``kcref fmt --write`` puts it in it).
        """
        log = cls(path)
        canonical = _Canonical(text.replace("\r\n", "\n"))
        refused = log._replay(split_lines(text.removeprefix("\ufeff")), canonical)
        if refused is not None:
            number, judged = refused
            raise LogHasErrors(f"{path} has errors: run 'kcref check' on it and fix them first",
                               judged.at(path, number))
        if log._state.held:
            raise LogHasErrors(f"{path} ends with a hand that has no layout: run 'kcref check' on it and fix it first")
        if log._state.blank or not canonical.whole():
            raise LogHasErrors(f"{path} is not in canonical form: run 'kcref fmt --write' on it first")
        return log

    def _replay(self, lines: Sequence[str], canonical: _Canonical | None = None) -> tuple[int, Judgement] | None:
        """Feed ``lines``, each hand but the last judged once, whole, with the ``hand`` line that
        closes it (see :meth:`_take_hand`), the lines of the last one fed one by one (so that
        :meth:`undo` can take them back). ``canonical`` is given what they write. The first line
        refused (its index from 1, its judgement) stops it."""
        at, count = 0, len(lines)
        declined = -1  # the hand (its first line) whose lines are fed one by one
        while at < count:
            s = self._state
            if s.hand and s.floor != declined:
                texts = len(self._texts)
                taken = self._take_hand(lines, at)
                if taken is not None:
                    following, written = taken
                    judged = self.feed(lines[following])
                    if judged.accepted:
                        if canonical is not None:
                            for piece in (*written, judged.written):
                                canonical.add(piece)
                        at = following + 1
                        continue
                    self._state = s  # one of the hand's lines is refused: which one, fed one by one says
                    del self._texts[texts:]
                declined = s.floor
            judged = self.feed(lines[at])
            if not judged.accepted:
                return at + 1, judged
            if canonical is not None:
                canonical.add(judged.written)
            at += 1
        return None

    def _take_hand(self, lines: Sequence[str], at: int) -> tuple[int, list[str]] | None:
        """Take ``lines[at:]`` up to the next ``hand`` line, the rest of the hand being played,
        into the state without judging them: that ``hand`` line, fed next, judges the hand whole
        once, as ``kcref check`` does. The index of that ``hand`` line and what the lines write;
        ``None`` (nothing changed) when there is none (these lines are the last hand's) or when
        a line does not read, or cannot be read with the others: then they are fed one by one.

        A line can never take back the error of a line before it in its hand, so a hand that
        the ``hand`` line after it finds no error in has none line by line either; else it is
        fed again one line at a time, which says which line is refused.
        """
        s = self._state
        path = self.path
        count, blank, held, start = s.lines, s.blank, s.held, s.start
        events: list[Event] = []
        sources: list[tuple[int, str]] = []
        written: list[str] = []
        first_tags = s.first_tags
        # Each line is read as the line it is in the log, one more than the line before it: a
        # blank line after a blank line (which the log does not count) is fed one by one.
        offset = count + 1 + (1 if blank else 0) - at
        for index, text, item in _read_on(lines, at, path, offset):
            if isinstance(item, HandStart):
                break
            line = offset + index
            if item is None or isinstance(item, Diagnostic) or (blank and item is _NOTHING):
                return None
            if isinstance(read_line(text, path, line, start + ("\n" if blank else "")), Diagnostic):
                return None
            if item is _NOTHING:
                blank = True
                continue
            out = ("\n" if blank else "") + event_text(item) + "\n"
            if held:
                now, held = (held + out, "") if isinstance(item, Layout) else ("", held + out)
            else:
                now = out
            written.append(now)
            count, blank, start = line, False, _grown(start, out)
            if not isinstance(item, Comment):
                events.append(item)
                sources.append((line, text))
                first_tags = _first_tags(first_tags, item)
        else:
            return None  # no hand line follows: the last hand's lines
        self._state = replace(s, lines=count, blank=blank, held=held, start=start, hand=(*s.hand, *events),
                              sources=(*s.sources, *sources), first_tags=first_tags)
        self._texts.extend(lines[at:index])
        return index, written

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
        return tuple(self._finished)

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
        hands, lines = list(self._finished), array("q", self._finished_lines)
        if s.verdict is not None and s.verdict.finished:
            hands.append(s.verdict)
            lines.append(s.floor)
        return FileReport(self.path, hands=hands, tags=list(s.first_tags), hand_lines=lines)

    # --- feeding lines ---------------------------------------------------------------------

    def feed(self, text: str) -> Judgement:
        """Judge one line against the log so far: accept it (the log then holds it) or refuse it.

        ``text`` is one line of the log notation. While a turn is expected, the actions alone
        (``5H->E; draw``) stand for a turn of the player whose turn it is. A line that
        ``kcref check`` would not read in a file (a NUL byte, text that is not UTF-8, a line too
        long) is refused with its diagnostic (KC003, KC002, KC005). A line end in ``text`` is a
        ``ValueError``: it would be two lines.
        """
        if "\n" in text or "\r" in text:
            raise ValueError("feed takes one line at a time")
        s = self._state
        line = s.lines + 1 + (1 if s.blank else 0)
        read = read_line(text, self.path, line, s.start + ("\n" if s.blank else ""))
        if isinstance(read, Diagnostic):
            return Judgement(False, line, "", (read,))
        if not text.strip(" \t"):
            return self._accept(replace(s, blank=s.lines > 0), Judgement(True, 0, "", ()), text)
        item, shift = self._read(text, line)
        if item is None:
            return self._accept(replace(s, blank=s.lines > 0), Judgement(True, 0, "", ()), text)
        if isinstance(item, Diagnostic):
            return Judgement(False, line, "", (self._shifted(item, shift, text),))
        canonical = event_text(item)
        out = ("\n" if s.blank else "") + canonical + "\n"
        written, held = _release(s, item, out)
        moved = replace(s, lines=line, blank=False, held=held, start=_grown(s.start, out))
        if isinstance(item, Comment):
            return self._accept(moved, Judgement(True, line, canonical, (), written=written), text)
        return self._judge_event(item, moved, text, shift, canonical, written)

    def undo(self) -> Judgement | None:
        """Take back the last accepted line; its judgement (``written`` says what to cut from
        the end of the log file), or ``None`` when there is nothing to take back."""
        if not self._history:
            return None
        state, judged = self._history.pop()
        self._texts.pop()
        self._state = state
        del self._finished[state.done:]
        del self._finished_lines[state.done:]
        if not self._history and self._segments:
            self._back_a_hand()
        return judged

    def _back_a_hand(self) -> None:
        """The ``hand`` line of the hand being played is taken back: the hand before becomes the
        one being played, its lines fed again (from the start of the log, each hand before it
        judged at once) so that they can be taken back in turn."""
        lines = [line for segment in self._segments for line in segment.split("\n")[:-1]]
        again = LiveLog(self.path)
        refused = again._replay(lines)
        assert refused is None, "lines accepted once are accepted again"
        self._state, self._history, self._texts = again._state, again._history, again._texts
        self._segments, self._finished, self._finished_lines = again._segments, again._finished, again._finished_lines

    def _accept(self, state: _State, judged: Judgement, text: str) -> Judgement:
        self._history.append((self._state, judged))
        self._texts.append(text)
        self._state = state
        return judged

    def _read(self, text: str, line: int) -> tuple[Event | Diagnostic | None, int]:
        """The line read, at ``line``, and how many characters were put before it (the turn
        shorthand: ``Bob: `` before actions alone)."""
        item = _read_one(text, self.path, line)
        turn = self.turn if isinstance(item, Diagnostic) else None
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
        return self._accept(state, Judgement(True, line, canonical, shown, ended, written), text)

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
                            done=s.done + 1)
            self._finished.append(closed)
            self._finished_lines.append(s.floor)
        # The part of the log before this line is done with: only its text is kept.
        self._segments.append("".join(t + "\n" for t in self._texts))
        self._texts.clear()
        self._history.clear()
        return self._accept(state, Judgement(True, line, canonical, shown, None, written, closed), text)


class _Canonical:
    """Whether what a log's lines write, piece after piece, is the log's text itself."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.at = 0
        self.same = True

    def add(self, piece: str) -> None:
        if self.same and piece:
            self.same = self.text.startswith(piece, self.at)
            self.at += len(piece)

    def whole(self) -> bool:
        """All of the text was written, and nothing else."""
        return self.same and self.at == len(self.text)


def _grown(start: str, out: str) -> str:
    """The start of a log's text (see :attr:`_State.start`) once ``out`` is added to it."""
    return start if len(start) >= SNIFF else start + out


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
    if isinstance(event, Tag) and len(tags) < MAX_TAG_NAMES and all(t.name != event.name for t in tags):
        return (*tags, event)
    return tags


def _read_one(text: str, path: str, line: int) -> Event | Diagnostic | None:
    """The one line ``text`` read as the line ``line`` of ``path``: its event, or its first
    syntax error (``None``: a line with nothing on it)."""
    quick = fast_line(text, path, line)
    if quick is not None:
        return quick
    # Only a file's first line may start with the byte order mark, which the reader takes off.
    lines = ["", text] if line > 1 and text.startswith(BOM) else [text]
    items = [i for i in read_lines(lines, path, trivia=True, first=line + 1 - len(lines)) if not isinstance(i, Blank)]
    if not items:
        return None
    return next((i for i in items if isinstance(i, Diagnostic) and i.is_error), items[0])


_NOTHING = Blank(Span("", 0, 0))
"""What :func:`_read_on` gives for a line with nothing on it (blank)."""


def _read_on(lines: Sequence[str], at: int, path: str, offset: int) -> Iterator[tuple[int, str, Item | None]]:
    """Each of ``lines[at:]`` read (its index, its text, and what it reads as: an event, a
    syntax error, :data:`_NOTHING`, or ``None`` when it cannot be read with the others), read
    together, each as line ``offset + index`` of ``path``: a run of lines at a time, each up to a
    line that may start a hand (a hand's lines, as the reader reads them in a file)."""
    count = len(lines)
    while at < count:
        end = at
        while end < count - 1 and lines[end][:4].lower() != "hand":
            end += 1
        run = lines[at:end + 1]
        found: list[Item | None] = [None] * len(run)
        if not run[0].startswith(BOM):  # the reader would take it for the byte order mark of a file
            for read in read_lines(run, path, trivia=True, first=offset + at):
                k = (read.line if isinstance(read, Diagnostic) else read.span.line) - offset - at
                got = found[k]
                if got is None:
                    found[k] = _NOTHING if isinstance(read, Blank) else read
                elif isinstance(read, Diagnostic) and read.is_error and not isinstance(got, Diagnostic):
                    found[k] = read  # as _read_one reads the line alone: its first error
        for k, item in enumerate(found):
            yield at + k, run[k], item
        at = end + 1


def _judge(path: str, s: _State, event: Event) -> _Judged:
    """The hand being played judged with ``event`` after it (and the hand it starts, for a
    ``hand`` line), through the stages of ``kcref check``."""
    floor = s.floor
    found: list[Diagnostic] = []
    records: list[HandRecord] = []
    previous_number: int | None = None
    # As checked_hands does, but the hands of the head (judged already) give only their number.
    for item in iter_hands(_window(s, event), path):  # type: ignore[arg-type]  # runs, as the reader gives them
        if isinstance(item, HandRecord):
            if item.start.span.line < floor:
                previous_number = item.number
                continue
            record, diagnostics = check_hand(item, previous_number)
            previous_number = record.number
            found.extend(d for d in diagnostics if d.code not in NOT_YET)
            records.append(record)
        elif isinstance(item, Diagnostic) and item.line >= floor and item.code not in NOT_YET:
            found.append(item)
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


def _window(s: _State, event: Event) -> Iterator[Event | Run]:
    """What the grouping reads: the head, then the hand being played and ``event``, the events
    of its body in runs, as ``kcref check`` reads them (see :class:`~kcref.notation.reader.Run`)."""
    yield from s.head
    run: list[Event] = []
    for e in (*s.hand, event):
        if type(e) in _BODY and len(run) < RUN_LENGTH:
            run.append(e)
            continue
        if run:
            yield _run(run)
            run = []
        if type(e) in _BODY:
            run.append(e)
        else:
            yield e
    if run:
        yield _run(run)


def _run(events: list[Event]) -> Run:
    return Run(events, sum(len(e.actions) for e in events if isinstance(e, Turn)),
               [e for e in events if SUPPRESSION_MARK in e.comment])  # type: ignore[union-attr]


def _held_back(d: Diagnostic, playing: HandRecord) -> bool:
    """Whether ``d`` waits for the end of the hand being played (see the module's docstring)."""
    if d.line != playing.start.span.line:
        return False
    if d.code in WHILE_PLAYED:
        return True
    cut = playing.cut
    return d.code in BEFORE_LAYOUT and cut is not None and cut.code == "KC215"

