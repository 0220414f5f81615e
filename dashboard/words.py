"""The dashboard's language: chosen in the sidebar, every page's words from it.

Every label, help text and sentence a page shows is a gettext message written where it
is used: `w.say("key", "English {name}", name=...)`, or for a count `w.say_n("key",
"{n} hand", "{n} hands", n)`, the key being gettext's context (`msgctxt`). `make
messages` extracts them with the bulletin's (babel.cfg) into the same catalogues,
`kroeg/locale/<lang>/LC_MESSAGES/kroeg.po`; docs/LANGUAGES.md says how.

The language a visitor sees first is the club file's `language` (the bulletin's), else
the browser's (`st.context.locale`) when the dashboard speaks it, else English; the
sidebar's choice then holds for the whole session, on every page.

A widget whose label is a message has a `key`: its identity then stays when the language
changes (without one, a new label is a new widget, back at its default). Its options stay
the same values in every language; `format_func` says them in words.
"""

from __future__ import annotations

from pathlib import Path

import streamlit as st

from kroeg.analytics.club import club_language
from kroeg.analytics.words import LANGUAGES, Words, language_name, words
from kroeg.recorder.errors import KroegError

__all__ = ["LANGUAGE_KEY", "browser_language", "default_language", "language_picker", "page_words"]

#: Session State key of the language the sidebar chose.
LANGUAGE_KEY = "kroeg_language"


def browser_language(locale: str | None) -> str | None:
    """The dashboard's language for a browser's `nl-NL`, `fr`, `pt-BR`: its first part,
    if it is one of LANGUAGES."""
    if not locale:
        return None
    code = locale.replace("_", "-").split("-")[0].strip().lower()
    return code if code in LANGUAGES else None


def default_language(path: Path | None, locale: str | None) -> str:
    """The club file's language, else the browser's, else English."""
    club = None
    if path is not None:
        try:
            club = club_language(path)
        except KroegError:  # the Season page names the club file's problem
            club = None
    return club or browser_language(locale) or "en"


def _browser_locale() -> str | None:
    try:
        locale = st.context.locale
    except (AttributeError, RuntimeError):  # outside a browser session (a bare script run)
        return None
    return locale if isinstance(locale, str) else None


def language_picker(path: Path | None) -> Words:
    """Draw the sidebar's language choice (the session keeps it) and return its words."""
    if LANGUAGE_KEY not in st.session_state:
        st.session_state[LANGUAGE_KEY] = default_language(path, _browser_locale())
    lang = st.sidebar.selectbox(
        "🌐", LANGUAGES, key=LANGUAGE_KEY, format_func=language_name,
        label_visibility="collapsed", help=page_words().say("language_help", "Language"),
    )  # fmt: skip
    return words(lang)


def page_words() -> Words:
    """The words of the language this session shows (English before one is chosen)."""
    lang = st.session_state.get(LANGUAGE_KEY, "en")
    return words(lang if lang in LANGUAGES else "en")
