"""The table as an SVG picture: well-formed, faithful to the table, hostile names kept as text;
and ``kcref show --format svg``."""

from __future__ import annotations

import os
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest

from kcref.engine.table import PILES
from kcref.model.cards import parse_card
from kcref.notation.reader import read_file
from kcref.referee.replay import table_at
from kcref.render.table_svg import HAND_SLOTS, Seat, TableState, state_of, svg_text
from kcref.render.table_view import locate
from tests.util import ROOT

NS = "{http://www.w3.org/2000/svg}"
COMMERCIAL = "samples/commercial-night.log"


def kcref(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "kcref", *args], capture_output=True, text=True, cwd=ROOT,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})


def parsed(text: str) -> ET.Element:
    return ET.fromstring(text.encode("utf-8"))


def test_the_picture_is_the_table() -> None:
    located = locate(read_file(str(ROOT / COMMERCIAL), trivia=True), COMMERCIAL, None, 17)
    table = table_at(located.record, 17, located.stacks, located.pot).table
    assert table is not None
    svg = parsed(svg_text(state_of(table, 17)))
    assert svg.get("data-line") == "17" and svg.get("data-stock") == str(table.stock)
    piles = {g.get("data-pile"): g for g in svg.iter(f"{NS}g") if g.get("data-pile")}
    assert set(piles) == {p.value for p in PILES}
    for pile in PILES:
        cards = table.piles[pile]
        g = piles[pile.value]
        assert g.get("data-count") == str(len(cards))
        assert g.get("data-top") == (str(cards[-1]) if cards else "")
        assert g.get("data-cards") == " ".join(map(str, cards))
    seats = [g for g in svg.iter(f"{NS}g") if g.get("data-seat")]
    assert [g.get("data-count") for g in seats] == [str(len(h)) for h in table.holdings]
    assert [g.get("class") for g in seats].count("seat turn") == 1
    symbols = {s.get("id") for s in svg.iter(f"{NS}symbol")}
    assert len(symbols) == 53
    for use in svg.iter(f"{NS}use"):
        assert use.get("href", "")[1:] in symbols


def test_red_and_black_suits() -> None:
    svg = parsed(svg_text(TableState(((),) * 8, 52, (), None, "")))
    fills = {s.get("id"): {t.get("fill") for t in s.iter(f"{NS}text")} for s in svg.iter(f"{NS}symbol")}
    assert fills["c-QH"] == fills["c-10D"] != fills["c-AS"] == fills["c-KC"]


@pytest.mark.parametrize("name", ["</svg><script>alert(1)</script>", "\"' onload=\"alert(1)", "a & b < c",
                                  "\x1b[31m\u202e"])
def test_hostile_names_are_text(name: str) -> None:
    seat = Seat(name, (parse_card("AS"),), 2, 5)
    text = svg_text(TableState(((),) * 8, 40, (seat, Seat("B", (), 7)), 0, f"{name} to play", 3, 12, name))
    svg = parsed(text)
    assert not [el for el in svg.iter() if el.tag in (f"{NS}script", "script")]
    assert not [k for el in svg.iter() for k in el.attrib if k.startswith("on")]
    names = [t.text for t in svg.iter(f"{NS}text") if t.get("data-role") == "name"]
    assert names[0] is not None and names[0].replace("\ufffd", "") == name.replace("\x1b", "").replace("\u202e", "")


def test_a_long_hand_ends_with_a_count() -> None:
    seat = Seat("Ann", (), HAND_SLOTS + 3)
    svg = parsed(svg_text(TableState(((),) * 8, 0, (seat,), 0, "")))
    more = [t.text for t in svg.iter(f"{NS}text") if t.get("data-role") == "more"]
    assert more == ["+3"]


def test_show_format_svg_draws_the_same_moment_as_text() -> None:
    svg = kcref("show", COMMERCIAL, "--line", "25", "--format", "svg")
    text = kcref("show", COMMERCIAL, "--line", "25", "--ascii")
    assert svg.returncode == 0 and text.returncode == 0
    root = parsed(svg.stdout)
    assert f"stock {root.get('data-stock')}" in text.stdout
    assert root.get("data-line") == "25"


def test_show_format_svg_before_the_layout_and_at_an_error() -> None:
    dealing = parsed(kcref("show", COMMERCIAL, "--line", "11", "--format", "svg").stdout)
    seats = [g.get("data-count") for g in dealing.iter(f"{NS}g") if g.get("data-seat")]
    assert seats == ["7", "7", "0", "0"]
    stopped = parsed(kcref("show", "samples/invalid/illegal-plays.log", "--line", "40", "--format", "svg").stdout)
    notes = [t.text for t in stopped.iter(f"{NS}text") if t.get("data-role") == "note"]
    assert notes == ["stopped at line 33: KC310 it is Bob's turn, not Cy's"]


def test_show_format_svg_usage() -> None:
    p = kcref("show", COMMERCIAL, "--format", "svg", "--full")
    assert p.returncode == 2 and "--format svg" in p.stderr
