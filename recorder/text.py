"""Free text that people type: player names, venues, rule-set names.

The same rules at every door (the notation, JSON Lines, `kroeg record`, the
Record page, a club's rules file), checked before any work is done, so that a
name accepted anywhere can be written back as notation and read again, and no
input can make a structure grow faster than itself:

- a player name: 1 to `MAX_NAME` characters, no control or invisible formatting
  characters (ESC, newlines, zero-width and direction marks), none of `: ; # ?`,
  not starting with a digit, not a header word of the notation; names differ;
- a venue or a rule set's name: at most `MAX_TEXT` characters, no control or
  invisible formatting characters.
"""

from __future__ import annotations

import difflib
import re
import unicodedata
from collections.abc import Iterable, Sequence

__all__ = [
    "HEADER_KEYS",
    "MAX_NAME",
    "MAX_TEXT",
    "markdown_text",
    "names_problem",
    "text_problem",
    "unknown_choice",
    "visible_text",
]

#: The longest player name (characters).
MAX_NAME = 40
#: The longest venue or rule-set name (characters).
MAX_TEXT = 100
#: The header words of the typed notation: a player cannot be called one of them.
HEADER_KEYS = ("game", "players", "rules", "variants", "date", "venue", "source", "seed")
_INVISIBLE = frozenset({"Cc", "Cf", "Cs"})


def _hidden_character(text: str) -> str | None:
    for ch in text:
        if unicodedata.category(ch) in _INVISIBLE:
            return f"U+{ord(ch):04X}"
    return None


def _shown(text: str) -> str:
    """A short, safe quotation of text found, for a message."""
    cut = text[:30] + ("…" if len(text) > 30 else "")
    return ascii(cut) if _hidden_character(cut) else repr(cut)


def text_problem(label: str, text: str, limit: int = MAX_TEXT) -> str | None:
    """Why `text` cannot be a `label` (a venue, a rule set's name), or None."""
    if len(text) > limit:
        return f"{label} is {len(text):,} characters long; at most {limit} are allowed"
    hidden = _hidden_character(text)
    if hidden is not None:
        return f"{label} {_shown(text)} holds a control or invisible character ({hidden})"
    return None


def names_problem(names: Sequence[str]) -> str | None:
    """Why these cannot name a table's players, or None."""
    for name in names:
        if not name:
            return "a player name is empty"
        problem = text_problem("a player name", name, MAX_NAME)
        if problem is not None:
            return problem
        if name.lower() in HEADER_KEYS or any(c in name for c in ":;#?") or name[0].isdigit():
            return f"{name!r} cannot be a player name"
    if len({n.lower() for n in names}) != len(names):
        return f"player names must differ: {', '.join(names)}"
    return None


_MARKDOWN_SPECIAL = re.compile(r"([!-/:-@\[-`{-~])")


def markdown_text(text: str) -> str:
    """Text that Markdown shows as it is: every ASCII punctuation mark backslash-escaped.

    No link, image, emphasis, heading, table cell break (`|`), HTML tag, entity, KaTeX
    (`$`) or Streamlit directive (`:red[…]`) can come out of a name or a venue.
    """
    return _MARKDOWN_SPECIAL.sub(r"\\\1", text)


def visible_text(text: str) -> str:
    """Text safe to print on a terminal: control and invisible characters shown as escapes
    (`\\x1b`, `\\u200b`), never obeyed; line breaks and tabs kept."""
    if not _hidden_character(text):
        return text
    return "".join(
        ch if ch in "\n\t" or unicodedata.category(ch) not in _INVISIBLE
        else ascii(ch)[1:-1]
        for ch in text
    )  # fmt: skip


def unknown_choice(what: str, word: str, choices: Iterable[str]) -> str:
    """The message for a word that names none of `choices`, with the nearest one offered:
    `unknown variant 'first-speaker-wait': did you mean first-speaker-waits? Expected
    one of …`."""
    options = list(choices)
    near = difflib.get_close_matches(word.strip().lower(), options, n=1, cutoff=0.6)
    listed = ", ".join(options)
    if near:
        return f"unknown {what} {word!r}: did you mean {near[0]}? Expected one of {listed}"
    return f"unknown {what} {word!r}: expected one of {listed}"
