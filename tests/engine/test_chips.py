"""Chips: shares, ante, penalties, cards left, the pot, debts, stacks kept between hands."""

from __future__ import annotations

from helpers import options, run

from kcref.model.systems import PENALTY, shared_stacks

BOB_OUT = "Bob: 10H->E; 9S->E; 8D->E; 7C->E; 6H->E; 5S->E; 4D->E\n"
DEALS = "deal Ann: QH 7H 6S 2C AD 9C 5D\ndeal Bob: 10H 9S 8D 7C 6H 5S 4D\nlayout N:9D E:JS S:3C W:5H\n"


def conserved(v) -> bool:
    return sum(v.stacks_start) + v.pot_start == sum(v.stacks_end) + v.pot_left


def test_chips_are_shared_out_with_the_extra_to_the_first_seats_after_the_dealer() -> None:
    opts = options("commercial")
    assert shared_stacks(opts, 3, 2) == [27, 27, 26]
    assert shared_stacks(opts, 3, 0) == [26, 27, 27]
    assert shared_stacks(opts, 6, 5) == [14, 14, 13, 13, 13, 13]
    assert sum(shared_stacks(opts, 6, 3)) == 80


def test_commercial_hand_pays_and_takes_the_pot() -> None:
    [v] = run('[Players "Ann, Bob"]\n[Rules "commercial"]\nhand 1\n' + DEALS + "Ann: draw 2H\n" + BOB_OUT)
    assert v.valid and v.winner == 1 and v.finished and not v.blocked
    assert v.stacks_start == (40, 40) and v.ante == 1
    # Ann: ante 1, no play 1, eight cards left 8; the pot (2 antes + 9) goes to Bob.
    assert v.pot == 11 and v.pot_left == 0
    assert v.stacks_end == (30, 50)
    assert [(p.seat, p.chips, p.code) for p in v.penalties] == [(0, 1, "KC401"), (0, 8, "KC404")]
    assert [(p.span.line, p.span.col) for p in v.penalties] == [(7, 1), (8, 49)]
    assert conserved(v)
    assert [d.message for d in v.diagnostics] == ["Ann made no play: pays 1 chip",
                                                  "Ann has 8 cards left: pays 8 chips"]


def test_kings_left_cost_more_under_kept_stacks() -> None:
    log = ('[Players "Ann, Bob"]\n[Scoring "stacks"]\nhand 1\n'
           'deal Ann: KH 7H 6S 2C AD 9C 5D\ndeal Bob: 10H 9S 8D 7C 6H 5S 4D\nlayout N:9D E:JS S:3C W:5H\n'
           'Ann: draw 2H\n' + BOB_OUT)
    [v] = run(log)
    assert v.stacks_start == (50, 50)
    assert [(p.chips, p.code) for p in v.penalties] == [(1, "KC401"), (17, "KC404")]   # 10 + 7 x 1
    [paid] = [d.message for d in v.diagnostics if d.code == "KC404"]
    assert paid == "Ann has 8 cards left, a King among them counts 10: pays 17 chips"
    assert v.pot == 2 + 1 + 17
    assert v.stacks_end == (50 - 1 - 1 - 17, 50 - 1 + 20)
    assert conserved(v)


def test_debt_is_reported_never_clipped() -> None:
    log = '[Players "Ann, Bob"]\n[Scoring "stacks"]\n[Stack "2"]\nhand 1\n' + DEALS + "Ann: draw 2H\n" + BOB_OUT
    [v] = run(log)
    assert v.stacks_end == (2 - 1 - 1 - 8, 2 - 1 + 11)
    assert [d.code for d in v.diagnostics] == ["KC401", "KC404", "KC503"]
    assert v.diagnostics[-1].message == "Ann is in debt: the stack is down to -8"
    assert conserved(v)


def test_debt_from_the_ante_is_reported_at_the_hand() -> None:
    log = ('[Players "Ann, Bob"]\n[Scoring "stacks"]\n[Stack "0"]\nhand 1\n' + DEALS
           + "Ann: 8S->N; draw 2H\n" + BOB_OUT)
    [v] = run(log)
    debts = [(d.line, d.column) for d in v.diagnostics if d.code == "KC503"]
    assert debts == [(4, 1), (4, 1)]


def test_stacks_are_kept_between_hands_and_a_blocked_pot_is_carried() -> None:
    six = "Ann, Bob, Cy, Dee, Eve, Fay"
    names = six.split(", ")
    draws = "".join(f"{n}: draw\n" for n in names)
    passes = "".join(f"{n}: pass\n" for n in names)
    log = (f'[Players "{six}"]\n[Scoring "stacks"]\nhand 1 dealer Fay\nlayout N:9D E:JS S:3C W:KC\n'
           f"{draws}{passes}blocked\n"
           "hand 2 dealer Fay\ndeal Ann: 8S 7D 6C 5H 4S 3D 2C\nlayout N:9D E:JS S:3C W:KC\n"
           "Ann: 8S->N; 7D->N; 6C->N; 5H->N; 4S->N; 3D->N; 2C->N\n"
           "reveal Bob: 2H 3H 4H 5D 6H 7H 8H\n")
    v1, v2 = run(log)
    assert v1.blocked and v1.winner is None and v1.valid
    # Six antes and twelve turns without a play stay in the pot; nobody takes it.
    assert v1.pot == 18 and v1.pot_left == 18
    assert v1.stacks_end == (47,) * 6 and conserved(v1)
    assert v2.stacks_start == v1.stacks_end and v2.pot_start == 18
    assert v2.winner == 0 and v2.pot_left == 0 and conserved(v2)
    # Bob's reveal shows no King; the others' unknown cards could be Kings (10 chips each).
    assert v2.stacks_end[1] == 47 - 1 - 7
    assert v2.stacks_end[0] == 47 - 1 + v2.pot
    assert any(d.code == "KC502" and "Cy, Dee, Eve and Fay" in d.message for d in v2.diagnostics)


def test_chips_scoring_shares_out_afresh_each_hand() -> None:
    hand = "hand\n" + DEALS + "Ann: draw 2H\n" + BOB_OUT
    log = '[Players "Ann, Bob"]\n[Rules "commercial"]\nhand 1 dealer Bob\n' + DEALS + "Ann: draw 2H\n" + BOB_OUT
    log += 'hand 2 dealer Bob\n' + DEALS + "Ann: draw 2H\n" + BOB_OUT
    v1, v2 = run(log)
    assert v1.stacks_start == v2.stacks_start == (40, 40)
    assert hand


def test_a_new_player_joins_with_the_starting_stack() -> None:
    log = ('[Players "Ann, Bob"]\n[Scoring "stacks"]\nhand 1 dealer Bob\n' + DEALS + "Ann: draw 2H\n" + BOB_OUT
           + '[Players "Cy, Bob"]\nhand 2 dealer Bob\nlayout N:9D E:JS S:3C W:5H\nCy: draw\n')
    v1, v2 = run(log)
    assert v2.stacks_start == (50, v1.stacks_end[1])


def test_a_hand_with_an_error_is_void_for_the_stacks() -> None:
    log = ('[Players "Ann, Bob"]\n[Scoring "stacks"]\nhand 1 dealer Bob\n' + DEALS + "Ann: draw 2H; 7H->N\n"
           + 'hand 2 dealer Bob\n' + DEALS + "Ann: draw 2H\n")
    v1, v2 = run(log)
    assert not v1.valid and v1.points is None
    assert v2.stacks_start == (50, 50)


def test_no_chips_where_chips_are_not_played() -> None:
    [v] = run('[Players "Ann, Bob"]\nhand 1\n' + DEALS + "Ann: draw 2H\n" + BOB_OUT)
    assert v.stacks_start is None and v.stacks_end is None and v.penalties == () and v.pot == 0
    assert options("classic", scoring=PENALTY).scoring is PENALTY


def test_the_chips_for_cards_left_say_why_they_are_what_they_are() -> None:
    log = ('[Players "Ann, Bob"]\n[Rules "commercial"]\n[CardChips "2"]\n[KingChips "5"]\nhand 1\n'
           'deal Ann: KH KS 6S 2C AD 9C 5D\ndeal Bob: 10H 9S 8D 7C 6H 5S 4D\nlayout N:9D E:JS S:3C W:5H\n'
           'Ann: draw 2H\n' + BOB_OUT)
    [v] = run(log)
    [paid] = [d.message for d in v.diagnostics if d.code == "KC404"]
    assert paid == "Ann has 8 cards left at 2 chips each, 2 Kings among them count 5: pays 22 chips"
    unknown = log.replace("deal Ann: KH KS 6S 2C AD 9C 5D\n", "").replace("Ann: draw 2H", "Ann: draw")
    [v] = run(unknown)
    [paid] = [d.message for d in v.diagnostics if d.code == "KC404"]
    assert paid.startswith("Ann has 8 cards left at 2 chips each, all unknown (counted at the least")
