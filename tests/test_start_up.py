"""Each command imports only what it needs: ``kcref check`` in plain text imports none of the
modules that only other formats or other commands use (xml.sax.saxutils alone pulls in urllib
and http.client)."""

from __future__ import annotations

import subprocess
import sys

from tests.util import ROOT

NOT_FOR_TEXT = ("xml.sax.saxutils", "urllib.request", "http.client", "shlex", "kcref.cli.fmt", "kcref.cli.score",
                "kcref.cli.show", "kcref.cli.play", "kcref.output.score_formats", "kcref.output.fmt_report",
                "kcref.cli.report", "kcref.output.report_page", "kcref.output.report_data", "jinja2", "markupsafe", "openskill",
                "xml.etree.ElementTree", "pygls", "lsprotocol", "kcref.apps.lsp.server")
"""Modules that ``kcref check`` on a log without errors, in plain text, does not import."""


def _loaded(*args: str) -> set[str]:
    code = ("import sys\nfrom kcref.cli import main\n"
            f"try:\n    main({list(args)!r}, prog_name='kcref')\nexcept SystemExit:\n    pass\n"
            "print(' '.join(sorted(sys.modules)), file=sys.stderr)")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    return set(result.stderr.split())


def test_check_in_text_imports_only_what_it_uses() -> None:
    loaded = _loaded("check", "samples/short-classic.log")
    assert "kcref.output.check_formats" in loaded  # the command did run
    assert not loaded & set(NOT_FOR_TEXT), sorted(loaded & set(NOT_FOR_TEXT))


def test_junit_imports_what_it_needs() -> None:
    loaded = _loaded("check", "--format", "junit", "samples/short-classic.log")
    assert "xml.sax.saxutils" in loaded


def test_report_imports_jinja2_and_openskill_only_itself() -> None:
    """``kcref report`` is the one command that loads the template engine and the ratings."""
    loaded = _loaded("report", "samples/short-classic.log", "-o", "-")
    assert {"jinja2", "openskill", "kcref.output.report_page"} <= loaded


def test_show_in_text_draws_no_svg() -> None:
    loaded = _loaded("show", "samples/short-classic.log")
    assert "kcref.output.table_view" in loaded
    assert not loaded & {"kcref.output.table_svg", "xml.etree.ElementTree", "jinja2"}
