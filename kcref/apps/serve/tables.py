"""A club night: several tables served at once, one log each (``table-1.log``, ...) in the
night's folder, each with its own secrets, and a page of the standings across the tables, as
``kcref score NIGHT_DIR`` prints them, updated as each table moves on.

The night's page has a key of its own (it reads, never writes); each table's page is at
``/t/N/`` with its keys (see :mod:`.web`).
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route, WebSocketRoute
from starlette.websockets import WebSocket

from ...render.cells import terminal
from ..score import score_reports
from .guard import Keys, same_origin
from .room import Broadcast, TableRoom
from .web import FORBIDDEN, STATIC, package_file, page_response, relay

LOG_NAME = "table-{}.log"


class SeatingProblem(ValueError):
    """A seating file that cannot be used (its message says why)."""


def seating(text: str, tables: int | None) -> list[str]:
    """The players of each table, one line a table (``Ann, Bob, Cy``; blank lines and ``#``
    comments skipped); as many tables as ``tables`` when it is given."""
    rows = [line.strip() for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#")]
    if not rows:
        raise SeatingProblem("it names no table: write one line of players a table, 'Ann, Bob, Cy'")
    if tables is not None and len(rows) != tables:
        raise SeatingProblem(f"it seats {len(rows)} tables, not {tables}")
    return rows


def standings_text(rooms: Sequence[TableRoom]) -> str:
    """The standings across the tables, as ``kcref score`` prints them for their logs together
    (taken, as it takes the logs of a folder, in the order of their paths: table-10.log before
    table-2.log, which decides the games where a game spans hands)."""
    reports = [room.log.report() for room in sorted(rooms, key=lambda room: room.file.path)]
    if not any(report.hands for report in reports):
        return "No hand is over yet.\n"
    scored = score_reports(reports, skip_invalid=True)
    return scored.out


class Night:
    """The night's page: the standings across ``rooms``, which send ``changes`` each change."""

    def __init__(self, rooms: Sequence[TableRoom], changes: Broadcast, keys: Keys) -> None:
        self.rooms, self.changes, self.keys = rooms, changes, keys
        self.page = package_file("night.html")
        self.static = {name: package_file(name) for name in ("night.js", "serve.css")}

    def routes(self) -> list[BaseRoute]:
        return [Route("/", self.index), Route("/static/{name}", self.static_file), Route("/standings", self.standings),
                WebSocketRoute("/ws", self.websocket)]

    async def index(self, request: Request) -> Response:
        return page_response(self.page, self.keys, request, "/")

    async def static_file(self, request: Request) -> Response:
        name = request.path_params["name"]
        if not self.keys.access(request).read:
            return Response(FORBIDDEN, 403, media_type="text/plain")
        if name not in self.static:
            return Response("not found", 404, media_type="text/plain")
        return Response(self.static[name], media_type=STATIC[name])

    async def standings(self, request: Request) -> Response:
        if not self.keys.access(request).read:
            return JSONResponse({"error": FORBIDDEN}, 403)
        return JSONResponse({"tables": [terminal(room.file.path) for room in self.rooms],
                             "standings": standings_text(self.rooms)})

    async def websocket(self, websocket: WebSocket) -> None:
        if not same_origin(websocket) or not self.keys.access(websocket).read:
            await websocket.close(code=1008)
            return
        await websocket.accept()
        await relay(websocket, self.changes, json.dumps({"kind": "hello"}))
