"""Fuzzing every command and output format in-process: mutated logs give an exit status of
0, 1 or 2, never an exception or a traceback; JSON and JUnit output parse; no raw control
character reaches a terminal stream (the mutators and commands are in tests/fuzzing.py).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.fuzzing import (
    VARIANTS,
    base_logs,
    extra_variants,
    mutate,
    play_problems,
    problems,
    run,
    run_on_log,
    special_problems,
)
from tests.strategies import messy_logs

SETTINGS = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
logs = st.builds(lambda i, seed, n: mutate(base_logs()[i], random.Random(seed), n),
                 st.integers(0, len(base_logs()) - 1), st.integers(0, 2**32 - 1), st.integers(1, 4))


def assert_fine(args: list[str], found: list[str]) -> None:
    assert not found, (args, found)


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    yield tmp_path_factory.mktemp("fuzz")


EXAMPLES = {"check": 400, "score": 400, "fmt": 250, "show": 250}
"""Examples per command: check and score have the most formats and views to cover."""


@pytest.mark.parametrize("command", sorted(EXAMPLES))
def test_every_command_format_and_view(folder: Path, command: str) -> None:
    @settings(SETTINGS, max_examples=EXAMPLES[command])
    @given(logs, st.sampled_from(VARIANTS[command]))
    def run_one(data: bytes, args: list[str]) -> None:
        found, _ = run_on_log(args, data, folder)
        assert_fine(args, found)

    run_one()


@settings(SETTINGS, max_examples=200)
@given(logs, st.sampled_from([["check", "--format", f] for f in ("text", "json", "github", "junit")]
                             + [["score", "--skip-invalid"], ["score", "--format", "json"], ["fmt"],
                                ["fmt", "--check"]]))
def test_standard_input(data: bytes, args: list[str]) -> None:
    result = run([*args, "-"], stdin=data)
    assert_fine(args, problems(args, result))


@settings(SETTINGS, max_examples=150)
@given(messy_logs(), st.sampled_from([v for vs in VARIANTS.values() for v in vs if v[:2] != ["fmt", "--write"]]))
def test_messy_but_valid_writing(folder: Path, sample: tuple[list[object], str], args: list[str]) -> None:
    _, text = sample
    found, result = run_on_log(args, text.encode(), folder)
    assert_fine(args, found)
    if args == ["fmt", "--check"]:
        assert result.exit_code in (0, 1)  # every line reads: never 'cannot read'


@settings(SETTINGS, max_examples=60)
@given(st.integers(0, 2**32 - 1))
def test_rules_and_play(seed: int) -> None:
    args = extra_variants(random.Random(seed))
    assert_fine(args, play_problems(args))


SPECIAL_EXAMPLES = {"report": 40, "record": 60, "cache": 60}
"""Examples per run of several commands: a report page, a log recorded line by line, the cache."""


@pytest.mark.parametrize("kind", sorted(SPECIAL_EXAMPLES))
def test_report_record_and_cache(folder: Path, kind: str) -> None:
    """The report is written whole; what record writes checks clean and resumes; the cache (cold,
    warm, and with its entries mutated on disk) prints what a fresh check prints."""

    @settings(SETTINGS, max_examples=SPECIAL_EXAMPLES[kind])
    @given(logs, st.integers(0, 2**32 - 1))
    def run_one(data: bytes, seed: int) -> None:
        args, found = special_problems(kind, data, folder, random.Random(seed))
        assert_fine(args, found)

    run_one()
