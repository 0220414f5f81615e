"""The bulletin's HTML page in Chromium, in every language: on a screen, on a phone, and
printed on A4, nothing sticks out of the page, and the print is a PDF of a few pages.

Uses Debian's chromium through Playwright, as the dashboard's browser tests do. With
KROEG_SHOTS set, each language's page is saved there as a screenshot and a PDF.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kroeg.analytics.words import LANGUAGES
from kroeg.cli import app
from kroeg.parsers import notation
from kroeg.recorder.store import Dataset
from tests.e2e.test_dashboard_browser import CHROMIUM, open_page

pytestmark = pytest.mark.skipif(
    not Path(CHROMIUM).exists(), reason="Debian's chromium is not installed (.ci/run installs it)"
)
SAMPLES = Path(__file__).resolve().parents[2] / "sample_logs"
#: A4 at the CSS's 96 pixels to the inch: 210 mm wide.
A4_WIDTH = 794
#: Anything wider than its page by more than this is cut off or scrolls.
SLACK = 1
#: What sticks out: every element whose right edge passes the page's own width; on a
#: screen, a table may scroll sideways inside its own box (`.wide`), never the page.
WIDER = """(boxed) => {
  const width = document.documentElement.clientWidth;
  return [...document.body.querySelectorAll('*')]
    .filter(e => !(boxed && e.parentElement.closest('.wide')))
    .filter(e => e.getBoundingClientRect().right > width + SLACK)
    .map(e => e.tagName + ': ' + (e.textContent || '').slice(0, 40));
}""".replace("SLACK", str(SLACK))


@pytest.fixture(scope="module")
def bulletins(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The sample logs' November, written in every language."""
    root = tmp_path_factory.mktemp("bulletins")
    dataset = Dataset(root / "club")
    for log in sorted(SAMPLES.glob("*.txt")):
        dataset.write(notation.load(log))
    pages = {}
    for lang in LANGUAGES:
        out = root / lang
        done = CliRunner().invoke(
            app, ["newsletter", str(dataset.path), "--month", "2026-11", "--out", str(out),
                  "--lang", lang],
        )  # fmt: skip
        assert done.exit_code == 0, done.output
        pages[lang] = out / "newsletter-2026-11.html"
    return pages


@pytest.mark.slow
def test_the_bulletin_fits_a_screen_a_phone_and_an_a4_page(
    bulletins: dict[str, Path], tmp_path: Path
) -> None:
    from playwright.sync_api import sync_playwright

    shots = Path(os.environ.get("KROEG_SHOTS") or tmp_path)
    shots.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as p:
        browser, page = open_page(p)
        try:
            for lang, html in bulletins.items():
                page.goto(html.as_uri())
                assert page.locator("html").get_attribute("lang") == lang
                for width, height in ((1400, 1000), (390, 844), (A4_WIDTH, 1123)):
                    page.set_viewport_size({"width": width, "height": height})
                    assert page.evaluate(WIDER, True) == [], (lang, width)
                page.emulate_media(media="print")
                page.set_viewport_size({"width": A4_WIDTH, "height": 1123})
                assert page.evaluate(WIDER, False) == [], (lang, "print")
                pdf = page.pdf(format="A4", print_background=True)
                pages = len(re.findall(rb"/Type\s*/Page[^s]", pdf))
                assert pdf.startswith(b"%PDF") and 1 <= pages <= 12, (lang, pages)
                page.emulate_media(media="screen")
                if os.environ.get("KROEG_SHOTS"):
                    page.set_viewport_size({"width": 900, "height": 1000})
                    page.screenshot(path=str(shots / f"bulletin-{lang}.png"), full_page=False)
                    (shots / f"bulletin-{lang}.pdf").write_bytes(pdf)
        finally:
            browser.close()
