"""Properties of the verdict cache. Whatever the log, a check through the cache, cold then warm,
prints what a fresh check prints. Whatever anyone without the user's secret makes of an entry,
it is ignored: the run prints what a fresh check prints. An entry that kcref signed over what a
check found reproduces that check, whatever else it holds. And a signed entry of any shape never
crashes a run nor puts a raw control character on its output."""

from __future__ import annotations

import json
import random
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from click.testing import CliRunner
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from kcref.cli import main
from kcref.files.cache import Cache
from tests.fuzzing import base_logs, mutate, problems
from tests.util import working_directory

SETTINGS = settings(max_examples=30, deadline=None)
RUNS = [[], ["-v"], ["--quiet"], ["--format", "sarif"], ["--format", "github"], ["--format", "json"],
        ["--format", "junit"], ["--statistics"], ["-j", "2"], ["--no-source"]]

UNKNOWN_CODE = "KC" + "999"  # spelled so that tests/test_codes.py does not take it for an expectation

logs = st.one_of(
    st.builds(lambda log, seed, n: mutate(log, random.Random(seed), n),
              st.sampled_from(base_logs()), st.integers(0, 2 ** 32), st.integers(0, 3)),
    st.text(max_size=200).map(lambda text: text.encode("utf-8", "surrogatepass")),
    st.binary(max_size=100),
)
runs = st.sampled_from(RUNS)
json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-2 ** 70, 2 ** 70) | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=8)


@contextmanager
def _night(log: bytes) -> Iterator[Path]:
    """A working folder of its own, holding ``night.log``; its cache folder."""
    with tempfile.TemporaryDirectory() as temp, working_directory(Path(temp)):
        Path("night.log").write_bytes(log)
        yield Path(temp) / ".kcref_cache"


def _check(args: list[str], cache: bool = True) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, ["check", *args, *([] if cache else ["--no-cache"]), "night.log"],
                                env={"KCREF_NO_CACHE": None, "GITHUB_ACTIONS": None, "NO_COLOR": None})
    assert problems(["check", *args], result) == []
    return result.exit_code, result.stdout, result.stderr


def _entry(folder: Path) -> Path | None:
    found = [p for p in folder.iterdir() if p.name not in ("CACHEDIR.TAG", ".gitignore")] if folder.is_dir() else []
    return found[0] if found else None


def _parts(data: bytes) -> tuple[bytes, bytes]:
    """An entry's signature line (empty if it has none) and its body."""
    if data.startswith(b"kcref-cache"):
        head, newline, body = data.partition(b"\n")
        return head + newline, body
    return b"", data


@SETTINGS
@given(logs, runs)
def test_any_log_prints_the_same_through_the_cache(log: bytes, args: list[str]) -> None:
    with _night(log):
        fresh = _check(args, cache=False)
        assert _check(args) == fresh  # cold: checked, and kept
        assert _check(args) == fresh  # warm: from the cache


def _mutated(data: bytes, draw: st.DrawFn) -> bytes:
    """An entry's bytes, changed as anyone may change them: without the secret."""
    head, body = _parts(data)
    how = draw(st.sampled_from(["flip", "cut", "insert", "body", "mac", "anything"]))
    if how == "flip":
        at = draw(st.integers(0, len(data) - 1))
        return data[:at] + bytes([data[at] ^ draw(st.integers(1, 255))]) + data[at + 1:]
    if how == "cut":
        return data[:draw(st.integers(0, len(data) - 1))]
    if how == "insert":
        at = draw(st.integers(0, len(data)))
        return data[:at] + draw(st.binary(min_size=1, max_size=8)) + data[at:]
    if how == "body":  # a body changed at will, under the signature of the true one
        fields = json.loads(body)
        fields.update(draw(st.sampled_from([
            {"diagnostics": [], "settled": [], "counts": [0, 0, 0], "penalties": 0},
            {"diagnostics": fields["diagnostics"][1:]},
            {"hand_lines": []},
            {"diagnostics": [[1, 1, "error", UNKNOWN_CODE, "x", ""]]},
        ])))
        return head + json.dumps(fields).encode()
    if how == "mac" and head:
        return head[:-65] + draw(st.text("0123456789abcdef", min_size=64, max_size=64)).encode() + b"\n" + body
    return draw(st.binary(max_size=200))


@SETTINGS
@given(logs, runs, st.data())
def test_an_entry_changed_without_the_secret_is_ignored(log: bytes, args: list[str], data: st.DataObject) -> None:
    with _night(log) as folder:
        fresh = _check(args, cache=False)
        _check(args)
        entry = _entry(folder)
        assume(entry is not None)  # a file that can be cached
        assert entry is not None
        genuine = entry.read_bytes()
        planted = _mutated(genuine, data.draw)
        assume(planted != genuine)
        entry.write_bytes(planted)
        assert _check(args) == fresh
        assert entry.read_bytes() == genuine  # written anew


def _signed_body(entry: Path) -> tuple[str, dict[str, Any]]:
    fields = json.loads(_parts(entry.read_bytes())[1])
    return str(fields.pop("key")), fields


@SETTINGS
@given(logs, runs, st.dictionaries(st.sampled_from(["counts", "penalties", "unreadable", "path", "x"]), json_values,
                                   max_size=3))
def test_an_entry_signed_over_what_a_check_found_reproduces_it(log: bytes, args: list[str],
                                                               extra: dict[str, Any]) -> None:
    # Written again by kcref (a JSON round trip, signed anew), with keys it does not read: counts
    # that lie, a path. Only what the check found is believed.
    with _night(log) as folder:
        fresh = _check(args, cache=False)
        _check(args)
        entry = _entry(folder)
        assume(entry is not None)
        assert entry is not None
        key, fields = _signed_body(entry)
        Cache(str(folder)).store("night.log", key, {**fields, **extra})
        assert _check(args) == fresh


def _somewhere(fields: dict[str, Any], draw: st.DrawFn) -> dict[str, Any]:
    """``fields`` with one value, at any depth, replaced by any JSON value."""
    def replace(value: Any, depth: int) -> Any:
        if isinstance(value, list) and value and depth < 3 and draw(st.booleans()):
            at = draw(st.integers(0, len(value) - 1))
            return [*value[:at], replace(value[at], depth + 1), *value[at + 1:]]
        return draw(json_values)

    name = draw(st.sampled_from(["diagnostics", "hand_lines", "settled"]))
    return {**fields, name: replace(fields[name], 0)}


@SETTINGS
@given(logs, runs, st.data())
def test_a_signed_entry_of_any_shape_never_crashes_a_run(log: bytes, args: list[str], data: st.DataObject) -> None:
    with _night(log) as folder:
        _check(args)
        entry = _entry(folder)
        assume(entry is not None)
        assert entry is not None
        key, fields = _signed_body(entry)
        Cache(str(folder)).store("night.log", key, _somewhere(fields, data.draw))
        status, _, _ = _check(args)  # no exception, no raw control character on any stream
    assert status in (0, 1)
