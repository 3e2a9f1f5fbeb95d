"""Fixtures shared by the whole suite."""

from __future__ import annotations

import os
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
