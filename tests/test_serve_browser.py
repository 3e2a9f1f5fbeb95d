"""``kcref serve`` on two phones (Selenium driving two headless Chromiums in mobile emulation,
390 x 844): one plays a whole commercial hand by tapping (the deals, the layout, the turns, an
illegal play that is refused, an undo, a turn typed as text); the other, opened with the
spectators' link, sees each accepted line arrive. The log written is, as ``kcref fmt`` sees it,
the log meant; hostile text from the log never runs; nothing goes to the console as an error
but the refusals.

A screenshot of each phone is saved under the test's temporary folder (its path is printed:
``pytest -s`` shows it). ``KCREF_UPDATE_SCREENSHOT=1`` also rewrites docs/serve-phone.png and
docs/serve-desktop.png, the screenshots of docs/serve.md.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.util import ROOT

HOW = ("needs Chromium, its driver, selenium and the serve extra: apt-get install chromium chromium-driver; "
       "pip install 'kcref[browser,serve]'")
webdriver = pytest.importorskip("selenium.webdriver", reason=HOW)
pytest.importorskip("uvicorn", reason=HOW)
CHROMIUM = next((p for p in map(shutil.which, ("chromium", "chromium-browser", "google-chrome")) if p), None)
DRIVER = shutil.which("chromedriver")
if CHROMIUM is None or DRIVER is None:
    pytest.skip(HOW, allow_module_level=True)

from selenium.common.exceptions import NoAlertPresentException, StaleElementReferenceException  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.wait import WebDriverWait  # noqa: E402

from tests.serve_util import HAND, serving  # noqa: E402

FLAGS = ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-dev-shm-usage")
PHONE: dict[str, dict[str, object]] = {
    "deviceMetrics": {"width": 390, "height": 844, "pixelRatio": 2.0, "touch": True, "mobile": True}}
HOSTILE = "<img src=x onerror=\"window.kcPwned=1\"><script>window.kcPwned=2</script>'\"\u202e"
HEAD = [f'[Event "{HOSTILE.replace(chr(34), chr(92) + chr(34))}"]', '[Players "Ann, Bob"]', '[Rules "commercial"]',
        f"# {HOSTILE}"]
WAIT = 5.0


def _chromium(profile: Path, phone: bool, ratio: float = 2.0) -> Any:
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={profile}")  # a fresh profile, as Chromium run as root needs
    if phone:
        metrics = {**PHONE["deviceMetrics"], "pixelRatio": ratio}
        options.add_experimental_option("mobileEmulation", {"deviceMetrics": metrics})
    else:
        options.add_argument("--window-size=1280,900")
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(options=options, service=webdriver.ChromeService(DRIVER))


@pytest.fixture(scope="module")
def phones(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Any, Any]]:
    profiles = [tmp_path_factory.mktemp("chromium-player"), tmp_path_factory.mktemp("chromium-watcher")]
    drivers: list[Any] = []
    try:
        for profile in profiles:
            drivers.append(_chromium(profile, phone=True))
        yield drivers[0], drivers[1]
    finally:
        for driver in drivers:
            driver.quit()
        for profile in profiles:
            shutil.rmtree(profile, ignore_errors=True)


def _wait(driver: Any) -> Any:
    return WebDriverWait(driver, WAIT, poll_frequency=0.05)


def _tap(driver: Any, css: str) -> None:
    """A tap, as a person makes it: on the element where it is on the screen (scrolled to the
    middle first, clear of the sticky header). The page may draw itself again between the
    element being found and tapped (after a submit the state comes twice: with the answer, and
    broadcast): then the tap goes to the element drawn in its place."""
    for _ in range(5):
        element = driver.execute_script("const e = document.querySelector(arguments[0]);"
                                        "if (e) e.scrollIntoView({block: 'center'}); return e;", css)
        assert element is not None, css
        try:
            element.click()
            return
        except StaleElementReferenceException:
            continue
    raise AssertionError(f"{css} was drawn again at every tap")


def _line(driver: Any) -> str:
    return str(driver.find_element(By.ID, "line").get_attribute("value"))


def _last_line(driver: Any) -> str:
    return str(driver.execute_script("const li = document.querySelector('#recent li:last-child');"
                                     "return li ? li.textContent : '';"))


def _submit_and_see(player: Any, watcher: Any, expected: str) -> None:
    """Submit the line built; both phones then show it last in the log."""
    assert _line(player).removeprefix("Ann: ").removeprefix("Bob: ") == expected.split(": ", 1)[-1] \
        if expected.startswith(("Ann: ", "Bob: ")) else _line(player) == expected, _line(player)
    _tap(player, "#submit")
    for driver in (player, watcher):
        _wait(driver).until(lambda d: _last_line(d) == expected, f"{expected!r} never arrived")


def _play_turn(player: Any, actions: str) -> None:
    """Tap a turn: a card in hand then a pile, a pile then a pile, the draw then the card drawn."""
    for action in actions.split("; "):
        if action.startswith("draw"):
            _tap(player, "#draw")
            _tap(player, f'#deck [data-card="{action.split()[1]}"]')
            continue
        source, target = action.split("->")
        if source in ("N", "E", "S", "W", "NE", "NW", "SE", "SW"):
            _tap(player, f'#piles [data-pile="{source}"]')
        else:
            _tap(player, f'#hand-cards [data-card="{source}"]')
        _tap(player, f'#piles [data-pile="{target}"]')


def save_docs_screenshots(tmp_path: Path) -> None:
    """docs/serve.md's pictures: the page on a phone (at a pixel ratio of 1, to keep the file
    small) and on a desktop, mid-hand, a play half built."""
    log = tmp_path / "docs.log"
    log.write_text("".join(line + "\n" for line in ['[Players "Ann, Bob"]', '[Rules "commercial"]', *HAND[:6]]),
                   encoding="utf-8")
    with serving(log) as server:
        for name, phone in (("serve-phone.png", True), ("serve-desktop.png", False)):
            profile = tmp_path / f"chromium-{name}"
            driver = _chromium(profile, phone, ratio=1.0)
            try:
                driver.get(server.url)
                _wait(driver).until(lambda d: "Ann to play" in d.find_element(By.ID, "status").text)
                _tap(driver, '#hand-cards [data-card="3S"]')
                _tap(driver, '#piles [data-pile="N"]')
                _tap(driver, '#hand-cards [data-card="5S"]')
                driver.execute_script("window.scrollTo(0, 0)")
                driver.save_screenshot(str(ROOT / "docs" / name))
            finally:
                driver.quit()
                shutil.rmtree(profile, ignore_errors=True)


def _kcref(*args: str, stdin: str = "") -> str:
    return subprocess.run([sys.executable, "-m", "kcref", *args], input=stdin, capture_output=True, text=True,
                          cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=60).stdout


def test_a_whole_hand_tapped_on_one_phone_and_followed_on_another(phones: tuple[Any, Any], tmp_path: Path) -> None:
    player, watcher = phones
    log = tmp_path / "night.log"
    log.write_text("".join(line + "\n" for line in HEAD), encoding="utf-8")
    with serving(log, "--view") as server:
        view = server.printed.split("spectators (no writing): ", 1)[1].split()[0]
        player.get(server.url)
        watcher.get(view)
        for driver in (player, watcher):
            _wait(driver).until(lambda d: "Next: hand 1" in d.find_element(By.ID, "status").text)
        assert "(watching)" in watcher.find_element(By.ID, "status").text
        assert watcher.find_element(By.ID, "submit").get_attribute("disabled") is not None

        _tap(player, '#who [data-start="hand 1"]')
        _submit_and_see(player, watcher, HAND[0])
        for deal in HAND[1:3]:
            name, cards = deal.removeprefix("deal ").split(": ")
            _tap(player, f'#who [data-start="deal {name}:"]')
            for card in cards.split():
                _tap(player, f'#deck [data-card="{card}"]')
            _submit_and_see(player, watcher, deal)
        _tap(player, '#who [data-start="layout"]')
        for entry in HAND[3].removeprefix("layout ").split():
            pile, card = entry.split(":")
            _tap(player, f'#deck [data-card="{card}"]')
            _tap(player, f'#piles [data-pile="{pile}"]')
        _submit_and_see(player, watcher, HAND[3])
        _play_turn(player, HAND[4].removeprefix("Ann: "))
        _submit_and_see(player, watcher, HAND[4])

        # An illegal play: refused with kcref's diagnostic, nothing written.
        _play_turn(player, "7S->E")
        _tap(player, "#submit")
        _wait(player).until(lambda d: "Refused" in d.find_element(By.ID, "message").text)
        assert "KC" in player.find_element(By.ID, "message").text
        assert _last_line(watcher) == HAND[4]
        _tap(player, "#clear")
        # Bob's turn tapped and accepted, taken back with Undo, then typed as text.
        _play_turn(player, HAND[5].removeprefix("Bob: "))
        _submit_and_see(player, watcher, HAND[5])
        _tap(player, "#undo")
        for driver in (player, watcher):
            _wait(driver).until(lambda d: _last_line(d) == HAND[4], "the undo never arrived")
        player.find_element(By.ID, "line").send_keys(HAND[5].removeprefix("Bob: "))
        _submit_and_see(player, watcher, HAND[5])
        _play_turn(player, HAND[6].removeprefix("Ann: "))
        _submit_and_see(player, watcher, HAND[6])
        for driver in (player, watcher):
            _wait(driver).until(lambda d: "Ann went out" in d.find_element(By.ID, "settlement").text)

        # Hostile text from the log is shown as text, and never runs.
        for driver in (player, watcher):
            with pytest.raises(NoAlertPresentException):
                driver.switch_to.alert.text  # noqa: B018
            assert driver.execute_script("return window.kcPwned === undefined")
            assert driver.execute_script("return document.querySelectorAll('#recent img, #recent script').length") == 0
            shown = driver.execute_script("return [...document.querySelectorAll('#recent li')].map(li => li.textContent)")
            assert f"# {HOSTILE}".replace("\u202e", "\\u202e") in shown  # a bidi control shown, not obeyed
            # Touch targets of at least 44 px, and nothing wider than the phone.
            small = driver.execute_script(
                "return [...document.querySelectorAll('button')].filter(b => b.offsetParent !== null)"
                ".map(b => b.getBoundingClientRect()).filter(r => r.height < 44 || r.width < 44).length")
            assert small == 0
            assert driver.execute_script("return document.documentElement.scrollWidth") <= 390

        shots = tmp_path / "screenshots"
        shots.mkdir()
        player.save_screenshot(str(shots / "player.png"))
        watcher.save_screenshot(str(shots / "watcher.png"))
        print(f"screenshots: {shots}")
        assert (shots / "player.png").stat().st_size > 0 and (shots / "watcher.png").stat().st_size > 0
        for driver in (player, watcher):
            severe = [e for e in driver.get_log("browser") if e["level"] == "SEVERE" and " 422 " not in e["message"]]
            assert not severe, severe
    meant = "".join(line + "\n" for line in HEAD + HAND)
    assert _kcref("fmt", "-", stdin=log.read_text(encoding="utf-8")) == _kcref("fmt", "-", stdin=meant)
    assert log.read_text(encoding="utf-8") == meant
    if os.environ.get("KCREF_UPDATE_SCREENSHOT") == "1":
        save_docs_screenshots(tmp_path)


def test_kill_9_mid_hand_then_the_page_resumes_where_the_game_stood(phones: tuple[Any, Any], tmp_path: Path) -> None:
    """The server killed with ``kill -9`` mid-hand and started again: the page opened on it shows
    the game where it stood, and the hand goes on by tapping."""
    import httpx

    player, _ = phones
    log = tmp_path / "night.log"
    with serving(log, "--players", "Ann, Bob", "--rules", "commercial") as server:
        with httpx.Client(base_url=server.base, headers={"X-Kcref-Key": server.key}, timeout=WAIT) as client:
            for text in HAND[:5]:
                version = client.get("state").json()["version"]
                assert client.post("line", json={"text": text, "version": version}).status_code == 200
        player.get(server.url)
        _wait(player).until(lambda d: "Bob to play" in d.find_element(By.ID, "status").text)
        _play_turn(player, "KH->SE")  # half a turn, on the page only
        os.kill(server.process.pid, signal.SIGKILL)
        server.process.wait(timeout=WAIT)
    assert _kcref("check", "--quiet", str(log)) == ""
    with serving(log) as server:
        player.get(server.url)
        _wait(player).until(lambda d: "Bob to play" in d.find_element(By.ID, "status").text)
        assert _last_line(player) == HAND[4]
        _play_turn(player, HAND[5].removeprefix("Bob: "))
        _tap(player, "#submit")
        _wait(player).until(lambda d: _last_line(d) == HAND[5])
    assert log.read_text(encoding="utf-8").endswith(HAND[4] + "\n" + HAND[5] + "\n")
