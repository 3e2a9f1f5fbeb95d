"""``kcref explain``: every code explained, every example run through the real referee, and
``kcref rules`` with the rulings read from the page shipped in the package."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from click.testing import CliRunner

from kcref.cli import main
from kcref.model.code_examples import EXAMPLES, NO_EXAMPLE
from kcref.model.codes import BY_CODE, CODES, Severity
from kcref.referee.pipeline import check_text
from kcref.render import rules_text
from kcref.render.explain_text import FAMILIES, explain, help_text
from kcref.render.page_files import PAGES
from kcref.render.rules_text import MissingPage, page, rulings
from tests.util import ROOT


def codes_raised(text: str) -> tuple[set[str], set[str]]:
    """Every code the referee raises on ``text``, and those that are errors or warnings."""
    found = check_text(text, "example.log").diagnostics
    return {d.code for d in found}, {d.code for d in found if d.severity is not Severity.INFO}


@pytest.mark.parametrize("code", sorted(EXAMPLES))
def test_the_wrong_example_raises_the_code_and_the_right_one_does_not(code: str) -> None:
    example = EXAMPLES[code]
    raised, serious = codes_raised(example.wrong)
    assert code in raised
    assert serious - {"KC501"} <= {code, *example.also}, serious
    raised, serious = codes_raised(example.right)
    assert code not in raised
    assert not [c for c in raised if BY_CODE[c].severity is Severity.ERROR], raised


def test_every_code_has_an_example_or_says_why_not() -> None:
    assert set(EXAMPLES) | set(NO_EXAMPLE) == set(BY_CODE)
    assert not set(EXAMPLES) & set(NO_EXAMPLE)
    assert all(set(e.also) <= set(BY_CODE) for e in EXAMPLES.values())


def test_every_code_belongs_to_a_family() -> None:
    for info in CODES:
        assert sum(info.code.startswith(f.prefix) for f in FAMILIES) == 1, info.code


@pytest.mark.parametrize("code", [c.code for c in CODES])
def test_explain_says_it_all(code: str) -> None:
    info = BY_CODE[code]
    text = explain(code.lower())
    assert text.startswith(f"{code} ({info.severity.value}, ") and info.summary in text
    if code in EXAMPLES:
        said = text.split("kcref check says:\n", 1)[1].split("\n\nRight:\n", 1)[0].splitlines()
        assert said and all(re.fullmatch(rf"    \d+:\d+: {info.severity.value} {code} .+", line) for line in said)
        assert EXAMPLES[code].right.splitlines()[-1] in text
    else:
        assert NO_EXAMPLE[code] in text
    for number in info.rulings:
        assert str(number) in text
    assert not re.search("[\x00-\x08\x0b-\x1f\x7f]", text)
    assert help_text(code).startswith(f"{code} ({info.severity.value}): ")


def test_rulings_named_by_codes_exist_and_each_ruling_names_its_codes() -> None:
    numbers = rulings()
    assert sorted(numbers) == list(range(1, len(numbers) + 1)) and len(numbers) >= 30
    for info in CODES:
        assert set(info.rulings) <= set(numbers), info.code
    for number, text in numbers.items():
        for code in re.findall(r"KC\d{3}", text):
            assert number in BY_CODE[code].rulings, (number, code)


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_explain_cli() -> None:
    code, out, _ = run("explain", "KC301")
    assert code == 0 and out == explain("KC301")
    code, out, _ = run("explain", "--list")
    assert code == 0 and all(f"  {c.code}  " in out for c in CODES)
    code, out, _ = run("explain", "kc2")
    assert code == 0 and out.startswith("KC2xx set-up\n")
    assert {line.split()[0] for line in out.splitlines()[1:]} == {c.code for c in CODES if c.code.startswith("KC2")}


@pytest.mark.parametrize(("given", "hint"), [("KC3199", "did you mean 'KC319'?"), ("KC3011", "did you mean 'KC311'?"),
                                             ("KC_301", "did you mean 'KC301'?"),
                                             ("nonsense", "kcref explain --list"), ("KC9", "kcref explain --list")])
def test_explain_unknown_code(given: str, hint: str) -> None:
    code, out, err = run("explain", given)
    assert code == 2 and out == "" and hint in err


def test_explain_needs_a_code_or_list() -> None:
    assert run("explain")[0] == 2
    assert run("explain", "--list", "KC301")[0] == 2


def test_explain_completes_codes() -> None:
    from kcref.cli.explain import complete_code

    found = complete_code(None, None, "kc30")  # type: ignore[arg-type]
    assert [c.value for c in found] == [c.code for c in CODES if c.code.startswith("KC30")]


def test_rules_prints_the_rulings() -> None:
    code, out, _ = run("rules")
    assert code == 0
    for number in rulings():
        assert re.search(rf"^{number}\. ", out, re.M), number
    assert "**" not in out
    code, out, _ = run("rules", "22")
    assert code == 0 and out.startswith("22. A hand with a rule error is not judged past that error")
    code, _, err = run("rules", "99")
    assert code == 2 and "no ruling 99" in err


@pytest.mark.parametrize(("name", "source"), sorted(PAGES.items()))
def test_the_pages_are_read_from_their_one_copy(name: str, source: str) -> None:
    assert page(name) == (ROOT / source).read_text(encoding="utf-8")
    assert "page_files.py" in (ROOT / "setup.py").read_text(encoding="utf-8")  # the build ships them


@pytest.fixture
def no_rulings_cached() -> Iterator[None]:
    rulings.cache_clear()
    yield
    rulings.cache_clear()


@pytest.mark.parametrize("args", [(), ("3",)])
def test_rules_says_so_when_the_page_is_a_link_left_as_text(args: tuple[str, ...], no_rulings_cached: None,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """A clone without symbolic links once turned the page into its link's target path."""
    monkeypatch.setattr(rules_text, "page", lambda name: "../../../docs/rules.md")
    code, out, err = run("rules", *args)
    assert (code, out) == (2, "")
    assert err == "kcref rules: the page rules.md installed with kcref holds no ruling (reinstall kcref; " \
                  "in a checkout it is docs/rules.md)\n"
    assert run("rules", "family")[0] == 0  # a preset needs no page


def test_rules_says_so_when_the_page_is_missing(no_rulings_cached: None, monkeypatch: pytest.MonkeyPatch) -> None:
    # Neither the built package's copy (the suite may run on a built package) nor the source's file.
    monkeypatch.setattr(rules_text, "FOLDER", "not-there")
    monkeypatch.setitem(PAGES, "rules.md", "docs/not-there.md")
    with pytest.raises(MissingPage):
        page("rules.md")
    code, _, err = run("rules", "22")
    assert code == 2 and err.startswith("kcref rules: the page rules.md is not installed with kcref")
