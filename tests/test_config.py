"""Configuration files (kcref.toml, pyproject.toml's [tool.kcref]) and --select/--ignore."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from kcref.cli import main
from kcref.files.config import KEYS, Config, ConfigError, Finder, load
from tests.util import ROOT

HAND = '[Players "Ann, Bob"]\nhand 1\nlayout N:9D E:JS S:3C W:KC\n'
DRAW_LAST = HAND + "Ann: 8S->N; draw\n"
"""Fine under classic rules (a KC501 warning: unfinished); KC314 where the draw comes first."""


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.output


def codes(out: str) -> list[str]:
    return re.findall(r"^\S+:\d+:\d+: \w+ (KC\d+)", out, re.MULTILINE)


@pytest.fixture
def tree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """club/kcref.toml, club/night/x.log, club/inner/{pyproject.toml, y.log}; run from tmp_path."""
    (tmp_path / "club" / "night").mkdir(parents=True)
    (tmp_path / "club" / "inner").mkdir()
    (tmp_path / "club" / "night" / "x.log").write_text(DRAW_LAST, encoding="utf-8")
    (tmp_path / "club" / "inner" / "y.log").write_text(DRAW_LAST, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_no_config_changes_nothing(tree: Path) -> None:
    assert run("check", "club/night/x.log") == run("check", "--isolated", "club/night/x.log")
    status, out = run("check", "club/night/x.log")
    assert status == 0 and "KC501" in out


def test_closest_file_wins_and_options_are_defaults(tree: Path) -> None:
    (tree / "club" / "kcref.toml").write_text('[options]\nDraw = "start"\n', encoding="utf-8")
    (tree / "club" / "inner" / "pyproject.toml").write_text('[tool.kcref]\nignore = ["KC5"]\n', encoding="utf-8")
    status, out = run("check", "club/night/x.log", "club/inner/y.log")
    assert status == 1
    assert "club/night/x.log:4:6: error KC314" in out  # club/kcref.toml: the draw comes first
    assert "club/inner/y.log" not in out  # the closest file only: no Draw option, KC501 ignored
    assert "2 files, 2 hands, 1 error, 0 warnings" in out


def test_kcref_toml_before_pyproject_and_pyproject_without_table_does_not_count(tree: Path) -> None:
    inner = tree / "club" / "inner"
    (tree / "club" / "kcref.toml").write_text('ignore = ["KC501"]\n', encoding="utf-8")
    (inner / "pyproject.toml").write_text('[project]\nname = "x"\n[tool.other]\nkcref = 1\n', encoding="utf-8")
    assert "KC501" not in run("check", "club/inner/y.log")[1]  # the pyproject has no [tool.kcref]: club's
    (inner / "pyproject.toml").write_text('[tool.kcref]\nselect = ["KC5"]\n', encoding="utf-8")
    assert "KC501" in run("check", "club/inner/y.log")[1]
    (inner / "kcref.toml").write_text('select = ["KC3"]\n', encoding="utf-8")
    assert "KC501" not in run("check", "club/inner/y.log")[1]  # kcref.toml first
    assert "KC502" not in run("check", "club/inner/y.log")[1]


def test_a_log_tag_wins_over_the_file(tree: Path) -> None:
    (tree / "club" / "kcref.toml").write_text('rules = "family"\n', encoding="utf-8")
    assert "KC323" in run("check", "club/night/x.log")[1]  # family: a layout King goes to a corner
    (tree / "club" / "night" / "x.log").write_text('[Rules "classic"]\n' + DRAW_LAST, encoding="utf-8")
    status, out = run("check", "club/night/x.log")
    assert status == 0 and "KC323" not in out


def test_config_and_isolated(tree: Path) -> None:
    (tree / "club" / "kcref.toml").write_text('ignore = ["KC5"]\n', encoding="utf-8")
    (tree / "other.toml").write_text('select = ["KC502"]\n', encoding="utf-8")
    # One file for all, not merged with the one found: KC502 is selected, and not ignored.
    assert codes(run("check", "--config", "other.toml", "club/night/x.log")[1]) == ["KC502"]
    assert "KC501" in run("check", "--isolated", "club/night/x.log")[1]
    assert "KC501" not in run("check", "club/night/x.log")[1]
    status, out = run("check", "--isolated", "--config", "other.toml", "club/night/x.log")
    assert status == 2 and "not both" in out


def test_global_keys_come_from_the_working_folder(tree: Path) -> None:
    (tree / "kcref.toml").write_text('format = "json"\nstrict = true\njobs = 2\nglob = ["*.txt"]\n',
                                     encoding="utf-8")
    (tree / "club" / "night" / "z.txt").write_text(DRAW_LAST, encoding="utf-8")
    status, out = run("check", "club/night")
    assert status == 1  # strict: the KC501 warning fails
    assert '"path": "club/night/z.txt"' in out and "x.log" not in out
    status, out = run("check", "--format", "text", "--glob", "*.log", "club/night")
    assert status == 1 and out.startswith("club/night/x.log:2:1: warning KC501")


@pytest.mark.parametrize(("text", "words"), [
    ('ignor = ["KC5"]\n', ["unknown key 'ignor'", "did you mean 'ignore'"]),
    ('select = "KC9"\n', ["select:", "'KC9' is not a code"]),
    ('strict = "yes"\n', ["strict: expected true or false, not a string"]),
    ("jobs = 0\n", ["jobs: expected a whole number from 1 up"]),
    ('rules = "clasic"\n', ["rules:", "did you mean 'classic'"]),
    ('[options]\nDraww = "start"\n', ["options:", "unknown option 'Draww'", "did you mean 'Draw'"]),
    ('[options]\nDraw = "never"\n', ["options: Draw 'never': expected one of"]),
    ('format = "jsno"\n', ["format: unknown format 'jsno'", "did you mean 'json'"]),
    ("select = [\n", ["not valid TOML"]),
])
def test_a_bad_file_is_an_error_naming_the_key_and_the_file(tree: Path, text: str, words: list[str]) -> None:
    (tree / "club" / "kcref.toml").write_text(text, encoding="utf-8")
    if "format" in text:
        (tree / "kcref.toml").write_text(text, encoding="utf-8")
    status, out = run("check", "club/night/x.log")
    assert status == 2
    assert "kcref.toml: " in out
    for word in words:
        assert word in out


def test_select_ignore_extend_ignore_on_the_command_line(tree: Path) -> None:
    log = "club/night/x.log"
    assert codes(run("check", log)[1]) == ["KC501", "KC502"]
    assert codes(run("check", "--select", "KC502", log)[1]) == ["KC502"]
    assert codes(run("check", "--select", "KC3,kc501", log)[1]) == ["KC501"]
    assert codes(run("check", "--ignore", "KC501", "--ignore", "KC502", log)[1]) == []
    (tree / "club" / "kcref.toml").write_text('ignore = ["KC501"]\n', encoding="utf-8")
    assert codes(run("check", log)[1]) == ["KC502"]
    assert codes(run("check", "--ignore", "KC502", log)[1]) == ["KC501"]  # --ignore replaces the file's
    assert codes(run("check", "--extend-ignore", "KC502", log)[1]) == []  # --extend-ignore adds to it
    status, out = run("check", "--ignore", "KC6,KC99", log)
    assert status == 2 and "'KC99' is not a code" in out


def test_ignored_errors_are_not_counted_and_do_not_fail(tree: Path) -> None:
    (tree / "club" / "kcref.toml").write_text('[options]\nDraw = "start"\n', encoding="utf-8")
    status, out = run("check", "--ignore", "KC314", "club/night/x.log")
    assert status == 0 and "KC314" not in out and "0 errors" in out
    status, out = run("check", "--jobs", "2", "--ignore", "KC314", "club/night/x.log", "club/night/x.log")
    assert status == 0 and "0 errors" in out


def test_a_file_that_cannot_be_read_is_always_reported(tree: Path) -> None:
    status, out = run("check", "--ignore", "KC0", "missing.log")
    assert status == 2 and "KC001" in out
    (tree / "club" / "night" / "bin.log").write_bytes(b"\x00\x01")
    status, out = run("check", "--select", "KC3", "club/night/bin.log")
    assert status == 2 and "KC003" in out


def test_completion_of_codes() -> None:
    from kcref.cli.check import complete_codes

    assert [c.value for c in complete_codes(None, None, "kc21")][:2] == ["KC210", "KC211"]  # type: ignore[arg-type]
    assert next(c.value for c in complete_codes(None, None, "KC2,KC30")) == "KC2,KC301"  # type: ignore[arg-type]


def test_keys_table_matches_the_dataclass() -> None:
    fields = {f for f in Config._fields if f != "path"}
    assert {k.field for k in KEYS.values()} == fields


def test_finder_asks_each_folder_once(tree: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[str] = []
    real = Finder._file_in
    monkeypatch.setattr(Finder, "_file_in", staticmethod(lambda folder: asked.append(folder) or real(folder)))
    finder = Finder()
    for _ in range(3):
        finder.for_path("club/night/x.log")
        finder.for_path("club/inner/y.log")
    assert len(asked) == len(set(asked))


def test_load_pyproject(tmp_path: Path) -> None:
    path = tmp_path / "pyproject.toml"
    path.write_text('[tool]\nkcref = { rules = "commercial" }\n', encoding="utf-8")
    assert load(str(path)) == Config(path=str(path), rules="commercial")
    path.write_text('tool = { kcref = { rules = "family" } }\n', encoding="utf-8")
    assert load(str(path)) == Config(path=str(path), rules="family")
    path.write_text('[tool.mypy]\nstrict = true\n[tool.ruff]\nsrc = ["kcref"]\n', encoding="utf-8")
    assert load(str(path)) is None
    path.write_text('[tool.kcref]\nrules = 3\n', encoding="utf-8")
    with pytest.raises(ConfigError, match="rules: expected a string, not an integer"):
        load(str(path))


def test_a_check_without_config_imports_no_toml_parser(tmp_path: Path) -> None:
    log = tmp_path / "x.log"
    log.write_text(DRAW_LAST, encoding="utf-8")
    code = ("import sys\nfrom kcref.cli import main\n"
            f"try:\n    main(['check', {str(log)!r}], prog_name='kcref')\nexcept SystemExit:\n    pass\n"
            "print(' '.join(sorted(sys.modules)), file=sys.stderr)")
    env = {"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin", "KCREF_NO_CACHE": "1"}
    # From the repo root: its pyproject.toml has no [tool.kcref] table, and is not parsed to learn so.
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, env=env)
    loaded = set(result.stderr.split())
    assert "kcref.files.config" in loaded
    assert not loaded & {"tomllib", "tomli"}
    (tmp_path / "kcref.toml").write_text('ignore = ["KC5"]\n', encoding="utf-8")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path, env=env)
    assert "tomllib" in result.stderr.split() or "tomli" in result.stderr.split()


def test_score_takes_the_rules_and_options_only(tree: Path) -> None:
    shutil.copy(ROOT / "samples" / "short-classic.log", tree / "club" / "night" / "x.log")
    plain = run("score", "club/night/x.log")
    assert plain[0] == 0 and "Scoring: none" in plain[1]
    (tree / "club" / "kcref.toml").write_text('select = ["KC3"]\n[options]\nScoring = "penalty"\n', encoding="utf-8")
    status, out = run("score", "club/night/x.log")
    assert status == 0 and 'Scoring "penalty"' in out and "lowest total wins" in out
    assert run("score", "--isolated", "club/night/x.log") == plain
    (tree / "club" / "night" / "x.log").write_text(DRAW_LAST.replace("8S->N", "8D->N"), encoding="utf-8")
    (tree / "club" / "kcref.toml").write_text('ignore = ["KC3"]\n', encoding="utf-8")
    status, out = run("score", "club/night/x.log")
    assert status == 1 and "KC301" in out  # ignored by check, never by score
    (tree / "club" / "kcref.toml").write_text('rules = "nope"\n', encoding="utf-8")
    status, out = run("score", "club/night/x.log")
    assert status == 2 and "kcref.toml: rules: unknown rules preset 'nope'" in out


def test_the_command_line_wins_and_files_are_named_as_found(tree: Path) -> None:
    (tree / "club" / "kcref.toml").write_text("strict = true\n", encoding="utf-8")
    (tree / "kcref.toml").write_text("strict = true\n", encoding="utf-8")
    assert run("check", "club/night/x.log")[0] == 1  # strict: the KC501 warning fails
    assert run("check", "--no-strict", "club/night/x.log")[0] == 0
    (tree / "club" / "kcref.toml").write_text("strict = 1\n", encoding="utf-8")
    status, out = run("check", "club/night/x.log")
    assert status == 2 and out.startswith("kcref check: club/kcref.toml: strict: expected true or false")
    status, out = run("check", "--config", "missing.toml", "club/night/x.log")
    assert status == 2 and "missing.toml: cannot read" in out
    (tree / "pyproject.toml").write_text('[project]\nname = "x"\n', encoding="utf-8")
    status, out = run("check", "--config", "pyproject.toml", "club/night/x.log")
    assert status == 2 and "pyproject.toml: holds no [tool.kcref] table" in out


def test_a_hostile_key_or_value_is_shown_safely(tree: Path) -> None:
    (tree / "club" / "kcref.toml").write_text('"\\u202e\\u001b[2J" = 1\n', encoding="utf-8")
    status, out = run("check", "club/night/x.log")
    assert status == 2 and "unknown key" in out
    assert "\u202e" not in out and "\x1b" not in out
    (tree / "kcref.toml").write_text('format = "\\u001b[2Jx"\n', encoding="utf-8")
    status, out = run("check", "club/night/x.log")
    assert status == 2 and "format: unknown format" in out and "\x1b" not in out
