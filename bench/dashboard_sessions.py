"""The dashboard as a service: concurrent sessions, page loads, memory. Prints figures.

    kroeg simulate --hands 100000 --seed 26 --bots random,bluffer,cautious,sharp \\
        --out /tmp/dash100k                           # once, outside the repository
    python bench/dashboard_sessions.py /tmp/dash100k  # 10 sessions x 3 rounds x 5 pages
    python bench/dashboard_sessions.py /tmp/dash100k --navigate   # each load a new session

Starts `kroeg dashboard` as a user does (the first start analyses the dataset: minutes),
then opens 10 browser contexts in one headless Chromium at once, each loading the five
pages three times (Evenings, Games, Replay, Players, Record): by a click in the sidebar
after opening the dashboard once (a visitor's evening), or with `--navigate` each by a
new address (a new Streamlit session every time), timed until the page's last element
is drawn.
Memory is the resident set (VmRSS) of the `kroeg dashboard` process (what waits) and of
its children (the Streamlit server, any analysis worker), sampled every 0.2 s: idle
before, the peak during the loads, and idle again `--settle` seconds after. CPU time is
counted the same way during the loads, apart for the server (`kroeg dashboard` and its
children) and for the browser (Playwright's driver and Chromium, this bench's other
children): on one machine both share the cores, and the split says whose work a load
waits for.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import socket
import statistics
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

from playwright.async_api import TimeoutError as PlaywrightTimeout
from playwright.async_api import async_playwright

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--disable-sync",
        "--disable-background-networking", "--disable-component-update"]  # fmt: skip

#: Each page's address and what it draws last.
PAGES = [
    ("evenings", "", "heading", "In numbers"),
    ("games", "games", "heading", "Hands"),
    ("replay", "replay?hand=1", "text", "Step 0/"),
    ("players", "players", "heading", "The numbers, with done / opportunities"),
    ("record", "record", "text", "Start the game"),
]


def rss_kib(pid: int) -> int:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def children(pid: int) -> list[int]:
    found: list[int] = []
    try:
        tasks = list(Path(f"/proc/{pid}/task").iterdir())
    except OSError:
        return found
    for task in tasks:
        try:
            text = (task / "children").read_text().split()
        except OSError:
            continue
        for child in map(int, text):
            found += [child, *children(child)]
    return found


def cpu_ticks(pid: int) -> int:
    """User and system CPU time of a process so far, in clock ticks (0 once it is gone)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return 0
    fields = stat[stat.rindex(")") + 2 :].split()
    return int(fields[11]) + int(fields[12])


class Sampler:
    """The parent's and its children's RSS every 0.2 s, in a thread; the peak of the sum.
    Also the CPU time of the server's processes and of the browser's since `count_cpu`."""

    def __init__(self, pid: int) -> None:
        self.pid, self.peak, self.peak_parent = pid, 0, 0
        self.counting = False
        self.first: dict[int, int] = {}  # pid -> ticks when first seen counting
        self.last: dict[int, tuple[str, int]] = {}  # pid -> (whose, ticks) last seen
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def now(self) -> tuple[int, int]:
        return rss_kib(self.pid), sum(rss_kib(c) for c in children(self.pid))

    def count_cpu(self) -> None:
        """Start counting CPU time: what each process has used so far is left out."""
        self._sample_cpu(first=True)
        self.counting = True

    def _sample_cpu(self, first: bool = False) -> None:
        server = {self.pid, *children(self.pid)}
        browser = set(children(os.getpid())) - server
        for whose, pids in (("server", server), ("browser", browser)):
            for pid in pids:
                ticks = cpu_ticks(pid)
                if first or pid not in self.first:
                    self.first[pid] = ticks if first else 0
                if ticks:
                    self.last[pid] = (whose, ticks)

    def cpu_seconds(self) -> dict[str, float]:
        """CPU seconds used by the server and by the browser while counting."""
        self._sample_cpu()
        used = {"server": 0.0, "browser": 0.0}
        for pid, (whose, ticks) in self.last.items():
            used[whose] += (ticks - self.first.get(pid, 0)) / os.sysconf("SC_CLK_TCK")
        return used

    def _run(self) -> None:
        while not self._stop.wait(0.2):
            parent, kids = self.now()
            self.peak = max(self.peak, parent + kids)
            self.peak_parent = max(self.peak_parent, parent)
            if self.counting:
                self._sample_cpu()

    def __enter__(self) -> Sampler:
        self._thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self._stop.set()
        self._thread.join()


#: The sidebar's name of each page.
NAMES = {"evenings": "Evenings", "games": "Games", "replay": "Replay", "players": "Players",
         "record": "Record"}  # fmt: skip


async def session(browser, url: str, rounds: int, times: dict[str, list[float]],  # type: ignore[no-untyped-def]
                  navigate: bool) -> None:  # fmt: skip
    """One visitor: with `navigate`, every load is a new address typed (a new Streamlit
    session each time, the page's scripts from the browser's cache); otherwise the
    dashboard is opened once (timed as `opened`) and each page is a click in the sidebar."""
    context = await browser.new_context(viewport={"width": 1400, "height": 1000})
    page = await context.new_page()
    try:
        if not navigate:
            began = time.perf_counter()
            await page.goto(url)
            await page.get_by_role("heading", name="In numbers").first.wait_for(timeout=120_000)
            times["opened"].append(time.perf_counter() - began)
        for _ in range(rounds):
            for name, path, kind, last in PAGES:
                target = (
                    page.get_by_role("heading", name=last).first
                    if kind == "heading"
                    else page.get_by_text(last).first
                )
                began = time.perf_counter()
                if navigate:
                    await page.goto(f"{url}/{path}")
                    await target.wait_for(timeout=120_000)
                else:
                    nav = page.locator("[data-testid='stSidebarNav']")
                    link = nav.get_by_text(NAMES[name], exact=True)
                    await link.click()
                    try:
                        await target.wait_for(timeout=30_000)
                    except PlaywrightTimeout:  # a click lost while the last page still ran
                        times["clicked again"].append(0.0)
                        await link.click()
                        await target.wait_for(timeout=120_000)
                times[name].append(time.perf_counter() - began)
    finally:
        await context.close()


async def load(url: str, sessions: int, rounds: int, navigate: bool) -> dict[str, list[float]]:
    times: dict[str, list[float]] = {"opened": []} | {name: [] for name, *_ in PAGES}
    times["clicked again"] = []
    async with async_playwright() as p:
        browser = await p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        await asyncio.gather(
            *(session(browser, url, rounds, times, navigate) for _ in range(sessions))
        )
        await browser.close()
    return times


def mib(kib: int) -> str:
    return f"{kib / 1024:,.0f} MiB"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("dataset", type=Path)
    parser.add_argument("--sessions", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--settle", type=float, default=120, help="seconds idle after")
    parser.add_argument(
        "--navigate", action="store_true",
        help="every load a new address (a new session), not a click in the sidebar",
    )  # fmt: skip
    args = parser.parse_args()
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    url = f"http://127.0.0.1:{port}"
    server = subprocess.Popen(
        [sys.executable, "-m", "kroeg.cli", "dashboard", str(args.dataset), "--port", str(port)],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=dict(os.environ),
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 3600  # a first start analyses the dataset
        while time.monotonic() < deadline and server.poll() is None:
            try:
                urllib.request.urlopen(url, timeout=1)
                break
            except OSError:
                time.sleep(0.5)
        time.sleep(5)
        with Sampler(server.pid) as sampler:
            idle_parent, idle_kids = sampler.now()
            sampler.count_cpu()
            began = time.perf_counter()
            times = asyncio.run(load(url, args.sessions, args.rounds, args.navigate))
            took = time.perf_counter() - began
            cpu = sampler.cpu_seconds()
            during_parent, during_kids = sampler.now()
            time.sleep(args.settle)
            after_parent, after_kids = sampler.now()
        again = len(times.pop("clicked again"))
        every = [t for ts in times.values() for t in ts]
        how = "each a new address" if args.navigate else "opened once, then sidebar clicks"
        print(f"dashboard sessions bench: {args.dataset}, {args.sessions} sessions x "
              f"{args.rounds} rounds x {len(PAGES)} pages at once ({how}), python "
              f"{sys.version.split()[0]}")  # fmt: skip
        print(f"page loads: median {statistics.median(every):.2f} s, max {max(every):.2f} s "
              f"over {len(every)} loads in {took:.0f} s (goal: median <= 3 s)")  # fmt: skip
        if again:
            print(f"  ({again} clicks lost and made again; their loads count from the first)")
        for name, ts in times.items():
            if not ts:
                continue
            print(f"  {name:<9} median {statistics.median(ts):.2f} s, max {max(ts):.2f} s")
        loads = len(every)
        print(f"CPU time during the loads: server {cpu['server']:.1f} s "
              f"({cpu['server'] / loads:.2f} s a load), browser {cpu['browser']:.1f} s "
              f"({cpu['browser'] / loads:.2f} s a load), on {os.cpu_count()} cores "
              f"in {took:.0f} s")  # fmt: skip
        print(
            f"memory idle before: {mib(idle_parent + idle_kids)} "
            f"(kroeg dashboard {mib(idle_parent)}, its children {mib(idle_kids)})"
        )
        print(
            f"memory at the peak: {mib(sampler.peak)} (goal <= 1 GB); "
            f"the parent's own peak {mib(sampler.peak_parent)}"
        )
        print(f"memory just after:  {mib(during_parent + during_kids)}")
        print(f"memory idle {args.settle:.0f} s after: {mib(after_parent + after_kids)} "
              f"({(after_parent + after_kids) / (idle_parent + idle_kids) - 1:+.0%} of idle "
              f"before; goal within 10 %)")  # fmt: skip
    finally:
        server.terminate()
        server.wait(timeout=60)


if __name__ == "__main__":
    main()
