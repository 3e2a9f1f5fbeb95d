"""``kcref record`` without a terminal: lines from standard input, judged as at the table."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import kcref
from kcref.files.logfile import LogFile
from tests.util import ROOT

SAMPLES = sorted((ROOT / "samples").glob("*.log"))
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}
for _name in ("GITHUB_ACTIONS", "NO_COLOR"):
    ENV.pop(_name, None)


def kcref_run(*args: str, stdin: bytes = b"", cwd: Path | None = None) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-m", "kcref", *args], input=stdin, capture_output=True, env=ENV,
                          cwd=cwd, timeout=60)


def _verdicts(path: Path) -> list[tuple[object, ...]]:
    report = kcref.check_file(str(path))
    return [(v.winner, v.blocked, v.valid, v.cards_left, v.points, v.stacks_end, v.pot,
             [(d.line, d.column, d.code, d.message) for d in v.diagnostics]) for v in report.hands]


@pytest.mark.parametrize("sample", SAMPLES, ids=lambda p: p.name)
def test_a_sample_fed_to_record_gives_back_the_same_log(sample: Path, tmp_path: Path) -> None:
    new = tmp_path / "new.log"
    done = kcref_run("record", str(new), stdin=sample.read_bytes())
    assert done.returncode == 0, done.stderr
    assert done.stderr == b""
    assert kcref_run("fmt", str(new)).stdout == kcref_run("fmt", str(sample)).stdout
    assert kcref_run("fmt", "--check", str(new)).returncode == 0
    assert _verdicts(new) == _verdicts(sample)


def test_an_illegal_line_is_reported_at_its_input_line_and_the_others_written(tmp_path: Path) -> None:
    sample = ROOT / "samples" / "short-classic.log"
    lines = sample.read_text(encoding="utf-8").splitlines()
    lines.insert(3, '[Date "27/11/2026"]')  # not a date written YYYY-MM-DD
    wrong = tmp_path / "wrong.log"
    wrong.write_text("\n".join(lines) + "\n", encoding="utf-8")
    first = next(d for d in kcref.check_file(str(wrong)).diagnostics if d.is_error)
    new = tmp_path / "new.log"
    done = kcref_run("record", str(new), stdin=wrong.read_bytes())
    assert done.returncode == 1
    assert done.stderr.decode().splitlines()[0] == f"<stdin>:4:{first.column}: error {first.code} {first.message}"
    assert first.line == 4
    assert new.read_bytes() == kcref_run("fmt", str(sample)).stdout


def test_an_illegal_turn_has_check_s_diagnostic_at_its_input_line(tmp_path: Path) -> None:
    lines = (ROOT / "samples" / "short-classic.log").read_text(encoding="utf-8").splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("Bob:"))
    lines[at] = "Bob: 9S->N; draw"
    wrong = tmp_path / "wrong.log"
    wrong.write_text("\n".join(lines) + "\n", encoding="utf-8")
    first = next(d for d in kcref.check_file(str(wrong)).diagnostics if d.is_error)
    assert first.line == at + 1
    new = tmp_path / "new.log"
    done = kcref_run("record", str(new), stdin=wrong.read_bytes())
    assert done.returncode == 1
    assert done.stderr.decode().splitlines()[0] == f"<stdin>:{at + 1}:{first.column}: error {first.code} {first.message}"
    written = new.read_text(encoding="utf-8").splitlines()
    canonical = kcref_run("fmt", str(wrong)).stdout.decode().splitlines()
    assert written[:at] == canonical[:at] and "Bob: 9S->N; draw" not in written
    assert kcref_run("check", str(new)).returncode == 0
    assert kcref_run("fmt", "--check", str(new)).returncode == 0


def test_tags_given_start_a_new_log_and_a_resumed_log_goes_on(tmp_path: Path) -> None:
    log = tmp_path / "night.log"
    done = kcref_run("record", str(log), "--players", "Ann, Bob", "--rules", "commercial", "--option", "Target=50",
                     stdin=b"hand 1\nlayout N:5D E:JS S:KH W:2C\nAnn: draw\n")
    assert done.returncode == 0, done.stderr
    assert log.read_text(encoding="utf-8") == ('[Players "Ann, Bob"]\n[Rules "commercial"]\n[Target "50"]\n'
                                               "hand 1\nlayout N:5D E:JS S:KH W:2C\nAnn: draw\n")
    done = kcref_run("record", str(log), "--players", "Ann, Bob", stdin=b"Ann: draw\ndraw\n")
    assert done.returncode == 1  # the tags in force are not written again; Bob is to play, not Ann
    assert done.stderr.decode().startswith("<stdin>:1:1: error KC310 it is Bob's turn, not Ann's")
    assert log.read_text(encoding="utf-8").endswith("Ann: draw\nBob: draw\n")


def test_a_refused_tag_stops_before_anything_is_recorded(tmp_path: Path) -> None:
    log = tmp_path / "night.log"
    done = kcref_run("record", str(log), "--rules", "comercial", stdin=b"hand 1\n")
    assert done.returncode == 2
    assert b"KC206" in done.stderr and b"did you mean 'commercial'?" in done.stderr
    assert not log.exists()  # the empty file made for the recording is removed


def test_a_log_with_errors_or_not_canonical_is_not_resumed(tmp_path: Path) -> None:
    log = tmp_path / "bad.log"
    log.write_bytes((ROOT / "samples" / "invalid" / "illegal-plays.log").read_bytes())
    done = kcref_run("record", str(log), stdin=b"")
    assert done.returncode == 2
    assert b"error KC301" in done.stderr and b"run 'kcref check' on it" in done.stderr
    log.write_text('[Players "Ann, Bob"]\n\n\nhand 1\nlayout N:5D E:JS S:KH W:2C\n', encoding="utf-8")
    done = kcref_run("record", str(log), stdin=b"")
    assert done.returncode == 2 and b"kcref fmt --write" in done.stderr
    log.write_text('[Players "Ann, Bob"]\nhand 1\n', encoding="utf-8")
    done = kcref_run("record", str(log), stdin=b"")
    assert done.returncode == 2 and b"ends with a hand that has no layout" in done.stderr


def test_a_log_with_crlf_line_ends_is_not_canonical_and_not_resumed(tmp_path: Path) -> None:
    """``kcref fmt --check`` finds CRLF line ends not canonical, so ``record`` must not resume
    such a log: it would append LF lines to it, and ``undo`` would then take the log for one
    another program had changed."""
    log = tmp_path / "crlf.log"
    text = kcref_run("fmt", str(ROOT / "samples" / "short-classic.log")).stdout.replace(b"\n", b"\r\n")
    log.write_bytes(text)
    assert kcref_run("fmt", "--check", str(log)).returncode == 1
    done = kcref_run("record", str(log), stdin=b"undo\n")
    assert done.returncode == 2 and b"kcref fmt --write" in done.stderr
    assert b"changed under the recorder" not in done.stderr
    assert log.read_bytes() == text


def test_a_hand_s_set_up_is_written_with_its_layout(tmp_path: Path) -> None:
    log = tmp_path / "night.log"
    done = kcref_run("record", str(log), "--players", "Ann, Bob", stdin=b"hand 1\ndeal Ann: 3H 7C QS 2D 9H 4S 5C\n")
    assert done.returncode == 1
    assert b"error KC215 this hand has no layout" in done.stderr
    assert b"not written, as the hand has no layout: the last 2 lines accepted" in done.stderr
    assert log.read_text(encoding="utf-8") == '[Players "Ann, Bob"]\n'
    assert kcref_run("check", str(log)).returncode == 0
    done = kcref_run("record", str(log), stdin=b"hand 1\ndeal Ann: 3H 7C QS 2D 9H 4S 5C\nlayout N:5D E:JS S:KH W:2C\n")
    assert done.returncode == 0
    assert log.read_text(encoding="utf-8").endswith("hand 1\ndeal Ann: 3H 7C QS 2D 9H 4S 5C\nlayout N:5D E:JS S:KH W:2C\n")


def test_a_second_recording_of_the_same_log_is_refused(tmp_path: Path) -> None:
    log = tmp_path / "night.log"
    log.write_bytes(b'[Players "Ann, Bob"]\n')
    with LogFile(str(log)):
        done = kcref_run("record", str(log), stdin=b"hand 1\n")
    assert done.returncode == 2
    assert b"is being recorded by another kcref record" in done.stderr
    assert log.read_bytes() == b'[Players "Ann, Bob"]\n'
    again = kcref_run("record", str(log), stdin=b"hand 1\nlayout N:5D E:JS S:KH W:2C\n")
    assert again.returncode == 0  # the lock goes with its holder


def test_undo_in_the_input_takes_the_line_back_from_the_file(tmp_path: Path) -> None:
    log = tmp_path / "night.log"
    done = kcref_run("record", str(log), "--players", "Ann, Bob",
                     stdin=b"hand 1\nlayout N:5D E:JS S:KH W:2C\nAnn: draw\nundo\n\nundo\n# a note\n")
    assert done.returncode == 0, done.stderr
    assert log.read_text(encoding="utf-8") == '[Players "Ann, Bob"]\nhand 1\nlayout N:5D E:JS S:KH W:2C\n# a note\n'


def test_a_line_that_is_not_utf8_is_refused(tmp_path: Path) -> None:
    log = tmp_path / "night.log"
    done = kcref_run("record", str(log), "--players", "Ann, Bob", stdin=b"hand 1\n# caf\xe9\n")
    assert done.returncode == 1
    assert done.stderr.decode().startswith("<stdin>:2:1: error KC002")


def test_hostile_text_is_escaped_in_what_record_prints(tmp_path: Path) -> None:
    log = tmp_path / "night.log"
    done = kcref_run("record", str(log), "--players", "Ann, B\x1b[31mob", stdin=b"")
    assert done.returncode == 2
    assert b"\x1b" not in done.stderr and "\ufffd".encode() in done.stderr
    done = kcref_run("record", str(log), "--players", "Ann, Bob",
                     stdin=b"hand 1\nlayout N:5D E:JS S:KH W:2C # \x1b]0;owned\x07\nAnn: 5H->\x1b[2J\n")
    assert done.returncode == 1
    assert b"\x1b" not in done.stderr and b"\x07" not in done.stderr
    # a comment is the log's own text: it is written as typed (kcref check escapes it when it shows it)
    assert "\x1b]0;owned\x07" in log.read_text(encoding="utf-8")


def test_kill_9_at_any_moment_leaves_a_log_that_checks_and_resumes(tmp_path: Path) -> None:
    lines = kcref_run("fmt", str(ROOT / "samples" / "commercial-night.log")).stdout.splitlines(keepends=True)
    rng = random.Random(12)
    for attempt in range(3):
        log = tmp_path / f"night{attempt}.log"
        proc = subprocess.Popen([sys.executable, "-m", "kcref", "record", str(log)], stdin=subprocess.PIPE,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=ENV)
        assert proc.stdin is not None
        deadline = time.monotonic() + 20
        while not log.exists() and time.monotonic() < deadline:  # the recording has started
            time.sleep(0.01)
        cut = rng.randrange(5, len(lines))
        for line in lines[:cut]:
            proc.stdin.write(line)
            proc.stdin.flush()
        time.sleep(rng.uniform(0.0, 0.05))
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
        checked = kcref_run("check", str(log))
        assert checked.returncode == 0, checked.stdout
        assert kcref_run("fmt", "--check", str(log)).returncode == 0
        text = log.read_bytes()
        assert b"".join(lines).startswith(text)  # every line written whole, in order
        # resuming goes on where the log stands: the rest of the sample, from the first line not written
        written = len(text.splitlines())
        resumed = kcref_run("record", str(log), stdin=b"".join(lines[written:]))
        assert resumed.returncode == 0, resumed.stderr
        assert _verdicts(log) == _verdicts(ROOT / "samples" / "commercial-night.log")


def test_check_does_not_import_prompt_toolkit_and_batch_record_neither(tmp_path: Path) -> None:
    from tests.test_start_up import _loaded

    assert not any(m.startswith("prompt_toolkit") for m in _loaded("check", "samples/short-classic.log"))
    code = ("import sys\nfrom kcref.cli import main\n"
            f"try:\n    main(['record', {str(tmp_path / 'x.log')!r}, '--players', 'Ann, Bob'], prog_name='kcref')\n"
            "except SystemExit:\n    pass\nprint(' '.join(sorted(sys.modules)), file=sys.stderr)")
    done = subprocess.run([sys.executable, "-c", code], input=b"hand 1\n", capture_output=True, cwd=ROOT, env=ENV)
    loaded = set(done.stderr.decode().split())
    assert "kcref.apps.record.session" in loaded
    assert not any(m.startswith("prompt_toolkit") for m in loaded)


def test_a_log_that_cannot_be_written_is_a_usage_error(tmp_path: Path) -> None:
    assert kcref_run("record", "-", stdin=b"").returncode == 2
    folder = tmp_path / "folder"
    folder.mkdir()
    assert kcref_run("record", str(folder), stdin=b"").returncode == 2
    locked = tmp_path / "read-only.log"
    locked.write_text('[Players "Ann, Bob"]\n', encoding="utf-8")
    locked.chmod(0o444)
    done = kcref_run("record", str(locked), stdin=b"hand 1\n")
    if os.geteuid() != 0:  # root writes anyway
        assert done.returncode == 2 and b"cannot open" in done.stderr
