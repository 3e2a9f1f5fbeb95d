"""``kcref report``: a night, or a season, as one self-contained HTML page.

The page's data (:mod:`kcref.output.report_data`) is rendered by Jinja2, with autoescaping on,
from the templates of ``kcref/output/templates`` (the page, its style sheet and its script, all
inlined: the page loads nothing). The pictures are built by ElementTree, which escapes them
(:mod:`kcref.output.table_svg`, :mod:`kcref.output.running_svg`), and the replay data goes into
a ``<script type="application/json">`` escaped for it (:func:`script_json`). Everything from a log
is hostile. Jinja2 and openskill are imported only by the modules of the report, which only
``kcref report`` imports.
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from typing import Any, NamedTuple

from ..files.inputs import Inputs
from ..model.codes import UNREADABLE
from ..model.diagnostics import Diagnostic
from ..model.status import ExitStatus
from ..model.words import plural
from .replay_steps import replay_data
from .report_data import PageData, page_data
from .running_svg import chart_text
from .table_svg import TableState, draw, symbols_text

DEFAULT_TITLE = "Kings in the Corner"
"""The page's title when neither --title nor an Event tag gives one."""
LIVE_REFRESH = 5
"""With ``--watch``, the page reloads itself this often (seconds), showing the last hand at its
last line: a second screen at the table follows the game."""


class ReportResult(NamedTuple):
    """The page, the exit status (see :attr:`kcref.output.report_data.PageData.status`), the
    hands on the page and the errors in the logs."""

    html: str
    status: ExitStatus
    hands: int
    errors: int
    unreadable: tuple[Diagnostic, ...] = ()
    """The errors that say a file could not be read (the page shows them too): the command
    prints them, as ``kcref check`` does."""


def script_json(value: object) -> str:
    """``value`` as JSON that is safe inside ``<script type="application/json">``: no ``<``, ``>``
    or ``&`` (so no ``</script>`` or ``<!--``), and no line or paragraph separator."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    for raw, escaped in (("<", "\\u003c"), (">", "\\u003e"), ("&", "\\u0026"), ("\u2028", "\\u2028"),
                         ("\u2029", "\\u2029")):
        text = text.replace(raw, escaped)
    return text


def _environment() -> Any:
    import jinja2

    return jinja2.Environment(loader=jinja2.PackageLoader("kcref.output", "templates"),
                              autoescape=jinja2.select_autoescape(("html", "html.j2", "j2"), default=True),
                              undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True)


def _resource(name: str) -> str:
    from importlib.resources import files

    return (files("kcref.output") / "templates" / name).read_text(encoding="utf-8")


def render(data: PageData, title: str | None = None, live: bool = False) -> str:
    """The page of ``data`` (:func:`kcref.output.report_data.page_data`); ``live``: a page that
    reloads itself every :data:`LIVE_REFRESH` seconds and opens on the last hand's last line."""
    from markupsafe import Markup

    blank = TableState(((),) * 8, 0, (), None, "")
    fields = {name: getattr(data, name) for name in data.__dataclass_fields__}
    return str(_environment().get_template("report.html.j2").render(
        title=title or data.event or DEFAULT_TITLE,
        refresh=LIVE_REFRESH if live else None,
        symbols=Markup(symbols_text()),
        table=Markup(ET.tostring(draw(blank, standalone=False), encoding="unicode")),
        charts=[(r.scoring.name, Markup(chart_text(r))) for r in data.running],
        replay_json=Markup(script_json(replay_data(data.replays))),
        plural=plural,
        style=Markup(_resource("report.css")),
        script=Markup(_resource("report.js")),
        **fields,
    ))


def build_report(inputs: Inputs, title: str | None = None, live: bool = False) -> ReportResult:
    """``kcref report``: the page for the files of ``inputs`` (``live``: see :func:`render`), and
    the exit status."""
    data = page_data(inputs)
    unreadable = tuple(d for f in data.files for d in f.diagnostics if d.code in UNREADABLE)
    return ReportResult(render(data, title, live), data.status, data.hand_count, data.errors, unreadable)
