"""The size of `kcref report`'s page for the 2,000-hand bench log, and how long a browser takes to
open it. Run by hand:

    python bench/report.py [--hands 2000] [--runs 3] [--keep FOLDER]

It writes the log of bench/check_bench.py (N hands played by the greedy bot, the three presets
in turn) to a temporary folder, runs `kcref report` on it (as a process, timed), and prints the
page's size against the target of < 10 MB. Then, where Chromium, its driver and selenium are
installed (see tests/test_browser.py), it opens the page from a file:// URL in headless Chromium
--runs times, each in a fresh tab, and prints the median time from the start of navigation to
the end of the load event (the page parsed, its script run), against the target of < 3 s, the
browser's main-thread time over that load (Chromium's TaskDuration, in thread time: steadier than
the wall clock on a busy machine), and the time to open the last hand's replay and step it once.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

from check_bench import generate  # noqa: E402

SIZE_TARGET_MB = 10.0
OPEN_TARGET_S = 3.0
FLAGS = ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-dev-shm-usage", "--window-size=1200,1000")
LOAD_TIME = ("const t = performance.getEntriesByType('navigation')[0];"
             "return [t.domContentLoadedEventEnd, t.loadEventEnd];")
OPEN_LAST_HAND = """
const hands = document.querySelectorAll('details.hand');
const last = hands[hands.length - 1];
const start = performance.now();
last.open = true;
return new Promise(resolve => setTimeout(() => {
  document.dispatchEvent(new KeyboardEvent('keydown', {key: 'ArrowRight'}));
  resolve([performance.now() - start, document.querySelector('#kc-viewer svg').dataset.line]);
}, 0));
"""


def browser() -> Any | None:
    """A headless Chromium driven by selenium, or None where either is missing."""
    try:
        from selenium import webdriver
    except ImportError:
        return None
    chromium = next((p for p in map(shutil.which, ("chromium", "chromium-browser", "google-chrome")) if p), None)
    driver = shutil.which("chromedriver")
    if chromium is None or driver is None:
        return None
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for flag in FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={tempfile.mkdtemp(prefix='kcref-bench-')}")
    return webdriver.Chrome(options=options, service=webdriver.ChromeService(driver))


def main_thread(driver: Any) -> float:
    """The seconds of thread time the page's main thread has been busy (Chromium's TaskDuration)."""
    metrics = driver.execute_cdp_cmd("Performance.getMetrics", {})["metrics"]
    return float(next(m["value"] for m in metrics if m["name"] == "TaskDuration"))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=2000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--keep", metavar="FOLDER", help="write the log and the page here (kept)")
    args = parser.parse_args(argv)

    folder = Path(args.keep or tempfile.mkdtemp(prefix="kcref-report-"))
    folder.mkdir(parents=True, exist_ok=True)
    log, page = folder / "bench.log", folder / "report.html"
    generate(str(log), args.hands)
    env = {**os.environ, "PYTHONPATH": str(HERE.parent)}
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "kcref", "report", str(log), "-o", str(page)], env=env,
                          capture_output=True, text=True)
    build = time.perf_counter() - start
    if done.returncode != 0:
        print(done.stderr, file=sys.stderr)
        return 1
    size = page.stat().st_size / 1e6
    ok = size < SIZE_TARGET_MB
    print(f"log: {args.hands} hands, {log.stat().st_size / 1e6:.1f} MB; kcref report took {build:.1f} s")
    print(f"page size: {size:.1f} MB (target < {SIZE_TARGET_MB:.0f} MB) {'ok' if ok else 'MISSED'}")
    driver = browser()
    if driver is None:
        print("open time: not measured (needs chromium, chromium-driver and selenium: see tests/test_browser.py)")
    else:
        try:
            loads, ready, steps, busy = [], [], [], []
            driver.execute_cdp_cmd("Performance.enable", {"timeDomain": "threadTicks"})
            for _ in range(args.runs):
                driver.get("about:blank")
                before = main_thread(driver)
                driver.get(page.as_uri())
                dom, load = driver.execute_script(LOAD_TIME)
                for _ in range(600):  # the load event may end after get() returns
                    if load:
                        break
                    time.sleep(0.1)
                    dom, load = driver.execute_script(LOAD_TIME)
                busy.append(main_thread(driver) - before)
                ready.append(dom / 1000)
                loads.append(load / 1000)
                took, line = driver.execute_script(OPEN_LAST_HAND)
                assert line, "the last hand's replay did not show"
                steps.append(took / 1000)
        finally:
            driver.quit()
        opened = statistics.median(loads)
        ok = ok and opened < OPEN_TARGET_S
        print(f"open time: {opened:.2f} s to the load event, {statistics.median(ready):.2f} s to DOMContentLoaded "
              f"(median of {args.runs}; target < {OPEN_TARGET_S:.0f} s) {'ok' if opened < OPEN_TARGET_S else 'MISSED'}")
        print(f"main-thread time of the load: {statistics.median(busy):.2f} s (median of {args.runs})")
        print(f"opening the last hand's replay and stepping once: {statistics.median(steps) * 1000:.0f} ms")
    if not args.keep:
        shutil.rmtree(folder, ignore_errors=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
