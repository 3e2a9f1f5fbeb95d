"""``kcref report``: a night, or a season, as one self-contained HTML page, made hand by hand.

The page's data (:mod:`kcref.apps.report.data`) is rendered by Jinja2, with autoescaping on,
from the templates of ``kcref/apps/report/templates``: the page (``report.html.j2``, its style sheet
and its script inlined: the page loads nothing) and the parts of a file (``report_parts.html.j2``:
the lines before its first hand, each hand). The pictures are built by ElementTree, which escapes
them (:mod:`kcref.render.table_svg`, :mod:`kcref.render.running_svg`), and each hand's replay data
is JSON escaped for HTML text (:func:`script_json`). A hand's body (its settlement, lines and
replay) waits in an HTML comment until the hand is first opened (:func:`comment_safe`): a page of
thousands of hands opens without building them all. Everything from a log is hostile. Jinja2 and
openskill are imported only by the modules of the report, which only ``kcref report`` imports.

The top of the page (standings, charts, statistics) needs every hand, and the hands are the bulk
of it: so each hand is rendered as soon as it is judged, into a temporary file (the spool), and
once every log is read the page is made piece by piece (``Template.generate``): its top from
memory, each file's hands copied from the spool. Memory holds a hand or two whatever the size of
the logs, and the page (:class:`Page`) is an iterable of text chunks, written one after another.
"""

from __future__ import annotations

import codecs
import json
import os
import tempfile
from collections.abc import Iterator
from typing import IO, Any, NamedTuple

from ...files.inputs import Inputs
from ...files.user_cache import private_folder
from ...model.chunks import joined
from ...model.diagnostics import Diagnostic, printable
from ...model.status import ExitStatus
from ...model.version import VERSION
from ...model.words import plural
from ...render.replay_steps import card_names
from ...render.running_svg import chart_text, legend
from ...render.table_svg import replay_picture, symbols_text
from .data import HandView, PageData, Part, page_data

DEFAULT_TITLE = "Kings in the Corner"
"""The page's title when neither --title nor an Event tag gives one."""


def page_title(event: str | None, nights: int) -> str:
    """The title a page takes from its logs: their events (or :data:`DEFAULT_TITLE`), and how
    many nights (files) it covers when it covers several."""
    name = event or DEFAULT_TITLE
    return f"{name} — {nights} nights" if nights > 1 else name


LIVE_REFRESH = 5
"""With ``--watch``, the page reloads itself this often (seconds), showing the last hand at its
last line: a second screen at the table follows the game."""
CHUNK = 1 << 16
"""About how many characters each text chunk of the page holds."""


def script_json(value: object) -> str:
    """``value`` as JSON that is safe as the text of an HTML element (a ``<template>``, a
    ``<script type="application/json">``) and inside a comment: no ``<``, ``>`` or ``&`` (so no
    ``</script>``, ``<!--`` or ``-->``, and no character reference), and no line or paragraph
    separator."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    for raw, escaped in (("<", "\\u003c"), (">", "\\u003e"), ("&", "\\u0026"), ("\u2028", "\\u2028"),
                         ("\u2029", "\\u2029")):
        text = text.replace(raw, escaped)
    return text


def comment_safe(markup: str) -> str:
    """``markup`` to go inside an HTML comment whole, as a hand's body waits for its first
    opening; a ``ValueError`` if it could end the comment early (``-->``, ``--!>``) or start it
    wrongly (``>``, ``->``). It never can: every ``>`` of a text or an attribute value is escaped,
    by Jinja2 or by :func:`script_json`, so a ``>`` is the end of a tag of the page's own."""
    if "-->" in markup or "--!>" in markup or markup.startswith((">", "->")) or markup.endswith(("-", "<!")):
        raise ValueError("this markup cannot go inside an HTML comment")
    return markup


def _environment() -> Any:
    import jinja2

    env = jinja2.Environment(loader=jinja2.PackageLoader("kcref.apps.report", "templates"),
                             autoescape=jinja2.select_autoescape(("html", "html.j2", "j2"), default=True),
                             undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True,
                             finalize=_shown, bytecode_cache=_template_cache())
    env.globals["plural"] = plural
    return env


def _shown(value: object) -> object:
    """What the templates print of a value: text (a name, a tag value, a file name, a message)
    with every control, bidi or invisible character replaced by U+FFFD, as every other output
    shows it (line ends kept); the page's own markup as it is."""
    from markupsafe import Markup

    if isinstance(value, str) and not isinstance(value, Markup):
        return printable(value, keep_breaks=True)
    return value


TEMPLATE_CODE = "shown"
"""Names how the environment compiles the templates (its ``finalize``): part of the cached code's
name, since Jinja2 checks only a template's text before it uses its cached code."""


def _template_cache() -> Any:
    """Jinja2's cache of the templates compiled once, in a private folder of the user's cache
    (:func:`~kcref.files.user_cache.private_folder`); None (each run compiles them) when there is
    none. An entry is named for this version of kcref, as the templates' options may change with
    it; Jinja2 itself checks the template's text and its own and Python's versions."""
    import jinja2

    folder = private_folder(os.environ, "templates")
    if folder is None:
        return None

    class QuietCache(jinja2.FileSystemBytecodeCache):
        """A cache that cannot be written is not used: the page is made all the same."""

        def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
            try:
                super().dump_bytecode(bucket)
            except OSError:
                pass

    return QuietCache(folder, f"kcref-{VERSION}-{TEMPLATE_CODE}-%s.cache")


def _resource(name: str) -> str:
    from importlib.resources import files

    return (files("kcref.apps.report") / "templates" / name).read_text(encoding="utf-8")


class _Spool:
    """The rendered parts of every file, in a temporary file (gone once closed), each file's
    parts one after another: :meth:`chunks` reads a file's back, as often as asked."""

    def __init__(self) -> None:
        self._file: IO[bytes] = tempfile.TemporaryFile()  # noqa: SIM115 - open as long as the page lives
        self._size = 0
        self._ranges: dict[int, tuple[int, int]] = {}

    def write(self, number: int, text: str) -> None:
        """Add a part of file ``number`` (the parts of a file come together)."""
        data = text.encode("utf-8")
        start, _ = self._ranges.get(number, (self._size, self._size))
        self._file.seek(self._size)
        self._file.write(data)
        self._size += len(data)
        self._ranges[number] = (start, self._size)

    def chunks(self, number: int) -> Iterator[str]:
        """The parts of file ``number``, as text chunks of about :data:`CHUNK` bytes."""
        from markupsafe import Markup

        at, end = self._ranges.get(number, (0, 0))
        decoder = codecs.getincrementaldecoder("utf-8")()
        while at < end:
            self._file.seek(at)
            data = self._file.read(min(CHUNK, end - at))
            if not data:
                break
            at += len(data)
            yield Markup(decoder.decode(data, final=at >= end))

    def close(self) -> None:
        self._file.close()


class Page:
    """The page, as text chunks to write one after another; each pass over it makes it anew
    (the hands from the spool, which :meth:`close` deletes)."""

    def __init__(self, data: PageData, spool: _Spool, title: str | None = None, live: bool = False) -> None:
        self.data = data
        self._spool = spool
        self.title = title or page_title(data.event, len(data.files))
        self.live = live

    def __iter__(self) -> Iterator[str]:
        from markupsafe import Markup

        data = self.data
        fields = {name: getattr(data, name) for name in data.__dataclass_fields__}
        template = _environment().get_template("report.html.j2")
        return joined(template.generate(
            title=self.title,
            refresh=LIVE_REFRESH if self.live else None,
            symbols=Markup(symbols_text()),
            table=Markup(replay_picture()),
            charts=[(r.scoring.name, Markup(chart_text(r)), legend(r)) for r in data.running],
            cards_json=Markup(script_json(card_names())),
            sections=[(f, self._spool.chunks(f.number)) for f in data.files],
            style=Markup(_resource("report.css")),
            script=Markup(_resource("report.js")),
            **fields,
        ), CHUNK)

    def close(self) -> None:
        """Delete the spool: the page cannot be made again."""
        self._spool.close()


class ReportResult(NamedTuple):
    """The page (:class:`Page`: text chunks), the exit status (see
    :attr:`kcref.apps.report.data.PageData.status`), the hands on the page and the errors in
    the logs."""

    page: Page
    status: ExitStatus
    hands: int
    errors: int
    unreadable: tuple[Diagnostic, ...] = ()
    """The errors that say a file could not be read (the page shows them too): the command
    prints them, as ``kcref check`` does."""

    @property
    def html(self) -> str:
        """The whole page as one string (for a small page: a large one is written chunk by chunk)."""
        return "".join(self.page)


def build_report(inputs: Inputs, title: str | None = None, live: bool = False) -> ReportResult:
    """``kcref report``: read and judge the files of ``inputs``, rendering each hand as it is
    judged, and give the page to write (``live``: a page that reloads itself every
    :data:`LIVE_REFRESH` seconds and opens on the last hand's last line) and the exit status."""
    from markupsafe import Markup

    parts = _environment().get_template("report_parts.html.j2").module
    spool = _Spool()

    def sink(part: Part) -> None:
        if isinstance(part, HandView):
            body = str(parts.hand_body(part, Markup(script_json(part.replay))))
            spool.write(part.file, str(parts.hand(part, Markup(comment_safe(body)))))
        else:
            spool.write(part.file, str(parts.preamble(part)))

    try:
        data = page_data(inputs, sink)
    except BaseException:
        spool.close()
        raise
    unreadable = tuple(d for f in data.files for d in f.unread)
    return ReportResult(Page(data, spool, title, live), data.status, data.hand_count, data.errors, unreadable)
