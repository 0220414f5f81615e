"""Dashboard speed on 100,000 hands, timed in headless Chromium. Prints figures.

    python bench/dashboard.py           # builds bench/out/dashboard-100000 once

The first page is timed from navigation until its game list is drawn (a new
browser session, so a new DuckDB connection and empty caches); a replay step
from a click on "Next" until the new step is drawn. Goals: first page <= 2 s,
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

from analytics.totals import store_counts
from recorder.rules import Ruleset
from recorder.simulate import simulate
from recorder.store import Dataset

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--disable-sync",
        "--disable-background-networking", "--disable-component-update"]  # fmt: skip


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


def main() -> None:
    hands = int(sys.argv[1]) if len(sys.argv) > 1 else 100_000
    path = ROOT / "bench" / "out" / f"dashboard-{hands}"
    if not (path / "games").is_dir():
        build(path, hands)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = {**os.environ, "KROEG_DATASET": str(path)}
    server = subprocess.Popen(
        [sys.executable, "-m", "streamlit", "run", str(ROOT / "dashboard" / "app.py"),
         "--server.port", str(port), "--server.headless", "true",
         "--browser.gatherUsageStats", "false"],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    url = f"http://127.0.0.1:{port}"
    for _ in range(300):
        try:
            urllib.request.urlopen(url, timeout=1)
            break
        except OSError:
            time.sleep(0.1)
    game_id = sorted(Dataset(path).game_ids())[0]
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            firsts = []
            for _ in range(3):
                page = browser.new_page()
                began = time.perf_counter()
                page.goto(url)
                page.get_by_role("heading", name="Games").wait_for(timeout=60_000)
                firsts.append(time.perf_counter() - began)
                page.close()
            page = browser.new_page()
            page.goto(f"{url}/replay?game={game_id}&hand=1")
            page.get_by_text("Events", exact=True).wait_for(timeout=60_000)
            page.get_by_role("button", name="« First").click()
            page.get_by_text("Step 0/").wait_for()
            steps = []
            for k in range(1, 21):
                began = time.perf_counter()
                page.get_by_role("button", name="Next ›").click()
                page.get_by_text(f"Step {k}/").wait_for()
                steps.append(time.perf_counter() - began)
            browser.close()
    finally:
        server.terminate()
        server.wait(timeout=30)
    print(f"kroeg dashboard bench: {path}, {hands:,} hands, python {sys.version.split()[0]}")
    print(f"first page (new session each): {', '.join(f'{t:.2f}' for t in firsts)} s "
          f"(goal <= 2 s)")  # fmt: skip
    print(f"replay step: median {1000 * statistics.median(steps):.0f} ms, "
          f"max {1000 * max(steps):.0f} ms over {len(steps)} steps (goal <= 200 ms)")  # fmt: skip


if __name__ == "__main__":
    main()
