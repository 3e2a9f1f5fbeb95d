"""Benchmark the kcref reader against a plain ``re`` tokenizer (the ceiling). Run by hand:

    python bench/reader_bench.py [--lines N] [--runs R] [--profile]

It writes a large, realistic log to a temporary file (N turn lines, 200,000 by default: turns
written with names and seat tags, symbols and letters, draws and passes, comments now and then,
and a hand header with deals and a layout every ~30 turns; it need not be a legal game), then
times, as the median of R runs:

- the kcref reader, ``kcref.notation.reader.read_file``, every event consumed;
- the ceiling: one compiled regex that splits each line of the same file into its tokens with
  ``finditer`` (a list of token strings per line), and nothing else;
- pyparsing alone: every line of a 20,000-line prefix through ``kcref.notation.reader.parse_line``, the
  normative grammar without any fast path, for comparison.

The target is the reader at >= 50% of the ceiling's lines/s. ``--profile`` adds a cProfile
of one reader run.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import os
import pstats
import random
import re
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from kcref.notation.reader import parse_line, read_file

TARGET = 0.50
PREFIX_LINES = 20_000

PLAYERS = [("Ann", "P1"), ("Bob", "P2"), ("Cy", "P3"), ("Mary Jo", "P4")]
RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
SUIT_SPELLINGS = {"S": ["S", "S", "s", "♠"], "H": ["H", "H", "h", "♥"], "D": ["D", "D", "d", "♦️"],
                  "C": ["C", "C", "c", "♣"]}
FOUNDATIONS = ["N", "E", "S", "W"]
CORNERS = ["NE", "NW", "SE", "SW"]
COMMENTS = ["# out", "# nice", "# slow play", "# Bob thinks"]


def _card(rng: random.Random, plain: bool = False) -> str:
    rank = rng.choice(RANKS)
    suit = rng.choice("SHDC")
    if plain:
        return rank + suit
    if rank == "10" and rng.random() < 0.2:
        rank = "T"
    return rank + rng.choice(SUIT_SPELLINGS[suit])


def _action(rng: random.Random) -> str:
    roll = rng.random()
    if roll < 0.55:
        card = _card(rng)
        pile = rng.choice(CORNERS) if card.startswith("K") else rng.choice(FOUNDATIONS)
        return f"{card}->{pile}"
    if roll < 0.65:
        return f"{rng.choice(FOUNDATIONS)}->{rng.choice(FOUNDATIONS + CORNERS)}"
    if roll < 0.85:
        return "draw"
    return f"draw {_card(rng)}"


def _turn(rng: random.Random, seat: int) -> str:
    name, tag = PLAYERS[seat]
    who = tag if rng.random() < 0.4 else name
    if rng.random() < 0.04:
        actions = ["pass"]
    else:
        actions = [_action(rng) for _ in range(rng.choice((1, 1, 2, 2, 3, 4)))]
        if rng.random() < 0.6 and actions[-1] != "draw":
            actions.append("draw")
    line = f"{who}: {'; '.join(actions)}"
    if rng.random() < 0.03:
        line += " " + rng.choice(COMMENTS)
    return line


def generate(path: str, turns: int, seed: int = 2026) -> int:
    """Write a log of ``turns`` turn lines (plus headers) to ``path``; return its number of lines."""
    rng = random.Random(seed)
    out = io.StringIO()
    out.write('[Event "Benchmark night"]\n[Date "2026-11-27"]\n')
    out.write(f'[Players "{", ".join(n for n, _ in PLAYERS)}"]\n[Rules "classic"]\n\n')
    written = lines = 0
    hand = 0
    while written < turns:
        hand += 1
        out.write(f"hand {hand} dealer {PLAYERS[(hand - 1) % len(PLAYERS)][0]}\n")
        for name, _ in PLAYERS:
            out.write(f"deal {name}: {' '.join(_card(rng, plain=True) for _ in range(7))}\n")
        out.write("layout " + " ".join(f"{p}:{_card(rng, plain=True)}" for p in FOUNDATIONS) + "\n")
        lines += 2 + len(PLAYERS)
        seat = hand % len(PLAYERS)
        for _ in range(min(rng.randint(24, 36), turns - written)):
            out.write(_turn(rng, seat) + "\n")
            seat = (seat + 1) % len(PLAYERS)
            written += 1
            lines += 1
        if rng.random() < 0.1:
            out.write("blocked\n")
            lines += 1
        out.write("\n")
        lines += 1
    Path(path).write_text(out.getvalue(), encoding="utf-8")
    return lines + 5


# --- the ceiling: one regex that tokenizes a line, and nothing else ------------------------------
TOKEN = re.compile(
    r"""(?P<comment>\#.*)
      | (?P<value>"(?:[^"\\]|\\.)*")
      | (?P<card>(?:10|[2-9AaTtJjQqKk])(?:[SHDCshdc]|[♠♥♦♣♤♡♢♧]\ufe0f?)(?![\w\ufe0f]))
      | (?P<pile>(?:[Nn][EeWw]?|[Ss][EeWw]?|[Ee]|[Ww])(?!\w))
      | (?P<arrow>->|→)
      | (?P<word>[\w'.\-]+)
      | (?P<punct>[;:\[\]])
      | (?P<other>\S)""",
    re.VERBOSE,
)


def tokenize_file(path: str) -> int:
    """The ceiling: split every line of ``path`` into its token strings. Returns the line count."""
    count = tokens = 0
    finditer = TOKEN.finditer
    with open(path, encoding="utf-8-sig") as f:
        for line in f:
            line_tokens = [m.group() for m in finditer(line)]
            tokens += len(line_tokens)
            count += 1
    return count


def read_all(path: str) -> int:
    """The kcref reader: every event (and diagnostic) of ``path`` consumed. Returns the item count."""
    count = 0
    for _ in read_file(path):
        count += 1
    return count


def grammar_only(prefix: list[str]) -> int:
    """Every line through the normative pyparsing grammar, no fast path."""
    for n, line in enumerate(prefix, 1):
        parse_line(line, "bench.log", n)
    return len(prefix)


def median_time(fn: Callable[[], object], runs: int) -> float:
    """The median wall time of ``runs`` calls of ``fn``."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main(argv: list[str] | None = None) -> int:
    """Generate the log, time the three readers and print the table; 1 when the target is missed."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lines", type=int, default=200_000, help="turn lines to generate (default 200000)")
    parser.add_argument("--runs", type=int, default=3, help="runs per measure; the median is kept (default 3)")
    parser.add_argument("--profile", action="store_true", help="also profile one reader run with cProfile")
    parser.add_argument("--keep", action="store_true", help="keep the generated log and print its path")
    args = parser.parse_args(argv)

    fd, path = tempfile.mkstemp(prefix="kcref-bench-", suffix=".log")
    os.close(fd)
    try:
        total_lines = generate(path, args.lines)
        size_mb = os.path.getsize(path) / 1e6
        print(f"log: {total_lines:,} lines ({args.lines:,} turn lines), {size_mb:.1f} MB; median of {args.runs} runs")
        items = read_all(path)
        errors = [d for d in read_file(path) if hasattr(d, "code")]
        assert not errors, f"the generated log has syntax errors: {errors[:3]}"
        assert tokenize_file(path) == total_lines

        with open(path, encoding="utf-8-sig") as f:
            prefix = [line.rstrip("\r\n") for _, line in zip(range(PREFIX_LINES), f)]

        ceiling = median_time(lambda: tokenize_file(path), args.runs)
        reader = median_time(lambda: read_all(path), args.runs)
        slow = median_time(lambda: grammar_only(prefix), args.runs)

        rows = [
            ("re tokenizer (ceiling)", total_lines, ceiling, size_mb),
            ("kcref reader", total_lines, reader, size_mb),
            ("pyparsing only (prefix)", len(prefix), slow, size_mb * len(prefix) / total_lines),
        ]
        ceiling_rate = total_lines / ceiling
        print(f"\n{'':<24} {'lines':>9} {'seconds':>8} {'lines/s':>10} {'MB/s':>7} {'vs ceiling':>10}")
        for name, lines, seconds, mb in rows:
            rate = lines / seconds
            print(f"{name:<24} {lines:>9,} {seconds:>8.3f} {rate:>10,.0f} {mb / seconds:>7.2f} "
                  f"{rate / ceiling_rate:>10.0%}")
        ratio = (total_lines / reader) / ceiling_rate
        verdict = "met" if ratio >= TARGET else "MISSED"
        print(f"\nreader / ceiling = {ratio:.0%} (target >= {TARGET:.0%}): {verdict}; {items:,} events read")

        if args.profile:
            profiler = cProfile.Profile()
            profiler.runcall(read_all, path)
            print()
            pstats.Stats(profiler).sort_stats("tottime").print_stats(15)
        if args.keep:
            print(f"log kept at {path}")
        return 0 if ratio >= TARGET else 1
    finally:
        if not args.keep:
            os.unlink(path)


if __name__ == "__main__":
    sys.exit(main())
