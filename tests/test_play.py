"""Self-play logs: reproducible from a seed, and clean under `kcref check` for every preset and bot."""

from __future__ import annotations

import pytest

from kcref.engine.bots import BOTS, play_log
from kcref.model.codes import Severity
from kcref.model.options import PRESETS_BY_NAME
from kcref.model.options import resolve as resolve_options
from kcref.referee.pipeline import check_text


@pytest.mark.parametrize("rules", sorted(PRESETS_BY_NAME))
@pytest.mark.parametrize("bot", sorted(BOTS))
def test_self_play_checks_clean(rules: str, bot: str) -> None:
    text = "".join(play_log(4, rules, seed=7, hands=3, bot=bot))
    report = check_text(text, "play.log")
    assert [d for d in report.diagnostics if d.severity is not Severity.INFO] == []
    assert len(report.hands) == 3 and all(h.valid and h.finished for h in report.hands)


def test_same_seed_same_log() -> None:
    a = "".join(play_log(3, "commercial", seed=42, hands=2))
    assert a == "".join(play_log(3, "commercial", seed=42, hands=2))
    assert a != "".join(play_log(3, "commercial", seed=43, hands=2))


def test_option_overrides_are_written_and_applied() -> None:
    text = "".join(play_log(2, "classic", {"Draw": "start", "Scoring": "penalty"}, seed=1, hands=2))
    assert '[Draw "start"]' in text and '[Scoring "penalty"]' in text
    report = check_text(text, "play.log")
    assert not any(d.is_error for d in report.diagnostics)
    assert all(h.points is not None for h in report.hands)


def test_bad_options_are_refused() -> None:
    with pytest.raises(ValueError, match="unknown preset"):
        resolve_options("poker", {})
    with pytest.raises(ValueError, match="unknown option"):
        resolve_options("classic", {"Jokers": "yes"})
    with pytest.raises(ValueError, match="expected one of"):
        resolve_options("classic", {"Draw": "never"})


@pytest.mark.parametrize(("value", "said"), [("²", "expected a whole number"), ("①", "expected a whole number"),
                                              ("١٢", "expected a whole number"), ("1" * 5000, "expected a whole number")])
def test_a_count_is_ascii_digits(value: str, said: str) -> None:
    """int() took '١٢' (Arabic-Indic digits) for 12; digits int() refuses ('²', '①', more than
    Python reads) are refused in kcref's words too."""
    with pytest.raises(ValueError, match=said):
        resolve_options("commercial", {"Target": value})


@pytest.mark.parametrize(("players", "rules", "options", "seed", "hands"), [
    (5, "classic", {"ForcedKings": "chips", "CompletedPiles": "remove"}, 686493, 1),
    (5, "family", {"ForcedKings": "error", "CompletedPiles": "remove"}, 935515, 5),
    (5, "commercial", {"CompletedPiles": "remove"}, 92218, 5),
])
def test_a_dealt_king_whose_corner_is_completed_and_cleared_went_to_a_corner(
        players: int, rules: str, options: dict[str, str], seed: int, hands: int) -> None:
    """A dealt King put in a corner whose pile is completed and cleared on the same first turn
    met the forced Kings' duty: the bot may draw and end its turn, and the log checks clean
    (the engine once took the King for one played onto a foundation)."""
    text = "".join(play_log(players, rules, options, seed=seed, hands=hands))
    report = check_text(text, "play.log")
    assert not any(d.is_error for d in report.diagnostics)
