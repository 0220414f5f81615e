"""The notation's lexer: text to games of header fields, hands and statements.

It knows the shape of the text (headers, `hand N` lines, `3.` trick labels, statements
separated by commas, result lines joined), never a rule: `parsers._referee` turns the
statements into engine actions.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from kroeg.recorder.errors import (
    NotationError,
)
from kroeg.recorder.text import HEADER_KEYS, quoted

__all__ = ["GameText", "HandText", "Stmt", "join_results", "lex", "lex_games"]

_HAND = re.compile(r"hand\s+(\d+)\s*(?:[,(]?\s*dealer\s*:?\s*(.+?)\s*\)?)?\s*$", re.IGNORECASE)
_TRICK_LABEL = re.compile(r"(\d+)\.\s*")


# -- lexing ---------------------------------------------------------------------------------


@dataclass
class Stmt:
    """One statement with where it starts (1-based line and column)."""

    text: str
    line: int
    column: int
    trick: int | None = None  # a `3.` label in front of it


@dataclass
class HandText:
    number: int
    dealer: str | None
    line: int
    column: int
    statements: list[Stmt] = field(default_factory=list)


@dataclass
class GameText:
    header: dict[str, tuple[str, int, int]] = field(default_factory=dict)
    cut: list[Stmt] = field(default_factory=list)
    hands: list[HandText] = field(default_factory=list)
    line: int = 1


def _strip_comment(raw: str) -> str:
    cut = raw.find("#")
    return raw if cut < 0 else raw[:cut]


def _split_statements(body: str, line: int, start_col: int) -> Iterator[Stmt]:
    """Split a line's text on commas and semicolons, keeping each piece's column."""
    pos = 0
    for piece in body.replace(";", ",").split(","):  # same length: columns stay right
        stripped = piece.strip()
        if stripped:
            yield Stmt(stripped, line, start_col + pos + len(piece) - len(piece.lstrip()))
        pos += len(piece) + 1


def lex(text: str, source: str | None) -> list[GameText]:
    """Every game of a text, at once (`lex_games` reads them one by one)."""
    return list(lex_games(text.splitlines(), source))


def lex_games(lines: Iterable[str], source: str | None) -> Iterator[GameText]:
    """The games of a text's lines, each yielded (its result lines joined) as soon as the
    next game's header starts or the lines end: a long log is never held whole."""
    game: GameText | None = None
    for number, raw in enumerate(lines, start=1):
        if number == 1 and raw.startswith("\ufeff"):
            raw = raw[1:]
        body = _strip_comment(raw).rstrip()
        stripped = body.lstrip()
        if not stripped:
            continue
        col = len(body) - len(stripped) + 1
        key, colon, value = stripped.partition(":")
        lowered = key.strip().lower()
        if colon and lowered in HEADER_KEYS:
            if game is None or game.hands or game.cut:
                if game is not None:
                    join_results([game])
                    yield game
                game = GameText(line=number)
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
        match = _HAND.match(stripped)
        if re.match(r"hand\b", stripped, re.IGNORECASE) and match is None:
            raise NotationError(
                f"expected 'hand N' or 'hand N, dealer NAME', found {quoted(stripped)}",
                number,
                col,
                source,
            )
        if match is not None:
            game.hands.append(HandText(int(match.group(1)), match.group(2), number, col))
            continue
        if colon and lowered in ("cut", "jacks"):
            if game.hands:
                what = "a cut for the first dealer" if lowered == "cut" else "the Jack deal"
                raise NotationError(f"{what} must come before hand 1", number, col, source)
            value_col = col + len(key) + 1
            game.cut.extend(_split_statements(value, number, value_col))
            continue
        if not game.hands:
            raise NotationError(
                f"expected 'hand 1' before the first statement, found {quoted(stripped)}",
                number,
                col,
                source,
            )
        label = _TRICK_LABEL.match(stripped)
        trick = None
        if label is not None:
            trick = int(label.group(1))
            col += label.end()
            stripped = stripped[label.end() :]
        statements = list(_split_statements(stripped, number, col))
        if statements:
            statements[0].trick = trick
        elif trick is not None:
            raise NotationError(f"trick {trick}. is followed by nothing", number, col, source)
        game.hands[-1].statements.extend(statements)
    if game is not None:
        join_results([game])
        yield game


def join_results(games: list[GameText]) -> None:
    """`result:` and `score:` lines were split at their commas: join them back."""
    for game in games:
        for hand in game.hands:
            joined: list[Stmt] = []
            for stmt in hand.statements:
                lowered = stmt.text.lower()
                if (
                    joined
                    and joined[-1].text.lower().startswith(("result:", "score:"))
                    and (stmt.line == joined[-1].line)
                ):
                    joined[-1].text += " & " + stmt.text
                    continue
                if lowered.startswith(("result:", "score:")):
                    key, _, body = stmt.text.partition(":")
                    stmt = Stmt(f"{key}:{body}", stmt.line, stmt.column, stmt.trick)
                joined.append(stmt)
            hand.statements = joined
