"""Nothing from a log or a file name reaches a terminal or a CI system raw, in any check format."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import unicodedata
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kcref.cli import main
from kcref.model.codes import Severity
from kcref.model.diagnostics import (
    Diagnostic,
    defang,
    hidden_but_breaks,
    json_text,
    printable,
    shown_path,
    starts_like_command,
)
from kcref.render.check_formats import xml_safe
from kcref.render.diagnostic_lines import format_github, format_text
from tests.util import ROOT, working_directory

ESC_TITLE = "\x1b]0;PWNED\x07"
BIDI = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c"


def noncharacter(code: int) -> bool:
    return 0xFDD0 <= code <= 0xFDEF or code & 0xFFFE == 0xFFFE


def forbidden(ch: str) -> bool:
    """A character no output may hold raw: controls but tab and LF, format characters (bidi and
    the like), separators, surrogates, noncharacters."""
    if ch in "\t\n":
        return False
    return unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Zl", "Zp") or noncharacter(ord(ch))


def assert_clean(out: str) -> None:
    bad = sorted({f"U+{ord(ch):04X}" for ch in out if forbidden(ch)})
    assert not bad, f"raw characters in the output: {bad}"
    out.encode("utf-8")  # strict: no surrogate left


# --- printable -------------------------------------------------------------------------------


def test_hidden_characters_are_those_of_the_unicode_tables() -> None:
    """The spelled-out ranges cover every control, format character, separator and surrogate of
    this Python's Unicode tables, and nothing visible (only noncharacters and unassigned extras)."""
    for code in range(0x110000):
        ch = chr(code)
        category = unicodedata.category(ch)
        hidden = hidden_but_breaks().fullmatch(ch) is not None
        should = ch not in "\t\n\r" and category in ("Cc", "Cf", "Cs", "Zl", "Zp")
        if should:
            assert hidden, f"U+{code:04X} ({category}) is not hidden"
        elif hidden:
            assert noncharacter(code) or category == "Cn", f"U+{code:04X} ({category}) is hidden"


def test_printable_replaces_one_for_one() -> None:
    text = f"a{ESC_TITLE}b{BIDI}c\x85\x9b\u2028\u2029\ufeff\u200b\u200d\udcff\ud800\ufffe\uffff\U000e0041\x00\x7fz"
    shown = printable(text)
    assert len(shown) == len(text)
    assert shown == "a\ufffd]0;PWNED\ufffdb" + "\ufffd" * len(BIDI) + "c" + "\ufffd" * 14 + "z"
    assert not any(forbidden(ch) for ch in shown)


def test_printable_keeps_what_reads() -> None:
    for text in ("♠\ufe0f ♥\ufe0f", "Zoë O'Neil", "a\tb", "e\u0301", "日本語", "\ufffd"):
        assert printable(text) == text
    assert printable("a\r\nb") == "a\ufffd\ufffdb"
    assert printable("a\r\n\x1bb", keep_breaks=True) == "a\r\n\ufffdb"


def test_caret_lines_up_after_hidden_characters() -> None:
    d = Diagnostic("x.log", 1, 5, Severity.ERROR, "KC104", "m", "\u202e\x1b\udcffaBc")
    _head, src, caret = format_text(d).split("\n")
    assert src.index("B") == caret.index("^")


def test_undecodable_file_name_prints_in_every_format(tmp_path: Path) -> None:
    """A name with byte 0xff reaches Python as '\\udcff', which UTF-8 output cannot encode."""
    folder = tmp_path / "logs"
    folder.mkdir()
    with open(os.path.join(os.fsencode(folder), b"bad\xff.log"), "wb") as f:
        f.write(b'[Players "Ann, Bob"]\nhand 1\nlayout N:8H E:7C S:KD W:9S\nBob: pa\x1b[2Jss\n')
    env = {**os.environ, "PYTHONIOENCODING": "utf-8", "PYTHONPATH": str(ROOT)}
    env.pop("GITHUB_ACTIONS", None)
    for fmt in ("text", "json", "github", "junit"):
        result = subprocess.run([sys.executable, "-m", "kcref", "check", "--format", fmt, str(folder)],
                                capture_output=True, env=env, timeout=60)
        assert result.returncode == 1, (fmt, result.stderr.decode(errors="replace"))
        assert b"Traceback" not in result.stderr
        out = result.stdout.decode("utf-8")
        assert_clean(out)
        assert "bad\ufffd.log" in out
    parsed = json.loads(subprocess.run([sys.executable, "-m", "kcref", "check", "--format", "json", str(folder)],
                                       capture_output=True, env=env, timeout=60).stdout)
    assert parsed["files"][0]["path"] == f"{folder}/bad\ufffd.log"


# --- text ------------------------------------------------------------------------------------


def test_a_long_line_is_windowed_around_the_caret() -> None:
    line = "x" * 500_000 + "Y" + "z" * 500_000
    d = Diagnostic("big.log", 7, 500_001, Severity.ERROR, "KC100", "m", line)
    _head, src, caret = format_text(d).split("\n")
    assert len(src) < 100 and src.startswith("    …") and src.endswith("…")
    assert src[caret.index("^")] == "Y"
    at_end = Diagnostic("big.log", 7, len(line) + 1, Severity.ERROR, "KC105", "m", line)
    _, src, caret = format_text(at_end).split("\n")
    assert len(src) < 100 and src.endswith("zzz") and caret.index("^") == len(src)
    at_start = Diagnostic("big.log", 7, 2, Severity.ERROR, "KC105", "m", "ab" + line)
    _, src, caret = format_text(at_start).split("\n")
    assert src.startswith("    abx") and src[caret.index("^")] == "b"


def test_a_long_source_line_through_check(tmp_path: Path) -> None:
    log = tmp_path / "junk.log"
    log.write_text('[Players "Ann, Bob"]\n[Event "' + "\x1b" * 10 + "j" * 60_000 + '"\n', encoding="utf-8")
    result = CliRunner().invoke(main, ["check", str(log)])
    assert result.exit_code == 1
    assert len(result.output) < 2000
    lines = result.output.splitlines()
    at = next(i for i, line in enumerate(lines) if " error KC105 " in line)
    src, caret = lines[at + 1], lines[at + 2]
    assert src.endswith('jjjj"') and caret.index("^") == len(src)
    assert_clean(result.output)


def test_a_long_message_is_clipped() -> None:
    d = Diagnostic("x.log", 1, 1, Severity.ERROR, "KC100", "m" * 100_000)
    assert len(format_text(d)) < 500 and format_text(d).endswith("m…")
    assert len(format_github(d)) < 500


def test_no_line_starts_a_command() -> None:
    for path in ("::error::x.log", " ::warning::y.log", "\ufe0f::notice::z.log", "\u00a0::group::g.log"):
        d = Diagnostic(path, 1, 1, Severity.ERROR, "KC100", "m", ":: and more")
        for line in format_text(d).split("\n"):
            assert not starts_like_command(line), line
        assert format_text(d).startswith("./")
    assert shown_path("a::b.log") == "a::b.log"
    d = Diagnostic("x.log", 1, 3, Severity.ERROR, "KC100", "##[error]m", "  ::stop-commands::t ##[error]x")
    text = format_text(d)
    assert "##[" not in text and "x.log:1:3: error KC100 ##\ufffderror]m" in text
    assert text.split("\n")[1] == "      \ufffd:stop-commands::t ##\ufffderror]x"
    assert defang("a ##vso[task.logissue] ##teamcity[x] #[ok] ##") == "a ##vso\ufffdtask.logissue] ##teamcity\ufffdx] #[ok] ##"


def test_show_hint_is_one_shell_word(tmp_path: Path) -> None:
    name = "it's a $(rm -rf) \x1b[31m night.log"
    (tmp_path / name).write_bytes((ROOT / "samples" / "invalid" / "illegal-plays.log").read_bytes())
    with working_directory(tmp_path):
        result = CliRunner().invoke(main, ["check", name])
    hints = [line for line in result.output.splitlines() if "= the table then" in line]
    assert len(hints) == 4
    assert hints[0] == ("    = the table then: kcref show 'it'\"'\"'s a $(rm -rf) \ufffd[31m night.log' --line 14")
    assert_clean(result.output)


def test_a_hint_s_path_that_starts_with_a_dash_is_no_option(tmp_path: Path) -> None:
    """A log named ``-x.log`` (given after ``--``) once made hints that kcref took for an option
    when pasted (``kcref show -x.log --line 14``: no such option '-x')."""
    (tmp_path / "-x.log").write_bytes((ROOT / "samples" / "invalid" / "illegal-plays.log").read_bytes())
    with working_directory(tmp_path):
        checked = CliRunner().invoke(main, ["check", "--no-cache", "--", "-x.log"])
        scored = CliRunner().invoke(main, ["score", "--", "-x.log"])
        hint = next(line for line in checked.output.splitlines() if "= the table then" in line)
        assert hint == "    = the table then: kcref show ./-x.log --line 14"
        shown = CliRunner().invoke(main, hint.split(": ", 1)[1].split()[1:])
        assert shown.exit_code == 0 and "after line 14" in shown.output
    assert "'kcref check ./-x.log' shows them" in scored.stderr


# --- GitHub ----------------------------------------------------------------------------------

COMMAND = re.compile(r"::(?P<kind>group|endgroup|error|warning|notice)(?: (?P<props>[^:]*))?::(?P<data>.*)")
PROP = re.compile(r"(?P<key>file|line|col|title)=(?P<value>[^,:]*)")
ESCAPED = re.compile(r"%(?!25|0A|0D|3A|2C)")


def unescape(value: str, prop: bool = False) -> str:
    if prop:
        value = value.replace("%3A", ":").replace("%2C", ",")
    return value.replace("%0D", "\r").replace("%0A", "\n").replace("%25", "%")


def github_commands(out: str) -> list[tuple[str, dict[str, str], str]]:
    """Every workflow command of GitHub output, checked against the command grammar: a line that
    GitHub would read as a command is one we meant, and its fields are escaped."""
    commands = []
    for line in out.split("\n"):
        if not starts_like_command(line):
            assert not re.search(r"##\w*\[", line), line
            continue
        match = COMMAND.fullmatch(line)
        assert match, f"not a well-formed command: {line!r}"
        assert "\r" not in line and not ESCAPED.search(match["data"]), line
        props: dict[str, str] = {}
        if match["props"]:
            for item in match["props"].split(","):
                prop = PROP.fullmatch(item)
                assert prop and not ESCAPED.search(prop["value"]), (item, line)
                props[prop["key"]] = unescape(prop["value"], prop=True)
        commands.append((match["kind"], props, unescape(match["data"])))
    return commands


def test_github_file_name_with_newlines(tmp_path: Path) -> None:
    name = "nl\n::error title=INJECTED::pwned\n.log"
    (tmp_path / name).write_text('[Players "Ann, Bob"]\nhand 1\nlayout N:8H E:7C S:KD W:9S\nBob: pa\n', encoding="utf-8")
    with working_directory(tmp_path):
        result = CliRunner().invoke(main, ["check", "--format", "github", name])
    assert result.exit_code == 1
    commands = github_commands(result.output)
    assert [kind for kind, _, _ in commands] == ["group", "error", "notice", "endgroup"]
    assert commands[0][2] == "kcref check nl\ufffd::error title=INJECTED::pwned\ufffd.log"
    assert commands[1][1] == {"file": name, "line": "4", "col": "6", "title": "KC104"}
    assert result.output.split("\n")[1].startswith("nl\ufffd::error title=INJECTED::pwned\ufffd.log:4:6: error KC104")
    assert "INJECTED" not in "".join(kind + "".join(props) for kind, props, _ in commands)


def test_github_escapes_the_group_title(tmp_path: Path) -> None:
    name = "::stop-commands::t 100% ,x.log"
    (tmp_path / name).write_text('[Players "Ann, Bob"]\n', encoding="utf-8")
    with working_directory(tmp_path):
        result = CliRunner().invoke(main, ["check", "--format", "github", name])
    lines = result.output.split("\n")
    assert lines[0] == "::group::kcref check ::stop-commands::t 100%25 ,x.log"
    assert lines[1].startswith("./::stop-commands::t 100% ,x.log:1:1: warning KC004")
    assert lines[2].startswith("::warning file=%3A%3Astop-commands%3A%3At 100%25 %2Cx.log,line=1,col=1,title=KC004::")


# --- JUnit -----------------------------------------------------------------------------------


def test_junit_is_valid_xml_with_hostile_text(tmp_path: Path) -> None:
    name = "j<&\"'>\x01\u202e.log"
    bad = "\x01\x1b\ufffe\uffff\u202e<&\"'>##[error]x"
    value = bad.replace('"', "")
    (tmp_path / name).write_text(f'[Players "Ann, Bob"]\n[Rules "{value}"]\n# {bad}\nhand 1\nlayout N:8H E:7C S:KD W:9S\n'
                                 f"Bob: {bad}\n", encoding="utf-8")
    with working_directory(tmp_path):
        result = CliRunner().invoke(main, ["check", "--format", "junit", name])
    assert result.exit_code == 1
    assert_clean(result.output)
    assert "##[" not in result.output
    root = ET.fromstring(result.output.encode("utf-8"))
    suite = root.find("testsuite")
    assert suite is not None and suite.get("name") == printable(name)
    failure = root.find(".//failure")
    assert failure is not None and failure.get("type") == "KC206"
    assert failure.get("message") == "unknown rules preset '\ufffd\ufffd\ufffd\ufffd\ufffd<&'>##[error]x': expected one of classic, commercial, family"


def test_xml_safe_replaces_what_xml_forbids() -> None:
    doc = xml_safe("<a b=\"\udcff\">\x00\ufffe\uffff\x1b ##[x</a>")
    assert ET.fromstring(doc.encode("utf-8")).text == "\ufffd\ufffd\ufffd\ufffd ##[x"


# --- JSON ------------------------------------------------------------------------------------


def test_json_is_utf8_and_carries_text_whole() -> None:
    message = f"a{ESC_TITLE}\u2028\u2029\x85{BIDI}\ufeff\U000e0041##[error]x##vso[y"
    d = Diagnostic("p\udcff\n.log", 1, 1, Severity.ERROR, "KC100", message)
    out = json_text({"diagnostics": [d.as_dict()]})
    assert_clean(out)
    assert "##[" not in out and "##vso[" not in out
    parsed = json.loads(out.encode("utf-8"))
    assert parsed["diagnostics"][0]["message"] == message
    # Lone surrogates have no UTF-8 form and I-JSON forbids them escaped: U+FFFD stands in.
    assert parsed["diagnostics"][0]["path"] == "p\ufffd\n.log"
    assert json.loads(json_text({"k\udc80": ["\ud800x"]})) == {"k\ufffd": ["\ufffdx"]}


# --- Properties: every format of `kcref check` on hostile logs and file names ----------------

FRAGMENTS = [
    "\x1b[2J", "\x1b[31m", ESC_TITLE, "\x1b]8;;http://x\x1b\\", "\x01", "\x07", "\x08", "\x7f", "\x85", "\x9b",
    *BIDI, "\u200b", "\u200d", "\ufeff", "\u2028", "\u2029", "\ufffe", "\uffff", "\U000e0041", "\t", "\r",
    "%", "%0A", "%25", "::", "::error::x", "::stop-commands::t", "##[error]", "##vso[task.logissue]",
    "'", '"', "<", "&", ">", "]", ",", ":", "=", "$(x)", "♠\ufe0f", "Zoë", " ", "x" * 3000,
]
# No NUL: a log that holds one is binary (KC003) and is not read further.
# No lone surrogate either: a log is bytes, and only file names carry surrogate escapes.
hostile = st.lists(st.sampled_from(FRAGMENTS) | st.text(st.characters(blacklist_characters="\x00",
                                                                      blacklist_categories=("Cs",)), max_size=4),
                   max_size=8).map("".join)
NAME_FRAGMENTS = [
    "\n", "::error title=INJECTED::pwned", "::", "%", "%0A", ",", ":", "=", "'", '"', "<", "&", " ", "$", "\udcff",
    "\udc80", ESC_TITLE, "\x1b[2J", "\u202e", "\u2066", "\u200f", "\x85", "\ufeff", "##[error]", "x", "é", "-",
]
file_names = st.lists(st.sampled_from(NAME_FRAGMENTS), max_size=6).map("".join)
player_names = st.from_regex(r"Z[\w'.\-]{0,6}", fullmatch=True)


def tag_value(text: str) -> str:
    return re.sub(r'["\\\]\n\r]', "", text)


def hostile_logs(h: str, name: str) -> list[str]:
    """Logs whose hostile text reaches every place that quotes it: a rule error (with the show
    hint), tag values (KC206), player names (KC204, KC205), syntax errors, comments."""
    tag = tag_value(h)
    comment = h.replace("\n", " ").replace("\r", " ")
    rules = (f'# {comment}\n[Players "Ann, Bob, Cy"]\n[Site "{tag}"]\n[Event "{tag}"]\nhand 1 dealer Cy\n'
             "deal Ann: 4H 7D 6H 6C 4C 4D 2C\ndeal Bob: 5H QC QD 3S 9H 5S 10S\ndeal Cy: 8S 5C KH AC 2H 7C AH\n"
             f"layout N:9C E:7H S:JS W:QS\nAnn: 6C->E; draw 5D # {comment}\nBob: 5S->E; draw 7S  # {comment}\n")
    tags = (f'[Players "Ann, Bob, !{tag}"]\n[Rules "{tag}"]\n[Date "{tag}"]\nhand 1\nlayout N:8H E:7C S:KD W:9S\n'
            f"Bob: {h}\n{h}\nAnn: 4S->{h}\n")
    players = f'[Players "Ann, Bob"]\nhand 1\nlayout N:8H E:7C S:KD W:9S\n{name}: pass # {comment}\n'
    return [rules, tags, players]


def write_logs(folder: Path, file_name: str, logs: list[str]) -> list[str]:
    names = []
    for i, log in enumerate(logs):
        name = f"{file_name}{i}.log"
        with open(os.path.join(os.fsencode(folder), os.fsencode(name)), "wb") as f:
            f.write(log.encode("utf-8", "surrogateescape"))
        names.append(name)
    return names


def run_check(folder: Path, names: list[str], fmt: str) -> str:
    with working_directory(folder):
        result = CliRunner().invoke(main, ["check", "--format", fmt, "--", *names])
    assert result.exit_code == 1, result.output
    # Strict decoding: the printer wrote only what UTF-8 can carry.
    return result.stdout_bytes.decode("utf-8")


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(h=hostile, file_name=file_names, name=player_names)
def test_hostile_logs_in_every_format(tmp_path_factory: pytest.TempPathFactory, h: str, file_name: str,
                                      name: str) -> None:
    folder = tmp_path_factory.mktemp("hostile")
    names = write_logs(folder, file_name, hostile_logs(h, name))
    shown = [printable(n) for n in names]

    text = run_check(folder, names, "text")
    assert_clean(text)
    github_commands(text)  # the text format may run in CI too: no line reads as a command
    for code in ("KC301", "KC205", "KC206", "KC204"):
        assert f" error {code} " in text
    assert text.count("= the table then: kcref show ") == 1
    assert all(len(line) < 1000 for line in text.split("\n"))

    out = run_check(folder, names, "github")
    assert_clean(out)
    commands = github_commands(out)
    groups = [data for kind, _, data in commands if kind == "group"]
    assert groups == [f"kcref check {n}" for n in shown]
    files = {props["file"] for kind, props, _ in commands if kind in ("error", "warning", "notice")}
    assert files == {printable(n, keep_breaks=True) for n in names}

    out = run_check(folder, names, "json")
    assert_clean(out)
    github_commands(out)
    body = json.loads(out.encode("utf-8"))
    plain = [re.sub("[\ud800-\udfff]", "\ufffd", n) for n in names]
    assert [f["path"] for f in body["files"]] == plain
    assert {d["path"] for d in body["diagnostics"]} == set(plain)

    out = run_check(folder, names, "junit")
    assert_clean(out)
    github_commands(out)
    root = ET.fromstring(out.encode("utf-8"))
    assert [s.get("name") for s in root.findall("testsuite")] == shown
    assert root.find(".//failure") is not None
