"""``kcref fmt --diff`` (a unified diff, exit 1 when a file would change) and ``--stdin-filename``."""

from __future__ import annotations

import re
from pathlib import Path

from click.testing import CliRunner

from kcref.cli import main
from kcref.notation.formatter import diff_lines
from tests.util import ROOT

CANON = (ROOT / "samples" / "commercial-night.log").read_text(encoding="utf-8")
MESSY = CANON.replace("->", " -> ").replace("hand 3", "hand   3")
HUNK = re.compile(r"@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")


def run(*args: str, input: bytes | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args), input=input)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.stdout, result.stderr


def apply(original: str, diff: str) -> str:
    """``original`` patched by the unified ``diff`` (a small applier: each hunk's old side must match)."""
    old = diff_lines(original)
    lines = diff.split("\n")[:-1]
    assert lines[0].startswith("--- ") and lines[1].startswith("+++ ")
    new: list[str] = []
    at = 0
    i = 2
    while i < len(lines):
        m = HUNK.fullmatch(lines[i])
        assert m, lines[i]
        start = int(m.group(1)) - (m.group(2) != "0")
        new += old[at:start]
        at = start
        i += 1
        while i < len(lines) and not lines[i].startswith("@@"):
            tag, text = lines[i][0], lines[i][1:] + "\n"
            if i + 1 < len(lines) and lines[i + 1] == "\\ No newline at end of file":
                text = text[:-1]
                i += 1
            if tag in " -":
                assert old[at] == text, (old[at], text)
                at += 1
            if tag in " +":
                new.append(text)
            i += 1
    return "".join(new + old[at:])


def test_diff_turns_the_file_into_its_canonical_form(tmp_path: Path) -> None:
    night = tmp_path / "night.log"
    night.write_text(MESSY, encoding="utf-8")
    code, out, err = run("fmt", "--diff", str(night))
    assert code == 1 and err == f"would reformat {night}\n"
    assert out.startswith(f"--- {night}\n+++ {night}\n@@ ")
    assert apply(MESSY, out) == CANON
    assert night.read_text(encoding="utf-8") == MESSY  # nothing is rewritten
    assert run("fmt", "--diff", "--check", str(night)) == (code, out, err)


def test_diff_of_a_canonical_file_is_empty(tmp_path: Path) -> None:
    night = tmp_path / "night.log"
    night.write_text(CANON, encoding="utf-8")
    assert run("fmt", "--diff", str(night)) == (0, "", "")


def test_diff_without_a_final_line_feed() -> None:
    text = '[Players "Ann, Bob"]\nhand  1'
    code, out, _err = run("fmt", "--diff", "-", input=text.encode())
    assert code == 1
    assert out.endswith("-hand  1\n\\ No newline at end of file\n+hand 1\n")
    assert apply(text, out) == '[Players "Ann, Bob"]\nhand 1\n'


def test_a_form_feed_in_a_comment_does_not_cut_the_line() -> None:
    text = '[Players "Ann, Bob"]\n# a\x0cb\nhand  1\n'
    code, out, _err = run("fmt", "--diff", "-", input=text.encode())
    assert code == 1 and apply(text, out) == '[Players "Ann, Bob"]\n# a\x0cb\nhand 1\n'


def test_stdin_filename_names_standard_input() -> None:
    code, out, err = run("fmt", "--diff", "--stdin-filename", "nights/ann's night.log", "-", input=MESSY.encode())
    assert code == 1 and err == "would reformat nights/ann's night.log\n"
    assert out.startswith("--- nights/ann's night.log\n+++ nights/ann's night.log\n")
    assert run("fmt", "--check", "--stdin-filename", "a.log", "-", input=MESSY.encode()) == (
        1, "", "would reformat a.log\n")
    code, out, err = run("fmt", "--stdin-filename", "a.log", "-", input=b"hand 1\nAnn: 4S=>N\n")
    assert code == 1 and out == "" and err.startswith("a.log:2:")


def test_stdin_filename_is_made_printable() -> None:
    code, out, err = run("fmt", "--diff", "--stdin-filename", "a\x1b[31m.log", "-", input=MESSY.encode())
    assert code == 1 and "\x1b" not in out + err and "would reformat a\ufffd[31m.log" in err


def test_diff_and_write_do_not_mix(tmp_path: Path) -> None:
    code, _out, err = run("fmt", "--diff", "--write", str(tmp_path))
    assert code == 2 and "--write and --diff cannot be used together" in err
