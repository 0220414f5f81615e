"""End to end: `kroeg dashboard` on a free port, driven in real headless Chromium.

Uses Debian's chromium (installed by .ci/run when missing) through Playwright with
`executable_path`. Screenshots land in the test's temporary folder; set KROEG_SHOTS to a
folder to keep them for a person to look at.
"""

from __future__ import annotations

import dataclasses
import itertools
import os
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterable, Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

from kroeg.analytics.derived import enrich
from kroeg.dashboard.replay import hand_states
from kroeg.parsers import notation
from kroeg.recorder.records import GameRecord
from kroeg.recorder.rules import PRESETS
from kroeg.recorder.simulate import simulate
from kroeg.recorder.store import Dataset
from tests.dashboard.test_names import EVENING, GAME_ID, UNDATED
from tests.recorder.table import play_example

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
#: The browser's language in the tests that read the dashboard's English.
ENGLISH = "en-US"
pytestmark = pytest.mark.skipif(
    not Path(CHROMIUM).exists(), reason="Debian's chromium is not installed (.ci/run installs it)"
)


@pytest.fixture
def server(tmp_path: Path, free_port: int, processes: list[subprocess.Popen[bytes]]):
    yield from serve(
        tmp_path, free_port, processes, "laundry-and-checks.txt", "troefcall-evening.txt"
    )


@pytest.fixture
def review_server(tmp_path: Path, free_port: int, processes: list[subprocess.Popen[bytes]]):
    """Seed 003's example hand, the Troefcall sample evening (a kap), and a few simulated
    classic games (a regrettable fold among them), analysed."""
    game = play_example()
    seed = GameRecord(game_id="seed003", rules=game.rules, players=game.players,
                      events=tuple(game.log))  # fmt: skip
    bots = ("bluffer", "cautious", "sharp", "random")
    played = list(simulate(PRESETS["classic"], 4, 120, seed=7, styles=bots))
    yield from serve(
        tmp_path, free_port, processes, "troefcall-evening.txt",
        records=[seed, *played], analyse=True,
    )  # fmt: skip


@pytest.fixture
def laundry_server(tmp_path: Path, free_port: int, processes: list[subprocess.Popen[bytes]]):
    """The laundry night (a real laundry and a false claim), analysed."""
    yield from serve(tmp_path, free_port, processes, "laundry-and-checks.txt", analyse=True)


@pytest.fixture
def crowded_server(tmp_path: Path, free_port: int, processes: list[subprocess.Popen[bytes]]):
    """Simulated games of seven and of eight players (the most Toepen seats)."""
    games = [
        next(iter(simulate(PRESETS["classic"], n, 6, seed=3, styles=("random",)))) for n in (7, 8)
    ]
    yield from serve(tmp_path, free_port, processes, records=games)


@pytest.fixture
def markup_server(tmp_path: Path, free_port: int, processes: list[subprocess.Popen[bytes]]):
    yield from serve(tmp_path, free_port, processes, "markup-in-names.txt")


def serve(
    tmp_path: Path,
    port: int,
    processes: list[subprocess.Popen[bytes]],
    *samples: str,
    records: Iterable[GameRecord] = (),
    analyse: bool = False,
) -> Iterator[tuple[str, Dataset]]:
    """`kroeg dashboard` on a dataset of these sample logs (and records); stopped (and
    checked) at the end."""
    dataset = Dataset(tmp_path / "ds")
    for sample in samples:
        dataset.write(notation.load(ROOT / "sample_logs" / sample))
    if records:
        dataset.write(records)
    if analyse:
        enrich(dataset)
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
    # The dashboard speaks the browser's language (docs/LANGUAGES.md): these tests read
    # its English.
    page = browser.new_page(viewport={"width": 1400, "height": 1000}, locale=ENGLISH)
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
        expect(page.get_by_text("Moves", exact=True)).to_be_visible(timeout=30_000)
        expect(page.get_by_text("Step 0/")).to_be_visible()  # a hand opens at its start
        page.wait_for_function(SETTLED)
        page.locator(".st-key-replay_knock button:visible").first.click()
        expect(page.get_by_text("Ben knocks: the stake is now 2").first).to_be_visible()
        expect(page.get_by_text("stake 2", exact=True)).to_be_visible()
        page.screenshot(path=str(shots / "replay-knock.png"), full_page=True)
        page.get_by_role("combobox", name="View").click()
        page.get_by_role("option", name="All cards").click()
        page.wait_for_function(SETTLED)
        page.locator(".st-key-replay_first button").first.click()  # the deal: every card
        expect(page.locator(".kroeg-card", has_text="J♠")).to_be_visible()
        page.screenshot(path=str(shots / "replay-all-cards.png"), full_page=True)
        # A filter in the sidebar, kept when a link opens the replay (same tab, same
        # session).
        page.goto(f"{url}/players")
        expect(page.get_by_text("What folding cost")).to_be_visible(timeout=30_000)
        page.get_by_role("combobox", name="Rule sets").click()
        page.get_by_role("option", name="classic").click()
        page.keyboard.press("Escape")
        expect(page.get_by_text("What folding cost")).to_be_visible(timeout=30_000)
        expect(page.get_by_text("The numbers, with done / opportunities")).to_be_visible()
        page.screenshot(path=str(shots / "players.png"), full_page=True)
        # A click on Carla's bar in the fold-cost chart lists the fold behind it.
        # On a busy machine the chart may take the first click before its selection is
        # wired: click again until the page answers (what a person would do).
        folds = page.locator(".vega-embed").nth(2)
        answered = page.get_by_text("Carla's folds")
        for _ in range(6):
            folds.locator('path[aria-label^="top: "][aria-label*="; player: Carla;"]').click()
            try:
                answered.wait_for(timeout=5_000)
                break
            except PlaywrightTimeout:
                continue
        expect(answered).to_be_visible()
        link = page.get_by_role("link", name="23 Oct, 20:00 — Anna, Ben, Carla, Dan · hand 2")
        expect(link).to_be_visible()
        page.screenshot(path=str(shots / "players-bar-clicked.png"), full_page=True)
        tabs = len(page.context.pages)
        page.wait_for_function(LINKS_READY)
        link.click()  # opens the replay here, at the fold
        expect(page.locator(".kroeg-now")).to_contain_text("Carla folds")
        assert len(page.context.pages) == tabs and "/replay?" in page.url
        # The filter is still on.
        expect(page.locator("[data-testid='stSidebar']").get_by_text("classic")).to_be_visible()
        # A Troefcall hand: trump, the caller and the partnerships on the table.
        page.goto(f"{url}/replay?game={troef_id}&hand=1")
        expect(page.get_by_text("Moves", exact=True)).to_be_visible(timeout=30_000)
        page.wait_for_function(SETTLED)
        page.locator(".st-key-replay_last button").first.click()
        expect(
            page.get_by_text(
                "Hand over: Anna & Carla win the hand by kap partij "
                "(Anna & Carla 7 tricks, Ben & Dan 0)"
            ).first
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

    from kroeg.analytics.newsletter import build, markdown
    from kroeg.analytics.views import connect

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
        for path in ("overview", "games", "players"):
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


#: The page has finished its last run (Streamlit shows a status widget while it runs)
#: and has drawn since: a key pressed now reaches the buttons of the step shown.
SETTLED = """() => new Promise((done) => {
  const idle = () => !document.querySelector('[data-testid="stStatusWidget"]');
  const wait = () => idle() ? setTimeout(() => done(idle()), 250) : setTimeout(wait, 50);
  wait();
})"""

#: The same-tab link listener (dashboard/links.js) is mounted.
LINKS_READY = "() => window.__kroegLinks !== undefined"

#: The current move is inside the move list's box (the list scrolls, not the page).
IN_VIEW = """() => {
  const li = document.querySelector('.kroeg-moves li.now');
  if (!li) return false;
  const box = li.closest('.kroeg-moves').getBoundingClientRect();
  const r = li.getBoundingClientRect();
  return r.top >= box.top && r.bottom <= box.bottom;
}"""

#: The cards at the table's seats whose rank and suit do not show: covered by a card after
#: them (drawn over them), on the felt, or off the screen.
CARDS_HIDDEN = """() => {
  const felt = document.querySelector('.kroeg-table .kroeg-felt').getBoundingClientRect();
  const meets = (a, b) => a.left < b.right - 0.5 && a.right > b.left + 0.5 &&
    a.top < b.bottom - 0.5 && a.bottom > b.top + 0.5;
  const out = [];
  for (const seat of document.querySelectorAll('.kroeg-table .kroeg-seat')) {
    const cards = [...seat.querySelectorAll('.kroeg-card')];
    const boxes = cards.map((c) => c.getBoundingClientRect());
    cards.forEach((card, i) => {
      const range = document.createRange();
      range.selectNodeContents(card);
      const index = range.getBoundingClientRect();  // its rank and suit
      const who = seat.querySelector('.kroeg-name').innerText + ' ' + card.innerText;
      if (boxes.slice(i + 1).some((b) => meets(b, index))) out.push(who + ' covered');
      if (meets(boxes[i], felt)) out.push(who + ' on the felt');
      if (index.left < 0 || index.right > window.innerWidth) out.push(who + ' off screen');
    });
  }
  return out;
}"""


@pytest.mark.slow
@pytest.mark.parametrize("size", [(1440, 900), (390, 844)], ids=["desktop", "phone"])
def test_a_laundry_swap_is_judged_in_a_real_browser(laundry_server, shots: Path, size) -> None:
    """Dan's false laundry claim, opened by its link: the verdict box weighs swapping
    against keeping the hand, and the move list shows the whole move with its mark (on a
    phone the list is three lines high and the move takes three)."""
    from playwright.sync_api import expect, sync_playwright

    expect.set_options(timeout=30_000)
    url, dataset = laundry_server
    (game_id,) = dataset.game_ids()
    width = size[0]
    tag = "desktop" if width > 640 else "phone"
    with sync_playwright() as p:
        browser, _ = open_page(p)
        page = sized_page(browser, size)
        page.goto(f"{url}/replay?game={game_id}&hand=2&step=17")  # the laundry's event
        expect(page.locator(".kroeg-now")).to_contain_text("Dan swaps the hand")
        verdict = page.locator(".kroeg-verdict")
        expect(verdict).to_have_class("kroeg-verdict blunder")
        expect(verdict).to_contain_text(
            "Dan swapped the laundry on a false claim: expected to cost 1.7; keeping the "
            "hand, 1.1 (from what Dan could see). Lost 0.6 of a stake of 1 in expectation: "
            "a blunder (??)."
        )
        expect(page.locator(".kroeg-moves li.now .kroeg-mark.blunder")).to_have_text("?? blunder")
        page.wait_for_function(SETTLED)
        page.wait_for_function(IN_VIEW)  # the move's last line, its mark, in the box
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        verdict.scroll_into_view_if_needed()
        page.screenshot(path=str(shots / f"review-swap-{tag}.png"))
        # The hand's first trick: each card over its player's name, the names apart (at
        # least 1 px: on a phone each card keeps 1 px on either side).
        states = hand_states(dataset.read_game(game_id), 2, reveal_all=False)
        trick = next(s for s in states if s.kind == "trick")
        page.goto(f"{url}/replay?game={game_id}&hand=2&step={trick.seq}")
        expect(page.locator(".kroeg-who")).to_have_count(4)
        page.wait_for_function(SETTLED)
        assert page.evaluate(NAMES_APART) == [], tag
        browser.close()


#: Where a trick's names under its cards touch or overlap (they once ran together as
#: "CarlaDanAnnaBen"): the pairs side by side in a row less than 1 px apart.
NAMES_APART = """() => {
  const names = [...document.querySelectorAll('.kroeg-trick .kroeg-who')]
    .map((e) => [e.innerText, e.getBoundingClientRect()]);
  const out = [];
  names.forEach(([a, r], i) => names.slice(i + 1).forEach(([b, q]) => {
    const sameRow = Math.abs(r.top - q.top) < 2;
    const gap = Math.max(q.left - r.right, r.left - q.right);
    if (sameRow && gap < 1) out.push(a + '|' + b + ' ' + gap.toFixed(1));
  }));
  return out;
}"""


#: Where two seats of the table meet: a card or a name of one over a card or a name of
#: another (seven at the table once put two top seats over each other on a phone).
SEATS_APART = """() => {
  const meets = (a, b) => a.left < b.right - 0.5 && a.right > b.left + 0.5 &&
    a.top < b.bottom - 0.5 && a.bottom > b.top + 0.5;
  const seats = [...document.querySelectorAll('.kroeg-table .kroeg-seat')];
  const parts = (s) => [...s.querySelectorAll('.kroeg-card, .kroeg-name, .kroeg-score')]
    .map((e) => e.getBoundingClientRect());
  const out = [];
  seats.forEach((s, i) => seats.slice(i + 1).forEach((t) => {
    if (parts(s).some((a) => parts(t).some((b) => meets(a, b)))) {
      out.push(s.querySelector('.kroeg-name').innerText + ' / ' +
        t.querySelector('.kroeg-name').innerText);
    }
  }));
  return out;
}"""


@pytest.mark.slow
@pytest.mark.parametrize("size", [(1440, 900), (390, 844)], ids=["desktop", "phone"])
def test_seven_and_eight_at_the_table_each_seat_apart(crowded_server, shots: Path, size) -> None:
    """Toepen seats up to eight: at the first card and the first trick every seat's name,
    score and cards stand clear of every other seat's, and each card shows its rank and
    suit, at desktop and phone size."""
    from playwright.sync_api import expect, sync_playwright

    expect.set_options(timeout=30_000)
    url, dataset = crowded_server
    width = size[0]
    tag = "desktop" if width > 640 else "phone"
    with sync_playwright() as p:
        browser, _ = open_page(p)
        page = sized_page(browser, size)
        for record in dataset.read_games():
            n = len(record.players)
            states = hand_states(record, 1, reveal_all=True)
            dealt = next(s for s in states if s.kind != "hand_start")  # the cards are out
            trick = next(s for s in states if s.kind == "trick")
            for state in (dealt, trick):
                page.goto(f"{url}/replay?game={record.game_id}&hand=1&step={state.seq}&view=all")
                expect(page.locator(".kroeg-table .kroeg-seat")).to_have_count(n)
                page.wait_for_function(SETTLED)
                assert page.evaluate(SEATS_APART) == [], (tag, n, state.kind)
                assert page.evaluate(CARDS_HIDDEN) == [], (tag, n, state.kind)
                assert page.evaluate(NAMES_APART) == [], (tag, n, state.kind)
                assert page.evaluate("document.documentElement.scrollWidth") <= width
            page.locator(".kroeg-table").screenshot(path=str(shots / f"seats-{n}-{tag}.png"))
        browser.close()


def now(page: Any) -> str:
    """The replay's line for the step shown ("Step 3/27: Anna plays J♥")."""
    return str(page.locator(".kroeg-now").inner_text())


@pytest.mark.slow
@pytest.mark.parametrize("size", [(1440, 900), (390, 844)], ids=["desktop", "phone"])
def test_reviewing_a_hand_in_a_real_browser(review_server, shots: Path, size) -> None:
    """The review features, as a club member uses them, at desktop and phone size: keys,
    a click on a move, labelled trick cards, the to-act marker, the verdict marks, the
    result banner, a copied link opened in a new page; a Troefcall hand with kap, each of
    its 52 cards with rank and suit in view; the page never scrolls sideways."""
    from playwright.sync_api import expect, sync_playwright

    from kroeg.analytics.views import connect

    expect.set_options(timeout=30_000)
    url, dataset = review_server
    width, height = size
    tag = "desktop" if width > 640 else "phone"
    troef_id = next(g.game_id for g in dataset.read_games() if g.game_type == "troefcall")
    regrets = (
        connect(dataset)
        .sql(
            "SELECT f.game_id, f.hand, f.seq, f.cost FROM folds AS f JOIN fold_facts AS x "
            "USING (game_id, hand, seq) WHERE x.regret ORDER BY f.game_id, f.hand LIMIT 1"
        )
        .fetchall()
    )
    assert regrets, "the simulated games have a regrettable fold"
    regret = regrets[0]
    with sync_playwright() as p:
        browser, _ = open_page(p)
        context = browser.new_context(
            viewport={"width": width, "height": height},
            permissions=["clipboard-read", "clipboard-write"],
            locale=ENGLISH,
        )
        page = context.new_page()
        page.set_default_timeout(30_000)

        def no_sideways_scroll() -> None:
            assert page.evaluate("document.documentElement.scrollWidth") <= width

        def press(key: str, expected: str) -> None:
            """A key once the page is done with the last one (as a person waits to see
            the step before the next key); then the page shows `expected`."""
            page.wait_for_function(SETTLED)
            page.keyboard.press(key)
            expect(page.locator(".kroeg-now")).to_contain_text(expected)

        # Seed 003's example: the hand opens at the deal, one step.
        page.goto(f"{url}/replay?game=seed003&hand=1")
        expect(page.locator(".kroeg-now")).to_contain_text("Step 0/")
        expect(page.locator(".kroeg-now")).to_contain_text("4 cards to each")
        expect(page.locator(".st-key-replay_next button").first).to_be_enabled()
        press("ArrowRight", "Step 1/")
        assert "Anna plays J♥" in now(page)
        expect(page.locator(".kroeg-turn")).to_have_text("to play")  # Ben is next
        expect(page.locator(".kroeg-seat", has=page.locator(".kroeg-turn"))).to_contain_text("Ben")
        press("ArrowLeft", "Step 0/")
        press("k", "Ben knocks")  # the next knock
        # Judged as a choice first (from what Ben could see, a mistake), then its strength.
        verdict = page.locator(".kroeg-verdict")
        expect(verdict).to_have_class("kroeg-verdict mistake")
        expect(verdict).to_contain_text("Ben knocked: expected to cost 1.2")
        expect(verdict).to_contain_text("Also a bluff: strength 0.13, below the fair share 0.25")
        expect(page.locator(".kroeg-moves li.now .kroeg-mark.mistake")).to_have_text("? mistake")
        answer = page.locator(".kroeg-seat", has=page.locator(".kroeg-turn", has_text="to answer"))
        expect(answer).to_contain_text("Carla")  # the first to answer the knock
        page.screenshot(path=str(shots / f"review-knock-{tag}.png"))
        # The table's view tells the moves up to the one shown: at the end, all of them.
        press("End", "Step ")
        expect(page.locator(".kroeg-result")).to_contain_text("Result:")
        expect(page.locator(".kroeg-result")).to_contain_text("Scores after the hand")
        page.screenshot(path=str(shots / f"review-result-{tag}.png"))
        no_sideways_scroll()
        # A click on a move in the list goes there; the list keeps it in view.
        page.wait_for_function("() => window.__kroegReplayNav !== undefined")
        page.wait_for_function(SETTLED)
        page.locator(".kroeg-moves li", has_text="Carla folds").click()
        expect(page.locator(".kroeg-now")).to_contain_text("Carla folds")
        # Judged on what Carla could see, then in hindsight with every card as it lay.
        expect(verdict).to_contain_text("Folded: cost 1.0; staying in was expected to cost")
        expect(verdict).to_contain_text("The better answer. In hindsight: no regret.")
        expect(page.locator(".kroeg-moves li.now .kroeg-mark")).to_have_text("● sound")
        page.wait_for_function(IN_VIEW)
        # A complete trick: each card under its player, the taker starred.
        press("End", "Step ")
        # At the last step and done drawing it (under load the click could land while
        # the page still redrew the End, and be lost: seen once in CI).
        expect(page.locator(".kroeg-now")).to_contain_text(re.compile(r"Step (\d+)/\1:"))
        page.wait_for_function(SETTLED)
        page.locator(".kroeg-moves li", has_text="takes trick 1").click()
        expect(page.locator(".kroeg-trick")).to_contain_text("trick 1:")
        expect(page.locator(".kroeg-played .kroeg-who")).to_have_count(4)
        expect(page.locator(".kroeg-played.won .kroeg-who")).to_contain_text("★")
        page.screenshot(path=str(shots / f"review-trick-{tag}.png"))
        # As Anna saw it: her cards face up from the deal, nobody else's.
        press("Home", "Step 0/")
        page.get_by_role("combobox", name="View").click()
        page.keyboard.type("As Anna")  # a select box filters its options as one types
        page.keyboard.press("Enter")
        page.wait_for_function(SETTLED)
        anna = page.locator(".kroeg-seat", has_text="Anna")
        expect(anna.locator(".kroeg-card:not(.back)")).to_have_count(4)
        expect(page.locator(".kroeg-card:not(.back)")).to_have_count(4)
        assert "view=1" in page.url
        page.screenshot(path=str(shots / f"review-as-anna-{tag}.png"))
        no_sideways_scroll()
        page.get_by_role("combobox", name="View").click()
        page.keyboard.type("The table")
        page.keyboard.press("Enter")
        page.wait_for_function(SETTLED)
        page.locator("h1").first.click()  # the keys go to the page, not the select box
        # Copy the link at the knock and open it in a new page: the same move.
        press("Home", "Step 0/")
        press("k", "Ben knocks")
        shown = now(page)
        page.get_by_role("button", name="Copy link").click()
        expect(page.locator(".kroeg-copied")).to_have_text("Link copied")
        link = page.evaluate("navigator.clipboard.readText()")
        assert "game=seed003" in link and "hand=1" in link and "step=" in link
        other = context.new_page()
        other.goto(link)
        expect(other.locator(".kroeg-now")).to_have_text(shown)
        other.close()
        # A regrettable fold, from a link naming it: the mark and its numbers.
        game_id, hand, seq, cost = regret
        page.goto(f"{url}/replay?game={game_id}&hand={hand}&step={seq}")
        expect(page.locator(".kroeg-now")).to_contain_text("folds")
        # Judged first on what the folder could see (graded as chess moves are), then in
        # hindsight, with every card as it lay.
        graded = re.compile(r"kroeg-verdict (sound|inaccuracy|mistake|blunder)")
        expect(page.locator(".kroeg-verdict")).to_have_class(graded)
        expect(page.locator(".kroeg-verdict")).to_contain_text("Folded: cost")
        expect(page.locator(".kroeg-verdict")).to_contain_text(
            f"In hindsight: regrettable. The fold cost {cost}"
        )
        expect(page.locator(".kroeg-moves li.now .kroeg-mark")).to_have_text(
            re.compile(r"(● sound|\?! inaccuracy|\? mistake|\?\? blunder)")
        )
        page.wait_for_function(IN_VIEW)  # a link deep into the hand: the list scrolled there
        page.screenshot(path=str(shots / f"review-regret-{tag}.png"))
        # Every card shown: each player's expected result of the hand, step by step.
        page.goto(f"{url}/replay?game={game_id}&hand={hand}&step={seq}&view=all")
        expect(page.locator(".kroeg-now")).to_contain_text("folds")
        chart = page.locator('[data-testid="stVegaLiteChart"]')
        expect(chart).to_be_visible()
        expect(page.get_by_text("Expected result of the hand, step by step")).to_be_visible()
        chart.scroll_into_view_if_needed()
        page.wait_for_function(SETTLED)
        page.screenshot(path=str(shots / f"review-expected-{tag}.png"))
        no_sideways_scroll()
        # Troefcall with kap: the call and the kap marked, 13-card hands that fit.
        page.goto(f"{url}/replay?game={troef_id}&hand=1")
        expect(page.locator(".kroeg-now")).to_contain_text("Step 0/")
        expect(page.locator(".st-key-replay_call button").first).to_be_enabled()
        press("a", "calls trump")
        expect(page.locator(".kroeg-verdict")).to_contain_text("call was made good")
        no_sideways_scroll()
        page.screenshot(path=str(shots / f"review-troefcall-call-{tag}.png"))
        press("a", "kap!")
        expect(page.locator(".kroeg-moves li.now .kroeg-mark.kap")).to_have_text("● kap")
        expect(page.locator(".kroeg-trick")).to_contain_text("hand over")
        press("End", "Step ")
        expect(page.locator(".kroeg-result")).to_contain_text("Anna & Carla")
        page.screenshot(path=str(shots / f"review-troefcall-end-{tag}.png"))
        no_sideways_scroll()
        # Every card shown once all are dealt: each of the 52 with its rank and suit in
        # view (on a phone too, where a seat is a quarter of the screen wide).
        page.goto(f"{url}/replay?game={troef_id}&hand=1&view=all")
        expect(page.locator(".kroeg-now")).to_contain_text("Step 0/")
        press("a", "13 cards to Ben, Carla and Dan")
        expect(page.locator(".kroeg-seat .kroeg-card:not(.back)")).to_have_count(52)
        assert page.evaluate(CARDS_HIDDEN) == []
        no_sideways_scroll()
        page.screenshot(path=str(shots / f"review-troefcall-cards-{tag}.png"))
        browser.close()


#: The page's title, where nothing covers it (the game picker under it, say): its text's
#: middle and the foot of its last line, at a quarter, half and three quarters across.
TITLE_SHOWN = """() => {
  const title = document.querySelector('h1');
  const range = document.createRange();
  range.selectNodeContents(title.querySelector('span') || title);
  const r = range.getBoundingClientRect();
  return [0.25, 0.5, 0.75].every((f) => [r.top + r.height / 2, r.bottom - 3].every((y) => {
    const at = document.elementFromPoint(r.left + f * r.width, y);
    return at !== null && title.contains(at);
  }));
}"""


#: What must be on screen together, without scrolling: the step buttons, the whole
#: table, the current move and the moves either side of it. The boxes that are not (the
#: page's own scroll first), or an empty list.
OFF_SCREEN = """() => {
  const out = [];
  if (window.scrollY !== 0) out.push('page scrolled ' + window.scrollY);
  const h = window.innerHeight, w = window.innerWidth;
  const check = (what, el) => {
    if (!el) { out.push(what + ' missing'); return; }
    const r = el.getBoundingClientRect();
    if (r.top < 0 || r.bottom > h || r.left < 0 || r.right > w) {
      out.push(what + ' at ' + Math.round(r.top) + '-' + Math.round(r.bottom));
    }
  };
  document.querySelectorAll('.st-key-replay_controls button').forEach((b, i) => {
    if (b.offsetParent !== null) check('button ' + b.innerText, b);
  });
  check('table', document.querySelector('.kroeg-table'));
  const now = document.querySelector('.kroeg-moves li.now');
  check('current move', now);
  const all = [...document.querySelectorAll('.kroeg-moves li')];
  const at = all.indexOf(now);
  if (at > 0) check('move before', all[at - 1]);
  if (at >= 0 && at + 1 < all.length) check('move after', all[at + 1]);
  return out;
}"""

#: The visible step and autoplay buttons smaller than a 44 px touch target.
SMALL_TARGETS = """() => [...document.querySelectorAll(
    '.st-key-replay_controls button, .kroeg-share button')]
  .filter((b) => b.offsetParent !== null)
  .map((b) => [b.innerText, b.getBoundingClientRect()])
  .filter(([, r]) => r.width < 44 || r.height < 44)
  .map(([t, r]) => t + ' ' + Math.round(r.width) + 'x' + Math.round(r.height))"""

#: A finger swiped across the table, `dx` pixels sideways.
SWIPE = """(dx) => {
  const table = document.querySelector('.kroeg-table');
  const r = table.getBoundingClientRect();
  const x = r.left + r.width / 2, y = r.top + r.height / 2;
  const at = (px) => [new Touch({ identifier: 1, target: table, clientX: px, clientY: y })];
  table.dispatchEvent(new TouchEvent('touchstart', { bubbles: true, touches: at(x),
    changedTouches: at(x) }));
  table.dispatchEvent(new TouchEvent('touchend', { bubbles: true, touches: [],
    changedTouches: at(x + dx) }));
}"""


@pytest.mark.slow
@pytest.mark.parametrize("size", [(1440, 900), (390, 844)], ids=["desktop", "phone"])
def test_the_replay_fits_one_screen_and_moves_by_swipe_keys_and_autoplay(
    review_server, shots: Path, size
) -> None:
    """At 1440×900 and 390×844 the step buttons, the whole table and the current move
    with its neighbours are on screen together without scrolling, at the deal, at a
    knock (its verdict beside the table) and at the end; every button is a 44 px target;
    nothing covers the title; a swipe steps on a phone; Shift+K goes back to the knock;
    autoplay steps on by itself and stops when paused."""
    from playwright.sync_api import expect, sync_playwright

    expect.set_options(timeout=30_000)
    url, _ = review_server
    width, height = size
    tag = "desktop" if width > 640 else "phone"
    with sync_playwright() as p:
        browser, _ = open_page(p)
        context = browser.new_context(
            viewport={"width": width, "height": height}, has_touch=tag == "phone",
            locale=ENGLISH,
        )  # fmt: skip
        page = context.new_page()
        page.set_default_timeout(30_000)

        def step() -> int:
            return int(re.match(r"Step (\d+)/", now(page)).group(1))  # type: ignore[union-attr]

        page.goto(f"{url}/replay?game=seed003&hand=1")
        expect(page.locator(".kroeg-now")).to_contain_text("Step 0/")
        page.wait_for_function(SETTLED)
        assert page.evaluate(OFF_SCREEN) == []
        assert page.evaluate(SMALL_TARGETS) == []
        assert page.evaluate(TITLE_SHOWN)  # on a phone too, the game picker right under it
        page.locator(".st-key-replay_knock button:visible").first.click()  # the next knock
        expect(page.locator(".kroeg-now")).to_contain_text("Ben knocks")
        expect(page.locator(".kroeg-verdict")).to_contain_text("strength 0.13")
        page.wait_for_function(SETTLED)
        page.wait_for_timeout(700)  # the list's own late scrolls are done
        assert page.evaluate(OFF_SCREEN) == []
        knock = step()
        page.screenshot(path=str(shots / f"replay-one-screen-{tag}.png"))
        if tag == "phone":
            # A swipe to the left steps on, to the right back.
            page.evaluate(SWIPE, -120)
            expect(page.locator(".kroeg-now")).to_contain_text(f"Step {knock + 1}/")
            page.wait_for_function(SETTLED)
            page.evaluate(SWIPE, 120)
            expect(page.locator(".kroeg-now")).to_contain_text(f"Step {knock}/")
            page.wait_for_function(SETTLED)
            page.evaluate(SWIPE, 20)  # a touch that barely moves is not a swipe
            page.wait_for_timeout(500)
            assert step() == knock
        else:
            # Two steps on, then Shift+K: back to the knock (a step back would not be).
            for on in (1, 2):
                page.locator(".st-key-replay_next button").first.click()
                expect(page.locator(".kroeg-now")).to_contain_text(f"Step {knock + on}/")
                page.wait_for_function(SETTLED)
            page.locator("h1").first.click()  # the keys go to the page
            page.keyboard.press("Shift+K")
            expect(page.locator(".kroeg-now")).to_contain_text(f"Step {knock}/")
            # Typing in a picker is not a jump.
            page.get_by_role("combobox", name="View").focus()
            page.keyboard.press("Shift+K")
            page.wait_for_timeout(500)
            assert step() == knock
            page.keyboard.press("Escape")
            page.locator("h1").first.click()
        # Autoplay steps on by itself, and stands still once paused.
        page.get_by_role("button", name="▶ Play").click()
        expect(page.locator(".kroeg-now")).to_contain_text(f"Step {knock + 2}/")
        page.get_by_role("button", name="❚❚ Pause").click()
        page.wait_for_function(SETTLED)
        paused = step()
        page.wait_for_timeout(2500)
        assert step() == paused and paused >= knock + 2
        # The end: the result beside (on a phone, under) the table, the moves in view.
        page.locator("h1").first.click()
        page.keyboard.press("End")  # on a phone too, where its button gives way
        expect(page.locator(".kroeg-result")).to_contain_text("Result:")
        page.wait_for_function(SETTLED)
        page.wait_for_timeout(700)
        assert page.evaluate(OFF_SCREEN) == []
        browser.close()


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["toepen", "troefcall"])
@pytest.mark.parametrize("size", [(1440, 900), (390, 844)], ids=["desktop", "phone"])
def test_a_point_on_the_games_chart_opens_that_hand(server, shots: Path, size, kind) -> None:
    """A click (on a phone, a tap) on hand 2's point of the Games chart opens the replay
    of hand 2 of that game, at its start, in the same tab: a Toepen game's lives and a
    Troefcall game's points alike."""
    from playwright.sync_api import expect, sync_playwright

    expect.set_options(timeout=30_000)
    url, dataset = server
    width, _ = size
    phone = width <= 640
    tag = f"{kind}-{'phone' if phone else 'desktop'}"
    game = next(g for g in dataset.read_games() if g.game_type == kind)
    with sync_playwright() as p:
        browser, _ = open_page(p)
        page = sized_page(browser, size)
        page.goto(f"{url}/games?game={game.game_id}")
        expect(page.get_by_text("Click or tap a point to replay that hand.")).to_be_visible()
        point = page.locator('.vega-embed path[aria-label*="hand: 2;"]').first
        point.scroll_into_view_if_needed()
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        page.screenshot(path=str(shots / f"games-chart-{tag}.png"))
        for _ in range(6):  # a busy page may take the first click before it is wired
            point.tap() if phone else point.click()
            try:
                page.wait_for_url(re.compile(r"/replay\?"), timeout=5_000)
                break
            except Exception:
                continue
        expect(page.locator(".kroeg-now")).to_contain_text("Step 0/")
        assert f"game={game.game_id}" in page.url and "hand=2" in page.url
        assert len(page.context.pages) == 1  # in the same tab
        expect(page.get_by_role("combobox", name="Hand")).to_have_value("Hand 2")
        # Hand 2's own deal (hand 1's dealer is Dan in both games).
        dealer = "Anna deals; Ben cuts and calls trump" if kind == "troefcall" else "Carla deals"
        expect(page.locator(".kroeg-now")).to_contain_text(dealer)
        page.wait_for_function(SETTLED)
        page.screenshot(path=str(shots / f"games-point-opened-{tag}.png"))
        browser.close()


@pytest.mark.slow
@pytest.mark.parametrize("size", [(1440, 900), (390, 844)], ids=["desktop", "phone"])
def test_shift_goes_back_to_a_troefcall_call_and_trick(server, size) -> None:
    """In Troefcall, Shift+A goes back to the call before the step shown (the kap, then
    the trump call) and Shift+T to the trick before; with none before, nowhere."""
    from playwright.sync_api import expect, sync_playwright

    expect.set_options(timeout=30_000)
    url, dataset = server
    troef = next(g.game_id for g in dataset.read_games() if g.game_type == "troefcall")
    with sync_playwright() as p:
        browser, _ = open_page(p)
        page = sized_page(browser, size)

        def press(key: str, expected: str) -> None:
            page.wait_for_function(SETTLED)
            page.keyboard.press(key)
            expect(page.locator(".kroeg-now")).to_contain_text(expected)

        def stays(key: str) -> None:
            page.wait_for_function(SETTLED)
            shown = now(page)
            page.keyboard.press(key)
            page.wait_for_timeout(700)
            page.wait_for_function(SETTLED)
            assert now(page) == shown, key

        page.goto(f"{url}/replay?game={troef}&hand=1")
        expect(page.locator(".kroeg-now")).to_contain_text("Step 0/")
        page.wait_for_function("() => window.__kroegReplayNav !== undefined")
        page.locator("h1").first.click()  # the keys go to the page
        press("End", "Hand over")
        press("Shift+T", "Carla takes trick 7")
        press("End", "Hand over")
        press("Shift+A", "Carla: kap!")
        press("Shift+A", "Anna calls trump")
        stays("Shift+A")  # the hand's first call: none before it
        stays("Shift+T")  # no trick before the first card
        press("a", "Carla: kap!")  # and on again to the kap, then back a trick
        press("Shift+T", "Carla takes trick 7")
        press("Shift+T", "Anna takes trick 6")
        browser.close()


#: Each step the replay shows, with when it came (ms), from now on: `window.__steps`.
WATCH_STEPS = """() => {
  window.__steps = [];
  const look = () => {
    const m = (document.querySelector('.kroeg-now') || {}).innerText?.match(/Step (\\d+)\\//);
    const step = m ? Number(m[1]) : null;
    const last = window.__steps[window.__steps.length - 1];
    if (step === null || (last && last[0] === step)) return;
    window.__steps.push([step, performance.now()]);
  };
  new MutationObserver(look).observe(document.body, {childList: true, subtree: true,
                                                     characterData: true});
  look();
}"""


@pytest.mark.slow
def test_a_new_autoplay_speed_takes_effect_while_it_plays(server, shots: Path) -> None:
    """Autoplay, switched from normal to slow while it plays, plays on a step every two
    seconds; switched to fast, on at twice a second, to the hand's end, where it stops. (At
    390 px the speed gives way to the slider: a phone plays at the normal speed.)"""
    from playwright.sync_api import expect, sync_playwright

    expect.set_options(timeout=30_000)
    url, dataset = server
    toepen = next(g.game_id for g in dataset.read_games() if g.game_type == "toepen")
    with sync_playwright() as p:
        browser, _ = open_page(p)
        page = sized_page(browser, (1440, 900))

        def steps_after(count: int, since: int) -> list[float]:
            """The gaps between the steps shown after the `since`th, once `count` came."""
            page.wait_for_function(f"() => window.__steps.length >= {since + count + 1}",
                                   timeout=60_000)  # fmt: skip
            times = [t for _, t in page.evaluate("window.__steps")][since:]
            return [b - a for a, b in itertools.pairwise(times)]

        page.goto(f"{url}/replay?game={toepen}&hand=1")
        expect(page.locator(".kroeg-now")).to_contain_text("Step 0/")
        page.wait_for_function("() => window.__kroegReplayNav !== undefined")
        page.wait_for_function(SETTLED)
        page.evaluate(WATCH_STEPS)
        play = page.locator("button.kroeg-play")
        play.click()
        expect(play).to_have_text("❚❚ Pause")
        page.wait_for_function("() => window.__steps.length >= 3")  # at the normal speed
        page.locator("select.kroeg-speed").select_option(label="slow")
        changed = len(page.evaluate("window.__steps"))
        # Still playing, and slower: two seconds between steps (one at the normal speed).
        slow = steps_after(3, changed)
        expect(play).to_have_text("❚❚ Pause")
        assert all(gap > 1_600 for gap in slow), slow
        page.locator("select.kroeg-speed").select_option(label="fast")
        changed = len(page.evaluate("window.__steps"))
        fast = steps_after(4, changed)
        # Half a second a step (a busy page may miss a tick: a second); slow was two.
        assert sorted(fast)[len(fast) // 2] < 1_500, fast
        last = int(re.findall(r"Step \d+/(\d+)", now(page))[0])
        expect(page.locator(".kroeg-now")).to_contain_text(f"Step {last}/{last}:")
        expect(play).to_have_text("▶ Play")  # stopped at the end
        steps = [s for s, _ in page.evaluate("window.__steps")]
        assert steps == list(range(steps[0], last + 1))  # one step at a time, none skipped
        browser.close()


#: A browser without a clipboard, as on an address that is neither https nor localhost.
NO_CLIPBOARD = "Object.defineProperty(Navigator.prototype, 'clipboard', {get: () => undefined})"


@pytest.mark.slow
@pytest.mark.parametrize("size", [(1440, 900), (390, 844)], ids=["desktop", "phone"])
def test_a_link_copied_by_hand_opens_the_same_move(server, shots: Path, size) -> None:
    """Without a clipboard, Copy link shows the link to copy by hand, selected whole, on
    the screen (on a phone across its foot); opened in another browser at the same size,
    it shows the same hand, step and view, the same cards face up."""
    from playwright.sync_api import expect, sync_playwright

    expect.set_options(timeout=30_000)
    url, dataset = server
    width, height = size
    tag = "phone" if width <= 640 else "desktop"
    toepen = next(g.game_id for g in dataset.read_games() if g.game_type == "toepen")
    with sync_playwright() as p:
        browser, _ = open_page(p)
        page = sized_page(browser, size)
        page.add_init_script(NO_CLIPBOARD)
        page.goto(f"{url}/replay?game={toepen}&hand=2&view=2")  # as Ben saw it
        expect(page.locator(".kroeg-now")).to_contain_text("Step 0/")
        for step in (1, 2, 3):
            page.wait_for_function(SETTLED)
            button = page.locator(".st-key-replay_next button:visible")
            button.tap() if tag == "phone" else button.click()
            expect(page.locator(".kroeg-now")).to_contain_text(f"Step {step}/")
        page.wait_for_function(SETTLED)
        shown = now(page)
        faces = page.locator(".kroeg-card:not(.back)").all_inner_texts()
        page.locator("button.kroeg-copy").click()
        expect(page.locator(".kroeg-copied")).to_have_text("Copy this link:")
        field = page.locator("input.kroeg-link")
        expect(field).to_be_visible()
        box = field.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width, box
        assert box["y"] >= 0 and box["y"] + box["height"] <= height, box
        link = field.input_value()
        assert field.evaluate("f => [f.selectionStart, f.selectionEnd]") == [0, len(link)]
        assert f"game={toepen}" in link and "hand=2" in link and "view=2" in link
        assert "step=" in link
        page.screenshot(path=str(shots / f"link-by-hand-{tag}.png"))
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        # Someone else's browser, at the same size: the same move, as Ben saw it.
        other = sized_page(browser, size)
        other.goto(link)
        expect(other.locator(".kroeg-now")).to_have_text(shown)
        expect(other.get_by_role("combobox", name="Hand")).to_have_value("Hand 2")
        expect(other.get_by_role("combobox", name="View")).to_have_value("As Ben saw it")
        assert other.locator(".kroeg-card:not(.back)").all_inner_texts() == faces
        browser.close()


@pytest.fixture
def evening_server(tmp_path: Path, free_port: int, processes: list[subprocess.Popen[bytes]]):
    """Typed club evenings and bot games played after them, analysed (as `make demo`)."""
    bots = ("bluffer", "cautious", "sharp", "random")
    played = list(simulate(PRESETS["classic"], 4, 60, seed=11, styles=bots))
    yield from serve(
        tmp_path, free_port, processes, "classic-evening.txt", "laundry-and-checks.txt",
        "troefcall-evening.txt", records=played, analyse=True,
    )  # fmt: skip


@pytest.mark.slow
def test_the_club_evening_pages_in_a_real_browser(evening_server, shots: Path) -> None:
    """The dashboard opens on the latest club evening; its costliest fold is one click
    from its move; a bar on the Players page leads to the exact move; the Record page
    takes a hand with taps on a phone."""
    from playwright.sync_api import expect, sync_playwright

    from kroeg.analytics.views import connect

    expect.set_options(timeout=30_000)
    url, dataset = evening_server
    con = connect(dataset)
    day, games = con.sql(
        "SELECT started_at::DATE, list(game_id) FROM games WHERE source <> 'engine' "
        "GROUP BY 1 ORDER BY 1 DESC LIMIT 1"
    ).fetchall()[0]
    cost = con.sql(
        "SELECT max(cost) FROM folds WHERE game_id IN (SELECT unnest(?))", params=[games]
    ).fetchall()[0][0]
    with sync_playwright() as p:
        browser, page = open_page(p)
        page.set_viewport_size({"width": 1440, "height": 900})
        page.goto(url)
        title = page.locator("h1").first
        expect(title).to_contain_text(f"{day:%a} {day.day} {day:%b %Y}")  # not a bot session
        expect(page.get_by_text("Moments of the evening")).to_be_visible()
        expect(page.get_by_text("simulated games hidden")).to_be_visible()
        page.screenshot(path=str(shots / "evening.png"))
        # One click to the evening's costliest fold, in the same tab (once the page's link
        # listener is there, as it is by the time a person reads the page).
        page.wait_for_function(LINKS_READY)
        page.locator("li", has_text="Costliest fold").get_by_role("link").click()
        expect(page.locator(".kroeg-now")).to_contain_text("folds")
        expect(page.locator(".kroeg-verdict")).to_contain_text(f"The fold cost {cost}")
        assert "/replay?" in page.url and len(page.context.pages) == 1
        # A bar on the Players page, then the move behind it.
        page.goto(f"{url}/players")
        expect(page.get_by_text("What folding cost, in penalty points")).to_be_visible()
        chart = page.locator(".vega-embed").nth(2)  # cost per fold, in penalty points
        listed = page.get_by_text("'s folds")
        for _ in range(6):  # a busy page may take the first click before it is wired
            chart.locator('path[aria-label^="top: "]').first.click()  # a row's whole length
            try:
                listed.wait_for(timeout=5_000)
                break
            except Exception:
                continue
        expect(listed).to_be_visible()
        page.screenshot(path=str(shots / "players-chart-clicked.png"), full_page=True)
        page.wait_for_function(LINKS_READY)
        page.locator("a[href*='step=']").first.click()
        expect(page.locator(".kroeg-now")).to_contain_text("folds")
        # The Record page on a phone: a hand's start with taps only.
        page.set_viewport_size({"width": 390, "height": 844})
        page.goto(f"{url}/record")
        page.get_by_role("button", name="Start the game").click()
        expect(page.get_by_text("name the dealer")).to_be_visible()
        page.wait_for_function(SETTLED)
        page.get_by_role("button", name="Dan", exact=True).click()
        expect(page.get_by_text("cards for")).to_be_visible()
        page.wait_for_function(SETTLED)
        page.get_by_role("button", name="Skip").click()
        expect(page.locator("h3").first).to_contain_text("Anna leads")
        cards = page.locator(".st-key-record_grid button")
        page.wait_for_function(SETTLED)  # a person taps what the page shows now
        cards.first.click()  # Anna leads a card with one tap
        expect(page.locator("h3").first).to_contain_text("Ben plays")
        page.wait_for_function(SETTLED)
        page.get_by_role("button", name="Ben", exact=True).click()  # Ben knocks
        expect(page.get_by_role("button", name="Carla folds")).to_be_visible()
        page.wait_for_function(SETTLED)
        page.get_by_role("button", name="Carla folds").click()
        expect(page.locator("code")).to_contain_text("> Carla folds")
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        page.screenshot(path=str(shots / "record-phone.png"), full_page=True)
        browser.close()


@pytest.mark.slow
def test_the_newsletter_prints_on_a4(tmp_path: Path, shots: Path) -> None:
    """The bulletin's HTML in headless Chromium at A4 size and in print: nothing runs
    off the page sideways, and it prints to a PDF."""
    from playwright.sync_api import sync_playwright

    from kroeg.analytics.newsletter import build, page, write
    from kroeg.analytics.views import connect

    dataset = Dataset(tmp_path / "club")
    for log in sorted((ROOT / "sample_logs").glob("*.txt")):
        dataset.write(notation.load(log))
    enrich(dataset)
    for lang in ("en", "nl"):
        news = build(connect(dataset), dataset, "2026-11", lang)
        (html_path,) = [p for p in write(news, tmp_path / lang) if p.suffix == ".html"]
        assert html_path.read_text(encoding="utf-8") == page(news)
        with sync_playwright() as p:
            browser, view = open_page(p)
            view.set_viewport_size({"width": 794, "height": 1123})  # A4 at 96 dpi
            view.emulate_media(media="print")
            view.goto(html_path.as_uri())
            assert view.evaluate("document.documentElement.scrollWidth") <= 794
            view.screenshot(path=str(shots / f"newsletter-a4-{lang}.png"), full_page=True)
            pdf = view.pdf(format="A4", print_background=True)
            browser.close()
        assert pdf[:4] == b"%PDF" and len(pdf) > 10_000


#: The first line of the Record page's log: its text and where it is on the screen.
LOG_TOP_LINE = """() => {
  const pre = document.querySelector('.st-key-record_log pre');
  const text = document.createTreeWalker(pre, NodeFilter.SHOW_TEXT).nextNode();
  const range = document.createRange();
  range.setStart(text, 0);
  range.setEnd(text, 1);
  const r = range.getBoundingClientRect();
  return {line: pre.innerText.split('\\n')[0], top: r.top, bottom: r.bottom,
          wide: pre.scrollWidth, width: pre.clientWidth};
}"""

#: Scrolls Streamlit's main area (the part of the page that scrolls) back to its top.
TO_THE_TOP = "() => document.querySelector('[data-testid=\"stMain\"]').scrollTo(0, 0)"

#: Seed 003's deal, hand by hand in seat order (tests/recorder/test_seed_example.py).
SEED_DEAL = ["Jh", "Jc", "Td", "9s", "Qh", "Qc", "Jd", "8s", "Kh", "Kc", "7d", "As",
             "Ah", "7c", "8d", "Qd"]  # fmt: skip


@pytest.mark.slow
@pytest.mark.parametrize("size", [(1440, 900), (390, 844)], ids=["desktop", "phone"])
def test_the_record_page_at_the_table(server, shots: Path, size) -> None:
    """The Record page as a phone at the table uses it: the cards a line per suit, targets
    of 44 px at least, a deal in one tap a card; the log wraps (nothing scrolls sideways)
    and its newest line is on the screen after a tap."""
    from playwright.sync_api import expect, sync_playwright

    expect.set_options(timeout=30_000)
    url, _ = server
    width, height = size
    tag = "desktop" if width > 640 else "phone"
    with sync_playwright() as p:
        browser, page = open_page(p)
        page.set_viewport_size({"width": width, "height": height})
        page.goto(f"{url}/record")
        page.get_by_role("button", name="Start the game").click()
        expect(page.get_by_text("name the dealer")).to_be_visible()
        page.wait_for_function(SETTLED)
        page.get_by_role("button", name="Dan", exact=True).click()
        expect(page.locator("h3").first).to_contain_text("Anna, Ben, Carla, Dan (or skip)")
        page.wait_for_function(SETTLED)
        expect(page.get_by_role("button", name="Skip")).to_be_visible()  # the prompt's word
        cards = page.locator(".st-key-record_grid button")
        expect(cards).to_have_count(32)
        for suit, letter in (("CLUBS", "c"), ("DIAMONDS", "d"), ("HEARTS", "h"), ("SPADES", "s")):
            line = page.locator(f".st-key-record_suit_{suit} [class*='st-key-record_card_']")
            expect(line).to_have_count(8)  # one suit to a line: its eight cards, no other
            keys = line.evaluate_all("els => els.map(e => e.className)")
            assert all(re.search(f"record_card_deal_\\d+_.{letter}\\b", k) for k in keys)
        for box in (cards.nth(i).bounding_box() for i in range(32)):
            assert box is not None and box["width"] >= 44 and box["height"] >= 44, box
        for taps, code in enumerate(SEED_DEAL, start=1):
            page.wait_for_function(SETTLED)
            page.locator(f"[class*='st-key-record_card_deal_'][class*='_{code} '] button").click()
            if taps == 6:
                page.wait_for_function(SETTLED)
                expect(page.locator(".st-key-record_seat_1 button")).to_contain_text("Ben 2/4")
                page.evaluate(TO_THE_TOP)  # the deal's screen as it opened, two taps into Ben
                page.screenshot(path=str(shots / f"record-deal-{tag}.png"))
        expect(page.locator("h3").first).to_contain_text("hand 1, trick 1: Anna leads")
        # Play on with taps: the first trick, Ben's knock, Carla's fold.
        for code in ("Jh", "Qh", "Kh", "Ah"):
            page.wait_for_function(SETTLED)
            page.locator(f"[class*='st-key-record_card_'][class*='_{code} '] button").click()
        expect(page.locator("h3").first).to_contain_text("trick 2: Dan leads")
        page.wait_for_function(SETTLED)
        page.get_by_role("button", name="Ben", exact=True).click()  # Ben knocks
        page.wait_for_function(SETTLED)
        page.get_by_role("button", name="Carla folds").click()
        expect(page.get_by_role("button", name="Dan stays")).to_be_visible()
        page.wait_for_function(SETTLED)
        top = page.evaluate(LOG_TOP_LINE)
        assert top["line"] == "> Carla folds"  # the newest move heads the log
        assert top["top"] >= 0 and top["bottom"] <= height, top  # on the screen, no scroll
        assert top["wide"] <= top["width"], top  # the log wraps: nothing cut off on the right
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        page.screenshot(path=str(shots / f"record-play-{tag}.png"))
        browser.close()


@pytest.mark.slow
def test_a_sidebar_filter_holds_on_every_page(server, shots: Path) -> None:
    """A rule set chosen on the Evenings page still filters Games and Replay after a click
    in the page list (Streamlit remounts the sidebar's widgets at a page switch; they
    keep their values for the session), and the dates keep their whole range."""
    from playwright.sync_api import expect, sync_playwright

    expect.set_options(timeout=30_000)
    url, dataset = server
    (troef,) = [g.game_id for g in dataset.read_games() if g.game_type == "troefcall"]
    with sync_playwright() as p:
        browser, page = open_page(p)
        page.goto(url)
        sidebar = page.locator('[data-testid="stSidebar"]')
        rule_sets = sidebar.locator('[data-testid="stMultiSelect"]').filter(has_text="Rule sets")
        rule_sets.click()
        page.locator('[role="option"]').filter(has_text="troefcall").first.click()
        page.keyboard.press("Escape")
        expect(page.get_by_text("Filtered: rule sets troefcall")).to_be_visible()
        for name in ("Games", "Replay"):
            page.wait_for_function(SETTLED)
            sidebar.locator('[data-testid="stSidebarNav"] a').filter(has_text=name).click()
            expect(page.locator("h1").first).to_have_text(name)
            expect(page.get_by_text("Filtered: rule sets troefcall")).to_be_visible()
            game = page.locator('[data-testid="stMain"] [data-testid="stSelectbox"]').first
            expect(game.get_by_role("combobox")).to_be_visible()
            page.wait_for_function(SETTLED)
            game.click()  # the games it offers: the filtered one only
            expect(page.locator('[role="option"]')).to_have_count(1)
            option = page.locator('[role="option"]')  # by its name, never its id
            expect(option).to_have_text(
                "20 Nov, 21:00 — Anna & Carla v Ben & Dan · troefcall + target-15"
            )
            expect(option).not_to_contain_text(troef)
            page.keyboard.press("Escape")
        dates = sidebar.locator('[data-testid="stDateInput"] input[type="date"]')
        expect(dates.first).to_have_value("2026-10-23")
        expect(dates.nth(1)).to_have_value("2026-11-20")
        page.screenshot(path=str(shots / "filter-held.png"))
        browser.close()


@pytest.mark.slow
def test_every_pages_own_address_opens_it(server) -> None:
    """Typed in the address bar, each page's address (and the old ones kept from before)
    opens that page, never "Page not found"; a link's parameters come along."""
    from playwright.sync_api import expect, sync_playwright

    expect.set_options(timeout=30_000)
    url, _ = server
    evenings = ("heading", "In numbers")
    expected = {
        "": evenings, "evenings": evenings, "overview": evenings, "games": ("h1", "Games"),
        "sessions": ("h1", "Games"), "replay": ("h1", "Replay"), "players": ("h1", "Players"),
        "record": ("h1", "Record"), "season": ("h1", "Season"),
    }  # fmt: skip
    with sync_playwright() as p:
        browser, page = open_page(p)
        for path, (kind, text) in expected.items():
            page.goto(f"{url}/{path}")
            if kind == "heading":
                expect(page.get_by_role("heading", name=text).first).to_be_visible()
            else:
                expect(page.locator("h1").first).to_have_text(text)
            page.wait_for_function(SETTLED)
            assert page.get_by_text("Page not found").count() == 0, path
        page.goto(f"{url}/evenings?evening=nothing-like-this")
        expect(page.get_by_role("heading", name="In numbers").first).to_be_visible()
        page.wait_for_function(SETTLED)
        assert page.get_by_text("Page not found").count() == 0
        browser.close()


#: A phone's browser, as it names itself (Streamlit closes the sidebar after a page is
#: chosen on a mobile browser only).
PHONE_AGENT = (
    "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) "
    "Chrome/120.0.0.0 Mobile Safari/537.36"
)


def sized_page(browser: Any, size: tuple[int, int], **options: Any) -> Any:
    """A page of its own context at `size`: at phone size (640 px or less) a phone's
    browser, with a touch screen."""
    width, height = size
    if width <= 640:
        options.update(has_touch=True, is_mobile=True, user_agent=PHONE_AGENT)
    options.setdefault("locale", ENGLISH)
    context = browser.new_context(viewport={"width": width, "height": height}, **options)
    page = context.new_page()
    page.set_default_timeout(30_000)  # the suite runs on every core: pages may be slow
    return page


def open_picker(page: Any, picker: Any) -> Any:
    """A select box's options, open (a page still busy may close a list as it opens: it
    is opened again, as a person would)."""
    options = page.locator('[role="option"]')
    for _ in range(5):
        page.wait_for_function(SETTLED)
        picker.click()
        try:
            options.first.wait_for(timeout=5_000)
            break
        except Exception:
            page.keyboard.press("Escape")
    return options


def choose(page: Any, picker: Any, has_text: Any) -> None:
    """Open a select box and click its option with `has_text`: a page still busy may
    close the list between its opening and the click (seen once under load, the option
    waited for 30 s): it is opened again, as a person would."""
    for attempt in range(5):
        option = open_picker(page, picker).filter(has_text=has_text).first
        try:
            option.click(timeout=5_000)
            return
        except Exception:
            if attempt == 4:
                raise
            page.keyboard.press("Escape")


def open_in_sidebar(page: Any, name: str) -> None:
    """A click on a page's name in the sidebar's list (on a phone, opened first, as its
    collapsed sidebar must be)."""
    from playwright.sync_api import expect

    nav = page.locator('[data-testid="stSidebarNav"] a').filter(has_text=name)
    expand = page.locator('[data-testid="stExpandSidebarButton"]')
    collapsed = expand.is_visible()
    if collapsed:
        expand.click()
    expect(nav).to_be_in_viewport()
    nav.click()
    if collapsed:  # a phone's sidebar closes again, off the page chosen
        expect(nav).not_to_be_in_viewport()


@pytest.mark.slow
@pytest.mark.parametrize("size", [(1440, 900), (390, 844)], ids=["desktop", "phone"])
def test_back_returns_to_the_page_before_the_replay(server, shots: Path, size) -> None:
    """Steps replace the address instead of adding to the history, and so does the replay
    filling in the game and hand it opened without: Back from a replayed hand returns to
    the page it came from. A change of hand is one entry, and so is a change of game: Back
    returns to the last hand, then the last game, each at the step it was left at. On a
    phone the steps are taps on the step button and the game is changed in its picker; on
    a computer, keys."""
    from playwright.sync_api import expect, sync_playwright

    expect.set_options(timeout=30_000)
    url, _ = server
    phone = size[0] <= 640
    tag = "phone" if phone else "desktop"
    with sync_playwright() as p:
        browser, _ = open_page(p)
        page = sized_page(browser, size)

        def step_on(expected: int) -> None:
            page.wait_for_function(SETTLED)
            if phone:
                page.locator(".st-key-replay_next button:visible").tap()
            else:
                page.keyboard.press("ArrowRight")
            expect(page.locator(".kroeg-now")).to_contain_text(f"Step {expected}/")

        page.goto(url)
        expect(page.get_by_role("heading", name="In numbers").first).to_be_visible()
        page.wait_for_function(LINKS_READY)
        page.wait_for_function(SETTLED)
        before = page.evaluate("history.length")
        open_in_sidebar(page, "Replay")
        expect(page.locator(".kroeg-now")).to_contain_text("Step 0/")
        first_game = page.get_by_role("combobox", name="Game").input_value()
        page.locator("h1").first.click()  # the keys go to the page, not the sidebar's link
        for step in range(1, 6):
            step_on(step)
        page.wait_for_function(SETTLED)
        assert "step=" in page.url and "hand=1" in page.url
        assert page.evaluate("history.length") == before + 1  # the Replay page: one entry
        page.go_back()
        expect(page.get_by_role("heading", name="In numbers").first).to_be_visible()
        assert "/replay" not in page.url

        page.go_forward()  # the replayed hand again, at its step; hand 2 is one entry more
        expect(page.locator(".kroeg-now")).to_contain_text("Step 5/")
        page.wait_for_function(SETTLED)
        hand = page.locator('[data-testid="stMain"] [data-testid="stSelectbox"]').nth(1)
        choose(page, hand, "2")
        expect(page.locator(".kroeg-now")).to_contain_text("Step 0/")
        page.wait_for_function(SETTLED)
        assert "hand=2" in page.url
        page.locator("h1").first.click()
        step_on(1)
        page.wait_for_function(SETTLED)
        assert page.evaluate("history.length") == before + 2
        # Another view is the page's setting, not a place: no entry of its own.
        view = page.locator('[data-testid="stMain"] [data-testid="stSelectbox"]').nth(2)
        choose(page, view, "All cards")
        page.wait_for_function(SETTLED)
        assert "view=all" in page.url and page.evaluate("history.length") == before + 2
        choose(page, view, "The table")
        page.wait_for_function(SETTLED)
        assert "view=table" in page.url and page.evaluate("history.length") == before + 2
        page.locator("h1").first.click()  # the keys to the page again, not the picker
        page.screenshot(path=str(shots / f"history-hand-2-{tag}.png"))
        # Another game (the one played before): one entry more, its steps none.
        game_url = page.url
        if phone:
            choose(page, page.get_by_role("combobox", name="Game"), "23 Oct")
        else:
            page.keyboard.press("Shift+P")
        expect(page.get_by_role("combobox", name="Game")).not_to_have_value(first_game)
        expect(page.locator(".kroeg-now")).to_contain_text("Step 0/")
        if not phone:  # Shift+P opens the game at its first hand (the picker keeps it)
            expect(page.get_by_role("combobox", name="Hand")).to_have_value("Hand 1")
        page.wait_for_function(SETTLED)
        assert page.url.split("game=")[1][:16] != game_url.split("game=")[1][:16]
        page.locator("h1").first.click()
        step_on(1)
        step_on(2)
        page.wait_for_function(SETTLED)
        assert page.evaluate("history.length") == before + 3
        page.screenshot(path=str(shots / f"history-other-game-{tag}.png"))
        # Back: the game before, at the hand and step it was left at; then its hand 1.
        page.go_back()
        page.wait_for_function(SETTLED)
        expect(page.get_by_role("combobox", name="Game")).to_have_value(first_game)
        expect(page.get_by_role("combobox", name="Hand")).to_have_value("Hand 2")
        expect(page.locator(".kroeg-now")).to_contain_text("Step 1/")
        assert page.url == game_url
        page.go_back()
        page.wait_for_function(SETTLED)
        assert "hand=1" in page.url
        expect(page.get_by_role("combobox", name="Hand")).to_have_value("Hand 1")
        expect(page.locator(".kroeg-now")).to_contain_text("Step 5/")  # where it was left
        page.go_back()  # and the page it all started from
        expect(page.get_by_role("heading", name="In numbers").first).to_be_visible()
        assert "/replay" not in page.url
        browser.close()


@pytest.fixture
def night_server(tmp_path: Path, free_port: int, processes: list[subprocess.Popen[bytes]]):
    """tests/dashboard/test_names.py's night: three copies of the laundry night on 23 Oct
    (two at 20:00) and a fourth without a start time, analysed: the games differ by their
    ids and order only."""
    (game,) = notation.load(ROOT / "sample_logs" / "laundry-and-checks.txt")
    copies = [
        dataclasses.replace(game, game_id=i, started_at=datetime.fromisoformat(f"2026-10-23 {t}"))
        for i, t in EVENING.items()
    ]
    undated = dataclasses.replace(game, game_id=UNDATED, started_at=None)
    yield from serve(tmp_path, free_port, processes, records=[*copies, undated], analyse=True)


#: The main area's text, as a person reads it (the links' addresses are not on screen).
MAIN_TEXT = "() => document.querySelector('[data-testid=\"stMain\"]').innerText"

#: The night's games by name, newest first (as the game pickers list them).
NIGHT = [
    "23 Oct, game 3, 21:30 — Anna, Ben, Carla, Dan",
    "23 Oct, game 2, 20:00 — Anna, Ben, Carla, Dan",
    "23 Oct, game 1, 20:00 — Anna, Ben, Carla, Dan",
    "Undated — Anna, Ben, Carla, Dan",
]


@pytest.mark.slow
@pytest.mark.parametrize("size", [(1440, 900), (390, 844)], ids=["desktop", "phone"])
def test_games_are_named_as_people_name_them(night_server, shots: Path, size) -> None:
    """On a phone as on a computer, three games of one evening, two at one time, and an
    undated one are told apart by their evening, order and time, never by an id: the
    Evenings page's games and moments, the Replay and Games pages' game pickers and the
    Players page's hands behind a number (`docs/REVIEWING.md`, tests/dashboard/test_names.py
    for the same in AppTest)."""
    from playwright.sync_api import expect, sync_playwright

    expect.set_options(timeout=30_000)
    url, _ = night_server
    width, _ = size
    tag = "phone" if width <= 640 else "desktop"
    rules = " · classic + dirty-laundry + face-up"
    with sync_playwright() as p:
        browser, _ = open_page(p)
        page = sized_page(browser, size)

        def no_game_id() -> None:
            text = page.evaluate(MAIN_TEXT)
            assert GAME_ID.findall(text) == [], text
            assert page.evaluate("document.documentElement.scrollWidth") <= width

        # The evening: its games by their order, its moments by game and hand.
        page.goto(url)
        expect(page.get_by_text("Moments of the evening")).to_be_visible()
        page.wait_for_function(SETTLED)
        headings = page.locator('[data-testid="stMain"] h3').filter(has_text=re.compile("^Game"))
        expect(headings).to_have_text([f"Game {n}" + rules for n in (
            "1, 20:00 — Anna, Ben, Carla, Dan", "2, 20:00 — Anna, Ben, Carla, Dan",
            "3, 21:30 — Anna, Ben, Carla, Dan")])  # fmt: skip
        fold = page.locator("li", has_text="Costliest fold").get_by_role("link")
        expect(fold).to_have_text("Carla, game 1, hand 2")  # of three games: which one
        assert "game=g1000000000000a1" in str(fold.get_attribute("href"))
        no_game_id()
        fold.scroll_into_view_if_needed()
        page.screenshot(path=str(shots / f"names-evening-{tag}.png"))
        # The pickers: the games by name, newest first; the id in the address only.
        for path, heading in (("replay", "Replay"), ("games", "Games")):
            page.goto(f"{url}/{path}")
            expect(page.locator("h1").first).to_have_text(heading)
            page.wait_for_function(SETTLED)
            picker = page.get_by_role("combobox", name="Game")
            expect(picker).to_have_value(NIGHT[0] + rules)
            no_game_id()
            expect(open_picker(page, picker)).to_have_text([n + rules for n in NIGHT])
            page.screenshot(path=str(shots / f"names-{path}-picker-{tag}.png"))
            page.keyboard.press("Escape")
        # The Players page: Ben's hands behind his numbers, each by its game's name.
        page.goto(f"{url}/players")
        expect(page.get_by_text("The numbers, with done / opportunities")).to_be_visible()
        page.wait_for_function(SETTLED)
        who = page.get_by_role("combobox", name="Hands behind the numbers of")
        choose(page, who, re.compile("^Ben$"))
        expect(page.get_by_text("Ben's", exact=False).first).to_be_visible()
        links = page.locator('[data-testid="stMain"] a[href*="replay?game="]')
        expect(links).to_have_text(
            [n + " · hand 2" for n in (NIGHT[2], NIGHT[1], NIGHT[0], NIGHT[3])]
        )
        no_game_id()
        links.first.scroll_into_view_if_needed()
        page.screenshot(path=str(shots / f"names-players-{tag}.png"))
        browser.close()


@pytest.mark.slow
def test_the_token_leaves_the_browsers_address_bar(
    tmp_path: Path, free_port: int, processes: list[subprocess.Popen[bytes]]
) -> None:
    """The same as the AppTest, in a real browser: Streamlit rewrites the address."""
    from playwright.sync_api import sync_playwright

    dataset = Dataset(tmp_path / "ds")
    dataset.write(notation.load(ROOT / "sample_logs" / "laundry-and-checks.txt"))
    command = [sys.executable, "-m", "kroeg.cli", "dashboard", str(dataset.path),
               "--port", str(free_port), "--token", "a-long-secret-1"]  # fmt: skip
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    processes.append(process)
    url = f"http://127.0.0.1:{free_port}"
    for _ in range(600):
        try:
            with urllib.request.urlopen(url, timeout=1):
                break
        except OSError:
            time.sleep(0.1)
    with sync_playwright() as p:
        browser, page = open_page(p)
        page.goto(f"{url}/?token=a-long-secret-1")
        page.get_by_role("heading", name="In numbers").first.wait_for()
        page.wait_for_function("() => !location.search.includes('token')")
        assert "token" not in page.url and "a-long-secret-1" not in page.url
        page.evaluate("history.back()")  # nor one step back in the history
        page.wait_for_timeout(1000)
        assert "a-long-secret-1" not in page.url
        browser.close()


#: The page's width is the screen's: nothing makes it scroll sideways.
FITS = "() => document.scrollingElement.scrollWidth <= window.innerWidth + 1"


@pytest.mark.slow
@pytest.mark.parametrize("size", [(1440, 900), (390, 844)], ids=["desktop", "phone"])
def test_the_dashboard_in_the_club_s_language(server, shots: Path, size) -> None:
    """A club file that names Dutch: an English browser opens the dashboard in Dutch,
    every page's name, the filters and the replay's steps; nothing scrolls sideways in the
    longer words. The sidebar's choice (French) then holds on the next page. Without a
    club language a French browser gets French."""
    from playwright.sync_api import expect, sync_playwright

    from kroeg.analytics.words import words

    expect.set_options(timeout=30_000)
    url, dataset = server
    (dataset.path / "club.toml").write_text('language = "nl"\n', encoding="utf-8")
    nl, fr = words("nl"), words("fr")
    tag = "desktop" if size[0] > 640 else "phone"
    toepen = next(g.game_id for g in dataset.read_games() if g.game_type == "toepen")
    with sync_playwright() as p:
        browser, _ = open_page(p)
        page = sized_page(browser, size)  # an English browser: the club's word first
        page.goto(url)
        expect(page.locator("h1").first).to_be_visible(timeout=30_000)
        page.wait_for_function(SETTLED)
        nav = page.locator('[data-testid="stSidebarNav"] a')
        for key, english in (("page_evenings", "Evenings"), ("page_games", "Games"),
                             ("page_replay", "Replay"), ("page_players", "Players")):  # fmt: skip
            expect(nav.filter(has_text=nl.say(key, english))).to_have_count(1)
        assert page.evaluate(FITS)
        page.screenshot(path=str(shots / f"nl-evenings-{tag}.png"), full_page=True)
        page.goto(f"{url}/replay?game={toepen}&hand=2")
        expect(page.locator("h1").first).to_have_text(nl.say("replay_title", "Replay"))
        page.wait_for_function(SETTLED)
        page.locator(".st-key-replay_knock button:visible").first.click()
        knock = nl.say(
            "step_knock", "{player} knocks: the stake is now {stake}", player="Ben", stake=2
        )
        expect(page.locator(".kroeg-now")).to_contain_text(knock)
        assert page.evaluate(FITS)
        page.screenshot(path=str(shots / f"nl-replay-{tag}.png"), full_page=True)
        page.goto(f"{url}/players")
        expect(page.locator("h1").first).to_have_text(nl.say("players_title", "Players"))
        page.wait_for_function(SETTLED)
        assert page.evaluate(FITS)
        page.screenshot(path=str(shots / f"nl-players-{tag}.png"), full_page=True)
        # The visitor picks French in the sidebar: it holds on the next page.
        expand = page.locator('[data-testid="stExpandSidebarButton"]')
        if expand.is_visible():
            expand.click()
        picker = page.locator('[data-testid="stSidebar"] [data-testid="stSelectbox"]').first
        choose(page, picker, "Français")
        page.wait_for_function(SETTLED)
        expect(nav.filter(has_text=fr.say("page_games", "Games"))).to_have_count(1)
        open_in_sidebar(page, fr.say("page_games", "Games"))
        expect(page.locator("h1").first).to_have_text(fr.say("page_games", "Games"))
        # A French browser, and a club file that names no language: French.
        (dataset.path / "club.toml").unlink()
        french = sized_page(browser, size, locale="fr-FR")
        french.goto(url)
        replay = fr.say("page_replay", "Replay")
        french_nav = french.locator('[data-testid="stSidebarNav"] a')
        expect(french_nav.filter(has_text=replay)).to_have_count(1)
        browser.close()
