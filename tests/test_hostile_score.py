"""`kcref score` on hostile logs and file names: whatever the tag values, player names and file
names hold, no format lets a control character, a bidi control or markup through raw, every
record stays one row, and the machine formats parse and keep the data whole."""

from __future__ import annotations

import csv
import io
import json
import os
import re
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tabulate import tabulate_formats

from kcref.apps.score import ScoreResult, score_paths
from kcref.model.status import ExitStatus
from kcref.render.score_formats import SCORE_FORMATS
from tests.util import ROOT

NIGHTS = [ROOT / "tests/cases/score/penalty_two_nights/1-first.log",
          ROOT / "tests/cases/score/penalty_two_nights/2-second.log"]
PLAYERS = ("Ann", "Bob", "Cy")

FORBIDDEN = re.compile("[\x00-\x08\x0b-\x1f\x7f\x80-\x9f\u202a-\u202e\u2066-\u2069\ud800-\udfff]")
"""What must never reach the output raw: C0 (but tab and newline) and C1 controls, DEL, bidi
controls, lone surrogates."""

NASTY = ["\x1b]0;PWNED\x07", "\x1b[31m", "\x9b2J", "\x85", "\x7f", "\x08", "\x0b\x0c", "\u202e", "\u2066",
         "\u2069", "%", "%0A", "::", "::error::x", '"', "'", "''", "<script>alert(1)</script>", "&amp;", "&",
         "|", "||", "\t", "\\input{x}", "{{tpl}}", "[[Link]]", "~~~", "\u2028", "1e5", "x" * 150, "é", "名"]
NAMES = ["O'Brien", "x''y", "1e5", "007", "Zoë", "名前", "A" * 120, "Mary Ann", "_x", "Ünï-cö.dé", "ǅ", "x.y"]
FORMATS = list(SCORE_FORMATS)
TEXT_FORMATS = [f for f in FORMATS if f not in ("csv", "tsv", "json")]
MARKUP = {"html": ("<script", "<i>", "<b>"), "unsafehtml": ("<script", "<i>", "<b>"), "latex": ("\\input{",),
          "mediawiki": ("<script", "<i>", "<b>", "[[Link", "[[y", "{{tpl", "{{x", "''", "~~~")}
"""Markup from the hostile text that must not survive as markup, per format family."""
SETTINGS = settings(max_examples=60, deadline=None, database=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])


def nasty_text(line_breaks: bool) -> st.SearchStrategy[str]:
    """Text built of hostile pieces and random characters (with CR and LF only if allowed)."""
    piece = st.sampled_from(NASTY) | st.text(max_size=4)
    text = st.lists(piece, max_size=5).map("".join)
    if line_breaks:
        return text
    return text.map(lambda t: re.sub("[\r\n\x00]", "", t))


def quoted(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def write_nights(folder: Path, names: tuple[str, str], players: tuple[str, ...], tags: list[tuple[str, str]],
                 ) -> list[str]:
    """The two nights of tests/cases/score/penalty_two_nights under hostile file names, with the
    players renamed and hostile tags before the first hand."""
    paths = []
    header = "".join(f"[{name} {quoted(value)}]\n" for name, value in tags)
    for night, name in zip(NIGHTS, names):
        text = night.read_text(encoding="utf-8")
        for old, new in zip(PLAYERS, players):
            text = re.sub(rf"\b{old}\b", new, text)
        path = folder / name
        path.write_text(header + text, encoding="utf-8")
        paths.append(str(path))
    return paths


def file_name(stem: str, n: int) -> str:
    """A file name from any text: no slash or NUL, short enough for the file system."""
    stem = stem.replace("/", "÷").replace("\x00", "")
    while len(os.fsencode(stem)) > 180:
        stem = stem[:-1]
    return f"{n}-{stem}.log"


class Tags(HTMLParser):
    """The tags of an HTML document and the number of table rows."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: set[str] = set()
        self.rows = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.add(tag)
        self.rows += tag == "tr"


def table_rows(result: ScoreResult, by: str) -> int:
    """The records the table must show, one row each."""
    board = result.board
    assert board is not None
    return {"player": len(board.standings), "hand": len(board.rows), "night": len(board.nights) + 1}[by]


def assert_safe(result: ScoreResult, by: str, fmt: str, paths: list[str], tags: list[tuple[str, str]]) -> None:
    """Nothing unprintable; parsable where a parser exists; one row per record."""
    for stream in (result.out, result.err):
        assert not FORBIDDEN.search(stream), (fmt, FORBIDDEN.search(stream))
        stream.encode("utf-8")
        assert not any(line.lstrip().startswith("::") for line in stream.splitlines())  # no workflow command
    if result.status != ExitStatus.OK:
        return
    rows = table_rows(result, by)
    out = result.out
    if fmt == "json":
        doc = json.loads(out)
        # A lone surrogate (an undecodable byte of a file name) has no UTF-8 form: JSON shows U+FFFD.
        assert [f["path"] for f in doc["files"]] == [re.sub("[\ud800-\udfff]", "\ufffd", p) for p in paths]
        event = next((v for k, v in tags if k == "Event"), None)
        assert all(f["event"] == event for f in doc["files"])
        return
    if fmt in ("csv", "tsv"):
        records = list(csv.reader(io.StringIO(out), delimiter="," if fmt == "csv" else "\t"))
        assert len(records) == rows + 1
        assert len({len(r) for r in records}) == 1
        assert out.count("\n") == rows + 1  # no line break inside a quoted cell either
        return
    for banned in MARKUP.get(fmt.split("_")[0], ()):
        assert banned not in out, (fmt, banned)
    table = out.split("\n\n")[1]
    lines = table.split("\n")
    if fmt in ("html", "unsafehtml"):
        parser = Tags()
        parser.feed(out)
        assert parser.tags <= {"table", "thead", "tbody", "tr", "th", "td", "p"}
        assert parser.rows == rows + 1
    elif fmt == "plain":
        assert len(lines) == rows + 1
    elif fmt in ("simple", "github", "pipe"):
        assert len(lines) == rows + 2
    elif fmt == "rst":
        assert len(lines) == rows + 4
    elif fmt == "mediawiki":
        assert sum(line.startswith("| ") for line in lines) == rows
    elif fmt.startswith("latex"):
        assert sum(line.endswith("\\\\") for line in lines) == rows + 1
    if fmt in ("github", "pipe"):
        columns = {len(re.findall(r"(?<!\\)\|", line)) for line in lines}
        assert len(columns) == 1


@SETTINGS
@given(
    by=st.sampled_from(["player", "hand", "night"]),
    fmt=st.sampled_from(FORMATS),
    chart=st.booleans(),
    event=nasty_text(line_breaks=False),
    date=st.just("2024-05-01") | nasty_text(line_breaks=False),
    other=nasty_text(line_breaks=False),
    stems=st.tuples(nasty_text(line_breaks=True), nasty_text(line_breaks=True)),
    players=st.lists(st.sampled_from(NAMES), min_size=3, max_size=3, unique=True).map(tuple),
)
def test_no_format_lets_hostile_text_through(tmp_path_factory: pytest.TempPathFactory, by: str, fmt: str,
                                             chart: bool, event: str, date: str, other: str,
                                             stems: tuple[str, str], players: tuple[str, ...]) -> None:
    folder = tmp_path_factory.mktemp("hostile")
    tags = [("Event", event), ("Date", date), ("Zzz", other)]
    paths = write_nights(folder, (file_name(stems[0], 1), file_name(stems[1], 2)), players, tags)
    chart = chart and fmt not in ("csv", "tsv", "json")
    result = score_paths(paths, by, fmt, chart, skip_invalid=True)
    assert result.status == ExitStatus.OK
    assert_safe(result, by, fmt, paths, tags)
    if date == "2024-05-01":
        assert result.board is not None and len(result.board.standings) == 3
    refused = score_paths(paths, by, fmt, chart)
    assert refused.status in (ExitStatus.OK, ExitStatus.FOUND)
    assert_safe(refused, by, fmt, paths, tags)


HOSTILE_STEM = "::error::a\x1b]0;PWNED\x07 b\x1b[2J\nc\r\u202e<i>&amp;|%::'\"\t{{x}}[[y]]\x85\udcff" + "z" * 100


@pytest.mark.parametrize("by", ["player", "hand", "night"])
@pytest.mark.parametrize("fmt", FORMATS)
def test_every_format_and_view(tmp_path: Path, by: str, fmt: str) -> None:
    tags = [("Event", "\x1b]0;PWNED\x07<b>|x|</b>"), ("Date", "\x1b[31m\u202e2024|<&>"), ("Xyz", "\x9b\x07")]
    paths = write_nights(tmp_path, (file_name(HOSTILE_STEM, 1), file_name(HOSTILE_STEM, 2)),
                         ("O'Brien", "x''y", "1e5"), tags)
    chart = fmt not in ("csv", "tsv", "json")
    for skip in (True, False):
        result = score_paths(paths, by, fmt, chart, skip_invalid=skip)
        assert result.status == (ExitStatus.OK if skip else ExitStatus.FOUND)
        assert_safe(result, by, fmt, paths, tags)


@pytest.mark.parametrize("fmt", ["plain", "simple", "csv", "tsv", "rst", "latex_raw"])
@pytest.mark.parametrize("by", ["hand", "night"])
def test_a_relative_path_never_starts_a_workflow_command(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fmt: str,
                                                         by: str) -> None:
    monkeypatch.chdir(tmp_path)
    paths = [os.path.basename(p) for p in write_nights(tmp_path, ("::warning::pwn.log", " ::error::x.log"),
                                                        PLAYERS, [("Date", "::error::d")])]
    for skip in (True, False):
        result = score_paths(paths, by, fmt, skip_invalid=skip)
        assert "pwn.log" in result.out + result.err
        for line in (result.out + result.err).splitlines():
            assert not line.lstrip().startswith("::"), line


def test_the_chart_and_notes_are_safe(tmp_path: Path) -> None:
    paths = write_nights(tmp_path, (file_name(HOSTILE_STEM, 1), "2.log"), ("A" * 120, "Bob", "Cy"),
                         [("Event", "\x1b]0;PWNED\x07")])
    result = score_paths(paths, "player", "simple", chart=True)
    assert result.status == ExitStatus.OK and not FORBIDDEN.search(result.out)
    chart_lines = [line for line in result.out.splitlines() if "scale:" in line or line.startswith("AAAA")]
    assert chart_lines and all(len(line) < 200 for line in chart_lines)


def test_long_values_are_clipped_in_tables_only(tmp_path: Path) -> None:
    folder = tmp_path / ("d" * 200)
    folder.mkdir()
    long_name = "n" * 200
    paths = write_nights(folder, (long_name + ".log", "2.log"), ("Ann", "Bob", "Cy"), [("Date", "2024-05-01")])
    table = score_paths(paths, "night", "simple").out
    assert all(len(line) < 200 for line in table.splitlines())
    assert "…" + "n" * 20 in table  # the start of the path is cut, the file's own name kept
    data = score_paths(paths, "night", "csv").out
    assert long_name in data
    assert json.loads(score_paths(paths, "night", "json").out)["files"][0]["path"] == paths[0]


def test_names_that_look_like_numbers_stay_text(tmp_path: Path) -> None:
    paths = write_nights(tmp_path, ("1e5.log", "007.log"), ("1e5", "007", "Cy"), [])
    out = score_paths(paths, "player", "plain").out
    assert "1e5" in out and "007" in out and "100000" not in out
    out = score_paths([str(tmp_path / "1e5.log")], "night", "plain").out
    assert str(tmp_path / "1e5.log") in out


@pytest.mark.parametrize("args", [[], ["--format", "json"], ["--format", "csv"], ["--by", "hand", "--chart"],
                                  ["--by", "night", "--format", "html"], ["--format", "mediawiki"]])
def test_undecodable_file_names_do_not_crash(tmp_path: Path, args: list[str]) -> None:
    """A file name that is not UTF-8 reaches Python as lone surrogates: still printed safely."""
    good = os.fsencode(tmp_path) + b"/night\xff\x1b[31m.log"
    with open(good, "wb") as f:
        f.write(NIGHTS[0].read_bytes())
    bad = os.fsencode(tmp_path) + b"/bad\xfe.log"
    with open(bad, "wb") as f:
        f.write(b'[Players "Ann, Bob"]\n[Target "\x1b]0;PWNED\x07"]\n' + NIGHTS[0].read_bytes())
    env = {**os.environ, "PYTHONIOENCODING": "utf-8", "PYTHONPATH": str(ROOT)}
    for paths, status in (([good], ExitStatus.OK), ([good, bad], ExitStatus.FOUND)):
        done = subprocess.run([sys.executable, "-m", "kcref", "score", *args, *paths], env=env, capture_output=True,
                              timeout=60)
        assert done.returncode == status, done.stderr
        out, err = done.stdout.decode("utf-8"), done.stderr.decode("utf-8")
        assert "Traceback" not in err
        assert not FORBIDDEN.search(out) and not FORBIDDEN.search(err)
        if "--format" in args and "json" in args and status == ExitStatus.OK:
            assert json.loads(out)["files"][0]["path"] == re.sub("[\ud800-\udfff]", "\ufffd", os.fsdecode(good))


def test_refused_files_name_only_their_first_errors(tmp_path: Path) -> None:
    """A log with thousands of errors: the first ones are printed, the rest counted."""
    log = tmp_path / "junk.log"
    log.write_text(NIGHTS[0].read_text(encoding="utf-8") + "\x1b]0;PWNED\x07 nonsense\n" * 3000, encoding="utf-8")
    result = score_paths([str(log)])
    assert result.status == ExitStatus.FOUND and result.out == ""
    assert not FORBIDDEN.search(result.err)
    assert result.err.count(": error ") == 100
    assert "kcref score: 3000 errors in " in result.err and "the first 100 are shown above" in result.err


def test_every_tabulate_format_is_offered() -> None:
    assert set(tabulate_formats) <= set(FORMATS)
