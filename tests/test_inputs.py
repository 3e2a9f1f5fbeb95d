"""Every command reads its inputs the same way: files, folders (check, fmt, score) and `-`; the
same words and exit status 2 for what cannot be read; nothing found in a folder ever hangs."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from click.testing import CliRunner

from kcref.cli import main
from kcref.files import discover
from kcref.files.discover import Found, Problem, Skipped, search
from kcref.files.inputs import UsageProblem, resolve
from tests.util import ROOT

GOOD = ROOT / "samples" / "classic-night.log"
COMMANDS = ("check", "fmt", "score")


def run(*args: str, input: bytes | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args), input=input)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture
def nights(tmp_path: Path) -> Path:
    """Two clean nights in a folder (one a level down), a note to ignore, a hidden folder."""
    shutil.copy(GOOD, tmp_path / "a.log")
    (tmp_path / "2026").mkdir()
    shutil.copy(ROOT / "samples" / "commercial-night.log", tmp_path / "2026" / "b.kc")
    (tmp_path / "notes.txt").write_text("not a log", encoding="utf-8")
    (tmp_path / ".git").mkdir()
    (tmp_path / ".git" / "x.log").write_text("junk", encoding="utf-8")
    return tmp_path


# --- resolving ------------------------------------------------------------------------------------


def test_resolve_keeps_the_order_given(nights: Path) -> None:
    inputs = resolve([str(GOOD), str(nights), "-"])
    assert inputs.paths == [str(GOOD), str(nights / "2026" / "b.kc"), str(nights / "a.log"), "-"]
    assert resolve([str(nights)], ["*.kc"]).paths == [str(nights / "2026" / "b.kc")]


def test_stdin_twice_is_a_usage_error() -> None:
    with pytest.raises(UsageProblem, match="given more than once"):
        resolve(["-", str(GOOD), "-"])
    for command in COMMANDS:
        code, _, err = run(command, "-", "-", input=b"")
        assert code == 2 and "'-' (standard input) is given more than once" in err, command


def test_one_file_refuses_a_folder(nights: Path) -> None:
    assert resolve([str(nights)], one_file=True).problems == [Problem(str(nights), "cannot read: it is a directory")]


@pytest.mark.parametrize("command", COMMANDS + ("show",))
def test_the_same_words_for_a_missing_file(command: str, tmp_path: Path) -> None:
    missing = tmp_path / "nope.log"
    code, out, err = run(command, str(missing))
    assert code == 2
    assert f"{missing}:0:0: error KC001 cannot read: no such file" in out + err


@pytest.mark.parametrize("command", COMMANDS + ("show",))
def test_the_same_words_for_a_link_loop_given_by_name(command: str, tmp_path: Path) -> None:
    loop = tmp_path / "loop.log"
    loop.symlink_to(loop)
    code, out, err = run(command, str(loop))
    assert code == 2
    assert f"{loop}:0:0: error KC001 cannot read: Too many levels of symbolic links" in out + err


@pytest.mark.parametrize("command", COMMANDS + ("show",))
def test_the_same_words_for_an_unreadable_file(command: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Tests run as root, who may read a 0o000 file: make opening it fail as it would for anyone else.
    locked = tmp_path / "locked.log"
    shutil.copy(GOOD, locked)
    real_open = open

    def guarded(file: object, *args: object, **kwargs: object) -> object:
        if str(file) == str(locked):
            raise PermissionError(13, "Permission denied", str(locked))
        return real_open(file, *args, **kwargs)  # type: ignore[call-overload]

    monkeypatch.setattr("builtins.open", guarded)
    code, out, err = run(command, str(locked))
    assert code == 2
    assert f"{locked}:0:0: error KC001 cannot read: Permission denied" in out + err


def test_show_a_folder_is_refused_like_the_others(nights: Path) -> None:
    code, out, err = run("show", str(nights))
    assert code == 2 and out == ""
    assert err == f"{nights}:0:0: error KC001 cannot read: it is a directory\n"


def test_every_command_takes_a_folder(nights: Path) -> None:
    code, out, _ = run("check", "--no-source", str(nights))
    assert code == 0 and out.splitlines()[-1].startswith("2 files, 7 hands, 0 errors")
    code, out, err = run("score", "--by", "night", "--format", "json", str(nights))
    assert code == 0, err
    assert [f["path"] for f in json.loads(out)["files"]] == [str(nights / "2026" / "b.kc"), str(nights / "a.log")]
    code, out, err = run("fmt", str(nights))
    assert code == 0, err
    assert out == (nights / "2026" / "b.kc").read_text(encoding="utf-8") + GOOD.read_text(encoding="utf-8")
    assert run("fmt", "--check", str(nights))[0] == 0
    code, _, err = run("score", "--glob", "*.kc", str(nights))
    assert code == 0 and err == ""
    code, out, _ = run("score", "--glob", "*.md", str(nights))
    assert code == 2
    assert run("fmt", "--glob", "*.md", str(nights))[0] == 2


def test_an_empty_folder_is_a_usage_error_for_every_command(tmp_path: Path) -> None:
    for command in COMMANDS:
        code, _, err = run(command, str(tmp_path))
        assert code == 2 and f"no log files found in {tmp_path}" in err, command


def test_stdin_is_named_alike_everywhere() -> None:
    text = GOOD.read_bytes()
    code, out, _ = run("check", "--format", "json", "-", input=text)
    assert code == 0 and json.loads(out)["files"][0]["path"] == "<stdin>"
    code, out, _ = run("score", "--format", "json", "-", input=text)
    assert json.loads(out)["files"][0]["path"] == "<stdin>"
    code, _, err = run("fmt", "--check", "-", input=text.replace(b"->", b" -> "))
    assert code == 1 and err == "would reformat <stdin>\n"
    code, out, _ = run("show", "-", "--hand", "2", input=text)
    assert code == 0 and out.startswith("<stdin>: hand 2, classic rules")
    code, _, err = run("fmt", "-", input=b"hand 1\nAnn: drwa\n")
    assert code == 1 and err.startswith("<stdin>:2:6: error KC104")


# --- searching a folder ---------------------------------------------------------------------------


def _scandir_refusing(monkeypatch: pytest.MonkeyPatch, refused: Path) -> None:
    """os.scandir fails on ``refused`` as on a folder this user may not read (tests run as root,
    who can list a 0o000 folder, so the failure is made here)."""
    real = os.scandir

    def scandir(path: object = ".") -> object:
        if os.fspath(path) == str(refused):  # type: ignore[arg-type]
            raise PermissionError(13, "Permission denied", str(refused))
        return real(path)  # type: ignore[arg-type]

    monkeypatch.setattr(discover.os, "scandir", scandir)


def test_an_unreadable_subfolder_is_reported(nights: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    private = nights / "private"
    private.mkdir()
    shutil.copy(GOOD, private / "c.log")
    private.chmod(0o000)
    try:
        _scandir_refusing(monkeypatch, private)
        assert search(str(nights)) == [Found(str(nights / "2026" / "b.kc")), Found(str(nights / "a.log")),
                                       Problem(str(private), "cannot read: Permission denied")]
        code, out, _ = run("check", "--no-source", str(nights))
        assert code == 2
        lines = out.splitlines()
        assert f"{private}:0:0: error KC001 cannot read: Permission denied" in lines
        assert lines[-1].startswith("3 files, 7 hands, 1 error")  # the other files are checked all the same
        code, out, _ = run("check", "--jobs", "2", "--no-source", str(nights))
        assert code == 2 and out.splitlines() == lines
        code, out, err = run("score", str(nights))
        assert code == 2 and out == "" and f"{private}:0:0: error KC001 cannot read: Permission denied" in err
        code, out, err = run("fmt", "--check", str(nights))
        assert code == 2 and err == f"{private}:0:0: error KC001 cannot read: Permission denied\n"
    finally:
        private.chmod(0o755)


def test_a_folder_holding_only_an_unreadable_folder_is_not_empty(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    private = tmp_path / "private"
    private.mkdir()
    _scandir_refusing(monkeypatch, private)
    code, out, _ = run("check", str(tmp_path))
    assert code == 2 and "no log files found" not in out and "cannot read: Permission denied" in out


def test_a_really_unreadable_subfolder_as_another_user() -> None:
    """The real thing: a 0o000 folder, searched by an unprivileged user. The tests run as root
    (who reads any folder), so a forked child gives up root before it searches; as any other
    user the folder is simply made unreadable."""
    top = Path(tempfile.mkdtemp(prefix="kcref-shared-"))
    try:
        os.chmod(top, 0o755)
        (top / "private").mkdir()
        shutil.copy(GOOD, top / "a.log")
        shutil.copy(GOOD, top / "private" / "b.log")
        (top / "private").chmod(0o000)
        read, write = os.pipe()
        pid = os.fork()
        if pid == 0:  # the child: never returns into pytest
            try:
                os.close(read)
                if os.geteuid() == 0:
                    os.setgid(65534)
                    os.setuid(65534)
                entries = resolve([str(top)]).entries
                os.write(write, json.dumps([[type(e).__name__, e.path, getattr(e, "reason", "")]
                                            for e in entries]).encode())
            finally:
                os._exit(0)
        os.close(write)
        with os.fdopen(read, "rb") as pipe:
            found = json.loads(pipe.read() or b"null")
        os.waitpid(pid, 0)
    finally:
        (top / "private").chmod(0o755)
        shutil.rmtree(top)
    assert found == [["Found", str(top / "a.log"), ""],
                     ["Problem", str(top / "private"), "cannot read: Permission denied"]]


def test_links_and_special_files_found_in_a_folder(nights: Path) -> None:
    os.mkfifo(nights / "pipe.log")
    (nights / "zero.log").symlink_to("/dev/zero")
    (nights / "good-link.log").symlink_to(nights / "a.log")
    (nights / "linked-folder").symlink_to(nights / "2026", target_is_directory=True)
    entries = search(str(nights))
    assert entries == [
        Found(str(nights / "2026" / "b.kc")), Found(str(nights / "a.log")), Found(str(nights / "good-link.log")),
        Skipped(str(nights / "pipe.log"), "a FIFO (named pipe)"),
        Skipped(str(nights / "zero.log"), "a character device"),
    ]
    # In a real process, with a deadline: a FIFO or /dev/zero that were opened would hang or never end.
    for command in ("check", "fmt", "score"):
        result = subprocess.run([sys.executable, "-m", "kcref", command, str(nights)], capture_output=True, text=True,
                                timeout=60, env={**os.environ, "PYTHONPATH": str(ROOT)})
        assert result.returncode == 0, (command, result.stderr)
        assert result.stderr.splitlines() == [
            f"kcref {command}: skipped {nights / 'pipe.log'}: a FIFO (named pipe), not a regular file",
            f"kcref {command}: skipped {nights / 'zero.log'}: a character device, not a regular file",
        ], command


def test_broken_links_found_in_a_folder_are_unreadable(nights: Path) -> None:
    (nights / "gone.log").symlink_to(nights / "nowhere.log")
    (nights / "loop.log").symlink_to(nights / "loop.log")
    code, out, _ = run("check", "--no-source", str(nights))
    assert code == 2
    assert f"{nights / 'gone.log'}:0:0: error KC001 cannot read: a broken symbolic link" in out
    assert f"{nights / 'loop.log'}:0:0: error KC001 cannot read: Too many levels of symbolic links" in out


def test_a_fifo_given_by_name_is_read_once_as_a_stream(tmp_path: Path) -> None:
    fifo = tmp_path / "night.log"
    os.mkfifo(fifo)
    outputs = []
    for args, expected in ((["check", "--no-source"], 0), (["fmt", "--check"], 1)):
        proc = subprocess.Popen([sys.executable, "-m", "kcref", *args, str(fifo)], stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True, env={**os.environ, "PYTHONPATH": str(ROOT)})
        with open(fifo, "wb") as w:
            w.write(GOOD.read_bytes().replace(b"->", b" -> "))
        out, err = proc.communicate(timeout=60)
        assert proc.returncode == expected, (args, out, err)
        outputs.append(out + err)
    assert outputs[0].splitlines()[-1].startswith("1 file, 4 hands, 0 errors")
    assert outputs[1] == f"would reformat {fifo}\n"


def test_control_characters_in_file_names_never_reach_the_terminal(tmp_path: Path) -> None:
    odd = tmp_path / "x\x1b[2J.log"
    odd.write_text(GOOD.read_text(encoding="utf-8").replace("->", " -> "), encoding="utf-8")
    code, _, err = run("fmt", "--check", str(odd))
    assert code == 1 and "\x1b" not in err
    os.mkfifo(tmp_path / "p\x1b[2J.log")
    code, _, err = run("check", str(tmp_path))
    assert "\x1b" not in err and "skipped" in err
