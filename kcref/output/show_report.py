"""``kcref show`` as one function: the drawing of the table, or why there is none."""

from __future__ import annotations

from collections.abc import Mapping

from ..files.inputs import Inputs, problem_diagnostic
from ..model.diagnostics import printable
from .diagnostic_lines import format_text
from .table_view import Unreadable, ViewStyle, show


class NotShown(Exception):
    """The table cannot be drawn; the message, worded and printable, is for standard error
    (the exit status is ``ExitStatus.USAGE``)."""


def view_style(*, plain: bool, full: bool, terminal: bool, environ: Mapping[str, str]) -> ViewStyle:
    """Suit symbols and colour only on a terminal, colour never with ``NO_COLOR`` set; ``plain``:
    neither."""
    return ViewStyle(ascii=plain or not terminal, colour=not plain and terminal and not environ.get("NO_COLOR"),
                     full=full)


def show_input(inputs: Inputs, hand: int | None, line: int | None, style: ViewStyle) -> str:
    """The table at a moment of the one log in ``inputs`` (see :func:`kcref.output.table_view.show`).

    Raises :class:`NotShown` for a log that cannot be read, or a hand or line not there.
    """
    if inputs.problems:
        raise NotShown(format_text(problem_diagnostic(inputs.problems[0])))
    try:
        return show(inputs.paths[0], hand, line, style)
    except Unreadable as exc:
        raise NotShown(format_text(exc.diagnostic)) from None
    except LookupError as exc:
        raise NotShown(f"kcref show: {printable(str(exc))}") from None
