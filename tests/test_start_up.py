"""Each command imports only what it needs: ``kcref check`` in plain text imports none of the
modules that only other formats or other commands use (xml.sax.saxutils alone pulls in urllib
and http.client)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.util import ROOT

NOT_FOR_TEXT = ("xml.sax.saxutils", "urllib.request", "http.client", "shlex", "kcref.cli.fmt", "kcref.cli.score",
                "kcref.cli.show", "kcref.cli.play", "kcref.render.score_formats", "kcref.apps.fmt",
                "kcref.cli.report", "kcref.apps.report.page", "kcref.apps.report.data", "jinja2", "markupsafe", "openskill",
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
    assert "kcref.render.check_formats" in loaded  # the command did run
    assert not loaded & set(NOT_FOR_TEXT), sorted(loaded & set(NOT_FOR_TEXT))


def test_junit_imports_what_it_needs() -> None:
    loaded = _loaded("check", "--format", "junit", "samples/short-classic.log")
    assert "xml.sax.saxutils" in loaded


def test_report_imports_jinja2_and_openskill_only_itself() -> None:
    """``kcref report`` is the one command that loads the template engine and the ratings."""
    loaded = _loaded("report", "samples/short-classic.log", "-o", "-")
    assert {"jinja2", "openskill", "kcref.apps.report.page"} <= loaded


def test_show_in_text_draws_no_svg() -> None:
    loaded = _loaded("show", "samples/short-classic.log")
    assert "kcref.render.table_view" in loaded
    assert not loaded & {"kcref.render.table_svg", "xml.etree.ElementTree", "jinja2"}


SERVE_ONLY = {"starlette", "uvicorn", "segno", "wsproto", "anyio", "kcref.apps.serve.web"}
"""What only ``kcref serve`` loads (the optional extra ``kcref[serve]``)."""


def test_only_serve_imports_the_server() -> None:
    for args in (("check", "samples/short-classic.log"), ("show", "samples/short-classic.log"), ("--help",),
                 ("serve", "--help")):
        loaded = _loaded(*args)
        assert not loaded & SERVE_ONLY, (args, sorted(loaded & SERVE_ONLY))


def test_serve_without_its_extra_names_it(tmp_path: Path) -> None:
    code = ("import sys\nsys.modules['starlette'] = None\nfrom kcref.cli import run\n"
            f"sys.argv = ['kcref', 'serve', {str(tmp_path / 't.log')!r}]\nrun()")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert result.returncode == 2
    assert "pip install 'kcref[serve]'" in result.stderr
    assert not (tmp_path / "t.log").exists()
