"""``kcref report``: the page's numbers are kcref score's, the page is self-contained, hostile
text from a log stays text, the replay follows the referee, and the command's outputs and exit
statuses."""

from __future__ import annotations

import functools
import json
import os
import signal
import subprocess
import sys
import time
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kcref.apps.report.data import page_data
from kcref.apps.report.output import stamps, target_path, watch
from kcref.apps.report.page import build_report, script_json
from kcref.files.inputs import resolve
from kcref.model.status import ExitStatus
from kcref.notation.reader import read_file
from kcref.referee.grouping import HandRecord
from kcref.referee.replay import table_at
from kcref.referee.setup_checks import checked_hands
from kcref.render.replay_steps import (
    CARD_CHAR,
    CARD_CHARS,
    HandReplay,
    encode_replay,
    replayed_hand,
    step_lines,
    stop_note,
)
from kcref.render.table_svg import TableState, state_of
from tests.util import ROOT

COMMERCIAL = ROOT / "samples/commercial-night.log"
ILLEGAL = ROOT / "samples/invalid/illegal-plays.log"


def run(*args: str, cwd: Path = ROOT, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "kcref", *args], capture_output=True, text=True, cwd=cwd, env=env,
                          input=stdin)


class Page(HTMLParser):
    """Every element with its attributes, the text of each table row by the table's (first) class, and
    the text of the scripts and templates; the markup in a comment (a hand's body) is read too."""

    def __init__(self, html: str) -> None:
        super().__init__(convert_charrefs=True)
        self.elements: list[tuple[str, dict[str, str | None]]] = []
        self.rows: dict[str, list[list[str]]] = {}
        self.scripts: list[tuple[dict[str, str | None], str]] = []
        self.text: list[str] = []
        self._table: list[str] = []
        self._row: list[str] | None = None
        self._cell: list[str] | None = None
        self._script: dict[str, str | None] | None = None
        self.feed(html)
        self.close()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        self.elements.append((tag, a))
        if tag == "table":
            self._table.append((a.get("class") or "").split(" ")[0])
            self.rows.setdefault(self._table[-1], [])
        elif tag == "tr" and self._table:
            self._row = []
            self.rows[self._table[-1]].append(self._row)
        elif tag in ("td", "th") and self._row is not None:
            self._cell = []
        elif tag in ("script", "template"):
            self._script = {**a, "tag": tag}

    def handle_endtag(self, tag: str) -> None:
        if tag == "table" and self._table:
            self._table.pop()
        elif tag in ("td", "th") and self._row is not None and self._cell is not None:
            self._row.append("".join(self._cell).strip())
            self._cell = None

    def handle_comment(self, data: str) -> None:
        # A hand's body, waiting in a comment for the hand's first opening: the page's own markup.
        inner = Page(data)
        self.elements += inner.elements
        for table, rows in inner.rows.items():
            self.rows.setdefault(table, []).extend(rows)
        self.scripts += inner.scripts
        self.text += inner.text

    def handle_data(self, data: str) -> None:
        if self._script is not None:
            self.scripts.append((self._script, data))
            self._script = None
            return
        self.text.append(data)
        if self._cell is not None:
            self._cell.append(data)


def report_html(*paths: Path) -> str:
    return build_report(resolve([str(p) for p in paths])).html


@functools.cache
def commercial_page() -> Page:
    return Page(report_html(COMMERCIAL))


@pytest.fixture(scope="module")
def commercial() -> Page:
    return commercial_page()


# --- the numbers ----------------------------------------------------------------------------------


@pytest.mark.parametrize("logs", [["samples/commercial-night.log"],
                                  ["samples/classic-night.log", "samples/family-night.log"],
                                  ["tests/cases/score/penalty_two_nights"]])
def test_standings_are_those_of_score_json(logs: list[str]) -> None:
    score = json.loads(run("score", "--format", "json", *logs).stdout)
    page = Page(build_report(resolve([str(ROOT / p) for p in logs])).html)
    body = page.rows["standings"][1:]
    assert len(body) == len(score["players"]) > 0
    single = len(score["scoring"]) == 1
    for row, player in zip(body, score["players"]):
        points = [str(player["points"])] if single else [str(player["points_by_scoring"].get(s, ""))
                                                         for s in score["scoring"]]
        assert row == [str(player["rank"]), player["name"], *points, str(player["hands_played"]),
                       str(player["hands_won"]), str(player["games_won"])]


def test_logs_with_errors_are_scored_as_skip_invalid() -> None:
    logs = [str(COMMERCIAL), str(ILLEGAL)]
    score = json.loads(run("score", "--format", "json", "--skip-invalid", *logs).stdout)
    data = page_data(resolve(logs))
    assert data.scores["players"] == score["players"]
    assert data.scores["notes"] == score["notes"]
    assert data.status == ExitStatus.FOUND and data.errors == 4


def test_header_and_hands(commercial: Page) -> None:
    text = " ".join(commercial.text)
    for fact in ("Club night", "Riverside club, table 3", "2026-11-28", "commercial. Scoring: chips"):
        assert fact in text
    hands = [a for tag, a in commercial.elements if tag == "details" and "hand" in (a.get("class") or "")]
    assert [h["id"] for h in hands] == ["f1h1", "f1h2", "f1h3"]
    assert "dealer Gus" in text and "Eli went out" in text


def test_the_page_needs_no_network(commercial: Page) -> None:
    for tag, attrs in commercial.elements:
        assert tag not in ("link", "img", "iframe", "object", "embed", "base")
        assert "src" not in attrs
        for name in ("href", "action", "xlink:href"):
            value = attrs.get(name)
            assert value is None or value.startswith("#"), (tag, name, value)
    assert not any("url(" in text for _, text in commercial.scripts)
    csp = [a for tag, a in commercial.elements if tag == "meta" and a.get("http-equiv") == "Content-Security-Policy"]
    assert csp and "default-src 'none'" in (csp[0]["content"] or "")


# --- hostile text -----------------------------------------------------------------------------------

HOSTILE = """\
# <script>alert('comment')</script> </svg> </script><!-- "quoted" & 'single'
[Event "</script><script>alert(1)</script>"]
[Site "<img src=x onerror=alert(2)> \\"</svg>"]
[Players "O'Brien, Zoë"]
[Rules "classic"]

hand 1 dealer Zoë
deal O'Brien: JH 10C 9D 8S 3S 2H KC
deal Zoë: 6D 5S 3H 8H QC 7D AS
layout N:QS E:4H S:9C W:KD
O'Brien: JH->N; 10C->N; 9D->N; 8S->N; 3S->E; 2H->E; K♣->NE  # out </svg><script>alert(3)</script>

[Players "<script>alert(4)</script>, </svg>\\"x"]
hand 2
deal Ann: QC 10S 4H 3C KH 9S 6D
"""


def test_hostile_text_is_text(tmp_path: Path) -> None:
    log = tmp_path / "<b>night<img src=x>.log"
    log.write_text(HOSTILE, encoding="utf-8")
    result = build_report(resolve([str(log)]))
    page = Page(result.html)
    tags = [tag for tag, _ in page.elements]
    assert tags.count("script") == 2  # the card names and the page's own script
    assert tags.count("template") == 2  # each hand's replay
    assert "img" not in tags and "b" in tags  # <b> of the summaries, not of the file name
    assert not any(name.startswith("on") for _, attrs in page.elements for name in attrs)
    data = replays(page)[0]
    assert "<" not in data and json.loads(data)["names"] == ["O'Brien", "Zoë"]
    text = "".join(page.text)
    for hostile in ("</script><script>alert(1)</script>", "<img src=x onerror=alert(2)>",
                    "</svg><script>alert(3)</script>", "<script>alert('comment')</script> </svg> </script><!--",
                    "<b>night<img src=x>.log"):
        assert hostile in text
    assert result.status == ExitStatus.FOUND


def test_script_json_cannot_close_its_script() -> None:
    text = script_json({"a": "</script><!--<script>&\u2028\u2029"})
    assert "<" not in text and ">" not in text and "&" not in text and "\u2028" not in text
    assert json.loads(text) == {"a": "</script><!--<script>&\u2028\u2029"}


# --- the replay -------------------------------------------------------------------------------------


def _records(path: Path) -> list[HandRecord]:
    return [r for r in checked_hands(read_file(str(path)), str(path)) if isinstance(r, HandRecord)]


def _replay(record: HandRecord) -> HandReplay:
    """The steps of ``record`` as the report takes them, from the replay that judges it."""
    return replayed_hand(record)[1]


def test_each_step_is_the_table_after_its_line() -> None:
    record = _records(COMMERCIAL)[0]
    replay = _replay(record)
    lines = step_lines(record)
    assert lines[0] == 14 and list(replay.lines) == lines and not replay.stop
    states = _expand(encode_replay(record, replay))
    for state, line in zip(states, replay.lines, strict=True):
        position = table_at(record, line)
        assert position.table is not None
        _assert_shows(state, state_of(position.table, line))
    assert states[-1]["t"] == "Eli went out: the hand is over"


def test_the_replay_stops_at_a_rule_error_with_its_message() -> None:
    record = _records(ILLEGAL)[1]
    replay = _replay(record)
    assert replay.stop == "stopped at line 33: KC310 it is Bob's turn, not Cy's"
    assert list(replay.lines) == [32, 33]
    assert _expand(encode_replay(record, replay))[-1]["n"] == replay.stop


def test_a_cut_hand_stops_before_the_line_that_cannot_be_judged(tmp_path: Path) -> None:
    log = tmp_path / "cut.log"
    log.write_text((ROOT / "samples/short-classic.log").read_text(encoding="utf-8").replace(
        "Ann: JH->N; 10C->N", "Ann: JH->N;; 10C->N"), encoding="utf-8")
    record = _records(log)[0]
    assert record.cut is not None
    replay = _replay(record)
    assert replay.lines[-1] == record.cut.line
    assert replay.stop.startswith(f"stopped before line {record.cut.line}, which cannot be judged")


def _parts(changes: str) -> dict[int, str]:
    """``"0Hg2oN"`` as ``{0: "Hg", 2: "oN"}``: what the page's script reads."""
    out: dict[int, str] = {}
    at = -1
    for ch in changes:
        if ch.isdigit():
            at = int(ch)
            out[at] = ""
        else:
            out[at] += ch
    return out


def test_steps_are_encoded_as_changes() -> None:
    record = _records(COMMERCIAL)[0]
    replay = _replay(record)
    first: list[Any] = replay.steps[0]
    second: list[Any] = replay.steps[1]
    position = table_at(record, 14)
    assert position.table is not None
    table = state_of(position.table, 14)
    assert len(first) == 10 and first[0] == 14  # every field, the first line itself
    _, player, stock, status, piles, seats, unknown, stacks, pot, note = first
    assert stock == table.stock and player == table.player
    assert replay.texts[status] == "Dora to play" and replay.texts[note] == "" and unknown == [0, 0, 0, 0]
    assert pot is not None and len(stacks) == 4
    assert sorted(_parts(piles)) == list(range(8)) and set(piles) <= set(CARD_CHARS) | set("01234567")
    assert sorted(_parts(seats)) == [0, 1, 2, 3]
    assert second[0] == 1 and len(second) <= 8  # the next line; unknown cards, stacks, pot and note as before
    assert second[6:] == [None] * len(second[6:])
    assert list(_parts(second[5])) == [player]  # only the player who played holds other cards now
    assert 0 < len(_parts(second[4])) < 8


def _expand(hand: dict[str, Any]) -> list[dict[str, Any]]:
    """What the page's script makes of a hand's steps (report.js: expand)."""
    state: dict[str, Any] = {"l": 0, "c": [""] * 8, "h": [""] * len(hand["names"])}
    out = []
    for step in hand["steps"]:
        s = {**state, "c": list(state["c"]), "h": list(state["h"])}
        s["l"] = state["l"] + step[0]
        for i, key in ((1, "p"), (2, "k"), (6, "u"), (7, "s"), (8, "o")):
            if len(step) > i and step[i] is not None:
                s[key] = step[i]
        for i, key in ((3, "t"), (9, "n")):
            if len(step) > i and step[i] is not None:
                s[key] = hand["texts"][step[i]]
        for i, key in ((4, "c"), (5, "h")):
            if len(step) > i and step[i] is not None:
                for at, cards in _parts(step[i]).items():
                    s[key][at] = cards
        out.append(s)
        state = s
    return out


def _assert_shows(state: dict[str, Any], table: TableState) -> None:
    """A step decoded as the page's script decodes it (:func:`_expand`) shows ``table`` whole."""
    assert state["l"] == table.line and state["k"] == table.stock
    assert state["p"] == (-1 if table.player is None else table.player)
    assert state["c"] == ["".join(CARD_CHAR[c] for c in p) for p in table.piles]
    assert state["h"] == ["".join(CARD_CHAR[c] for c in s.known) for s in table.seats]
    assert state["u"] == [s.unknown for s in table.seats]
    assert state.get("s") == ([s.stack for s in table.seats] if table.pot is not None else None)
    assert state.get("o") == table.pot and state["t"] == table.status and state["n"] == table.note


def test_the_steps_decode_to_every_table() -> None:
    """Decoded as the page's script decodes them, the steps give each table whole: the table
    after each line, as the referee's replay to that line leaves it."""
    for path in (COMMERCIAL, ILLEGAL, ROOT / "samples/family-night.log"):
        for record in _records(path):
            replay = _replay(record)
            states = _expand(encode_replay(record, replay))
            assert len(states) == len(replay.steps) == len(replay.lines)
            for state, line in zip(states, replay.lines):
                position = table_at(record, line)
                assert position.table is not None
                _assert_shows(state, state_of(position.table, line, stop_note(position)))


def replays(page: Page) -> list[str]:
    """The text of each hand's replay data."""
    return [text for attrs, text in page.scripts if attrs.get("tag") == "template" and attrs.get("class") == "kc-replay"]


def test_page_replays_match_the_hands(commercial: Page) -> None:
    cards = json.loads(next(text for attrs, text in commercial.scripts if attrs.get("id") == "kc-cards"))
    hands = [json.loads(text) for text in replays(commercial)]
    assert len(cards) == 52 and len(hands) == 3
    assert hands[0]["names"] == ["Dora", "Eli", "Fran", "Gus"]
    assert [s["l"] for s in _expand(hands[0])] == step_lines(_records(COMMERCIAL)[0])


# --- the command --------------------------------------------------------------------------------------


def test_writes_a_file_a_folder_or_standard_output(tmp_path: Path) -> None:
    p = run("report", str(COMMERCIAL), "-o", str(tmp_path / "night.html"))
    assert p.returncode == 0, p.stderr
    assert (tmp_path / "night.html").read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    assert "wrote" in p.stderr and "3 hands" in p.stderr
    p = run("report", str(COMMERCIAL), "-o", str(tmp_path))
    assert p.returncode == 0 and (tmp_path / "report.html").exists()
    p = run("report", "-", "-o", "-", stdin=COMMERCIAL.read_text(encoding="utf-8"))
    assert p.returncode == 0 and p.stdout.startswith("<!DOCTYPE html>") and "Club night" in p.stdout


def test_exit_statuses(tmp_path: Path) -> None:
    p = run("report", str(ILLEGAL), "-o", str(tmp_path / "a.html"))
    assert p.returncode == 1 and "4 errors in the logs" in p.stderr and (tmp_path / "a.html").exists()
    p = run("report", str(tmp_path / "missing.log"), "-o", str(tmp_path / "b.html"))
    assert p.returncode == 2
    p = run("report", str(COMMERCIAL), "-o", str(tmp_path / "no" / "such" / "folder.html"))
    assert p.returncode == 2 and "cannot write" in p.stderr
    p = run("report", "--watch", "-", "-o", str(tmp_path / "c.html"))
    assert p.returncode == 2 and "standard input" in p.stderr
    p = run("report", "--watch", str(COMMERCIAL), "-o", "-")
    assert p.returncode == 2


def test_a_binary_file_still_makes_a_page(tmp_path: Path) -> None:
    log = tmp_path / "night.log"
    log.write_bytes(COMMERCIAL.read_bytes().replace(b"Club night", b"Club\x00night"))
    p = run("report", str(log), "-o", str(tmp_path / "night.html"))
    assert p.returncode == 2, p.stderr  # as kcref check: a file that is not a log cannot be read
    page = (tmp_path / "night.html").read_text(encoding="utf-8")
    assert "KC003" in page and "binary file" in page and "\x00" not in page


def test_target_path(tmp_path: Path) -> None:
    assert target_path(str(tmp_path)) == str(tmp_path / "report.html")
    assert target_path(str(tmp_path / "x.html")) == str(tmp_path / "x.html")
    assert target_path("-") == "-"


def test_watch_rebuilds_when_a_log_changes(tmp_path: Path) -> None:
    log = tmp_path / "night.log"
    log.write_text(COMMERCIAL.read_text(encoding="utf-8"), encoding="utf-8")
    built: list[int] = []
    polls = iter([None, "change", None, "new file", None])

    def sleep(_: float) -> None:
        what = next(polls)
        if what == "change":
            log.write_text(log.read_text(encoding="utf-8") + "\n# a comment\n", encoding="utf-8")
        elif what == "new file":
            (tmp_path / "second.log").write_text("", encoding="utf-8")

    watch([str(tmp_path)], ("*.log",), lambda: built.append(len(stamps([str(tmp_path)], ("*.log",)))),
          sleep=sleep, rounds=5)
    assert built == [1, 1, 2]


def test_watch_says_when_a_log_or_the_page_becomes_a_folder(tmp_path: Path) -> None:
    log, page = tmp_path / "night.log", tmp_path / "night.html"
    log.write_text(COMMERCIAL.read_text(encoding="utf-8"), encoding="utf-8")
    built: list[int] = []
    said: list[str] = []

    def sleep(_: float) -> None:
        step = len(said) + len(built)
        if step == 1:
            log.unlink()
            log.mkdir()
        elif step == 2:
            log.rmdir()
            log.write_text(COMMERCIAL.read_text(encoding="utf-8"), encoding="utf-8")
        elif step == 3:
            page.mkdir()

    watch([str(log)], ("*.log",), lambda: built.append(1), output=str(page), say=said.append, sleep=sleep, rounds=4)
    assert said == [f"kcref report: {log}: is a folder", f"kcref report: {page}: is a folder"]
    assert len(built) == 2  # at the start, and once the log is a file again


def _take_ctrl_c() -> None:
    # In the child, before exec: an ignored signal stays ignored across exec, and a shell without
    # job control starts its background jobs (`pytest &`) with SIGINT ignored, so Python would
    # install no KeyboardInterrupt handler and the watch would never see the Ctrl-C sent to it.
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _start_watch(log: Path, page: Path) -> subprocess.Popen[str]:
    """``kcref report --watch LOG -o PAGE``, taking SIGINT as at a terminal, whatever the tests'
    own disposition of it; its standard error goes to a file beside the page (:func:`_said`)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    with open(page.parent / "watch.err", "w", encoding="utf-8") as err:
        return subprocess.Popen([sys.executable, "-m", "kcref", "report", "--watch", str(log), "-o", str(page)],
                                cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=err, text=True,
                                preexec_fn=_take_ctrl_c)


def _said(page: Path) -> str:
    """What the watch of :func:`_start_watch` said on standard error so far."""
    return (page.parent / "watch.err").read_text(encoding="utf-8")


def _wait_until_said(p: subprocess.Popen[str], page: Path, what: str, count: int = 1, timeout: float = 60) -> None:
    """Wait until the watch has said ``what`` ``count`` times (the test fails if it has not in
    ``timeout`` seconds, or has ended)."""
    deadline = time.monotonic() + timeout
    while _said(page).count(what) < count and p.poll() is None and time.monotonic() < deadline:
        time.sleep(0.1)
    assert _said(page).count(what) >= count, _said(page)


def _ctrl_c(p: subprocess.Popen[str], page: Path, timeout: float = 60) -> str:
    """Send SIGINT to the watch and give its standard error once it has ended; one still running
    ``timeout`` seconds later is killed (not left behind) and the test fails."""
    p.send_signal(signal.SIGINT)
    try:
        p.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        p.kill()
        p.wait()
        pytest.fail(f"kcref report --watch still ran {timeout:g} s after SIGINT; its standard error:\n{_said(page)}")
    return _said(page)


def _replace_text(path: Path, text: str) -> None:
    # Whole or not at all, as an editor saves: a poll between write_text's truncation and its
    # write would see an empty log, and rebuild once more.
    new = path.with_name(path.name + ".new")
    new.write_text(text, encoding="utf-8")
    os.replace(new, path)


def test_watch_command_rebuilds_and_stops_on_ctrl_c(tmp_path: Path) -> None:
    log, page = tmp_path / "night.log", tmp_path / "night.html"
    log.write_text(COMMERCIAL.read_text(encoding="utf-8"), encoding="utf-8")
    p = _start_watch(log, page)
    try:
        _wait_until_said(p, page, "wrote")
        assert "Fran counted the pot" in page.read_text(encoding="utf-8")
        _replace_text(log, log.read_text(encoding="utf-8").replace("Fran counted the pot", "Fran counted the chips"))
        _wait_until_said(p, page, "wrote", 2)
        assert "Fran counted the chips" in page.read_text(encoding="utf-8")
    finally:
        err = _ctrl_c(p, page)
    assert p.returncode == 0, err
    assert err.count("wrote") == 2 and "stopped" in err
    assert not list(tmp_path.glob(".kcref-*.tmp"))


def test_watch_command_stops_on_ctrl_c_when_the_tests_ignore_it(tmp_path: Path) -> None:
    """Tests run as a background job of a shell without job control have SIGINT ignored, and a
    child inherits that: the watch they start must take Ctrl-C all the same."""
    log, page = tmp_path / "night.log", tmp_path / "night.html"
    log.write_text(COMMERCIAL.read_text(encoding="utf-8"), encoding="utf-8")
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        p = _start_watch(log, page)
    finally:
        signal.signal(signal.SIGINT, previous)
    try:
        _wait_until_said(p, page, "wrote")
    finally:
        err = _ctrl_c(p, page, timeout=20)
    assert p.returncode == 0, err
    assert err.endswith("kcref report: stopped\n")
    assert not list(tmp_path.glob(".kcref-*.tmp"))


def test_watch_command_goes_on_when_a_log_or_the_page_becomes_a_folder(tmp_path: Path) -> None:
    log, page = tmp_path / "night.log", tmp_path / "night.html"
    log.write_text(COMMERCIAL.read_text(encoding="utf-8"), encoding="utf-8")
    p = _start_watch(log, page)
    try:
        _wait_until_said(p, page, "wrote")
        log.unlink()
        log.mkdir()
        _wait_until_said(p, page, f"{log}: is a folder")
        log.rmdir()
        _replace_text(log, COMMERCIAL.read_text(encoding="utf-8").replace("Fran counted the pot", "Fran counted again"))
        _wait_until_said(p, page, "wrote", 2)
        assert "Fran counted again" in page.read_text(encoding="utf-8")
        page.unlink()
        page.mkdir()
        _wait_until_said(p, page, f"{page}: is a folder")
        assert p.poll() is None, "the watch ended"
    finally:
        said = _ctrl_c(p, page)
    assert p.returncode == 0, said
    assert "Traceback" not in said and "Usage:" not in said and said.endswith("kcref report: stopped\n")


def test_running_chart_is_well_formed_and_escaped() -> None:
    import xml.etree.ElementTree as ET
    from array import array

    from kcref.model.systems import SYSTEMS
    from kcref.render.running_svg import chart_text
    from kcref.scoring.games import NO_TOTAL, RunningTotals

    hostile = "</svg><script>alert(1)</script>"
    running = RunningTotals(SYSTEMS["chips"], {"Ann": array("q", [3, 5, 9]), hostile: array("q", [NO_TOTAL, 1, 1])},
                            bytes([0, 1, 0]))
    svg = ET.fromstring(chart_text(running))
    assert not list(svg.iter("script"))
    lines = list(svg.iter("polyline"))
    assert [len(el.get("points", "").split()) for el in lines] == [3, 2]
    assert [g.get("data-player") for g in svg.iter("g")] == ["Ann", hostile]
    assert len([el for el in svg.iter("line") if el.get("stroke-dasharray")]) == 1


def test_running_chart_numbers_the_hands_and_breaks_between_nights() -> None:
    import xml.etree.ElementTree as ET
    from array import array

    from kcref.model.systems import SYSTEMS
    from kcref.render.running_svg import LegendEntry, chart_text, legend, tick_step
    from kcref.scoring.games import NO_TOTAL, RunningTotals

    assert [tick_step(n) for n in (1, 6, 7, 13, 14, 30, 35, 70, 1500)] == [1, 1, 2, 2, 5, 5, 10, 20, 500]
    running = RunningTotals(SYSTEMS["chips"], {"Ann": array("q", range(12)), "Bob": array("q", [NO_TOTAL] * 12)},
                            bytes([0, 0, 0, 1] + [0] * 8), bytes([0] * 5 + [1] + [0] * 6))
    svg = ET.fromstring(chart_text(running))
    ticks = [el.text for el in svg.iter("text") if el.get("class") == "tick"]
    assert ticks == ["1", "2", "4", "6", "8", "10", "12"]
    assert len([el for el in svg.iter("line") if el.get("class") == "night"]) == 1
    assert [len(el.get("points", "").split()) for el in svg.iter("polyline")] == [5, 7]  # the line breaks
    assert [g.get("data-player") for g in svg.iter("g")] == ["Ann"]  # Bob has no total to draw
    assert legend(running) == [LegendEntry("Ann", "#1f77b4", 11)]


def test_a_page_of_several_nights_says_so_in_its_title(tmp_path: Path) -> None:
    from kcref.apps.report.page import page_title

    second = tmp_path / "second.log"
    second.write_text(COMMERCIAL.read_text(encoding="utf-8"), encoding="utf-8")
    titles = [html.split("<title>", 1)[1].split("</title>", 1)[0]
              for html in (report_html(COMMERCIAL), report_html(COMMERCIAL, second))]
    assert titles == ["Club night", "Club night — 2 nights"]
    assert page_title(None, 1) == "Kings in the Corner" and page_title("A, B", 3) == "A, B — 3 nights"


def test_a_live_page_reloads_itself() -> None:
    live, still = (Page(build_report(resolve([str(COMMERCIAL)]), live=flag).html) for flag in (True, False))
    refresh = [a for tag, a in live.elements if tag == "meta" and a.get("http-equiv") == "refresh"]
    assert refresh and refresh[0]["content"] == "5" and ("body", {"data-live": None}) in live.elements
    assert not [a for tag, a in still.elements if tag == "meta" and a.get("http-equiv") == "refresh"]


def test_season_table_shows_the_columns_the_nights_need(commercial: Page) -> None:
    head, *rows = commercial.rows["stats"]
    assert head == ["Player", "Played", "Won", "Win rate", "Avg cards left", "Chips won", "Chips paid",
                    "Longest streak"]
    assert rows[1] == ["Eli", "3", "3", "100%", "0.0", "53", "3", "3"]
    family = Page(report_html(ROOT / "samples/family-night.log"))
    assert "Penalty points" in family.rows["stats"][0] and "Chips won" not in family.rows["stats"][0]


def test_ratings_and_head_to_head_on_the_page(commercial: Page) -> None:
    head, *rows = commercial.rows["ratings"]
    assert head == ["Player", "Ordinal", "μ", "σ", "Hands"] and rows[0][0] == "Eli"
    assert [float(r[1]) for r in rows] == sorted((float(r[1]) for r in rows), reverse=True)
    assert "Plackett-Luce" in " ".join(commercial.text)
    h2h = commercial.rows["h2h"]
    assert h2h[0] == ["", "Dora", "Eli", "Fran", "Gus"]
    assert h2h[2] == ["Eli", "3–0", "", "3–0", "3–0"]


HIDDEN = "\x1b\x07\x7f\u202e\u2066\u200b\ufeff"
"""Control, bidi and invisible characters: no text of the page may hold one raw."""


def test_control_and_bidi_characters_never_reach_the_page(tmp_path: Path) -> None:
    """A tag value, a file name, a message quoting a log and the title: each such character shows
    as U+FFFD on the page, as in every other output (an RLO in a file name once reversed the
    text after it)."""
    odd = "x\x1b[2J\x07\u202egol.exe\u2066\u200b"
    log = tmp_path / f"night{odd}.log"
    log.write_text(COMMERCIAL.read_text(encoding="utf-8").replace("Club night", f"Club {odd}").replace(
        "Dora: ", f"Dora{odd}: ", 1), encoding="utf-8")
    html = build_report(resolve([str(log)]), title=f"Title {odd}").html
    page = Page(html)
    assert not [ch for ch in html if ch in HIDDEN]
    assert not [ch for text in page.text for ch in text if ch in HIDDEN]
    assert "Club x\ufffd[2J\ufffd\ufffdgol.exe\ufffd\ufffd" in page.text


HOSTILE_TEXTS = ["</script><script>alert(1)</script>", "<!--", "-->", "]]>", "<![CDATA[", "</svg>", "\"'><img src=x>",
                 "&amp;&lt;", "\u2028\u2029", "\x1b[31m", "\u202e", "{{ 7*7 }}", "{% raw %}", "\\u003c", "名前"]


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.sampled_from(HOSTILE_TEXTS) | st.text(max_size=12), min_size=1, max_size=4))
def test_any_tag_or_comment_stays_text(tmp_path: Path, pieces: list[str]) -> None:
    # A NUL makes the file binary (KC003: no hands at all), which another test covers.
    text = "".join(pieces).replace("\n", " ").replace("\r", " ").replace('"', "'").replace("\\", "/").replace("\x00", " ")
    log = COMMERCIAL.read_text(encoding="utf-8").replace("Club night", text).replace(
        "# Fran counted the pot before Eli swept it up:", f"# {text}")
    path = tmp_path / "night.log"
    path.write_text(log, encoding="utf-8")
    page = Page(build_report(resolve([str(path)])).html)
    allowed = {tag for tag, _ in commercial_page().elements}
    assert {tag for tag, _ in page.elements} <= allowed
    assert [tag for tag, _ in page.elements].count("script") == 2
    assert not any(name.startswith("on") for _, attrs in page.elements for name in attrs)
    assert [len(json.loads(data)["steps"]) for data in replays(page)] == [
        len(json.loads(data)["steps"]) for data in replays(commercial_page())]
