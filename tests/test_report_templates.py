"""The report's templates are compiled once, into a private folder of the user's cache, and the
page made from that cache is the page made without it; a folder that is not private is not used."""

from __future__ import annotations

import os
import stat
import sys
from pathlib import Path

import pytest

from kcref.apps.report.page import _template_cache, build_report
from kcref.files.inputs import resolve
from kcref.files.user_cache import private_folder
from tests.util import ROOT

LOG = ROOT / "samples" / "commercial-night.log"


def _page() -> str:
    return build_report(resolve([str(LOG)])).html


def test_the_templates_are_compiled_once_and_the_page_is_the_same(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setenv("LOCALAPPDATA", str(tmp_path))
    folder = tmp_path / "kcref" / "templates"
    first = _page()
    kept = sorted(folder.iterdir())
    assert len(kept) == 2 and all(p.name.startswith("kcref-") and p.suffix == ".cache" for p in kept)
    if sys.platform != "win32":
        assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    stamps = [p.stat().st_mtime_ns for p in kept]
    assert _page() == first
    assert [p.stat().st_mtime_ns for p in kept] == stamps  # read, not written again


@pytest.mark.skipif(not hasattr(os, "geteuid"), reason="POSIX modes and owners")
def test_a_folder_open_to_others_or_a_link_is_not_used(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    (tmp_path / "kcref").mkdir()
    open_folder = tmp_path / "kcref" / "templates"
    open_folder.mkdir(mode=0o777)
    open_folder.chmod(0o777)
    assert private_folder(os.environ, "templates") is None and _template_cache() is None
    open_folder.rmdir()
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir(mode=0o700)
    open_folder.symlink_to(elsewhere)
    assert private_folder(os.environ, "templates") is None
    _page()
    assert list(elsewhere.iterdir()) == []


def test_a_cache_that_cannot_be_written_is_passed_over(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The folder gone between finding it and writing to it: the page is made all the same."""
    import kcref.apps.report.page as page

    monkeypatch.setattr(page, "private_folder", lambda environ, name: str(tmp_path / "gone"))
    assert _page().startswith("<!DOCTYPE html>")
    assert not (tmp_path / "gone").exists()
