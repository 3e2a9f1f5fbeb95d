"""What an arena shows: its statistics as plain data (the ``--format json`` document) and as a
table in text. Names in both are the entrants' player names, made of letters, digits and
``_ ' . -``; the bots' specs, as typed, appear in the JSON document only (JSON escapes them)."""

from __future__ import annotations

import json
from itertools import combinations
from typing import Any

from ...model.words import plural
from ...scoring.arena_stats import Estimate, entrant_stats, pairwise
from .run import ArenaRun

DECIMALS = 6


def _num(x: float | None) -> float | None:
    return None if x is None else round(x, DECIMALS)


def _estimate(e: Estimate) -> dict[str, Any]:
    return {"mean": _num(e.mean), "low": _num(e.low), "high": _num(e.high), "n": e.n}


def arena_data(run: ArenaRun) -> dict[str, Any]:
    """The whole result of ``run`` as JSON-ready data."""
    setup = run.setup
    names = [e.name for e in setup.entrants]
    games = [r.game for r in run.results]
    stats = entrant_stats(games, names)
    data: dict[str, Any] = {
        "arena": {"bots": [{"name": e.name, "spec": e.spec} for e in setup.entrants],
                  "players": setup.players, "rules": setup.rules.lower(),
                  "options": dict(setup.options), "seed": setup.seed,
                  "move_time": setup.move_time, "game_time": setup.game_time,
                  "deals": run.deals_played, "games": len(games), "interrupted": run.interrupted},
        "bots": [{"name": names[s.entrant], "games": s.games, "score": _estimate(s.score), "wins": s.wins,
                  "win_rate": _num(s.win_rate), "win_interval": [_num(s.win_low), _num(s.win_high)],
                  "rating": {"mu": _num(s.mu), "sigma": _num(s.sigma), "ordinal": _num(s.ordinal)},
                  "forfeits": dict(s.forfeits)} for s in stats],
        "pairs": [],
        "sprt": None,
    }
    for a, b in combinations(range(len(names)), 2):
        p = pairwise(games, a, b)
        data["pairs"].append({"a": names[a], "b": names[b], "deals": p.won + p.drawn + p.lost, "won": p.won,
                              "drawn": p.drawn, "lost": p.lost, "score": _estimate(p.score), "elo": _num(p.elo)})
    if run.sprt is not None:
        s, d = run.sprt, run.decision
        data["sprt"] = {"test": "GSPRT on per-deal scores, logistic Elo", "elo0": s.elo0, "elo1": s.elo1,
                        "alpha": s.alpha, "beta": s.beta, "lower": _num(s.lower), "upper": _num(s.upper),
                        "llr": _num(d.llr) if d else 0.0, "accepted": d.accepted if d else None}
    return data


def arena_json(run: ArenaRun) -> str:
    """The ``--format json`` document."""
    return json.dumps(arena_data(run), indent=2, ensure_ascii=False) + "\n"


def _interval(low: float | None, high: float | None, digits: int) -> str:
    if low is None or high is None:
        return ""
    return f"({low:.{digits}f} to {high:.{digits}f})"


def arena_text(run: ArenaRun) -> str:
    """The results as tables in text."""
    data = arena_data(run)
    arena = data["arena"]
    bots = plural(len(data["bots"]), "bot")
    head = (f"kcref arena: {bots}, {arena['players']} players, rules {arena['rules']}, seed {arena['seed']}: "
            f"{arena['deals']} deals, {arena['games']} games{' (interrupted)' if run.interrupted else ''}")
    rows: list[tuple[str, ...]] = [
        ("bot", "games", "score/hand", "95% CI", "wins", "win rate", "95% CI", "rating", "forfeits")]
    for b in data["bots"]:
        score, rating = b["score"], b["rating"]
        forfeits = ", ".join(f"{reason.lower()} {n}" for reason, n in b["forfeits"].items()) or "-"
        rows.append((b["name"], str(b["games"]), f"{score['mean']:.2f}", _interval(score["low"], score["high"], 2),
                     str(b["wins"]), f"{b['win_rate']:.1%}",
                     _interval(b["win_interval"][0] * 100, b["win_interval"][1] * 100, 1),
                     f"{rating['ordinal']:.1f} ({rating['mu']:.1f} +- {rating['sigma']:.1f})", forfeits))
    lines = [head, "", *_table(rows, right={1, 2, 4, 5})]
    if data["pairs"]:
        lines += ["", "same deals, seats turned (a deal goes to the bot placed ahead in more of its games):"]
        pairs: list[tuple[str, ...]] = [("pair", "deals", "won", "drawn", "lost", "score", "95% CI", "Elo")]
        for p in data["pairs"]:
            elo = p["elo"]
            pairs.append((f"{p['a']} vs {p['b']}", str(p["deals"]), str(p["won"]), str(p["drawn"]), str(p["lost"]),
                          f"{p['score']['mean']:.3f}", _interval(p["score"]["low"], p["score"]["high"], 3),
                          f"{elo:+.0f}" if elo is not None else "-"))
        lines += _table(pairs, right={1, 2, 3, 4, 5, 7})
    sprt = data["sprt"]
    if sprt is not None:
        a, b = data["bots"][0]["name"], data["bots"][1]["name"]
        verdict = {"H1": f"H1 accepted: {a} is at least {sprt['elo1']:g} Elo stronger than {b}",
                   "H0": f"H0 accepted: {a} is at most {sprt['elo0']:g} Elo stronger than {b}",
                   None: "no decision yet"}[sprt["accepted"]]
        lines += ["", f"SPRT ({sprt['test']}): elo0 {sprt['elo0']:g}, elo1 {sprt['elo1']:g}, "
                      f"alpha {sprt['alpha']:g}, beta {sprt['beta']:g}",
                  f"LLR {sprt['llr']:.2f} (bounds {sprt['lower']:.2f}, {sprt['upper']:.2f}) after "
                  f"{arena['deals']} deals: {verdict}"]
    return "\n".join(lines) + "\n"


def _table(rows: list[tuple[str, ...]], right: set[int]) -> list[str]:
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    out = []
    for row in rows:
        cells = [c.rjust(w) if i in right else c.ljust(w) for i, (c, w) in enumerate(zip(row, widths))]
        out.append("  " + "  ".join(cells).rstrip())
    return out
