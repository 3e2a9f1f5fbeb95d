"""``kcref record`` never tears a line nor loses one: a full disk, another program writing the
log, a value that cannot be a tag, a system without ``fcntl``."""

from __future__ import annotations

import os
import resource
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.test_record_cli import ENV, kcref_run
from tests.util import ROOT

LIMIT = 1024
"""The file size limit of the full-disk test, in bytes."""


def _canonical(sample: str) -> bytes:
    return kcref_run("fmt", str(ROOT / "samples" / sample)).stdout


def _size_limited() -> None:
    resource.setrlimit(resource.RLIMIT_FSIZE, (LIMIT, LIMIT))


@pytest.mark.skipif(not hasattr(resource, "RLIMIT_FSIZE"), reason="no file size limit here")
def test_a_full_disk_cuts_the_log_back_to_its_last_whole_line(tmp_path: Path) -> None:
    lines = _canonical("commercial-night.log")
    assert len(lines) > LIMIT
    log = tmp_path / "night.log"
    env = {**ENV, "PYTHONDONTWRITEBYTECODE": "1"}
    # Python ignores SIGXFSZ: over the limit, a write fails with EFBIG (after writing what fits)
    done = subprocess.run([sys.executable, "-m", "kcref", "record", str(log)], input=lines, capture_output=True,
                          env=env, timeout=60, preexec_fn=_size_limited)
    assert done.returncode == 2, done.stderr
    said = done.stderr.decode()
    assert f"kcref record: cannot write {log}: File too large: the line is not written (the file is cut back to " \
           f"its last whole line); stopping." in said
    text = log.read_bytes()
    assert text.endswith(b"\n") and lines.startswith(text) and len(text) <= LIMIT
    written = text.decode().splitlines()
    assert f"The last line written is line {len(written)}: {written[-1]}." in said
    assert said.split("Not written (type it again once the log is sorted out):\n")[1].splitlines()[-1].strip() in \
        lines.decode().splitlines()
    assert kcref_run("check", str(log)).returncode == 0
    assert kcref_run("fmt", "--check", str(log)).returncode == 0
    resumed = kcref_run("record", str(log), stdin=lines[len(text):])
    assert resumed.returncode == 0, resumed.stderr
    assert log.read_bytes() == lines


def _recording(log: Path, lines: list[bytes]) -> subprocess.Popen[bytes]:
    """``kcref record LOG`` fed ``lines``, once they are all in the log."""
    proc = subprocess.Popen([sys.executable, "-m", "kcref", "record", str(log)], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=ENV)
    assert proc.stdin is not None
    proc.stdin.write(b"".join(lines))
    proc.stdin.flush()
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and (not log.exists() or log.read_bytes() != b"".join(lines)):
        time.sleep(0.02)
    assert log.read_bytes() == b"".join(lines)
    return proc


def _finish(proc: subprocess.Popen[bytes], more: bytes) -> tuple[int, str]:
    try:
        _, err = proc.communicate(more, timeout=60)
    finally:
        if proc.poll() is None:
            os.kill(proc.pid, signal.SIGKILL)
            proc.wait()
    return proc.returncode, err.decode()


LINES = _canonical("commercial-night.log").splitlines(keepends=True)
FIRST = 14  # the first hand, laid out, and Dora's first turn


def test_a_log_replaced_while_it_is_recorded_stops_the_recording_with_nothing_lost(tmp_path: Path) -> None:
    log = tmp_path / "night.log"
    proc = _recording(log, LINES[:FIRST])
    other = tmp_path / "new.log"
    other.write_bytes(log.read_bytes())
    os.replace(other, log)  # as kcref fmt --write or an editor saves a file
    status, said = _finish(proc, b"".join(LINES[FIRST:FIRST + 3]))
    assert status == 2
    assert said.startswith(f"kcref record: {log} changed under the recorder (another program wrote it: another file "
                           f"was put in its place): stopping, nothing more is written; nothing of this session is "
                           f"lost: the last line written was line {FIRST}: {LINES[FIRST - 1].decode().strip()}.\n")
    assert f"Not written (type it again once the log is sorted out):\n    {LINES[FIRST].decode()}" in said
    assert log.read_bytes() == b"".join(LINES[:FIRST])


@pytest.mark.parametrize("comment", ["", " # a\u2028b", " # a\x85b", " # a\x0cb"], ids=repr)
def test_a_log_rewritten_while_it_is_recorded_shows_the_lines_it_no_longer_holds(tmp_path: Path, comment: str) -> None:
    """A comment may hold a character Python alone takes for a line end (U+2028, NEL, a form
    feed): the lines are counted as a log's are, at LF, CRLF or CR."""
    log = tmp_path / "night.log"
    first = LINES[0].rstrip(b"\n") + comment.encode("utf-8") + b"\n"
    proc = _recording(log, [first, *LINES[1:FIRST]])
    other = tmp_path / "new.log"
    other.write_bytes(b"".join([first, *LINES[1:FIRST - 2]]))
    os.replace(other, log)
    status, said = _finish(proc, LINES[FIRST])
    assert status == 2
    lost = "".join(f"    {line.decode()}" for line in LINES[FIRST - 2:FIRST])
    assert f"What is at {log} now lacks these lines this session wrote:\n{lost}" in said


def test_a_line_appended_by_another_program_stops_undo_from_cutting_the_log(tmp_path: Path) -> None:
    log = tmp_path / "night.log"
    proc = _recording(log, LINES[:FIRST])
    with open(log, "ab") as f:
        f.write(b"# a note from elsewhere\n")  # echo ... >> night.log
    status, said = _finish(proc, b"undo\n")
    assert status == 2
    assert said.startswith(f"kcref record: {log} changed under the recorder (another program wrote it: 24 bytes "
                           f"were added): stopping, the last line is not taken back; nothing of this session is "
                           f"lost: the last line written was line {FIRST}")
    assert log.read_bytes() == b"".join(LINES[:FIRST]) + b"# a note from elsewhere\n"  # nothing cut


@pytest.mark.parametrize(("option", "value"), [("--players", "Ann\n, Bob"), ("--rules", "classic\r"),
                                               ("--option", "Target=5\n0")])
def test_a_tag_value_with_a_line_end_is_a_usage_error(tmp_path: Path, option: str, value: str) -> None:
    log = tmp_path / "night.log"
    done = kcref_run("record", str(log), option, value)
    assert done.returncode == 2
    assert b"Traceback" not in done.stderr
    assert f"Invalid value for '{option}': the ".encode() in done.stderr
    assert b"tag is one line of the log: its value holds a line end" in done.stderr
    assert not log.exists()


def test_record_works_without_fcntl_and_still_locks_the_log(tmp_path: Path) -> None:
    log = tmp_path / "night.log"
    code = f"""
import sys
sys.modules["fcntl"] = None
from kcref.files import logfile
from kcref.files.lock import Locked
first = logfile.LogFile({str(log)!r})
try:
    logfile.LogFile({str(log)!r})
except Locked:
    print("locked")
first.close()
from kcref.cli import main
main(["record", {str(log)!r}, "--players", "Ann, Bob"], prog_name="kcref")
"""
    done = subprocess.run([sys.executable, "-c", code], input=b"hand 1\nlayout N:5D E:JS S:KH W:2C\nAnn: draw\n",
                          capture_output=True, env=ENV, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout == b"locked\n"
    assert log.read_text(encoding="utf-8") == '[Players "Ann, Bob"]\nhand 1\nlayout N:5D E:JS S:KH W:2C\nAnn: draw\n'
    assert not (tmp_path / "night.log.lock").exists()  # released
    # a lock file left by a recorder that was killed names a process that is gone: taken over
    gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, check=True)
    (tmp_path / "night.log.lock").write_bytes(gone.stdout)
    again = subprocess.run([sys.executable, "-c", code.replace("first.close()\n", "first.close()\nprint('ok')\n")
                            .replace('print("locked")', "pass")], input=b"Bob: draw\n", capture_output=True, env=ENV,
                           timeout=60)
    assert again.returncode == 0, again.stderr
    assert log.read_text(encoding="utf-8").endswith("Ann: draw\nBob: draw\n")
