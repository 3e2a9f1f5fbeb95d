"""The command line's choices come from the library's registries: each choice list, its help and
its shell completion are read from one registry, so a format registered there is offered,
explained, completed and used, and one taken out is refused. Also: the commands' libraries
are not imported to start up, and the loops behind the commands work without click."""

from __future__ import annotations

import io
import subprocess
import sys
from collections.abc import Callable, Iterable, Sequence
from contextlib import AbstractContextManager, nullcontext
from pathlib import Path

import click
import pytest
from click.shell_completion import ShellComplete
from click.testing import CliRunner

from kcref.apps.check.run import run_check
from kcref.apps.fmt import TEN_SPELLINGS, run_fmt
from kcref.apps.show import NotShown, show_input
from kcref.cli import main
from kcref.cli.registry import RegistryChoice, first_clause
from kcref.engine.bots import BOTS
from kcref.files.inputs import resolve
from kcref.model.diagnostics import Diagnostic
from kcref.model.status import ExitStatus
from kcref.model.version import build
from kcref.notation.formatter import Mode
from kcref.notation.writer import Spelling
from kcref.referee.pipeline import FileReport
from kcref.render.check_formats import CHECK_FORMATS, CheckFormat, CheckSettings, Printer
from kcref.render.score_formats import (
    SCORE_FORMATS,
    VIEWS,
    Chunks,
    Grid,
    Rendered,
    Request,
    ScoreFormat,
    View,
)
from kcref.scoring.standings import Scoreboard
from tests.util import ROOT

REGISTRIES: list[tuple[str, str, Callable[[], list[tuple[str, str]]]]] = [
    ("check", "--format", lambda: [(f.name, f.help) for f in CHECK_FORMATS.values()]),
    ("score", "--by", lambda: [(v.name, v.help) for v in VIEWS.values()]),
    ("score", "--format", lambda: [(f.name, f.help) for f in SCORE_FORMATS.values()]),
    ("play", "--bot", lambda: [(name, first_clause(type(bot).__doc__)) for name, bot in BOTS.items()]),
    ("fmt", "--ten", lambda: [(t.name, t.help) for t in TEN_SPELLINGS]),
]
"""Each option built from a registry, and the registry's names and helps, in order."""


def option(command: str, name: str) -> click.Option:
    found = [p for p in main.commands[command].params if isinstance(p, click.Option) and name in p.opts]
    assert len(found) == 1
    return found[0]


def help_of(command: str, name: str) -> str:
    """The option's help as ``--help`` shows it, unwrapped."""
    ctx = click.Context(main.commands[command], info_name=command)
    record = option(command, name).get_help_record(ctx)
    assert record is not None
    return record[1]


def complete(args: Sequence[str], incomplete: str) -> list[tuple[str, str | None]]:
    items = ShellComplete(main, {}, "kcref", "_KCREF_COMPLETE").get_completions(list(args), incomplete)
    return [(item.value, item.help) for item in items]


def invoke(*args: str) -> click.testing.Result:
    return CliRunner().invoke(main, list(args))


@pytest.mark.parametrize(("command", "name", "entries"), REGISTRIES, ids=[f"{c} {o}" for c, o, _ in REGISTRIES])
def test_the_choices_are_the_registry(command: str, name: str, entries: Callable[[], list[tuple[str, str]]]) -> None:
    param = option(command, name)
    assert isinstance(param.type, RegistryChoice)
    names = [n for n, _ in entries()]
    assert list(param.type.choices) == names and len(set(names)) == len(names)
    assert complete([command, name], "") == entries()
    shown = help_of(command, name)
    assert "{choices}" not in shown
    for entry_name, entry_help in entries():
        assert entry_name in shown and entry_help in shown


def test_completion_of_format_values() -> None:
    assert complete(["check", "--format"], "j") == [("json", CHECK_FORMATS["json"].help),
                                                    ("junit", CHECK_FORMATS["junit"].help)]
    assert [v for v, _ in complete(["score", "--format"], "latex")] == [
        "latex", "latex_booktabs", "latex_longtable", "latex_raw"]
    assert complete(["score", "--by"], "n") == [("night", VIEWS["night"].help)]
    assert complete(["score", "nights/", "--format"], "cs") == [("csv", SCORE_FORMATS["csv"].help)]
    assert complete(["check", "--format"], "x") == []


class TapPrinter(Printer):
    """A format for the test: one TAP line per failing diagnostic, then the plan."""

    def diagnostic(self, d: Diagnostic) -> None:
        if d.is_error:
            self.out.write(f"not ok {d.code}\n")

    def finish(self, reports: Sequence[FileReport]) -> None:
        self.out.write(f"1..{len(reports)}\n")


def test_a_check_format_registered_is_offered_and_used(in_root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert "tap" not in option("check", "--format").type.choices  # type: ignore[attr-defined]
    monkeypatch.setitem(CHECK_FORMATS, "tap", CheckFormat("tap", TapPrinter, "Test Anything Protocol lines"))
    help_text = invoke("check", "--help").output
    assert "[text|json|github|junit|sarif|gitlab|tap]" in help_text
    assert "tap (Test Anything Protocol lines)" in " ".join(help_text.split())
    assert complete(["check", "--format"], "t") == [("text", CHECK_FORMATS["text"].help),
                                                    ("tap", "Test Anything Protocol lines")]
    result = invoke("check", "--format", "tap", "samples/invalid/illegal-plays.log")
    assert result.exit_code == 1
    codes = [line.split()[2] for line in invoke("check", "--no-source", "samples/invalid/illegal-plays.log")
             .output.splitlines() if " error " in line]
    assert codes and result.output == "".join(f"not ok {c}\n" for c in codes) + "1..1\n"


def test_a_check_format_taken_out_is_refused(in_root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delitem(CHECK_FORMATS, "junit")
    result = invoke("check", "--format", "junit", "samples/short-classic.log")
    assert result.exit_code == 2
    assert "'junit' is not one of 'text', 'json', 'github', 'sarif', 'gitlab'." in result.output
    assert "[text|json|github|sarif|gitlab]" in invoke("check", "--help").output


def _lines(r: Request) -> Rendered:
    table = r.view.table(r.board, r.fmt)
    rows: list[Sequence[object]] = [table.headers, *table.rows]
    return Rendered(Chunks(lambda: (" / ".join("" if c is None else str(c) for c in row) + "\n" for row in rows)))


def _ranked(board: Scoreboard, fmt: str) -> Grid:
    return Grid(["player"], [[s.name] for s in board.standings], (0,))


def test_a_score_view_and_format_registered_are_offered_and_used(in_root: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(SCORE_FORMATS, "lines", ScoreFormat("lines", _lines, "slash-separated lines",
                                                            for_people=False))
    monkeypatch.setitem(VIEWS, "names", View("names", _ranked, "the players in rank order"))
    help_text = " ".join(invoke("score", "--help").output.split())
    assert "lines (slash-separated lines)" in help_text and "[player|hand|night|names]" in help_text
    assert "names (the players in rank order)" in help_text
    assert complete(["score", "--format"], "li") == [("lines", "slash-separated lines")]
    result = invoke("score", "--by", "names", "--format", "lines", "samples/classic-night.log")
    assert result.exit_code == 0
    assert result.output.splitlines()[0] == "player" and len(result.output.splitlines()) > 2
    refused = invoke("score", "--format", "lines", "--chart", "samples/classic-night.log")
    assert refused.exit_code == 2 and "--chart draws in the terminal: it does not go with --format lines" in refused.output


def test_an_unknown_score_format_is_refused_with_the_registry_s_names(in_root: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    result = invoke("score", "--format", "nope", "samples/classic-night.log")
    tables = ", ".join(name for name, f in SCORE_FORMATS.items() if f.tabulate)
    assert result.exit_code == 2
    assert f"'nope' is not a format: expected csv, json or a tabulate table format ({tables})" in result.output
    assert "tsv" in tables and "simple" in tables
    monkeypatch.setitem(SCORE_FORMATS, "lines", ScoreFormat("lines", _lines, "lines", for_people=False))
    assert "expected csv, json, lines or a tabulate" in invoke("score", "--format", "nope", "x.log").output


def test_start_up_imports_no_library() -> None:
    """``kcref --version`` (and building the command line) imports no parser, table or engine."""
    code = ("import sys\nfrom kcref.cli import main\n"
            "try:\n    main(['--version'], prog_name='kcref')\nexcept SystemExit:\n    pass\n"
            "print(' '.join(sorted(m for m in sys.modules if m.split('.')[0] in ('pyparsing', 'tabulate', 'kcref'))))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT).stdout
    *lines, loaded = out.splitlines()
    assert lines == [f"kcref, version {__import__('kcref').__version__} ({build()})"]
    modules = loaded.split()
    assert not [m for m in modules if not m.startswith(("kcref.cli", "kcref.model.status", "kcref.model.version"))
                and m not in ("kcref", "kcref.model")], modules


def test_python_m_kcref_cli_runs_the_command() -> None:
    result = subprocess.run([sys.executable, "-m", "kcref.cli", "--version"], capture_output=True, text=True,
                            cwd=ROOT)
    assert result.returncode == 0 and result.stdout.startswith("kcref, version ")


# --- the loops behind the commands, without click ----------------------------------------------


def test_run_check_returns_the_exit_status(tmp_path: Path) -> None:
    good, bad = ROOT / "samples" / "short-classic.log", ROOT / "samples" / "invalid" / "illegal-plays.log"
    out = io.StringIO()
    assert run_check(resolve([str(good)]), CheckSettings(), out) is ExitStatus.OK
    assert out.getvalue().startswith("1 file, ")
    assert run_check(resolve([str(good), str(bad)]), CheckSettings(format="json", jobs=2), io.StringIO()) is ExitStatus.FOUND
    missing = str(tmp_path / "missing.log")
    assert run_check(resolve([str(bad), missing]), CheckSettings(quiet=True), io.StringIO()) is ExitStatus.USAGE


def test_run_check_shows_progress_from_ten_files() -> None:
    seen: list[int] = []

    def progress(reports: Iterable[FileReport], count: int) -> AbstractContextManager[Iterable[FileReport]]:
        seen.append(count)
        return nullcontext(reports)

    log = str(ROOT / "samples" / "short-classic.log")
    few, many = io.StringIO(), io.StringIO()
    assert run_check(resolve([log] * 9), CheckSettings(), few, progress=progress) is ExitStatus.OK
    assert seen == []
    assert run_check(resolve([log] * 10), CheckSettings(), many, progress=progress) is ExitStatus.OK
    assert seen == [10] and many.getvalue().splitlines()[-1].startswith("10 files, ")


def test_run_fmt_says_what_it_did(tmp_path: Path) -> None:
    log = tmp_path / "night.log"
    log.write_text("[Players \"Ann, Bob\"]\nHAND 1\n", encoding="utf-8")
    said: list[str] = []
    out = io.BytesIO()
    assert run_fmt(resolve([str(log)]), Mode.CHECK, Spelling(), out, said.append) is ExitStatus.FOUND
    assert said == [f"would reformat {log}"] and out.getvalue() == b""
    assert run_fmt(resolve([str(log)]), Mode.PRINT, Spelling(), out, said.append) is ExitStatus.OK
    assert out.getvalue() == b'[Players "Ann, Bob"]\nhand 1\n'
    said.clear()
    assert run_fmt(resolve([str(tmp_path / "gone.log")]), Mode.PRINT, Spelling(), out, said.append) \
        is ExitStatus.USAGE
    assert len(said) == 1 and " error KC001 " in said[0]


def test_show_input_says_why_there_is_no_table(tmp_path: Path) -> None:
    from kcref.render.table_view import ViewStyle

    with pytest.raises(NotShown, match=r"^kcref show: "):
        show_input(resolve([str(ROOT / "samples" / "classic-night.log")], one_file=True), 99, None, ViewStyle())
    with pytest.raises(NotShown, match=" error KC001 "):
        show_input(resolve([str(tmp_path)], one_file=True), None, None, ViewStyle())
    assert show_input(resolve([str(ROOT / "samples" / "classic-night.log")], one_file=True), 1, None,
                      ViewStyle(ascii=True))


def test_completion_of_presets_and_option_tags() -> None:
    from kcref.model.options import OPTION_TAGS_BY_NAME, PRESETS_BY_NAME

    presets = [(p.name, p.summary) for p in PRESETS_BY_NAME.values()]
    assert complete(["rules"], "") == presets
    assert complete(["play", "--rules"], "c") == [p for p in presets if p[0].startswith("c")]
    assert complete(["record", "x.log", "--rules"], "fam") == [p for p in presets if p[0] == "family"]
    draw = OPTION_TAGS_BY_NAME["draw"]
    assert ("Draw=", draw.description) in complete(["play", "--option"], "")
    assert complete(["play", "--option"], "dr") == [("Draw=", draw.description), ("DrawnKing=", OPTION_TAGS_BY_NAME["drawnking"].description)]
    assert [v for v, _ in complete(["record", "x.log", "--option"], "Draw=s")] == ["Draw=start", "Draw=stuck"]
    assert [v for v, _ in complete(["play", "--option"], "Scoring=p")] == ["Scoring=penalty", "Scoring=pips"]
    assert complete(["play", "--option"], "Chips=") == []  # a whole number: nothing to offer
    assert complete(["play", "--option"], "Nonsense=") == []
