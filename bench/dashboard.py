"""Dashboard speed on 100,000 hands, timed in headless Chromium. Prints figures.

    python bench/dashboard.py           # builds bench/out/dashboard-100000 once

The first page is timed from navigation until its game list is drawn, each
time in a new browser session (a new DuckDB connection); the first of them is
also the server's first visitor, with every query result still to compute. A
replay step is timed two ways: from a click on "Next" until the new step is
drawn and painted, measured inside the page (what the user waits for), and
driven and awaited by Playwright (which adds the driver's own round trips). A
one-button Streamlit fragment, timed both ways, gives the floor that any
Streamlit page pays. A page switch is timed from a click in the sidebar until
the page's last heading is drawn. Goals: first page <= 2 s, a page switch <= 1 s,
a replay step <= 200 ms.
"""

from __future__ import annotations

import os
import shutil
import socket
import statistics
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from playwright.sync_api import sync_playwright

from kroeg.analytics.totals import store_counts
from kroeg.recorder.rules import Ruleset
from kroeg.recorder.simulate import simulate
from kroeg.recorder.store import Dataset

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--disable-sync",
        "--disable-background-networking", "--disable-component-update"]  # fmt: skip


# A click on "Next" from inside the page, until the new step is drawn and painted: the
# user's wait, without the test driver's own round trips.
IN_PAGE = """(k) => new Promise((resolve) => {
  const button = document.querySelector(".st-key-replay_next button");
  const began = performance.now();
  const seen = new MutationObserver(() => {
    if (!document.body.textContent.includes(`Step ${k}/`)) return;
    seen.disconnect();
    requestAnimationFrame(() => setTimeout(() => resolve(performance.now() - began)));
  });
  seen.observe(document.body, {subtree: true, childList: true, characterData: true});
  button.click();
})"""


def build(path: Path, hands: int) -> None:
    dataset = Dataset(path).create()
    batch, pending = [], 0
    for game in simulate(Ruleset.preset("classic"), 4, hands, 7, ["random"]):
        batch.append(game)
        pending += game.hands
        if pending >= 50_000:
            dataset.write(batch)
            batch, pending = [], 0
    if batch:
        dataset.write(batch)
    dataset.compact()
    store_counts(dataset)


FLOOR_APP = """import streamlit as st

st.session_state.setdefault("n", 0)


@st.fragment
def stepper():
    st.button("Next ›", key="replay_next",
              on_click=lambda: st.session_state.update(n=st.session_state.n + 1))
    st.write(f"Step {st.session_state.n}/")


stepper()
"""


#: Page switches timed: the sidebar's link, and a heading the page draws last.
SWITCHES = [
    ("Games", "Hands"),
    ("Players", "The numbers, with done / opportunities"),
    ("Replay", "Replay"),
    ("Evenings", "In numbers"),
]


class Server:
    """A Streamlit server on a free port, for the length of a `with` block."""

    def __init__(self, args: list[str], env: dict[str, str]) -> None:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        self.url = f"http://127.0.0.1:{port}"
        self.process = subprocess.Popen(
            [sys.executable, *args, "--server.port", str(port), "--server.headless", "true",
             "--browser.gatherUsageStats", "false"],
            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip

    def __enter__(self) -> str:
        for _ in range(300):
            try:
                urllib.request.urlopen(self.url, timeout=1)
                break
            except OSError:
                time.sleep(0.1)
        return self.url

    def __exit__(self, *exc: object) -> None:
        self.process.terminate()
        self.process.wait(timeout=30)


def step_times(page, rewind: bool) -> tuple[list[float], list[float]]:  # type: ignore[no-untyped-def]
    """20 clicks on "Next" timed by Playwright, then 20 timed inside the page."""
    driven = []
    for k in range(1, 21):
        began = time.perf_counter()
        page.locator(".st-key-replay_next button").first.click()
        page.get_by_text(f"Step {k}/").wait_for()
        driven.append(time.perf_counter() - began)
    first = 1
    if rewind:
        page.locator(".st-key-replay_first button").first.click()
        page.get_by_text("Step 0/").wait_for()
    else:
        first = 21
    inside = [page.evaluate(IN_PAGE, k) / 1000 for k in range(first, first + 20)]
    return driven, inside


def main() -> None:
    hands = int(sys.argv[1]) if len(sys.argv) > 1 else 100_000
    path = ROOT / "bench" / "out" / f"dashboard-{hands}"
    if not (path / "games").is_dir():
        build(path, hands)
    floor_app = ROOT / "bench" / "out" / "floor_app.py"
    floor_app.write_text(FLOOR_APP)
    # The replayed game: among the first 200 by id, the first with 7 hands or more (the
    # longest if none has), for six changes of hand.
    dataset = Dataset(path)
    ids = sorted(dataset.game_ids())[:200]
    played = [dataset.read_game(g) for g in ids]
    longest = max(played, key=lambda g: min(g.hands, 7))
    game_id, hands_of_game = longest.game_id, longest.hands
    env = {**os.environ, "KROEG_DATASET": str(path)}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        with Server(["-m", "kroeg.dashboard.serve"], env) as url:  # as `kroeg dashboard` runs it
            firsts = []
            for _ in range(3):  # a new browser session each time
                page = browser.new_page()
                began = time.perf_counter()
                page.goto(url)
                page.get_by_role("heading", name="In numbers").wait_for(timeout=60_000)
                firsts.append(time.perf_counter() - began)
                page.close()
            # A page switch: a click in the sidebar until the page's title is drawn.
            switches = []
            page = browser.new_page()
            page.goto(url)
            page.get_by_role("heading", name="In numbers").wait_for(timeout=60_000)
            for _ in range(3):
                for name, heading in SWITCHES:
                    began = time.perf_counter()
                    page.locator("[data-testid='stSidebarNav']").get_by_text(name).click()
                    page.get_by_role("heading", name=heading).first.wait_for(timeout=60_000)
                    switches.append(time.perf_counter() - began)
            page.close()
            # The Replay page by a link (a new session each time, as a link opens).
            opens = []
            for _ in range(5):
                page = browser.new_page()
                began = time.perf_counter()
                page.goto(f"{url}/replay?game={game_id}&hand=1")
                page.locator(".kroeg-now").get_by_text("Step 0/").wait_for(timeout=60_000)
                opens.append(time.perf_counter() - began)
                page.close()
            page = browser.new_page()
            page.goto(f"{url}/replay?game={game_id}&hand=1")
            page.get_by_text("Moves", exact=True).wait_for(timeout=60_000)
            page.get_by_text("Step 0/").wait_for()  # a hand opens at its start
            driven, inside = step_times(page, rewind=True)
            # A change of hand: "Hand ›" until the next hand's first step is drawn.
            hand_changes = []
            for k in range(2, min(hands_of_game, 7) + 1):
                began = time.perf_counter()
                page.locator(".st-key-replay_hand_on button").first.click()
                page.locator(f'input[aria-label="Hand"][value="Hand {k}"]').wait_for(
                    state="attached", timeout=60_000
                )
                page.locator(".kroeg-now").get_by_text("Step 0/").wait_for(timeout=60_000)
                hand_changes.append(time.perf_counter() - began)
        with Server(["-m", "streamlit", "run", str(floor_app)], env) as url:
            floor_firsts = []
            for _ in range(3):  # the same as the first page above, for a one-button app
                page = browser.new_page()
                began = time.perf_counter()
                page.goto(url)
                page.get_by_text("Step 0/").wait_for(timeout=60_000)
                floor_firsts.append(time.perf_counter() - began)
                page.close()
            page = browser.new_page()
            page.goto(url)
            page.get_by_text("Step 0/").wait_for(timeout=60_000)
            floor_driven, floor_inside = step_times(page, rewind=False)
        browser.close()

    def line(what: str, times: list[float]) -> str:
        return (f"{what}: median {1000 * statistics.median(times):.0f} ms, "
                f"max {1000 * max(times):.0f} ms over {len(times)} steps")  # fmt: skip

    print(f"kroeg dashboard bench: {path}, {hands:,} hands, python {sys.version.split()[0]}")
    print(f"first page (new session each; the first is the server's first): "
          f"{', '.join(f'{t:.2f}' for t in firsts)} s (goal <= 2 s)")  # fmt: skip
    print(line("page switch (sidebar click until its last heading)", switches).replace(
        "steps", "switches") + " (goal <= 1 s)")  # fmt: skip
    for i, (name, _) in enumerate(SWITCHES):
        each = switches[i :: len(SWITCHES)]
        print(f"  to {name}: " + ", ".join(f"{1000 * t:.0f}" for t in each) + " ms")
    print(line("replay step, click to paint timed inside the page", inside)
          + " (goal <= 200 ms)")  # fmt: skip
    print(line("replay step, driven and awaited by Playwright", driven))
    print(f"replay opened by a link (new session each): "
          f"{', '.join(f'{t:.2f}' for t in opens)} s, median {statistics.median(opens):.2f} s "
          "(goal <= 1 s)")  # fmt: skip
    print(line("change of hand (Hand ›) until its first step is drawn", hand_changes).replace(
        "steps", "changes") + " (goal <= 300 ms)")  # fmt: skip
    print(f"floor: a one-button Streamlit app's first page: "
          f"{', '.join(f'{t:.2f}' for t in floor_firsts)} s")  # fmt: skip
    print(line("floor: a one-button Streamlit fragment, inside the page", floor_inside))
    print(line("floor: a one-button Streamlit fragment, by Playwright", floor_driven))


if __name__ == "__main__":
    main()
