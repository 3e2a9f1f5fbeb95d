"""The reproductions of issue 9, one test each, run as real subprocesses.

Every probe runs ``python -m kcref`` with a time limit (``timeout``) and, where an input could
blow up memory, under an address-space limit of 1 GiB, so a regression fails fast instead of
hanging or eating the machine.
"""

from __future__ import annotations

import json
import os
import re
import resource
import stat
import subprocess
import sys
import threading
import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path
from typing import IO

import pytest

from kcref.notation.reader import read_text
from kcref.notation.writer import write_text
from tests.util import ROOT

TIMEOUT = 20
GIB = 1 << 30
SHORT = (ROOT / "samples" / "short-classic.log").read_text(encoding="utf-8")
CLASSIC = (ROOT / "samples" / "classic-night.log").read_text(encoding="utf-8")
ESC = b"\x1b"
CANONICAL = write_text(read_text(SHORT, "short.log", trivia=True))  # type: ignore[arg-type]
UNCANONICAL = CANONICAL.replace("hand 1 dealer Bob", "HAND   1 dealer Bob")
assert CANONICAL and UNCANONICAL != CANONICAL


def _limit_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (GIB, GIB))


def kcref(*args: str | bytes | os.PathLike[str], input: bytes | None = None, stdin: IO[bytes] | None = None,
          cwd: Path | None = None, env: dict[str, str] | None = None,
          limit: bool = True) -> subprocess.CompletedProcess[bytes]:
    """Run ``python -m kcref ARGS`` from this checkout, with a timeout and (by default) 1 GiB of memory."""
    full_env = {**os.environ, "PYTHONPATH": str(ROOT), **(env or {})}
    for name in ("GITHUB_ACTIONS", "NO_COLOR"):
        full_env.pop(name, None)
    return subprocess.run([sys.executable, "-m", "kcref", *args], input=input,
                          stdin=stdin if input is None else None, capture_output=True, cwd=cwd, env=full_env,
                          timeout=TIMEOUT, preexec_fn=_limit_memory if limit else None)


def no_traceback(p: subprocess.CompletedProcess[bytes]) -> None:
    assert b"Traceback" not in p.stderr and b"Traceback" not in p.stdout, p.stderr.decode("utf-8", "replace")[-3000:]
    assert p.returncode in (0, 1, 2), (p.returncode, p.stderr[-2000:])




def diagnostics(p: subprocess.CompletedProcess[bytes]) -> list[dict[str, object]]:
    return json.loads(p.stdout)["diagnostics"]


def output(p: subprocess.CompletedProcess[bytes]) -> bytes:
    return p.stdout + p.stderr


# --- a hand with 'blocked' and no layout ---------------------------------------------------------

BLOCKED_NO_LAYOUT = '[Players "Ann, Bob"]\nhand\nblocked\n'


@pytest.mark.parametrize("command", ["check", "score"])
def test_blocked_without_layout_is_a_setup_error(tmp_path: Path, command: str) -> None:
    log = tmp_path / "blocked.log"
    log.write_text(BLOCKED_NO_LAYOUT, encoding="utf-8")
    p = kcref(command, log)
    no_traceback(p)
    assert p.returncode == 1
    if command == "check":
        assert re.search(rb"error KC2\d\d .*layout", p.stdout), p.stdout


def test_blocked_without_layout_show(tmp_path: Path) -> None:
    log = tmp_path / "blocked.log"
    log.write_text(BLOCKED_NO_LAYOUT, encoding="utf-8")
    p = kcref("show", log)
    no_traceback(p)
    assert p.returncode in (0, 2)
    assert re.search(rb"[a-z]{3,} [a-z]{3,}", output(p)), output(p)


def test_blocked_without_layout_beside_a_good_file_in_parallel(tmp_path: Path) -> None:
    bad, good = tmp_path / "blocked.log", tmp_path / "good.log"
    bad.write_text(BLOCKED_NO_LAYOUT, encoding="utf-8")
    good.write_text(CLASSIC, encoding="utf-8")
    p = kcref("check", "--jobs", "2", "--format", "json", bad, good)
    no_traceback(p)
    assert p.returncode == 1
    files = {f["path"]: f for f in json.loads(p.stdout)["files"]}
    assert files[str(good)]["hands"] == 4 and files[str(good)]["errors"] == 0
    assert files[str(bad)]["errors"] >= 1


# --- special files -------------------------------------------------------------------------------


FIFO_TIMEOUT = 10  # a two-hand log: seconds are plenty; a FIFO opened twice blocks for ever


def test_check_a_fifo(tmp_path: Path) -> None:
    data = SHORT.replace("Ann: JH->N", "Ann: JH->S", 1).encode()
    runs: dict[str, tuple[Path, threading.Thread, subprocess.Popen[bytes]]] = {}
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    for name, extra in (("source", []), ("no-source", ["--no-source"])):
        fifo = tmp_path / f"{name}.log"
        os.mkfifo(fifo)
        thread = threading.Thread(target=fifo.write_bytes, args=(data,), daemon=True)
        thread.start()
        # Both variants run at once: a hang costs one timeout, not two.
        proc = subprocess.Popen([sys.executable, "-m", "kcref", "check", *extra, str(fifo)],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
        runs[name] = (fifo, thread, proc)
    results: dict[str, subprocess.CompletedProcess[bytes]] = {}
    try:
        for name, (_fifo, _thread, proc) in runs.items():
            try:
                out, err = proc.communicate(timeout=FIFO_TIMEOUT)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.communicate()
                raise
            results[name] = subprocess.CompletedProcess(proc.args, proc.returncode, out, err)
    finally:
        for fifo, thread, proc in runs.values():
            if proc.poll() is None:
                proc.kill()
                proc.wait()
            # Should kcref never have opened the FIFO, this unblocks the writer so its thread ends.
            fd = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
            thread.join(5)
            os.close(fd)
    for name, p in results.items():
        no_traceback(p)
        assert p.returncode == 1, (name, p.stdout)
        assert b"error KC301" in p.stdout and b"1 file, 2 hands, " in p.stdout, (name, p.stdout)
    assert b"    Ann: JH->S;" in results["source"].stdout


def _zero_folder(tmp_path: Path) -> Path:
    folder = tmp_path / "logs"
    folder.mkdir()
    (folder / "zero.log").symlink_to("/dev/zero")
    return folder


ZERO_WAYS: dict[str, Callable[[Path], tuple[list[str], bool]]] = {
    "direct": lambda tmp: (["/dev/zero"], False),
    "stdin": lambda tmp: (["-"], True),
    "symlink-in-folder": lambda tmp: ([str(_zero_folder(tmp))], False),
}


@pytest.mark.parametrize("command", ["check", "score", "fmt"])
@pytest.mark.parametrize("way", list(ZERO_WAYS))
def test_dev_zero(tmp_path: Path, command: str, way: str) -> None:
    args, from_stdin = ZERO_WAYS[way](tmp_path)
    with open("/dev/zero", "rb") as zero:
        p = kcref(command, *args, stdin=zero if from_stdin else subprocess.DEVNULL)
    no_traceback(p)
    assert p.returncode == 2
    assert len(output(p)) < 2000, output(p)[:3000]
    if way == "symlink-in-folder":  # refused for the file itself, not for being a folder
        assert b"zero.log" in output(p), output(p)


# --- huge lines and words ------------------------------------------------------------------------


def test_a_line_over_64_kib_is_one_error_and_reading_goes_on(tmp_path: Path) -> None:
    log = tmp_path / "long.log"
    lines = SHORT.split("\n")
    long_at = len(lines) - 1
    lines.insert(long_at, "x" * 70_000)
    lines.append("hnad 3")
    log.write_text("\n".join(lines) + "\n", encoding="utf-8")
    p = kcref("check", "--format", "json", log)
    no_traceback(p)
    assert p.returncode == 1
    found = diagnostics(p)
    assert [d["code"] for d in found if d["line"] == long_at + 1 and d["severity"] == "error"] == ["KC005"]
    assert any(d["line"] == len(lines) and d["code"] == "KC101" for d in found), found


HUGE_WORD = "hnad" + "x" * 5_000_000 + "\n"
HUGE_TAG = '[Players "Ann, Bob"]\n[Event "' + "y" * 2_000_000 + '"]\n' + SHORT.split("\n", 4)[4]


HUGE = [pytest.param(HUGE_WORD, id="5MB-word"),
        pytest.param(HUGE_TAG, id="2MB-tag")]


@pytest.mark.parametrize("command", ["check", "score"])
@pytest.mark.parametrize("text", HUGE)
def test_huge_word_or_tag_value(tmp_path: Path, command: str, text: str) -> None:
    log = tmp_path / "huge.log"
    log.write_text(SHORT + text, encoding="utf-8")
    p = kcref(command, log)
    no_traceback(p)
    assert p.returncode in (0, 1)
    for line in output(p).split(b"\n"):
        assert len(line) < 2000, line[:200]
    assert len(output(p)) < 20_000


@pytest.mark.parametrize("text", HUGE)
def test_fmt_of_huge_word_or_tag_value(tmp_path: Path, text: str) -> None:
    log = tmp_path / "huge.log"
    log.write_text(SHORT + text, encoding="utf-8")
    p = kcref("fmt", log)
    no_traceback(p)
    if p.returncode == 1:  # a syntax error: reported, in short lines
        assert all(len(line) < 2000 for line in p.stderr.split(b"\n"))


def test_twenty_thousand_actions_after_a_leading_blank(tmp_path: Path) -> None:
    lines = SHORT.split("\n")
    at = next(i for i, line in enumerate(lines) if line.startswith("Ann: "))
    lines[at] = " Ann: " + "; ".join(["4S->N", "N->E", "draw", "pass"] * 5000)
    log = tmp_path / "many.log"
    log.write_text("\n".join(lines), encoding="utf-8")
    p = kcref("check", "--no-source", log)  # the timeout is the bound: quadratic work never ends in time
    no_traceback(p)
    assert p.returncode == 1


# --- output floods -------------------------------------------------------------------------------


def test_a_megabyte_junk_line_prints_little(tmp_path: Path) -> None:
    log = tmp_path / "junk.log"
    log.write_text("é" * 500_000 + "\n", encoding="utf-8")
    p = kcref("check", log)
    no_traceback(p)
    assert p.returncode == 1
    assert len(output(p)) < 1024, len(output(p))


@pytest.mark.parametrize("seed", [0,
                                  1])
def test_binary_output_has_no_long_replacement_runs(tmp_path: Path, seed: int) -> None:
    import random

    rng = random.Random(seed)
    data = bytes(range(1, 256)) * 20 if seed == 0 else bytes(rng.randrange(1, 256) for _ in range(50_000))
    log = tmp_path / "blob.log"
    log.write_bytes(data)
    for command in ("check", "score", "fmt", "show"):
        p = kcref(command, log)
        no_traceback(p)
        text = output(p).decode("utf-8", "replace")
        assert "\ufffd" * 81 not in text, (command, text[:500])


# --- line ends and encodings ---------------------------------------------------------------------


def test_cr_only_line_ends(tmp_path: Path) -> None:
    log = tmp_path / "mac.log"
    log.write_bytes(CLASSIC.replace("\n", "\r").encode())
    p = kcref("check", "--format", "json", log)
    no_traceback(p)
    body = json.loads(p.stdout)
    read_as_lines = body["files"][0]["hands"] == 4
    reported = any(re.search(r"carriage return|\bCR\b|\\r", str(d["message"]), re.I) for d in body["diagnostics"])
    assert read_as_lines or reported, body


def test_utf16_is_named(tmp_path: Path) -> None:
    log = tmp_path / "utf16.log"
    log.write_bytes(SHORT.encode("utf-16"))
    p = kcref("check", log)
    no_traceback(p)
    assert p.returncode == 2
    assert b"UTF-16" in p.stdout and b"UTF-8" in p.stdout, p.stdout


def test_form_feed_before_a_keyword_is_named(tmp_path: Path) -> None:
    log = tmp_path / "ff.log"
    log.write_text(SHORT.replace("hand 1", "\fhand 1", 1), encoding="utf-8")
    p = kcref("check", "--format", "json", log)
    no_traceback(p)
    messages = [str(d["message"]) for d in diagnostics(p) if d["line"] == 7]
    assert messages, diagnostics(p)
    assert all("''" not in m for m in messages), messages
    assert any(re.search(r"form feed|U\+000C|\\f|\\x0c", m, re.I) for m in messages), messages


# --- hostile file names and values ---------------------------------------------------------------


def _bytes_named_log(tmp_path: Path) -> bytes:
    folder = tmp_path / "logs"
    folder.mkdir()
    name = os.path.join(os.fsencode(folder), b"bad\xffname.log")
    with open(name, "wb") as f:
        f.write(SHORT.replace("Ann: JH->N", "Ann: JH->S", 1).encode())
    return name




@pytest.mark.parametrize("args, status", [
    *[pytest.param(["check", "--format", f], 1, id=f"check-{f}")
      for f in ("text", "json", "github", "junit")],
    pytest.param(["score"], 1, id="score"),
    pytest.param(["score", "--skip-invalid"], 0, id="score-skip-invalid"),
    pytest.param(["show"], 0, id="show"),
])
def test_non_utf8_file_name(tmp_path: Path, args: list[str], status: int) -> None:
    name = _bytes_named_log(tmp_path)
    # check finds the name in a folder; score takes it as an argument (bytes through argv).
    target = os.path.dirname(name) if args[0] == "check" else name
    p = kcref(*args, target, env={"PYTHONIOENCODING": "utf-8"})
    no_traceback(p)
    assert p.returncode == status
    if "json" in args:
        json.loads(p.stdout)
    if "junit" in args:
        ET.fromstring(p.stdout)


GH_COMMAND = re.compile(r"::(?:error|warning|notice) file=[^,:\n]*,line=\d+,col=\d+,title=KC\d{3}::[^\n]*"
                        r"|::group::[^\n]*|::endgroup::")


def test_github_format_escapes_a_hostile_file_name(tmp_path: Path) -> None:
    folder = tmp_path / "logs"
    folder.mkdir()
    (folder / "nl\n::error title=INJECTED::pwned\n.log").write_text(
        SHORT.replace("Ann: JH->N", "Ann: JH->S", 1), encoding="utf-8")
    p = kcref("check", "--format", "github", folder)
    no_traceback(p)
    lines = p.stdout.decode().split("\n")
    assert "::error title=INJECTED::pwned" not in lines
    commands = [line for line in lines if line.startswith("::")]
    assert commands and all(GH_COMMAND.fullmatch(line) for line in commands), commands


INJECTED = b"::error title=INJECTED::pwned"


@pytest.mark.parametrize("command", ["check", "show"])
def test_newline_in_a_file_name_forges_no_line(tmp_path: Path, command: str) -> None:
    log = tmp_path / "nl\n::error title=INJECTED::pwned\n.log"
    log.write_text(CLASSIC.replace("Bob: 5H->E", "Bob: 5S->E", 1), encoding="utf-8")
    p = kcref(command, log)  # check: the '= the table then: kcref show PATH' hint; show: its header
    no_traceback(p)
    assert p.returncode == (1 if command == "check" else 0)
    assert INJECTED not in p.stdout.split(b"\n"), p.stdout


def test_score_skip_invalid_strips_terminal_escapes(tmp_path: Path) -> None:
    # A bad Date is an error (the hand is skipped and named); a player name shows in every table.
    bad = "\x1b]0;PWNED\x07"
    text = CLASSIC.replace("Bob: 5H->E", "Bob: 5S->E", 1)
    for where, edited in (("date", text.replace("2026-11-27", bad)),
                          ("players", text.replace('"Ann, Bob, Cy"', f'"Ann, Bob, Cy{bad}"'))):
        log = tmp_path / f"{where}.log"
        log.write_text(edited, encoding="utf-8")
        for args in (["score", "--skip-invalid"], ["score", "--skip-invalid", "--by", "night"],
                     ["score", "--skip-invalid", "--by", "hand", "--chart"]):
            p = kcref(*args, log)
            no_traceback(p)
            assert p.returncode == 0, (where, args, p.stderr)
            assert ESC not in output(p), (where, args, output(p))


def test_newline_in_a_file_name_keeps_score_rows_whole(tmp_path: Path) -> None:
    log = tmp_path / "first\nsecond.log"
    log.write_text(CLASSIC, encoding="utf-8")
    p = kcref("score", "--by", "night", "--format", "plain", log)
    no_traceback(p)
    assert p.returncode == 0
    assert not any(line.startswith(b"second") for line in p.stdout.split(b"\n")), p.stdout
    rows = [line for line in p.stdout.split(b"\n") if b"first" in line]
    assert len(rows) == 1, p.stdout


JUNIT_BAD = "a\x01b\x1b\uffffc"
JUNIT_EDITS: dict[str, Callable[[str], str]] = {
    "tag": lambda t: t.replace("2026-11-27", JUNIT_BAD),
    "players": lambda t: t.replace('[Players "Ann, Bob"]', f'[Players "Ann, Bob, {JUNIT_BAD}"]'),
    "player-position": lambda t: t.replace("Ann: JH->S", JUNIT_BAD + ": JH->S", 1),
    "dealer": lambda t: t.replace("hand 1 dealer Bob", "hand 1 dealer " + JUNIT_BAD, 1),
    # Comments never reach a message today: this one guards that they still do not break the XML.
    "comment": lambda t: t.replace("Ann: JH->S;", "Ann: JH->S; # " + JUNIT_BAD + "\nAnn: ", 1),
}


@pytest.mark.parametrize("where", JUNIT_EDITS)
def test_junit_with_control_characters_parses(tmp_path: Path, where: str) -> None:
    text = SHORT.replace("Ann: JH->N", "Ann: JH->S", 1)  # an error, so the output carries messages
    text = JUNIT_EDITS[where](text)
    log = tmp_path / "ctl.log"
    log.write_text(text, encoding="utf-8")
    p = kcref("check", "--format", "junit", log)
    no_traceback(p)
    ET.fromstring(p.stdout)


def test_json_has_no_raw_c1_controls(tmp_path: Path) -> None:
    log = tmp_path / "c1.log"
    log.write_text(SHORT.replace("Ann: JH->N", "Ann: \x7f\x9b2J->N", 1), encoding="utf-8")
    p = kcref("check", "--format", "json", log)
    no_traceback(p)
    assert p.returncode == 1
    assert diagnostics(p)
    assert not re.search("[\x7f-\x9f]", p.stdout.decode()), p.stdout


# --- library hygiene ------------------------------------------------------------------------------


def test_import_keeps_pyparsing_default_whitespace() -> None:
    # kcref imports its grammar lazily: using the library (check_text) is what loads it.
    code = ("import pyparsing as pp, kcref, kcref.notation.grammar, kcref.notation.reader; kcref.check_text('hand 1\\nAnn: draw\\n'); "
            "assert pp.ParserElement.DEFAULT_WHITE_CHARS == ' \\n\\t\\r', repr(pp.ParserElement.DEFAULT_WHITE_CHARS); "
            "g = pp.Word(pp.alphas) + pp.Word(pp.nums); print(g.parse_string('abc\\n  42').as_list())")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=TIMEOUT,
                       env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert p.returncode == 0, p.stderr
    assert p.stdout.strip() == "['abc', '42']"


# --- command-line edges --------------------------------------------------------------------------


def test_show_line_past_the_end(tmp_path: Path) -> None:
    log = tmp_path / "short.log"
    log.write_text(SHORT, encoding="utf-8")
    p = kcref("show", log, "--line", "9999")
    no_traceback(p)
    assert p.returncode == 2
    assert b"9999" in p.stderr


def test_show_reads_stdin() -> None:
    p = kcref("show", "-", input=SHORT.encode())
    no_traceback(p)
    assert p.returncode == 0
    assert b"hand 2" in p.stdout


@pytest.mark.parametrize("command", ["check", "score", "fmt"])
def test_stdin_given_twice(command: str) -> None:
    p = kcref(command, "-", "-", input=SHORT.encode())
    no_traceback(p)
    assert p.returncode == 2
    assert b"-" in p.stderr and b"Traceback" not in p.stderr


def test_score_a_folder(tmp_path: Path) -> None:
    (tmp_path / "a.log").write_text(CLASSIC, encoding="utf-8")
    (tmp_path / "b.log").write_text(SHORT, encoding="utf-8")
    p = kcref("score", tmp_path)
    no_traceback(p)
    assert p.returncode == 0
    assert b"2 files, 6 hands" in p.stdout


def test_fmt_a_folder(tmp_path: Path) -> None:
    (tmp_path / "a.log").write_text(UNCANONICAL, encoding="utf-8")
    (tmp_path / "b.log").write_text(CANONICAL, encoding="utf-8")
    p = kcref("fmt", "--check", tmp_path)
    no_traceback(p)
    assert p.returncode == 1
    assert b"a.log" in p.stderr and b"b.log" not in p.stderr


def test_fmt_write_through_a_symlink(tmp_path: Path) -> None:
    target = tmp_path / "real.log"
    target.write_text(UNCANONICAL, encoding="utf-8")
    link = tmp_path / "link.log"
    link.symlink_to(target)
    p = kcref("fmt", "--write", link)
    no_traceback(p)
    assert p.returncode == 0
    assert link.is_symlink() and link.resolve() == target.resolve()
    assert target.read_text(encoding="utf-8") == CANONICAL


def test_fmt_write_refuses_a_read_only_file(tmp_path: Path) -> None:
    log = tmp_path / "ro.log"
    log.write_text(UNCANONICAL, encoding="utf-8")
    log.chmod(0o444)
    p = kcref("fmt", "--write", log)
    no_traceback(p)
    assert p.returncode == 2
    assert log.read_text(encoding="utf-8") == UNCANONICAL
    assert stat.S_IMODE(log.stat().st_mode) == 0o444


# --- partial replay ------------------------------------------------------------------------------


def test_partial_replay_up_to_a_syntax_error(tmp_path: Path) -> None:
    text = CLASSIC.replace("Bob: 5H->E; draw 7S", "Bob: 5S->E; draw 7S", 1)
    text = text.replace("Bob: 5S->W; draw 3H", "Bob: 5S->W; drow 3H", 1)
    lines = text.split("\n")
    illegal = lines.index("Bob: 5S->E; draw 7S") + 1
    drow = lines.index("Bob: 5S->W; drow 3H") + 1
    log = tmp_path / "partial.log"
    log.write_text(text, encoding="utf-8")
    p = kcref("check", "--format", "json", log)
    no_traceback(p)
    assert p.returncode == 1
    found = diagnostics(p)
    assert any(d["line"] == illegal and d["code"] == "KC301" for d in found), found
    assert any(d["line"] == drow and d["code"] == "KC104" for d in found), found
    notes = [d for d in found if d["severity"] == "info"
             and (d["line"] == drow or f"line {drow}" in str(d["message"]))]
    assert notes, found
