"""``kcref report`` makes its page as a stream: each hand goes out while the log is still being
read, with the very diagnostics ``kcref check`` gives for its lines, and the page comes as text
chunks. (Its memory and speed on large logs are measured by bench/memory.py and bench/report.py.)"""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest

from kcref.apps.report import data as report_data
from kcref.apps.report.data import HandView, Part, Preamble, page_data
from kcref.apps.report.page import CHUNK, build_report
from kcref.engine.bots import play_log
from kcref.files.inputs import resolve
from kcref.referee.pipeline import check_file
from tests.util import ROOT

LOGS = sorted(p for folder in ("samples", "tests/cases") for p in (ROOT / folder).rglob("*")
              if p.suffix in (".log", ".kc") and p.is_file())


class _Tracked(io.BytesIO):
    """A log read from memory, telling how far it has been read."""

    def __init__(self, data: bytes) -> None:
        super().__init__(data)
        self.size = len(data)


def test_hands_go_out_while_the_log_is_read(monkeypatch: pytest.MonkeyPatch) -> None:
    data = "".join(play_log(4, "commercial", seed=3, hands=300)).encode("utf-8")
    stream = _Tracked(data)
    monkeypatch.setattr(report_data, "open_input", lambda path: stream)
    read_at: list[int] = []

    def sink(part: Part) -> None:
        if isinstance(part, HandView):
            read_at.append(stream.tell())

    got = page_data(resolve(["night.log"]), sink)
    assert got.hand_count == len(read_at) == 300
    # The reader takes 64 KiB at a time: the first hand is out once the first bytes are read, and
    # the hands keep coming as the log is read, not once it is all read.
    assert stream.size > 2 * 64 * 1024 and read_at[0] <= 64 * 1024
    assert sum(1 for at in read_at if at < stream.size) > len(read_at) // 2
    assert read_at == sorted(read_at)


@pytest.mark.parametrize("path", LOGS, ids=lambda p: str(p.relative_to(ROOT)))
def test_each_part_shows_the_diagnostics_of_check_at_its_lines(path: Path) -> None:
    """Every diagnostic of ``kcref check`` is on the page once, under its line (or with the file,
    at line 0), and each hand lists the lines from its own to the next hand's."""
    parts: list[Part] = []
    data = page_data(resolve([str(path)]), parts.append)
    report = check_file(str(path))
    hands = [p for p in parts if isinstance(p, HandView)]
    preambles = [p for p in parts if isinstance(p, Preamble)]
    assert parts == [*preambles, *hands] and len(preambles) <= 1
    starts = list(report.hand_lines)
    assert [h.listing.lines[0].number for h in hands] == starts
    for hand, end in zip(hands, [*starts[1:], None]):
        assert end is None or hand.listing.lines[-1].number < end
        assert hand.diagnostics == tuple(d for line in hand.listing.lines for d in line.diagnostics) + hand.listing.unlisted
    for preamble in preambles:
        assert preamble.whole == (not starts)
        assert not starts or all(line.number < starts[0] for line in preamble.listing.lines)
    shown: list[Any] = [*data.files[0].diagnostics]
    for part in parts:
        shown += [d for line in part.listing.lines for d in line.diagnostics] + list(part.listing.unlisted)
    assert sorted(shown, key=repr) == sorted((d.with_source("") for d in report.diagnostics), key=repr)


def test_the_page_comes_in_chunks_and_again_on_each_pass() -> None:
    result = build_report(resolve([str(ROOT / "samples" / "commercial-night.log")]))
    try:
        chunks = list(result.page)
        assert "".join(chunks) == result.html  # a second pass makes the same page
        assert chunks[0].startswith("<!DOCTYPE html>") and chunks[-1].endswith("</html>")
        assert all(len(c) < 2 * CHUNK for c in chunks)
    finally:
        result.page.close()


def test_a_hand_over_its_text_budget_is_listed_up_to_it(tmp_path: Path) -> None:
    from kcref.notation.sourcelines import HAND_BUDGET

    night = (ROOT / "samples" / "commercial-night.log").read_text(encoding="utf-8")
    first, second = night.index("\nhand "), night.index("\nhand ", night.index("\nhand ") + 1)
    filler = "".join(f"# {i:03} {'x' * 60_000}\n" for i in range(HAND_BUDGET // 60_000 + 2))
    log = tmp_path / "long.log"
    log.write_text(night[:second + 1] + filler + night[second + 1:], encoding="utf-8")
    parts: list[Part] = []
    data = page_data(resolve([str(log)]), parts.append)
    hands = [p for p in parts if isinstance(p, HandView)]
    assert data.hand_count == len(hands) == 3 and data.errors == 0
    clipped = hands[0].listing.clipped
    assert clipped is not None and hands[0].listing.lines[-1].number == clipped - 1
    assert hands[1].listing.clipped is None and hands[1].listing.lines[0].text.startswith("hand ")
    assert night.count("\n", 0, first) < clipped
    html = build_report(resolve([str(log)])).html
    assert f"The lines from line {clipped} on are not listed" in html and len(html) < len(filler)


def test_a_body_that_could_end_its_comment_is_refused() -> None:
    from kcref.apps.report.page import comment_safe

    assert comment_safe("\n<p>a -- b &gt; c</p>\n") == "\n<p>a -- b &gt; c</p>\n"
    for bad in ("<p>--></p>", "<p>--!></p>", "> x", "-> x", "x -", "x <!"):
        with pytest.raises(ValueError):
            comment_safe(bad)
