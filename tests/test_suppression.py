"""Inline suppression: ``# kcref: ignore[KC216]`` on a log line silences those codes there; one
that silences nothing is a KC007 warning."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from kcref.cli import main
from kcref.files.config import Config
from kcref.model.codes import Severity
from kcref.referee.pipeline import check_text
from tests.util import ROOT

PLAYERS = '[Players "Ann, Bob"]'
HAND = "hand 1\nlayout N:9D E:JS S:3C W:KC\n"
OUT = "Ann: 8S->N; 7H->N; 6S->N; 5H->N; 4S->N; 3H->N; 2S->N\n"
"""Ann goes out: hand 1 ends."""


def found(text: str, config: Config | None = None) -> list[tuple[int, str]]:
    """Where each diagnostic is, and its code; without the KC502 notes (no deals recorded)."""
    return [(d.line, d.code) for d in check_text(text, config=config).diagnostics if d.code != "KC502"]


def test_a_suppression_silences_its_codes_on_its_line_only() -> None:
    log = f"{PLAYERS}\n{HAND}Ann: 8D->N; draw  # kcref: ignore[KC301]\n"
    assert found(log.replace("  # kcref: ignore[KC301]", "")) == [(4, "KC301")]
    # Silenced, not counted either; but the replay still stops there, and a note says so.
    assert found(log) == [(4, "KC504")]
    assert check_text(log).errors == 0
    elsewhere = log.replace("  # kcref: ignore[KC301]", "").replace("W:KC\n", "W:KC  # kcref: ignore[KC301]\n")
    assert found(elsewhere) == [(3, "KC007"), (4, "KC301")]


def test_several_codes_and_any_case() -> None:
    log = (f"{PLAYERS}\n{HAND}{OUT}hand 2 dealer Bob  # kcref: ignore[kc216, KC501]\n"
           "layout N:9D E:JS S:3C W:KC\n")
    assert found(log.replace("  # kcref: ignore[kc216, KC501]", "")) == [(5, "KC501"), (5, "KC216")]
    assert found(log) == []


def test_an_unused_suppression_is_a_warning_in_line_order() -> None:
    log = (f"{PLAYERS}  # kcref: ignore[KC201]\n{HAND}{OUT}hand 2 dealer Bob  # kcref: ignore[KC216, KC401]\n"
           "layout N:9D E:JS S:3C W:KC\nAnn: 8S->N; draw  # kcref: ignore[]\n")
    report = check_text(log)
    got = [(d.line, d.column, d.code, d.severity) for d in report.diagnostics if d.code != "KC502"]
    assert got == [(1, 23, "KC007", Severity.WARNING), (5, 1, "KC501", Severity.WARNING),
                   (5, 20, "KC007", Severity.WARNING), (7, 19, "KC007", Severity.WARNING)]
    messages = [d.message for d in report.diagnostics if d.code == "KC007"]
    assert messages[0] == "unused suppression: KC201 is not reported on this line"
    assert messages[1] == "unused suppression: KC401 is not reported on this line"  # KC216 was used
    assert "names no code" in messages[2]


def test_a_syntax_error_line_and_the_configuration() -> None:
    log = f"{PLAYERS}\n{HAND}Ann: 8X->N; draw  # kcref: ignore[KC102]\n"
    assert (4, "KC102") not in found(log)
    assert (4, "KC007") not in found(log)
    # An ignored code still uses the suppression that names it; KC007 can be ignored like any code.
    assert found(log, Config(ignore=("KC102",))) == found(log)
    unused = f"{PLAYERS}\n{HAND}{OUT}".replace("2S->N\n", "2S->N  # kcref: ignore[KC301]\n")
    assert found(unused) == [(4, "KC007")]
    assert found(unused, Config(ignore=("KC007",))) == []


def test_a_comment_that_only_mentions_kcref_is_no_suppression() -> None:
    log = f"{PLAYERS}\n{HAND}{OUT}".replace("2S->N\n", "2S->N  # kcref: checked by hand\n")
    assert found(log) == []


FRIDAY = "\n\n".join((ROOT / "samples" / "invalid" / "illegal-plays.log").read_text(encoding="utf-8")
                   .split("\n\n")[:2]) + "\n"
"""The header and hand 1 of the Friday log: Bob's 5S->E on line 14 is a rule error (KC301)."""


def test_a_suppressed_rule_error_still_stops_the_replay_and_says_so(tmp_path: Path) -> None:
    silenced = FRIDAY.replace("draw 7S  # 5S, not 5H: black on black", "draw 7S # kcref: ignore[KC301]")
    # Later in the hand Cy plays the King of hearts a second time: not judged, the replay stopped.
    silenced = silenced.replace("Cy: 8S->NE;", "Cy: KH->N; 8S->NE;")
    assert silenced.count("KH->") == 2 and "ignore[KC301]" in silenced
    report = check_text(silenced)
    assert [(d.line, d.column, d.code, d.severity) for d in report.diagnostics] == [
        (14, 6, "KC504", Severity.INFO)]
    assert report.diagnostics[0].message == (
        "hand 1 is not refereed past line 14: its rule error KC301 is suppressed there, not fixed")
    assert report.errors == 0 and report.suppressed == {"KC301": 1}
    log = tmp_path / "friday.log"
    log.write_text(silenced, encoding="utf-8")
    result = CliRunner().invoke(main, ["check", "--isolated", "--no-source", str(log)])
    assert result.exit_code == 0  # suppressed means suppressed, but not unseen:
    assert result.output.endswith("1 file, 1 hand, 0 errors, 0 warnings, 0 penalties, 1 note; 1 error suppressed\n")
    # The note is a diagnostic of its own: a suppression that names it too silences it.
    both = silenced.replace("ignore[KC301]", "ignore[KC301, KC504]")
    assert check_text(both).diagnostics == [] and check_text(both).suppressed == {"KC301": 1, "KC504": 1}


def test_a_suppressed_error_that_stops_nothing_gets_no_note() -> None:
    log = f"{PLAYERS}\n{HAND}{OUT}".replace("hand 1\n", "hand 1 dealer Zed  # kcref: ignore[KC205]\n")
    assert found(log.replace("  # kcref: ignore[KC205]", ""))[0] == (2, "KC205")
    # A set-up error cuts the hand: its own KC504 note stays, with or without the suppression.
    assert found(log) == [(2, "KC504")]
    assumed = f"{PLAYERS}\n{HAND}{OUT}score Ann 0  # kcref: ignore[KC601]\n"
    assert found(assumed.replace("  # kcref: ignore[KC601]", "")) == [(5, "KC601")]
    assert found(assumed) == []  # an assertion's error stops no replay


def test_a_comment_alone_silences_nothing() -> None:
    alone = f"# kcref: ignore[KC004]\n{PLAYERS}\n"
    assert found(alone) == [(2, "KC004")]
    assert found(f"\n  # kcref: ignore[KC004]\n{PLAYERS}\n") == [(3, "KC004")]
    # A trailing one on the log's first line does: that is where KC004 points.
    assert found(f"# the header only\n\n{PLAYERS}  # kcref: ignore[KC004]\n") == []
    # Nor does one alone above a line with an error.
    log = f"{PLAYERS}\n{HAND}# kcref: ignore[KC301]\nAnn: 8D->N; draw\n"
    assert found(log) == [(5, "KC301")]


def test_a_long_line_of_hash_marks_is_read_in_time_in_proportion_to_it() -> None:
    """The suppression is looked for once after a comment's first '#', not from every '#' on
    (which took seconds for one line of 32,000 of them, and grew with the square of its length)."""
    import time

    line = "Ann: pass " + "#" * 32_000 + " kcref: x"
    log = f"{PLAYERS}\n{HAND}{line}\n"
    start = time.perf_counter()
    assert found(log) == [(4, "KC313")]
    assert time.perf_counter() - start < 3.0
    assert found(log.replace("#" * 32_000, "# x #kcref: ignore[KC313] ##")) == [(4, "KC504")]


def test_a_suppression_inside_a_tag_value_is_part_of_the_value_and_silences_nothing() -> None:
    """A '#' inside a tag's quotes is part of the value: what follows it is no comment, so it
    cannot hide the tag's own error (a rule option silently not applied); after the tag it can."""
    game = f"{HAND}{OUT}"
    bad_value = f'{PLAYERS}\n[Draw "start # kcref: ignore[KC206]"]\n{game}'
    assert found(bad_value) == [(2, "KC206")]
    malformed = f'{PLAYERS}\n[Draw "x # kcref: ignore[KC105]" oops]\n{game}'
    assert found(malformed) == [(2, "KC105")]
    escaped = f'{PLAYERS}\n[Draw "a \\" # kcref: ignore[KC206]"]\n{game}'
    assert found(escaped) == [(2, "KC206")]
    trailing = f'{PLAYERS}\n[Draw "start # x"]  # kcref: ignore[KC206]\n{game}'
    assert found(trailing) == []
    assert found(f'{PLAYERS}\n[Draw "x" oops]  # kcref: ignore[KC105]\n{game}') == []
