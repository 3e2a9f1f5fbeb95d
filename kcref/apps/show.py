"""``kcref show`` as one function: the drawing of the table, or why there is none."""

from __future__ import annotations

from typing import BinaryIO

from ..files.inputs import STDIN, Inputs, display_name, open_input, problem_diagnostic
from ..model.diagnostics import Diagnostic, printable
from ..model.events import Layout
from ..notation.reader import read_stream
from ..referee.replay import table_at
from ..render.diagnostic_lines import format_text
from ..render.table_view import DEFAULT_VIEW, Located, Unreadable, ViewStyle, draw_dealing, draw_table, locate

SHOW_FORMATS = ("text", "svg")
"""``--format``: the table drawn in text (the default), or as an SVG picture
(:mod:`kcref.render.table_svg`, the picture of ``kcref report``'s replay)."""


class NotShown(Exception):
    """The table cannot be drawn; the message, worded and printable, is for standard error
    (the exit status is ``ExitStatus.USAGE``)."""


def view_style(*, plain: bool, full: bool, terminal: bool, colour: bool) -> ViewStyle:
    """Suit symbols only on a terminal, colour as ``colour`` says; ``plain``: neither."""
    return ViewStyle(ascii=plain or not terminal, colour=not plain and colour, full=full)


def show_input(inputs: Inputs, hand: int | None, line: int | None, style: ViewStyle, fmt: str = "text") -> str:
    """The table at a moment of the one log in ``inputs`` (see :func:`show`),
    drawn as text or (``fmt`` ``svg``) as a standalone SVG picture.

    Raises :class:`NotShown` for a log that cannot be read, or a hand or line not there.
    """
    if inputs.problems:
        raise NotShown(format_text(problem_diagnostic(inputs.problems[0])))
    try:
        if fmt == "svg":
            return show_svg(inputs.paths[0], hand, line)
        return show(inputs.paths[0], hand, line, style)
    except Unreadable as exc:
        raise NotShown(format_text(exc.diagnostic)) from None
    except LookupError as exc:
        raise NotShown(f"kcref show: {printable(str(exc))}") from None


def show_svg(path: str, hand: int | None = None, line: int | None = None) -> str:
    """The table at the same moment as :func:`show`, as a standalone SVG
    document. Before a hand's layout line: the cards dealt so far and a full stock.

    Raises ``Unreadable`` for a log that cannot be read, ``LookupError`` for a hand or line not there.
    """
    from ..render.replay_steps import dealing_state, stop_note
    from ..render.table_svg import state_of, svg_text

    located = locate_path(path, hand, line)
    dealing = dealing_state(located.record, line) if line is not None else None
    if dealing is not None:
        return svg_text(dealing)
    position = table_at(located.record, line, located.stacks, located.pot)
    if position.table is None:
        raise LookupError(f"hand {located.record.number or located.record.index} cannot be replayed: it has syntax or "
                          f"set-up errors (kcref check shows them)")
    return svg_text(state_of(position.table, line, stop_note(position)))


def locate_path(path: str, hand: int | None = None, line: int | None = None, stdin: BinaryIO | None = None) -> Located:
    """The hand of the log at ``path`` that ``hand`` or ``line`` names (see :func:`locate`); ``-``
    reads ``stdin``, by default standard input, once.

    Raises ``Unreadable`` for a log that cannot be read, ``LookupError`` for a hand or line not there.
    """
    opened = open_input(path, stdin)
    if isinstance(opened, Diagnostic):
        raise Unreadable(opened)
    name = display_name(path)
    try:
        return locate(read_stream(opened, name, trivia=True), name, hand, line)
    finally:
        if path != STDIN:
            opened.close()


def show(path: str, hand: int | None = None, line: int | None = None, style: ViewStyle = DEFAULT_VIEW,
         stdin: BinaryIO | None = None) -> str:
    """The whole output of ``kcref show`` for the log at ``path`` (``-`` reads ``stdin``, by
    default standard input), which is read once.

    Raises ``Unreadable`` for a log that cannot be read, ``LookupError`` for a hand or line not there.
    """
    located = locate_path(path, hand, line, stdin)
    record = located.record
    if line is not None and record.valid:
        layout = next((e for e in record.events if isinstance(e, Layout)), None)
        if layout is not None and line < layout.span.line:
            return draw_dealing(located, layout, style)
    position = table_at(record, line, located.stacks, located.pot)
    return draw_table(located, position, style)
