"""``kcref check --format sarif`` on a file whose name is not UTF-8: the name's own bytes,
percent-escaped, make the artifact's URI, and the run neither crashes nor leaves an empty file."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest

from kcref.render.check_formats import artifact_uri
from tests.util import ROOT

SCHEMA = json.loads((ROOT / "tests" / "data" / "sarif-schema-2.1.0.json").read_text(encoding="utf-8"))
BAD_NAME = b"night \xff\xfe.log"
"""Latin-1 bytes, not UTF-8: Python names such a file with surrogate escapes."""


def test_a_name_that_is_not_utf8_is_escaped_byte_for_byte() -> None:
    name = os.fsdecode(BAD_NAME)
    assert artifact_uri(name) == {"uri": "night%20%FF%FE.log", "uriBaseId": "%SRCROOT%"}
    assert artifact_uri("/logs/" + name) == {"uri": "file:///logs/night%20%FF%FE.log"}
    assert artifact_uri("nights/Zoë.log") == {"uri": "nights/Zo%C3%AB.log", "uriBaseId": "%SRCROOT%"}


@pytest.mark.skipif(sys.platform == "win32", reason="file names are not bytes on Windows")
def test_sarif_of_a_file_named_in_latin1_through_the_cli(tmp_path: Path) -> None:
    folder = tmp_path / "nights"
    folder.mkdir()
    log = os.path.join(os.fsencode(folder), BAD_NAME)
    with open(log, "wb") as f:
        f.write((ROOT / "samples" / "invalid" / "illegal-plays.log").read_bytes())
    env = {**os.environ, "PYTHONPATH": str(ROOT), "KCREF_NO_CACHE": "1"}
    env.pop("GITHUB_ACTIONS", None)
    done = subprocess.run([sys.executable, "-m", "kcref", "check", "--format", "sarif", "nights", "-o", "out.sarif"],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 1, done.stderr
    assert "Traceback" not in done.stderr
    doc = json.loads((tmp_path / "out.sarif").read_text(encoding="utf-8"))
    jsonschema.Draft4Validator(SCHEMA).validate(doc)
    uris = {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in doc["runs"][0]["results"]}
    assert uris == {"nights/night%20%FF%FE.log"}
