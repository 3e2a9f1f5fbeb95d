"""Colour: ``kcref check`` colours severities and codes (``--color auto|always|never``), ``kcref
show`` its red cards; both honour NO_COLOR and FORCE_COLOR; a log's own escapes never pass."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from kcref.cli import main
from kcref.cli.common import wants_colour
from tests.util import ROOT

BAD = '[Players "Ann, Bob"]\nhand 1\nlayout N:9D E:JS S:3C W:KC\nBob: 8S->N; draw  # \x1b[32mgreen\n'
ESC = "\x1b["


@pytest.mark.parametrize(("choice", "terminal", "environ", "wanted"), [
    ("auto", True, {}, True), ("auto", False, {}, False), ("auto", True, {"NO_COLOR": "1"}, False),
    ("auto", False, {"FORCE_COLOR": "1"}, True), ("auto", True, {"NO_COLOR": "1", "FORCE_COLOR": "1"}, False),
    ("auto", True, {"NO_COLOR": ""}, True), ("always", False, {"NO_COLOR": "1"}, True),
    ("never", True, {"FORCE_COLOR": "1"}, False)])
def test_when_to_colour(choice: str, terminal: bool, environ: dict[str, str], wanted: bool) -> None:
    assert wants_colour(choice, terminal, environ) is wanted


def _check(*args: str, env: dict[str, str] | None = None) -> str:
    return CliRunner().invoke(main, ["check", "--no-cache", *args, "-"], input=BAD, env=env).output


def test_check_colours_the_severity_and_the_code_and_nothing_of_the_log() -> None:
    plain = _check()
    assert ESC not in plain  # not a terminal
    coloured = _check("--color", "always")
    assert "\x1b[31m\x1b[1merror\x1b[0m \x1b[1mKC310\x1b[0m" in coloured
    # The location, the severity and the code, each styled and reset: kcref's own escapes, never the log's.
    assert coloured.count(ESC) == 7 and "\x1b[32m" not in coloured
    assert _check(env={"FORCE_COLOR": "1"}) == coloured
    assert _check(env={"FORCE_COLOR": "1", "NO_COLOR": "1"}) == plain
    assert _check("--color", "never", env={"FORCE_COLOR": "1"}) == plain


def test_show_honours_force_color() -> None:
    log = str(ROOT / "samples" / "commercial-night.log")
    plain = CliRunner().invoke(main, ["show", log]).output
    forced = CliRunner().invoke(main, ["show", log], env={"FORCE_COLOR": "1"}).output
    assert ESC not in plain and "\x1b[31m" in forced
    assert CliRunner().invoke(main, ["show", "--color", "never", log], env={"FORCE_COLOR": "1"}).output == plain
