"""A document judged as ``kcref check`` judges it, and judged again after an edit only from the
edited hand on.

The whole text goes once through check's own stages (the reader, the set-up checks, the referee
with the chips carried, the assertions, the suppressions and the configuration's ignored codes,
all through :class:`~kcref.referee.pipeline.FileCheck`), and what each hand starts from is kept: the
chips carried into it and the ``hand`` line before it. After an edit within one hand's lines,
the hands before it are not judged again: the edited hand is judged from what it starts from
(the log's tags, then the hand before it with its dealer written out, as
:class:`~kcref.referee.live.LiveLog` gives the grouping the hands it has judged), with the text
from its ``hand`` line on read at its own line numbers. The hands after it are judged again only
when they depend on it: when the edit moved their lines (messages name lines), or when the chips
it carries on changed; else their diagnostics are kept.

Whatever this scheme cannot vouch for is judged whole: an edit before the first hand, or one
that adds, removes or changes a ``hand`` line or a tag line; a log with a tag after its first
hand, a line end other than LF, a NUL byte, or any file-level diagnostic (KC0xx).
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

from ...engine.carry import NOTHING_CARRIED, ChipCarry, SavedCarry
from ...files.config import Config
from ...model.diagnostics import Diagnostic
from ...model.events import HandStart, Tag
from ...notation.reader import Run, in_runs, read_lines
from ...notation.sourcelines import SourceLines
from ...notation.textlines import text_lines, text_stream
from ...referee.assertions import carried_in, carry_on
from ...referee.grouping import HandRecord
from ...referee.pipeline import FileCheck, settings_of
from ...referee.replay import referee_hand
from ...referee.verdict import HandVerdict


@dataclass(frozen=True, slots=True)
class JudgedHand:
    """One hand as judged: its record, its verdict (with its assertions) and the chips carried in."""

    record: HandRecord
    verdict: HandVerdict
    carried: SavedCarry
    """The chips carried into the hand, before it is dealt."""

    @property
    def line(self) -> int:
        """Its ``hand`` line."""
        return self.record.start.span.line

    def carry(self) -> ChipCarry:
        """The chips the hand is dealt with, as the referee carries them in (see :mod:`kcref.engine.carry`)."""
        carry = ChipCarry.restored(self.carried)
        carry.before(self.record.options)
        return carry


@dataclass(frozen=True, slots=True)
class Judged:
    """A document judged: its text, what ``kcref check`` reports for it, and each hand."""

    text: str
    lines: tuple[str, ...]
    diagnostics: tuple[Diagnostic, ...]
    hands: tuple[JudgedHand, ...]
    tags: tuple[Tag, ...]
    """The tags before the first hand, in order."""
    whole_only: bool
    """Judged whole again after any edit (see the module's docstring)."""
    hands_judged: int
    """How many hands this judgement judged (the others were kept from the one before)."""

    def hand_at(self, line: int) -> JudgedHand | None:
        """The hand whose lines hold ``line`` (from its ``hand`` line to the next), if any."""
        at = bisect_right([h.line for h in self.hands], line) - 1
        return self.hands[at] if at >= 0 else None


def _dealt(hand: JudgedHand) -> HandStart:
    """A hand's ``hand`` line with its dealer written out, so that the dealer passes on from it."""
    start, verdict = hand.record.start, hand.verdict
    return HandStart(start.number, verdict.players[verdict.dealer], start.span, dealer_col=start.dealer_col)


class _Window:
    """The text from one line on, judged through check's stages after a head of events that
    leaves the grouping as the lines before it leave it; what it finds before that line is
    dropped."""

    def __init__(self, path: str, config: Config | None, floor: int, head: Sequence[object],
                 carried: SavedCarry, index: int) -> None:
        self.path, self.config, self.floor, self.head = path, config, floor, head
        self.carried, self.index = carried, index
        self.found: list[Diagnostic] = []
        self.hands: list[JudgedHand] = []
        self.tags: list[Tag] = []
        self.after_first_hand_tag = False
        self.whole_only = False
        """Something was read that only the whole text can say for sure."""

    def emit(self, d: Diagnostic) -> None:
        if d.line >= self.floor or (self.floor == 1 and d.line <= 0):
            self.found.append(d.with_source(""))

    def items(self, text: str, sources: SourceLines) -> Iterator[object]:
        """The head, then what the reader makes of ``text``, its first line numbered as the floor
        (as :func:`~kcref.notation.reader.read_runs` reads a whole text)."""
        yield from self.head
        seen_hand = False
        for item in in_runs(read_lines(text_lines(text_stream(text), self.path), self.path, False, sources,
                                      first=self.floor)):
            if isinstance(item, Diagnostic) and item.code.startswith("KC0"):
                self.whole_only = True  # read from the file's start, it might say otherwise (a KC005's line)
            elif isinstance(item, HandStart):
                seen_hand = True
            elif isinstance(item, Tag):
                if seen_hand:
                    self.after_first_hand_tag = True
                else:
                    self.tags.append(item)
            elif isinstance(item, Run) and seen_hand and any(isinstance(e, Tag) for e in item.events):
                self.after_first_hand_tag = True
            yield item

    def run(self, text: str, until: int | None = None) -> SavedCarry:
        """Judge ``text`` (its first line is the floor), stopping after the
        hand before line ``until`` when given; the chips carried out of the last hand judged."""
        defaults, ignored = settings_of(self.config)
        sources = SourceLines()
        verdicts: list[HandVerdict] = []
        check = FileCheck(self.path, False, self.emit, sources, lambda v, _line: verdicts.append(v), None, ignored)
        carry = ChipCarry.restored(self.carried)
        for record in check.records(self.items(text, sources), defaults):
            line = record.start.span.line
            if line < self.floor:  # the hand before, in the head: judged already, its chips carried
                check.hand(referee_hand(record))
                continue
            if until is not None and line >= until:
                break
            self.index += 1
            if record.index != self.index:
                record = record.with_index(self.index)
                check.judged[-1] = record  # the record the check pairs with the verdict
            carried = carry.saved()
            carry.before(record.options)
            verdict = carried_in(referee_hand(record, carry.stacks, carry.pot), carry)
            carry_on(carry, verdict)
            check.hand(verdict)
            self.hands.append(JudgedHand(record, verdicts[-1], carried))
            carried = carry.saved()
        check.note_suppressions()
        check.flush()
        return carry.saved()


LINE_END = re.compile(r"\r\n?|\n")
"""Where a line ends: LF, CRLF or a CR alone, as ``kcref check`` reads a log and as the protocol
counts lines (never at the other breaks ``str.splitlines`` knows: a form feed, U+2028...)."""


def split_lines(text: str) -> tuple[str, ...]:
    """The lines of ``text`` as the client and ``kcref check`` number them (without their ends)."""
    return tuple(LINE_END.split(text))


def judge(text: str, path: str, config: Config | None = None) -> Judged:
    """Judge the whole ``text`` as ``kcref check`` judges a file named ``path`` holding it."""
    window = _Window(path, config, 1, (), NOTHING_CARRIED, 0)
    window.run(text)
    lines = split_lines(text)
    whole_only = (window.after_first_hand_tag or window.whole_only or not window.hands or "\r" in text or "\0" in text
                  or any(d.code.startswith("KC0") for d in window.found))
    return Judged(text, lines, tuple(window.found), tuple(window.hands), tuple(window.tags), whole_only,
                  len(window.hands))


def _dealer_unsure(old: Judged, previous: JudgedHand) -> bool:
    """Whether the dealer the grouping passes on from ``previous`` may differ from the one its
    verdict names: a hand without players, or with a diagnostic on its ``hand`` line."""
    return not previous.verdict.players or any(d.line == previous.line for d in old.diagnostics)


def _starts_hand_or_tag(line: str) -> bool:
    word = line.lstrip(" \t\ufeff")
    return word.startswith("[") or word[:4].lower() == "hand"


def _offset(lines: Sequence[str], line: int) -> int:
    """The index in the text of the start of ``line`` (1-based)."""
    return sum(len(text) + 1 for text in lines[:line - 1])


def rejudge(old: Judged, text: str, path: str, config: Config | None = None) -> Judged:
    """``text``, an edit of the text ``old`` judged, judged as :func:`judge` judges it: the hands
    before the edited one kept, and those after it kept unless they depend on it."""
    if text == old.text:
        return old
    lines = split_lines(text)
    if old.whole_only or "\r" in text or "\0" in text:
        return judge(text, path, config)
    same_head = 0
    most = min(len(lines), len(old.lines))
    while same_head < most and lines[same_head] == old.lines[same_head]:
        same_head += 1
    same_tail = 0
    while (same_tail < most - same_head
           and lines[len(lines) - 1 - same_tail] == old.lines[len(old.lines) - 1 - same_tail]):
        same_tail += 1
    first = same_head + 1  # the first line edited, 1-based
    changed = [*old.lines[same_head:len(old.lines) - same_tail], *lines[same_head:len(lines) - same_tail]]
    if len(old.lines) - same_tail == same_head:  # lines inserted only: into the hand of the line before
        first -= 1
    at = bisect_right([h.line for h in old.hands], first) - 1
    if at < 0 or any(map(_starts_hand_or_tag, changed)):
        return judge(text, path, config)
    if at > 0 and _dealer_unsure(old, old.hands[at - 1]):
        return judge(text, path, config)
    shift = len(lines) - len(old.lines)
    hand = old.hands[at]
    floor = hand.line
    head: tuple[object, ...] = old.tags if at == 0 else (*old.tags, _dealt(old.hands[at - 1]))
    kept_before = [d for d in old.diagnostics if 0 < d.line < floor or d.line <= 0]
    start = _offset(lines, floor)
    window = _Window(path, config, floor, head, hand.carried, at)
    later = old.hands[at + 1:]
    if shift == 0 and later:
        # The lines after the hand stay where they were: judge the hand alone, and the hands after
        # it only if the chips it carries on changed.
        until = later[0].line
        out = window.run(text[start:_offset(lines, until)])
        if out == later[0].carried and not window.after_first_hand_tag and not window.whole_only:
            kept_after = [d for d in old.diagnostics if d.line >= until]
            return _checked(Judged(text, lines, (*kept_before, *window.found, *kept_after),
                                   (*old.hands[:at], *window.hands, *later), old.tags, False, len(window.hands)),
                            path, config)
        window = _Window(path, config, floor, head, hand.carried, at)
    window.run(text[start:])
    whole_only = window.after_first_hand_tag or window.whole_only or any(d.code.startswith("KC0") for d in window.found)
    if whole_only:
        return judge(text, path, config)
    return _checked(Judged(text, lines, (*kept_before, *window.found), (*old.hands[:at], *window.hands), old.tags,
                           False, len(window.hands)), path, config)


def _checked(judged: Judged, path: str, config: Config | None) -> Judged:
    """The judgement, unless one of its hands is no longer where a hand starts (then the whole text)."""
    hands = judged.hands
    if any(not judged.lines[h.line - 1].lstrip(" \t").lower().startswith("hand") for h in hands):
        return judge(judged.text, path, config)
    return judged


def diagnostics_of(items: Iterable[Diagnostic]) -> list[tuple[int, int, str, str, str]]:
    """Diagnostics as compared in tests and shown by the server: where, severity, code, message."""
    return [(d.line, d.column, d.severity.value, d.code, d.message) for d in items]
