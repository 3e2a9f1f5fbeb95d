"""Shared test helpers: the repo root, and golden files that can be regenerated on purpose."""

from __future__ import annotations

import os
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
UPDATE = os.environ.get("KCREF_UPDATE_GOLDEN") == "1"


def assert_golden(path: Path, actual: str) -> None:
    """Compare ``actual`` with the golden file exactly; with KCREF_UPDATE_GOLDEN=1, rewrite it."""
    if UPDATE:
        path.write_text(actual, encoding="utf-8")
        return
    assert path.exists(), f"missing golden file {path} (run with KCREF_UPDATE_GOLDEN=1 to create it)"
    assert actual == path.read_text(encoding="utf-8")
