"""Every diagnostic code is documented, and exercised by some expectation in the tests."""

from __future__ import annotations

import re

from kcref.model.codes import BY_CODE, CODES, codes_markdown
from tests.util import ROOT

CODE = re.compile(r"\bKC\d{3}\b")
# Where expectations live: golden outputs beside the samples, conformance cases, rule cases, tests.
EXPECTATIONS = ("samples", "grammar", "tests")


def test_table_is_well_formed() -> None:
    assert len(BY_CODE) == len(CODES), "a code is listed twice"
    for c in CODES:
        assert re.fullmatch(r"KC\d{3}", c.code) and c.summary and not c.summary.endswith(".")


def test_docs_list_every_code_exactly() -> None:
    assert (ROOT / "docs" / "codes.md").read_text(encoding="utf-8") == codes_markdown()


def test_every_code_is_exercised() -> None:
    seen: set[str] = set()
    for folder in EXPECTATIONS:
        for path in (ROOT / folder).rglob("*"):
            if path.is_file() and path.suffix in (".expected", ".txt", ".log", ".py", ".md", ".kc"):
                if path.name == "test_codes.py":
                    continue
                seen.update(CODE.findall(path.read_text(encoding="utf-8", errors="replace")))
    missing = sorted(set(BY_CODE) - seen)
    assert not missing, f"codes never exercised by a test or expectation: {missing}"
    unknown = sorted(seen - set(BY_CODE))
    assert not unknown, f"expectations name codes that are not in the table: {unknown}"


def test_rules_doc_has_the_options_table_exactly() -> None:
    from kcref.render.rules_text import options_markdown

    text = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    start = text.index("-->\n", text.index("<!-- options table")) + 4
    end = text.index("<!-- end of options table -->")
    assert text[start:end] == options_markdown()
