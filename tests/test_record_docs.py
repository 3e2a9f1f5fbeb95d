"""docs/record.md shows what ``kcref record`` really prints, and its library example runs."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

from kcref.output.record_session import record
from tests.util import ROOT, UPDATE

DOC = ROOT / "docs" / "record.md"
COMMAND = '$ kcref record club.log --players "Dora, Eli, Fran, Gus" --rules commercial\n'
HAND = (ROOT / "samples" / "commercial-night.log").read_text(encoding="utf-8").splitlines()[8:20]
TYPED = [*HAND[:6], "Dora: KS->N; draw", "KS->NE; AH->S; JC->W; N->SW; 7H->N; W->NE; 7C->W; draw 5D", *HAND[7:12],
         "quit"]


class _Typist:
    """Lines typed at a prompt, echoed after it as a terminal shows them."""

    interactive = True

    def __init__(self, lines: list[str], out: io.StringIO) -> None:
        self.lines = iter(enumerate(lines, 1))
        self.out = out

    def read(self, prompt: str) -> tuple[str, int] | None:
        number, line = next(self.lines, (0, None))
        if line is None:
            return None
        self.out.write(prompt + line + "\n")
        return line, number


def _session(folder: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.chdir(folder)
    out = io.StringIO()
    record("club.log", [("Players", "Dora, Eli, Fran, Gus"), ("Rules", "commercial")],
           lambda log: _Typist(TYPED, out), out, io.StringIO())
    return COMMAND + out.getvalue()


def test_the_transcript_of_docs_record_md_is_what_record_prints(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    text = DOC.read_text(encoding="utf-8")
    shown = re.search(r"```\n(\$ kcref record club\.log.*?)```", text, re.S)
    assert shown is not None
    actual = _session(tmp_path, monkeypatch)
    if UPDATE:
        DOC.write_text(text.replace(shown.group(1), actual), encoding="utf-8")
        return
    assert shown.group(1) == actual
    assert "error KC301" in actual and "Eli went out" in actual


def test_the_library_example_of_docs_record_md_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    code = re.search(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)
    assert code is not None
    exec(compile(code.group(1), "docs/record.md", "exec"), {})
    assert capsys.readouterr().out == "Bob 33\nTrue\nFalse KC310\n"
