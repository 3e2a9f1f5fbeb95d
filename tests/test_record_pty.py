"""``kcref record`` end to end in a real pseudo-terminal (pexpect): a whole commercial hand typed
at the prompt, with an illegal line, Tab completion and an undo; the screen and the file checked."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.util import ROOT

pexpect = pytest.importorskip("pexpect")

PLAYERS = "Dora, Eli, Fran, Gus"
HAND = (ROOT / "samples" / "commercial-night.log").read_text(encoding="utf-8").splitlines()[8:23]
"""Hand 1 of the commercial sample: its set-up, six turns, a comment and two assertions."""
ANSI = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07]*\x07|\r")


def _screen(child: pexpect.spawn) -> str:
    return ANSI.sub("", child.before or "")


def test_a_commercial_hand_typed_at_a_terminal(tmp_path: Path) -> None:
    log = tmp_path / "club.log"
    env = {**os.environ, "PYTHONPATH": str(ROOT), "TERM": "xterm", "NO_COLOR": "1",
           "PROMPT_TOOLKIT_NO_CPR": "1"}
    child = pexpect.spawn(sys.executable, ["-m", "kcref", "record", str(log), "--players", PLAYERS, "--rules",
                                           "commercial"], env=env, encoding="utf-8", timeout=20,
                          dimensions=(40, 200))
    try:
        child.expect("Recording a new log")
        for line in HAND[:6]:  # the hand line, four deals and the layout
            child.sendline(line)
        child.expect("next: Dora")
        child.expect("Dora>")
        child.sendline("Dora: KS->N; draw")  # a King on a Queen... of the same colour: refused
        child.expect("error KC301")
        child.expect("Not written")
        child.send("Dora: KS->NE; AH")
        child.send("\t")  # AH fits only on 2C at S
        child.expect("->S")
        child.sendline("; JC->W; N->SW; 7H->N; W->NE; 7C->W; draw 5D")
        child.expect("next: Eli")
        child.sendline(HAND[7])
        child.expect("next: Fran")
        child.sendline("undo")
        child.expect("Took back line 10: Eli: 10H->NE")
        for line in HAND[7:12]:
            child.sendline(line)
        child.expect("Eli went out: the hand is over.")
        child.expect("chips: Dora 17, Eli 35, Fran 15, Gus 13; Eli took the pot of 16")
        settled = _screen(child)
        child.expect("Eli +16")  # the standings, as kcref score prints them
        for line in HAND[12:]:
            child.sendline(line)
        child.sendline("quit")
        child.expect("holds 17 lines")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    assert "cards left: Dora 2 cards (9H 5D), Fran 4 cards (4S 8S 3H 3D), Gus 6 cards (AS 7S 9S JS AD 4D)" in settled
    assert child.exitstatus == 0
    expected = f'[Players "{PLAYERS}"]\n[Rules "commercial"]\n' + "".join(f"{line}\n" for line in HAND)
    assert log.read_text(encoding="utf-8") == expected
    checked = subprocess.run([sys.executable, "-m", "kcref", "check", str(log)], capture_output=True, text=True,
                             env=env, timeout=60)
    assert checked.returncode == 0, checked.stdout
    assert " 0 errors" in checked.stdout
