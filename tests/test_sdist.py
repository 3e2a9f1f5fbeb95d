"""The sdist holds what the test suite needs (tests with their data, samples, grammar, docs),
the licence and the pages the package prints; a wheel built from it, or from the checkout, ships
those pages as regular files equal to their one copy in the source tree, which holds no symbolic
link. Built without isolation (``build`` and ``setuptools>=77`` are in the test extra): a second
or two."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

from kcref.model.version import VERSION
from kcref.render.page_files import PAGES
from tests.util import ROOT, needs_source

FOLDERS = ("tests", "samples", "grammar", "docs", "editors")
"""What the tests read, beside the package."""
TOP = ("LICENSE", "README.md", "pyproject.toml", "setup.py", "MANIFEST.in", ".pre-commit-hooks.yaml",
       "kcref/render/page_files.py")
JUNK = ("__pycache__", ".pyc", ".hypothesis", ".pytest_cache")


def build(kind: str, source: Path, out: Path) -> Path:
    subprocess.run([sys.executable, "-m", "build", f"--{kind}", "--no-isolation", "--outdir", str(out), str(source)],
                   check=True, capture_output=True, timeout=120)
    (found,) = out.glob("*.tar.gz" if kind == "sdist" else "*.whl")
    return found


def needed() -> set[str]:
    """The files of FOLDERS: those git tracks in a checkout, else every one on disk (an unpacked sdist)."""
    listed = subprocess.run(["git", "ls-files", "-z", "--", *FOLDERS], cwd=ROOT, capture_output=True)
    if listed.returncode == 0 and listed.stdout:
        return {name for name in listed.stdout.decode().split("\0") if name and (ROOT / name).is_file()}
    return {p.relative_to(ROOT).as_posix() for folder in FOLDERS for p in (ROOT / folder).rglob("*")
            if p.is_file() and not any(j in p.as_posix() for j in JUNK)}


@pytest.fixture(scope="module")
def sdist(tmp_path_factory: pytest.TempPathFactory) -> Path:
    pytest.importorskip("build", reason="pip install '.[test]' installs build")
    return build("sdist", ROOT, tmp_path_factory.mktemp("dist"))


@needs_source
def test_the_sdist_holds_what_the_tests_need(sdist: Path) -> None:
    prefix = f"kcref-{VERSION}/"
    assert sdist.name == f"kcref-{VERSION}.tar.gz"
    with tarfile.open(sdist) as tar:
        members = {m.name.removeprefix(prefix): m for m in tar.getmembers()}
        missing = sorted((needed() | set(TOP)) - set(members))
        assert not missing, missing
        assert not [name for name in members if any(j in name for j in JUNK)]
        assert not [m.name for m in tar.getmembers() if m.issym() or m.islnk()]
        for source in PAGES.values():
            assert members[source].isfile()
        info = tar.extractfile(members["PKG-INFO"])
        assert info is not None
        metadata = info.read().decode("utf-8").splitlines()
    assert f"Version: {VERSION}" in metadata and "License-Expression: MIT" in metadata
    assert "License-File: LICENSE" in metadata


def assert_ships_the_pages(wheel: Path) -> None:
    """The wheel holds each page as a regular file, byte for byte its source, and no link."""
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        for name, source in PAGES.items():
            info = archive.getinfo(f"kcref/render/pages/{name}")
            assert not stat.S_ISLNK(info.external_attr >> 16), name
            assert archive.read(info) == (ROOT / source).read_bytes(), name
        assert not [i.filename for i in archive.infolist() if stat.S_ISLNK(i.external_attr >> 16)]
    assert f"kcref-{VERSION}.dist-info/licenses/LICENSE" in names
    assert "kcref/apps/report/templates/report.html.j2" in names and "kcref/py.typed" in names
    assert {f"kcref/apps/serve/static/{name}" for name in ("index.html", "serve.js", "serve.css")} <= names


@needs_source
def test_a_wheel_from_the_sdist_ships_the_pages(sdist: Path, tmp_path: Path) -> None:
    with tarfile.open(sdist) as tar:
        tar.extractall(tmp_path, filter="data")
    assert_ships_the_pages(build("wheel", tmp_path / f"kcref-{VERSION}", tmp_path / "wheel"))


@needs_source
def test_a_wheel_from_the_checkout_ships_the_pages(tmp_path: Path) -> None:
    pytest.importorskip("build", reason="pip install '.[test]' installs build")
    source = tmp_path / "source"
    tracked = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True)
    if tracked.returncode != 0 or not tracked.stdout:
        pytest.skip("not a git checkout")
    for name in tracked.stdout.decode().split("\0"):
        if name and not name.startswith(("tests/", "samples/", "bench/", "examples/")) and (ROOT / name).is_file():
            (source / name).parent.mkdir(parents=True, exist_ok=True)
            (source / name).write_bytes((ROOT / name).read_bytes())
    assert_ships_the_pages(build("wheel", source, tmp_path / "wheel"))


@needs_source
def test_the_package_holds_no_symbolic_link() -> None:
    """A clone without symbolic links (core.symlinks false, as on Windows) gets the same package."""
    links = [str(Path(top, name).relative_to(ROOT)) for top, dirs, files in os.walk(ROOT / "kcref")
             for name in dirs + files if stat.S_ISLNK(os.lstat(Path(top, name)).st_mode)]
    assert not links, links
    listed = subprocess.run(["git", "ls-files", "-s", "--", "kcref"], cwd=ROOT, capture_output=True, text=True)
    assert not [line for line in listed.stdout.splitlines() if line.startswith("120000 ")]


def test_the_license_is_mit() -> None:
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert text.startswith("MIT License\n") and "Copyright (c) the kcref authors" in text
    config = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert 'license = "MIT"' in config and 'version = { attr = "kcref.model.version.VERSION" }' in config
