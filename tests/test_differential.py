"""The compiled build gives the output of the pure one, byte for byte, on every log of the samples
and of the tests' cases: what ``check -v --format json``, ``score`` and ``fmt --diff`` print over all
of them is compared with golden files that the pure build wrote (``assert_golden`` refuses to
rewrite them on the compiled build), and CI runs this on both builds (docs/compiled.md).
Regenerate them on the pure build: ``KCREF_UPDATE_GOLDEN=1 python -m pytest tests/test_differential.py``.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from kcref.cli import main
from tests.util import ROOT, assert_golden

LOGS = sorted(p.relative_to(ROOT).as_posix() for folder in ("samples", "tests/cases", "tests/corpus")
              for p in (ROOT / folder).rglob("*.log"))
"""Every log of the samples (the invalid ones too), of the rule, score and assertion cases, and
of the inputs that once crashed kcref."""

COMMANDS = {
    "check": ("check", "-v", "--format", "json"),
    "score": ("score", "--skip-invalid", "--by", "hand", "--format", "csv"),
    "fmt": ("fmt", "--diff"),
}
"""Each command run over all the logs at once, by the name of its golden file."""


def test_the_logs_are_found() -> None:
    assert len(LOGS) > 100 and "samples/classic-night.log" in LOGS and "samples/invalid/typos.log" in LOGS


@pytest.mark.parametrize("name", COMMANDS)
def test_the_output_over_every_log_is_the_pure_builds(name: str, in_root: Path) -> None:
    result = CliRunner().invoke(main, [*COMMANDS[name], *LOGS])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert_golden(ROOT / "tests" / "golden" / f"differential-{name}.txt",
                  f"$ kcref {' '.join(COMMANDS[name])} LOGS\nexit {result.exit_code}\n{result.output}")
