"""``kcref show`` as one function: the drawing of the table, or why there is none."""

from __future__ import annotations

from collections.abc import Mapping

from ..files.inputs import Inputs, problem_diagnostic
from ..model.diagnostics import printable
from .diagnostic_lines import format_text
from .table_view import Unreadable, ViewStyle, locate_path, show

SHOW_FORMATS = ("text", "svg")
"""``--format``: the table drawn in text (the default), or as an SVG picture
(:mod:`kcref.output.table_svg`, the picture of ``kcref report``'s replay)."""


class NotShown(Exception):
    """The table cannot be drawn; the message, worded and printable, is for standard error
    (the exit status is ``ExitStatus.USAGE``)."""


def view_style(*, plain: bool, full: bool, terminal: bool, environ: Mapping[str, str]) -> ViewStyle:
    """Suit symbols and colour only on a terminal, colour never with ``NO_COLOR`` set; ``plain``:
    neither."""
    return ViewStyle(ascii=plain or not terminal, colour=not plain and terminal and not environ.get("NO_COLOR"),
                     full=full)


def show_input(inputs: Inputs, hand: int | None, line: int | None, style: ViewStyle, fmt: str = "text") -> str:
    """The table at a moment of the one log in ``inputs`` (see :func:`kcref.output.table_view.show`),
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
    """The table at the same moment as :func:`kcref.output.table_view.show`, as a standalone SVG
    document. Before a hand's layout line: the cards dealt so far and a full stock.

    Raises ``Unreadable`` for a log that cannot be read, ``LookupError`` for a hand or line not there.
    """
    from ..referee.replay import table_at
    from .replay_steps import dealing_state, stop_note
    from .table_svg import state_of, svg_text

    located = locate_path(path, hand, line)
    dealing = dealing_state(located.record, line) if line is not None else None
    if dealing is not None:
        return svg_text(dealing)
    position = table_at(located.record, line, located.stacks, located.pot)
    if position.table is None:
        raise LookupError(f"hand {located.record.number or located.record.index} cannot be replayed: it has syntax or "
                          f"set-up errors (kcref check shows them)")
    return svg_text(state_of(position.table, line, stop_note(position)))
