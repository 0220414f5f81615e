"""What both readers share: the error policy, the result, and the header of a game.

**Errors, the python-chess way.** A reader calls `on_error(error)` wherever it finds
one. The default hook, `raise_error`, raises it (strict). `collect` returns instead:
the reader keeps the error in `Parsed.errors` and goes on with the next hand or game
(lenient). A caller may pass a hook of its own, e.g. one that logs and stops after ten.

**Headers.** The notation's `players: …` lines and a JSON Lines header object carry
the same facts; `read_header` checks them once for both, with the same rules for
names, rule sets and dates (a date without a zone is UTC; one with a zone is stored
in UTC).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from kroeg.recorder.errors import IllegalActionError, NotationError, NotationRuleError, RulesError
from kroeg.recorder.hill import HillReferee, evening_problem
from kroeg.recorder.records import GameRecord
from kroeg.recorder.referee import new_game
from kroeg.recorder.rules import Ruleset
from kroeg.recorder.text import HEADER_KEYS, names_problem, quoted, text_problem

__all__ = [
    "HEADER_KEYS",
    "ErrorHook",
    "Header",
    "Parsed",
    "check_evening",
    "collect",
    "raise_error",
    "read_header",
]

#: What a reader does with an error it found: raise it, or return to carry on.
ErrorHook = Callable[[NotationError], None]


def raise_error(error: NotationError) -> None:
    """Strict: the first error ends the reading."""
    raise error


def collect(error: NotationError) -> None:
    """Lenient: the reader keeps the error in `Parsed.errors` and carries on."""


@dataclass
class Parsed:
    """What a reader found: the games that passed the referee, and the errors."""

    games: list[GameRecord] = field(default_factory=list)
    errors: list[NotationError] = field(default_factory=list)

    @classmethod
    def of(
        cls,
        iterparse: Callable[
            [Iterable[str], list[NotationError], ErrorHook, str | None], Iterable[GameRecord]
        ],
        text: str,
        on_error: ErrorHook,
        source: str | None,
    ) -> Parsed:
        """Every game of `text` read by a format's `iterparse`, and its errors: what each
        format's `parse` returns."""
        result = cls()
        result.games.extend(iterparse(text.splitlines(), result.errors, on_error, source))
        return result


def check_evening(hill: HillReferee, record: GameRecord, line: int, source: str | None) -> None:
    """Raise NotationRuleError at the game's header `line` if the game breaks its
    evening's rule (recorder.hill: the king-of-the-hill rotation), as the engine says it."""
    try:
        hill.check(record)
    except IllegalActionError as exc:
        raise NotationRuleError(str(exc), line, 1, source) from None


_GAME_ID = re.compile(r"[A-Za-z0-9_.\-]{1,64}")

#: A header field: its value, and where it stands (line, column; column None if unknown).
Field = tuple[Any, int, int | None]


@dataclass(frozen=True)
class Header:
    """A game's header, checked."""

    rules: Ruleset
    players: tuple[str, ...]
    started_at: datetime | None = None
    venue: str | None = None
    game_id: str | None = None
    source: str | None = None
    seed: int | None = None
    ruleset: str | None = None
    #: The evening the game was declared part of (`king-of-the-hill`, recorder.hill).
    evening: str | None = None


def read_header(
    fields: Mapping[str, Field], where: tuple[int, int | None], source: str | None
) -> Header:
    """Check a game's header fields; raise NotationError at the field that is wrong.

    `where` is the header's own line and column, for what it lacks.
    """
    line = where[0]

    def fail(message: str, at: Field | None = None) -> NotationError:
        line_col = where if at is None else (at[1], at[2])
        return NotationError(message, line_col[0], line_col[1], source)

    if "players" not in fields:
        raise fail("the header has no 'players:' line")
    players = fields["players"]
    value = players[0]
    if isinstance(value, str):
        names = tuple(n.strip() for n in value.split(","))
        if any(not n for n in names):
            raise fail(f"expected player names separated by commas, found {quoted(value)}", players)
    elif isinstance(value, list) and all(isinstance(n, str) for n in value):
        names = tuple(value)
    else:
        raise fail("'players' must be a list of names", players)
    problem = _names_problem(names)
    if problem is not None:
        raise fail(problem, players)
    rules = _rules(fields, line, fail)
    problem = _table_problem(rules, names)
    if problem is not None:
        raise fail(problem, players)
    return Header(
        rules=rules,
        players=names,
        started_at=_date(fields.get("date"), fail),
        venue=_text(fields.get("venue"), fail, "the venue"),
        game_id=_game_id(fields.get("game"), fail),
        source=_text(fields.get("source"), fail, "the source"),
        seed=_seed(fields.get("seed"), fail),
        ruleset=_text(fields.get("ruleset"), fail, "the rule set's name"),
        evening=_evening(fields.get("evening"), rules, fail),
    )


#: `names_problem` of a game's names, kept: the games of a log mostly sit the same players.
_names_problem = functools.lru_cache(maxsize=256)(names_problem)


@functools.lru_cache(maxsize=256)
def _table_problem(rules: Ruleset, names: tuple[str, ...]) -> str | None:
    """What the rules say against seating `names` (the engine's word), or None; kept
    as `_names_problem` is."""
    try:
        new_game(rules, names)
    except IllegalActionError as exc:
        return str(exc)
    return None


def _evening(at: Field | None, rules: Ruleset, fail: _Fail) -> str | None:
    text = _text(at, fail, "the evening")
    if text is None:
        return None
    evening = text.strip().lower()
    problem = evening_problem(evening, rules)  # the rule's home says what an evening is
    if problem is not None:
        raise fail(problem, at)
    return evening


_Fail = Callable[[str, Field | None], NotationError]


def _rules(fields: Mapping[str, Field], line: int, fail: _Fail) -> Ruleset:
    at = fields.get("rules", ("classic", line, None))
    value = at[0]
    try:
        if isinstance(value, dict):
            rules = _rules_from_dict(value)
        elif isinstance(value, str) and value.lstrip().startswith("{"):
            rules = Ruleset.from_json(value)
        elif isinstance(value, str):
            rules = Ruleset.preset(value.strip().lower())
        else:
            raise RulesError(f"'rules' must be an object or a preset name, found {quoted(value)}")
    except RulesError as exc:
        raise fail(str(exc), at) from None
    if "variants" in fields:
        vat = fields["variants"]
        raw = vat[0]
        variants = raw.split(",") if isinstance(raw, str) else raw
        if not isinstance(variants, list) or not all(isinstance(v, str) for v in variants):
            raise fail("'variants' must be a list of variant names", vat)
        try:
            rules = rules.with_variants(*(v.strip() for v in variants if v.strip()))
        except RulesError as exc:
            raise fail(str(exc), vat) from None
    return rules


#: Rule sets read from a header's object, by the object's repr: the games of a log mostly
#: share one rule set, and reading it costs more than the rest of the header (35 µs). The
#: values come from JSON (dicts, lists, text, numbers, true/false/null), so equal reprs
#: are equal objects, which read as equal rule sets. Errors are not kept: each is raised.
_RULES_READ: dict[str, Ruleset] = {}
_RULES_READ_MAX = 256


def _rules_from_dict(value: dict[str, Any]) -> Ruleset:
    """`Ruleset.from_dict(value)`, kept for the next header with the same object."""
    try:
        key = repr(value)
    except RecursionError:  # nested too deep to write: from_dict says what is wrong
        return Ruleset.from_dict(value)
    rules = _RULES_READ.get(key)
    if rules is None:
        rules = Ruleset.from_dict(value)
        if len(_RULES_READ) >= _RULES_READ_MAX:
            _RULES_READ.clear()
        _RULES_READ[key] = rules
    return rules


def _date(at: Field | None, fail: _Fail) -> datetime | None:
    if at is None or at[0] is None:
        return None
    try:
        when = datetime.fromisoformat(str(at[0]))
    except ValueError:
        raise fail(
            f"expected a date like 2026-11-27 or 2026-11-27 20:30, found {quoted(at[0])}", at
        ) from None
    return when.replace(tzinfo=UTC) if when.tzinfo is None else when.astimezone(UTC)


def _text(at: Field | None, fail: _Fail, label: str = "the text") -> str | None:
    if at is None or at[0] is None:
        return None
    if not isinstance(at[0], str):
        raise fail(f"expected text, found {quoted(at[0])}", at)
    problem = text_problem(label, at[0])  # every free text of a header is bounded
    if problem is not None:
        raise fail(problem, at)
    return at[0] or None


def _game_id(at: Field | None, fail: _Fail) -> str | None:
    text = _text(at, fail)
    if text is not None and not _GAME_ID.fullmatch(text):
        raise fail(f"a game id is letters, digits, '-', '_' or '.', found {quoted(text)}", at)
    return text


#: The largest seed the `games` table's `seed` column (int64, docs/FORMAT.md) holds.
MAX_SEED = 2**63 - 1


def _seed(at: Field | None, fail: _Fail) -> int | None:
    if at is None or at[0] is None:
        return None
    value = at[0]
    text = value.strip() if isinstance(value, str) else None
    if isinstance(value, int) and not isinstance(value, bool):
        seed = value
    elif text is not None and text.isascii() and text.isdigit():
        # more digits than the column's largest is out of range, however many there are
        seed = int(text) if len(text) <= len(str(MAX_SEED)) else MAX_SEED + 1
    else:
        raise fail(f"expected a whole number, found {quoted(value)}", at)
    if not 0 <= seed <= MAX_SEED:
        raise fail(f"a seed is a whole number from 0 to {MAX_SEED}, found {quoted(value)}", at)
    return seed
