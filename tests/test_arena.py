"""``kcref arena``: duplicate deals, fair play, logs the referee passes, scores as ``kcref score``
counts them, the same results however the games are run, and bots that misbehave."""

from __future__ import annotations

import copy
import json
import os
import random
import sys
from collections.abc import Sequence
from pathlib import Path

import pytest
from click.testing import CliRunner

from kcref.apps.arena.entrants import BadBot, entrants
from kcref.apps.arena.games import Setup
from kcref.apps.arena.results import arena_json
from kcref.apps.arena.run import ArenaRun, game_file, run_arena
from kcref.cli import main
from kcref.engine.bots import BOTS, NAMES, play_hand, play_turn
from kcref.engine.dealing import deal_from_deck
from kcref.engine.duplicate import deal_deck, seatings
from kcref.engine.seats import SeatPlayer, seat_view
from kcref.engine.table import Holding, Table
from kcref.engine.turns import can_end_turn, end_turn, legal_actions
from kcref.model.cards import DECK, Card
from kcref.model.codes import Severity
from kcref.model.diagnostics import Diagnostic
from kcref.model.events import Action, Deal, Draw, Turn
from kcref.model.options import preset
from kcref.notation.reader import read_text
from kcref.referee.hand_score import hand_score
from kcref.referee.pipeline import check_text
from kcref.scoring.season import finishing_ranks
from tests.util import ROOT


def problems(diagnostics: list[Diagnostic]) -> list[Diagnostic]:
    """Errors and warnings (penalties paid are notes, as at any table)."""
    return [d for d in diagnostics if d.severity in (Severity.ERROR, Severity.WARNING)]


HERE = Path(__file__).resolve().parent / "arena"
SEAT_BOTS = HERE / "seat_bots.py"
BAD_BOT = HERE / "bad_bot.py"


def setup(specs: tuple[str, ...], players: int, rules: str = "classic", options: tuple[tuple[str, str], ...] = (),
          seed: int = 7, move_time: float = 1.0) -> Setup:
    return Setup(entrants(specs, players), players, rules, options, seed, move_time, 60.0)


# --- duplicate deals ---------------------------------------------------------------------------


@pytest.mark.parametrize(("bots", "players"), [(2, 2), (3, 3), (4, 3), (5, 2), (6, 6)])
def test_every_entrant_plays_every_seat_of_a_deal_once(bots: int, players: int) -> None:
    games = seatings(bots, players, deal=4)
    assert len(games) == bots
    for seat in range(players):
        assert sorted(g.lineup[seat] for g in games) == list(range(bots))
    assert all(len(set(g.lineup)) == players for g in games)


def test_a_deal_gives_the_same_cards_to_each_seat_in_every_game(tmp_path: Path) -> None:
    run = run_arena(setup(("greedy", "random", "greedy"), 3), 2, output=str(tmp_path))
    by_deal: dict[int, set[tuple[object, ...]]] = {}
    for r in run.results:
        deals = tuple(e.cards for e in read_text(r.log) if isinstance(e, Deal))
        by_deal.setdefault(r.seating.deal, set()).add(deals)
        names = [e.player for e in read_text(r.log) if isinstance(e, Deal)]
        assert names == [run.setup.entrants[e].name for e in r.seating.lineup]
    assert len(by_deal) == 2 and all(len(v) == 1 for v in by_deal.values())
    assert by_deal[1] != by_deal[2]


def test_fewer_bots_than_seats_fill_the_table_with_named_copies() -> None:
    assert [e.name for e in entrants(("greedy", "random"), 3)] == ["Greedy", "Random", "Greedy-2"]
    assert [e.name for e in entrants(("exec:./deal --fast", "exec:python my-bot.py"), 2)] == ["Bot-deal", "my-bot"]
    with pytest.raises(BadBot):
        entrants(("greedy", "nosuchbot"), 2)
    with pytest.raises(BadBot):
        entrants(("greedy",), 2)


# --- the logs and the scores ------------------------------------------------------------------


@pytest.mark.parametrize(("rules", "options"), [
    ("classic", ()), ("commercial", ()), ("family", ()),
    ("classic", (("Scoring", "stacks"),)), ("family", (("Scoring", "pips"), ("Draw", "end"))),
    ("commercial", (("Scoring", "dutch"),)),
])
def test_every_log_checks_clean_and_scores_as_kcref_score(rules: str, options: tuple[tuple[str, str], ...],
                                                           tmp_path: Path) -> None:
    run = run_arena(setup(("greedy", "random", "greedy"), 3, rules, options), 3, output=str(tmp_path))
    assert len(run.results) == 9
    for r in run.results:
        text = (tmp_path / game_file(r)).read_text(encoding="utf-8")
        assert text == r.log
        report = check_text(text, game_file(r))
        assert problems(report.diagnostics) == []
        (verdict,) = report.hands
        assert hand_score(verdict).scores == r.game.scores
        assert finishing_ranks(verdict) == r.game.places


def test_the_cli_writes_logs_that_kcref_check_passes(tmp_path: Path) -> None:
    out = tmp_path / "arena"
    result = CliRunner().invoke(main, ["arena", "greedy", "random", "--deals", "3", "--seed", "5", "-o", str(out),
                                       "--format", "json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["arena"]["games"] == 6 and [b["name"] for b in data["bots"]] == ["Greedy", "Random"]
    assert sum(b["games"] for b in data["bots"]) == 12
    check = CliRunner().invoke(main, ["check", "--quiet", str(out)])
    assert check.exit_code == 0, check.output
    assert len(list(out.glob("*.log"))) == 6


def test_the_header_counts_the_bots_the_table_lists() -> None:
    result = CliRunner().invoke(main, ["arena", "greedy", "greedy", "--deals", "1", "--seed", "1"])
    assert result.exit_code == 0, result.output
    assert result.output.startswith("kcref arena: 2 bots, 2 players,")
    assert "Greedy-2" in result.output


def test_the_cli_refuses_what_it_cannot_run() -> None:
    runner = CliRunner()
    assert runner.invoke(main, ["arena", "greedy", "nobot"]).exit_code == 2
    assert runner.invoke(main, ["arena", "greedy", "random", "greedy", "--sprt"]).exit_code == 2
    assert runner.invoke(main, ["arena", "greedy", "random", "--option", "Draw=sometimes"]).exit_code == 2


@pytest.mark.parametrize("value", ["inf", "1e300", "nan"])
@pytest.mark.parametrize("option", ["--move-time", "--game-time"])
def test_a_time_limit_the_clock_cannot_wait_for_is_refused(option: str, value: str) -> None:
    """``--move-time inf`` (or 1e300) once ended in an OverflowError from select() at an exec:
    bot's first message, and NaN let every exec: bot forfeit at once: each is a bad value."""
    result = CliRunner().invoke(main, ["arena", "exec:python3 -c pass", "greedy", "--deals", "1", option, value])
    assert result.exit_code == 2 and f"Invalid value for '{option}'" in result.output


# --- the same results however they are run ------------------------------------------------------


def _files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


def test_results_and_logs_are_the_same_with_two_jobs(tmp_path: Path) -> None:
    s = setup(("greedy", "random", f"{SEAT_BOTS}:Recorder"), 2, "commercial")
    one = run_arena(s, 4, output=str(tmp_path / "one"))
    two = run_arena(s, 4, jobs=2, output=str(tmp_path / "two"))
    assert arena_json(one) == arena_json(two)
    assert _files(tmp_path / "one") == _files(tmp_path / "two")
    assert run_arena(setup(("greedy", "random", f"{SEAT_BOTS}:Recorder"), 2, "commercial", seed=8), 4).results != one.results


def test_results_and_logs_are_the_same_on_dask(tmp_path: Path) -> None:
    LocalCluster = pytest.importorskip("distributed").LocalCluster

    s = setup(("greedy", f"{SEAT_BOTS}:Recorder"), 2)
    local = run_arena(s, 3, output=str(tmp_path / "local"))
    with LocalCluster(n_workers=1, threads_per_worker=2, processes=False, dashboard_address=None) as cluster:
        remote = run_arena(s, 3, dask=cluster.scheduler_address, output=str(tmp_path / "dask"))
    assert arena_json(local) == arena_json(remote)
    assert _files(tmp_path / "local") == _files(tmp_path / "dask")


def test_ctrl_c_keeps_the_games_played_so_far() -> None:
    def interrupt_after_two(run: ArenaRun) -> None:
        if run.deals_played == 2:
            raise KeyboardInterrupt

    for jobs in (1, 2):
        run = run_arena(setup(("greedy", "random"), 2), 50, jobs=jobs, progress=interrupt_after_two)
        assert run.interrupted and run.deals_played == 2 and len(run.results) == 4
        assert json.loads(arena_json(run))["arena"]["interrupted"] is True


# --- fair play -------------------------------------------------------------------------------


def test_a_python_bot_sees_only_its_seat() -> None:
    from tests.arena import seat_bots

    seat_bots.SEEN.clear()
    run = run_arena(setup(("greedy", "tests.arena.seat_bots:Recorder"), 2), 2)
    assert run.results and seat_bots.SEEN
    assert all(legal for _, legal in seat_bots.SEEN)  # never asked to choose among nothing
    for view, legal in seat_bots.SEEN:
        seat, hand, sizes = view["seat"], view["hand"], view["hand_sizes"]
        assert view["player"] == seat
        assert isinstance(hand, tuple) and isinstance(sizes, tuple) and len(hand) == sizes[seat]
        assert all(a.card is None for a in legal if isinstance(a, Draw))
        on_table = {c for _, cards in view["piles"] for c in cards} | {c for p in view["removed"] for c in p}
        assert len(on_table) + sum(sizes) + view["stock"] == len(DECK)
    assert not {"deck", "holdings", "_table"} & set(dir(seat_view(some_table(0), 0)))


def some_table(turns: int, players: int = 3, rules: str = "commercial") -> Table:
    """A table ``turns`` turns into a hand of greedy bots."""
    t = deal_from_deck(preset(rules), NAMES[:players], players - 1, deal_deck(1, 1)).table
    rng = random.Random(turns)
    for _ in range(turns):
        if t.over:
            break
        play_turn(t, BOTS["greedy"], rng)
        end_turn(t)
    return t


@pytest.mark.parametrize(("rules", "players"), [("classic", 2), ("commercial", 3), ("family", 4)])
def test_a_hand_played_with_the_stock_kept_off_the_table_is_the_same_hand(rules: str, players: int) -> None:
    """As the arena plays: the table does not know the stock's order, the draw is offered without
    its card, and the log still names each card drawn."""
    for seed in range(4):
        args = (preset(rules), NAMES[:players], players - 1, [BOTS["greedy"], BOTS["random"]] * 3)
        known = play_hand(*args, random.Random(seed), deck=deal_deck(seed, 1))
        hidden = play_hand(*args, random.Random(seed), deck=deal_deck(seed, 1), hide_stock=True)
        assert hidden.events == known.events and hidden.pot_won == known.pot_won
        assert hidden.table.deck is None and any(isinstance(e, Turn) and Draw in map(type, e.actions)
                                                 for e in hidden.events)


def test_on_a_table_that_knows_the_stock_a_seat_is_offered_the_draw_without_its_card() -> None:
    from tests.arena.seat_bots import Recorder

    t = some_table(0)
    legal = legal_actions(t)
    (drawn,) = [a for a in legal if isinstance(a, Draw)]
    assert drawn.card is not None

    class Drawer(Recorder):
        def choose(self, view: object, legal: Sequence[Action], can_end: bool, rng: random.Random) -> Action | None:
            assert all(a.card is None for a in legal if isinstance(a, Draw))
            return next(a for a in legal if isinstance(a, Draw))

    assert SeatPlayer(t.player, Drawer()).choose(t, legal, can_end_turn(t), random.Random(1)) is drawn


@pytest.mark.parametrize("turns", [0, 1, 5, 12])
def test_nothing_reachable_from_a_seat_view_leads_to_the_table_or_another_seat_s_cards(turns: int) -> None:
    from tests.arena.seat_bots import reachable

    t = some_table(turns)
    assert t.deck is not None and t.stacks is not None
    table_parts = [t, *t.holdings, t.holdings, t.piles, *t.piles.values(), t.removed, t.deck, t.seen, t.stacks]
    table_parts += [h.known for h in t.holdings]
    for seat in range(t.n):
        view = seat_view(t, seat)
        kept = copy.deepcopy(view)
        seen = reachable(view)
        assert not [o for o in seen if isinstance(o, (Table, Holding))]
        assert not {id(o) for o in seen} & {id(o) for o in table_parts}  # nothing to change the table by
        may_see = t.holdings[seat].known | {c for cards in t.piles.values() for c in cards}
        may_see |= {c for cards in t.removed for c in cards}
        assert {c for c in seen if isinstance(c, Card)} == may_see
        if not t.over:
            play_turn(t, BOTS["greedy"], random.Random(seat))
            end_turn(t)
        assert view == kept  # a record of the moment, not a window on the table


def test_a_bot_is_offered_a_frozen_view_and_frozen_actions_or_no_view_if_it_reads_none() -> None:
    from tests.arena import seat_bots

    seat_bots.PROBED.clear()
    run = run_arena(setup(("tests.arena.seat_bots:Prober", "tests.arena.seat_bots:Blind"), 2), 1)
    assert all(r.game.forfeit is None for r in run.results)
    assert {(bot, view) for bot, view, _ in seat_bots.PROBED} == {("Prober", "SeatView"), ("Blind", "NoneType")}
    for _, _, kinds in seat_bots.PROBED:
        assert not kinds & {"Table", "Holding"}, kinds


@pytest.mark.parametrize(("bot", "reason"), [("Raiser", "CRASH"), ("Cheater", "ILLEGAL"), ("Unprintable", "CRASH"),
                                            ("Uncomparable", "ILLEGAL"), ("Undecided", "START")])
def test_a_python_bot_that_errs_forfeits_and_the_arena_goes_on(bot: str, reason: str, tmp_path: Path) -> None:
    run = run_arena(setup(("greedy", f"{SEAT_BOTS}:{bot}"), 2), 2, output=str(tmp_path))
    assert len(run.results) == 4
    for r in run.results:
        assert r.game.forfeit is not None and r.game.forfeit[1] == reason
        assert r.game.lineup[r.game.forfeit[0]] == 1 and r.game.scores is None
        assert r.game.won(1 - r.game.forfeit[0])
        assert problems(check_text(r.log).diagnostics) == []
    data = json.loads(arena_json(run))
    assert data["bots"][1]["forfeits"] == {reason: 4} and data["bots"][0]["wins"] == 4


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
@pytest.mark.parametrize(("mode", "reason"), [("crash", "CRASH"), ("hang", "TIME"), ("garbage", "GARBAGE"),
                                              ("illegal", "ILLEGAL"), ("flood", "FLOOD")])
def test_a_protocol_bot_that_misbehaves_forfeits_and_leaves_nothing_running(mode: str, reason: str,
                                                                            tmp_path: Path) -> None:
    pids = tmp_path / "pids"
    pids.mkdir()
    spec = f"exec:{sys.executable} {BAD_BOT} {mode} {pids}"
    run = run_arena(setup(("greedy", spec), 2, move_time=0.25), 1, output=str(tmp_path / "logs"))
    assert len(run.results) == 2
    for r in run.results:
        assert r.game.forfeit is not None and r.game.forfeit[1] == reason, r.forfeit_detail
        seat = r.game.forfeit[0]
        assert "says hello on stderr" in r.stderr[seat]
        assert problems(check_text(r.log).diagnostics) == []
    started = [int(p.stem) for p in pids.iterdir()]
    assert len(started) == (4 if mode == "hang" else 2)
    assert not [pid for pid in started if _alive(pid)]
    assert len(list((tmp_path / "logs").glob("*.stderr"))) == 2


def test_the_example_protocol_bot_plays_clean_games(tmp_path: Path) -> None:
    spec = f"exec:{sys.executable} {ROOT / 'examples' / 'protocol_bot.py'}"
    run = run_arena(setup((spec, "greedy"), 2), 1, output=str(tmp_path))
    assert len(run.results) == 2 and all(r.game.forfeit is None for r in run.results)
    assert all(problems(check_text(r.log).diagnostics) == [] for r in run.results)
    assert run.setup.entrants[0].name == "protocol_bot"


def test_a_bot_installed_in_the_entry_point_group_is_found(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    info = tmp_path / "kcref_test_bots-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: kcref-test-bots\nVersion: 1.0\n", encoding="utf-8")
    (info / "entry_points.txt").write_text("[kcref.bots]\nrecorder = tests.arena.seat_bots:Recorder\n",
                                           encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    run = run_arena(setup(("recorder", "greedy"), 2), 1)
    assert run.setup.entrants[0].name == "Recorder" and len(run.results) == 2
    assert all(r.game.forfeit is None for r in run.results)


def test_the_protocol_page_and_the_example_agree_on_the_version() -> None:
    page = (ROOT / "docs" / "bot-protocol.md").read_text(encoding="utf-8")
    from kcref.apps.arena.protocol import PROTOCOL

    assert f"version {PROTOCOL}" in page.lower()
    assert f"PROTOCOL = {PROTOCOL}" in (ROOT / "examples" / "protocol_bot.py").read_text(encoding="utf-8")
    assert os.access(BAD_BOT, os.R_OK)


def test_the_sprt_stops_as_soon_as_it_decides() -> None:
    from kcref.scoring.arena_stats import Sprt

    sprt = Sprt(0, 200, 0.05, 0.05)
    strong = run_arena(setup(("greedy", "random"), 2), 500, sprt=sprt)
    assert strong.decision is not None and strong.decision.accepted == "H1" and strong.deals_played < 100
    equal = run_arena(setup(("greedy", "greedy"), 2), 500, sprt=sprt)
    assert equal.decision is not None and equal.decision.accepted == "H0" and equal.deals_played < 200
    assert json.loads(arena_json(equal))["sprt"]["accepted"] == "H0"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_ctrl_c_at_the_command_prints_the_results_so_far_and_ends_every_bot(tmp_path: Path) -> None:
    """With worker processes: the workers end the programs of the games they were playing."""
    import signal
    import subprocess
    import time

    pids = tmp_path / "pids"
    pids.mkdir()
    # A bot that answers every move after a pause: the arena is surely in a game when Ctrl-C comes.
    slow = tmp_path / "slow_bot.py"
    slow.write_text(
        "import json, os, sys, time\n"
        f"open(os.path.join({str(pids)!r}, f'{{os.getpid()}}.pid'), 'w').close()\n"
        "for line in sys.stdin:\n"
        "    m = json.loads(line)\n"
        "    if m['type'] == 'hello': print(json.dumps({'type': 'ready'}), flush=True)\n"
        "    elif m['type'] == 'move':\n"
        "        time.sleep(0.05)\n"
        "        print(json.dumps({'type': 'action', 'action': m['legal'][0] if m['legal'] else None}), flush=True)\n"
        "    else: break\n", encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    process = subprocess.Popen([sys.executable, "-m", "kcref", "arena", "greedy", f"exec:{sys.executable} {slow}",
                                "--deals", "10000", "--format", "json", "--jobs", "2"], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, env=env, cwd=tmp_path)
    try:
        deadline = time.monotonic() + 20
        while not list(pids.iterdir()) and time.monotonic() < deadline:
            time.sleep(0.02)
        time.sleep(0.2)
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=20)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert process.returncode == 130, err
    data = json.loads(out)
    assert data["arena"]["interrupted"] is True
    assert data["arena"]["games"] == 2 * data["arena"]["deals"]
    started = [int(p.stem) for p in pids.iterdir()]
    assert started and not [pid for pid in started if _alive(pid)]


def test_the_progress_line_names_the_leader_and_clears_itself() -> None:
    import io

    from kcref.apps.arena.progress import ProgressLine

    stream = io.StringIO()
    line = ProgressLine(stream)
    run_arena(setup(("random", "greedy"), 2), 3, progress=line)
    line.clear()
    text = stream.getvalue()
    assert "deal 3/3, 6 games, leader Greedy" in text and text.endswith("\r")


def test_a_program_that_cannot_start_forfeits_before_the_deal(tmp_path: Path) -> None:
    run = run_arena(setup(("greedy", f"exec:{tmp_path / 'no-such-bot'} --fast"), 2), 1, output=str(tmp_path))
    for r in run.results:
        assert r.game.forfeit is not None and r.game.forfeit[1] == "START" and "cannot start" in r.forfeit_detail
        assert r.game.won(1 - r.game.forfeit[0])
        report = check_text(r.log)
        assert problems(report.diagnostics) == [] and len(report.hands) == 1
        assert "no-such-bot forfeits (start)" in r.log
        assert [type(e).__name__ for e in read_text(r.log)][-4:] == ["HandStart", "Deal", "Deal", "Layout"]


def test_what_a_bot_says_cannot_write_lines_into_the_log(tmp_path: Path) -> None:
    run = run_arena(setup((f"{SEAT_BOTS}:Hostile", "greedy"), 2), 1, output=str(tmp_path))
    for r in run.results:
        report = check_text(r.log)
        assert problems(report.diagnostics) == [] and len(report.hands) == 1
        assert "Mallory" not in r.log.replace(r.log.split("\nhand 1", 1)[1].split("\n", 1)[0], "")
        assert "\x1b" not in r.log and r.log.count("\nhand ") == 1


def test_a_bot_that_writes_a_lot_on_standard_error_keeps_only_its_tail(tmp_path: Path) -> None:
    pids = tmp_path / "pids"
    pids.mkdir()
    from kcref.apps.arena.protocol import MAX_STDERR

    run = run_arena(setup(("greedy", f"exec:{sys.executable} {BAD_BOT} noisy {pids}"), 2), 1)
    for r in run.results:
        assert r.game.forfeit is None
        seat = r.game.lineup.index(1)
        assert 0 < len(r.stderr[seat].encode()) <= MAX_STDERR and r.stderr[seat].endswith("noise \n")
    assert not [pid for pid in (int(p.stem) for p in pids.iterdir()) if _alive(pid)]


@pytest.mark.parametrize("kind", ["python", "exec"])
def test_a_bot_held_to_its_time(kind: str, tmp_path: Path) -> None:
    spec = f"{SEAT_BOTS}:Sleeper" if kind == "python" else f"exec:{sys.executable} {BAD_BOT} slow {tmp_path}"
    game_limited = Setup(entrants((spec, "greedy"), 2), 2, "classic", (), 7, move_time=1.0, game_time=0.1)
    for r in run_arena(game_limited, 1).results:
        assert r.game.forfeit is not None and r.game.forfeit[1] == "TIME" and "game ran out" in r.forfeit_detail
    move_limited = Setup(entrants((spec, "greedy"), 2), 2, "classic", (), 7, move_time=0.01, game_time=60.0)
    for r in run_arena(move_limited, 1).results:
        assert r.game.forfeit is not None and r.game.forfeit[1] == "TIME", r.forfeit_detail
