"""The fuzzing harness shared by tests/test_fuzz_commands.py and bench/fuzz_long.py.

- ``base_logs()``: valid and nearly valid logs to start from (the samples, the crash corpus,
  self-play logs of every preset).
- ``mutate(data, rng, n)``: ``n`` random edits of a log's bytes: the line edits of
  tests/test_hardening.py, sample lines and tokens spliced in (tests/test_fuzz.py), random bytes,
  control characters, hostile tags and names, truncation.
- ``VARIANTS``: one command line per command and output format (check, score, fmt, show,
  rules, play), without the file.
- ``run(args)`` invokes the CLI in-process and ``problems(args, result)`` lists what is wrong
  with the outcome: an exception, an exit status outside 0-2, a traceback, output that does
  not parse (JSON, JUnit XML), raw control bytes on a terminal stream.
"""

from __future__ import annotations

import json
import random
import re
import shutil
import xml.etree.ElementTree as ET
from functools import cache
from pathlib import Path

from click.testing import CliRunner, Result

from kcref.cli import main
from tests.test_fuzz import SAMPLE_LINES
from tests.test_fuzz import TOKENS as SOUP_TOKENS
from tests.test_hardening import EDITS, edit, played
from tests.util import ROOT

# --- inputs -------------------------------------------------------------------------------------


@cache
def base_logs() -> tuple[bytes, ...]:
    """Logs to mutate: every sample (valid and invalid), the crash corpus, a dozen self-play logs."""
    files = sorted((ROOT / "samples").rglob("*.log")) + sorted((ROOT / "tests" / "corpus").glob("*.log"))
    logs = [f.read_bytes() for f in files]
    logs += ["\n".join(played(i)).encode() for i in range(12)]
    return tuple(logs)


CONTROLS = [chr(c) for c in [*range(0x20), 0x7F, 0x85, 0x9B]] + [
    "\u2028", "\u2029", "\ufeff", "\uffff", "\ufffe", "\u200b", "\u202e", "\x1b[31m", "\x1b]0;PWNED\x07", "\f"]
HOSTILE_TAGS = [
    '[Date "\x1b]0;PWNED\x07"]', '[Players "Ann, B\x01ob\uffff"]', '[Players "Ann, Bob, Ann"]',
    '[Players "a, b, c, d, e, f, g"]', '[Players "Ann"]', '[Players "N, hand, draw"]',
    '[Rules "commercial"]', '[Rules "family"]', '[Rules "cl\x00assic"]', '[Rules "nope"]',
    '[Scoring "<b>&amp;</b>"]', '[Event "' + "é" * 300 + '"]', '[Draw "start"]', '[Draw "sideways"]',
    '[Date "2026-02-30"]', '[Event "a]b"]', '[Event "unterminated]', '[ "x"]', '[Players ""]',
    '[Chips "-5"]', '[Kings "corner"]', '[Event "\\"quoted\\" \\\\"]', '[Players "Ann, Bob"] # \x1b[2J',
]
HOSTILE_NAMES = ["\x1b[31mRed", "Ann\uffff", "Bo\u202eb", "<Cy>", "a&b", "P9", "N", "hand", "O'Neil", "\u2028x"]
HOSTILE_BYTES = [b"\xff", b"\xfe\xff", b"\xc3", b"\xed\xa0\x80", b"\x00", b"\r", b"\r\n", b"\n\n", b"\x1b",
                 b"\xef\xbb\xbf", b"\xf0\x9f\x82\xa1"]
MUTATIONS = (*EDITS, "splice line", "splice token", "random bytes", "control char", "hostile tag",
             "hostile name", "truncate", "blank out", "long line")


def mutate(data: bytes, rng: random.Random, n: int) -> bytes:
    """``data`` after ``n`` random edits (a mix of line, text and byte edits)."""
    for _ in range(n):
        data = _mutate_once(data, rng, rng.choice(MUTATIONS))
    return data


def _mutate_once(data: bytes, rng: random.Random, kind: str) -> bytes:
    if kind == "random bytes":
        at = rng.randint(0, len(data))
        blob = rng.choice([bytes(rng.randrange(256) for _ in range(rng.randint(1, 12))), rng.choice(HOSTILE_BYTES)])
        return data[:at] + blob + data[at:]
    if kind == "truncate":
        return data[: rng.randint(0, len(data))]
    text = data.decode("utf-8", "surrogateescape")
    lines = text.split("\n") or [""]
    i = rng.randrange(len(lines))
    if kind in EDITS:
        lines = edit(lines, rng, kind) or [""]
    elif kind == "splice line":
        lines.insert(i, rng.choice(SAMPLE_LINES))
    elif kind == "splice token":
        j = rng.randint(0, len(lines[i]))
        lines[i] = lines[i][:j] + rng.choice(SOUP_TOKENS) + lines[i][j:]
    elif kind == "control char":
        j = rng.randint(0, len(lines[i]))
        lines[i] = lines[i][:j] + rng.choice(CONTROLS) + lines[i][j:]
    elif kind == "hostile tag":
        lines.insert(rng.choice([0, i]), rng.choice(HOSTILE_TAGS))
    elif kind == "hostile name":
        for name in ("Ann", "Bob", "Cy", "Dee", "P1", "P2"):
            if name in text:
                new = rng.choice(HOSTILE_NAMES)
                lines = [line.replace(name, new) for line in lines]
                break
    elif kind == "blank out":
        lines[i] = rng.choice(["", " ", "\t", "#", "\r"])
    else:  # long line
        lines.insert(i, rng.choice(["x", "Ann: draw; ", "é", "4S->N; ", "\ufffd"]) * rng.randint(100, 3000))
    return "\n".join(lines).encode("utf-8", "surrogateescape")


# --- commands -----------------------------------------------------------------------------------

SCORE_TABLES = ("simple", "plain", "github", "grid", "pipe", "html", "latex", "rst", "tsv", "csv", "json")
PRESET_WORDS = ["classic", "commercial", "family", "Classic", " family ", "nope", "", "\x1b[2J", "é" * 50]


def _score_variants() -> list[list[str]]:
    out = []
    for fmt in SCORE_TABLES:
        for by in ("player", "hand", "night"):
            out.append(["score", "--format", fmt, "--by", by])
        out.append(["score", "--skip-invalid", "--format", fmt])
    for by in ("player", "hand", "night"):
        out += [["score", "--chart", "--by", by], ["score", "--chart", "--ascii", "--skip-invalid", "--by", by]]
    return out


VARIANTS: dict[str, list[list[str]]] = {
    "check": [["check", "--format", f, *extra] for f in ("text", "json", "github", "junit", "sarif", "gitlab")
              for extra in ([], ["--strict"], ["--no-source"], ["--quiet", "--strict"])],
    "score": _score_variants(),
    "fmt": [["fmt"], ["fmt", "--check"], ["fmt", "--diff"], ["fmt", "--ten", "T", "--symbols"], ["fmt", "--write"]],
    "show": [["show"], ["show", "--full"], ["show", "--ascii"], ["show", "--hand", "1"], ["show", "--hand", "2"],
             ["show", "--line", "5"], ["show", "--line", "12"], ["show", "--line", "30", "--full"]],
}
"""Command lines that take one log file (appended when run)."""

FILE_COMMANDS = tuple(VARIANTS)


def extra_variants(rng: random.Random) -> list[str]:
    """A random command line for the commands that take no file: rules and play."""
    if rng.random() < 0.3:
        return ["rules", *([rng.choice(PRESET_WORDS)] if rng.random() < 0.8 else [])]
    args = ["play", "--players", str(rng.randint(2, 6)), "--rules", rng.choice(PRESET_WORDS[:4]),
            "--seed", str(rng.randrange(10_000)), "--hands", str(rng.randint(1, 3)),
            "--bot", rng.choice(["random", "greedy"])]
    if rng.random() < 0.4:
        tag = rng.choice(["Draw", "Kings", "Chips", "Scoring", "Ante", "Nope", "Rules"])
        args += ["--option", f"{tag}={rng.choice(['start', 'end', 'corner', '3', '-1', 'x', '', 'hands'])}"]
    return args


# --- running and judging ------------------------------------------------------------------------

# Control characters that must never reach a terminal raw; tab and line feed are fine.
_RAW = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def run(args: list[str], stdin: bytes | None = None) -> Result:
    """Invoke ``kcref ARGS`` in-process (standard output and standard error kept apart)."""
    return CliRunner().invoke(main, args, input=stdin, env={"GITHUB_ACTIONS": None, "NO_COLOR": None})


def _raw_controls(stream: str) -> list[str]:
    return sorted({repr(m.group()) for m in _RAW.finditer(stream)})


def problems(args: list[str], result: Result) -> list[str]:
    """What is wrong with the outcome of ``kcref ARGS``, as short labels (empty: nothing)."""
    found: list[str] = []
    exc = result.exception
    if exc is not None and not isinstance(exc, SystemExit):
        found.append(f"exception {type(exc).__name__}: {str(exc)[:200]}")
        return found
    if result.exit_code not in (0, 1, 2):
        found.append(f"exit status {result.exit_code}")
    out, err = result.stdout, result.stderr
    if "Traceback (most recent call last)" in out + err:
        found.append("traceback in the output")
    command = args[0]
    fmt = args[args.index("--format") + 1] if "--format" in args else None
    if out.strip() and fmt in ("json", "sarif", "gitlab"):
        try:
            json.loads(out)
        except ValueError as e:
            found.append(f"JSON does not parse: {e}")
    if out.strip() and fmt == "junit":
        try:
            ET.fromstring(out.encode("utf-8", "surrogateescape"))
        except ET.ParseError as e:
            found.append(f"JUnit XML does not parse: {e}")
    # fmt and play print logs (the input's own bytes); every other output is for a terminal.
    streams = [("stderr", err)] if command in ("fmt", "play") else [("stdout", out), ("stderr", err)]
    for name, stream in streams:
        raw = _raw_controls(stream)
        if raw:
            found.append(f"raw control characters on {name}: {' '.join(raw)}")
    return found


def run_on_log(args: list[str], data: bytes, folder: Path) -> tuple[list[str], Result]:
    """Write ``data`` to a log in ``folder`` and run ``args`` on it; the problems, and the result."""
    path = folder / "fuzz.log"
    path.write_bytes(data)
    result = run([*args, str(path)])
    found = problems(args, result)
    if not found and args[:2] == ["fmt", "--write"] and result.exit_code == 0:
        again = run(["fmt", "--check", str(path)])
        if again.exit_code != 0:
            found.append(f"fmt --write is not idempotent: fmt --check then exits {again.exit_code}")
    return found, result


CACHE_FORMATS = ("text", "json", "github", "junit", "sarif", "gitlab")
"""The check formats the cache runs compare (each prints from the cache as a fresh check does)."""


def _same_as_fresh(args: list[str], fresh: Result, again: Result, when: str) -> list[str]:
    if (again.exit_code, again.stdout) != (fresh.exit_code, fresh.stdout):
        return [f"{when}: the output differs from a fresh check (exit {again.exit_code}, not {fresh.exit_code})"]
    return []


def cache_problems(args: list[str], data: bytes, folder: Path, rng: random.Random) -> list[str]:
    """Check ``data`` three ways with the cache on (cold, warm, and warm after its entries were
    mutated on disk) and once without it: each must print what the fresh check prints, byte for
    byte. ``args`` is a check command line without the file."""
    path = folder / "cached.log"
    path.write_bytes(data)
    cache_dir = folder / "verdicts"
    shutil.rmtree(cache_dir, ignore_errors=True)
    home = folder / "home-cache"  # the per-user secret of the cache lives under the user's cache folder
    home.mkdir(exist_ok=True)
    env = {"GITHUB_ACTIONS": None, "NO_COLOR": None, "KCREF_NO_CACHE": None, "XDG_CACHE_HOME": str(home)}
    runner = CliRunner()
    fresh = runner.invoke(main, [*args, "--no-cache", str(path)], env=env)
    found = problems(args, fresh)
    if found:
        return found
    cached = [*args, "--cache-dir", str(cache_dir), str(path)]
    for when in ("cold cache", "warm cache"):
        result = runner.invoke(main, cached, env=env)
        found += problems(args, result) or _same_as_fresh(args, fresh, result, when)
    entries = [f for f in cache_dir.rglob("*") if f.is_file() and f.name not in ("CACHEDIR.TAG", ".gitignore")]
    for entry in entries:
        entry.write_bytes(mutate(entry.read_bytes(), rng, rng.randint(1, 3)))
    if entries:
        result = runner.invoke(main, cached, env=env)
        found += problems(args, result) or _same_as_fresh(args, fresh, result, "planted cache entry")
    return found


def report_problems(data: bytes, folder: Path) -> list[str]:
    """``kcref report`` of ``data``: a page written whole (it ends its document) when the exit
    status says it was written, and none of the problems of :func:`problems`."""
    path, page = folder / "night.log", folder / "night.html"
    path.write_bytes(data)
    page.unlink(missing_ok=True)
    args = ["report", str(path), "-o", str(page)]
    result = run(args)
    found = problems(args, result)
    if not found and result.exit_code in (0, 1):
        if not page.exists():
            found.append(f"report exits {result.exit_code} but wrote no page")
        elif not page.read_text(encoding="utf-8", errors="replace").rstrip().endswith("</html>"):
            found.append("report wrote a page that does not end its document")
    return found


def record_problems(data: bytes, folder: Path) -> list[str]:
    """``kcref record`` fed the lines of ``data`` on standard input, into a new log: whatever it
    writes must check clean (exit 0), and the log must resume (record again, no new line: exit 0)."""
    log = folder / "recorded.log"
    log.unlink(missing_ok=True)
    args = ["record", str(log)]
    result = run(args, stdin=data)
    found = problems(args, result)
    if found or not log.exists():
        return found
    checked = run(["check", "--no-source", str(log)])
    if checked.exit_code != 0:
        found.append(f"record wrote a log that check refuses: {checked.stdout.splitlines()[:1]}")
    resumed = run(args, stdin=b"")
    if resumed.exit_code != 0:
        found.append(f"record cannot resume the log it wrote: exit {resumed.exit_code}: "
                     f"{resumed.stderr.splitlines()[:1]}")
    return found


SPECIAL = ("report", "record", "cache")
"""The fuzz runs beyond one command line on one file: the report page, record, and the cache."""


def special_problems(kind: str, data: bytes, folder: Path, rng: random.Random) -> tuple[list[str], list[str]]:
    """Run the fuzz run ``kind`` (one of :data:`SPECIAL`) on ``data``: its command line, and the problems."""
    if kind == "report":
        return ["report"], report_problems(data, folder)
    if kind == "record":
        return ["record"], record_problems(data, folder)
    args = ["check", "--format", rng.choice(CACHE_FORMATS)]
    return args, cache_problems(args, data, folder, rng)


def play_problems(args: list[str]) -> list[str]:
    """Run a ``play`` or ``rules`` line; a log that play writes must also check clean."""
    result = run(args)
    found = problems(args, result)
    if not found and args[0] == "play" and result.exit_code == 0:
        checked = run(["check", "-"], stdin=result.stdout.encode())
        if checked.exit_code != 0:
            found.append(f"a played log does not check clean: {checked.stdout.splitlines()[:1]}")
    return found


