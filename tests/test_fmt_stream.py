"""`kcref fmt` streams in flat memory, and `--write` keeps what it does not own: links, modes,
owners, read-only files, and no temp file left behind by a signal."""

from __future__ import annotations

import os
import signal
import stat
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from kcref.cli import main
from kcref.files.atomic import STALE_AGE, clean_stale
from kcref.model.events import Turn
from kcref.notation import formatter as fmt_module
from kcref.notation.formatter import (
    CHUNK,
    Mode,
    Outcome,
    format_file,
)
from kcref.notation.reader import read_text
from tests.util import ROOT

GOOD = ROOT / "samples" / "classic-night.log"
CANON = GOOD.read_text(encoding="utf-8")
MESSY = CANON.replace("->", " -> ")
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}


def run(*args: str, input: bytes | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args), input=input)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.stdout, result.stderr


def temps(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.startswith(".kcref-"))


def _log(folder: Path, text: str = MESSY, name: str = "night.log") -> Path:
    f = folder / name
    f.write_text(text, encoding="utf-8")
    return f


# --- streaming --------------------------------------------------------------------------------------


def test_canonical_text_comes_out_as_the_events_go_in() -> None:
    consumed = 0

    def turns() -> Iterator[Turn]:
        nonlocal consumed
        turn = next(e for e in read_text("Ann: 4S->N; draw\n") if isinstance(e, Turn))
        for i in range(1, 200_001):
            consumed = i
            yield turn

    chunks = fmt_module._Run(on_error=lambda d: None).chunks(turns(), fmt_module.DEFAULT_SPELLING)
    first = next(chunks)
    assert first.startswith(b"Ann: 4S->N; draw\n") and len(first) >= CHUNK
    assert consumed < 10_000  # not the 200,000 events: the first chunk left long before the end


def test_memory_stays_flat(tmp_path: Path) -> None:
    """The same work on a 3 KB log and on a 1 MB one: the peak memory barely moves (reading
    whole files used 15-30 times the file size)."""
    if not Path("/proc/self/status").exists():
        pytest.skip("needs /proc/self/status (Linux)")
    # VmHWM, the peak resident memory of this process image (ru_maxrss keeps the parent's across exec).
    script = (
        "import re, sys\n"
        "from kcref.notation.formatter import Mode, format_file\n"
        "path, copy = sys.argv[1:]\n"
        "with open('/dev/null', 'wb') as out:\n"
        "    assert format_file(path, Mode.PRINT, on_error=print, out=out).value == 'printed'\n"
        "with open(path, 'rb') as stdin:\n"
        "    assert format_file('-', Mode.CHECK, on_error=print, stdin=stdin).value == 'changed'\n"
        "assert format_file(copy, Mode.WRITE, on_error=print).value == 'changed'\n"
        "print(re.search(r'VmHWM:\\s*(\\d+)', open('/proc/self/status').read())[1])\n"
    )
    peaks = []
    for copies in (1, 1_000_000 // len(MESSY)):
        a, b = _log(tmp_path, MESSY * copies, "a.log"), _log(tmp_path, MESSY * copies, "b.log")
        result = subprocess.run([sys.executable, "-c", script, str(a), str(b)], capture_output=True, text=True,
                                env=ENV, timeout=120)
        assert result.returncode == 0, result.stderr
        peaks.append(int(result.stdout.split()[-1]))  # KiB
        assert b.read_text(encoding="utf-8") == CANON * copies
    assert peaks[1] - peaks[0] < 2 * 1024, peaks


def test_nothing_is_printed_from_a_file_with_errors(tmp_path: Path) -> None:
    f = _log(tmp_path, MESSY * 40 + "Ann: drwa\n")
    code, out, err = run("fmt", str(f))
    assert code == 1 and out == ""
    assert err.startswith(f"{f}:{MESSY.count(chr(10)) * 40 + 1}:6: error KC104")
    code, out, _ = run("fmt", str(f), str(_log(tmp_path, MESSY, "ok.log")))
    assert code == 1 and out == CANON


def test_check_standard_input() -> None:
    assert run("fmt", "--check", "-", input=CANON.encode()) == (0, "", "")
    assert run("fmt", "--check", "-", input=MESSY.encode()) == (1, "", "would reformat <stdin>\n")
    assert run("fmt", "--check", "-", input=CANON.encode() + b"\n\n") == (1, "", "would reformat <stdin>\n")
    assert run("fmt", "-", input=b"\xef\xbb\xbf" + CANON.encode())[1] == CANON
    code, _out, err = run("fmt", "--check", "-", input=b"hand 1\x00\n")
    assert code == 2 and "KC003" in err


def test_check_compares_the_whole_file(tmp_path: Path) -> None:
    assert run("fmt", "--check", str(_log(tmp_path, CANON)))[0] == 0
    assert run("fmt", "--check", str(_log(tmp_path, CANON + "\n")))[0] == 1
    assert run("fmt", "--check", str(_log(tmp_path, CANON[:-1])))[0] == 1
    assert run("fmt", "--check", str(_log(tmp_path, CANON * 30 + "#x\n")))[0] == 0


# --- --write ----------------------------------------------------------------------------------------


def test_write_goes_through_a_symbolic_link(tmp_path: Path) -> None:
    (tmp_path / "real").mkdir()
    target = _log(tmp_path / "real")
    link = tmp_path / "night.log"
    link.symlink_to(target)
    code, _, err = run("fmt", "--write", str(link))
    assert code == 0 and err == f"reformatted {link}\n"
    assert link.is_symlink() and os.readlink(link) == str(target)
    assert target.read_text(encoding="utf-8") == CANON
    assert temps(tmp_path) == [] and temps(target.parent) == []


def test_write_through_a_link_found_in_a_folder(tmp_path: Path) -> None:
    (tmp_path / "kept").mkdir()
    target = _log(tmp_path / "kept")
    (tmp_path / "nights").mkdir()
    (tmp_path / "nights" / "night.log").symlink_to(target)
    assert run("fmt", "--write", str(tmp_path / "nights"))[0] == 0
    assert (tmp_path / "nights" / "night.log").is_symlink() and target.read_text(encoding="utf-8") == CANON


def test_play_writes_through_a_link_too(tmp_path: Path) -> None:
    target = _log(tmp_path, "old\n", "target.log")
    link = tmp_path / "night.log"
    link.symlink_to(target)
    assert run("play", "-o", str(link))[0] == 0
    assert link.is_symlink() and target.read_text(encoding="utf-8").startswith("[")


def test_write_refuses_a_read_only_file(tmp_path: Path) -> None:
    f = _log(tmp_path)
    f.chmod(0o444)
    code, _, err = run("fmt", "--write", str(f))
    assert code == 2
    assert err == f"{f}: cannot write: it is read-only (mode -r--r--r--); the file is unchanged\n"
    assert f.read_text(encoding="utf-8") == MESSY and temps(tmp_path) == []
    canonical = _log(tmp_path, CANON, "canon.log")
    canonical.chmod(0o444)
    assert run("fmt", "--write", str(canonical)) == (0, "", "")  # nothing to write: nothing refused
    assert run("play", "-o", str(f)) == (2, "", f"kcref play: cannot write {f}: it is read-only (mode -r--r--r--)\n")
    assert f.read_text(encoding="utf-8") == MESSY


def test_write_refuses_what_is_not_a_regular_file(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.log"
    os.mkfifo(fifo)
    code, _, err = run("fmt", "--write", str(fifo))  # refused before opening it: it would block
    assert code == 2 and err == f"{fifo}: cannot write: it is a FIFO (named pipe), not a regular file; the file is unchanged\n"
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)


def test_write_keeps_mode_and_owner_and_leaves_canonical_files_alone(tmp_path: Path) -> None:
    f = _log(tmp_path)
    f.chmod(0o640)
    if os.geteuid() == 0:
        os.chown(f, 1234, 2345)
    assert run("fmt", "--write", str(f))[0] == 0
    st = os.stat(f)
    assert stat.S_IMODE(st.st_mode) == 0o640
    if os.geteuid() == 0:
        assert (st.st_uid, st.st_gid) == (1234, 2345)
    before = os.stat(f)
    assert run("fmt", "--write", str(f)) == (0, "", "")
    after = os.stat(f)
    assert (after.st_ino, after.st_mtime_ns) == (before.st_ino, before.st_mtime_ns)


def test_write_leaves_a_file_with_errors_alone(tmp_path: Path) -> None:
    text = MESSY * 50 + "Ann: drwa\n"
    f = _log(tmp_path, text)
    code, _, err = run("fmt", "--write", str(f))
    assert code == 1 and "KC104" in err and "reformatted" not in err
    assert f.read_text(encoding="utf-8") == text and temps(tmp_path) == []


def _big_messy_log(folder: Path) -> Path:
    return _log(folder, MESSY * (3_000_000 // len(MESSY)))


def _writing(folder: Path) -> tuple[Path, bytes, subprocess.Popen[bytes]]:
    """A big log in ``folder``, its bytes, and a ``fmt --write`` of it caught while it writes."""
    f = _big_messy_log(folder)
    before = f.read_bytes()
    proc = subprocess.Popen([sys.executable, "-m", "kcref", "fmt", "--write", str(f)], env=ENV,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    _wait_for_temp(folder, proc)
    return f, before, proc


def _wait_for_temp(folder: Path, proc: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 60
    while not temps(folder):
        assert proc.poll() is None, "kcref ended before its temp file was seen"
        assert time.monotonic() < deadline
        time.sleep(0.005)


def test_sigterm_removes_the_temp_file(tmp_path: Path) -> None:
    f, before, proc = _writing(tmp_path)
    proc.send_signal(signal.SIGTERM)
    proc.communicate(timeout=60)
    assert proc.returncode == 128 + signal.SIGTERM
    assert temps(tmp_path) == [] and f.read_bytes() == before


def test_a_temp_file_left_by_sigkill_is_removed_by_the_next_run(tmp_path: Path) -> None:
    f, before, proc = _writing(tmp_path)
    proc.kill()
    proc.communicate(timeout=60)
    left = temps(tmp_path)
    assert left and left[0].startswith(f".kcref-{proc.pid}-") and f.read_bytes() == before
    small = _log(tmp_path, MESSY, "small.log")
    assert run("fmt", "--write", str(small))[0] == 0
    assert temps(tmp_path) == []


def test_clean_stale(tmp_path: Path) -> None:
    gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    dead, alive = int(gone.stdout), os.getppid()
    names = {
        "dead": f".kcref-{dead}-abc123_x.tmp",
        "alive": f".kcref-{alive}-abc123_x.tmp",
        "alive-old": f".kcref-{alive}-old12345.tmp",
        "no-pid-old": ".kcref-zz9_old1.tmp",
        "no-pid-new": ".kcref-zz9_new1.tmp",
        "not-ours": ".kcref-notes.txt",
        "visible": "kcref-1-abc.tmp",
    }
    for name in names.values():
        (tmp_path / name).write_text("x", encoding="utf-8")
    (tmp_path / f".kcref-{dead}-linked.tmp").symlink_to(tmp_path / names["visible"])
    old = time.time() - STALE_AGE - 60
    for key in ("alive-old", "no-pid-old"):
        os.utime(tmp_path / names[key], (old, old))
    removed = clean_stale(str(tmp_path))
    assert sorted(Path(p).name for p in removed) == sorted([names["dead"], names["alive-old"], names["no-pid-old"]])
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        [names["alive"], names["no-pid-new"], names["not-ours"], names["visible"], f".kcref-{dead}-linked.tmp"])


def test_the_signal_handler_is_put_back(tmp_path: Path) -> None:
    before = signal.getsignal(signal.SIGTERM)
    assert format_file(str(_log(tmp_path)), Mode.WRITE, on_error=lambda d: None) is Outcome.CHANGED
    assert signal.getsignal(signal.SIGTERM) is before


@pytest.mark.parametrize("mode", [Mode.PRINT, Mode.CHECK, Mode.WRITE])
def test_unreadable_outcome(mode: Mode, tmp_path: Path) -> None:
    said = []
    assert format_file(str(tmp_path / "nope.log"), mode, on_error=said.append) is Outcome.UNREADABLE
    assert [(d.code, d.message) for d in said] == [("KC001", "cannot read: no such file")]
