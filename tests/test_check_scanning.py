"""``kcref check --format sarif`` (validated against the SARIF 2.1.0 schema kept in tests/data/)
and ``--format gitlab`` (GitLab Code Quality, with fingerprints that survive lines moving)."""

from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from click.testing import CliRunner

from kcref.cli import main
from kcref.model.codes import BY_CODE
from kcref.render.check_formats import GITLAB_SEVERITIES, SARIF_LEVELS
from kcref.render.explain_text import help_text
from tests.util import ROOT

SCHEMA = json.loads((ROOT / "tests" / "data" / "sarif-schema-2.1.0.json").read_text(encoding="utf-8"))
SAMPLES = ["samples/invalid/typos.log", "samples/invalid/illegal-plays.log", "samples/commercial-night.log"]
RAW_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e]")
GITLAB_KEYS = {"description", "check_name", "fingerprint", "severity", "location"}


@pytest.fixture
def in_root(monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(ROOT)
    monkeypatch.delenv("GITHUB_ACTIONS", raising=False)
    return ROOT


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["check", *args])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.stdout


def json_check(*args: str) -> tuple[int, Any, str]:
    code, out = run(*args)
    assert not RAW_CONTROL.search(out)
    return code, json.loads(out), out


def diagnostics(*paths: str) -> list[dict[str, Any]]:
    return json_check("--format", "json", *paths)[1]["diagnostics"]  # type: ignore[no-any-return]


def test_sarif_is_valid_and_complete(in_root: Path) -> None:
    code, doc, _ = json_check("--format", "sarif", *SAMPLES)
    assert code == 1
    jsonschema.Draft4Validator(SCHEMA).validate(doc)
    (run_,) = doc["runs"]
    expected = diagnostics(*SAMPLES)
    assert len(run_["results"]) == len(expected)
    for result, d in zip(run_["results"], expected):
        assert result["ruleId"] == d["code"] and result["message"]["text"] == d["message"]
        assert result["level"] == {"error": "error", "warning": "warning", "info": "note"}[d["severity"]]
        (location,) = result["locations"]
        physical = location["physicalLocation"]
        assert physical["artifactLocation"] == {"uri": d["path"], "uriBaseId": "%SRCROOT%"}
        assert physical["region"] == {"startLine": d["line"], "startColumn": d["column"], "endColumn": d["end_column"]}
    rules = run_["tool"]["driver"]["rules"]
    assert [r["id"] for r in rules] == sorted({d["code"] for d in expected})
    for rule in rules:
        info = BY_CODE[rule["id"]]
        assert rule["shortDescription"]["text"] == info.summary
        assert rule["help"]["text"] == help_text(info.code)
        assert rule["fullDescription"]["text"].startswith(info.summary)
        assert rule["defaultConfiguration"]["level"] == SARIF_LEVELS[info.severity]


def test_sarif_without_findings(in_root: Path) -> None:
    code, doc, _ = json_check("--format", "sarif", "--quiet", "samples/classic-night.log")
    assert code == 0
    jsonschema.Draft4Validator(SCHEMA).validate(doc)
    assert doc["runs"][0]["results"] == [] and doc["runs"][0]["tool"]["driver"]["rules"] == []


def test_gitlab_code_quality(in_root: Path) -> None:
    code, doc, _ = json_check("--format", "gitlab", *SAMPLES)
    assert code == 1
    expected = diagnostics(*SAMPLES)
    assert len(doc) == len(expected)
    for finding, d in zip(doc, expected):
        assert set(finding) == GITLAB_KEYS
        assert finding["check_name"] == d["code"] and finding["description"] == f"{d['code']} {d['message']}"
        assert finding["severity"] in {"info", "minor", "major", "critical", "blocker"}
        line = max(d["line"], 1)
        assert finding["location"] == {"path": d["path"], "positions": {"begin": {"line": line, "column": d["column"]},
                                                                        "end": {"line": line, "column": d["end_column"]}}}
        assert re.fullmatch("[0-9a-f]{64}", finding["fingerprint"])
    assert len({f["fingerprint"] for f in doc}) == len(doc)
    assert set(GITLAB_SEVERITIES.values()) <= {"info", "minor", "major", "critical", "blocker"}
    assert json_check("--format", "gitlab", "samples/classic-night.log") == (0, [], "[]\n")


def test_gitlab_fingerprints_survive_lines_moving(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    text = (ROOT / "samples" / "invalid" / "illegal-plays.log").read_text(encoding="utf-8")
    Path("night.log").write_text(text, encoding="utf-8")
    first = json_check("--format", "gitlab", "night.log")[1]
    assert json_check("--format", "gitlab", "night.log")[1] == first  # stable across runs
    Path("night.log").write_text("# a comment\n\n# and another\n" + text, encoding="utf-8")
    moved = json_check("--format", "gitlab", "night.log")[1]
    begins = [[f["location"]["positions"]["begin"]["line"] for f in found] for found in (first, moved)]
    assert begins[1] == [line + 3 for line in begins[0]]
    assert [f["fingerprint"] for f in moved] == [f["fingerprint"] for f in first]


def test_identical_findings_have_their_own_fingerprints(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    Path("night.log").write_text('[Players "Ann, Bob"]\nhnad 1\nhnad 1\n', encoding="utf-8")
    doc = json_check("--format", "gitlab", "night.log")[1]
    kc101 = [f for f in doc if f["check_name"] == "KC101"]
    assert len(kc101) == 2 and kc101[0]["fingerprint"] != kc101[1]["fingerprint"]


HOSTILE_NAME = "ni ght \"q\" 'a' \x1b[31m%#?.log"


@pytest.mark.parametrize("fmt", ["sarif", "gitlab"])
def test_hostile_text_and_names(fmt: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    os.mkdir("odd dir")
    name = os.path.join("odd dir", HOSTILE_NAME)
    shutil.copy(ROOT / "samples" / "invalid" / "illegal-plays.log", name)
    with open(name, "a", encoding="utf-8") as f:
        f.write('[Event "\x1b]0;pwned\x07 \u202e ::error::x ##[set-output]"]\nhnad\x1b[2J 1 "quoted" \\ back\n')
    code, doc, out = json_check("--format", fmt, name)
    assert code == 1 and "##[" not in out
    if fmt == "sarif":
        jsonschema.Draft4Validator(SCHEMA).validate(doc)
        uris = {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in doc["runs"][0]["results"]}
        assert uris == {"odd%20dir/ni%20ght%20%22q%22%20%27a%27%20%1B%5B31m%25%23%3F.log"}
        texts = [r["message"]["text"] for r in doc["runs"][0]["results"]]
    else:
        assert {f["location"]["path"] for f in doc} == {name}  # escaped in the JSON text, whole in its value
        texts = [f["description"] for f in doc]
    assert any("hnad" in t for t in texts)
