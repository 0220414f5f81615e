"""The word catalogues: the template holds every message of the code, every language's
catalogue translates every message with the same `{names}` in it, and a catalogue reads
the same compiled (`.mo`, as the build ships it) as from its `.po`.

The messages are the bulletin's `_m("key", "English")` and `_n("key", "one", "many")`
in analytics/words.py, and the `w.say("key", "English")` and `w.say_n(...)` written
where they are used (the dashboard, the replay's steps); `make messages` extracts them
from the files babel.cfg names (analytics.words.EXTRACT_KEYWORDS) and merges them in.
"""

from __future__ import annotations

import gettext
import io
import os
import re
import shutil
import string
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_keywords, parse_mapping_cfg
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from kroeg.analytics import words as words_module
from kroeg.analytics.words import (
    ENGLISH,
    EXTRACT_KEYWORDS,
    LANGUAGES,
    LOCALE_DIR,
    PLURALS,
    catalogue,
    words,
)

ROOT = Path(__file__).resolve().parents[2]
#: The five languages the issue names: the seeds' French, Spanish, English and Malay,
#: and Dutch, the clubs'.
EXPECTED = {"en", "nl"}


def _read(path: Path) -> Catalog:
    with path.open("rb") as handle:
        return read_po(handle)


def _fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name is not None}


def _po_files() -> list[Path]:
    return sorted(LOCALE_DIR.glob("*/LC_MESSAGES/kroeg.po"))


def test_the_languages_are_english_and_every_catalogue() -> None:
    assert LANGUAGES[0] == "en"
    assert set(LANGUAGES) >= EXPECTED
    assert set(LANGUAGES[1:]) == {p.parent.parent.name for p in _po_files()}


def _in_code() -> list[tuple[str | None, str | tuple[str, ...], str]]:
    """Every message of the code, as `make messages` extracts it: (key, English, file)."""
    with (ROOT / "babel.cfg").open() as config:
        method_map, options_map = parse_mapping_cfg(config)
    return [
        (context, message if isinstance(message, str) else tuple(message), filename)
        for filename, _, message, _, context in extract_from_dir(
            str(ROOT), method_map, options_map, keywords=parse_keywords(list(EXTRACT_KEYWORDS))
        )
    ]


#: The template's messages by key: the English of each message every catalogue translates.
TEMPLATE = {m.context: m.id for m in _read(LOCALE_DIR / "kroeg.pot") if m.id}


def test_the_template_holds_exactly_the_messages_of_the_code() -> None:
    """kroeg.pot is what `make messages` extracts now: run it after changing a message."""
    in_code = _in_code()
    extracted = {(key, text) for key, text, _ in in_code}
    bulletin = {(k, v) for k, v in ENGLISH.items()} | {(k, v) for k, v in PLURALS.items()}
    assert bulletin <= extracted
    assert {"dashboard", "parsers"} <= {Path(f).parts[0] for _, _, f in in_code}
    template = {(m.context, m.id if isinstance(m.id, str) else tuple(m.id))
                for m in _read(LOCALE_DIR / "kroeg.pot") if m.id}  # fmt: skip
    assert template == extracted


def test_every_message_has_a_key_of_its_own() -> None:
    """A key is one message: the same key with two English texts would be two messages a
    translator cannot tell apart (the key says what it is for)."""
    texts: dict[str | None, set[object]] = {}
    for key, text, filename in _in_code():
        assert key, f"{filename}: a message without its key: {text!r}"
        texts.setdefault(key, set()).add(text)
    assert {k: t for k, t in texts.items() if len(t) > 1} == {}


@pytest.mark.parametrize("po", _po_files(), ids=lambda p: p.parent.parent.name)
def test_every_catalogue_translates_every_message_with_the_same_names(po: Path) -> None:
    found = {m.context: m for m in _read(po) if m.id}
    assert set(found) == set(TEMPLATE), "run `make messages`"
    forms = _read(po).num_plurals  # as the catalogue's Plural-Forms says
    for key, message in found.items():
        assert "fuzzy" not in message.flags, f"{key}: marked fuzzy (the English changed)"
        plural = not isinstance(TEMPLATE[key], str)
        english = TEMPLATE[key][1] if plural else TEMPLATE[key]
        translated = message.string if isinstance(message.string, tuple) else (message.string,)
        assert len(translated) == (forms if plural else 1), key
        for text in translated:
            assert text.strip(), f"{key}: not translated"
            names = _fields(english)
            if plural:  # a form for one may say "one" in words instead of {n}
                assert _fields(text) - {"n"} == names - {"n"}, f"{key}: {text!r}"
            else:
                assert _fields(text) == names, f"{key}: {text!r} against {english!r}"
            # The leading and trailing spaces a piece is glued in with stay.
            assert (text[:1] == " ", text[-1:] == " ") == (
                english[:1] == " ", english[-1:] == " "
            ), key  # fmt: skip


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
def test_a_catalogue_reads_the_same_compiled_as_from_its_po(
    lang: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The build's `.mo` and the `.po` a translator just edited give the same words; a
    `.po` newer than its `.mo` is the one read (an edit is never hidden by an old build)."""
    folder = tmp_path / lang / "LC_MESSAGES"
    folder.mkdir(parents=True)
    shutil.copy(LOCALE_DIR / lang / "LC_MESSAGES" / "kroeg.po", folder / "kroeg.po")
    monkeypatch.setattr(words_module, "LOCALE_DIR", tmp_path)
    catalogue.cache_clear()
    try:
        from_po = {key: catalogue(lang).pgettext(key, text) for key, text in ENGLISH.items()}
        stale = _read(folder / "kroeg.po")
        for message in stale:
            if message.id and not message.pluralizable:
                message.string = "stale"
        compiled = io.BytesIO()
        write_mo(compiled, stale)
        (folder / "kroeg.mo").write_bytes(compiled.getvalue())
        po_time = (folder / "kroeg.po").stat().st_mtime
        os.utime(folder / "kroeg.mo", (po_time - 10, po_time - 10))  # older than the .po
        catalogue.cache_clear()
        assert {k: catalogue(lang).pgettext(k, t) for k, t in ENGLISH.items()} == from_po
        good = io.BytesIO()
        write_mo(good, _read(folder / "kroeg.po"))
        (folder / "kroeg.mo").write_bytes(good.getvalue())  # newer: the build's
        catalogue.cache_clear()
        assert isinstance(catalogue(lang), gettext.GNUTranslations)
        assert {k: catalogue(lang).pgettext(k, t) for k, t in ENGLISH.items()} == from_po
        assert set(from_po.values()) != {"stale"}
    finally:
        catalogue.cache_clear()


def test_counts_take_each_language_s_plural_forms() -> None:
    for lang in LANGUAGES:
        w = words(lang)
        one, many = w.count(1, "n_hands"), w.count(2434, "n_hands")
        assert re.fullmatch(r"1 \S+", one), (lang, one)
        assert re.fullmatch(r"2\D?434 \S+", many), (lang, many)  # 2,434 2.434 2 434
