"""Scoring systems are records in one registry: a system defined here alone is accepted by the
``Scoring`` tag, scored by ``kcref score`` and checked by ``kcref check`` like the built-in ones,
and no module of kcref tests which system it holds."""

from __future__ import annotations

import ast
import json
import pickle
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from kcref.cli import main
from kcref.model import systems
from kcref.model.cards import Card, Rank, parse_card
from kcref.model.options import OPTION_TAGS_BY_NAME, resolve, with_scoring
from kcref.model.systems import (
    CARDS_LEFT,
    REACHES,
    SYSTEMS,
    ScoringSystem,
    SystemWords,
    UnknownSystem,
    register,
    system,
    unregister,
)
from tests.util import PACKAGE


def _quarter(card: Card) -> int:
    return 1 if card.rank is Rank.A else 2


@pytest.fixture
def quarters() -> Iterator[ScoringSystem]:
    """``quarters``: each card left costs 2, an Ace 1; the lowest total wins; a game ends at 30."""
    new = register(ScoringSystem(
        "quarters", CARDS_LEFT,
        SystemWords("(cards left: Ace 1, any other card 2)", "points", "point", REACHES),
        highest_wins=False, card_value=_quarter, default_target=30))
    yield new
    unregister("quarters")


# --- a night under the new system ----------------------------------------------------------------

LAYOUT = "layout N:9D E:JS S:3C W:5H"
RUN = "10H 9S 8D 7C 6H 5S 4D"
"""The winner's deal: all of it goes on the Jack at E, so the winner goes out in one turn."""
DRAWN = "2H"
NIGHT = (("Ann", "QH 7H 6S 2C AD 9C 5D"), ("Bob", "QH 7H 6S AC AD 9C 5D"), ("Ann", "QH 7H 6S 2C AD 9C 5D"))
"""Per hand: the player who plays first (the deal passes left from Bob), draws 2H and is left
holding it with the whole deal; then the other goes out."""


def _cost(cards: str) -> int:
    """What the cards cost under quarters, counted here from their text alone."""
    return sum(1 if text[0] == "A" else 2 for text in cards.split())


def _expected() -> list[dict[str, int]]:
    """Each hand's score per player: the first player's cards left; the one who went out, 0."""
    return [{first: _cost(f"{deal} {DRAWN}"), ("Bob" if first == "Ann" else "Ann"): 0} for first, deal in NIGHT]


def _night(claims: list[str] | None = None) -> str:
    """The log of the night, with a ``score`` line after each hand where ``claims`` gives one."""
    lines = ['[Players "Ann, Bob"]', '[Scoring "quarters"]']
    for number, (first, deal) in enumerate(NIGHT, 1):
        other = "Bob" if first == "Ann" else "Ann"
        lines += ["", f"hand {number}", f"deal {first}: {deal}", f"deal {other}: {RUN}", LAYOUT,
                  f"{first}: draw {DRAWN}", f"{other}: " + "; ".join(f"{c}->E" for c in RUN.split())]
        if claims is not None and claims[number - 1]:
            lines.append(claims[number - 1])
    return "\n".join(lines) + "\n"


def _kcref(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.stdout, result.stderr


def test_kcref_score_counts_a_system_registered_by_a_test(quarters: ScoringSystem, tmp_path: Path) -> None:
    expected = _expected()
    assert expected == [{"Ann": 15, "Bob": 0}, {"Bob": 14, "Ann": 0}, {"Ann": 15, "Bob": 0}]
    totals = {name: sum(hand[name] for hand in expected) for name in ("Ann", "Bob")}
    log = tmp_path / "night.log"
    log.write_text(_night(), encoding="utf-8")
    code, out, err = _kcref("score", "--format", "json", str(log))
    assert (code, err) == (0, "")
    doc = json.loads(out)
    assert doc["scoring"] == ["quarters"]
    assert {p["name"]: p["points"] for p in doc["players"]} == totals == {"Ann": 30, "Bob": 14}
    # The default target, 30, ends the game at the third hand; the lowest total wins it.
    [game] = doc["games"]
    assert (game["target"], game["hands"], game["over"], game["winners"]) == (30, 3, True, ["Bob"])
    assert doc["rules"][0]["description"] == (
        'classic + Scoring "quarters" + Target "30". Scoring: quarters (cards left: Ace 1, any other card 2); '
        "the game ends when someone reaches 30; the lowest total wins.")
    code, out, err = _kcref("score", "--by", "hand", "--format", "csv", str(log))
    assert code == 0
    rows = out.splitlines()[1:]
    assert [row.split(",")[4:6] for row in rows] == [[str(h["Ann"]), str(h["Bob"])] for h in expected]


def test_kcref_check_accepts_score_lines_under_the_new_system(quarters: ScoringSystem, tmp_path: Path) -> None:
    expected = _expected()
    right = [f"score Ann {h['Ann']}, Bob {h['Bob']}" for h in expected]
    right[1] = f"score Bob -{expected[1]['Bob']}"  # penalty points may be written negative
    log = tmp_path / "night.log"
    log.write_text(_night(right), encoding="utf-8")
    code, out, _ = _kcref("check", "--no-source", str(log))
    assert code == 0 and "KC6" not in out

    wrong = [f"score Ann {expected[0]['Ann'] + 1}", "", "pot 3"]
    log.write_text(_night(wrong), encoding="utf-8")
    code, out, _ = _kcref("check", "--no-source", str(log))
    assert code == 1
    messages = [line.split(": ", 1)[1] for line in out.splitlines() if ": error KC6" in line]
    assert messages == [
        f"error KC601 the log says Ann scored {expected[0]['Ann'] + 1}; kcref counts {expected[0]['Ann']} "
        "(6S 2H 7H QH AD 5D 2C 9C left)",
        "error KC602 'pot' states chips, but no chips are played in this hand (Scoring \"quarters\")",
    ]


# --- the registry ----------------------------------------------------------------------------------


def test_the_scoring_tag_accepts_and_lists_what_is_registered(quarters: ScoringSystem) -> None:
    assert OPTION_TAGS_BY_NAME["scoring"].values == "none | chips | stacks | penalty | pips | dutch | quarters"
    options = resolve("family", {"Scoring": " Quarters "})
    assert options.scoring is quarters and options.target == 30
    with pytest.raises(ValueError, match=r"expected one of none, chips, stacks, penalty, pips, dutch, quarters$"):
        resolve("classic", {"Scoring": "halves"})
    assert quarters.card_value is not None
    assert [quarters.card_value(parse_card(c)) for c in ("AS", "2S", "KS")] == [1, 2, 2]


def test_an_unknown_system_is_a_clear_error() -> None:
    assert "quarters" not in SYSTEMS  # the fixture took it away again
    with pytest.raises(UnknownSystem, match="unknown scoring system 'quarters': expected one of none, chips"):
        system("quarters")
    with pytest.raises(ValueError, match=r"^Scoring 'quarters': expected one of none, chips, stacks, penalty, pips, dutch$"):
        resolve("classic", {"Scoring": "quarters"})


def test_the_registry_refuses_a_name_taken_or_one_a_tag_cannot_spell(quarters: ScoringSystem) -> None:
    with pytest.raises(ValueError, match="already registered"):
        register(ScoringSystem("penalty", CARDS_LEFT, quarters.words, highest_wins=False, card_value=_quarter))
    for bad in ("", "Quarters", "two words", 'say "x"'):
        with pytest.raises(ValueError, match="lower case"):
            register(ScoringSystem(bad, CARDS_LEFT, quarters.words, highest_wins=False, card_value=_quarter))
    assert list(SYSTEMS)[-1] == "quarters"


def test_picking_a_system_takes_its_target_and_the_options_it_implies() -> None:
    stacks = with_scoring(resolve("commercial", {}), system("stacks"))
    assert (stacks.target, stacks.king_chips) == (None, 10)
    pips = with_scoring(resolve("classic", {}), system("pips"))
    assert (pips.target, pips.king_chips) == (250, 1)


def test_options_pickle_with_the_same_system(quarters: ScoringSystem) -> None:
    """Worker processes (kcref check --jobs) hand verdicts back pickled: a system comes back as itself."""
    options = resolve("classic", {"Scoring": "quarters"})
    assert pickle.loads(pickle.dumps(options)).scoring is quarters
    assert pickle.loads(pickle.dumps(options)) == options


# --- no module tests which system it holds ----------------------------------------------------------

CONSTANTS = frozenset(name for name, value in vars(systems).items() if isinstance(value, ScoringSystem))
"""The systems named in kcref.model.systems (NONE, CHIPS, STACKS, ...)."""
PRESET_MODULE = "model/options.py"
"""The presets name their systems (``scoring=CHIPS``): data, not a test."""


def _system_bindings(tree: ast.Module) -> tuple[set[str], set[str]]:
    """The local names bound to a system constant, and those bound to the systems module itself."""
    names: set[str] = set()
    modules: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            module = node.module or ""
            for alias in node.names:
                if module.split(".")[-1] == "systems" and alias.name in CONSTANTS:
                    names.add(alias.asname or alias.name)
                elif alias.name == "systems":
                    modules.add(alias.asname or alias.name)
        elif isinstance(node, ast.Import):
            modules.update(a.asname or a.name for a in node.names if a.name.endswith(".systems") and a.asname)
    return names, modules


def _allowed_preset_use(parents: dict[ast.AST, ast.AST], node: ast.AST) -> bool:
    parent = parents.get(node)
    if isinstance(parent, ast.keyword):
        return parent.arg == "scoring"
    return (isinstance(parent, ast.AnnAssign) and parent.value is node and isinstance(parent.target, ast.Name)
            and parent.target.id == "scoring")


def system_mentions(source: str, presets: bool = False) -> list[str]:
    """Where ``source`` names a particular scoring system: uses of the named systems, and names of
    systems compared or looked up (``o.scoring.name == "stacks"``, ``SYSTEMS["dutch"]``), as
    ``line: text``. With ``presets``, ``scoring=CHIPS`` in a preset is allowed."""
    tree = ast.parse(source)
    names, modules = _system_bindings(tree)
    parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
    known = set(SYSTEMS)
    found: list[str] = []
    for node in ast.walk(tree):
        named = (isinstance(node, ast.Name) and node.id in names and isinstance(node.ctx, ast.Load)) or (
            isinstance(node, ast.Attribute) and node.attr in CONSTANTS and isinstance(node.value, ast.Name)
            and node.value.id in modules)
        if named and not (presets and _allowed_preset_use(parents, node)):
            found.append(f"{node.lineno}: {ast.unparse(node)}")
        if isinstance(node, ast.Compare):
            parts = [node.left, *node.comparators]
            literal = any(isinstance(p, ast.Constant) and p.value in known for p in parts)
            about = any("scoring" in ast.unparse(p) or "system" in ast.unparse(p) for p in parts)
            if literal and about:
                found.append(f"{node.lineno}: {ast.unparse(node)}")
        if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant) and node.slice.value in known:
            found.append(f"{node.lineno}: {ast.unparse(node)}")
        if (isinstance(node, ast.Call) and any(isinstance(a, ast.Constant) and a.value in known for a in node.args)
                and "system" in ast.unparse(node.func)):
            found.append(f"{node.lineno}: {ast.unparse(node)}")
    return found


@pytest.mark.parametrize("source", [
    "from ..model.systems import STACKS\nkeeps = options.scoring is STACKS\n",
    "from ..model.systems import CHIPS as C\nif scoring in (C,):\n    pass\n",
    "from ..model import systems\nchips = options.scoring == systems.CHIPS\n",
    "from .systems import PENALTY\nTABLE = {PENALTY: 1}\n",
    "if record.options.scoring.name == 'stacks':\n    pass\n",
    "from ..model.systems import SYSTEMS\nvalue = SYSTEMS['dutch'].card_value\n",
    "from ..model.systems import system\nnone = system('none')\n",
    "from ..model.systems import NONE\nOPTIONS = Options(scoring=NONE)\n",
])
def test_the_check_finds_a_system_named_outside_its_record(source: str) -> None:
    assert system_mentions(source)


def test_the_check_lets_modules_ask_the_record() -> None:
    source = ("from ..model.systems import SYSTEMS, ScoringSystem, system\n"
              "keeps = options.scoring.keeps_stacks\nname = options.scoring.name\n"
              "parsed = system(text)\nlisted = ' | '.join(SYSTEMS)\nquantity = q.value == 'chips'\n")
    assert system_mentions(source) == []
    assert system_mentions("from .systems import CHIPS\nP = Options(scoring=CHIPS)\n", presets=True) == []


def test_no_module_names_a_scoring_system_outside_model_systems() -> None:
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        where = path.relative_to(PACKAGE).as_posix()
        if where == "model/systems.py":
            continue
        found += [f"{where}:{m}" for m in system_mentions(path.read_text(encoding="utf-8"),
                                                          presets=where == PRESET_MODULE)]
    assert found == []
