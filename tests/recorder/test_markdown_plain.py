"""`markdown_plain`: text a bulletin's Markdown shows as typed, with a backslash only where
markup would otherwise start (checked by rendering, as a club's editor's tools would)."""

from __future__ import annotations

import html
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st
from markdown_it import MarkdownIt

from kroeg.recorder.text import markdown_plain

#: CommonMark with GitHub's tables and strikethrough: what an e-mail editor or a forum reads.
RENDERER = MarkdownIt("commonmark").enable(["table", "strikethrough"])


def shown(markdown: str) -> str:
    """The text a reader sees: the rendered HTML with its tags taken off."""
    rendered = RENDERER.render(markdown)
    return html.unescape(re.sub(r"<[^>]+>", "", rendered)).strip()


HOSTILE = [
    "![i](//127.0.0.1/img.png)",
    "[login](https://x.y)",
    "<img src=x onerror=a()>",
    "<https://x.y>",
    "a|b **c** _d_ `e` ~~f~~",
    "&amp; &#38; & Co",
    "# Anna",
    "> Ben",
    "- Carla",
    "+ Dan",
    "12. Eve",
    "3) Fay",
    "===",
    "back\\slash\\*",
]


@pytest.mark.parametrize("text", HOSTILE)
def test_markup_in_a_name_is_shown_as_typed(text: str) -> None:
    rendered = RENDERER.render(markdown_plain(text))
    assert shown(markdown_plain(text)) == text
    for tag in ("<img", "<a ", "<strong", "<em", "<code", "<s>", "<h1", "<blockquote", "<li"):
        assert tag not in rendered, (text, rendered)


def test_ordinary_punctuation_keeps_no_backslash() -> None:
    """What the bulletin says in its sentences: commas, points, colons, percentages and
    slashes are text already; a backslash before them would stay on an e-mail's page."""
    sentence = "Ben: 51% of knocks were bluffs (417/821); 2,434 hands in all, 0.97 lost a hand."
    assert markdown_plain(sentence) == sentence


def test_only_the_mark_that_opens_markup_is_escaped() -> None:
    assert markdown_plain("Anna & Carla") == "Anna & Carla"  # not an entity: no escape
    assert markdown_plain("Anna &amp; Carla") == "Anna \\&amp; Carla"
    assert markdown_plain("12. Eve") == "12\\. Eve"  # a list's number, not the digits
    assert markdown_plain("Eve 12. next") == "Eve 12. next"  # mid-line it opens nothing
    assert markdown_plain("a-b, c+d, x > y") == "a-b, c+d, x > y"


def test_a_table_cell_keeps_its_bar() -> None:
    row = f"| {markdown_plain('a|b')} | 3 |"
    table = RENDERER.render(f"| player | hands |\n|---|---|\n{row}\n")
    assert table.count("<td>") == 2 and "<td>a|b</td>" in table


@given(st.text(alphabet=st.characters(codec="ascii", exclude_categories=["Cc"]), max_size=40))
def test_any_ascii_line_is_shown_as_typed(text: str) -> None:
    """Every printable ASCII line, hostile or not, reads back as typed (spaces at the ends
    aside: a paragraph trims them, which shows no markup)."""
    assert shown(markdown_plain(text)) == text.strip()


def test_a_small_samples_star_after_a_word_stays_as_typed() -> None:
    """The registry's star ("12 hands*") cannot open emphasis: no backslash before it,
    and two of them in one paragraph still emphasise nothing."""
    line = "Anna, 12 hands* and Ben, 10 hands*; Carla **Café**"
    assert markdown_plain(line) == "Anna, 12 hands* and Ben, 10 hands*; Carla \\*\\*Café**"
    assert shown(markdown_plain(line)) == line and "<em" not in RENDERER.render(line)


@given(st.text(alphabet="*_ a—.“", max_size=12))
def test_stars_and_underscores_never_emphasise(text: str) -> None:
    """The flanking rules at their edges: marks beyond ASCII, runs, word boundaries."""
    rendered = RENDERER.render(markdown_plain(text))
    assert "<em" not in rendered and "<strong" not in rendered, (text, rendered)
    assert shown(markdown_plain(text)) == text.strip() or "<li" in rendered or "<hr" in rendered


def test_an_indent_opens_no_code_block() -> None:
    """Hypothesis found `    __`: four spaces opened a code block, which showed the
    escape as typed (`\\__`). A paragraph drops an indent anyway: it goes."""
    for text in ("    __", "\t*Anna*", "    12. Eve"):
        rendered = RENDERER.render(markdown_plain(text))
        assert "<pre" not in rendered and shown(markdown_plain(text)) == text.strip(), rendered
