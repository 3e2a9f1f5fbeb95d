"""What a command writes with ``-o`` is whole or not there: a device, a FIFO or ``/dev/stdout`` is
written straight through and never replaced; a folder, a missing folder or one that refuses a new
file is an exit 2 with nothing left behind; a failed write is never put in place; Ctrl-C is exit
130, without a traceback, a worker process, a temp file or a partial output; SIGTERM is 143."""

from __future__ import annotations

import os
import signal
import stat
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from kcref.cli import main
from tests.util import ROOT

ILLEGAL = ROOT / "samples" / "invalid" / "illegal-plays.log"
NIGHT = ROOT / "samples" / "classic-night.log"
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}

WRITERS = {
    "check": ["check", "--no-cache", str(NIGHT)],
    "report": ["report", str(NIGHT)],
    "play": ["play", "--hands", "2"],
}
"""Every command that writes a file with ``-o``, and what it writes."""


def invoke(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.stdout, result.stderr


def left_behind(folder: Path) -> list[str]:
    """The temp files of a writer (ours, or click's) in ``folder``."""
    return sorted(p.name for p in folder.iterdir() if p.name.startswith((".kcref-", ".__atomic-write")))


def expected(command: str) -> str:
    """What ``command`` writes to standard output."""
    code, out, _ = invoke(*WRITERS[command], *(["-o", "-"] if command != "play" else []))
    assert code == 0 and out
    return out


class FifoReader:
    """Reads a FIFO whole in a thread; a FIFO nobody opens for writing is unblocked at the end."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.data = b""
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        with open(self.path, "rb") as f:
            self.data = f.read()

    def finish(self, timeout: float = 30) -> str:
        self.thread.join(timeout)
        if self.thread.is_alive() and stat.S_ISFIFO(os.stat(self.path).st_mode):
            os.close(os.open(self.path, os.O_WRONLY | os.O_NONBLOCK))  # no writer came: end its wait
            self.thread.join(timeout)
        assert not self.thread.is_alive(), "the FIFO's reader never saw its end"
        return self.data.decode("utf-8")


# --- devices, FIFOs, descriptors: written straight through ------------------------------------------


@pytest.mark.parametrize("command", WRITERS)
def test_a_fifo_is_written_through_not_replaced(command: str, tmp_path: Path) -> None:
    fifo = tmp_path / "out"
    os.mkfifo(fifo)
    reader = FifoReader(fifo)
    code, _, err = invoke(*WRITERS[command], "-o", str(fifo))
    got = reader.finish()
    assert code == 0, err
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)
    assert got == expected(command)
    assert left_behind(tmp_path) == []


@pytest.mark.parametrize("command", WRITERS)
def test_a_device_is_written_through_not_replaced(command: str, tmp_path: Path) -> None:
    if os.geteuid() != 0:
        pytest.skip("making a device node needs root")
    null = tmp_path / "null"
    os.mknod(null, stat.S_IFCHR | 0o666, os.makedev(1, 3))  # our own /dev/null: never the system's
    try:
        os.close(os.open(null, os.O_WRONLY))
    except PermissionError:
        pytest.skip("this file system does not open device nodes (mounted nodev)")
    code, _, err = invoke(*WRITERS[command], "-o", str(null))
    assert code == 0, err
    st = os.stat(null)
    assert stat.S_ISCHR(st.st_mode) and st.st_rdev == os.makedev(1, 3)
    assert left_behind(tmp_path) == []


def test_a_link_to_a_fifo_is_followed(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    link = tmp_path / "out.txt"
    link.symlink_to(fifo)
    reader = FifoReader(fifo)
    code, _, _ = invoke("play", "--hands", "1", "-o", str(link))
    assert code == 0 and reader.finish().startswith("[")
    assert link.is_symlink() and stat.S_ISFIFO(os.stat(fifo).st_mode)


@pytest.mark.parametrize("command", WRITERS)
def test_dev_stdout_is_standard_output(command: str, tmp_path: Path) -> None:
    before = set(os.listdir("/dev"))
    try:
        p = subprocess.run([sys.executable, "-m", "kcref", *WRITERS[command], "-o", "/dev/stdout"],
                           capture_output=True, text=True, env=ENV, cwd=tmp_path, timeout=120)
    finally:
        for name in set(os.listdir("/dev")) - before:  # what a wrong writer leaves there (as root)
            if name.startswith((".kcref-", ".__atomic-write")):
                os.unlink(os.path.join("/dev", name))
    assert p.returncode == 0, p.stderr
    assert p.stdout == expected(command)
    assert not {n for n in set(os.listdir("/dev")) - before if n.startswith((".kcref-", ".__atomic-write"))}


def test_dev_stdout_appends_where_the_shell_redirected(tmp_path: Path) -> None:
    """``-o /dev/stdout >> FILE`` writes at the shell's own offset, as a shell's ``> /dev/stdout`` does."""
    out = tmp_path / "all.log"
    out.write_text("# kept\n", encoding="utf-8")
    with open(out, "a", encoding="utf-8") as stdout:
        p = subprocess.run([sys.executable, "-m", "kcref", *WRITERS["play"], "-o", "/dev/stdout"],
                           stdout=stdout, stderr=subprocess.PIPE, text=True, env=ENV, timeout=120)
    assert p.returncode == 0, p.stderr
    assert out.read_text(encoding="utf-8") == "# kept\n" + expected("play")


# --- what cannot be written: exit 2, nothing left --------------------------------------------------


@pytest.mark.parametrize("command", ["check", "play"])
def test_a_folder_is_refused(command: str, tmp_path: Path) -> None:
    folder = tmp_path / "out"
    folder.mkdir()
    assert invoke(*WRITERS[command], "-o", str(folder)) == (2, "", f"kcref {command}: cannot write {folder}: "
                                                                 "it is a directory\n")
    assert list(folder.iterdir()) == [] and left_behind(tmp_path) == []
    code, _, err = invoke(*WRITERS[command], "-o", str(tmp_path / "new") + os.sep)
    assert code == 2 and err.endswith(": it is a directory\n") and not (tmp_path / "new").exists()


@pytest.mark.parametrize("command", ["check", "report"])
@pytest.mark.parametrize("how", ["file", "folder", "link"])
def test_a_log_read_is_never_the_output(command: str, how: str, tmp_path: Path) -> None:
    """``-o`` naming one of the logs read (as given, found in a folder, or through a link) would
    replace the log with the results: refused, the log left as it was."""
    log = tmp_path / "night.log"
    log.write_bytes(NIGHT.read_bytes())
    target = tmp_path / "link.log" if how == "link" else log
    if how == "link":
        target.symlink_to(log.name)
    given = tmp_path if how == "folder" else log
    code, out, err = invoke(command, *(["--no-cache"] if command == "check" else []), str(given), "-o", str(target))
    assert (code, out, err) == (2, "", f"kcref {command}: cannot write {target}: it is one of the logs read\n")
    assert log.read_bytes() == NIGHT.read_bytes() and left_behind(tmp_path) == []


@pytest.mark.parametrize("command", WRITERS)
def test_a_missing_folder(command: str, tmp_path: Path) -> None:
    target = tmp_path / "no" / "such.txt"
    assert invoke(*WRITERS[command], "-o", str(target)) == (2, "", f"kcref {command}: cannot write {target}: "
                                                                 "No such file or directory\n")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("command", WRITERS)
def test_a_folder_that_refuses_new_files(command: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A read-only folder, as root sees none: its temp file cannot be made."""
    folder = tmp_path / "ro"
    folder.mkdir()
    real_open = os.open

    def refuse(path: str, flags: int, mode: int = 0o777) -> int:
        if os.path.dirname(path) == str(folder) and flags & os.O_CREAT:
            raise PermissionError(13, "Permission denied")
        return real_open(path, flags, mode)

    monkeypatch.setattr(os, "open", refuse)
    target = folder / "out.txt"
    code, out, err = invoke(*WRITERS[command], "-o", str(target))
    monkeypatch.undo()
    assert (code, out, err) == (2, "", f"kcref {command}: cannot write {target}: Permission denied\n")
    assert list(folder.iterdir()) == []


def test_a_read_only_folder(tmp_path: Path) -> None:
    """A folder the user may not write: as root, kcref runs without the capability that lets root
    write anywhere (setpriv, from util-linux, drops it), so that the folder refuses it too."""
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o555)
    target = folder / "out.txt"
    args = [sys.executable, "-m", "kcref", "check", "--no-cache", str(NIGHT), "-o", str(target)]
    if os.geteuid() == 0:
        args = ["setpriv", "--bounding-set=-dac_override,-dac_read_search", *args]
    try:
        result = subprocess.run(args, capture_output=True, text=True, timeout=60, cwd=ROOT,
                                env={**os.environ, "PYTHONPATH": str(ROOT)})
    finally:
        folder.chmod(0o755)
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr == f"kcref check: cannot write {target}: Permission denied\n"
    assert list(folder.iterdir()) == []


@pytest.mark.parametrize("command", WRITERS)
def test_a_failed_rename_leaves_the_file(command: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def cross_device(source: str, target: str) -> None:
        raise OSError(18, "Invalid cross-device link")

    target = tmp_path / "out.txt"
    target.write_text("old\n", encoding="utf-8")
    monkeypatch.setattr(os, "replace", cross_device)
    code, out, err = invoke(*WRITERS[command], "-o", str(target))
    monkeypatch.undo()
    assert (code, out, err) == (2, "", f"kcref {command}: cannot write {target}: Invalid cross-device link\n")
    assert target.read_text(encoding="utf-8") == "old\n" and left_behind(tmp_path) == []


# --- a failed write is never put in place ---------------------------------------------------------------


def _limit_file_size() -> None:
    import resource

    signal.signal(signal.SIGINT, signal.SIG_DFL)
    resource.setrlimit(resource.RLIMIT_FSIZE, (32 * 1024, 32 * 1024))


def test_file_too_large_is_an_error_and_the_file_is_kept(tmp_path: Path) -> None:
    logs = tmp_path / "logs"
    logs.mkdir()
    for i in range(200):
        (logs / f"n{i:03}.log").write_bytes(ILLEGAL.read_bytes())
    target = tmp_path / "res.json"
    target.write_text("old\n", encoding="utf-8")
    p = subprocess.run([sys.executable, "-m", "kcref", "check", "--no-cache", "--format", "json", str(logs),
                        "-o", str(target)], capture_output=True, text=True, env=ENV, cwd=tmp_path, timeout=120,
                       preexec_fn=_limit_file_size)
    assert p.returncode == 2, p.stderr
    assert p.stderr == f"kcref check: cannot write {target}: File too large\n"
    assert target.read_text(encoding="utf-8") == "old\n" and left_behind(tmp_path) == []


def test_an_error_while_checking_commits_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from kcref.apps.check import run as check_report

    def half_then_fail(inputs: object, settings: object, out: object, **kw: object) -> None:
        out.write("{\"diagnostics\": [" * 5000)  # type: ignore[attr-defined]
        raise RuntimeError("a bug")

    monkeypatch.setattr(check_report, "run_check", half_then_fail)
    target = tmp_path / "res.json"
    result = CliRunner().invoke(main, ["check", str(NIGHT), "-o", str(target)])
    assert isinstance(result.exception, RuntimeError)
    assert list(tmp_path.iterdir()) == []


# --- Ctrl-C and SIGTERM -------------------------------------------------------------------------------------


INTERRUPTED = {
    "check": ("kcref.apps.check.run", "run_check", ["check", str(NIGHT)]),
    "check -o": ("kcref.apps.check.run", "run_check", ["check", str(NIGHT), "-o", "{out}"]),
    "score": ("kcref.apps.score", "score_inputs", ["score", str(NIGHT)]),
    "show": ("kcref.apps.show", "show_input", ["show", str(NIGHT)]),
    "fmt": ("kcref.apps.fmt", "run_fmt", ["fmt", str(NIGHT)]),
    "play -o": ("kcref.engine.bots", "play_log", ["play", "-o", "{out}"]),
    "report -o": ("kcref.apps.report.page", "build_report", ["report", str(NIGHT), "-o", "{out}"]),
}


@pytest.mark.parametrize("case", INTERRUPTED)
def test_ctrl_c_is_exit_130_without_aborted(case: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib

    module, name, args = INTERRUPTED[case]

    def ctrl_c(*args: object, **kwargs: object) -> None:
        out = args[2] if len(args) > 2 else None
        if hasattr(out, "write"):
            out.write("half of it\n")  # type: ignore[union-attr]
        raise KeyboardInterrupt

    monkeypatch.setattr(importlib.import_module(module), name, ctrl_c)
    out = tmp_path / "out.txt"
    code, _, err = invoke(*(a.replace("{out}", str(out)) for a in args))
    command = args[0]
    assert (code, err) == (130, f"kcref {command}: interrupted\n")
    assert list(tmp_path.iterdir()) == []


def _take_ctrl_c() -> None:
    # Before exec: an ignored SIGINT (tests run as a background job) would stay ignored.
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _children(pid: int) -> dict[int, str]:
    """The child processes of ``pid``, each with its start time (to tell a reused id)."""
    found: dict[int, str] = {}
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return found
    for task in tasks:
        try:
            with open(f"/proc/{pid}/task/{task}/children", encoding="ascii") as f:
                for child in f.read().split():
                    found[int(child)] = _start_time(int(child))
        except OSError:
            continue
    return found


def _start_time(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/stat", encoding="utf-8", errors="replace") as f:
            return f.read().rpartition(")")[2].split()[19]
    except OSError:
        return ""


def _still_running(children: dict[int, str]) -> list[int]:
    return [pid for pid, started in children.items() if started and _start_time(pid) == started]


@pytest.fixture(scope="module")
def many_logs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Enough logs that a check with two workers runs for seconds; one in ten full of errors, so
    that the output grows all along."""
    from kcref.engine.bots import play_log

    folder = tmp_path_factory.mktemp("many")
    text = "".join(play_log(3, "classic", {}, seed=1, hands=40)).encode("utf-8")
    errors = ILLEGAL.read_bytes() * 20
    for i in range(500):
        (folder / f"n{i:03}.log").write_bytes(errors if i % 10 == 0 else text)
    return folder


def _interrupt(args: list[str], out: Path, how: Callable[[subprocess.Popen[str]], None],
               wait_for: Callable[[subprocess.Popen[str]], bool]) -> tuple[subprocess.Popen[str], str, dict[int, str]]:
    """Start ``kcref ARGS`` in its own process group, wait until ``wait_for`` it, signal it with
    ``how``; give it, its standard error and the children it had. Nothing is left running."""
    p = subprocess.Popen([sys.executable, "-m", "kcref", *args], cwd=out, env=ENV, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True, preexec_fn=_take_ctrl_c, start_new_session=True)
    children: dict[int, str] = {}
    try:
        deadline = time.monotonic() + 60
        while not wait_for(p):
            assert p.poll() is None, f"kcref ended before it was signalled: {p.communicate()}"
            assert time.monotonic() < deadline, "kcref never got going"
            time.sleep(0.01)
        children = _children(p.pid)
        how(p)
        _, err = p.communicate(timeout=60)
    finally:
        if p.poll() is None:
            os.killpg(p.pid, signal.SIGKILL)
            p.communicate()
        for pid in _still_running(children):  # a wrong run leaves its workers behind: not ours to keep
            os.kill(pid, signal.SIGKILL)
    return p, err, children


def _working(folder: Path | None = None) -> Callable[[subprocess.Popen[str]], bool]:
    """Whether kcref has its two workers (for a moment: each has set itself up) and, given a
    folder, its temp file there."""
    seen: list[float] = []

    def ready(p: subprocess.Popen[str]) -> bool:
        if (folder is not None and not left_behind(folder)) or len(_children(p.pid)) < 2:
            return False
        seen.append(time.monotonic())
        return seen[-1] - seen[0] > 0.5

    return ready


def _ctrl_c_at_the_terminal(p: subprocess.Popen[str]) -> None:
    os.killpg(p.pid, signal.SIGINT)  # as a terminal does: to every process of the job


def test_ctrl_c_with_workers(many_logs: Path, tmp_path: Path) -> None:
    target = tmp_path / "res.json"
    p, err, children = _interrupt(["check", "--no-cache", "--jobs", "2", "--format", "json", str(many_logs),
                                   "-o", str(target)], tmp_path, _ctrl_c_at_the_terminal,
                                  _working(tmp_path))
    assert len(children) >= 2
    assert p.returncode == 130, err
    assert err == "kcref check: interrupted\n"
    assert _still_running(children) == []
    assert list(tmp_path.iterdir()) == []


def test_ctrl_c_in_one_process_leaves_no_partial_output(many_logs: Path, tmp_path: Path) -> None:
    target = tmp_path / "res.json"
    target.write_text("old\n", encoding="utf-8")

    def started(p: subprocess.Popen[str]) -> bool:
        return any(os.path.getsize(tmp_path / name) > 0 for name in left_behind(tmp_path))

    p, err, _ = _interrupt(["check", "--no-cache", "--format", "json", str(many_logs), "-o", str(target)],
                           tmp_path, _ctrl_c_at_the_terminal, started)
    assert p.returncode == 130 and "Traceback" not in err, err
    assert target.read_text(encoding="utf-8") == "old\n" and left_behind(tmp_path) == []


def test_sigterm_with_workers(many_logs: Path, tmp_path: Path) -> None:
    target = tmp_path / "res.txt"
    p, err, children = _interrupt(["check", "--no-cache", "--jobs", "2", str(many_logs), "-o", str(target)],
                                  tmp_path, lambda p: p.send_signal(signal.SIGTERM), _working(tmp_path))
    assert p.returncode == 128 + signal.SIGTERM, err
    assert "Traceback" not in err, err
    assert _still_running(children) == []
    assert list(tmp_path.iterdir()) == []


def test_sigterm_with_workers_and_no_output_file(many_logs: Path, tmp_path: Path) -> None:
    """A parent that vanished would leave its workers waiting for work forever."""
    p, err, children = _interrupt(["check", "--no-cache", "--jobs", "2", str(many_logs)], tmp_path,
                                  lambda p: p.send_signal(signal.SIGTERM), _working())
    assert p.returncode in (128 + signal.SIGTERM, -signal.SIGTERM), err
    assert _still_running(children) == []


def test_fmt_into_a_pipe_whose_reader_has_gone_says_nothing(tmp_path: Path) -> None:
    """``kcref fmt LOGS | head -1`` once said 'LOG: cannot write: Broken pipe; the file is
    unchanged' and exited 2, as if a log could not be rewritten: it ends as every command does
    when its reader goes, quietly."""
    logs = []
    for i in range(40):
        log = tmp_path / f"n{i:02}.log"
        log.write_bytes(NIGHT.read_bytes())
        logs.append(str(log))
    p = subprocess.Popen([sys.executable, "-m", "kcref", "fmt", *logs], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, env=ENV)
    assert p.stdout is not None and p.stderr is not None
    p.stdout.readline()
    p.stdout.close()
    err = p.stderr.read().decode()
    assert p.wait(timeout=60) == 1 and err == ""


def _deaf_to_sigterm(started: str) -> None:
    """In a worker: miss SIGTERM, as a worker does that it reaches as it is being forked, and wait."""
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    Path(started).touch()
    time.sleep(600)


def test_stopping_a_worker_that_missed_sigterm_does_not_hang(tmp_path: Path) -> None:
    """A SIGTERM that reaches a worker as it is being forked is lost (CPython clears the signals
    pending in a new child), and ``stop_pool`` once waited for that worker for ever."""
    from concurrent.futures import ProcessPoolExecutor

    from kcref.referee import pipeline

    pool = ProcessPoolExecutor(max_workers=1)
    started = tmp_path / "started"
    pool.submit(_deaf_to_sigterm, str(started))
    deadline = time.monotonic() + 30
    while not started.exists():
        assert time.monotonic() < deadline, "the worker never started"
        time.sleep(0.01)
    worker = next(iter(pool._processes.values()))  # type: ignore[attr-defined]
    stopping = threading.Thread(target=pipeline.stop_pool, args=(pool,), daemon=True)
    stopping.start()
    stopping.join(30)
    hung = stopping.is_alive()
    if hung:  # end the worker, so that the test run can end
        worker.kill()
        stopping.join(30)
    assert not hung, "stop_pool waited for ever for a worker that missed its SIGTERM"


FULL_STDOUT = {
    "check": (["check", "--no-cache", str(ILLEGAL)], "kcref check: cannot write standard output"),
    "score": (["score", str(NIGHT)], "kcref score: cannot write standard output"),
    "show": (["show", str(NIGHT)], "kcref show: cannot write standard output"),
    "rules": (["rules"], "kcref rules: cannot write standard output"),
    "play": (["play", "--hands", "20"], "kcref play: cannot write standard output"),
    "report": (["report", str(NIGHT), "-o", "-"], "kcref report: cannot write standard output"),
    "fmt": (["fmt", str(NIGHT)], f"{NIGHT}: cannot print"),
}
"""Commands whose standard output goes to a full disk, and the start of what they say."""


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
@pytest.mark.parametrize("command", FULL_STDOUT)
def test_standard_output_on_a_full_disk(command: str) -> None:
    """Standard output put on a full disk (/dev/full) once ended most commands in a traceback
    (exit 1), and fmt said the log could not be written: each says what failed, exit 2."""
    args, said = FULL_STDOUT[command]
    with open("/dev/full", "w") as full:
        done = subprocess.run([sys.executable, "-m", "kcref", *args], stdout=full, stderr=subprocess.PIPE, text=True,
                              env=ENV, timeout=120)
    assert done.returncode == 2 and done.stderr.splitlines()[-1].startswith(said), done.stderr
    assert "Traceback" not in done.stderr and "Exception ignored" not in done.stderr


# --- the writer itself ---------------------------------------------------------------------------------


def test_a_forked_child_leaves_its_parents_temp_file_alone(tmp_path: Path) -> None:
    """A worker process forked while a temp file is open, then terminated, does not remove it."""
    from kcref.files.atomic import AtomicFile

    target = tmp_path / "out.txt"
    with AtomicFile(str(target)) as f:
        f.write(b"whole\n")
        _fork_and_terminate(lambda: None)
        assert os.path.exists(f.temp)
        f.commit()
    assert target.read_text(encoding="utf-8") == "whole\n"


def _fork_and_terminate(child_first: Callable[[], object]) -> None:
    """Fork a child that runs ``child_first`` and then sends itself SIGTERM; it must end by that signal."""
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        try:
            child_first()
            os.kill(os.getpid(), signal.SIGTERM)
            time.sleep(10)
        finally:
            os._exit(0)
    _, status = os.waitpid(pid, 0)
    assert os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGTERM


def test_a_child_signalled_before_its_after_fork_hook_ends_as_by_default(tmp_path: Path) -> None:
    """A worker forked while the guard is held runs the parent's handler until its after-fork
    hook gives SIGTERM its default action back: terminated in that moment (the parent stops the
    pool as it starts), it once removed the parent's temp file and raised SystemExit in the hook,
    where it is ignored, so it lived on and the parent waited for it for ever."""
    from kcref.files import atomic
    from kcref.files.atomic import AtomicFile

    target = tmp_path / "out.txt"
    with AtomicFile(str(target)) as f:
        f.write(b"whole\n")

        def as_before_its_hook() -> None:  # the child, put back as it stands before its hook runs
            atomic._live.add(f.temp)
            signal.signal(signal.SIGTERM, atomic._on_signal)

        _fork_and_terminate(as_before_its_hook)
        assert os.path.exists(f.temp)
        f.commit()
    assert target.read_text(encoding="utf-8") == "whole\n"


def test_a_signal_whose_exit_was_lost_in_a_hook_still_ends_the_command(tmp_path: Path) -> None:
    """Python ignores an exception raised in an at-fork hook (logging's run as the workers are
    forked): a SIGTERM handled there once let ``kcref check -o FILE`` go on with its temp file
    removed, and end with exit 2, 'cannot write FILE: No such file or directory'. The commit
    takes the exit up again: 143, the file as it was."""
    from kcref.files import atomic
    from kcref.files.atomic import AtomicFile

    target = tmp_path / "out.txt"
    target.write_text("old\n", encoding="utf-8")
    try:
        with pytest.raises(SystemExit) as ended, AtomicFile(str(target)) as f:
            f.write(b"new\n")
            if atomic._owner != os.getpid():  # pragma: no cover - the guard is held in the main thread only
                pytest.skip("the signal guard is not this thread's")
            try:
                atomic._on_signal(signal.SIGTERM, None)
            except SystemExit:
                pass  # as Python ignores it in a hook
            f.write(b"more\n")
            f.commit()
        assert ended.value.code == 128 + signal.SIGTERM
    finally:
        atomic._signalled = 0
    assert target.read_text(encoding="utf-8") == "old\n" and left_behind(tmp_path) == []


HOOKED_SIGTERM = """
import os, signal, sys
from kcref.files.atomic import AtomicFile, exit_if_signalled
with AtomicFile(sys.argv[1]) as f:
    f.write(b"new")
    os.register_at_fork(before=lambda: os.kill(os.getpid(), signal.SIGTERM))
    if os.fork() == 0:
        os._exit(0)
    os.wait()
    print("went on", flush=True)
    exit_if_signalled()
    f.commit()
"""
"""A SIGTERM whose handler runs inside an at-fork hook, where Python ignores its exit."""


@pytest.mark.skipif(not hasattr(os, "register_at_fork"), reason="needs fork")
def test_an_exit_lost_in_a_hook_is_taken_up_without_a_traceback(tmp_path: Path) -> None:
    target = tmp_path / "out.txt"
    target.write_text("old\n", encoding="utf-8")
    done = subprocess.run([sys.executable, "-c", HOOKED_SIGTERM, str(target)], capture_output=True, text=True,
                          env=ENV, timeout=60)
    assert (done.returncode, done.stdout, done.stderr) == (128 + signal.SIGTERM, "went on\n", "")
    assert target.read_text(encoding="utf-8") == "old\n" and left_behind(tmp_path) == []


def test_the_guard_leaves_an_ignored_signal_ignored(tmp_path: Path) -> None:
    from kcref.files.atomic import AtomicFile

    previous = signal.signal(signal.SIGHUP, signal.SIG_IGN)  # as under nohup
    term = signal.signal(signal.SIGTERM, signal.SIG_DFL)
    try:
        with AtomicFile(str(tmp_path / "out.txt")):
            assert signal.getsignal(signal.SIGHUP) is signal.SIG_IGN
            assert signal.getsignal(signal.SIGTERM) not in (signal.SIG_DFL, signal.SIG_IGN)
        assert signal.getsignal(signal.SIGTERM) is signal.SIG_DFL
    finally:
        signal.signal(signal.SIGHUP, previous)
        signal.signal(signal.SIGTERM, term)


def test_a_descriptor_name_writes_to_that_descriptor() -> None:
    from kcref.files.atomic import StreamFile, open_output

    read, write = os.pipe()
    try:
        with open_output(f"/dev/fd/{write}") as out:
            assert isinstance(out, StreamFile)
            out.text().write("through\n")
            out.commit()
        os.close(write)
        write = -1
        assert os.read(read, 100) == b"through\n"
    finally:
        os.close(read)
        if write >= 0:
            os.close(write)


def test_a_writer_left_uncommitted_writes_nothing(tmp_path: Path) -> None:
    from kcref.files.atomic import open_output

    target = tmp_path / "out.txt"
    with open_output(str(target)) as out:
        out.text().write("x" * 200_000)  # more than the buffer: some of it is in the temp file
    assert list(tmp_path.iterdir()) == []
    with pytest.raises(ValueError), open_output(str(target)) as out:
        out.write(b"y" * 100)
        raise ValueError
    assert list(tmp_path.iterdir()) == []


@pytest.fixture
def on_windows(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """The writer's ``os`` as on Windows, where ``os.kill(pid, 0)`` would terminate the process:
    any call of it fails (gives the ids it was called with)."""
    from kcref.files import atomic

    killed: list[int] = []

    class WindowsOs:
        name = "nt"

        def __getattr__(self, attr: str) -> object:
            return getattr(os, attr)

        @staticmethod
        def kill(pid: int, sig: int) -> None:
            killed.append(pid)
            raise AssertionError("os.kill called on Windows")

    monkeypatch.setattr(atomic, "os", WindowsOs())
    yield killed


def test_stale_temp_files_on_windows_go_by_age_only(tmp_path: Path, on_windows: list[int]) -> None:
    from kcref.files.atomic import STALE_AGE, clean_stale

    gone = 2 ** 22 + 12345  # above any pid_max: no process has it
    new, old = tmp_path / f".kcref-{gone}-new12345.tmp", tmp_path / f".kcref-{gone}-old12345.tmp"
    for f in (new, old):
        f.write_text("x", encoding="utf-8")
    past = time.time() - STALE_AGE - 60
    os.utime(old, (past, past))
    removed = clean_stale(str(tmp_path))
    assert [Path(p).name for p in removed] == [old.name] and new.exists()
    assert on_windows == []
