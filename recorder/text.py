"""Free text that people type: player names, venues, rule-set names.

The same rules at every door (the notation, JSON Lines, `kroeg record`, the
Record page, a club's rules file), checked before any work is done, so that a
name accepted anywhere can be written back as notation and read again, and no
input can make a structure grow faster than itself:

- a player name: 1 to `MAX_NAME` characters, no control or invisible formatting
  characters (ESC, newlines, zero-width and direction marks; a joiner between two
  emoji excepted), none of `: ; # ?`,
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
    "MAX_DIGITS",
    "MAX_NAME",
    "MAX_TEXT",
    "isolated",
    "markdown_text",
    "names_problem",
    "plural",
    "quoted",
    "text_problem",
    "too_many_digits",
    "unknown_choice",
    "venue_problem",
    "visible_text",
]

#: The longest player name (characters).
MAX_NAME = 40
#: The longest venue or rule-set name (characters).
MAX_TEXT = 100
#: The most digits of a number typed in a log (a hand, a trick, an amount): an int64's.
#: Python reads no number of over 4,300 digits at all; a longer one is refused as text.
MAX_DIGITS = 18
#: The most characters of a text found that a message quotes.
MAX_QUOTED = 80
#: The header words of the typed notation: a player cannot be called one of them.
HEADER_KEYS = (
    "game", "players", "rules", "variants", "date", "venue", "source", "seed", "evening",
)  # fmt: skip
_INVISIBLE = frozenset({"Cc", "Cf", "Cs"})


def too_many_digits(number: str, what: str) -> str | None:
    """What is wrong with `number` (digits, perhaps after a minus) as `what` ("a hand
    number"), if it has more than `MAX_DIGITS` digits: a message; else None."""
    if len(number) - number.startswith("-") <= MAX_DIGITS:
        return None
    return f"expected {what} of at most {MAX_DIGITS} digits, found {quoted(number)}"


def _hidden_character(text: str) -> str | None:
    if text.isascii() and text.isprintable():
        return None  # ASCII's only hidden characters are its controls (Cc)
    for i, ch in enumerate(text):
        if unicodedata.category(ch) in _INVISIBLE and not _joins_emoji(text, i):
            return f"U+{ord(ch):04X}"
    return None


_ZWJ = "\u200d"


def _joins_emoji(text: str, i: int) -> bool:
    """Whether `text[i]` is a zero-width joiner between two emoji (`👩‍👩‍👧`, one picture
    drawn of three): the one place it is allowed, as it hides nothing there. Before it an
    emoji (So), a skin tone (Sk) or the emoji presentation selector; after it an emoji."""
    if text[i] != _ZWJ or not 0 < i < len(text) - 1:
        return False
    before, after = text[i - 1], text[i + 1]
    return (
        unicodedata.category(before) in ("So", "Sk") or before == "\ufe0f"
    ) and unicodedata.category(after) == "So"


def quoted(found: object, limit: int = MAX_QUOTED) -> str:
    """Text found, quoted for a message: at most `limit` characters of it (`'abc…'`, and
    how long it was), control and invisible characters as escapes. Every message that
    quotes its input quotes it through here, so a 99 MB line is never echoed whole."""
    if not isinstance(found, str):  # a number, a JSON list: as Python writes it, unquoted
        text = _value_text(found, limit)
        return text if len(text) <= limit else f"{text[:limit]}… ({len(text):,} characters)"
    if len(found) <= limit:
        return ascii(found) if _hidden_character(found) else repr(found)
    cut = found[:limit] + "…"
    shown = ascii(cut) if _hidden_character(cut) else repr(cut)
    return f"{shown} ({len(found):,} characters)"


def _value_text(value: object, limit: int) -> str:
    """A value that is not text (a number, a JSON list) as text, without building a huge
    string for a huge value: a long int is cut by its digits' count."""
    if isinstance(value, int) and not isinstance(value, bool):
        digits = value.bit_length() * 0.30103  # a long number has too many digits to show
        if digits > limit:
            return f"a number of about {int(digits):,} digits"
    try:
        text = repr(value)
    except (RecursionError, ValueError):
        return f"a {type(value).__name__} nested too deeply to show"
    return text


def text_problem(label: str, text: str, limit: int = MAX_TEXT) -> str | None:
    """Why `text` cannot be a `label` (a venue, a rule set's name), or None."""
    if len(text) > limit:
        return f"{label} is {len(text):,} characters long; at most {limit} are allowed"
    hidden = _hidden_character(text)
    if hidden is not None:
        return f"{label} {quoted(text)} holds a control or invisible character ({hidden})"
    return None


def venue_problem(venue: str) -> str | None:
    """Why `venue` cannot be a game's venue, or None: every door that takes one asks this
    (a typed log's or a JSON Lines header, `kroeg record`, `kroeg simulate --venue`)."""
    return text_problem("the venue", venue)


def names_problem(names: Sequence[str]) -> str | None:
    """Why these cannot name a table's players, or None."""
    for name in names:
        if not name:
            return "a player name is empty"
        problem = text_problem("a player name", name, MAX_NAME)
        if problem is not None:
            return problem
        if name.lower() in HEADER_KEYS or any(c in name for c in ":;#?") or name[0].isdigit():
            return f"{quoted(name)} cannot be a player name"
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


#: What CommonMark (and GitHub's tables and strikethrough) read as markup anywhere in a
#: line: code, links and images (`!` is text once `[` is), a tag, comment or autolink
#: (`<` before a letter, `/`, `!` or `?`), a table's cell break, strikethrough, an
#: escape itself, and a `*` or `_` that can open emphasis (CommonMark's left-flanking
#: run: not followed by a space, and after anything but a letter or digit when a mark
#: follows; a mark beyond ASCII counts as one, escaped where unsure). A `*`
#: after a word ("12 hands*", a small sample) can only close, and with no opener left
#: closes nothing, so it stays as typed.
_PLAIN_SPECIAL = re.compile(
    r"""([\\`\[\]|~]|<(?=[A-Za-z/!?])"""
    r"""|(?<![^\W_])[*_](?=\S)|[*_](?=[^\s!-/:-@\[-`{-~]))"""
)
#: A line's indent: four spaces or a tab open a code block, which shows every escape as
#: typed (`    __` read `\__`); a paragraph drops an indent anyway, so it goes.
_PLAIN_INDENT = re.compile(r"^[ \t]+", re.M)
#: An entity (`&amp;`, `&#38;`): only then is `&` markup.
_PLAIN_ENTITY = re.compile(r"&(?=#?[A-Za-z0-9]+;)")
#: What opens a block at the start of a line: a heading, a quote, a list item (`-`, `+`,
#: `*`, `1.`, `1)`), a setext underline.
_PLAIN_LINE_START = re.compile(r"^( {0,3})([#>+=*-]|\d{1,9}(?=[.)]))", re.M)


def markdown_plain(text: str) -> str:
    """Text a Markdown document shows as it is, escaped only where markup would start:
    for a bulletin a club's editor pastes into an e-mail, where a backslash before every
    comma stays on the page. `markdown_text` escapes every mark, for Streamlit, which
    reads more (`$`, `:red[…]`)."""
    text = _PLAIN_INDENT.sub("", text)
    text = _PLAIN_SPECIAL.sub(r"\\\g<0>", text)
    text = _PLAIN_ENTITY.sub(r"\\&", text)
    return _PLAIN_LINE_START.sub(_escape_line_start, text)


def _escape_line_start(match: re.Match[str]) -> str:
    indent, mark = match.group(1), match.group(2)
    if mark.isdigit():  # `12.` opens a list; `12\.` does not
        return f"{indent}{mark}\\"
    return f"{indent}\\{mark}"


def visible_text(text: str) -> str:
    """Text safe to print on a terminal: control and invisible characters shown as escapes
    (`\\x1b`, `\\u200b`), never obeyed; line breaks and tabs kept, and a joiner between
    two emoji (`👩‍👩‍👧`, the one place a name may hold one: `_joins_emoji`)."""
    if not _hidden_character(text):
        return text
    return "".join(
        ch if ch in "\n\t" or unicodedata.category(ch) not in _INVISIBLE or _joins_emoji(text, i)
        else ascii(ch)[1:-1]
        for i, ch in enumerate(text)
    )  # fmt: skip


def unknown_choice(what: str, word: str, choices: Iterable[str]) -> str:
    """The message for a word that names none of `choices`, with the nearest one offered:
    `unknown variant 'first-speaker-wait': did you mean first-speaker-waits? Expected
    one of …`."""
    options = list(choices)
    near = difflib.get_close_matches(word.strip().lower(), options, n=1, cutoff=0.6)
    listed = ", ".join(options)
    if near:
        return f"unknown {what} {quoted(word)}: did you mean {near[0]}? Expected one of {listed}"
    return f"unknown {what} {quoted(word)}: expected one of {listed}"


def isolated(name: str) -> str:
    """A name written right to left (Hebrew, Arabic: `שרה`) between the Unicode isolates
    FSI and PDI, so that a page that lists it among others keeps the list's order: without
    them the browser's bidi algorithm pulls the commas and numbers after it into the name
    (`שרה, Dan · 3 games` read backwards). Any other name is returned as it is: nothing
    invisible is added where it changes nothing. For pages, not terminals, which show
    these characters as escapes (`visible_text`)."""
    if any(unicodedata.bidirectional(c) in ("R", "AL") for c in name):
        return f"\u2068{name}\u2069"
    return name


def text_width(text: str) -> int:
    """The columns `text` takes on a terminal: a wide character (CJK, most emoji) two, a
    combining mark or an invisible one (a joiner, a variation selector) none, any other
    one."""
    return sum(_char_width(ch) for ch in text)


def _char_width(ch: str) -> int:
    if unicodedata.combining(ch) or unicodedata.category(ch) in ("Cf", "Mn", "Me"):
        return 0
    return 2 if unicodedata.east_asian_width(ch) in "WF" else 1


def cut_to_width(text: str, width: int) -> str:
    """`text` as it fits in `width` columns on a terminal (`text_width`): whole where it
    fits, else cut and ended with `…`."""
    if text_width(text) <= width:
        return text
    kept, used = [], 1  # the ellipsis takes one column
    for ch in text:
        wide = _char_width(ch)
        if used + wide > width:
            break
        kept.append(ch)
        used += wide
    # Nothing invisible left hanging before the ellipsis (a joiner would join it on).
    return "".join(kept).rstrip().rstrip("\u200d\ufe0f") + "…"


def text_table(rows: Sequence[Sequence[str]], align: str = "l", rule: bool = False) -> list[str]:
    """`rows` as aligned text lines, two spaces between columns, each column as wide as
    its widest cell on a terminal (`text_width`): `align` says each column's side, `l` or
    `r`, from the first on (columns beyond it to the right); `rule`: a line of dashes
    under the first row."""
    widths = [max(text_width(row[i]) for row in rows) for i in range(len(rows[0]))]
    lines = []
    for row in rows:
        cells = [
            cell + " " * (width - text_width(cell)) if align[i : i + 1] == "l"
            else " " * (width - text_width(cell)) + cell
            for i, (cell, width) in enumerate(zip(row, widths, strict=True))
        ]  # fmt: skip
        lines.append("  ".join(cells).rstrip())
    if rule and lines:
        lines.insert(1, "-" * max(text_width(line) for line in lines))
    return lines


def plural(count: int, word: str) -> str:
    """`1 game`, `2 games`, `1,000 hands`."""
    return f"{count:,} {word}{'' if count == 1 else 's'}"
