"""`kcref check` for CI and the shell: directories, --jobs, --quiet, --strict, GitHub, JUnit."""

from __future__ import annotations

import shutil
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from click.testing import CliRunner

from kcref.cli import main
from kcref.model.codes import Severity
from kcref.model.diagnostics import Diagnostic
from kcref.render.diagnostic_lines import format_github
from tests.util import ROOT, assert_golden


def run(*args: str, env: dict[str, str] | None = None) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args), env=env)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.output


@pytest.fixture
def nights(tmp_path: Path) -> Path:
    """A folder of logs as a club keeps them: good nights, a bad one, and files to ignore."""
    (tmp_path / "2026" / ".git").mkdir(parents=True)
    for name in ("classic-night.log", "commercial-night.log"):
        shutil.copy(ROOT / "samples" / name, tmp_path / "2026" / name)
    shutil.copy(ROOT / "samples" / "family-night.log", tmp_path / "family.kc")
    shutil.copy(ROOT / "samples" / "invalid" / "illegal-plays.log", tmp_path / "2026" / "z-bad.log")
    (tmp_path / "notes.txt").write_text("not a log", encoding="utf-8")
    (tmp_path / "2026" / ".git" / "x.log").write_text("junk", encoding="utf-8")
    return tmp_path


def checked(out: str) -> list[str]:
    return sorted({line.split(":", 1)[0] for line in out.splitlines() if ":" in line and "error KC" in line})


def test_directories_are_searched(nights: Path) -> None:
    code, out = run("check", "--no-source", str(nights))
    assert code == 1
    assert out.splitlines()[-1].startswith("4 files, 15 hands, 4 errors")
    assert checked(out) == [str(nights / "2026" / "z-bad.log")]
    code, out = run("check", "--no-source", "--glob", "*.kc", str(nights))
    assert code == 0 and out.splitlines()[-1].startswith("1 file, 4 hands, 0 errors")


def test_no_logs_found_is_usage(tmp_path: Path) -> None:
    code, out = run("check", str(tmp_path))
    assert code == 2 and "no log files found" in out
    (tmp_path / "empty").mkdir()
    good = str(ROOT / "samples" / "classic-night.log")
    code, out = run("check", good, str(tmp_path / "empty"))
    assert code == 2 and f"no log files found in {tmp_path / 'empty'}" in out


def test_control_characters_never_reach_the_terminal(tmp_path: Path) -> None:
    log = tmp_path / "esc.log"
    log.write_bytes(b'[Players "Ann, Bob"]\nhand 1\nlayout N:8H E:7C S:KD W:9S\nBob: pa\x1b[2Jss\n')
    code, out = run("check", str(log))
    assert code == 1 and "\x1b" not in out
    assert "found 'pa\ufffd'" in out and "    Bob: pa\ufffd[2Jss\n         ^" in out
    code, out = run("check", "--format", "github", str(log))
    assert "\x1b" not in out


def test_jobs_keep_the_order(nights: Path) -> None:
    one = run("check", str(nights))
    two = run("check", "--jobs", "2", str(nights))
    assert one == two
    assert run("check", "--jobs", "2", "--format", "json", str(nights)) == run("check", "--format", "json", str(nights))


def test_quiet_and_strict(in_root: Path) -> None:
    code, out = run("check", "--quiet", "samples/commercial-night.log", "samples/invalid/no-hand.log")
    assert code == 0 and out == ""
    code, out = run("check", "--quiet", "--strict", "--no-source", "samples/invalid/no-hand.log")
    assert code == 1 and out == "samples/invalid/no-hand.log:2:1: warning KC004 the file holds no hand (a hand starts with a 'hand' line)\n"
    code, out = run("check", "--quiet", "--no-source", "samples/invalid/illegal-plays.log")
    assert code == 1 and len(out.splitlines()) == 4 and all(" error KC3" in line for line in out.splitlines())


def test_github_is_the_default_on_github_actions(in_root: Path) -> None:
    code, out = run("check", "samples/invalid/illegal-plays.log", env={"GITHUB_ACTIONS": "true"})
    assert code == 1
    lines = out.splitlines()
    assert lines[0] == "::group::kcref check samples/invalid/illegal-plays.log"
    assert lines[-2] == "::endgroup::" and lines[-1].startswith("1 file, 4 hands, 4 errors")
    assert sum(line.startswith("::error file=") for line in lines) == 4


def test_github_escaping() -> None:
    d = Diagnostic("a,b:c%.log", 3, 4, Severity.ERROR, "KC301", "50% done\r\nnext: line, end")
    assert format_github(d) == ("::error file=a%2Cb%3Ac%25.log,line=3,col=4,title=KC301::"
                                "50%25 done%0D%0Anext: line, end")
    note = Diagnostic("x.log", 1, 1, Severity.INFO, "KC401", "pays 1 chip")
    assert format_github(note).startswith("::notice ")


def test_junit(in_root: Path) -> None:
    code, out = run("check", "--format", "junit", "samples/invalid/illegal-plays.log",
                    "samples/commercial-night.log", "samples/invalid/tags.log")
    assert code == 1
    assert_golden(ROOT / "tests" / "golden" / "check-junit.txt", out)
    root = ET.fromstring(out)
    suites = root.findall("testsuite")
    assert [s.get("name") for s in suites] == ["samples/invalid/illegal-plays.log",
                                               "samples/commercial-night.log", "samples/invalid/tags.log"]
    assert [(s.get("tests"), s.get("failures")) for s in suites] == [("4", "4"), ("3", "0"), ("2", "1")]
    assert all(len(s.findall("testcase")) == int(s.get("tests") or 0) for s in suites)


def test_progress_bar_on_a_terminal(nights: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import kcref.cli.check

    for i in range(10):
        shutil.copy(ROOT / "samples" / "short-classic.log", nights / f"extra-{i}.log")
    plain = CliRunner().invoke(main, ["check", str(nights)])
    assert "checking" not in plain.stderr
    monkeypatch.setattr(kcref.cli.check, "stderr_is_terminal", lambda: True)
    with_bar = CliRunner().invoke(main, ["check", str(nights)])
    assert "checking" in with_bar.stderr
    assert with_bar.stdout == plain.stdout and with_bar.exit_code == plain.exit_code == 1


ILLEGAL = str(ROOT / "samples" / "invalid" / "illegal-plays.log")


def test_exit_zero_passes_errors_but_not_unreadable_files(tmp_path: Path) -> None:
    code, out = run("check", ILLEGAL, "--exit-zero")
    assert code == 0 and "error KC301" in out
    assert run("check", ILLEGAL)[1] == out
    assert run("check", str(tmp_path / "missing.log"), "--exit-zero")[0] == 2


def test_output_file_holds_what_standard_output_would(tmp_path: Path) -> None:
    target = tmp_path / "results.json"
    code, out = run("check", ILLEGAL, "--format", "json", "--output-file", str(target))
    assert code == 1 and out == ""
    assert target.read_text(encoding="utf-8") == run("check", ILLEGAL, "--format", "json")[1]
    missing = tmp_path / "no" / "such" / "folder.txt"
    code, out = run("check", ILLEGAL, "-o", str(missing))
    assert (code, out) == (2, f"kcref check: cannot write {missing}: No such file or directory\n")
    assert list(tmp_path.iterdir()) == [target]


def test_junit_quiet_is_the_same_with_worker_processes(tmp_path: Path) -> None:
    """A warning --quiet hides, before the first hand, still opens that case in both ways of
    checking: workers send junit every diagnostic, as a streamed check hands it every one."""
    text = (ROOT / "samples" / "short-classic.log").read_text(encoding="utf-8")
    log = tmp_path / "a.log"
    log.write_text(text.replace('[Players "Ann, Bob"]', '[Players "Ann, Bob"]  # kcref: ignore[KC201]'),
                   encoding="utf-8")
    other = tmp_path / "b.log"
    other.write_text(text, encoding="utf-8")
    outs = [run("check", "--no-cache", "--quiet", "--format", "junit", "--jobs", jobs, str(log), str(other))
            for jobs in ("1", "2")]
    assert outs[0] == outs[1]
    assert 'name="before the first hand"' in outs[0][1]
