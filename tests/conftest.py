"""Fixtures shared by the whole suite."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.util import ROOT


@pytest.fixture
def in_root(monkeypatch: pytest.MonkeyPatch) -> Path:
    """Run the test from the repo root, so paths in output are short and stable."""
    monkeypatch.chdir(ROOT)
    return ROOT
