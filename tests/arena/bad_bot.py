"""A protocol bot that misbehaves on its first move, as MODE says (or, ``noisy``, writes a lot on
its standard error at every move and plays fair); it writes its process id (and
that of a child it starts, for ``hang``) into the folder PIDS, so a test can see them all gone.

    python bad_bot.py MODE PIDS
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

mode, pids = sys.argv[1], sys.argv[2]
with open(os.path.join(pids, f"{os.getpid()}.pid"), "w") as f:
    f.write(mode)
print(f"bad bot {mode} says hello on stderr", file=sys.stderr, flush=True)
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "hello":
        print(json.dumps({"type": "ready"}), flush=True)
        continue
    if message["type"] != "move":
        break
    if mode == "noisy":  # a megabyte on standard error at every move, then a fair answer
        sys.stderr.write("noise " * 174763 + "\n")
        sys.stderr.flush()
        print(json.dumps({"type": "action", "action": message["legal"][0] if message["legal"] else None}), flush=True)
        continue
    if mode == "slow":  # fair answers, each after 0.03 s
        time.sleep(0.03)
        print(json.dumps({"type": "action", "action": message["legal"][0] if message["legal"] else None}), flush=True)
        continue
    if mode == "crash":
        sys.exit(3)
    if mode == "hang":
        child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
        with open(os.path.join(pids, f"{child.pid}.pid"), "w") as f:
            f.write("child")
        time.sleep(60)
    if mode == "garbage":
        print("I play the ace of spades", flush=True)
    if mode == "illegal":
        print(json.dumps({"type": "action", "action": "KS->Q"}), flush=True)
    if mode == "flood":
        while True:
            sys.stdout.write("x" * 65536)
            sys.stdout.flush()
