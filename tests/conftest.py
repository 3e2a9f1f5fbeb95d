"""Fixtures shared by the whole suite."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.util import ROOT


@pytest.fixture
def in_root(monkeypatch: pytest.MonkeyPatch) -> Path:
    """Run the test from the repo root, so paths in output are short and stable."""
    monkeypatch.chdir(ROOT)
    return ROOT

# The suite must not litter the repo with a verdict cache: off for every test and every
# `python -m kcref` it runs (the cache tests turn it on with a folder of their own).
os.environ["KCREF_NO_CACHE"] = "1"


@pytest.fixture(autouse=True, scope="session")
def _secret_outside_home(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """The cache's secret is kept in the user's cache folder: for the suite (and every child it
    runs), one of its own, never the real home's."""
    with pytest.MonkeyPatch.context() as patch:
        folder = tmp_path_factory.mktemp("user-cache")
        patch.setenv("XDG_CACHE_HOME", str(folder))
        patch.setenv("LOCALAPPDATA", str(folder))
        yield
