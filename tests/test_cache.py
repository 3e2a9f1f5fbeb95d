"""The verdict cache of ``kcref check``: a cached run prints exactly what a fresh one prints."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from kcref.cli import main
from kcref.files.cache import Cache
from tests.util import ROOT, working_directory

RUNS = [[], ["-v"], ["--quiet"], ["--format", "json"], ["--format", "github"], ["--format", "junit"],
        ["--format", "sarif"], ["--format", "gitlab"], ["--statistics"], ["--statistics", "--format", "json"],
        ["--no-source"], ["--quiet", "--strict"], ["-j", "2"], ["-j", "2", "-v"], ["-j", "2", "--format", "junit"]]


def _check(args: list[str], monkeypatch: pytest.MonkeyPatch, cache: bool = True) -> tuple[int, str]:
    monkeypatch.delenv("KCREF_NO_CACHE", raising=False)
    monkeypatch.delenv("GITHUB_ACTIONS", raising=False)
    result = CliRunner().invoke(main, ["check", *args, *([] if cache else ["--no-cache"]),
                                       "samples", "samples/invalid"])
    return result.exit_code, result.output


@pytest.mark.parametrize("args", RUNS, ids=" ".join)
def test_a_cached_run_prints_what_a_fresh_one_prints(args: list[str], tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "cache"
    before = sorted((ROOT / ".kcref_cache").glob("*"))
    with working_directory(ROOT):
        fresh = _check(args, monkeypatch, cache=False)
        first = _check([*args, "--cache-dir", str(folder)], monkeypatch)
        assert len(list(folder.glob("*.entry"))) >= 10
        second = _check([*args, "--cache-dir", str(folder)], monkeypatch)
    assert sorted((ROOT / ".kcref_cache").glob("*")) == before  # the repo's own folder is left alone
    assert first == fresh
    assert second == fresh


def test_the_cache_is_written_by_one_format_and_read_by_another(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    folder = ["--cache-dir", str(tmp_path / "cache")]
    with working_directory(ROOT):
        _check(["--format", "json", *folder], monkeypatch)
        for args in RUNS:
            assert _check([*args, *folder], monkeypatch) == _check(args, monkeypatch, cache=False), args


def test_the_default_folder_is_tagged_and_ignored(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    log = tmp_path / "night.log"
    log.write_text((ROOT / "samples/short-classic.log").read_text(encoding="utf-8"), encoding="utf-8")
    with working_directory(tmp_path):
        monkeypatch.delenv("KCREF_NO_CACHE", raising=False)
        CliRunner().invoke(main, ["check", "night.log"])
    folder = tmp_path / ".kcref_cache"
    assert (folder / "CACHEDIR.TAG").read_text().startswith("Signature: 8a477f597d28d172789f06886806bc55")
    assert (folder / ".gitignore").read_text().splitlines()[-1] == "*"
    assert len(list(folder.glob("*.entry"))) == 1
    assert not list(folder.glob("*tmp*"))


def test_off_by_flag_and_by_the_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    log = tmp_path / "night.log"
    log.write_text((ROOT / "samples/short-classic.log").read_text(encoding="utf-8"), encoding="utf-8")
    with working_directory(tmp_path):
        monkeypatch.delenv("KCREF_NO_CACHE", raising=False)
        CliRunner().invoke(main, ["check", "--no-cache", "night.log"])
        monkeypatch.setenv("KCREF_NO_CACHE", "1")
        CliRunner().invoke(main, ["check", "night.log"])
    assert not (tmp_path / ".kcref_cache").exists()


def test_a_changed_file_or_configuration_is_checked_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    log = tmp_path / "night.log"
    text = (ROOT / "samples/invalid/illegal-plays.log").read_text(encoding="utf-8")
    log.write_text(text, encoding="utf-8")
    with working_directory(tmp_path):
        monkeypatch.delenv("KCREF_NO_CACHE", raising=False)
        runner = CliRunner()
        first = runner.invoke(main, ["check", "night.log"]).output
        ignored = runner.invoke(main, ["check", "--ignore", "KC3", "night.log"]).output
        assert ignored != first
        assert ignored == runner.invoke(main, ["check", "--no-cache", "--ignore", "KC3", "night.log"]).output
        log.write_text(text.replace("hand 1", "hand 1\n# a comment", 1), encoding="utf-8")
        changed = runner.invoke(main, ["check", "night.log"]).output
        assert changed == runner.invoke(main, ["check", "--no-cache", "night.log"]).output
        assert changed != first


def _cached_entry(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[CliRunner, str, Path]:
    """A log checked once with the cache on (from ``tmp_path``, the working folder): the runner,
    what a fresh check prints, and the cache entry written."""
    log = tmp_path / "night.log"
    log.write_text((ROOT / "samples/invalid/illegal-plays.log").read_text(encoding="utf-8"), encoding="utf-8")
    monkeypatch.delenv("KCREF_NO_CACHE", raising=False)
    runner = CliRunner()
    fresh = runner.invoke(main, ["check", "--no-cache", "night.log"]).output
    runner.invoke(main, ["check", "night.log"])
    (entry,) = (tmp_path / ".kcref_cache").glob("*.entry")
    return runner, fresh, entry


def _body(entry: Path) -> bytes:
    """An entry's JSON body (after its signature line)."""
    return entry.read_bytes().partition(b"\n")[2]


@pytest.mark.parametrize("junk", ["{not json", "[]", '{"key": "other"}', ""])
def test_a_corrupt_or_foreign_entry_is_ignored(junk: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with working_directory(tmp_path):
        runner, fresh, entry = _cached_entry(tmp_path, monkeypatch)
        entry.write_text(junk, encoding="utf-8")
        assert runner.invoke(main, ["check", "night.log"]).output == fresh
        assert json.loads(_body(entry))["key"]  # written anew


def test_a_wrong_entry_under_the_right_key_is_ignored(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with working_directory(tmp_path):
        runner, fresh, entry = _cached_entry(tmp_path, monkeypatch)
        data = json.loads(_body(entry))
        entry.write_text(json.dumps({"key": data["key"], "diagnostics": [[1, 2]]}), encoding="utf-8")
        assert runner.invoke(main, ["check", "night.log"]).output == fresh


def test_a_folder_that_cannot_be_written_is_not_used(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("", encoding="utf-8")
    with working_directory(ROOT):
        fresh = _check([], monkeypatch, cache=False)
        assert _check(["--cache-dir", str(blocker / "cache")], monkeypatch) == fresh
    cache = Cache(str(blocker / "cache"))
    cache.store("samples/short-classic.log", "k", {})
    assert cache.usable is False


def test_unreadable_files_and_stdin_are_not_cached(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "bad.log").write_bytes(b"\xff\xfe\x00bad")
    with working_directory(tmp_path):
        monkeypatch.delenv("KCREF_NO_CACHE", raising=False)
        runner = CliRunner()
        runner.invoke(main, ["check", "bad.log", "missing.log"])
        runner.invoke(main, ["check", "-"], input="hand 1\n")
    assert not list((tmp_path / ".kcref_cache").glob("*.entry"))
    assert Cache.read("-") is None


def test_the_configuration_turns_it_off_or_moves_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    club = tmp_path / "club"
    club.mkdir()
    (club / "night.log").write_text((ROOT / "samples/short-classic.log").read_text(encoding="utf-8"),
                                    encoding="utf-8")
    monkeypatch.delenv("KCREF_NO_CACHE", raising=False)
    (club / "kcref.toml").write_text("cache = false\n", encoding="utf-8")
    with working_directory(club):
        assert CliRunner().invoke(main, ["check", "night.log"]).exit_code == 0
    assert not (club / ".kcref_cache").exists()
    (club / "kcref.toml").write_text('cache-dir = "kept"\n', encoding="utf-8")
    with working_directory(club):
        assert CliRunner().invoke(main, ["check", "night.log"]).exit_code == 0
    assert len(list((club / "kept").glob("*.entry"))) == 1  # relative to the configuration file's folder
    (club / "kcref.toml").write_text('cache = "no"\n', encoding="utf-8")
    with working_directory(club):
        result = CliRunner().invoke(main, ["check", "night.log"])
    assert result.exit_code == 2 and "cache" in result.output


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_fifo_is_not_read_for_a_key(tmp_path: Path) -> None:
    fifo = tmp_path / "night.log"
    os.mkfifo(fifo)
    assert Cache.read(str(fifo)) is None  # returns at once: not opened
    assert Cache.read(str(tmp_path)) is None


def test_an_entry_is_keyed_by_the_bytes_it_was_checked_from(tmp_path: Path) -> None:
    from kcref.apps.check.cached import decoded, entry_of, fingerprint, keyed_bytes
    from kcref.referee.pipeline import check_file, check_keyed
    from kcref.render.check_formats import penalty_settlement_line

    clean = (ROOT / "samples/short-classic.log").read_bytes()
    night = tmp_path / "night.log"
    night.write_bytes(clean + b"\nhand 99\n")  # the file as it is by the time of the check: an error more
    assert check_file(str(night), keep_hands=False).errors > 0
    # The bytes read for the key are the bytes checked, whatever the file holds by then.
    assert check_file(str(night), keep_hands=False, data=clean).errors == 0
    key, checked = check_keyed(str(night), None, keyed_bytes, penalty_settlement_line)
    assert key == Cache.key(night.read_bytes(), fingerprint(None))
    report = decoded(str(night), entry_of(checked))
    assert report is not None and report.errors > 0


def test_an_entry_made_by_other_code_is_not_used(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """kcref's code changed under the same version number (a fix installed, a checkout moved on):
    what the old code found is not printed, the file is checked again."""
    from kcref.files import cache

    with working_directory(tmp_path):
        runner, fresh, entry = _cached_entry(tmp_path, monkeypatch)
        key = json.loads(_body(entry))["key"]
        monkeypatch.setattr(cache, "code_identity", lambda: "other code")
        assert runner.invoke(main, ["check", "night.log"]).output == fresh
        assert json.loads(_body(entry))["key"] != key  # checked again, and kept under the new key


def test_the_code_identity_follows_the_code_files_not_pythons_caches(tmp_path: Path) -> None:
    from kcref.files.cache import code_identity

    (tmp_path / "engine").mkdir()
    module = tmp_path / "engine" / "turns.py"
    module.write_text("x = 1\n", encoding="utf-8")
    before = code_identity(str(tmp_path))
    (tmp_path / "engine" / "__pycache__").mkdir()
    (tmp_path / "engine" / "__pycache__" / "turns.cpython-311.pyc").write_bytes(b"\0")
    code_identity.cache_clear()
    assert code_identity(str(tmp_path)) == before
    module.write_text("x = 2\n", encoding="utf-8")
    os.utime(module, ns=(1, 1))  # the same size, another time
    code_identity.cache_clear()
    assert code_identity(str(tmp_path)) != before
