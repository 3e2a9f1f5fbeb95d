"""Judging a log line by line, as it is written at the table: the engine of ``kcref record``.

A :class:`LiveLog` holds the accepted lines of a log (as the state they leave: the tags in
force, the finished hands' verdicts, the chips carried, the hand being played). :meth:`LiveLog.feed`
judges ONE new line against that state and accepts it or refuses it; :meth:`LiveLog.undo`
takes back the last accepted line. A bot harness or a web front-end can drive it as the
recorder does.

How a line is judged, without replaying the whole log: a line of a hand's set-up (its
``hand`` line, deals, layout, tags, assertions) has the hand being played judged again, with
the new line after it, through the very stages of ``kcref check`` (the reader, the grouping and
the set-up checks of :func:`~kcref.referee.setup_checks.checked_hands`, the replay of
:func:`~kcref.referee.replay.referee_hand` with the chips carried in,
:func:`~kcref.referee.assertions.check_assertions`). What comes before that hand is given to
the grouping as a short head: the tags in force and the previous hand's ``hand`` line with its
dealer written out (so that the dealer passes left and the hand numbers follow on exactly as in
a whole file). A play line (a turn, ``blocked``, a ``reveal``) is judged alone
(:func:`_judge_play`): each state keeps the replay of the hand as far as it goes
(:class:`~kcref.referee.replay.OpenHand`), and the line is judged on a copy of it, kept if the
line is accepted; the grouping and the set-up checks have nothing to say of such a line, or the
hand is judged again. A line is refused when the hand, judged with it, has an error; as every
accepted state has none, that error is the new line's doing. So the verdicts are exactly
``kcref check``'s, a play line costs the same early or late in a hand, and no line costs more
than judging one hand, never the log. A finished hand's verdict is computed once, when the
next ``hand`` line closes it, and kept.

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
the finished hands' verdicts (for :meth:`LiveLog.report`) and the text of every line accepted
(in canonical form), a hand at a time. :meth:`LiveLog.resume` judges the complete hands of a log
through the pipeline of ``kcref check`` itself (:func:`~kcref.referee.pipeline.check_items`:
the text read once, each hand judged once), keeping of each hand what a finished hand leaves
(its verdict, its line, its text, the chips it carries on), and feeds only the last hand's lines
one by one, so that :meth:`LiveLog.undo` can take them back; taking back the ``hand`` line of
the hand being played rebuilds the log that way from the text kept (see :class:`_Reading`).

Diagnostics carry the line number the line has (or would have had) in the log file, and
columns of the text as it was fed; :meth:`Judgement.at` moves those of the fed line to another
place (the line of an input a batch reads them from).
"""

from __future__ import annotations

import enum
from array import array
from bisect import bisect_left, bisect_right
from collections import deque
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from operator import attrgetter
from typing import NamedTuple

from ..engine.carry import NOTHING_CARRIED, ChipCarry, SavedCarry
from ..engine.faults import IllegalAction
from ..engine.table import Table
from ..engine.turns import apply, legal_actions
from ..model.cards import Card
from ..model.diagnostics import Diagnostic
from ..model.events import (
    Action,
    Assertion,
    Blank,
    Blocked,
    Comment,
    Deal,
    Draw,
    Event,
    HandStart,
    Layout,
    Reveal,
    Tag,
    Turn,
)
from ..model.patterns import lazy_pattern
from ..notation.lexicon import SUPPRESSION_MARK
from ..notation.reader import BOM, RUN_LENGTH, Run, fast_line, read_lines, read_runs, split_lines
from ..notation.textlines import SNIFF, read_line, text_stream
from ..notation.writer import event_text
from .assertions import carried_in, carry_on, check_assertions
from .grouping import MAX_HAND_ITEMS, MAX_TAG_NAMES, HandRecord, iter_hands, split_players
from .pipeline import FileReport, check_items
from .replay import OpenHand, open_hand, referee_hand
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
_PLAY_LINES = (Turn, Blocked, Reveal)
"""The lines a replay judges one by one: those judged alone, against the hand so far (see :func:`_judge_play`)."""
_LINE = attrgetter("line")
_LINE_AND_COLUMN = attrgetter("line", "column")
"""The order of a hand's diagnostics, as ``kcref check`` sorts them (a stable sort)."""


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
        return tuple(d.replace(path=path, line=line) if d.line == self.line else d for d in self.diagnostics)


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


class _Playing(NamedTuple):
    """The hand being played, replayed as far as it goes: what its table is read from, and
    what a play line after it is judged against (see :func:`_judge_play`)."""

    replay: OpenHand
    static: tuple[Diagnostic, ...]
    """What the grouping and the set-up checks say of the hand's lines, in the order found
    (its verdict says the rest)."""
    size: int
    """The hand's lines and actions, as the grouping counts them (see :data:`MAX_HAND_ITEMS`)."""
    alone: bool
    """A play line after the hand so far can be judged alone: the hand is laid out, judged
    with no cut and no rule error, and has no assertion line (an assertion is judged against
    the verdict on the whole hand)."""


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
    carried: SavedCarry = NOTHING_CARRIED
    """Chips carried into the hand being played (where the scoring system keeps them)."""
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
    playing: _Playing | None = field(default=None, compare=False)
    """The replay of the hand being played (``None`` while there is none, or it has no players):
    what the fields above make of it, so no part of what a state is."""

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
        return None if self.playing is None else self.playing.replay.table()


class _Judged(NamedTuple):
    judged: list[tuple[HandRecord, HandVerdict]]
    visible: tuple[Diagnostic, ...]
    """In the order ``kcref check`` gives them (by line and column, else as found)."""
    held_back: tuple[Diagnostic, ...]
    playing: _Playing | None
    """The last hand judged, when it has players."""


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
        """Those lines, in canonical form ('' for a blank line)."""
        self._segments: list[str] = []
        """The lines of the log before, in canonical form, each with a line end, in parts: those
        before the first ``hand`` line, then each hand's (a resumed log's hands before the one
        being played in one part)."""
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
        canonical = _Canonical(text)
        refused = log._rebuild(split_lines(text.removeprefix(BOM)), canonical)
        if refused is not None:
            number, judged = refused
            raise LogHasErrors(f"{path} has errors: run 'kcref check' on it and fix them first",
                               judged.at(path, number))
        if log._state.held:
            raise LogHasErrors(f"{path} ends with a hand that has no layout: run 'kcref check' on it and fix it first")
        if log._state.blank or not canonical.whole():
            raise LogHasErrors(f"{path} is not in canonical form: run 'kcref fmt --write' on it first")
        return log

    def _rebuild(self, lines: Sequence[str], canonical: _Canonical | None = None) -> tuple[int, Judgement] | None:
        """Take ``lines`` into this new log as if each were fed: the hands before the last
        ``hand`` line judged at once, each once, by ``kcref check``'s pipeline (see
        :class:`_Reading`), the lines from there fed one by one (so that :meth:`undo` can take
        them back). ``canonical`` is given what they write. The first line refused (its index
        from 1, its judgement) stops it."""
        at = _Reading(lines, _last_hand(lines, self.path), self.path, canonical).take_into(self)
        for index in range(at, len(lines)):
            judged = self.feed(lines[index])
            if not judged.accepted:
                return index + 1, judged
            if canonical is not None:
                canonical.add(judged.written)
        return None

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

    def legal_actions(self, after: Sequence[Action] = ()) -> tuple[Action, ...]:
        """The actions the player whose turn it is may take next, once ``after`` (the actions
        already chosen for this turn) are played on a copy of the table: what a front-end offers
        as one-tap or Tab suggestions, and what a bot chooses from. Empty while no turn is
        expected or when ``after`` is not legal; where the player's hand is unknown, only what
        the engine can tell without it (say the draw)."""
        t = self.table
        if t is None or t.over:
            return ()
        trial = t.copy()
        try:
            for action in after:
                apply(trial, action)
        except IllegalAction:
            return ()
        return tuple(legal_actions(trial))

    def seen_cards(self) -> frozenset[Card]:
        """The cards of the hand being played whose place the log has told so far (dealt, laid
        out, drawn, played): those a card picker greys out, as the referee refuses a card seen
        twice. Empty before the first ``hand`` line."""
        t, record = self.table, self.record
        if t is not None:
            return frozenset(t.seen)
        if record is None:
            return frozenset()
        return frozenset(card for e in record.events if isinstance(e, Deal) for card in e.cards)

    def last_lines(self, count: int) -> tuple[str, ...]:
        """The last ``count`` lines accepted, in canonical form ('' for a blank line), oldest
        first: what a page that joins late shows of the log (the set-up of a hand still waiting
        for its layout included), as numbered in the log: a blank line is there once a line
        follows it, and a run of blank lines is one (as they are written)."""
        found: list[str] = []
        blank = False
        for text in self._texts_newest_first():
            if len(found) >= count:
                break
            if not text:
                blank = bool(found)  # the blanks after the last line are not in the log yet
                continue
            if blank:
                found.append("")
                blank = False
                if len(found) >= count:
                    break
            found.append(text)
        return tuple(reversed(found))

    def _texts_newest_first(self) -> Iterator[str]:
        """The texts of the lines accepted, the last first (a blank line fed as ''; those the log
        never numbers too, for they are fed again when a hand is taken back)."""
        yield from reversed(self._texts)
        for segment in reversed(self._segments):
            yield from reversed(segment.split("\n")[:-1])

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
            return self._accept(replace(s, blank=s.lines > 0), Judgement(True, 0, "", ()))
        item, shift = self._read(text, line)
        if item is None:
            return self._accept(replace(s, blank=s.lines > 0), Judgement(True, 0, "", ()))
        if isinstance(item, Diagnostic):
            return Judgement(False, line, "", (self._shifted(item, shift, text),))
        canonical = event_text(item)
        out = ("\n" if s.blank else "") + canonical + "\n"
        written, held = _release(s, item, out)
        moved = replace(s, lines=line, blank=False, held=held, start=_grown(s.start, out))
        if isinstance(item, Comment):
            return self._accept(moved, Judgement(True, line, canonical, (), written=written))
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
        one being played, its lines fed again (the log rebuilt from its text, each hand before it
        judged at once) so that they can be taken back in turn."""
        lines = [line for segment in self._segments for line in segment.split("\n")[:-1]]
        again = LiveLog(self.path)
        refused = again._rebuild(lines)
        assert refused is None, "lines accepted once are accepted again"
        self._state, self._history, self._texts = again._state, again._history, again._texts
        self._segments, self._finished, self._finished_lines = again._segments, again._finished, again._finished_lines

    def _accept(self, state: _State, judged: Judgement) -> Judgement:
        self._history.append((self._state, judged))
        self._texts.append(judged.text)
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
        return d.replace(column=max(1, d.column - shift), source=text)

    def _sourced(self, found: list[Diagnostic], s: _State, line: int, shift: int,
                 text: str) -> tuple[Diagnostic, ...]:
        """``found``, those of the line fed (``line``) in the columns of ``text``, the others
        with the text of their line in the hand being played (``s``) as their source."""
        if all(d.line == line for d in found):
            return tuple(self._shifted(d, shift, text) for d in found)
        sources = dict(s.sources)
        return tuple(self._shifted(d, shift, text) if d.line == line else _with_source(d, sources) for d in found)

    def _judge_event(self, event: Event, moved: _State, text: str, shift: int, canonical: str,
                     written: str) -> Judgement:
        s = self._state
        line = moved.lines
        judged = _judge_play(s, event) if isinstance(event, _PLAY_LINES) else None
        if judged is None:
            judged = _judge(self.path, s, event)
            errors = [d for d in judged.visible if d.is_error]
            new = [] if errors else _new(judged.visible, s.visible)
        else:
            # Only the line was judged: what is new is on it, or where the end of the hand is
            # told (its hand line, the line on which a player went out); an error, on it alone.
            errors = [d for d in _on_line(judged.visible, line) if d.is_error]
            out = judged.playing.replay.out_line if judged.playing is not None else None
            near = sorted({s.floor, line} if out is None else {s.floor, out, line})
            new = [] if errors else [d for at in near for d in _new(_on_line(judged.visible, at),
                                                                     _on_line(s.visible, at))]
        if errors:
            return Judgement(False, line, canonical, self._sourced(errors, s, line, shift, text))
        shown = self._sourced(new, s, line, shift, text)
        if isinstance(event, HandStart):
            return self._new_hand(event, moved, judged, text, canonical, written, shown)
        record, verdict = judged.judged[-1] if judged.judged else (None, None)
        state = replace(moved, hand=(*s.hand, event) if s.hand else s.hand,
                        before=_latest((*s.before, event)) if isinstance(event, Tag) and not s.hand else s.before,
                        first_tags=_first_tags(s.first_tags, event),
                        sources=(*s.sources, (line, text)) if s.hand else s.sources,
                        record=record, verdict=verdict, visible=judged.visible, held_back=judged.held_back,
                        playing=judged.playing)
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
                        visible=tuple(d for d in judged.visible if d.line >= floor), held_back=judged.held_back,
                        playing=judged.playing)
        closed = None
        if s.hand:
            old_record, closed = judged.judged[0]
            carry = ChipCarry.restored(s.carried)
            carry.before(old_record.options)
            carry_on(carry, closed)
            in_force = _latest((*s.before, *s.between))
            state = replace(state, before=in_force, previous=_dealt(old_record.start, old_record.players,
                                                                   old_record.dealer),
                            between=tuple(e for e in s.hand if isinstance(e, Tag)),
                            carried=carry.saved(), done=s.done + 1)
            self._finished.append(closed)
            self._finished_lines.append(s.floor)
        # The part of the log before this line is done with: only its text is kept.
        self._segments.append("".join(t + "\n" for t in self._texts))
        self._texts.clear()
        self._history.clear()
        return self._accept(state, Judgement(True, line, canonical, shown, None, written, closed))


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


def _new(found: Sequence[Diagnostic], before: Sequence[Diagnostic]) -> list[Diagnostic]:
    """Those of ``found`` that are not among ``before``, in order."""
    seen = set(before)
    return [d for d in found if d not in seen]


def _on_line(found: Sequence[Diagnostic], line: int) -> Sequence[Diagnostic]:
    """Those of ``found`` (in line order) on ``line``."""
    return found[bisect_left(found, line, key=_LINE):bisect_right(found, line, key=_LINE)]


def _with_source(d: Diagnostic, sources: dict[int, str]) -> Diagnostic:
    text = sources.get(d.line)
    return d if text is None or d.source else d.with_source(text)


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


def _dealt(start: HandStart, players: tuple[str, ...], dealer: int) -> HandStart:
    """A hand's ``hand`` line with its dealer written out: what the grouping reads of the hand
    before the one being played, so that the dealer passes on as in a whole file."""
    return HandStart(start.number, players[dealer], start.span, dealer_col=start.dealer_col)


def _last_hand(lines: Sequence[str], path: str) -> int:
    """The index of the last of ``lines`` that is a ``hand`` line (0: none after the first line)."""
    for index in range(len(lines) - 1, 0, -1):
        line = lines[index]
        if line.lstrip(" \t")[:4].lower() == "hand" and isinstance(_read_one(line, path, index + 1), HandStart):
            return index
    return 0


_SPACES = lazy_pattern(r"\n[ \t]+\n")
"""A line of spaces or tabs alone, after the first, in lines joined with LF (each one's line end kept)."""


def _numbered(lines: Sequence[str], end: int, path: str) -> tuple[str, list[int] | None]:
    """The text of the lines of ``lines[:end]`` that the log numbers, and their indices
    (``None``: all of them). Fed, a blank line before the first line written or after a blank
    line is not numbered (see :meth:`LiveLog.feed`): the log's line numbers are those of the
    lines without it."""
    text = "\n".join(lines[:end]) + "\n" if end else ""
    if not (text.startswith(("\n", " ", "\t")) or "\n\n\n" in text or _SPACES().search(text)):
        return text, None  # no line of spaces alone, nor two blank lines in a row: all are numbered
    numbered: list[int] | None = None
    written = blank = False
    for index in range(end):
        line = lines[index]
        if line.strip(" \t") or not isinstance(read_line(line, path, index + 1), str):
            written, blank = True, False  # a line refused is an error: the reading stops before it
        elif written and not blank:
            blank = True
        else:
            if numbered is None:
                numbered = list(range(index))
            continue
        if numbered is not None:
            numbered.append(index)
    if numbered is None:
        return text, None
    return "".join(lines[index] + "\n" for index in numbered), numbered


class _Stop(Exception):
    """A line of the hands read has an error: they are judged no further at once."""


class _Entry(NamedTuple):
    """A hand as the reading finds it, and where the log stands just before its ``hand`` line
    (the fields of the :class:`_State` of a log fed so far)."""

    start: HandStart | None
    """``None``: the end of the reading."""
    at: int
    """The index of its ``hand`` line among the lines (the end of the reading's)."""
    lines: int
    blank: bool
    sniff: str
    """The log's text so far, as far as :attr:`_State.start` keeps it."""
    in_force: tuple[Tag, ...]
    first_tags: tuple[Tag, ...]
    canonical: bool
    """Every line so far is written as the log writes it (see :class:`_Canonical`)."""
    events: list[Event]
    """The events of the hand after its ``hand`` line (tags among them), as they are read."""


class _Hand(NamedTuple):
    """A hand judged: where it starts, its verdict, and the chips carried into it."""

    entry: _Entry
    line: int
    """Its ``hand`` line's."""
    verdict: HandVerdict
    carry: SavedCarry
    """:attr:`_State.carried` before it."""


class _Reading:
    """The hands of ``lines[:end]`` judged by the pipeline of ``kcref check``
    (:func:`~kcref.referee.pipeline.check_items`), which reads them once: the state a log fed
    these lines one by one would hold is kept from it as it goes, a hand at a time.

    Each hand is judged once, whole, as ``kcref check`` judges it: its verdict and its line are
    kept, and the chips it carries on are worked out as the referee carries them; the text of
    the lines is kept as they were given (for :meth:`LiveLog.undo`). Then :meth:`take_into`
    makes the last hand judged the one being played of a :class:`LiveLog`, from which the lines
    after it are fed. As the pipeline hands each hand's diagnostics on before its verdict, the
    first error (the reading stops there: :class:`_Stop`) leaves the last hand judged before it
    clean, so the lines fed from there say which line is refused, as if every line had been
    fed. The log's suppressions (``# kcref: ignore[...]``) silence nothing here: a line with an
    error is refused all the same.

    The canonical form is checked a line at a time, as the lines are read: what they write
    (see :meth:`LiveLog.feed`) is the start of a :class:`_Canonical`'s text (its CRLF line ends
    as LF) exactly when the text holds no byte order mark nor a CR alone, each blank line is
    empty and numbered (see :func:`_numbered`), and each other line is the canonical text of
    what it reads as.
    """

    def __init__(self, lines: Sequence[str], end: int, path: str, canonical: _Canonical | None) -> None:
        self.lines, self.end, self.path, self.canonical = lines, end, path, canonical
        self.read, self.numbered = _numbered(lines, end, path)
        """What the pipeline reads, and the index of each of its lines among the lines (``None``: the same)."""
        self.same = (canonical is not None and canonical.same and canonical.at == 0 and self.numbered is None
                     and "\r" not in canonical.text and not canonical.text.startswith(BOM))
        """The lines taken in so far are those a log fed them writes (see the class's docstring)."""
        # The log as fed so far (see _State): lines written, a blank line waiting, its start.
        self.count, self.blank, self.sniff = 0, False, ""
        self.in_force: dict[str, Tag] = {}
        self.first_tags: tuple[Tag, ...] = ()
        self.next = 1
        """The first line (in the log's numbering) not taken in yet."""
        self.events: list[Event] | None = None
        """Those of the hand being read."""
        self.entries: deque[_Entry] = deque()
        """The hands read, not judged yet."""
        self.last: _Entry | None = None
        self.carry = ChipCarry()
        self.judged: _Hand | None = None
        """The last hand judged (with no error)."""
        self.before: _Hand | None = None
        """The hand before it."""
        self.finished: list[HandVerdict] = []
        self.finished_lines = array("q")

    def take_into(self, log: LiveLog) -> int:
        """Judge the hands (when there are two or more), make the last one judged with no error
        the one being played of ``log``, a new log, and give the index of the line to feed next."""
        if self.end > 0:
            try:
                check_items(self.items(), self.path, keep_hands=False, emit=self.emit, on_hand=self.on_hand,
                            suppress=False)
            except _Stop:
                pass
        return self.hand_over(log)

    def index(self, line: int) -> int:
        """The index among the lines of the line numbered ``line``."""
        return line - 1 if self.numbered is None else self.numbered[line - 1]

    def items(self) -> Iterator[object]:
        """What the reader makes of the lines, taken in on the way."""
        take, entries = self.take, self.entries
        read, self.read = self.read, ""
        for item in read_runs(text_stream(read), self.path):
            if isinstance(item, Run):
                take(item.events)
                if self.events is not None:
                    self.events += item.events
            elif isinstance(item, HandStart):
                self.gaps(item.span.line)
                entries.append(self.entry(item))
                take((item,))
                self.events = entries[-1].events
            elif isinstance(item, Tag):
                take((item,))
                self.in_force[item.name] = item
                self.first_tags = _first_tags(self.first_tags, item)
                if self.events is not None:
                    self.events.append(item)
            yield item
        self.gaps(self.end + 1 if self.numbered is None else len(self.numbered) + 1)
        self.last = self.entry(None)

    def take(self, events: Sequence[Event]) -> None:
        """Take in the lines of ``events``, in order, each after the lines before it that are no
        event, as :meth:`LiveLog.feed` would."""
        if not events:
            return
        expected, last = self.next, events[-1].span.line
        if len(self.sniff) >= SNIFF and last - expected == len(events) - 1:  # the lines follow on
            if self.same:  # then the log numbers every line (see __init__)
                self.same = list(map(event_text, events)) == self.lines[expected - 1:last]
            self.count, self.blank, self.next = last, False, last + 1
            return
        lines, numbered, same, short = self.lines, self.numbered, self.same, len(self.sniff) < SNIFF
        for event in events:
            line = event.span.line
            if line != expected:
                self.same, self.next = same, expected
                self.gaps(line)
                same, short = self.same, len(self.sniff) < SNIFF
            if same or short:
                text = event_text(event)
                if same:
                    same = text == lines[line - 1 if numbered is None else numbered[line - 1]]
                if short:
                    self.sniff = _grown(self.sniff, ("\n" if self.blank else "") + text + "\n")
                    short = len(self.sniff) < SNIFF
                self.blank = False
            expected = line + 1
        self.count, self.blank, self.same, self.next = expected - 1, False, same, expected

    def gaps(self, upto: int) -> None:
        """Take in the lines before line ``upto`` that are no event: blank lines, comments (and
        lines with an error, which stop the reading)."""
        while self.next < upto:
            line = self.next
            text = self.lines[self.index(line)]
            self.next = line + 1
            if not text.strip(" \t"):
                self.blank = True
                self.same = self.same and not text
                continue
            item = _read_one(text, self.path, line)
            if isinstance(item, Comment):
                self.take((item,))

    def entry(self, start: HandStart | None) -> _Entry:
        return _Entry(start, self.end if start is None else self.index(start.span.line), self.count, self.blank,
                      self.sniff, tuple(self.in_force.values()), self.first_tags, self.same, [])

    def emit(self, d: Diagnostic) -> None:
        if d.is_error:
            raise _Stop

    def on_hand(self, verdict: HandVerdict, line: int) -> None:
        """A hand judged with no error: it is the last one, the one before it is finished."""
        entry = self.entries.popleft()
        carry = self.carry
        into = carry.saved()
        carry.before(verdict.options)
        carry_on(carry, verdict)
        done = self.judged
        if done is not None:
            self.finished.append(done.verdict)
            self.finished_lines.append(done.line)
        self.before, self.judged = done, _Hand(entry, line, verdict, into)

    def hand_over(self, log: LiveLog) -> int:
        """Make the last hand judged the one being played of ``log`` (nothing, when no hand
        was judged); the index of the line after it."""
        hand = self.judged
        if hand is None:
            return 0
        after = self.entries[0] if self.entries else self.last
        assert after is not None, "the reading ends before the verdict on its last hand"
        entry, before = hand.entry, self.before
        tags, previous = entry.in_force, None
        between: tuple[Tag, ...] = ()
        if before is not None:
            assert before.entry.start is not None
            tags = before.entry.in_force
            previous = _dealt(before.entry.start, before.verdict.players, before.verdict.dealer)
            between = tuple(e for e in before.entry.events if isinstance(e, Tag))
        assert entry.start is not None
        events = (entry.start, *entry.events)
        state = _State(lines=after.lines, blank=after.blank, before=tags, previous=previous, between=between,
                       hand=events, sources=tuple((e.span.line, self.lines[self.index(e.span.line)]) for e in events),
                       carried=hand.carry, done=len(self.finished),
                       first_tags=after.first_tags, start=after.sniff)
        # The state a log fed these lines holds once the hand's last line is fed.
        judged = _judge(log.path, replace(state, hand=events[:-1]), events[-1])
        record, verdict = judged.judged[-1]
        log._state = replace(state, record=record, verdict=verdict, visible=judged.visible,
                             held_back=judged.held_back, playing=judged.playing)
        log._finished, log._finished_lines = self.finished, self.finished_lines
        log._segments = ["\n".join(self.lines[:entry.at]) + "\n" if entry.at else ""]
        log._texts, log._history = list(self.lines[entry.at:after.at]), []
        canonical = self.canonical
        if canonical is not None:
            # What the lines before it write is the text up to them (a blank line last waits).
            canonical.same = after.canonical
            canonical.at = sum(map(len, self.lines[:after.at])) + after.at - (1 if after.blank else 0)
        return after.at


def _judge(path: str, s: _State, event: Event) -> _Judged:
    """The hand being played judged with ``event`` after it (and the hand it starts, for a
    ``hand`` line), through the stages of ``kcref check``."""
    floor = s.floor
    grouped: list[Diagnostic] = []
    records: list[tuple[HandRecord, list[Diagnostic]]] = []
    previous_number: int | None = None
    # As checked_hands does, but the hands of the head (judged already) give only their number.
    for item in iter_hands(_window(s, event), path):  # type: ignore[arg-type]  # runs, as the reader gives them
        if isinstance(item, HandRecord):
            if item.start.span.line < floor:
                previous_number = item.number
                continue
            index = s.done + 1 + len(records)  # its place in the log, not in the window read
            record, diagnostics = check_hand(item if item.index == index else item.with_index(index),
                                             previous_number)
            previous_number = record.number
            records.append((record, [d for d in diagnostics if d.code not in NOT_YET]))
        elif isinstance(item, Diagnostic) and item.line >= floor and item.code not in NOT_YET:
            grouped.append(item)
    # Sorted by line, each hand's diagnostics stand after those of the hand before, whichever
    # stage found them: the grouping's first, then the set-up checks', then the verdict's.
    found = grouped + [d for _, checked in records for d in checked]
    carry = ChipCarry.restored(s.carried)
    judged: list[tuple[HandRecord, HandVerdict]] = []
    playing: _Playing | None = None
    for number, (record, checked) in enumerate(records, 1):
        carry.before(record.options)
        if number == len(records):
            replay = open_hand(record, carry.stacks, carry.pot)
            verdict = replay.verdict()
            if record.players:
                playing = _playing(replay, grouped, checked)
        else:
            verdict = referee_hand(record, carry.stacks, carry.pot)
        verdict = carried_in(verdict, carry)
        asserted = check_assertions(record, verdict)
        if asserted:
            verdict = verdict.with_diagnostics(tuple(asserted))
        found.extend(verdict.diagnostics)
        judged.append((record, verdict))
        carry_on(carry, verdict)
    found.sort(key=_LINE_AND_COLUMN)  # stable, as kcref check sorts a hand's diagnostics
    held_back: list[Diagnostic] = []
    if judged:
        held_back = [d for d in found if _held_back(d, judged[-1][0])]
        found = [d for d in found if not _held_back(d, judged[-1][0])]
    return _Judged(judged, tuple(found), tuple(held_back), playing)


def _playing(replay: OpenHand, grouped: list[Diagnostic], checked: list[Diagnostic]) -> _Playing:
    """What the hand being played (``replay``'s record) leaves for the next line: the replay,
    what the grouping (``grouped``, of the lines read) and the set-up checks (``checked``) say
    of it, its size."""
    record = replay.record
    start = record.start.span.line
    events = record.events
    size = len(events) + sum(len(e.actions) for e in events if isinstance(e, Turn))
    alone = (record.cut is None and replay.table() is not None and not replay.stopped
             and not any(isinstance(e, Assertion) for e in events))
    return _Playing(replay, (*(d for d in grouped if d.line >= start), *checked), size, alone)


def _judge_play(s: _State, event: Turn | Blocked | Reveal) -> _Judged | None:
    """The hand being played judged with the play line ``event`` after it, as :func:`_judge`
    judges it, but from the replay of the hand so far: only ``event`` is judged. ``None`` when
    the line cannot be judged alone (the whole hand is judged again): the hand cannot (see
    :attr:`_Playing.alone`), or the set-up checks might have something to say of the line (it
    names no player of the hand, draws a card seen already, shows a card twice), or it takes the
    hand past :data:`MAX_HAND_ITEMS` lines and actions (the grouping cuts it)."""
    playing = s.playing
    if playing is None or not playing.alone:
        return None
    replay = playing.replay
    record = replay.record
    size = playing.size + 1
    if isinstance(event, Turn):
        size += len(event.actions)
        table = replay.table()
        drawn = [a.card for a in event.actions if isinstance(a, Draw) and a.card is not None]
        if table is None or len(set(drawn)) != len(drawn) or not table.seen.isdisjoint(drawn):
            return None
    elif isinstance(event, Reveal) and len(set(event.cards)) != len(event.cards):
        return None  # a card shown twice: the set-up checks' (KC210)
    if size >= MAX_HAND_ITEMS or (isinstance(event, (Turn, Reveal)) and record.seat(event.player) is None):
        return None
    record = record.with_event(event)
    replay = replay.then(record)
    verdict = replay.verdict()
    found = verdict.diagnostics
    if playing.static:
        found = tuple(sorted((*playing.static, *found), key=_LINE_AND_COLUMN))
    # What waits for the end of the hand is on its hand line, where its diagnostics start.
    floor = s.floor
    end = bisect_right(found, floor, key=_LINE)
    visible = (*(d for d in found[:end] if not _held_back(d, record)), *found[end:])
    held_back = tuple(d for d in found[:end] if _held_back(d, record))
    return _Judged([(record, verdict)], visible, held_back,
                   playing._replace(replay=replay, size=size, alone=not replay.stopped))


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

