"""Exact CLI output for the invalid samples (expectations beside each sample) and each format."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from kcref.cli import main
from kcref.model.version import build
from tests.util import ROOT, assert_golden

INVALID = sorted((ROOT / "samples" / "invalid").glob("*.log"))


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.output


@pytest.mark.parametrize("sample", INVALID, ids=lambda p: p.name)
def test_invalid_sample_text_output(sample: Path, in_root: Path) -> None:
    code, out = run("check", str(sample.relative_to(ROOT)))
    assert_golden(sample.with_suffix(".expected"), out)
    has_errors = " error KC" in out
    assert code == (1 if has_errors else 0)


@pytest.mark.parametrize("fmt", ["json", "github", "sarif", "gitlab"])
def test_formats(fmt: str, in_root: Path) -> None:
    code, out = run("check", "--format", fmt, "samples/invalid/typos.log", "samples/invalid/no-hand.log")
    assert code == 1
    assert_golden(ROOT / "tests" / "golden" / f"check-{fmt}.txt", out)


def test_many_files_in_order(in_root: Path) -> None:
    code, out = run("check", "--no-source", "samples/invalid/no-hand.log", "samples/invalid/no-players.log")
    assert code == 1
    assert out.index("no-hand.log") < out.index("no-players.log")
    assert out.splitlines()[-1] == "2 files, 1 hand, 1 error, 1 warning, 0 penalties, 0 notes"


def test_usage_errors_exit_2(in_root: Path) -> None:
    assert run("check")[0] == 2
    assert run("check", "--format", "xml", "samples/invalid/typos.log")[0] == 2
    assert run("nonsense")[0] == 2


def test_stdin(in_root: Path) -> None:
    text = (ROOT / "samples" / "invalid" / "no-players.log").read_bytes()
    result = CliRunner().invoke(main, ["check", "--no-source", "-"], input=text)
    assert result.exit_code == 1
    assert result.output.startswith("<stdin>:1:1: error KC201 ")


def test_help_has_examples() -> None:
    for cmd in ([], ["check"], ["fmt"]):
        code, out = run(*cmd, "--help")
        assert code == 0 and "Examples:" in out


def test_version() -> None:
    from kcref import __version__

    code, out = run("--version")
    assert code == 0 and out.strip() == f"kcref, version {__version__} ({build()})"
