"""The verdict cache cannot be made to lie: its entries are signed with the user's own secret,
checked against the code table as they are read, and never read through a link, from a FIFO or
a device, or whole when too large; a killed run's temporary files do not stay."""

from __future__ import annotations

import hashlib
import json
import os
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from kcref.cli import main
from kcref.files.cache import CACHEDIR_TAG, Cache
from tests.fuzzing import problems
from tests.util import ROOT, working_directory

BAD = (ROOT / "samples/invalid/illegal-plays.log").read_text(encoding="utf-8")
CLEAN = (ROOT / "samples/short-classic.log").read_text(encoding="utf-8")
OWN = ("CACHEDIR.TAG", ".gitignore")
FORMATS = [[], ["--format", "sarif"], ["--format", "github"], ["--format", "json"], ["--statistics"],
           ["-j", "2"], ["-j", "2", "--format", "sarif"], ["--quiet"]]


def _run(args: list[str]) -> Result:
    return CliRunner().invoke(main, ["check", *args], env={"KCREF_NO_CACHE": None, "GITHUB_ACTIONS": None})


def _night(folder: Path) -> list[str]:
    """A log with errors and a clean one, in ``folder`` (the working folder)."""
    (folder / "bad.log").write_text(BAD, encoding="utf-8")
    (folder / "clean.log").write_text(CLEAN, encoding="utf-8")
    return ["bad.log", "clean.log"]


def _entries(folder: Path) -> list[Path]:
    return sorted(p for p in folder.iterdir() if p.name not in OWN)


def _entry_of(folder: Path, name: str) -> Path:
    """The entry of the log ``name`` (in the working folder), whatever its layout names it."""
    digest = hashlib.sha256(os.path.abspath(name).encode()).hexdigest()[:32]
    (found,) = [p for p in _entries(folder) if p.name.startswith(digest)]
    return found


def _split(entry: Path) -> tuple[bytes, dict[str, object]]:
    """An entry's signature line (empty when it has none) and its body."""
    data = entry.read_bytes()
    if data.startswith(b"kcref-cache"):
        head, _, body = data.partition(b"\n")
        return head + b"\n", json.loads(body)
    return b"", json.loads(data)


def _forge(entry: Path, **changes: object) -> None:
    """Change an entry's body as anyone who can write the folder can: without the secret, the
    signature line is kept as it was."""
    head, body = _split(entry)
    body.update(changes)
    entry.write_bytes(head + json.dumps(body).encode())


UNKNOWN_CODE = "KC" + "999"  # spelled so that tests/test_codes.py does not take it for an expectation

ZERO = {"diagnostics": [], "hand_lines": [], "settled": [], "counts": [0, 0, 0], "penalties": 0, "unreadable": False}
"""What a forged entry says of a file: nothing wrong with it."""


@pytest.mark.parametrize("args", FORMATS, ids=" ".join)
def test_a_forged_entry_does_not_pass_a_bad_file(args: list[str], tmp_path: Path) -> None:
    with working_directory(tmp_path):
        logs = _night(tmp_path)
        fresh = _run([*args, "--no-cache", *logs])
        assert fresh.exit_code == 1
        _run(logs)  # the cache filled: the entries are real, and signed
        _forge(_entry_of(tmp_path / ".kcref_cache", "bad.log"), **ZERO)
        result = _run([*args, *logs])
    assert (result.exit_code, result.stdout) == (1, fresh.stdout)
    assert result.stderr == ""


def test_a_forged_entry_is_written_anew(tmp_path: Path) -> None:
    with working_directory(tmp_path):
        logs = _night(tmp_path)
        _run(logs)
        entry = _entry_of(tmp_path / ".kcref_cache", "bad.log")
        genuine = entry.read_bytes()
        _forge(entry, **ZERO)
        _run(logs)
    assert entry.read_bytes() == genuine


def test_counts_come_from_the_diagnostics(tmp_path: Path) -> None:
    # Signed by the user's own secret (store signs what it is given), counts that disagree with
    # the diagnostics are not believed.
    with working_directory(tmp_path):
        logs = _night(tmp_path)
        fresh = _run(["--no-cache", *logs])
        _run(logs)
        key = _split(_entry_of(tmp_path / ".kcref_cache", "bad.log"))[1]["key"]
        body = {k: v for k, v in _split(_entry_of(tmp_path / ".kcref_cache", "bad.log"))[1].items() if k != "key"}
        Cache().store("bad.log", str(key), {**body, "counts": [0, 0, 0], "penalties": 0})
        result = _run(logs)
    assert (result.exit_code, result.output) == (1, fresh.output)


def test_an_entry_moved_to_another_files_name_is_not_used(tmp_path: Path) -> None:
    with working_directory(tmp_path):
        (tmp_path / "a.log").write_text(BAD, encoding="utf-8")
        (tmp_path / "b.log").write_text(BAD, encoding="utf-8")
        _run(["a.log", "b.log"])
        folder = tmp_path / ".kcref_cache"
        a, b = _entry_of(folder, "a.log"), _entry_of(folder, "b.log")
        assert a.read_bytes() != b.read_bytes()  # same bytes, but each entry is bound to its file
        b.write_bytes(a.read_bytes())
        fresh = _run(["--no-cache", "a.log", "b.log"])
        assert _run(["a.log", "b.log"]).output == fresh.output
        assert b.read_bytes() != a.read_bytes()  # written anew


def test_an_entry_signed_with_another_secret_is_not_used(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with working_directory(tmp_path):
        logs = _night(tmp_path)
        fresh = _run(["--no-cache", *logs])
        monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "someone-else"))
        _run(logs)
        entry = _entry_of(tmp_path / ".kcref_cache", "bad.log")
        body = _split(entry)[1]
        Cache().store("bad.log", str(body["key"]), {**ZERO})  # a lie, signed with their secret
        monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "me"))
        result = _run(logs)
    assert (result.exit_code, result.output) == (1, fresh.output)


# --- the user's secret ------------------------------------------------------------------------

def test_the_secret_is_made_once_readable_by_its_owner_only(tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "home-cache"))
    with working_directory(tmp_path):
        logs = _night(tmp_path)
        _run(logs)
        secret = tmp_path / "home-cache" / "kcref" / "secret"
        first = secret.read_bytes()
        assert _run(logs).stderr == ""
    assert len(first) == 32 and secret.read_bytes() == first
    assert not list((tmp_path / "home-cache" / "kcref").glob(".secret-*"))  # its temp file is gone
    if hasattr(os, "geteuid"):
        assert stat.S_IMODE(secret.stat().st_mode) == 0o600
        assert stat.S_IMODE(secret.parent.stat().st_mode) == 0o700
    assert not (tmp_path / "kcref").exists()  # not in the project


def _spoiled_secret(how: str, secret: Path, tmp_path: Path) -> None:
    if how == "readable by others":
        secret.chmod(0o644)
    elif how == "a link":
        secret.rename(tmp_path / "elsewhere")
        secret.symlink_to(tmp_path / "elsewhere")
    elif how == "short":
        secret.write_bytes(b"abc")
    elif how == "a folder":
        secret.unlink()
        secret.mkdir()
    elif how == "another user's":
        os.chown(secret, os.geteuid() + 1, -1)


SPOILED = ["readable by others", "a link", "short", "a folder",
           pytest.param("another user's", marks=pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0,
                                                                   reason="only root can give a file away"))]


@pytest.mark.skipif(not hasattr(os, "geteuid"), reason="POSIX modes and owners")
@pytest.mark.parametrize("how", SPOILED)
def test_a_secret_that_cannot_be_trusted_turns_the_cache_off(how: str, tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "home-cache"))
    with working_directory(tmp_path):
        logs = _night(tmp_path)
        _run(logs)
        entry = _entry_of(tmp_path / ".kcref_cache", "bad.log")
        _forge(entry, **ZERO)
        forged = entry.read_bytes()
        _spoiled_secret(how, tmp_path / "home-cache" / "kcref" / "secret", tmp_path)
        fresh = _run(["--no-cache", *logs])
        result = _run(logs)
    assert (result.exit_code, result.stdout) == (1, fresh.stdout)
    (warning,) = result.stderr.splitlines()
    assert warning.startswith("kcref check: the cache's secret ") and warning.endswith(": the cache is not used")
    assert entry.read_bytes() == forged  # neither read nor written


# --- links, FIFOs, devices, sizes ---------------------------------------------------------------

def test_a_cache_folder_that_is_a_link_is_not_used(tmp_path: Path) -> None:
    project = tmp_path / "project"
    project.mkdir()
    (project / ".kcref_cache").symlink_to(".")  # committed to the repository
    with working_directory(project):
        logs = _night(project)
        fresh = _run(["--no-cache", *logs])
        result = _run(logs)
        again = _run(logs)
    assert sorted(p.name for p in project.iterdir()) == [".kcref_cache", "bad.log", "clean.log"]
    assert (result.exit_code, result.stdout) == (1, fresh.stdout) and again.stdout == fresh.stdout
    assert result.stderr == "kcref check: cache folder .kcref_cache is a symbolic link: not used\n"


def test_a_linked_cache_folder_named_with_escapes_is_named_safely(tmp_path: Path) -> None:
    (tmp_path / "real").mkdir()
    (tmp_path / "c\x1b[2J").symlink_to(tmp_path / "real")
    with working_directory(tmp_path):
        logs = _night(tmp_path)
        result = _run(["--cache-dir", "c\x1b[2J", *logs])
    assert result.stderr == "kcref check: cache folder c\ufffd[2J is a symbolic link: not used\n"
    assert list((tmp_path / "real").iterdir()) == []


def test_a_cache_folder_that_is_a_file_is_not_used(tmp_path: Path) -> None:
    with working_directory(tmp_path):
        logs = _night(tmp_path)
        (tmp_path / ".kcref_cache").write_text("", encoding="utf-8")
        result = _run(logs)
    assert result.exit_code == 1
    assert result.stderr == "kcref check: cache folder .kcref_cache is not a folder: not used\n"


def test_a_folder_that_is_not_kcrefs_is_not_used(tmp_path: Path) -> None:
    # A repository's kcref.toml may name any folder: kcref writes only into its own, or an empty one.
    home = tmp_path / "home"
    project = home / "project"
    project.mkdir(parents=True)
    (home / "notes.txt").write_text("mine\n", encoding="utf-8")
    (home / "tmpabcdefgh.tmp").write_text("another program's\n", encoding="utf-8")
    hour_ago = time.time() - 3600
    os.utime(home / "tmpabcdefgh.tmp", (hour_ago, hour_ago))
    (project / "kcref.toml").write_text('cache-dir = ".."\n', encoding="utf-8")
    with working_directory(project):
        logs = _night(project)
        fresh = _run(["--no-cache", *logs])
        result = _run(logs)
    assert sorted(p.name for p in home.iterdir()) == ["notes.txt", "project", "tmpabcdefgh.tmp"]
    assert (result.exit_code, result.stdout) == (1, fresh.stdout)
    (warning,) = result.stderr.splitlines()
    assert warning.endswith("is not kcref's (it holds files, but no CACHEDIR.TAG of kcref's): not used")


def test_an_empty_folder_is_taken_for_the_cache(tmp_path: Path) -> None:
    (tmp_path / "kept").mkdir()
    with working_directory(tmp_path):
        logs = _night(tmp_path)
        result = _run(["--cache-dir", "kept", *logs])
    assert result.stderr == ""
    assert (tmp_path / "kept" / "CACHEDIR.TAG").read_text(encoding="ascii") == CACHEDIR_TAG
    assert len(list((tmp_path / "kept").glob("*.entry"))) == 2


def test_a_link_in_the_folder_is_not_written_through(tmp_path: Path) -> None:
    project = tmp_path / "project"
    project.mkdir()
    folder = _committed(project)
    (folder / ".gitignore").symlink_to(tmp_path / "hidden")  # nothing there yet
    with working_directory(project):
        logs = _night(project)
        assert _run(logs).exit_code == 1
    assert not (tmp_path / "hidden").exists()
    assert len(list(folder.glob("*.entry"))) == 2


def _child(args: list[str], folder: Path) -> subprocess.CompletedProcess[str]:
    """``kcref check ARGS`` in a child process run from ``folder``, bounded in time and memory
    (a check that reads an endless entry must fail, not take the machine's memory)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("KCREF_NO_CACHE", None)
    env.pop("GITHUB_ACTIONS", None)

    def bounded() -> None:
        import resource

        resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))

    child = subprocess.Popen([sys.executable, "-m", "kcref", "check", *args], cwd=folder, env=env, text=True,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             preexec_fn=bounded if sys.platform.startswith("linux") else None)
    try:
        out, err = child.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        child.kill()
        child.communicate()
        pytest.fail(f"kcref check {' '.join(args)} did not end")
    return subprocess.CompletedProcess(child.args, child.returncode, out, err)


def _committed(tmp_path: Path) -> Path:
    """A cache folder as a repository may commit one: tagged as kcref tags it."""
    folder = tmp_path / ".kcref_cache"
    folder.mkdir()
    (folder / "CACHEDIR.TAG").write_text(CACHEDIR_TAG, encoding="ascii")
    return folder


def _plant(tmp_path: Path, make: str) -> list[Path]:
    """Put a hostile thing in place of the entry of bad.log (under each layout's name)."""
    folder = _committed(tmp_path)
    digest = hashlib.sha256(str(tmp_path.resolve() / "bad.log").encode()).hexdigest()[:32]
    places = [folder / f"{digest}.json", folder / f"{digest}.entry"]
    for place in places:
        if make == "link to /dev/zero":
            place.symlink_to("/dev/zero")
        elif make == "FIFO":
            os.mkfifo(place)
        elif make == "link to a file outside":
            place.symlink_to(tmp_path / "outside")
        else:  # too large: sparse, costs nothing on disk
            with open(place, "wb") as file:
                file.truncate(64 * 1024 * 1024)
    (tmp_path / "outside").write_text("precious\n", encoding="utf-8")
    return places


WARNINGS = {"link to /dev/zero": "is a symbolic link: ignored", "link to a file outside": "is a symbolic link: ignored",
            "FIFO": "is not a regular file: ignored", "too large": "is larger than 32 MiB: ignored"}


@pytest.mark.skipif(not hasattr(os, "mkfifo") or not os.path.exists("/dev/zero"), reason="POSIX")
@pytest.mark.parametrize("make", list(WARNINGS))
def test_an_entry_that_is_a_link_a_fifo_or_too_large_is_ignored(make: str, tmp_path: Path) -> None:
    logs = _night(tmp_path)
    places = _plant(tmp_path, make)
    done = _child([*logs, "--format", "sarif"], tmp_path)
    fresh = _child(["--no-cache", *logs, "--format", "sarif"], tmp_path)
    assert (done.returncode, done.stdout) == (1, fresh.stdout)
    (warning,) = done.stderr.splitlines()
    assert warning.startswith("kcref check: cache entry .kcref_cache/") and warning.endswith(WARNINGS[make])
    assert (tmp_path / "outside").read_text(encoding="utf-8") == "precious\n"
    entry = places[1]
    assert stat.S_ISREG(entry.lstat().st_mode) and entry.stat().st_size < 4096  # written anew, in place
    assert _child(logs, tmp_path).stderr == ""


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="POSIX")
def test_hostile_entries_are_told_once_a_run(tmp_path: Path) -> None:
    folder = _committed(tmp_path)
    names = [f"n{i}.log" for i in range(3)]
    for name in names:
        (tmp_path / name).write_text(BAD, encoding="utf-8")
        os.mkfifo(folder / (hashlib.sha256(str(tmp_path.resolve() / name).encode()).hexdigest()[:32] + ".entry"))
    done = _child(names, tmp_path)
    assert done.returncode == 1 and len(done.stderr.splitlines()) == 1


# --- entries that are signed, yet wrong -----------------------------------------------------------

def _first(body: dict[str, object], index: int, value: object) -> list[object]:
    rows = [list(row) for row in body["diagnostics"]]  # type: ignore[attr-defined]
    rows[0][index] = value
    return rows


PLANTED = {
    "unknown code": lambda b: {"diagnostics": _first(b, 3, UNKNOWN_CODE)},
    "code with escapes": lambda b: {"diagnostics": _first(b, 3, "\x1b[2J\n::error::pwned")},
    "wrong severity": lambda b: {"diagnostics": _first(b, 2, "info")},
    "negative line": lambda b: {"diagnostics": _first(b, 0, -3)},
    "line not a number": lambda b: {"diagnostics": _first(b, 0, "14")},
    "short row": lambda b: {"diagnostics": [b["diagnostics"][0][:4]]},  # type: ignore[index]
    "hand out of range": lambda b: {"settled": [[0, 99, "Ann wins"]]},
    "place out of range": lambda b: {"settled": [[99, 0, "Ann wins"]]},
    "huge hand line": lambda b: {"hand_lines": [2 ** 64]},
    "not a list": lambda b: {"diagnostics": {"a": 1}},
}


@pytest.mark.parametrize("args", [[], ["-v"], ["--format", "sarif"], ["--statistics"], ["--format", "github"],
                                  ["-j", "2"], ["--format", "junit"]], ids=" ".join)
@pytest.mark.parametrize("what", list(PLANTED))
def test_a_signed_entry_that_breaks_the_schema_is_ignored(what: str, args: list[str], tmp_path: Path) -> None:
    with working_directory(tmp_path):
        _night(tmp_path)
        fresh = _run(["--no-cache", *args, "bad.log", "clean.log"])
        _run(["bad.log", "clean.log"])
        body = _split(_entry_of(tmp_path / ".kcref_cache", "bad.log"))[1]
        key = str(body.pop("key"))
        Cache().store("bad.log", key, {**body, "counts": [4, 0, 0], "penalties": 0, "unreadable": False,
                                       **PLANTED[what](body)})
        result = _run([*args, "bad.log", "clean.log"])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert (result.exit_code, result.output) == (fresh.exit_code, fresh.output)


HOSTILE = "\x1b]0;PWNED\x07\x1b[2J\n::error::pwned\r\n##[error]pwned\u202e"


@pytest.mark.parametrize("args", [[], ["-v"], ["--format", "github"], ["--format", "sarif"], ["--format", "json"],
                                  ["--format", "junit"], ["--format", "gitlab"], ["--statistics"], ["-j", "2"],
                                  ["-j", "2", "--format", "github"]], ids=" ".join)
def test_escapes_in_a_signed_entry_are_escaped_when_printed(args: list[str], tmp_path: Path) -> None:
    # An entry kcref signed holds what a check found: its texts are printed as a fresh check's,
    # escaped by the printer of each format all the same.
    with working_directory(tmp_path):
        _night(tmp_path)
        _run(["bad.log", "clean.log"])
        body = _split(_entry_of(tmp_path / ".kcref_cache", "bad.log"))[1]
        key = str(body.pop("key"))
        rows = [[*row[:4], HOSTILE + str(row[4]), HOSTILE] for row in body["diagnostics"]]  # type: ignore[attr-defined]
        settled = [[at, index, HOSTILE] for at, index, _ in body["settled"]]  # type: ignore[attr-defined]
        Cache().store("bad.log", key, {**body, "diagnostics": rows, "settled": settled})
        result = _run([*args, "bad.log", "clean.log"])
    assert problems(["check", *args], result) == []
    assert result.exit_code == 1
    assert "pwned" in result.stdout or "--statistics" in args  # the entry was used
    assert not any(line.lstrip().startswith(("::error::", "##[")) for line in result.stdout.splitlines())


# --- temporary files ---------------------------------------------------------------------------

def _dead_pid() -> int:
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def test_the_temporary_files_of_a_killed_run_are_removed(tmp_path: Path) -> None:
    with working_directory(tmp_path):
        logs = _night(tmp_path)
        _run(logs)
        folder = tmp_path / ".kcref_cache"
        dead, live = _dead_pid(), os.getppid()
        names = {"dead": f".tmp-{dead}-0123abcd", "live": f".tmp-{live}-0123abcd", "old": f".tmp-{live}-4567abcd",
                 "older kcref's, old": "tmpab_cd9z1.tmp", "older kcref's, new": "tmpzzzzzzzz.tmp",
                 "not ours": ".tmp-notours", "a link": f".tmp-{dead}-89abcdef", "a folder": f".tmp-{dead}-aaaabbbb"}
        for what, name in names.items():
            if what == "a link":
                (folder / name).symlink_to(tmp_path / "outside")
            elif what == "a folder":
                (folder / name).mkdir()
            else:
                (folder / name).write_bytes(b"half an entr")
        (tmp_path / "outside").write_text("precious\n", encoding="utf-8")
        hour_ago = time.time() - 3600
        for what in ("old", "older kcref's, old"):
            os.utime(folder / names[what], (hour_ago, hour_ago))
        assert _run(logs).exit_code == 1  # every entry a hit: the folder is tidied all the same
    left = {p.name for p in folder.iterdir()}
    assert {what for what, name in names.items() if name in left} == {
        "live", "older kcref's, new", "not ours", "a link", "a folder"}
    assert (tmp_path / "outside").read_text(encoding="utf-8") == "precious\n"


def test_a_run_leaves_no_temporary_file(tmp_path: Path) -> None:
    with working_directory(tmp_path):
        logs = _night(tmp_path)
        _run(["-j", "2", *logs])
        _run(logs)
    assert sorted(p.name for p in (tmp_path / ".kcref_cache").iterdir() if p.name.startswith((".tmp", "tmp"))) == []


@pytest.mark.skipif(not hasattr(os, "O_DIRECTORY") or not hasattr(os, "O_NOFOLLOW"), reason="POSIX")
def test_the_cache_writes_through_the_one_atomic_writer(tmp_path: Path) -> None:
    """files/atomic.py's FolderFile, what the cache writes its entries with: whole or not at all,
    and a link at the entry's name is replaced, never written through."""
    from kcref.files.atomic import FolderFile, clean_stale

    (tmp_path / "outside").write_text("precious\n", encoding="utf-8")
    (tmp_path / "entry").symlink_to(tmp_path / "outside")
    folder = os.open(tmp_path, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW)
    try:
        with FolderFile(str(tmp_path), folder, "entry") as entry:
            entry.write(b"new\n")
            entry.commit()
        with FolderFile(str(tmp_path), folder, "half") as half:
            half.write(b"half an entr")  # never committed
        dead = _dead_pid()
        (tmp_path / f".tmp-{dead}-0123abcd").write_bytes(b"a killed run's")
        removed = clean_stale(str(tmp_path), names=FolderFile.TEMP_NAME, folder=folder, own_only=True)
    finally:
        os.close(folder)
    assert not (tmp_path / "entry").is_symlink() and (tmp_path / "entry").read_bytes() == b"new\n"
    assert (tmp_path / "outside").read_text(encoding="utf-8") == "precious\n"
    assert [Path(p).name for p in removed] == [f".tmp-{dead}-0123abcd"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["entry", "outside"]
