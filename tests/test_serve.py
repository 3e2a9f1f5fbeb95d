"""``kcref serve``'s routes through Starlette's TestClient: a line fed, refused, taken back; a
stale submission; the secrets; the size and rate limits; nothing served outside the log and its
page; every change broadcast on the WebSocket (whose Origin is checked); the log on disk holds
each accepted line before the answer."""

from __future__ import annotations

import io
import json
import os
import warnings
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette", reason="pip install 'kcref[serve]'")
pytestmark = pytest.mark.filterwarnings("ignore:Using `httpx`")

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # the TestClient would rather have httpx2 (not installed)
    from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect  # noqa: E402

from kcref.apps.record.view import tag_line  # noqa: E402
from kcref.apps.serve.guard import CSP, Keys, RateLimit  # noqa: E402
from kcref.apps.serve.room import MOVED_ON  # noqa: E402
from kcref.apps.serve.run import open_table  # noqa: E402
from kcref.apps.serve.web import Table, build_app  # noqa: E402

HEAD = ['[Players "Ann, Bob"]', '[Rules "commercial"]']
HAND = ["hand 1", "deal Ann: 7H AH 7C KS QS JC JD", "deal Bob: 10H 9D 4H 4C 8D 6D 9C", "layout N:KC E:JH S:2C W:QH"]
ORIGIN = {"origin": "http://testserver"}


class Served:
    """A table served to a TestClient: its log file, its keys, and the client."""

    def __init__(self, path: Path, limit: RateLimit) -> None:
        self.path = path
        self.files = ExitStack()
        err = io.StringIO()
        room = open_table("1", str(path), [], self.files, err)
        assert room is not None, err.getvalue()
        self.room = room
        self.keys = Keys.new()
        self.client = TestClient(build_app([Table(room, self.keys, limit)]))

    def get(self, url: str, key: str | None = None) -> object:
        return self.client.get(url, headers={"X-Kcref-Key": key or self.keys.write})

    def post(self, url: str, body: object, key: str | None = None) -> tuple[int, dict[str, object]]:
        response = self.client.post(url, content=json.dumps(body), headers={"X-Kcref-Key": key or self.keys.write})
        return response.status_code, response.json()

    def line(self, text: str, version: int | None = None) -> tuple[int, dict[str, object]]:
        return self.post("/line", {"text": text, "version": self.room.version if version is None else version})


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Served]:
    path = tmp_path / "t.log"
    path.write_text("".join(line + "\n" for line in HEAD), encoding="utf-8")
    s = Served(path, RateLimit(most=10_000))
    with s.files:
        yield s


def test_a_line_accepted_is_on_disk_before_the_answer(served: Served) -> None:
    for line in HAND:
        status, body = served.line(line)
        assert status == 200 and body["accepted"], body
    # The set-up waits for the layout (a log never holds a hand without one); then all is written.
    assert served.path.read_text(encoding="utf-8") == "".join(line + "\n" for line in HEAD + HAND)
    status, body = served.line("KS->NE; AH->S")
    assert status == 200 and body["text"] == "Ann: KS->NE; AH->S"
    assert served.path.read_text(encoding="utf-8").endswith("Ann: KS->NE; AH->S\n")
    state = body["state"]
    assert isinstance(state, dict) and state["turn"] == "Bob" and state["expect"] == "turn"
    assert state["lines"] == 7 and state["recent"][-1] == "Ann: KS->NE; AH->S"


def test_a_refused_line_is_not_written_and_says_why(served: Served) -> None:
    for line in HAND:
        served.line(line)
    before = served.path.read_bytes()
    status, body = served.line("Bob: 8D->N")
    assert status == 422 and not body["accepted"]
    diagnostics = body["diagnostics"]
    assert isinstance(diagnostics, list) and diagnostics[0]["code"] == "KC310"
    assert "Ann's turn" in diagnostics[0]["message"] and diagnostics[0]["hint"]
    assert served.path.read_bytes() == before
    assert served.room.version == 4


def test_undo_takes_the_line_back_from_the_file(served: Served) -> None:
    for line in HAND:
        served.line(line)
    served.line("KS->NE")
    status, body = served.post("/undo", {"version": served.room.version})
    assert status == 200 and body["undone"] == "Ann: KS->NE"
    assert served.path.read_text(encoding="utf-8") == "".join(line + "\n" for line in HEAD + HAND)
    status, body = served.post("/undo", {"version": served.room.version})
    assert status == 200 and body["undone"] == HAND[-1]  # the layout: the set-up waits again
    assert served.path.read_text(encoding="utf-8") == "".join(line + "\n" for line in HEAD)


def test_the_recent_lines_are_the_logs_as_numbered(served: Served) -> None:
    """The page numbers the recent lines back from ``lines``: they are the log's last lines, a
    run of blank lines one line (as written) and a blank line shown once a line follows it."""
    for text in ["", *HAND, "", "", "KS->NE; AH->S", "", "", "", "# a note", ""]:
        assert served.line(text)[0] == 200, text
        state = served.room.state()
        on_disk = served.path.read_text(encoding="utf-8").split("\n")[:-1]
        if not served.room.log.unwritten:
            assert state["lines"] == len(on_disk) and state["recent"] == on_disk[-len(state["recent"]):], text
    assert state["recent"][-4:] == ["", "Ann: KS->NE; AH->S", "", "# a note"]


def test_a_stale_submission_is_refused_with_the_new_state(served: Served) -> None:
    version = served.room.version
    assert served.line("hand 1", version)[0] == 200
    status, body = served.line("hand 1", version)  # a second phone, built on the same state
    assert status == 409 and body["error"] == MOVED_ON
    state = body["state"]
    assert isinstance(state, dict) and state["version"] == version + 1 and state["expect"] == "deal"
    # An undo and a new line leave the same line count: the version still tells them apart.
    served.post("/undo", {"version": served.room.version})
    served.line("hand 1")
    assert served.line("deal Ann: 7H", version + 1)[0] == 409
    assert served.post("/undo", {"version": 0})[0] == 409


def test_every_request_needs_a_key_and_a_write_the_write_key_in_a_header(served: Served) -> None:
    client, keys = served.client, served.keys
    for url in ("/", "/state", "/log", "/table.svg", "/static/serve.js", "/offers"):
        assert client.get(url).status_code == 403, url
        assert client.get(url, headers={"X-Kcref-Key": "wrong"}).status_code == 403, url
    assert client.get(f"/state?key={keys.view}").json()["write"] is False
    assert client.get("/state", headers={"X-Kcref-Key": keys.write}).json()["write"] is True
    # The page sets the key it was opened with as a cookie; a cookie alone reads, never writes.
    page = client.get(f"/?key={keys.write}")
    assert page.status_code == 200 and "kcref_key" in page.cookies
    assert client.get("/static/serve.css").status_code == 200
    body = json.dumps({"text": "hand 1", "version": 0})
    assert client.post("/line", content=body).status_code == 403
    assert client.post(f"/line?key={keys.write}", content=body).status_code == 403
    assert served.post("/line", {"text": "hand 1", "version": 0}, key=keys.view)[0] == 403
    assert served.room.version == 0 and served.room.log.lines == 2


def test_the_page_is_safe_by_its_headers(served: Served) -> None:
    page = served.client.get(f"/?key={served.keys.view}")
    assert page.headers["content-security-policy"] == CSP
    assert "'unsafe-inline'" not in CSP and "http" not in CSP
    assert page.headers["referrer-policy"] == "no-referrer"
    html = page.text
    assert " on" not in html.replace(" one", "")  # no inline handler (onclick=...)
    assert "<script>" not in html and "http" not in html  # no inline script, nothing from elsewhere


def test_size_limits(served: Served) -> None:
    status, body = served.line("# " + "x" * 4095)
    assert status == 413 and "4 KiB" in str(body["error"])
    response = served.client.post("/line", content=b"{" + b" " * (65 * 1024) + b"}",
                                  headers={"X-Kcref-Key": served.keys.write})
    assert response.status_code == 413 and "64 KiB" in response.json()["error"]
    assert served.line("hand 1\nhand 2")[0] == 400
    assert served.post("/line", ["hand 1"])[0] == 400
    assert served.post("/line", {"text": "hand 1", "version": True})[0] == 400  # JSON true is no number
    for deep in (b"[" * 50_000, b'{"text": "hand 1", "version": 0, "x": ' + b'{"a": ' * 10_000):
        for url in ("/line", "/undo"):  # nested too deep for Python's JSON decoder: a bad body, not a crash
            response = served.client.post(url, content=deep, headers={"X-Kcref-Key": served.keys.write})
            assert response.status_code == 400, url
    assert served.room.log.lines == 2


@pytest.mark.parametrize("text", ["# half a character \ud83c", "hand 1 \udc00"])
def test_a_lone_surrogate_is_refused_not_a_server_error(served: Served, text: str) -> None:
    """JSON can carry half a character; no UTF-8 log (nor answer) can hold it."""
    status, body = served.line(text)
    assert status == 400 and "lone surrogate" in str(body["error"])
    assert served.room.log.lines == 2 and served.room.version == 0
    assert served.line("hand 1")[0] == 200


def test_more_than_twenty_writes_a_second_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "t.log"
    path.write_text("".join(line + "\n" for line in HEAD), encoding="utf-8")
    s = Served(path, RateLimit())
    with s.files:
        statuses = [s.line("# a comment")[0] for _ in range(25)]
    assert statuses[:20] == [200] * 20 and set(statuses[20:]) == {429}
    assert path.read_text(encoding="utf-8").count("# a comment") == 20
    limit = RateLimit(most=2)
    assert limit.allow("a", 0.0) and limit.allow("a", 0.1) and not limit.allow("a", 0.2)
    assert limit.allow("b", 0.2) and limit.allow("a", 1.05)


@pytest.mark.parametrize("url", ["/static/../../pyproject.toml", "/static/index.html", "/static/%2e%2e/room.py",
                                 "/etc/passwd", "/t.log", "/static/", "/..%2f..%2fpyproject.toml"])
def test_nothing_is_served_outside_the_log_and_its_page(served: Served, url: str) -> None:
    response = served.client.get(url, headers={"X-Kcref-Key": served.keys.write})
    assert response.status_code == 404, (url, response.text[:200])


def test_the_log_and_the_picture(served: Served) -> None:
    assert served.client.get("/table.svg", headers={"X-Kcref-Key": served.keys.write}).status_code == 404
    for line in HAND:
        served.line(line)
    log = served.client.get("/log", headers={"X-Kcref-Key": served.keys.view})
    assert log.text == served.path.read_text(encoding="utf-8")
    picture = served.client.get("/table.svg", headers={"X-Kcref-Key": served.keys.view})
    assert picture.headers["content-type"] == "image/svg+xml" and "sandbox" in picture.headers["content-security-policy"]
    assert 'class="kc-table"' in picture.text and "<script" not in picture.text


def test_offers_are_the_legal_actions_after_those_chosen(served: Served) -> None:
    for line in HAND:
        served.line(line)
    state = served.client.get("/state", headers={"X-Kcref-Key": served.keys.write}).json()
    assert "KS->NE" in state["legal"] and "draw" in state["legal"]
    after = served.client.get("/offers", params={"after": "KS->NE"}, headers={"X-Kcref-Key": served.keys.write}).json()
    assert "KS->NE" not in after["offers"] and "AH->S" in after["offers"]
    assert served.client.get("/offers", params={"after": "5S->N"},
                             headers={"X-Kcref-Key": served.keys.write}).json() == {"offers": []}
    # The line may name the player, as a line fed may: the offers are the same.
    for typed, same_as in (("Ann: KS->NE", "KS->NE"), ("Ann:", ""), ("Ann: ", "")):
        offers = served.client.get("/offers", params={"after": typed}, headers={"X-Kcref-Key": served.keys.write})
        assert offers.json()["offers"] == (after["offers"] if same_as else state["legal"]), typed
    for wrong in ("Bob: KS->NE", "ann: KS->NE"):  # refused when fed (KC310, KC205): nothing offered
        offers = served.client.get("/offers", params={"after": wrong}, headers={"X-Kcref-Key": served.keys.write})
        assert offers.json() == {"offers": []}, wrong


def test_every_change_is_broadcast_to_every_page(served: Served) -> None:
    key = served.keys.view
    with served.client.websocket_connect(f"/ws?key={key}", headers=ORIGIN) as one, \
            served.client.websocket_connect(f"/ws?key={key}", headers=ORIGIN) as two:
        assert one.receive_json()["kind"] == "hello" and two.receive_json()["state"]["version"] == 0
        served.line("hand 1")
        served.line("Ann: 8H->N")  # refused: not broadcast
        served.post("/undo", {"version": served.room.version})
        for page in (one, two):
            first, second = page.receive_json(), page.receive_json()
            assert (first["kind"], first["text"], first["state"]["version"]) == ("line", "hand 1", 1)
            assert (second["kind"], second["text"], second["state"]["version"]) == ("undo", "hand 1", 2)


@pytest.mark.parametrize("headers", [{}, {"origin": "http://evil.example"}, {"origin": "null"}])
def test_a_websocket_from_another_origin_or_without_a_key_is_refused(served: Served, headers: dict[str, str]) -> None:
    with pytest.raises(WebSocketDisconnect), \
            served.client.websocket_connect(f"/ws?key={served.keys.view}", headers=headers) as ws:
        ws.receive_json()
    with pytest.raises(WebSocketDisconnect), served.client.websocket_connect("/ws", headers=ORIGIN) as ws:
        ws.receive_json()


def test_a_log_changed_by_another_program_stops_the_writing(served: Served) -> None:
    for line in HAND:
        served.line(line)
    with open(served.path, "a", encoding="utf-8") as f:
        f.write("# someone else\n")
    status, body = served.line("KS->NE")
    assert status == 503 and "changed under" in str(body["error"])
    assert served.line("KS->NE")[0] == 503
    assert "KS->NE" not in served.path.read_text(encoding="utf-8")


HOSTILE = '<img src=x onerror="alert(1)"><script>alert(2)</script>\'"\u202e&amp;'
"""Player names are letters and digits (KC204); tags and comments may hold anything but a line end."""


def test_hostile_text_travels_as_text(tmp_path: Path) -> None:
    path = tmp_path / "t.log"
    path.write_text(tag_line("Event", HOSTILE) + "\n" + "".join(line + "\n" for line in HEAD) + f"# {HOSTILE}\n",
                    encoding="utf-8")
    s = Served(path, RateLimit(most=1000))
    with s.files:
        state = s.client.get("/state", headers={"X-Kcref-Key": s.keys.write}).json()
        assert state["recent"][-1] == f"# {HOSTILE}"  # the page puts it in as text (tests/test_serve_browser.py)
        js = s.client.get("/static/serve.js", headers={"X-Kcref-Key": s.keys.write}).text
        assert "innerHTML" not in js and "insertAdjacentHTML" not in js and "eval(" not in js


def test_fsync_comes_before_the_answer(served: Served, monkeypatch: pytest.MonkeyPatch) -> None:
    synced: list[int] = []
    real = os.fsync

    def fsync(fd: int) -> None:
        real(fd)
        synced.append(os.fstat(fd).st_size)

    monkeypatch.setattr(os, "fsync", fsync)
    served.line("# a comment")
    assert synced and synced[-1] == served.path.stat().st_size


def _serve_cli(*args: str) -> tuple[int, str]:
    from click.testing import CliRunner

    from kcref.cli import main

    result = CliRunner().invoke(main, ["serve", *args])
    return result.exit_code, result.output + (result.stderr if result.stderr_bytes is not None else "")


def test_serve_shares_the_lock_of_record(tmp_path: Path) -> None:
    from kcref.files.logfile import LogFile

    path = tmp_path / "t.log"
    path.write_text("".join(line + "\n" for line in HEAD), encoding="utf-8")
    with LogFile(str(path)):  # as kcref record holds it
        status, said = _serve_cli(str(path), "--port", "0")
    assert status == 2 and "another kcref record or kcref serve" in said


def test_serve_resumes_only_what_record_resumes(tmp_path: Path) -> None:
    path = tmp_path / "t.log"
    path.write_text('[Players "Ann, Bob"]  \n', encoding="utf-8")  # not canonical: spaces at the end
    status, said = _serve_cli(str(path), "--port", "0")
    assert status == 2 and "kcref serve: cannot resume" in said and "kcref fmt --write" in said


def test_an_address_in_use_is_said_plainly(tmp_path: Path) -> None:
    import socket

    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen(1)
    with taken:
        status, said = _serve_cli(str(tmp_path / "t.log"), "--port", str(taken.getsockname()[1]),
                                  "--players", "Ann, Bob")
    assert status == 2 and "cannot listen on 127.0.0.1" in said
    assert not (tmp_path / "t.log").exists()  # the empty log made for it is removed


def test_a_club_night_serves_each_table_with_its_keys_and_the_standings_across_them(tmp_path: Path) -> None:
    from kcref.apps.serve.room import Broadcast
    from kcref.apps.serve.tables import Night
    from tests.serve_util import HAND as WHOLE_HAND

    changes = Broadcast()
    with ExitStack() as files:
        rooms = []
        for n, players in ((1, "Ann, Bob"), (2, "Cy, Dee")):
            room = open_table(str(n), str(tmp_path / f"table-{n}.log"), [("Players", players), ("Rules", "commercial")],
                              files, io.StringIO(), changes)
            assert room is not None
            rooms.append(room)
        limit = RateLimit(most=1000)
        tables = [Table(room, Keys.new(), limit, f"/t/{room.name}/") for room in rooms]
        night = Night(rooms, changes, Keys.new())
        client = TestClient(build_app(tables, night.routes()))
        one, two = (t.keys.write for t in tables)

        def line(table: str, key: str, text: str) -> int:
            version = client.get(f"/t/{table}/state", headers={"X-Kcref-Key": key}).json()["version"]
            return client.post(f"/t/{table}/line", json={"text": text, "version": version},
                               headers={"X-Kcref-Key": key}).status_code

        assert client.get(f"/t/1/?key={two}").status_code == 403  # a table's key opens that table only
        assert client.post("/t/1/line", json={"text": "hand 1", "version": 0},
                           headers={"X-Kcref-Key": two}).status_code == 403
        page = client.get(f"/t/1/?key={one}")
        assert page.status_code == 200 and "Path=/t/1/" in page.headers["set-cookie"]
        with client.websocket_connect(f"/ws?key={night.keys.view}", headers=ORIGIN) as ws:
            assert ws.receive_json() == {"kind": "hello"}
            for text in WHOLE_HAND:
                assert line("1", one, text) == 200
            assert ws.receive_json() == {"kind": "changed", "table": "1"}
        standings = client.get(f"/standings?key={night.keys.view}").json()
        assert "Ann" in standings["standings"] and "Bob" in standings["standings"]
        assert "Cy" not in standings["standings"]  # no hand over at table 2 yet
        assert client.get("/standings").status_code == 403
        assert client.get(f"/?key={night.keys.view}").status_code == 200
        assert night.keys.view not in {t.keys.write for t in tables} | {t.keys.view for t in tables}
    assert (tmp_path / "table-1.log").read_text(encoding="utf-8").endswith(WHOLE_HAND[-1] + "\n")


def test_a_tables_page_opened_after_the_nights_keeps_its_key(tmp_path: Path) -> None:
    """The night's page sets its cookie at ``/``, a table's at ``/t/N/``: a browser that opened
    both sends both (the table's first), and the table's page still loads its files."""
    from kcref.apps.serve.room import Broadcast
    from kcref.apps.serve.tables import Night

    changes = Broadcast()
    with ExitStack() as files:
        rooms = [open_table(str(n), str(tmp_path / f"table-{n}.log"), [("Players", "Ann, Bob")], files,
                            io.StringIO(), changes) for n in (1, 2)]
        assert all(rooms)
        tables = [Table(room, Keys.new(), RateLimit(), f"/t/{room.name}/") for room in rooms if room is not None]
        night = Night([t.room for t in tables], changes, Keys.new())
        client = TestClient(build_app(tables, night.routes()))
        one = tables[0].keys.write
        both = {"cookie": f"kcref_key={one}; kcref_key={night.keys.view}"}
        for url in ("/t/1/static/serve.js", "/t/1/static/serve.css", "/t/1/state", "/t/1/log"):
            assert client.get(url, headers=both).status_code == 200, url
        assert client.get("/standings", headers=both).status_code == 200
        assert client.get("/t/2/state", headers=both).status_code == 403  # table 1's key opens table 1 only
        assert client.post("/t/1/line", json={"text": "hand 1", "version": 0}, headers=both).status_code == 403


def test_the_standings_across_eleven_tables_are_those_of_kcref_score(tmp_path: Path) -> None:
    """``kcref score NIGHT_DIR`` takes the logs in the order of their paths (table-10.log before
    table-2.log), and where a game is two hands that order decides the games (here, who leads
    the last one): the night's page takes them in the same order."""
    from click.testing import CliRunner

    from kcref.apps.serve.room import Broadcast
    from kcref.apps.serve.tables import standings_text
    from kcref.cli import main
    from tests.serve_util import HAND as WHOLE_HAND

    night = tmp_path / "night"
    night.mkdir()
    with ExitStack() as files:
        rooms = []
        for n in range(1, 12):
            ann, bob = ("Cy", "Dee") if n == 11 else ("Ann", "Bob")
            room = open_table(str(n), str(night / f"table-{n}.log"),
                              [("Players", f"{ann}, {bob}"), ("Rules", "commercial"), ("Hands", "2")],
                              files, io.StringIO(), Broadcast())
            assert room is not None
            for text in WHOLE_HAND:
                assert room.submit(text.replace("Ann", ann).replace("Bob", bob), room.version).status == 200
            rooms.append(room)
        scored = CliRunner().invoke(main, ["score", str(night)])
        assert scored.exit_code == 0, scored.output
        assert standings_text(rooms) == scored.output


def test_a_seating_file_is_one_line_of_players_a_table(tmp_path: Path) -> None:
    from kcref.apps.serve.tables import SeatingProblem, seating

    assert seating("# the night\nAnn, Bob\n\nCy, Dee, Eve\n", 2) == ["Ann, Bob", "Cy, Dee, Eve"]
    with pytest.raises(SeatingProblem, match="seats 2 tables, not 3"):
        seating("Ann, Bob\nCy, Dee\n", 3)
    with pytest.raises(SeatingProblem, match="names no table"):
        seating("# nobody\n", None)
    (tmp_path / "seating.txt").write_text("Ann, Bob\nCy, Dee\n", encoding="utf-8")
    status, said = _serve_cli(str(tmp_path / "night"), "--tables", "3", "--players-file", str(tmp_path / "seating.txt"))
    assert status == 2 and "seats 2 tables, not 3" in said
    status, said = _serve_cli(str(tmp_path / "night"), "--tables", "3", "--players", "Ann, Bob", "--players", "Cy, Dee")
    assert status == 2 and "once per table" in said


def test_docs_serve_md_lists_every_route(served: Served) -> None:
    from starlette.routing import Route, WebSocketRoute

    doc = (Path(__file__).resolve().parent.parent / "docs" / "serve.md").read_text(encoding="utf-8")
    table = Table(served.room, served.keys, RateLimit())
    for route in table.routes():
        assert isinstance(route, (Route, WebSocketRoute))
        path = route.path.replace("/static/{name}", "/static/serve.js").replace("/favicon.ico", "")
        if path:
            assert f" {path}" in doc or f"`{path}" in doc, path


def test_the_nights_report_is_served_live_from_the_log(served: Served) -> None:
    from kcref.apps.serve.guard import REPORT_CSP

    for line in HAND:
        served.line(line)
    served.line("KS->NE; AH->S")
    response: Any = served.get("/report", served.keys.view)
    assert response.status_code == 200 and response.headers["content-security-policy"] == REPORT_CSP
    page = response.text
    assert '<meta http-equiv="refresh"' in page and "Ann: KS-&gt;NE; AH-&gt;S" in page
    assert "t.log" in page and str(served.path.parent) not in page  # the log's name, not the copy's folder
    forbidden: Any = served.client.get("/report")
    assert forbidden.status_code == 403
