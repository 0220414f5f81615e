"""The sample month's bulletin (the sample logs' November) in every language, read as its
editor would: no English sentence left in, numbers as the language writes them, no
backslash before ordinary punctuation, the page marked with its language."""

from __future__ import annotations

import re
import string
from datetime import date
from pathlib import Path

import pytest
from babel import Locale
from typer.testing import CliRunner

from kroeg.analytics.words import ENGLISH, LANGUAGES, words
from kroeg.cli import app
from kroeg.parsers import notation
from kroeg.recorder.store import Dataset

SAMPLES = Path(__file__).resolve().parents[2] / "sample_logs"
#: A piece of an English template this long (between its `{names}`) is a sentence's part,
#: not a word a language shares with English ("Troefcall", "kap", "baunie", "bluf").
PIECE = 14


@pytest.fixture(scope="module")
def november(tmp_path_factory: pytest.TempPathFactory) -> Path:
    dataset = Dataset(tmp_path_factory.mktemp("languages") / "club")
    for log in sorted(SAMPLES.glob("*.txt")):
        dataset.write(notation.load(log))
    return dataset.path


def _bulletin(dataset: Path, lang: str, out: Path) -> tuple[str, str]:
    result = CliRunner().invoke(
        app, ["newsletter", str(dataset), "--month", "2026-11", "--out", str(out), "--lang", lang]
    )
    assert result.exit_code == 0, result.output
    read = (out / "newsletter-2026-11.md").read_text(encoding="utf-8")
    return read, (out / "newsletter-2026-11.html").read_text(encoding="utf-8")


def _pieces(template: str) -> list[str]:
    return [
        text.strip(" .,;:()—-")
        for text, _, _, _ in string.Formatter().parse(template)
        if len(text.strip(" .,;:()—-")) >= PIECE
    ]


def _english_left(text: str, lang: str) -> list[str]:
    """The English pieces of the messages this language translates that are in `text`."""
    w = words(lang)
    found = []
    for key, english in ENGLISH.items():
        if w.text(key) == english:
            continue  # the same in both languages (a title such as "{games} in {month}")
        found += [piece for piece in _pieces(english) if piece in text]
    return found


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_sample_month_reads_in_its_language(november: Path, lang: str, tmp_path: Path) -> None:
    markdown, page = _bulletin(november, lang, tmp_path)
    # Plain Markdown: a backslash only where a name would start markup.
    assert not re.search(r"\\[,.:;%/()!?'\"-]", markdown), re.findall(
        r".{20}\\[,.:;%].{5}", markdown
    )
    shown = re.sub(r"\\(.)", r"\1", markdown)  # what a renderer shows
    body = re.sub(r"<[^>]+>", " ", page.split("<body", 1)[1])
    if lang != "en":
        assert not _english_left(shown, lang)
        assert not _english_left(body, lang)
    # Numbers as the language writes them: its decimal sign between digits, never the
    # other one (an address in a hostile venue's name, 127.0.0.2, aside).
    symbols = Locale.parse(lang).number_symbols["latn"]
    other = "," if symbols["decimal"] == "." else "."
    decimal = rf"(?<![\d.,])\d+{re.escape(symbols['decimal'])}\d\d(?![\d.,])"
    wrong = rf"(?<![\d.,])\d+{re.escape(other)}\d\d(?![\d.,])"
    # The figures of the tables and lines: `0,83 strafpunten`, `1,00 3/3*`.
    assert re.search(decimal, shown), lang
    assert not re.findall(wrong, shown), (lang, re.findall(rf".{{15}}{wrong}.{{5}}", shown))
    assert f'<html lang="{lang}">' in page
    assert words(lang).month(date(2026, 11, 1)) in shown


def test_a_translated_message_left_in_english_is_caught(november: Path, tmp_path: Path) -> None:
    """The check above finds an English sentence where a translation should be: here the
    English bulletin read as if it were Dutch."""
    markdown, _ = _bulletin(november, "en", tmp_path)
    assert "the club met on" in markdown
    assert "the club met on" in " ".join(_english_left(markdown, "nl"))
