"""The routes of ``kcref serve``: for each table its page, the page's two static files, the
state, the table's picture, the log, the offers, the writes (a line, an undo) and the WebSocket
that tells every page of every change. Nothing else of the file system is served: the static
files are a fixed list read from the package once, and any other path is 404.

A table alone is served at ``/``; with several, table ``N`` at ``/t/N/`` and the standings
across the tables at ``/`` (see :mod:`.tables`).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable, MutableMapping
from importlib import resources
from typing import Any

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Mount, Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from ...model.events import Turn
from ...notation.reader import read_text
from ...notation.writer import action_text
from .guard import CSP, HEADERS, KEY_COOKIE, MAX_BODY, MAX_LINE, REPORT_CSP, SVG_CSP, Keys, RateLimit, same_origin
from .room import DROPPED, Broadcast, TableRoom

STATIC = {"serve.js": "text/javascript; charset=utf-8", "serve.css": "text/css; charset=utf-8",
          "night.js": "text/javascript; charset=utf-8"}
"""The page's files, and their types: all the server ever reads of the package."""
FORBIDDEN = "forbidden: open the URL that kcref serve printed (it holds the table's key)"

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGI = Callable[[Scope, Receive, Send], Awaitable[None]]


def package_file(name: str) -> bytes:
    """A file of the page, from the package's ``static`` folder."""
    return resources.files(__package__).joinpath("static", name).read_bytes()


def page_response(page: bytes, keys: Keys, request: Request, cookie_path: str) -> Response:
    """A page, to a request that holds a key (else 403), with that key kept in a cookie for the
    page's own requests (its style sheet, script, picture and socket)."""
    if not keys.access(request).read:
        return Response(FORBIDDEN, 403, media_type="text/plain")
    response = Response(page, media_type="text/html; charset=utf-8")
    key = keys.cookie_for(request)
    if key is not None:
        response.set_cookie(KEY_COOKIE, key, path=cookie_path, httponly=True, samesite="strict")
    return response


class TooBig(Exception):
    """A body or a line over the limits."""


class SecurityHeaders:
    """Every HTTP answer carries :data:`~.guard.HEADERS` and, unless it has its own, the page's CSP."""

    def __init__(self, app: ASGI) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                names = {name.lower() for name, _ in headers}
                extra = dict(HEADERS)
                if b"content-security-policy" not in names:
                    extra["Content-Security-Policy"] = CSP
                headers += [(k.lower().encode(), v.encode()) for k, v in extra.items()]
                message["headers"] = headers
            await send(message)

        await self.app(scope, receive, with_headers)


async def _body(request: Request) -> Any:
    """The request's JSON body, refused over :data:`MAX_BODY` bytes (before it is all read)."""
    length = request.headers.get("content-length", "")
    if length.isdigit() and int(length) > MAX_BODY:
        raise TooBig(f"the request is over {MAX_BODY // 1024} KiB")
    data = bytearray()
    async for chunk in request.stream():
        data += chunk
        if len(data) > MAX_BODY:
            raise TooBig(f"the request is over {MAX_BODY // 1024} KiB")
    try:
        return json.loads(data)
    except (ValueError, RecursionError):  # not JSON, or arrays nested too deep for the decoder
        return None


def _is_unicode(text: str) -> bool:
    """Whether ``text`` is Unicode text (JSON can carry a lone surrogate, which no UTF-8 log or
    answer can hold)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _error(status: int, message: str, **more: Any) -> JSONResponse:
    return JSONResponse({"error": message, **more}, status_code=status)


class Table:
    """The routes of one table: its room, its keys, and the write limit shared by all tables."""

    def __init__(self, room: TableRoom, keys: Keys, limit: RateLimit, cookie_path: str = "/") -> None:
        self.room, self.keys, self.limit, self.cookie_path = room, keys, limit, cookie_path
        self.static = {name: package_file(name) for name in ("serve.js", "serve.css")}
        self.page = package_file("index.html")

    def routes(self) -> list[BaseRoute]:
        return [
            Route("/", self.index),
            Route("/favicon.ico", self.no_icon),
            Route("/static/{name}", self.static_file),
            Route("/state", self.state),
            Route("/table.svg", self.picture),
            Route("/log", self.log_text),
            Route("/report", self.report),
            Route("/offers", self.offers),
            Route("/line", self.line, methods=["POST"]),
            Route("/undo", self.undo, methods=["POST"]),
            WebSocketRoute("/ws", self.websocket),
        ]

    # --- reading ---------------------------------------------------------------------------

    async def index(self, request: Request) -> Response:
        return page_response(self.page, self.keys, request, self.cookie_path)

    async def no_icon(self, request: Request) -> Response:
        """Browsers ask for an icon; there is none (and no key is needed to be told so)."""
        return Response(status_code=204)

    async def static_file(self, request: Request) -> Response:
        if not self.keys.access(request).read:
            return Response(FORBIDDEN, 403, media_type="text/plain")
        name = request.path_params["name"]
        if name not in self.static:
            return Response("not found", 404, media_type="text/plain")
        return Response(self.static[name], media_type=STATIC[name])

    async def state(self, request: Request) -> Response:
        access = self.keys.access(request)
        if not access.read:
            return _error(403, FORBIDDEN)
        return JSONResponse({**self.room.state(), "write": access.write})

    async def picture(self, request: Request) -> Response:
        """The table as ``kcref show --format svg`` draws it (404 before the layout)."""
        from ...render.table_svg import state_of, svg_text

        if not self.keys.access(request).read:
            return Response(FORBIDDEN, 403, media_type="text/plain")
        t = self.room.log.table
        if t is None:
            return Response("no table yet", 404, media_type="text/plain")
        return Response(svg_text(state_of(t, self.room.log.lines)), media_type="image/svg+xml",
                        headers={"Content-Security-Policy": SVG_CSP})

    async def log_text(self, request: Request) -> Response:
        if not self.keys.access(request).read:
            return Response(FORBIDDEN, 403, media_type="text/plain")
        return Response(self.room.log_text(), media_type="text/plain; charset=utf-8")

    async def report(self, request: Request) -> Response:
        """The night's ``kcref report`` page, made from the log as it stands (it reloads itself)."""
        if not self.keys.access(request).read:
            return Response(FORBIDDEN, 403, media_type="text/plain")
        recorded = self.room.log_text()  # here, between two writes; the page is made in a thread
        page = await asyncio.to_thread(self.room.report_page, recorded)
        return Response(page, media_type="text/html; charset=utf-8", headers={"Content-Security-Policy": REPORT_CSP})

    async def offers(self, request: Request) -> Response:
        """The legal next actions of the player to play once the actions in ``after`` are played."""
        if not self.keys.access(request).read:
            return _error(403, FORBIDDEN)
        log, after = self.room.log, request.query_params.get("after", "")
        if len(after.encode()) > MAX_LINE or log.turn is None:
            return JSONResponse({"offers": []})
        actions: list[Any] = []
        after = after.strip()
        if after.startswith(f"{log.turn}:"):  # the player's name typed too ("Ann: 5H->E"), as a line may be
            after = after[len(log.turn) + 1:]
        if after.strip():
            items = list(read_text(f"{log.turn}: {after}"))
            if len(items) != 1 or not isinstance(items[0], Turn):
                return JSONResponse({"offers": []})
            actions = list(items[0].actions)
        return JSONResponse({"offers": [action_text(a) for a in log.legal_actions(actions)]})

    # --- writing ---------------------------------------------------------------------------

    async def _write_request(self, request: Request) -> tuple[Any, Response | None]:
        """The body of a write, or the answer that refuses it (no key, too fast, too big)."""
        if not self.keys.access(request).write:
            return None, _error(403, FORBIDDEN + "; a write carries it in the X-Kcref-Key header")
        client = request.client.host if request.client is not None else ""
        if not self.limit.allow(client):
            return None, _error(429, f"more than {self.limit.most} writes a second from this device: "
                                     "wait a moment and send it again")
        try:
            body = await _body(request)
        except TooBig as exc:
            return None, _error(413, str(exc))
        if not isinstance(body, dict) or type(body.get("version")) is not int:  # a JSON true is no version
            return None, _error(400, 'the body is JSON: {"text": "...", "version": N}')
        return body, None

    async def line(self, request: Request) -> Response:
        body, refused = await self._write_request(request)
        if refused is not None:
            return refused
        text = body.get("text")
        if not isinstance(text, str):
            return _error(400, 'the body is JSON: {"text": "...", "version": N}')
        if len(text.encode("utf-8", "surrogatepass")) > MAX_LINE:
            return _error(413, f"the line is over {MAX_LINE // 1024} KiB", state=self.room.state())
        if "\n" in text or "\r" in text:
            return _error(400, "one line at a time: the text holds a line end", state=self.room.state())
        if not text.isascii() and not _is_unicode(text):
            return _error(400, "the text holds half a character (a lone surrogate): type it again",
                          state=self.room.state())
        outcome = self.room.submit(text, body["version"])
        return JSONResponse(outcome.body, status_code=outcome.status)

    async def undo(self, request: Request) -> Response:
        body, refused = await self._write_request(request)
        if refused is not None:
            return refused
        outcome = self.room.undo(body["version"])
        return JSONResponse(outcome.body, status_code=outcome.status)

    # --- listening -------------------------------------------------------------------------

    async def websocket(self, websocket: WebSocket) -> None:
        """Every change, as it happens: first the state now, then each change with the state it leaves."""
        if not same_origin(websocket) or not self.keys.access(websocket).read:
            await websocket.close(code=1008)
            return
        await websocket.accept()
        await relay(websocket, self.room.pages, json.dumps({"kind": "hello", "state": self.room.state()}))


async def relay(websocket: WebSocket, broadcast: Broadcast, hello: str) -> None:
    """Send ``hello``, then every message of ``broadcast``, until the page goes away (or is dropped)."""
    queue = broadcast.listen()
    closed = asyncio.ensure_future(_until_closed(websocket))
    try:
        await websocket.send_text(hello)
        while True:
            got = asyncio.ensure_future(queue.get())
            done, _ = await asyncio.wait({got, closed}, return_when=asyncio.FIRST_COMPLETED)
            if closed in done:
                got.cancel()
                return
            message = got.result()
            if message == DROPPED:
                await websocket.close(code=1013)
                return
            await websocket.send_text(message)
    except (WebSocketDisconnect, RuntimeError):
        return
    finally:
        broadcast.leave(queue)
        closed.cancel()


async def _until_closed(websocket: WebSocket) -> None:
    """Read what the page sends (nothing but pings) until it goes away."""
    try:
        while True:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                return
    except (WebSocketDisconnect, RuntimeError):
        return


def build_app(tables: list[Table], front: list[BaseRoute] | None = None) -> Starlette:
    """The server of ``tables``: one alone at ``/``, several each at ``/t/NAME/`` after the
    routes ``front`` (the page across the tables)."""
    if len(tables) == 1:
        routes: list[BaseRoute] = tables[0].routes()
    else:
        routes = [*(front or []), *(Mount(f"/t/{t.room.name}", routes=t.routes()) for t in tables)]
    return Starlette(routes=routes, middleware=[Middleware(SecurityHeaders)])
