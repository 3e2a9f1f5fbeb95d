"""`kcref score` on the command line: exact output per format family (golden files in
tests/golden/score-*.txt), the JSON schema, exit statuses and usage errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from kcref.cli import main
from tests.util import ROOT, assert_golden

CASES = "tests/cases/score"
NIGHTS = [f"{CASES}/penalty_two_nights/1-first.log", f"{CASES}/penalty_two_nights/2-second.log"]
MIXED = [f"{CASES}/chips_target/night.log", f"{CASES}/none_target_two_nights/1-friday.log",
         f"{CASES}/none_target_two_nights/2-saturday.log"]
GOLDEN = ROOT / "tests" / "golden"


def run(*args: str, input: bytes | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, ["score", *args], input=input)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.stdout, result.stderr


@pytest.mark.parametrize("fmt", ["simple", "plain", "github", "grid", "rst", "html", "latex", "mediawiki", "csv",
                                 "tsv", "json"])
def test_each_format_family(fmt: str, in_root: Path) -> None:
    code, out, err = run("--format", fmt, *NIGHTS)
    assert code == 0 and err == ""
    assert_golden(GOLDEN / f"score-{fmt}.txt", out)


@pytest.mark.parametrize("name,args", [
    ("by-hand", ["--by", "hand"]),
    ("by-night", ["--by", "night", "--format", "github"]),
    ("by-hand-csv", ["--by", "hand", "--format", "csv"]),
    ("chart", ["--chart"]),
    ("chart-ascii", ["--chart", "--ascii", "--by", "night"]),
])
def test_views_and_chart(name: str, args: list[str], in_root: Path) -> None:
    code, out, err = run(*args, *MIXED)
    assert code == 0 and err == ""
    assert_golden(GOLDEN / f"score-{name}.txt", out)


def test_skip_invalid_names_each_hand_left_out(in_root: Path) -> None:
    log = f"{CASES}/skip_invalid/night.log"
    code, out, err = run("--skip-invalid", log)
    assert code == 0 and err == ""
    assert_golden(GOLDEN / "score-skip-invalid.txt", out)
    code, out, err = run("--skip-invalid", "--format", "csv", log)
    assert code == 0 and out.startswith("rank,player,points,")
    assert err.splitlines() == [line for line in err.splitlines() if line.startswith(("left out: ", "not scored: "))]
    assert len(err.splitlines()) == 4


def test_errors_exit_1_and_point_to_check(in_root: Path) -> None:
    log = f"{CASES}/skip_invalid/night.log"
    code, out, err = run(log)
    assert code == 1 and out == ""
    assert_golden(GOLDEN / "score-errors.txt", err)


@pytest.mark.parametrize("args", [
    [],
    ["--format", "xml", NIGHTS[0]],
    ["--by", "game", NIGHTS[0]],
    ["--chart", "--format", "json", NIGHTS[0]],
    ["--chart", "--format", "csv", NIGHTS[0]],
    ["--ascii", NIGHTS[0]],
])
def test_bad_usage_exits_2(args: list[str], in_root: Path) -> None:
    assert run(*args)[0] == 2


def test_unreadable_file_exits_2(in_root: Path, tmp_path: Path) -> None:
    code, out, err = run(NIGHTS[0], str(tmp_path / "missing.log"))
    assert code == 2 and out == "" and "KC001" in err
    binary = tmp_path / "binary.log"
    binary.write_bytes(b"hand 1\x00\n")
    assert run(str(binary))[0] == 2


def test_stdin(in_root: Path) -> None:
    text = (ROOT / NIGHTS[0]).read_bytes()
    code, out, _ = run("--format", "json", "-", input=text)
    assert code == 0 and json.loads(out)["files"][0]["path"] == "<stdin>"


def test_help_has_examples() -> None:
    result = CliRunner().invoke(main, ["score", "--help"])
    assert result.exit_code == 0 and "Examples:" in result.output and "--skip-invalid" in result.output


# --- JSON ---------------------------------------------------------------------------------------

INT, STR, BOOL, NULL = {"type": "integer"}, {"type": "string"}, {"type": "boolean"}, {"type": "null"}
OPT_INT, OPT_STR = {"type": ["integer", "null"]}, {"type": ["string", "null"]}
NAMES = {"type": "array", "items": STR}
POINTS = {"type": "object", "values": INT}
SCHEMA = {
    "type": "object",
    "required": {
        "files": {"type": "array", "items": {"type": "object", "required": {
            "path": STR, "date": OPT_STR, "event": OPT_STR, "hands": INT}}},
        "scoring": NAMES,
        "rules": {"type": "array", "items": {"type": "object", "required": {
            "preset": STR, "description": STR, "hands": INT}}},
        "players": {"type": "array", "items": {"type": "object", "required": {
            "rank": INT, "name": STR, "points": OPT_INT, "points_by_scoring": POINTS,
            "hands_played": INT, "hands_won": INT, "games_won": INT}}},
        "games": {"type": "array", "items": {"type": "object", "required": {
            "number": INT, "scoring": STR, "target": OPT_INT, "agreed_hands": OPT_INT, "hands": INT,
            "over": BOOL, "ended_by": OPT_STR, "winners": NAMES, "leaders": NAMES, "totals": POINTS}}},
        "hands": {"type": "array", "items": {"type": "object", "required": {
            "path": STR, "index": INT, "number": OPT_INT, "line": INT, "status": STR, "reason": OPT_STR,
            "scoring": STR, "rules": STR, "game": OPT_INT, "game_over": BOOL, "winner": OPT_STR,
            "blocked": BOOL, "scores": {"type": ["object", "null"], "values": INT},
            "totals": {"type": ["object", "null"], "values": INT},
            "game_totals": {"type": ["object", "null"], "values": INT}}}},
        "leader": STR,
        "notes": NAMES,
    },
}
_TYPES = {"object": dict, "array": list, "string": str, "boolean": bool, "null": type(None)}


def conforms(value: object, schema: dict, where: str = "$") -> list[str]:
    """Where ``value`` breaks ``schema`` (a small JSON-Schema-like dialect: type, required keys,
    exactly those keys, items, values of an object)."""
    types = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
    ok = any(isinstance(value, int) and not isinstance(value, bool) if t == "integer" else isinstance(value, _TYPES[t])
             for t in types)
    if not ok:
        return [f"{where}: {value!r} is not {types}"]
    problems: list[str] = []
    if isinstance(value, dict) and "required" in schema:
        if set(value) != set(schema["required"]):
            problems.append(f"{where}: keys {sorted(value)} != {sorted(schema['required'])}")
        for key, sub in schema["required"].items():
            if key in value:
                problems += conforms(value[key], sub, f"{where}.{key}")
    if isinstance(value, dict) and "values" in schema:
        for key, v in value.items():
            problems += conforms(v, schema["values"], f"{where}.{key}")
    if isinstance(value, list) and "items" in schema:
        for i, item in enumerate(value):
            problems += conforms(item, schema["items"], f"{where}[{i}]")
    return problems


@pytest.mark.parametrize("logs", [NIGHTS, MIXED, [f"{CASES}/skip_invalid/night.log"]], ids=["one", "mixed", "skip"])
def test_json_schema(logs: list[str], in_root: Path) -> None:
    code, out, _ = run("--format", "json", "--skip-invalid", *logs)
    assert code == 0
    doc = json.loads(out)
    assert conforms(doc, SCHEMA) == []
    players = doc["players"]
    assert [p["rank"] for p in players] == sorted(p["rank"] for p in players)
    single = len(doc["scoring"]) == 1
    for p in players:
        assert (p["points"] is None) != single
        if single:
            assert p["points"] == sum(p["points_by_scoring"].values())


def test_json_required_keys_hold_the_standings(in_root: Path) -> None:
    doc = json.loads(run("--format", "json", *NIGHTS)[1])
    assert [{k: p[k] for k in ("name", "points", "hands_played", "hands_won", "games_won")} for p in doc["players"]] == [
        {"name": "Ann", "points": 39, "hands_played": 5, "hands_won": 2, "games_won": 1},
        {"name": "Bob", "points": 39, "hands_played": 5, "hands_won": 2, "games_won": 1},
        {"name": "Cy", "points": 46, "hands_played": 5, "hands_won": 1, "games_won": 0},
    ]


def test_the_schema_checker_catches_faults() -> None:
    good = {"a": 1, "b": [{"c": "x"}]}
    schema = {"type": "object", "required": {"a": INT, "b": {"type": "array", "items": {
        "type": "object", "required": {"c": STR}}}}}
    assert conforms(good, schema) == []
    assert conforms({"a": True, "b": []}, schema)
    assert conforms({"a": 1, "b": [{"c": 2}]}, schema)
    assert conforms({"a": 1, "b": [], "extra": 0}, schema)


def test_skip_invalid_names_errors_outside_every_hand(tmp_path: Path) -> None:
    good = (ROOT / CASES / "none_each_hand" / "night.log").read_text(encoding="utf-8")
    stray = tmp_path / "stray.log"
    stray.write_text(good.replace("\nhand 1 ", "\nlayout N:KS E:2C S:3D W:4C\nhand 1 ", 1), encoding="utf-8")
    code, out, _ = run("--skip-invalid", str(stray))
    assert code == 0
    assert f"ignored: {stray}:" in out and "error KC207" in out and "(outside every hand)" in out
    assert "     1  Bob" in out  # the hands themselves are scored
    nobody = tmp_path / "nobody.log"
    nobody.write_text(good.replace('[Players "Ann, Bob, Cy"]\n', ""), encoding="utf-8")
    code, out, _ = run("--skip-invalid", "--format", "json", str(nobody))
    doc = json.loads(out)
    assert code == 0 and doc["players"] == []
    assert [h["status"] for h in doc["hands"]] == ["left out"] * 3
    assert all(h["reason"].startswith("error KC201 ") for h in doc["hands"])
