"""``kcref lsp`` over a real pipe, driven by pygls's own client: every feature answers what the
command that owns it answers (check, record's Tab, show, explain, fmt), and bad input leaves the
server up."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lsprotocol import types as lsp

from kcref.engine.turns import legal_actions
from kcref.model.diagnostics import end_column
from kcref.notation.reader import read_text
from kcref.notation.writer import action_text
from kcref.referee.pipeline import check_text
from kcref.referee.replay import table_at
from kcref.render.table_view import locate
from tests.lsp_client import Session
from tests.util import ROOT

SAMPLES = ROOT / "samples"


@pytest.fixture(scope="module")
def session() -> Iterator[Session]:
    s = Session()
    try:
        yield s
    finally:
        s.close()


def kcref(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "kcref", *args], capture_output=True, text=True, cwd=cwd,
                          timeout=60, env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin", "KCREF_NO_CACHE": "1"})


def as_check(diagnostics: list[lsp.Diagnostic]) -> list[tuple[int, int, str, str, str]]:
    names = {lsp.DiagnosticSeverity.Error: "error", lsp.DiagnosticSeverity.Warning: "warning",
             lsp.DiagnosticSeverity.Information: "info"}
    return [(d.range.start.line + 1, d.range.start.character + 1, names[d.severity], str(d.code), d.message)
            for d in diagnostics]  # type: ignore[index]


def check_json(path: Path, cwd: Path = ROOT) -> list[tuple[int, int, str, str, str]]:
    out = json.loads(kcref("check", "--format", "json", str(path), cwd=cwd).stdout)
    return [(d["line"], max(d["column"], 1), d["severity"], d["code"], d["message"]) for d in out["diagnostics"]]


def of_text(text: str) -> list[tuple[int, int, str, str, str]]:
    return [(d.line, max(d.column, 1), d.severity.value, d.code, d.message) for d in check_text(text).diagnostics]


@pytest.mark.parametrize("name", ["invalid/typos.log", "invalid/illegal-plays.log", "invalid/setup.log",
                                  "commercial-night.log"])
def test_diagnostics_on_open_are_check_json(session: Session, name: str) -> None:
    path = SAMPLES / name
    uri = session.open(path)
    shown = session.diagnostics(uri)
    assert as_check(shown) == check_json(path)
    lines = path.read_text(encoding="utf-8").split("\n")
    for d in shown:
        line = lines[d.range.start.line]
        assert d.range.end.character == end_column(line, d.range.start.character + 1) - 1
        assert d.source == "kcref"
        if d.severity == lsp.DiagnosticSeverity.Error and str(d.code).startswith("KC3"):
            assert d.related_information is not None
            assert d.related_information[0].message.endswith(f"--line {d.range.start.line + 1}")


def test_ranges_cover_the_offending_token(session: Session) -> None:
    uri = session.open(SAMPLES / "invalid/illegal-plays.log")
    first = session.diagnostics(uri)[0]
    line = (SAMPLES / "invalid/illegal-plays.log").read_text(encoding="utf-8").split("\n")[first.range.start.line]
    assert line[first.range.start.character:first.range.end.character] == "5S->E"


def test_configuration_and_inline_suppressions_apply(session: Session, tmp_path: Path) -> None:
    log = tmp_path / "night.log"
    text = (SAMPLES / "invalid/illegal-plays.log").read_text(encoding="utf-8")
    lines = text.split("\n")
    lines[13] += "  # kcref: ignore[KC301]"
    log.write_text("\n".join(lines), encoding="utf-8")
    (tmp_path / "kcref.toml").write_text('ignore = ["KC310"]\n', encoding="utf-8")
    uri = session.open(log)
    shown = as_check(session.diagnostics(uri))
    assert shown == check_json(log, cwd=tmp_path)
    codes = {d[3] for d in shown}
    assert "KC310" not in codes and (14, 6, "error", "KC301") not in {d[:4] for d in shown}


def test_changes_are_judged_again(session: Session) -> None:
    text = (SAMPLES / "classic-night.log").read_text(encoding="utf-8")
    uri = session.open(SAMPLES / "classic-night.log", text)
    assert not session.diagnostics(uri)
    lines = text.split("\n")
    turn = lines[13]
    session.edit(uri, 13, 0, len(turn), turn.replace("5H->E", "5S->E"))
    lines[13] = turn.replace("5H->E", "5S->E")
    assert as_check(session.diagnostics(uri)) == of_text("\n".join(lines))
    # Many changes at once, each overtaking the last: the diagnostics are those of the last text.
    for n in range(20):
        session.replace(uri, "\n".join(lines[:20 + n]))
    assert as_check(session.diagnostics(uri)) == of_text("\n".join(lines[:39]))


@pytest.mark.parametrize("char", ["\u2028", "\x0c", "\x85", "\x1c", "\x0b"])
def test_a_line_break_of_python_alone_is_no_line_end(session: Session, char: str) -> None:
    """A form feed or U+2028 in a comment is no line end to the client or to check: an edit below
    it lands where the editor made it (pygls splits lines with ``str.splitlines``)."""
    lines = (SAMPLES / "classic-night.log").read_text(encoding="utf-8").split("\n")
    lines[5] += f" # a{char}b"
    uri = session.open(SAMPLES / f"break-{ord(char)}.log", "\n".join(lines))
    session.diagnostics(uri)
    turn = lines[13]
    session.edit(uri, 13, 0, len(turn), turn.replace("5H->E", "5S->E"))
    lines[13] = turn.replace("5H->E", "5S->E")
    assert as_check(session.diagnostics(uri)) == of_text("\n".join(lines)) != []


def test_an_edit_past_the_end_of_a_line_is_at_its_end(session: Session) -> None:
    """A position past the end of its line stands for the line's end (the protocol says so):
    on the last line too, where pygls put it one character early ('hand 05' for 'hand 50')."""
    text = (SAMPLES / "classic-night.log").read_text(encoding="utf-8") + "hand 5"
    uri = session.open(SAMPLES / "past-the-end.log", text)
    session.diagnostics(uri)
    last = text.count("\n")
    for line, start, end, piece in ((last, 500, 500, "0"), (last, 900, 901, " # é🂡"), (13, 999, 1000, "; draw")):
        session.edit(uri, line, start, end, piece)
        lines = text.split("\n")
        lines[line] += piece
        text = "\n".join(lines)
        assert as_check(session.diagnostics(uri)) == of_text(text), (line, piece)
    assert "hand 50" in str(of_text(text))


def test_a_log_with_cr_line_ends_is_placed_and_formatted_line_by_line(session: Session) -> None:
    """Lines end at a CR alone too (old Mac files), for the client and for check: every
    diagnostic on its own line, and the formatting's edit covers the whole text."""
    text = (SAMPLES / "invalid/illegal-plays.log").read_text(encoding="utf-8").replace("\n", "\r")
    uri = session.open(SAMPLES / "invalid/cr.log", text)
    assert as_check(session.diagnostics(uri)) == of_text(text)
    untidy = text.replace("->", " -> ")
    uri = session.open(SAMPLES / "invalid/cr-untidy.log", untidy)
    edits = session.run(session.client.text_document_formatting_async(lsp.DocumentFormattingParams(
        lsp.TextDocumentIdentifier(uri), lsp.FormattingOptions(4, True))))
    assert edits and len(edits) == 1
    assert edits[0].range == lsp.Range(lsp.Position(0, 0), lsp.Position(untidy.count("\r"), 0))


def _table_offers(text: str, line: int) -> list[str]:
    located = locate(read_text(text, "x", trivia=True), "x", None, line - 1)
    position = table_at(located.record, line - 1, located.stacks, located.pot)
    assert position.table is not None
    return [action_text(a) for a in legal_actions(position.table)]


def test_completion_offers_the_legal_actions(session: Session) -> None:
    path = SAMPLES / "classic-night.log"
    text = path.read_text(encoding="utf-8")
    uri = session.open(path, text)
    lines = text.split("\n")
    line = lines.index("Cy: KH->NE; W->NE; 7C->W; draw KD")
    got = session.run(session.client.text_document_completion_async(lsp.CompletionParams(
        lsp.TextDocumentIdentifier(uri), lsp.Position(line, 4))))
    assert isinstance(got, lsp.CompletionList)
    assert [i.label for i in got.items] == _table_offers(text, line + 1)
    # After a card and its arrow: the piles it may go on.
    session.edit(uri, line, 4, len(lines[line]), "KH->")
    got = session.run(session.client.text_document_completion_async(lsp.CompletionParams(
        lsp.TextDocumentIdentifier(uri), lsp.Position(line, 8))))
    labels = [i.label for i in got.items]  # type: ignore[union-attr]
    assert labels and all(label.startswith("KH->") for label in labels)
    assert "KH->NE" in labels
    # At the start of a line: the player to move first, then keywords.
    session.edit(uri, line, 0, 8, "")
    got = session.run(session.client.text_document_completion_async(lsp.CompletionParams(
        lsp.TextDocumentIdentifier(uri), lsp.Position(line, 0))))
    labels = [i.label for i in got.items]  # type: ignore[union-attr]
    assert labels[0] == "Cy: " and "layout" in labels and "chips" in labels
    # Tags, and their values.
    session.replace(uri, '[Rul')
    got = session.run(session.client.text_document_completion_async(lsp.CompletionParams(
        lsp.TextDocumentIdentifier(uri), lsp.Position(0, 4))))
    assert [i.label for i in got.items] == ["Rules"]  # type: ignore[union-attr]
    session.replace(uri, '[Rules "co')
    got = session.run(session.client.text_document_completion_async(lsp.CompletionParams(
        lsp.TextDocumentIdentifier(uri), lsp.Position(0, 10))))
    assert [i.label for i in got.items] == ["commercial"]  # type: ignore[union-attr]


def test_hover_draws_the_table_as_show_does(session: Session) -> None:
    path = SAMPLES / "commercial-night.log"
    uri = session.open(path)
    lines = path.read_text(encoding="utf-8").split("\n")
    for line in (10, len(lines) // 2, len(lines) - 3):
        if not lines[line - 1].strip():
            continue
        got = session.run(session.client.text_document_hover_async(lsp.HoverParams(
            lsp.TextDocumentIdentifier(uri), lsp.Position(line - 1, 0))))
        assert got is not None
        shown = kcref("show", str(path.resolve()), "--line", str(line)).stdout
        assert got.contents.value == f"```text\n{shown.rstrip()}\n```"  # type: ignore[union-attr]


def test_hover_on_a_hand_without_usable_players(session: Session) -> None:
    """A hover over a hand whose players are unknown draws what show draws, not an internal error."""
    uri = session.open(SAMPLES / "nobody.log", '[Players "\U0001f0a1, Bob"]\nhand 1\nBob: 5S->E\n')
    session.diagnostics(uri)
    got = session.run(session.client.text_document_hover_async(lsp.HoverParams(
        lsp.TextDocumentIdentifier(uri), lsp.Position(2, 2))))
    assert got is not None and "the hand cannot be replayed" in got.contents.value  # type: ignore[union-attr]


def test_hover_on_a_code_explains_it(session: Session, tmp_path: Path) -> None:
    log = tmp_path / "n.log"
    log.write_text("# kcref: ignore[KC301]\n", encoding="utf-8")
    uri = session.open(log)
    got = session.run(session.client.text_document_hover_async(lsp.HoverParams(
        lsp.TextDocumentIdentifier(uri), lsp.Position(0, 18))))
    assert got is not None
    assert got.contents.value == f"```text\n{kcref('explain', 'KC301').stdout.rstrip()}\n```"  # type: ignore[union-attr]


def test_formatting_gives_fmts_text(session: Session, tmp_path: Path) -> None:
    log = tmp_path / "untidy.log"
    text = (SAMPLES / "short-classic.log").read_text(encoding="utf-8").replace("->", " -> ").replace("\n\n", "\n\n\n")
    log.write_text(text, encoding="utf-8")
    uri = session.open(log)
    edits = session.run(session.client.text_document_formatting_async(lsp.DocumentFormattingParams(
        lsp.TextDocumentIdentifier(uri), lsp.FormattingOptions(4, True))))
    assert edits and len(edits) == 1
    assert edits[0].new_text == kcref("fmt", str(log)).stdout
    assert edits[0].range.start == lsp.Position(0, 0)


def _apply(text: str, edits: list[lsp.TextEdit]) -> str:
    lines = text.split("\n")
    for e in sorted(edits, key=lambda e: (e.range.start.line, e.range.start.character), reverse=True):
        assert e.range.start.line == e.range.end.line
        line = lines[e.range.start.line]
        lines[e.range.start.line] = line[:e.range.start.character] + e.new_text + line[e.range.end.character:]
    return "\n".join(lines)


def _actions(session: Session, uri: str, line: int) -> list[lsp.CodeAction]:
    got = session.run(session.client.text_document_code_action_async(lsp.CodeActionParams(
        lsp.TextDocumentIdentifier(uri), lsp.Range(lsp.Position(line, 0), lsp.Position(line, 0)),
        lsp.CodeActionContext([]))))
    return [a for a in got or [] if isinstance(a, lsp.CodeAction)]


def test_code_actions_fix_what_they_say(session: Session, tmp_path: Path) -> None:
    text = (SAMPLES / "invalid/typos.log").read_text(encoding="utf-8")
    log = tmp_path / "typos.log"
    log.write_text(text, encoding="utf-8")
    uri = session.open(log)
    session.diagnostics(uri)
    # 'hnad' does not start a log line; did you mean 'hand'?
    fix = next(a for a in _actions(session, uri, 5) if a.title == "Replace with 'hand'")
    fixed = _apply(text, fix.edit.changes[uri])  # type: ignore[union-attr,index]
    assert fixed.split("\n")[5].startswith("hand ")
    assert not [d for d in of_text(fixed) if d[0] == 6 and d[3] == "KC101"]
    # Ignore a code on its line.
    ignore = next(a for a in _actions(session, uri, 5) if a.title.startswith("Ignore KC101"))
    silenced = _apply(text, ignore.edit.changes[uri])  # type: ignore[union-attr,index]
    assert silenced.split("\n")[5].endswith("# kcref: ignore[KC101]")
    assert not [d for d in of_text(silenced) if d[0] == 6 and d[3] == "KC101"]


def test_a_wrong_assertion_is_corrected(session: Session, tmp_path: Path) -> None:
    text = (SAMPLES / "commercial-night.log").read_text(encoding="utf-8")
    lines = text.split("\n")
    at = next(i for i, line in enumerate(lines) if line.startswith("chips "))
    figure = lines[at].split()[-1]
    lines[at] = lines[at][: len(lines[at]) - len(figure)] + str(int(figure) + 5)
    log = tmp_path / "wrong.log"
    log.write_text("\n".join(lines), encoding="utf-8")
    uri = session.open(log)
    assert "KC601" in {str(d.code) for d in session.diagnostics(uri)}
    fix = next(a for a in _actions(session, uri, at) if a.title.startswith("Write kcref's count"))
    assert _apply("\n".join(lines), fix.edit.changes[uri]) == text  # type: ignore[union-attr,index]


def test_semantic_tokens_find_cards_and_keywords(session: Session) -> None:
    path = SAMPLES / "classic-night.log"
    uri = session.open(path)
    got = session.run(session.client.text_document_semantic_tokens_full_async(lsp.SemanticTokensParams(
        lsp.TextDocumentIdentifier(uri))))
    assert got is not None
    lines = path.read_text(encoding="utf-8").split("\n")
    line = start = 0
    found: dict[tuple[int, str], str] = {}
    for i in range(0, len(got.data), 5):
        dl, ds, length, kind, mods = got.data[i:i + 5]
        line, start = line + dl, (start + ds if dl == 0 else ds)
        found[(line, lines[line][start:start + length])] = f"{kind}:{mods}"
    assert found[(8, "4H")] == found[(8, "6H")] != found[(8, "6C")]  # a deal line: hearts, and clubs
    assert (8, "deal") in found and (7, "hand") in found and (4, "Players") in found
    assert (12, "E") in found and (12, "->") in found


def test_bad_input_leaves_the_server_up(session: Session, tmp_path: Path) -> None:
    binary = tmp_path / "binary.log"
    binary.write_bytes(b"hand 1\n\x00\x01\x02 junk\n")
    uri = session.open(binary, binary.read_bytes().decode("utf-8"))
    assert as_check(session.diagnostics(uri)) == check_json(binary)
    with pytest.raises(Exception, match="Method Not Found"):
        session.request("kcref/nonsense", {})
    big = tmp_path / "big.log"
    huge = "x" * (50 * 1024 * 1024)
    uri = session.open(big, huge)
    assert [d[3] for d in as_check(session.diagnostics(uri, timeout=60))] == [d.code for d in
                                                                             check_text(huge).diagnostics]
    # Still answering.
    uri = session.open(SAMPLES / "short-classic.log")
    assert not session.diagnostics(uri)


def test_without_the_extra_it_says_what_to_install() -> None:
    code = ("import sys\nsys.modules['pygls'] = None\nfrom kcref.cli import main\n"
            "main(['lsp'], prog_name='kcref')\n")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert result.returncode == 2
    assert "pip install 'kcref[lsp]'" in result.stderr


def _units(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


EDIT_PIECES = ("5S", "->", "E", " ", ";", "x", "draw", "# kcref: ignore[KC301]", "hand 9", "\n", "chips Ann 3",
               "é", "🂡")


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.tuples(st.integers(0, 10_000), st.integers(0, 200), st.integers(0, 3),
                          st.sampled_from(EDIT_PIECES)), min_size=1, max_size=4))
def test_fuzzed_edits_leave_it_up_and_equal_to_check(session: Session, edits: list[tuple[int, int, int, str]]) -> None:
    """Random insertions and deletions, sent as an editor sends them: after each, the server is up
    and its diagnostics are check's on the same text."""
    text = (SAMPLES / "commercial-night.log").read_text(encoding="utf-8")
    uri = session.open(SAMPLES / "commercial-night.log", text)
    session.diagnostics(uri)
    lines = text.split("\n")
    for line, column, deleted, piece in edits:
        line %= len(lines)
        start = min(column, len(lines[line]))
        end = min(start + deleted, len(lines[line]))
        before = lines[line]
        session.edit(uri, line, _units(before[:start]), _units(before[:end]), piece)  # the client counts UTF-16
        lines[line] = lines[line][:start] + piece + lines[line][end:]
        lines = "\n".join(lines).split("\n")
        assert as_check(session.diagnostics(uri)) == of_text("\n".join(lines))


def test_typing_without_a_pause_waits_for_one() -> None:
    """docs/editors.md: a change after a pause is judged at once; one that follows it closely
    waits until the typing pauses for DEBOUNCE seconds."""
    import asyncio
    from types import SimpleNamespace

    from kcref.apps.lsp.server import DEBOUNCE, KcrefServer

    async def typing() -> tuple[float, float]:
        loop = asyncio.get_running_loop()
        server = SimpleNamespace(pending={}, changed={})

        async def publish(uri: str) -> None:
            server.pending.pop(uri, None)

        server.publish = publish
        KcrefServer.schedule(server, "file:///a.log", DEBOUNCE)
        first = server.pending["file:///a.log"].when() - loop.time()
        await asyncio.sleep(DEBOUNCE / 5)  # the first judgement has run
        KcrefServer.schedule(server, "file:///a.log", DEBOUNCE)
        second = server.pending["file:///a.log"].when() - loop.time()
        server.pending["file:///a.log"].cancel()
        return first, second

    first, second = asyncio.run(typing())
    assert first <= 0.01 and second > DEBOUNCE / 2
