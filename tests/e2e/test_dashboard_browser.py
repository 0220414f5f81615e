"""End to end: `kroeg dashboard` on a free port, driven in real headless Chromium.

Uses Debian's chromium (installed by .ci/run when missing) through Playwright with
`executable_path`. Screenshots land in the test's temporary folder; set KROEG_SHOTS to a
folder to keep them for a person to look at.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from parsers import notation
from recorder.store import Dataset

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
pytestmark = pytest.mark.skipif(
    not Path(CHROMIUM).exists(), reason="Debian's chromium is not installed (.ci/run installs it)"
)


@pytest.fixture
def server(tmp_path: Path, free_port: int, processes: list[subprocess.Popen[bytes]]):
    yield from serve(
        tmp_path, free_port, processes, "laundry-and-checks.txt", "troefcall-evening.txt"
    )


@pytest.fixture
def markup_server(tmp_path: Path, free_port: int, processes: list[subprocess.Popen[bytes]]):
    yield from serve(tmp_path, free_port, processes, "markup-in-names.txt")


def serve(
    tmp_path: Path, port: int, processes: list[subprocess.Popen[bytes]], *samples: str
) -> Iterator[tuple[str, Dataset]]:
    """`kroeg dashboard` on a dataset of these sample logs; stopped (and checked) at the end."""
    dataset = Dataset(tmp_path / "ds")
    for sample in samples:
        dataset.write(notation.load(ROOT / "sample_logs" / sample))
    process = subprocess.Popen(
        [sys.executable, "-m", "kroeg.cli", "dashboard", str(dataset.path), "--port", str(port)],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    processes.append(process)
    url = f"http://127.0.0.1:{port}"
    for _ in range(300):
        try:
            with urllib.request.urlopen(url, timeout=1) as response:
                if response.status == 200:
                    break
        except OSError:
            time.sleep(0.1)
    yield url, dataset
    process.terminate()
    process.wait(timeout=30)
    # kroeg dashboard stops its Streamlit child on SIGTERM: the port is free again.
    with socket.socket() as s:
        assert s.connect_ex(("127.0.0.1", port)) != 0


def open_page(p: Any) -> tuple[Any, Any]:
    """Debian's Chromium, headless, with the flags this closed network needs; one page."""
    browser = p.chromium.launch(
        executable_path=CHROMIUM,
        args=["--no-sandbox", "--disable-gpu", "--disable-quic", "--disable-sync",
              "--disable-background-networking", "--disable-component-update"],
    )  # fmt: skip
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    page.set_default_timeout(30_000)  # the suite runs on every core: pages may be slow
    return browser, page


@pytest.fixture
def shots(tmp_path: Path) -> Path:
    """Where screenshots go: KROEG_SHOTS if set, else the test's temporary folder."""
    folder = Path(os.environ.get("KROEG_SHOTS") or tmp_path / "screenshots")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@pytest.mark.slow
def test_replay_and_players_in_a_real_browser(server, shots: Path) -> None:
    from playwright.sync_api import TimeoutError as PlaywrightTimeout
    from playwright.sync_api import expect, sync_playwright

    # The suite runs on every core: a page may take longer than Playwright's 5 s default
    # while other tests keep the machine busy. Correctness, not speed, is checked here.
    expect.set_options(timeout=30_000)
    url, dataset = server
    games = {g.game_type: g.game_id for g in dataset.read_games()}
    game_id, troef_id = games["toepen"], games["troefcall"]
    with sync_playwright() as p:
        browser, page = open_page(p)
        page.goto(f"{url}/replay?game={game_id}&hand=2")
        expect(page.get_by_text("Events")).to_be_visible(timeout=30_000)
        expect(page.get_by_text("Step 0/")).to_be_visible()  # a hand opens at its start
        page.get_by_role("button", name="Next knock").click()
        expect(page.get_by_text("Ben knocks: the stake is now 2").first).to_be_visible()
        expect(page.get_by_text("stake 2", exact=True)).to_be_visible()
        page.screenshot(path=str(shots / "replay-knock.png"), full_page=True)
        page.get_by_text("All cards (otherwise: what the table saw)").click()
        page.get_by_role("button", name="« First").click()  # the deal is in the list again
        expect(page.get_by_text("a card to Anna (J♠)")).to_be_visible()
        page.screenshot(path=str(shots / "replay-all-cards.png"), full_page=True)
        page.goto(f"{url}/players")
        expect(page.get_by_text("What folding cost")).to_be_visible(timeout=30_000)
        expect(page.get_by_text("The numbers, with done / opportunities")).to_be_visible()
        page.screenshot(path=str(shots / "players.png"), full_page=True)
        # A click on Carla's bar in the fold-cost chart lists the fold behind it.
        # On a busy machine the chart may take the first click before its selection is
        # wired: click again until the page answers (what a person would do).
        folds = page.locator(".vega-embed").nth(2)
        answered = page.get_by_text("Carla's folds")
        for _ in range(6):
            folds.locator('path[aria-label^="player: Carla;"]').first.click()
            try:
                answered.wait_for(timeout=5_000)
                break
            except PlaywrightTimeout:
                continue
        expect(answered).to_be_visible()
        link = page.get_by_role("link", name=f"{game_id} hand 2")
        expect(link).to_be_visible()
        page.screenshot(path=str(shots / "players-bar-clicked.png"), full_page=True)
        with page.context.expect_page() as opened:  # Streamlit opens links in a new tab
            link.click()
        replay = opened.value
        expect(replay.get_by_text("Events")).to_be_visible(timeout=30_000)
        expect(replay.get_by_text("Carla folds").first).to_be_visible()
        # A Troefcall hand: trump, the caller and the partnerships on the table.
        page.goto(f"{url}/replay?game={troef_id}&hand=1")
        expect(page.get_by_text("Events")).to_be_visible(timeout=30_000)
        page.get_by_role("button", name="Last »").click()
        expect(
            page.get_by_text("Hand over: Anna & Carla 7 tricks, Ben & Dan 0").first
        ).to_be_visible()
        expect(
            page.get_by_text("Carla: kap! (Anna & Carla took the first 7 tricks)")
        ).to_be_visible()
        expect(page.locator(".kroeg-trump")).to_have_text("trump ♠")
        expect(page.locator(".kroeg-caller")).to_have_count(1)
        page.screenshot(path=str(shots / "troefcall-replay.png"), full_page=True)
        browser.close()
    assert (shots / "players.png").stat().st_size > 10_000


@pytest.mark.slow
def test_markup_names_make_no_request_and_render_no_markup(markup_server, shots: Path) -> None:
    """sample_logs/markup-in-names.txt in a real browser: the dashboard's pages and the
    newsletter's Markdown (rendered by CommonMark) fetch nothing the names point at
    (127.0.0.2, on loopback), run no script, and show the names as typed."""
    from markdown_it import MarkdownIt
    from playwright.sync_api import expect, sync_playwright

    from analytics.newsletter import build, markdown
    from analytics.views import connect

    expect.set_options(timeout=30_000)
    url, dataset = markup_server
    (game,) = dataset.read_games()
    requests: list[str] = []
    dialogs: list[str] = []
    with sync_playwright() as p:
        browser, page = open_page(p)
        page.on("request", lambda request: requests.append(request.url))
        page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
        page.goto(f"{url}/replay?game={game.game_id}&hand=1")
        expect(page.get_by_text("![Anna](//127.0.0.2/i.png)").first).to_be_visible()
        for path in ("overview", "sessions", "players"):
            page.goto(f"{url}/{path}")
            page.wait_for_selector("[data-testid='stAppViewContainer']")
            page.wait_for_timeout(1500)
            page.screenshot(path=str(shots / f"markup-{path}.png"), full_page=True)
            assert page.locator("img[src*='127.0.0.2'], a[href*='127.0.0.2']").count() == 0
            assert page.locator("b", has_text="Ben").count() == 0  # <b>Ben</b> stays text
        # The Record page: a game started at the table with the same names.
        page.goto(f"{url}/record")
        names = page.get_by_label("Players, in seat order")
        names.fill("![Anna](//127.0.0.2/i.png), <b>Ben</b>, *Carla* | x, שרה")
        page.get_by_label("Venue").fill("[link](//127.0.0.2/x)")
        page.get_by_role("button", name="Start the game").click()
        expect(page.get_by_text("name the dealer").first).to_be_visible()
        page.screenshot(path=str(shots / "markup-record.png"), full_page=True)
        assert page.locator("img[src*='127.0.0.2'], a[href*='127.0.0.2']").count() == 0
        news = markdown(build(connect(dataset), dataset, "2026-11"))
        rendered = shots / "newsletter.html"
        rendered.write_text(MarkdownIt("commonmark").render(news), encoding="utf-8")
        page.goto(rendered.as_uri())
        page.wait_for_timeout(500)
        assert page.locator("img, script, a[href*='127.0.0.2']").count() == 0
        expect(page.get_by_text("<b>Ben</b>").first).to_be_visible()
        browser.close()
    assert [u for u in requests if "127.0.0.2" in u] == []
    assert dialogs == []
