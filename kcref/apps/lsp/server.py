"""The language server over standard input and output (pygls): each request answered from the
document's judgement (:mod:`.features`), the diagnostics published after each change, once the
typing pauses.

Nothing a document holds takes the server down: a request whose answer fails gets the
protocol's error and the server goes on; the judging runs off the protocol's thread, so that a
large document keeps no request waiting behind it; a judgement overtaken by a newer text is not
published."""

from __future__ import annotations

import asyncio
import inspect
import json
import logging
from collections.abc import Iterable
from typing import Any

from lsprotocol import types as lsp
from pygls.lsp.server import LanguageServer
from pygls.workspace import TextDocument, Workspace
from pygls.workspace.position_codec import PositionCodec

from ...model.codes import Severity
from ...model.diagnostics import Diagnostic
from ...model.version import VERSION
from . import features
from .document import Document
from .judging import LINE_END, Judged, split_lines

DEBOUNCE = 0.1
"""Seconds without a change before a changed document is judged and its diagnostics published,
while changes come faster than that (typing); a change after a pause is judged at once."""

SEVERITIES = {Severity.ERROR: lsp.DiagnosticSeverity.Error, Severity.WARNING: lsp.DiagnosticSeverity.Warning,
              Severity.INFO: lsp.DiagnosticSeverity.Information}
KINDS = {"action": lsp.CompletionItemKind.Value, "player": lsp.CompletionItemKind.Variable,
         "keyword": lsp.CompletionItemKind.Keyword, "tag": lsp.CompletionItemKind.Property,
         "value": lsp.CompletionItemKind.EnumMember}
LEGEND = lsp.SemanticTokensLegend(token_types=list(features.TOKEN_TYPES),
                                  token_modifiers=list(features.SUIT_MODIFIERS))

log = logging.getLogger(__name__)


class LogText(TextDocument):
    """A document as the client holds it, its lines ending where the protocol ends them (LF,
    CRLF, CR): pygls splits them with ``str.splitlines``, which also breaks at a form feed,
    U+2028, U+0085..., so that an edit below such a character in a comment lands on the wrong
    line and the text judged is no longer the editor's."""

    @property
    def lines(self) -> tuple[str, ...]:
        ends = [m.end() for m in LINE_END.finditer(self.source)]
        starts = [0, *ends]
        return tuple(self.source[a:b] for a, b in zip(starts, [*ends, len(self.source)]) if a < b)

    def _apply_incremental_change(self, change: lsp.TextDocumentContentChangePartial) -> None:
        """The change, its positions past the end of their line first brought back to the line's
        end, as the protocol says (pygls takes them back one character more: on a last line
        with no line end, before its last character)."""
        lines = self.lines
        change.range = lsp.Range(self._within(lines, change.range.start), self._within(lines, change.range.end))
        super()._apply_incremental_change(change)

    def _within(self, lines: tuple[str, ...], position: lsp.Position) -> lsp.Position:
        if position.line >= len(lines):
            return position
        length = self.position_codec.client_num_units(lines[position.line].rstrip("\r\n"))
        return lsp.Position(position.line, min(position.character, length))


class LogWorkspace(Workspace):
    """The workspace, its text documents :class:`LogText`."""

    def _create_text_document(self, doc_uri: str, source: str | None = None, version: int | None = None,
                              language_id: str | None = None) -> TextDocument:
        return LogText(doc_uri, source=source, version=version, language_id=language_id,
                       sync_kind=self._sync_kind, position_codec=self._position_codec)


class KcrefServer(LanguageServer):
    """The server and its open documents, by URI."""

    def __init__(self) -> None:
        super().__init__("kcref", VERSION)
        self.documents: dict[str, Document] = {}
        self.pending: dict[str, asyncio.TimerHandle] = {}
        self.writing: asyncio.Future[Any] | None = None
        """The last write under way, for a writer that writes asynchronously."""
        self.changed: dict[str, float] = {}
        """When each document last changed (the event loop's clock)."""
        self.forms: dict[str, dict[tuple[Diagnostic, str], str]] = {}
        """Each document's diagnostics in the protocol's JSON form, by diagnostic and line text."""

    @property
    def codec(self) -> PositionCodec:
        """Characters to the units the client counts positions in (UTF-16 unless agreed otherwise)."""
        return self.workspace.position_codec

    def document(self, uri: str) -> Document:
        """The open document at ``uri`` (opened from the workspace's copy if the editor never said)."""
        doc = self.documents.get(uri)
        text = self.workspace.get_text_document(uri).source
        if doc is None:
            doc = self.documents[uri] = Document(uri, text)
        elif doc.text != text:
            doc.update(text, doc.version)
        return doc

    async def judged(self, uri: str) -> tuple[Document, Judged]:
        doc = self.document(uri)
        return doc, await asyncio.to_thread(doc.judged)

    # --- positions: the document's characters to the client's units, and back ---------------------

    def range(self, judged: Judged, span: features.Span) -> lsp.Range:
        lines = judged.lines
        line = max(min(span.line, len(lines) - 1), 0)
        text = lines[line] if lines else ""
        start = min(span.start, len(text))
        end = min(max(span.end, start), len(text))
        return lsp.Range(self._client(text, line, start), self._client(text, line, end))

    def units(self, text: str) -> int:
        """How many units the client counts in ``text`` (pygls counts them a character at a
        time, too slow for a line of megabytes)."""
        if text.isascii():
            return len(text)
        encoding = self.codec.encoding
        if encoding == lsp.PositionEncodingKind.Utf8:
            return len(text.encode("utf-8", "surrogatepass"))
        if encoding == lsp.PositionEncodingKind.Utf32:
            return len(text)
        return len(text.encode("utf-16-le", "surrogatepass")) // 2

    def _client(self, text: str, line: int, character: int) -> lsp.Position:
        return lsp.Position(line, self.units(text[:character]))

    def character(self, judged: Judged, position: lsp.Position) -> tuple[int, str]:
        """The cursor as a line index and the text before it on that line (in characters)."""
        text = judged.lines[position.line] if position.line < len(judged.lines) else ""
        if text.isascii():
            return position.line, text[:position.character]
        units = 0
        for i, ch in enumerate(text):
            if units >= position.character:
                return position.line, text[:i]
            units += self.units(ch)
        return position.line, text

    # --- diagnostics -----------------------------------------------------------------------------

    def diagnostics(self, doc: Document, judged: Judged, items: Iterable[Diagnostic] | None = None,
                    ) -> list[lsp.Diagnostic]:
        """The diagnostics of the judgement (or ``items`` of them) as the protocol carries them."""
        found = []
        for d in judged.diagnostics if items is None else items:
            span = features.span_of(judged, d)
            where = self.range(judged, span)
            hint = features.table_hint(d, doc.path)
            related = None if hint is None else [
                lsp.DiagnosticRelatedInformation(lsp.Location(doc.uri, where), hint)]
            found.append(lsp.Diagnostic(where, d.message, severity=SEVERITIES[d.severity], code=d.code,
                                        source="kcref", related_information=related))
        return found

    def schedule(self, uri: str, delay: float) -> None:
        """Judge the document and publish its diagnostics after ``delay`` seconds with no change
        (at once when the last change came longer ago than that)."""
        loop = asyncio.get_running_loop()
        now = loop.time()
        waiting = self.pending.pop(uri, None)
        if waiting is not None:
            waiting.cancel()
        elif now - self.changed.get(uri, float("-inf")) > delay:
            delay = 0
        self.changed[uri] = now
        self.pending[uri] = loop.call_later(delay, lambda: asyncio.ensure_future(self.publish(uri)))

    async def publish(self, uri: str) -> None:
        self.pending.pop(uri, None)
        doc = self.documents.get(uri)
        if doc is None:
            return
        try:
            judged = await asyncio.to_thread(doc.judged)
        except Exception:  # a bug must not end the server: say so in its log, and go on
            log.exception("judging %s failed", uri)
            return
        if self.documents.get(uri) is not doc or judged.text != doc.text:
            return  # overtaken by a newer text: its own judgement publishes
        self.send_diagnostics(doc, judged)

    def send_diagnostics(self, doc: Document, judged: Judged) -> None:
        """Publish the judgement's diagnostics. A log may hold a penalty note on every turn, and
        an edit changes those of one hand: each diagnostic is written in the protocol's JSON once,
        and that text is kept while it stands on the same line text."""
        kept = self.forms.get(doc.uri, {})
        forms: dict[tuple[Diagnostic, str], str] = {}
        lines = judged.lines
        for d in judged.diagnostics:
            key = (d, lines[d.line - 1] if 0 < d.line <= len(lines) else "")
            form = kept.get(key)
            if form is None:
                form = json.dumps(self.protocol._converter.unstructure(self.diagnostics(doc, judged, (d,))[0]))
            forms[key] = form
        self.forms[doc.uri] = forms
        version = "" if doc.version is None else f', "version": {int(doc.version)}'
        shown = ", ".join(forms[(d, lines[d.line - 1] if 0 < d.line <= len(lines) else "")]
                          for d in judged.diagnostics)
        self.write(f'{{"jsonrpc": "2.0", "method": "{lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS}", "params": '
                   f'{{"uri": {json.dumps(doc.uri)}{version}, "diagnostics": [{shown}]}}}}')

    def write(self, body: str) -> None:
        """Send one message, framed as pygls frames its own (its body written here, from the
        diagnostics' kept text, rather than converted again whole)."""
        writer = self.protocol.writer
        if writer is None:
            return
        data = body.encode("utf-8")
        header = (f"Content-Length: {len(data)}\r\nContent-Type: {self.protocol.CONTENT_TYPE}; "
                  f"charset={self.protocol.CHARSET}\r\n\r\n").encode("ascii")
        done = writer.write(header + data)
        if inspect.isawaitable(done):
            self.writing = asyncio.ensure_future(done)


server = KcrefServer()


@server.feature(lsp.INITIALIZE)
def initialize(ls: KcrefServer, params: lsp.InitializeParams) -> None:
    """The workspace pygls has just made, made again of :class:`LogText` documents (before any is opened)."""
    made = ls.workspace
    ls.protocol._workspace = LogWorkspace(made.root_uri, made._sync_kind, list(made.folders.values()),
                                          made.position_encoding)


@server.feature(lsp.TEXT_DOCUMENT_DID_OPEN)
async def did_open(ls: KcrefServer, params: lsp.DidOpenTextDocumentParams) -> None:
    item = params.text_document
    ls.documents[item.uri] = Document(item.uri, item.text, item.version)
    await ls.publish(item.uri)


@server.feature(lsp.TEXT_DOCUMENT_DID_CHANGE)
def did_change(ls: KcrefServer, params: lsp.DidChangeTextDocumentParams) -> None:
    uri = params.text_document.uri
    doc = ls.documents.get(uri)
    text = ls.workspace.get_text_document(uri).source
    if doc is None:
        ls.documents[uri] = Document(uri, text, params.text_document.version)
    else:
        doc.update(text, params.text_document.version)
    ls.schedule(uri, DEBOUNCE)


@server.feature(lsp.TEXT_DOCUMENT_DID_SAVE)
def did_save(ls: KcrefServer, params: lsp.DidSaveTextDocumentParams) -> None:
    ls.schedule(params.text_document.uri, 0)


@server.feature(lsp.TEXT_DOCUMENT_DID_CLOSE)
def did_close(ls: KcrefServer, params: lsp.DidCloseTextDocumentParams) -> None:
    uri = params.text_document.uri
    ls.documents.pop(uri, None)
    ls.forms.pop(uri, None)
    ls.changed.pop(uri, None)
    waiting = ls.pending.pop(uri, None)
    if waiting is not None:
        waiting.cancel()
    ls.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(uri, []))


@server.feature(lsp.TEXT_DOCUMENT_COMPLETION,
                lsp.CompletionOptions(trigger_characters=[":", ";", " ", ">", "[", '"']))
async def completion(ls: KcrefServer, params: lsp.CompletionParams) -> lsp.CompletionList:
    _, judged = await ls.judged(params.text_document.uri)
    line, before = ls.character(judged, params.position)
    items = []
    for order, offer in enumerate(features.completions(judged, line, before)):
        span = features.Span(line, len(before) - offer.replaces, len(before))
        items.append(lsp.CompletionItem(offer.text, kind=KINDS[offer.kind], sort_text=f"{order:04d}",
                                        filter_text=offer.text,
                                        text_edit=lsp.TextEdit(ls.range(judged, span), offer.text)))
    return lsp.CompletionList(is_incomplete=False, items=items)


@server.feature(lsp.TEXT_DOCUMENT_HOVER)
async def hover(ls: KcrefServer, params: lsp.HoverParams) -> lsp.Hover | None:
    doc, judged = await ls.judged(params.text_document.uri)
    line, before = ls.character(judged, params.position)
    text = features.hover(judged, doc.path, line, len(before))
    if text is None:
        return None
    return lsp.Hover(lsp.MarkupContent(lsp.MarkupKind.Markdown, f"```text\n{text.rstrip()}\n```"))


@server.feature(lsp.TEXT_DOCUMENT_FORMATTING)
async def formatting(ls: KcrefServer, params: lsp.DocumentFormattingParams) -> list[lsp.TextEdit] | None:
    doc = ls.document(params.text_document.uri)
    text = doc.text
    canonical = await asyncio.to_thread(features.formatted, text, doc.path)
    if canonical is None or canonical == text:
        return None if canonical is None else []
    lines = split_lines(text)
    end = lsp.Position(len(lines) - 1, ls.units(lines[-1]))
    return [lsp.TextEdit(lsp.Range(lsp.Position(0, 0), end), canonical)]


@server.feature(lsp.TEXT_DOCUMENT_CODE_ACTION,
                lsp.CodeActionOptions(code_action_kinds=[lsp.CodeActionKind.QuickFix]))
async def code_action(ls: KcrefServer, params: lsp.CodeActionParams) -> list[lsp.CodeAction]:
    doc, judged = await ls.judged(params.text_document.uri)
    first, last = params.range.start.line, params.range.end.line
    actions = []
    for d in judged.diagnostics:
        if not first <= max(d.line, 1) - 1 <= last:
            continue
        shown = ls.diagnostics(doc, judged, (d,))[0]
        for fix in features.fixes(judged, d):
            edit = lsp.WorkspaceEdit(changes={doc.uri: [lsp.TextEdit(ls.range(judged, fix.span), fix.text)]})
            actions.append(lsp.CodeAction(fix.title, kind=lsp.CodeActionKind.QuickFix, diagnostics=[shown],
                                          edit=edit))
    return actions


@server.feature(lsp.TEXT_DOCUMENT_SEMANTIC_TOKENS_FULL, LEGEND)
async def semantic_tokens(ls: KcrefServer, params: lsp.SemanticTokensParams) -> lsp.SemanticTokens:
    doc = ls.document(params.text_document.uri)
    lines = split_lines(doc.text)
    data: list[int] = []
    last_line = last_start = 0
    for token in features.tokens(lines):
        text = lines[token.line]
        start = ls.units(text[:token.start])
        length = ls.units(text[token.start:token.start + token.length])
        delta_line = token.line - last_line
        delta_start = start - last_start if delta_line == 0 else start
        modifiers = 0 if token.suit is None else 1 << features.SUIT_MODIFIERS.index(token.suit)
        data += [delta_line, delta_start, length, features.TOKEN_TYPES.index(token.type), modifiers]
        last_line, last_start = token.line, start
    return lsp.SemanticTokens(data=data)


def serve(**streams: Any) -> None:
    """Serve over standard input and output until the client says ``exit``."""
    server.start_io(**streams)
