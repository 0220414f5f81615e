"""The notation's lexer: text to games of header fields, hands and statements.

It knows the shape of the text (headers, `hand N` lines, `3.` trick labels, statements
separated by commas, result lines joined), never a rule: `parsers._referee` turns the
statements into engine actions.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from typing import Final

from kroeg.recorder.errors import (
    NotationError,
)
from kroeg.recorder.text import HEADER_KEYS, quoted, too_many_digits

__all__ = [
    "BLANK", "HEADER", "OTHER", "GameText", "HandText", "Stmt", "is_sums", "lex", "lex_games",
    "line_shape",
]  # fmt: skip

_HAND = re.compile(r"hand\s+(\d+)\s*(?:[,(]?\s*dealer\s*:?\s*(.+?)\s*\)?)?\s*$", re.IGNORECASE)
_HAND_WORD = re.compile(r"hand\b", re.IGNORECASE)
_TRICK_LABEL = re.compile(r"(\d+)\.\s*")


# -- lexing ---------------------------------------------------------------------------------


# Plain classes, not dataclasses: compiled, a dataclass's __init__ is still the
# interpreted one `dataclasses` writes, and a log makes some 30 statements a hand.
class Stmt:
    """One statement with where it starts (1-based line and column)."""

    def __init__(self, text: str, line: int, column: int, trick: int | None = None) -> None:
        self.text = text
        self.line = line
        self.column = column
        self.trick = trick  # a `3.` label in front of it
        #: It gives a hand's sums (`is_sums`), the rest of its line joined to it.
        self.sums = False

    def __repr__(self) -> str:
        return f"Stmt({self.text!r}, {self.line}, {self.column}, {self.trick})"


class HandText:
    def __init__(self, number: int, dealer: str | None, line: int, column: int) -> None:
        self.number = number
        self.dealer = dealer
        self.line = line
        self.column = column
        self.statements: list[Stmt] = []


class GameText:
    def __init__(self, line: int = 1) -> None:
        self.header: dict[str, tuple[str, int, int]] = {}
        self.cut: list[Stmt] = []
        self.hands: list[HandText] = []
        self.line = line


def _strip_comment(raw: str) -> str:
    cut = raw.find("#")
    return raw if cut < 0 else raw[:cut]


def _number(digits: str, what: str, line: int, column: int, source: str | None) -> int:
    """The number `digits` read as `what`, or a NotationError where it is too long to read."""
    problem = too_many_digits(digits, what)
    if problem is not None:
        raise NotationError(problem, line, column, source)
    return int(digits)


def _split_statements(body: str, line: int, start_col: int, sums: bool = False) -> list[Stmt]:
    """Split a line's text on commas and semicolons, keeping each piece's column. With
    `sums`, a `result:` or `score:` takes the rest of its line, its pieces joined by ` & `:
    it names several players (`result: Anna 2, Ben 1`)."""
    found: list[Stmt] = []
    pos = start_col
    pieces = body.replace(";", ",").split(",")  # same length: columns stay right
    sums = sums and ":" in body  # a line without a colon gives no sums
    summing: Stmt | None = None  # the line's `result:` or `score:` so far
    for piece in pieces:
        stripped = piece.lstrip()
        if stripped:
            text = stripped.rstrip()
            if summing is not None:
                summing.text += " & " + text
            else:
                stmt = Stmt(text, line, pos + len(piece) - len(stripped))
                found.append(stmt)
                if sums and is_sums(text):
                    stmt.sums = True
                    summing = stmt
        pos += len(piece) + 1
    return found


def is_sums(text: str) -> bool:
    """Whether a statement gives a hand's sums: `result: …` or `score: …`, any case."""
    # No character lowers to one of `result:` but its own capitals, so the first seven
    # characters tell.
    return text[:7].lower().startswith(("result:", "score:"))


def lex(text: str, source: str | None) -> list[GameText]:
    """Every game of a text, at once (`lex_games` reads them one by one)."""
    return list(lex_games(text.splitlines(), source))


def _field(stripped: str) -> tuple[str, str, str]:
    """A line's key before its first colon (lowered and stripped: "" without a colon),
    the key as written, and the value after the colon."""
    key, colon, value = stripped.partition(":")
    return key.strip().lower() if colon else "", key, value


#: The header's keys, asked of every line.
_HEADER_KEYS: Final = frozenset(HEADER_KEYS)

#: The keys of the lines that draw for the first dealer before hand 1.
_CUT_KEYS: Final = ("cut", "jacks")

#: What `line_shape` says of a line.
BLANK, HEADER, OTHER = 0, 1, 2


def line_shape(raw: str) -> int:
    """BLANK (nothing, a comment alone, or a cut that names nothing), HEADER (a header
    field) or OTHER: how `lex_games` takes a line. A HEADER line whose last line before it
    that is not BLANK is OTHER opens a game, or the lexer stopped before it: every OTHER
    line adds a hand, a statement or a cut to the game it is in (or follows a hand), or is
    an error that ends the lexing. So a text can be cut there into parts that lex as they
    would whole (`parsers.validate`)."""
    stripped = _strip_comment(raw).strip()
    if not stripped:
        return BLANK
    lowered, _, value = _field(stripped)
    if lowered in _HEADER_KEYS:
        return HEADER
    if lowered in _CUT_KEYS and not _split_statements(value, 1, 1):
        return BLANK  # `cut:` alone: before hand 1 it adds no cut, after it, it is an error
    return OTHER


def lex_games(lines: Iterable[str], source: str | None, first: int = 1) -> Iterator[GameText]:
    """The games of a text's lines, each yielded (its result lines joined) as soon as the
    next game's header starts or the lines end: a long log is never held whole. `first`:
    the number of the first line (a part of a file, `parsers.validate`)."""
    game: GameText | None = None
    hand: HandText | None = None  # the game's last hand
    for number, raw in enumerate(lines, start=first):
        if number == 1 and raw.startswith("\ufeff"):
            raw = raw[1:]
        body = _strip_comment(raw).rstrip()
        stripped = body.lstrip()
        if not stripped:
            continue
        col = len(body) - len(stripped) + 1
        lowered, key, value = _field(stripped)
        if lowered in _HEADER_KEYS:
            if game is None or game.hands or game.cut:
                if game is not None:
                    yield game
                game = GameText(line=number)
                hand = None
            if lowered in game.header:
                raise NotationError(
                    f"the header gives {quoted(lowered)} twice "
                    f"(first on line {game.header[lowered][1]})",
                    number,
                    col,
                    source,
                )
            value_col = col + len(key) + 1 + (len(value) - len(value.lstrip()))
            game.header[lowered] = (value.strip(), number, value_col)
            continue
        if game is None:
            raise NotationError(
                "expected a header line such as 'players: Anna, Ben, Carla', "
                f"found {quoted(stripped)}",
                number,
                col,
                source,
            )
        # `hand\b` (any case) opens every hand line: the patterns run on those lines only.
        if stripped[:4].lower() == "hand":
            match = _HAND.match(stripped)
            if match is None and _HAND_WORD.match(stripped):
                raise NotationError(
                    f"expected 'hand N' or 'hand N, dealer NAME', found {quoted(stripped)}",
                    number,
                    col,
                    source,
                )
            if match is not None:
                hand = HandText(
                    _number(match.group(1), "a hand number", number, col, source),
                    match.group(2), number, col,
                )  # fmt: skip
                game.hands.append(hand)
                continue
        if lowered in _CUT_KEYS:
            if game.hands:
                what = "a cut for the first dealer" if lowered == "cut" else "the Jack deal"
                raise NotationError(f"{what} must come before hand 1", number, col, source)
            value_col = col + len(key) + 1
            game.cut.extend(_split_statements(value, number, value_col))
            continue
        if hand is None:
            raise NotationError(
                f"expected 'hand 1' before the first statement, found {quoted(stripped)}",
                number,
                col,
                source,
            )
        trick = None
        if stripped[0].isdigit():  # `\d` is a digit as isdigit says (and fewer)
            label = _TRICK_LABEL.match(stripped)
            if label is not None:
                trick = _number(label.group(1), "a trick number", number, col, source)
                col += label.end()
                stripped = stripped[label.end() :]
        statements = _split_statements(stripped, number, col, sums=True)
        if statements:
            statements[0].trick = trick
        elif trick is not None:
            raise NotationError(f"trick {trick}. is followed by nothing", number, col, source)
        hand.statements.extend(statements)
    if game is not None:
        yield game
