"""``kcref report`` in a real browser (Selenium driving headless Chromium): the standings shown
are kcref score's, stepping a hand with the arrow key shows the table of ``kcref show --line N``,
the page makes no network request, and nothing goes to the console as an error.

Skipped where no browser is installed; CI installs one (``.ci/run``). To run them on Debian or
Ubuntu: ``apt-get install chromium chromium-driver`` and ``pip install 'kcref[browser]'`` (or
``pip install -e '.[browser]'`` in a checkout). ``KCREF_UPDATE_SCREENSHOT=1`` also rewrites the
README's screenshot, ``docs/report.png``.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.util import ROOT

HOW = ("needs Chromium, its driver and selenium: apt-get install chromium chromium-driver; "
       "pip install 'kcref[browser]'")
webdriver = pytest.importorskip("selenium.webdriver", reason=HOW)
CHROMIUM = next((p for p in map(shutil.which, ("chromium", "chromium-browser", "google-chrome")) if p), None)
DRIVER = shutil.which("chromedriver")
if CHROMIUM is None or DRIVER is None:
    pytest.skip(HOW, allow_module_level=True)

from selenium.webdriver.common.action_chains import ActionChains  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.support.wait import WebDriverWait  # noqa: E402

NIGHT = "samples/commercial-night.log"
FLAGS = ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-dev-shm-usage", "--window-size=1000,1100")
SCREENSHOT = ROOT / "docs" / "report.png"

READ_TABLE = """
const svg = document.querySelector('#kc-viewer svg.kc-table');
const piles = {};
svg.querySelectorAll('g[data-pile]').forEach(g => {
  piles[g.dataset.pile] = [g.dataset.top || null, +g.dataset.count];
});
const seats = [...svg.querySelectorAll('g[data-seat]')].filter(g => g.getAttribute('display') !== 'none')
  .map(g => +g.dataset.count);
const current = document.querySelector('li.current');
return {line: +svg.dataset.line, stock: +svg.dataset.stock, piles: piles, seats: seats,
        highlighted: current ? +current.dataset.l : null};
"""


EXTRACT = """
const [source, players] = arguments;
const svg = source === null ? document.querySelector('#kc-viewer svg.kc-table')
  : new DOMParser().parseFromString(source, 'image/svg+xml').documentElement;
const a = (el, name) => el.getAttribute(name);
const text = (el, role) => el.querySelector('[data-role="' + role + '"]').textContent;
const uses = g => [...g.querySelectorAll('use')].map(u => a(u, 'visibility') === 'hidden' ? null : a(u, 'href'));
return {
  root: ['data-line', 'data-player', 'data-stock', 'height'].map(n => a(svg, n)),
  texts: ['line', 'pot', 'status', 'note'].map(r => text(svg, r)),
  stock: text(svg.querySelector('g[data-stock]'), 'label'),
  piles: [...svg.querySelectorAll('g[data-pile]')].map(g =>
    [...['data-pile', 'data-top', 'data-bottom', 'data-count', 'data-cards'].map(n => a(g, n)), uses(g),
     text(g, 'count')]),
  seats: [...svg.querySelectorAll('g[data-seat]')].slice(0, players).map(g =>
    [...['data-name', 'data-count', 'data-known', 'data-unknown', 'class'].map(n => a(g, n)), uses(g),
     text(g, 'name'), text(g, 'count'), text(g, 'more')]),
};
"""


def kcref(*args: str) -> str:
    p = subprocess.run([sys.executable, "-m", "kcref", *args], capture_output=True, text=True, cwd=ROOT, check=True,
                       env={**os.environ, "PYTHONPATH": str(ROOT)})
    return p.stdout


def _pad(text: str, width: int) -> str:
    left = (width - len(text)) // 2
    return " " * left + text + " " * (width - len(text) - left)


def parse_show(text: str) -> dict[str, Any]:
    """Pile tops and sizes, the stock and each hand's size from ``kcref show --ascii`` (its text:
    the piles are a 3x3 grid of centred cells, a row of labels over a row of contents)."""
    lines = text.splitlines()
    grid = next(i for i, line in enumerate(lines) if line.split() == ["NW", "N", "NE"])
    width = next(w for w in range(2, 80) if (_pad("NW", w) + _pad("N", w) + _pad("NE", w)).rstrip() == lines[grid])
    piles: dict[str, list[Any]] = {}
    stock = None
    for r in range(3):
        labels, contents = lines[grid + 2 * r], lines[grid + 2 * r + 1].ljust(3 * width)
        for c in range(3):
            label = labels.ljust(3 * width)[c * width:(c + 1) * width].strip()
            cell = contents[c * width:(c + 1) * width].strip()
            if not label:
                stock = int(cell.split()[1])
                continue
            cards = re.findall(r"\b(?:10|[2-9AJQK])[SHDC]\b", cell)
            counted = re.search(r"\((\d+)\)", cell)
            piles[label] = [cards[-1] if cards else None, int(counted.group(1)) if counted else len(cards)]
    seats = [int(m.group(1)) for m in (re.match(r"^[> ] \S.*?\s+(\d+) cards?\b", line) for line in lines) if m]
    return {"piles": piles, "stock": stock, "seats": seats}


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in FLAGS:
        options.add_argument(flag)
    profile = tmp_path_factory.mktemp("chromium-profile")  # a fresh profile, as Chromium run as root needs
    options.add_argument(f"--user-data-dir={profile}")
    options.set_capability("goog:loggingPrefs", {"browser": "ALL", "performance": "ALL"})
    driver = webdriver.Chrome(options=options, service=webdriver.ChromeService(DRIVER))
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


@pytest.fixture(scope="module")
def page(browser: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    out = tmp_path_factory.mktemp("report") / "night.html"
    kcref("report", NIGHT, "-o", str(out))
    browser.get(out.as_uri())
    yield browser
    severe = [entry for entry in browser.get_log("browser") if entry["level"] == "SEVERE"]
    assert not severe, severe


def test_standings_are_those_of_score_json(page: Any) -> None:
    score = json.loads(kcref("score", "--format", "json", NIGHT))
    rows = page.find_elements(By.CSS_SELECTOR, "table.standings tbody tr")
    shown = [[cell.text for cell in row.find_elements(By.CSS_SELECTOR, "td, th")] for row in rows]
    assert shown == [[str(p["rank"]), p["name"], str(p["points"]), str(p["hands_played"]), str(p["hands_won"]),
                      str(p["games_won"])] for p in score["players"]]


def test_stepping_a_hand_shows_the_table_of_show_line(page: Any, tmp_path: Path) -> None:
    page.find_element(By.CSS_SELECTOR, "#f1h2 > summary").click()
    # The details element's toggle event, which loads the hand, comes as a task of its own.
    WebDriverWait(page, 5).until(lambda d: d.execute_script(READ_TABLE)["highlighted"] is not None)
    keys = ActionChains(page)
    seen = []
    for presses in (0, 4, 9):  # the layout, mid-hand, the last turn (hand 2 has 14 steps)
        while len(seen) < presses:
            keys.send_keys(Keys.ARROW_RIGHT).perform()
            seen.append(page.execute_script(READ_TABLE)["line"])
        shown = page.execute_script(READ_TABLE)
        expected = parse_show(kcref("show", NIGHT, "--line", str(shown["line"]), "--ascii"))
        assert {k: shown[k] for k in ("piles", "stock", "seats")} == expected, shown["line"]
        assert shown["highlighted"] == shown["line"]
    assert seen == sorted(seen) and len(set(seen)) == len(seen) and seen[0] > 0
    keys.send_keys(Keys.ARROW_LEFT).perform()
    assert page.execute_script(READ_TABLE)["line"] == seen[-2]
    page.save_screenshot(str(tmp_path / "report.png"))
    assert (tmp_path / "report.png").stat().st_size > 0
    if os.environ.get("KCREF_UPDATE_SCREENSHOT") == "1":
        save_readme_screenshot(page)


def test_every_step_is_drawn_as_show_format_svg_draws_it(page: Any) -> None:
    """The page's script, applying each step to the one picture, gives the very picture that
    ``kcref show --line N --format svg`` draws (every pile, card, text and seat), for every step of
    every hand of the night."""
    from kcref.output.show_report import show_svg

    page.execute_script("document.querySelectorAll('details.hand[open]').forEach(d => { d.open = false; })")
    for hand in ("f1h1", "f1h2", "f1h3"):
        page.execute_script(f"document.getElementById('{hand}').open = true")
        WebDriverWait(page, 5).until(
            lambda d, hand=hand: d.execute_script(f"return !!document.querySelector('#{hand} #kc-viewer:not([hidden])')"))
        page.execute_script("document.dispatchEvent(new KeyboardEvent('keydown', {key: 'Home'}))")
        lines = []
        while True:
            shown = page.execute_script(EXTRACT, None, 4)
            line = int(shown["root"][0])
            if lines and line == lines[-1]:
                break
            lines.append(line)
            expected = page.execute_script(EXTRACT, show_svg(NIGHT, None, line), 4)
            assert shown == expected, (hand, line)
            page.execute_script("document.dispatchEvent(new KeyboardEvent('keydown', {key: 'ArrowRight'}))")
        assert len(lines) > 5


def test_a_live_page_shows_the_last_hand_at_its_end(browser: Any, tmp_path: Path) -> None:
    """``--watch`` writes a page that reloads itself and opens on the last hand's last line."""
    from kcref.files.inputs import resolve
    from kcref.notation.reader import read_file
    from kcref.output.replay_steps import step_lines
    from kcref.output.report_page import build_report
    from kcref.referee.grouping import HandRecord
    from kcref.referee.setup_checks import checked_hands

    out = tmp_path / "live.html"
    out.write_text(build_report(resolve([str(ROOT / NIGHT)]), live=True).html, encoding="utf-8")
    browser.get(out.as_uri())
    WebDriverWait(browser, 5).until(lambda d: d.execute_script(READ_TABLE)["highlighted"] is not None)
    shown = browser.execute_script(READ_TABLE)
    assert browser.execute_script("return document.querySelector('#kc-viewer').closest('details').id") == "f1h3"
    records = [r for r in checked_hands(read_file(str(ROOT / NIGHT)), NIGHT) if isinstance(r, HandRecord)]
    assert shown["line"] == shown["highlighted"] == step_lines(records[-1])[-1]
    assert browser.execute_script("return document.querySelector('meta[http-equiv=refresh]').content") == "5"
    browser.get("about:blank")  # before it reloads itself


PHONE = """
const wide = [...document.querySelectorAll('table.reflow')].filter(t => t.getBoundingClientRect().width > innerWidth)
  .map(t => t.className);
const games = [...document.querySelectorAll('table.standings tbody tr:first-child td[data-label="Games won"]')]
  .map(td => td.getBoundingClientRect()).map(r => r.width > 0 && r.right <= innerWidth);
const sizes = [...document.querySelectorAll('.kc-chart text')].map(t => t.getBoundingClientRect().height);
return {width: innerWidth, page: document.documentElement.scrollWidth, wide: wide, games: games,
        smallest: Math.min(...sizes), ticks: document.querySelectorAll('.kc-chart text.tick').length};
"""


def test_the_report_fits_a_phone(browser: Any, tmp_path: Path) -> None:
    """At 390 px, as a phone shows it: no table of players is wider than the screen (every
    column of the standings is in view, "Games won" too), and the chart's text is readable."""
    out = tmp_path / "three.html"
    kcref("report", "samples/classic-night.log", NIGHT, "samples/family-night.log", "-o", str(out))
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                            {"width": 390, "height": 844, "deviceScaleFactor": 3, "mobile": True})
    try:
        browser.get(out.as_uri())
        shown = browser.execute_script(PHONE)
    finally:
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
        browser.get("about:blank")
    assert shown["width"] == 390 and shown["page"] <= 390, shown
    assert shown["wide"] == [] and shown["games"] == [True], shown
    assert shown["smallest"] >= 10 and shown["ticks"] >= 3, shown


def save_readme_screenshot(driver: Any) -> None:
    """The README's picture: the replay of the open hand, the table beside its log lines."""
    driver.set_window_size(1000, 1000)
    replay = driver.find_element(By.CSS_SELECTOR, "#f1h2 .replay")
    driver.execute_script("arguments[0].scrollIntoView()", replay)
    replay.screenshot(str(SCREENSHOT))


def test_the_page_makes_no_network_request(page: Any) -> None:
    """Every request of the page's document is for the file itself or a data: URL, and nothing at
    all goes out to a network (the browser's own chrome:// pages load before the page)."""
    ours, network = [], []
    for entry in page.get_log("performance"):
        message = json.loads(entry["message"])["message"]
        if message["method"] == "Network.requestWillBeSent":
            params = message["params"]
            url = params["request"]["url"]
            if params.get("documentURL", "").startswith("file:"):
                ours.append(url)
            if url.split(":", 1)[0] in ("http", "https", "ws", "wss", "ftp"):
                network.append(url)
    assert ours and all(u.startswith(("file:", "data:")) for u in ours), ours
    assert not network, network
