"""The dashboard in every language, under Streamlit's AppTest: each page on the sample
logs, in each language the catalogues hold, shows no English message its language
translates (every label, help text and sentence comes from the catalogue), and the
language a visitor sees first is the club file's, else the browser's, else English."""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from babel.messages.pofile import read_po
from streamlit.testing.v1 import AppTest

from kroeg.analytics.demo import DEMO_CLUB
from kroeg.analytics.words import LANGUAGES, LOCALE_DIR, catalogue, words
from kroeg.dashboard import serve
from kroeg.dashboard.words import LANGUAGE_KEY, browser_language, default_language
from kroeg.parsers import notation
from kroeg.recorder.store import Dataset

SAMPLES = Path(__file__).resolve().parents[2] / "sample_logs"
PAGES = ("overview", "games", "replay", "players", "season", "record")
TRANSLATED = [lang for lang in LANGUAGES if lang != "en"]


@pytest.fixture(scope="module")
def sample_club(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The sample logs (Toepen of every rule set, Troefcall), with the demo's club file."""
    path = tmp_path_factory.mktemp("club") / "ds"
    games = [g for log in sorted(SAMPLES.glob("*.txt")) for g in notation.load(log)]
    Dataset(path).write(games)
    (path / "club.toml").write_text(DEMO_CLUB, encoding="utf-8")
    return path


def _texts(node: Any) -> Iterator[str]:
    """Every string a page shows: labels, values, help texts, options, table headings."""
    for attr in ("label", "value", "body", "help", "placeholder", "options"):
        if attr == "value" and getattr(node, "options", None) is not None:
            continue  # a choice's value is its option's code; `options` are its words
        try:
            value = getattr(node, attr, None)
        except Exception:  # an element without that field raises its own way
            continue
        if isinstance(value, str):
            yield value
        elif isinstance(value, (list, tuple)):
            yield from (v for v in value if isinstance(v, str))
        elif isinstance(getattr(value, "columns", None), (list, tuple)) or hasattr(
            getattr(value, "columns", None), "__iter__"
        ):  # a table: its headings
            yield from (str(c) for c in value.columns)
    for child in getattr(node, "children", {}).values():
        yield from _texts(child)


def shown(at: AppTest) -> list[str]:
    """The page's strings, one line each, as the visitor reads them (Markdown unescaped)."""
    lines = []
    for block in (at.main, at.sidebar):
        for text in _texts(block):
            plain = re.sub(r"\\([!-/:-@\[-`{-~])", r"\1", text)
            plain = html.unescape(re.sub(r"<[^>]*>", "\n", plain))  # HTML: its text
            lines.extend(line.strip() for line in plain.splitlines() if line.strip())
    return lines


def _pattern(template: str) -> re.Pattern[str] | None:
    """A message's English as a pattern its filled-in text matches; None for one whose
    only English is a short word another language writes too (`{first} to {last}`)."""
    parts = re.split(r"\{[^{}]*\}", template.strip("*_ "))
    said = re.findall(r"[A-Za-z]+", " ".join(parts))
    if len(said) < 2 and not any(len(word) >= 4 for word in said):
        return None  # "{counted} of {played}": Dutch says "of" too (it means "or")
    # A word of the English is a word: " to " is not the "to" of "toepen".
    pattern = ".+?".join(re.escape(p) for p in parts)
    return re.compile(rf"(?<![^\W_]){pattern}(?![^\W_])" if parts[0] and parts[-1] else pattern)


def english_left(lang: str) -> dict[str, re.Pattern[str]]:
    """Every message `lang` says in words of its own: its key and its English's pattern."""
    with (LOCALE_DIR / lang / "LC_MESSAGES" / "kroeg.po").open("rb") as handle:
        po = read_po(handle)
    found = {}
    # An English text the language also writes for another message is its word too
    # (Troefcall's "{n} points" is French as well): not English left.
    own = {t for m in po if m.id for t in (m.string if m.pluralizable else (m.string,))}
    for message in po:
        if not message.id or not message.context:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        for english in ids:
            if english not in own and (pattern := _pattern(english)) is not None:
                found[f"{message.context}: {english}"] = pattern
    return found


def page(lang: str, name: str) -> AppTest:
    at = AppTest.from_file(str(serve.APP), default_timeout=60)
    at.session_state[LANGUAGE_KEY] = lang
    at.run()
    if name != "overview":
        at.switch_page(f"views/{name}.py").run()
    assert not at.exception, [e.value for e in at.exception]
    return at


@pytest.mark.parametrize("name", PAGES)
@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_page_speaks_the_language_chosen(
    sample_club: Path, monkeypatch: pytest.MonkeyPatch, lang: str, name: str
) -> None:
    monkeypatch.setenv("KROEG_DATASET", str(sample_club))
    lines = shown(page(lang, name))
    left = {
        key: line
        for key, pattern in english_left(lang).items()
        for line in lines
        if pattern.fullmatch(line.strip("*_ "))
    }
    assert left == {}, f"English on the {name} page in {lang}"
    # The page is there, in its language: its sidebar speaks it.
    assert words(lang).say("filter_players", "Players") in lines


@pytest.mark.parametrize("name", PAGES)
def test_every_page_runs_in_english(
    sample_club: Path, monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    monkeypatch.setenv("KROEG_DATASET", str(sample_club))
    assert "Players" in shown(page("en", name))


def test_the_club_file_names_the_language_a_visitor_sees_first(
    sample_club: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    club = tmp_path / "ds"
    Dataset(club).write(notation.load(SAMPLES / "classic-evening.txt"))
    (club / "club.toml").write_text('language = "nl"\n' + DEMO_CLUB, encoding="utf-8")
    monkeypatch.setenv("KROEG_DATASET", str(club))
    at = AppTest.from_file(str(serve.APP), default_timeout=60).run()
    assert not at.exception
    assert at.session_state[LANGUAGE_KEY] == "nl"
    assert catalogue("nl").pgettext("filter_players", "Players") in shown(at)
    # The visitor's own choice then holds, page after page.
    at.sidebar.selectbox(key=LANGUAGE_KEY).set_value("fr").run()
    at.switch_page("views/games.py").run()
    assert at.session_state[LANGUAGE_KEY] == "fr"
    assert words("fr").say("filter_players", "Players") in shown(at)


def test_without_a_club_language_the_browser_s_is_taken(tmp_path: Path) -> None:
    assert browser_language("nl-NL") == "nl"
    assert browser_language("fr_BE") == "fr"
    assert browser_language("pt-BR") is None  # no Portuguese catalogue: English
    assert browser_language(None) is None
    assert default_language(tmp_path, "es-ES") == "es"
    assert default_language(tmp_path, "de-DE") == "en"
    (tmp_path / "club.toml").write_text('language = "ms"\n', encoding="utf-8")
    assert default_language(tmp_path, "es-ES") == "ms"  # the club's word first
    (tmp_path / "club.toml").write_text('language = "xx"\n', encoding="utf-8")
    assert default_language(tmp_path, "es-ES") == "es"  # a club file in error: not the page's


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_king_of_the_hill_evening_shows_its_pairs_in_the_language(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, lang: str
) -> None:
    """Troefcall's "Changement d'équipe" evening (seed 002): the Evenings page lists its
    pairs and players as `kroeg hill` does, in the language chosen."""
    club = tmp_path / "ds"
    Dataset(club).write(notation.load(SAMPLES / "troefcall-king-of-the-hill.txt"))
    monkeypatch.setenv("KROEG_DATASET", str(club))
    at = page(lang, "overview")
    lines = shown(at)
    w = words(lang)
    assert w.say("evening_hill", "King of the hill") in lines
    assert w.say("evening_hill_reign", "longest reign") in lines
    pairs = next(frame.value for frame in at.dataframe)
    assert pairs.columns[0] == w.say("evening_hill_pair", "pair") and len(pairs) > 1
    if lang != "en":
        left = {key: line for key, pattern in english_left(lang).items() for line in lines
                if pattern.fullmatch(line.strip("*_ "))}  # fmt: skip
        assert left == {}
