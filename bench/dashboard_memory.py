"""The dashboard server's memory under page loads. Prints figures; asserts nothing.

    python bench/dashboard_memory.py                 # 200 page loads on 20,000 hands
    python bench/dashboard_memory.py --loads 300 --hands 100000

Starts `kroeg dashboard` on a simulated dataset, then opens pages in headless
Chromium one after another, each a new browser context (a new Streamlit session),
cycling through Overview, Players and a replay. The server's resident memory (the
Streamlit process's VmRSS) is printed idle, every 50 loads, and idle again after.
"""

from __future__ import annotations

import argparse
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from playwright.sync_api import sync_playwright

from kroeg.recorder.rules import Ruleset
from kroeg.recorder.store import Dataset

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--disable-sync",
        "--disable-background-networking", "--disable-component-update"]  # fmt: skip


def rss_mib(pid: int) -> float:
    """Resident memory of a process and its children (the Streamlit server), MiB."""
    total = 0
    for proc in [pid, *_children(pid)]:
        try:
            for line in Path(f"/proc/{proc}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
        except OSError:
            pass
    return total / 1024


def _children(pid: int) -> list[int]:
    found = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        text = (task / "children").read_text().split()
        for child in map(int, text):
            found += [child, *_children(child)]
    return found


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--loads", type=int, default=200)
    parser.add_argument("--hands", type=int, default=20_000)
    args = parser.parse_args()
    data = ROOT / "bench" / "out" / f"memory-{args.hands}"
    if not data.exists():
        from kroeg.recorder.simulate import simulate_into

        simulate_into(Dataset(data).create(), Ruleset.preset("classic"), 4, args.hands, 3,
                      ["random", "bluffer"])  # fmt: skip
    (game_id, *_) = sorted(Dataset(data).game_ids())
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = subprocess.Popen(
        [sys.executable, "-m", "kroeg.cli", "dashboard", str(data), "--port", str(port)],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    url = f"http://127.0.0.1:{port}"
    try:
        # The first start analyses the dataset (minutes on a big one): wait until it serves.
        deadline = time.monotonic() + 1800
        while time.monotonic() < deadline and server.poll() is None:
            try:
                urllib.request.urlopen(url, timeout=1)
                break
            except OSError:
                time.sleep(0.5)
        time.sleep(3)
        pages = [f"{url}/overview", f"{url}/players", f"{url}/replay?game={game_id}&hand=1"]
        print(f"dashboard memory bench: {args.hands:,} hands, {args.loads} page loads")
        print(f"idle before: {rss_mib(server.pid):.0f} MiB")
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            for n in range(1, args.loads + 1):
                context = browser.new_context()
                page = context.new_page()
                page.goto(pages[n % len(pages)])
                page.wait_for_selector("[data-testid='stAppViewContainer']", timeout=60_000)
                page.wait_for_timeout(300)
                context.close()
                if n % 50 == 0:
                    print(f"after {n:>4} loads: {rss_mib(server.pid):.0f} MiB")
            browser.close()
        time.sleep(5)
        print(f"idle after:  {rss_mib(server.pid):.0f} MiB")
    finally:
        server.terminate()
        server.wait(timeout=30)


if __name__ == "__main__":
    main()
