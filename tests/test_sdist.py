"""The sdist holds what the test suite needs (tests with their data, samples, grammar, docs),
the licence and the pages the package prints; a wheel built from it ships those pages as
package data. Built without isolation (``build`` and ``setuptools>=77`` are in the test extra):
a second or two."""

from __future__ import annotations

import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

from kcref.model.version import VERSION
from tests.util import ROOT

FOLDERS = ("tests", "samples", "grammar", "docs")
"""What the tests read, beside the package."""
TOP = ("LICENSE", "README.md", "pyproject.toml", "MANIFEST.in", ".pre-commit-hooks.yaml")
PAGES = {"rules.md": "docs/rules.md", "codes.md": "docs/codes.md", "grammar.md": "grammar/README.md"}
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


def test_the_sdist_holds_what_the_tests_need(sdist: Path) -> None:
    prefix = f"kcref-{VERSION}/"
    assert sdist.name == f"kcref-{VERSION}.tar.gz"
    with tarfile.open(sdist) as tar:
        members = {m.name.removeprefix(prefix): m for m in tar.getmembers()}
        missing = sorted((needed() | set(TOP)) - set(members))
        assert not missing, missing
        assert not [name for name in members if any(j in name for j in JUNK)]
        for name, source in PAGES.items():
            member = members[f"kcref/output/pages/{name}"]
            assert member.isfile()  # the checkout's symbolic link, copied as the page
            extracted = tar.extractfile(member)
            assert extracted is not None and extracted.read() == (ROOT / source).read_bytes()
        info = tar.extractfile(members["PKG-INFO"])
        assert info is not None
        metadata = info.read().decode("utf-8").splitlines()
    assert f"Version: {VERSION}" in metadata and "License-Expression: MIT" in metadata
    assert "License-File: LICENSE" in metadata


def test_a_wheel_from_the_sdist_ships_the_pages(sdist: Path, tmp_path: Path) -> None:
    with tarfile.open(sdist) as tar:
        tar.extractall(tmp_path, filter="data")
    wheel = build("wheel", tmp_path / f"kcref-{VERSION}", tmp_path / "wheel")
    names = set(zipfile.ZipFile(wheel).namelist())
    assert {f"kcref/output/pages/{name}" for name in PAGES} <= names
    assert f"kcref-{VERSION}.dist-info/licenses/LICENSE" in names
    assert "kcref/output/templates/report.html.j2" in names and "kcref/py.typed" in names


def test_the_license_is_mit() -> None:
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert text.startswith("MIT License\n") and "Copyright (c) the kcref authors" in text
    config = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert 'license = "MIT"' in config and 'version = { attr = "kcref.model.version.VERSION" }' in config
