"""The typed notation of docs/NOTATION.md: text <-> refereed games.

Like `json`: `loads`/`load` read, `dumps`/`dump` write, and
`loads(dumps(games)) == games`. Reading is strict by default; `parse(text,
on_error=collect)` keeps every good hand and collects the errors (parsers/reading.py).

Every rule is the engine's. Three modules do the work: `parsers._lexer` cuts
the text into headers, hands and statements; `parsers._referee` turns the
statements into engine actions; `parsers._writer` writes games back. Errors are
`NotationError`s carrying line and column; a rule broken is a
`NotationRuleError` whose message is the engine's.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import IO

from kroeg.parsers._io import lines, source_name
from kroeg.parsers._lexer import lex_games
from kroeg.parsers._referee import VERBS, Referee
from kroeg.parsers._writer import dump, dumps
from kroeg.parsers.reading import ErrorHook, Parsed, check_evening, raise_error
from kroeg.recorder.errors import NotationError, NotationRuleError
from kroeg.recorder.hill import HillReferee
from kroeg.recorder.records import GameRecord

__all__ = [
    "VERBS", "NotationRuleError", "Parsed", "dump", "dumps", "iterparse", "load", "loads", "parse",
]  # fmt: skip


def parse(text: str, *, on_error: ErrorHook = raise_error, source: str | None = None) -> Parsed:
    """Read every game in `text`, handing each error to `on_error`.

    The default raises the first error; `parsers.reading.collect` keeps every error
    in `Parsed.errors` and the good games (and good hands) in `Parsed.games`.
    """
    return Parsed.of(iterparse, text, on_error, source)


def iterparse(
    lines: Iterable[str],
    errors: list[NotationError],
    on_error: ErrorHook = raise_error,
    source: str | None = None,
    hill: HillReferee | None = None,
    first_line: int = 1,
) -> Iterator[GameRecord]:
    """Each game of a text's lines as soon as it is read and refereed; every error goes to
    `on_error` and then into `errors`. Memory follows one game, not the text: a file's
    lines (`parsers._io.lines`) are read as the games are asked for. A king-of-the-hill
    game is checked against the games before and after it on its evening (`hill`: the
    file's games, and an import's dataset's). `first_line`: the number of the first line
    (a part of a file, `parsers.validate`)."""
    found = False
    hill = HillReferee() if hill is None else hill
    try:
        for game in lex_games(lines, source, first_line):
            found = True
            referee = Referee(game, source, on_error)
            try:
                record = referee.run()
                if record is not None:
                    check_evening(hill, record, game.line, source)
            except NotationError as error:
                errors.extend(referee.errors)
                on_error(error)
                errors.append(error)
                continue
            errors.extend(referee.errors)
            if record is not None:
                yield record
    except NotationError as error:  # the text cannot be cut into games from here on
        on_error(error)
        errors.append(error)
        return
    if not found:
        empty = NotationError(
            "no game found: expected a header such as 'players: Anna, Ben, Carla'", 1, 1, source
        )
        on_error(empty)
        errors.append(empty)


def loads(text: str, source: str | None = None) -> list[GameRecord]:
    """Read the games in `text`, strictly: the first error raises NotationError."""
    return parse(text, source=source).games


def load(file: str | Path | IO[str]) -> list[GameRecord]:
    """Read the games in a file (a path or an open text file), strictly."""
    return list(iterparse(lines(file), [], source=source_name(file)))
