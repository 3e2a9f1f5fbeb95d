"""The configuration keys ruff users reach for (extend-select, per-file-ignores, exclude,
extend-exclude, respect-gitignore), the folder search that passes over what git ignores, and
the published JSON Schema, which never takes more than the reader does."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kcref.files.config import KEYS, Config, ConfigError, Finder, config_from
from kcref.files.config_schema import schema, schema_text
from kcref.files.discover import search
from kcref.files.excludes import Exclusions, matches_pattern
from tests.util import ROOT, assert_golden

jsonschema = pytest.importorskip("jsonschema")
GIT = shutil.which("git")


def test_the_published_schema_is_made_from_the_keys() -> None:
    assert_golden(ROOT / "docs" / "kcref.schema.json", schema_text())
    jsonschema.Draft202012Validator.check_schema(schema())
    assert set(schema()["properties"]) == set(KEYS)  # type: ignore[arg-type]


GOOD = {"rules": "family", "options": {"Target": 50, "Draw": "start"}, "select": ["KC2", "KC3"],
        "extend-select": "KC104", "ignore": ["KC216"], "extend-ignore": ["KC5"],
        "per-file-ignores": {"old/*.log": ["KC1"], "draft.log": "KC3"}, "exclude": ["out/", "*.bak.log"],
        "extend-exclude": "scratch/", "respect-gitignore": False, "strict": True, "glob": ["*.kc"],
        "format": "json", "jobs": 2, "cache": False, "cache-dir": ".cache"}
BAD = [None, 0, -1, 1.5, True, "", "KC", "kc2", "KC99", "nope", "\x00", "a\nb", [], ["KC2", 3], [["KC2"]],
       {"Target": 50}, {"Nope": 1}, {"x.log": ["KC1"]}, {"x.log": ["XX"]}, {"a\x00": ["KC1"]}, "Classic",
       "!", ["out/", "! "], "a\\", "a\\/b", {"!": ["KC1"]}, {"a\\": ["KC1"]}]


def test_every_key_has_a_value_both_take() -> None:
    assert set(GOOD) == set(KEYS)
    jsonschema.validate(GOOD, schema())
    assert config_from(GOOD, "kcref.toml").jobs == 2
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({"ignor": ["KC2"]}, schema())
    with pytest.raises(ConfigError, match="did you mean 'ignore'"):
        config_from({"ignor": ["KC2"]}, "kcref.toml")


@settings(max_examples=80, deadline=None)
@given(st.dictionaries(st.sampled_from(sorted(KEYS)), st.sampled_from([*GOOD.values(), *BAD]), max_size=4))
def test_what_the_schema_takes_the_reader_takes(table: dict[str, object]) -> None:
    try:
        jsonschema.validate(table, schema())
    except jsonschema.ValidationError:
        return
    config_from(table, "kcref.toml")


def test_extend_select_adds_to_select() -> None:
    config = Config(select=("KC2",), extend_select=("KC104",))
    assert "KC104" not in config.ignored() and "KC105" in config.ignored() and "KC216" not in config.ignored()
    over = Config(extend_select=("KC105",)).over(config)
    assert over.extend_select == ("KC104", "KC105") and "KC105" not in over.ignored()


def test_per_file_ignores_apply_to_the_files_they_match(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / ".git").mkdir()
    (tmp_path / "old").mkdir()
    (tmp_path / "kcref.toml").write_text('[per-file-ignores]\n"old/*.log" = ["KC3"]\n"x.log" = ["KC1", "KC2"]\n',
                                         encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    finder = Finder()
    assert finder.for_path("old/a.log").extend_ignore == ("KC3",)
    assert finder.for_path("a.log").extend_ignore == ()
    assert finder.for_path("old/x.log").extend_ignore == ("KC3", "KC1", "KC2")
    assert finder.for_path("-").extend_ignore == ()
    assert matches_pattern("old/", "old/deep/a.log", ".") and not matches_pattern("old/", "older/a.log", ".")
    assert not matches_pattern("*.log", "/elsewhere/a.log", str(tmp_path))


def _tree(root: Path) -> None:
    for path in ["logs/a.log", "logs/out/b.log", "logs/keep/c.log", "logs/keep/d.tmp.log", "logs/x.log",
                 "logs/deep/er/e.log", "logs/deep/f.kc", "logs/scratch/g.log", "top.log", "build/h.log"]:
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text("x\n", encoding="utf-8")
    (root / ".gitignore").write_text("out/\n*.tmp.log\n/build\n# a comment\n", encoding="utf-8")
    (root / "logs" / "keep" / ".gitignore").write_text("!d.tmp.log\n", encoding="utf-8")
    (root / "logs" / "deep" / ".gitignore").write_text("er/\n", encoding="utf-8")


@pytest.mark.skipif(GIT is None, reason="needs git")
def test_the_search_passes_over_what_git_ignores(tmp_path: Path) -> None:
    subprocess.run([str(GIT), "init", "-q", str(tmp_path)], check=True)
    _tree(tmp_path)
    (tmp_path / ".git" / "info").mkdir(exist_ok=True)
    (tmp_path / ".git" / "info" / "exclude").write_text("x.log\n", encoding="utf-8")
    listed = subprocess.run([str(GIT), "ls-files", "--others", "--exclude-standard"], cwd=tmp_path, check=True,
                            capture_output=True, text=True).stdout.split()
    for folder in (tmp_path, tmp_path / "logs", tmp_path / "logs" / "keep"):
        found = sorted(os.path.relpath(e.path, tmp_path) for e in search(str(folder), exclusions=Exclusions()))
        want = sorted(p for p in listed if p.endswith((".log", ".kc"))
                      and (folder == tmp_path or p.startswith(os.path.relpath(folder, tmp_path) + "/")))
        assert found == want, folder
    everything = [e.path for e in search(str(tmp_path / "logs"), exclusions=Exclusions(gitignore=False))]
    assert len(everything) == 8


@pytest.mark.parametrize("pattern", ["!", "\\", "a\\", "!\t", "a\\/b"])
def test_a_pattern_that_is_no_pattern(pattern: str, tmp_path: Path) -> None:
    """Git passes over a line of a .gitignore that is no pattern, and so does the search (the
    pathspec library raised, and every command that searches a folder ended in a traceback); in
    the configuration it is a bad value, named, as any other."""
    (tmp_path / ".git").mkdir()
    (tmp_path / ".gitignore").write_text(f"{pattern}\nout.log\n", encoding="utf-8")
    for name in ("in.log", "out.log"):
        (tmp_path / name).write_text("x\n", encoding="utf-8")
    found = [os.path.basename(e.path) for e in search(str(tmp_path), exclusions=Exclusions())]
    assert found == ["in.log"]
    for key, value in (("exclude", [pattern]), ("extend-exclude", pattern), ("per-file-ignores", {pattern: "KC1"})):
        with pytest.raises(ConfigError, match=f"{key}: .*not a pattern of a .gitignore"):
            config_from({key: value}, "kcref.toml")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
@pytest.mark.parametrize("kind", ["fifo", "dev-zero"])
def test_a_gitignore_that_is_not_a_regular_file_is_not_read(kind: str, tmp_path: Path) -> None:
    """A repository's .gitignore (or .git/info/exclude) that is a FIFO once blocked the search
    for ever, and one that is a link to /dev/zero read without end: neither is read."""
    (tmp_path / ".git" / "info").mkdir(parents=True)
    (tmp_path / "a.log").write_text("x\n", encoding="utf-8")
    for odd in (tmp_path / ".gitignore", tmp_path / ".git" / "info" / "exclude"):
        if kind == "fifo":
            os.mkfifo(odd)
        else:
            odd.symlink_to("/dev/zero")
    script = ("import sys; from kcref.files.discover import search; from kcref.files.excludes import Exclusions; "
              "print([e.path for e in search(sys.argv[1], exclusions=Exclusions())])")
    done = subprocess.run([sys.executable, "-c", script, str(tmp_path)], capture_output=True, text=True, timeout=30,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert done.returncode == 0 and done.stdout == f"{[str(tmp_path / 'a.log')]}\n", done.stderr


def test_the_configuration_excludes_relative_to_its_folder(tmp_path: Path) -> None:
    _tree(tmp_path)
    config = config_from({"exclude": ["scratch/"], "extend-exclude": ["/logs/a.log"], "respect-gitignore": False},
                         str(tmp_path / "kcref.toml"))
    found = sorted(os.path.relpath(e.path, tmp_path) for e in search(str(tmp_path / "logs"),
                                                                     exclusions=config.exclusions()))
    assert "logs/scratch/g.log" not in found and "logs/a.log" not in found and "logs/out/b.log" in found
    assert config.exclusions().gitignore is False and Config().exclusions().gitignore is True


def test_the_schema_file_is_json_an_editor_reads() -> None:
    text = (ROOT / "docs" / "kcref.schema.json").read_text(encoding="utf-8")
    assert json.loads(text)["additionalProperties"] is False


BAD_LOG = '[Players "Ann, Bob"]\nhand 1\nlayout N:9D E:JS S:3C W:KC\nBob:  8S->N;  draw\n'
"""A hand whose first turn is the wrong player's (an error in any check), not in canonical form."""


@pytest.mark.skipif(GIT is None, reason="needs git")
@pytest.mark.parametrize("command", ["check", "score", "fmt", "report"])
def test_every_command_that_searches_folders_passes_over_what_git_ignores(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, command: str) -> None:
    from click.testing import CliRunner

    from kcref.cli import main

    subprocess.run([str(GIT), "init", "-q", str(tmp_path)], check=True)
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "bad.log").write_text(BAD_LOG, encoding="utf-8")
    canonical = CliRunner().invoke(main, ["fmt", str(ROOT / "samples" / "short-classic.log")]).output
    (tmp_path / "good.log").write_text(canonical, encoding="utf-8")
    (tmp_path / ".gitignore").write_text("out/\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    extra = {"report": ["-o", str(tmp_path / "page.html")], "fmt": ["--check"]}.get(command, [])
    statuses = [CliRunner().invoke(main, [command, *flags, *extra, "."]).exit_code
                for flags in ([], ["--no-gitignore"])]
    assert statuses == [0, 1]


def test_check_takes_exclude_and_per_file_ignores_from_the_configuration(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from click.testing import CliRunner

    from kcref.cli import main

    (tmp_path / ".git").mkdir()
    for folder in ("scratch", "old"):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "bad.log").write_text(BAD_LOG, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    runs = []
    for toml in ('exclude = ["scratch/"]\n', 'exclude = ["scratch/"]\n[per-file-ignores]\n"old/" = ["KC3"]\n'):
        (tmp_path / "kcref.toml").write_text(toml, encoding="utf-8")
        result = CliRunner().invoke(main, ["check", "--no-cache", "."])
        runs.append((result.exit_code, "scratch" in result.output, "old/bad.log" in result.output))
    assert runs == [(1, False, True), (0, False, False)]
