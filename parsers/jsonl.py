"""JSON Lines: one event per line, keyed by FORMAT.md's columns, after a header line per game.

    {"game_id": "g1", "game_type": "toepen", "ruleset": "classic", "rules": {...},
     "players": ["Anna", "Ben", "Carla", "Dan"], "started_at": "2026-11-27T20:30:00+00:00",
     "venue": null, "source": "engine", "seed": 7, "teams": null, "format_version": 1}
    {"game_id": "g1", "hand": 1, "seq": 0, "kind": "hand_start", "seat": 3, "card": null,
     "amount": 1, "target": null}
    ...

A header line is recognised by its `players` key, an event line by its `kind`.
`rules` may be a JSON object or the JSON text the `games` table stores. Every
game is replayed through the engine; an error names the line (and, for bad
JSON, the column). Like `json`: `loads`/`load`/`dumps`/`dump`.
"""

from __future__ import annotations

import importlib
import json
import os
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import IO, Any

from kroeg.parsers._io import lines, source_name, write_text
from kroeg.parsers.reading import ErrorHook, Parsed, check_evening, raise_error, read_header
from kroeg.recorder.errors import (
    IllegalActionError,
    KroegError,
    NotationError,
    NotationRuleError,
)
from kroeg.recorder.events import HAND_OPENERS, Event, event_from_row, number_events
from kroeg.recorder.hill import HillReferee
from kroeg.recorder.records import FORMAT_VERSION, GameRecord
from kroeg.recorder.referee import Replay
from kroeg.recorder.rules import Ruleset
from kroeg.recorder.text import quoted

__all__ = ["NO_GAME", "dump", "dumps", "is_header", "iterparse", "load", "loads", "parse"]

#: JSON Lines header keys by their name in the shared header reader.
_HEADER_NAMES = {"started_at": "date", "game_id": "game"}
_EVENT_KEYS = ("game_id", "hand", "seq", "kind", "seat", "card", "amount", "target")
#: json.loads without its wrapping, for a line that is one object and nothing else; any
#: other line (and any error) goes to json.loads itself, which says what is wrong.
_SCAN: Callable[[str, int], tuple[Any, int]]
_SCAN = json.JSONDecoder().scan_once  # type: ignore[attr-defined]
#: The events already built, by their row: a log repeats few rows (the same card dealt,
#: the same pay), and an event is a frozen value, so equal rows share one.
_EVENTS: dict[tuple[object, ...], Event] = {}
_EVENTS_MAX = 1 << 16
_PLAIN = frozenset((int, str, type(None)))  # not bool, not float: `int` reads them otherwise
#: What a text without a game (and without any error) is told.
NO_GAME = "no game found: expected a header line with 'players'"


def _load_scanner() -> Callable[[str], tuple[Any, ...] | None] | None:
    """The C line scanner's `event_row` (`_linescan.c`: an event line of the written shape
    as a tuple of its values, exactly json's, or None for any other line); None where it
    was not built (or KROEG_PURE_PYTHON=1 says not to): every line then goes to json."""
    if os.environ.get("KROEG_PURE_PYTHON") == "1":
        return None
    try:
        scanner = importlib.import_module("kroeg.parsers._linescan")
    except ImportError:
        return None
    return scanner.event_row  # type: ignore[no-any-return]


_EVENT_ROW = _load_scanner()


def _event(kind: Any, seat: Any, card: Any, amount: Any, target: Any) -> Event:
    """event_from_row's event for a row (and its errors), built once for rows of plain
    values."""
    plain = _PLAIN
    if not (
        type(kind) in plain
        and type(seat) in plain
        and type(card) in plain
        and type(amount) in plain
        and type(target) in plain
    ):
        return event_from_row(kind, seat, card, amount, target)
    return _plain_event(kind, seat, card, amount, target)


def _plain_event(kind: Any, seat: Any, card: Any, amount: Any, target: Any) -> Event:
    """`_event` for values known to be plain (str, int or None)."""
    key = (kind, seat, card, amount, target)
    event = _EVENTS.get(key)
    if event is None:
        event = event_from_row(kind, seat, card, amount, target)
        if len(_EVENTS) >= _EVENTS_MAX:  # a flood of distinct rows is not kept
            _EVENTS.clear()
        _EVENTS[key] = event
    return event


def is_header(raw: str) -> bool:
    """Whether `iterparse` takes a line for a game's header line, whatever comes before
    it: a JSON object with `players`. It closes the game before it and opens another, so
    a file can be cut there (`parsers.validate`)."""
    try:
        row = _loads(raw)
    except Exception:  # not JSON: an error at that line, not a header
        return False
    return isinstance(row, dict) and "players" in row


def _loads(raw: str) -> Any:
    """json.loads(raw), the same value and the same errors, sooner for an object alone."""
    if raw[:1] == "{":
        try:
            value, end = _SCAN(raw, 0)
        except Exception:  # json.loads below raises it the way it always did
            return json.loads(raw)
        if end == len(raw):
            return value
    return json.loads(raw)


class _Game:
    def __init__(self, header: dict[str, Any], line: int, source: str | None) -> None:
        self.line = line
        self.source = source
        self.failed: NotationError | None = None
        # The same header reader as the notation's: one set of rules for every door.
        fields = {_HEADER_NAMES.get(k, k): (v, line, None) for k, v in header.items()}
        head = read_header(fields, (line, None), source)
        if head.game_id is None:
            raise NotationError("'game_id' must be a non-empty string", line, None, source)
        self.game_id = head.game_id
        self.rules, self.players = head.rules, head.players
        self.started_at, self.venue, self.seed = head.started_at, head.venue, head.seed
        self.source_name = head.source or "jsonl"
        self.ruleset = head.ruleset or self.rules.name
        self.evening = head.evening
        try:
            self.replay = Replay(self.rules, self.players)
        except IllegalActionError as exc:
            raise NotationError(str(exc), line, None, source) from None
        self.hand, self.seq = 0, 0

    def feed(self, row: dict[str, Any], line: int) -> None:
        """Replay an event line read as a dict (by json)."""
        self._check_game(row.get("game_id"), line)
        try:  # each key read once (a check of the keys first cost 8 % of a line)
            kind, hand, seq = row["kind"], row["hand"], row["seq"]
            seat, card, amount, target = row["seat"], row["card"], row["amount"], row["target"]
        except KeyError:
            missing = [k for k in _EVENT_KEYS if k not in row]
            raise NotationError(
                f"event line lacks {', '.join(missing)}", line, None, self.source
            ) from None
        self._feed(hand, seq, kind, seat, card, amount, target, False, line)

    def feed_row(self, row: tuple[Any, ...], line: int) -> None:
        """Replay an event line read by the line scanner: `_EVENT_KEYS`' values in order,
        each a str, an int or None (what `feed` does with the same line read by json)."""
        game_id, hand, seq, kind, seat, card, amount, target = row
        if game_id != self.game_id:
            self._check_game(game_id, line)
        self._feed(hand, seq, kind, seat, card, amount, target, True, line)

    def _check_game(self, game_id: Any, line: int) -> None:
        """Raise where an event line names another game than the header's."""
        if game_id != self.game_id:
            raise NotationError(
                f"event of game {quoted(game_id)} inside game {quoted(self.game_id)} "
                "(each game's events follow its header line)",
                line,
                None,
                self.source,
            )

    def _feed(
        self,
        hand: Any,
        seq: Any,
        kind: Any,
        seat: Any,
        card: Any,
        amount: Any,
        target: Any,
        plain: bool,
        line: int,
    ) -> None:
        """Check an event's place in the game, build it and replay it; `plain`: its values
        are known to be str, int or None."""
        if kind in HAND_OPENERS:
            self.hand, self.seq = self.hand + 1, 0
        if (hand, seq) != (self.hand, self.seq):
            raise NotationError(
                f"expected hand {self.hand} seq {self.seq}, found hand {quoted(hand)} "
                f"seq {quoted(seq)}",
                line,
                None,
                self.source,
            )
        self.seq += 1
        try:
            build = _plain_event if plain else _event
            event = build(kind, seat, card, amount, target)
        except (KroegError, ValueError, TypeError) as exc:
            raise NotationError(
                f"bad {quoted(kind)} event: {exc}", line, None, self.source
            ) from None
        try:
            self.replay.feed(event)
        except IllegalActionError as exc:
            raise NotationRuleError(str(exc), line, None, self.source) from None

    def record(self, end_line: int) -> GameRecord:
        try:
            game = self.replay.finish()
        except IllegalActionError as exc:
            raise NotationRuleError(str(exc), end_line, None, self.source) from None
        return GameRecord(
            game_id=self.game_id,
            rules=self.rules,
            players=self.players,
            events=tuple(game.log),
            source=self.source_name,
            started_at=self.started_at,
            venue=self.venue,
            seed=self.seed,
            ruleset=self.ruleset,
            evening=self.evening,
        )


def parse(text: str, *, on_error: ErrorHook = raise_error, source: str | None = None) -> Parsed:
    """Read every game, handing each error to `on_error` (default: raise it).

    With `parsers.reading.collect` a bad game is skipped and the others are kept.
    """
    return Parsed.of(iterparse, text, on_error, source)


def iterparse(
    lines: Iterable[str],
    errors: list[NotationError],
    on_error: ErrorHook = raise_error,
    source: str | None = None,
    hill: HillReferee | None = None,
    first_line: int = 1,
    whole: bool = True,
) -> Iterator[GameRecord]:
    """Each game as soon as its last event is read and replayed; every error goes to
    `on_error` and then into `errors`. Memory follows one game, not the file. A
    king-of-the-hill game is checked against its evening's others (`hill`, as in
    `notation.iterparse`). `first_line`: the number of the first line (a part of a file,
    `parsers.validate`); `whole`: the lines are the whole text, so a text without any
    game or error is one (`NO_GAME`)."""
    hill = HillReferee() if hill is None else hill
    current: _Game | None = None
    skipping = False  # the last header was bad (and the hook carried on): skip its events
    last_line = 0
    found = False

    def report(error: NotationError) -> None:
        on_error(error)
        errors.append(error)

    def close(game: _Game | None, end_line: int) -> GameRecord | None:
        if game is None or game.failed is not None:
            return None
        try:
            record = game.record(end_line)
            check_evening(hill, record, game.line, source)
            return record
        except NotationError as error:
            report(error)
            return None

    numbered = enumerate(lines, start=first_line)
    scan = _EVENT_ROW
    while True:
        try:
            number, raw = next(numbered)
        except StopIteration:
            break
        except NotationError as error:  # the file cannot be read from here on
            report(error)
            current = None
            break
        last_line = number
        if number == 1 and raw.startswith("\ufeff"):
            raw = raw[1:]
        # An event line of the written shape, read without a dict (`_load_scanner`);
        # None for any other line, which json reads.
        fast = scan(raw) if scan is not None else None
        try:
            row: dict[str, Any] | None = None
            if fast is None:
                if not raw.strip():
                    continue
                try:
                    value = _loads(raw)
                except json.JSONDecodeError as exc:
                    raise NotationError(f"not JSON: {exc.msg}", number, exc.colno, source) from None
                except RecursionError:
                    raise NotationError("the JSON nests too deeply", number, 1, source) from None
                except ValueError as exc:  # a number of more digits than Python converts
                    raise NotationError(
                        f"not JSON: {quoted(str(exc))}", number, 1, source
                    ) from None
                if not isinstance(value, dict):
                    raise NotationError(
                        f"expected a JSON object, found {type(value).__name__}", number, 1, source
                    )
                row = value
                if "players" in row:
                    done = close(current, number - 1)
                    current = None
                    if done is not None:
                        found = True
                        yield done
                    skipping = True
                    current = _Game(row, number, source)
                    skipping = False
                    continue
                if "kind" not in row:
                    raise NotationError(
                        "expected a game header (with 'players') or an event (with 'kind')",
                        number,
                        None,
                        source,
                    )
            if skipping:
                continue
            if current is None:
                raise NotationError(
                    "an event comes before any game header line", number, None, source
                )
            if current.failed is None:
                if fast is not None:
                    current.feed_row(fast, number)
                elif row is not None:
                    current.feed(row, number)
        except NotationError as error:
            report(error)
            if current is not None:
                current.failed = error
    done = close(current, last_line)
    if done is not None:
        found = True
        yield done
    if whole and not found and not errors:
        report(NotationError(NO_GAME, 1, 1, source))


def loads(text: str, source: str | None = None) -> list[GameRecord]:
    """Read the games in JSON Lines text, strictly."""
    return parse(text, source=source).games


def load(file: str | Path | IO[str]) -> list[GameRecord]:
    """Read the games in a file (a path or an open text file), strictly."""
    return list(iterparse(lines(file), [], source=source_name(file)))


#: Each distinct event's part of its line (`"kind": …, "target": …}`), by identity: the
#: engine and the readers share one object per distinct event, so a game's few hundred
#: are encoded once, not once per line. Each is kept alive beside its text (no id is
#: reused while remembered); the whole is forgotten past `_TAILS_LIMIT`.
_TAILS: dict[int, tuple[Event, str]] = {}
_TAILS_LIMIT = 200_000


def _tail(event: Event) -> str:
    known = _TAILS.get(id(event))
    if known is None:
        if len(_TAILS) > _TAILS_LIMIT:
            _TAILS.clear()
        row = dict(zip(_EVENT_KEYS[3:], event.to_row(), strict=True))
        known = _TAILS[id(event)] = (event, json.dumps(row, ensure_ascii=False)[1:])
    return known[1]


#: Each rule set's JSON, by the rules: `to_dict` is most of the cost of a header line.
_RULES_JSON: dict[Ruleset, str] = {}


def _header(r: GameRecord) -> str:
    """A game's header line: `json.dumps` of its header object, the rules' part encoded
    once per rule set (`json.dumps` writes a nested object the same alone)."""
    rules = _RULES_JSON.get(r.rules)
    if rules is None:
        if len(_RULES_JSON) > 4096:
            _RULES_JSON.clear()
        rules = _RULES_JSON[r.rules] = json.dumps(r.rules.to_dict(), ensure_ascii=False)
    first = {"game_id": r.game_id, "game_type": r.game_type, "ruleset": r.ruleset}
    rest = {
        "players": list(r.players),
        "teams": None if r.teams is None else list(r.teams),
        "started_at": None if r.started_at is None else r.started_at.isoformat(),
        "venue": r.venue,
        "source": r.source,
        "seed": r.seed,
        "format_version": FORMAT_VERSION,
    }
    if r.evening is not None:  # added (docs/FORMAT.md): written only where there is one
        rest["evening"] = r.evening
    return (
        json.dumps(first, ensure_ascii=False)[:-1]
        + f', "rules": {rules}, '
        + json.dumps(rest, ensure_ascii=False)[1:]
    )


def dumps(games: GameRecord | Iterable[GameRecord]) -> str:
    """JSON Lines for one game or several: a header line, then one line per event (each
    the JSON object of `_EVENT_KEYS`, written as `json.dumps` writes it)."""
    records = [games] if isinstance(games, GameRecord) else list(games)
    lines = []
    for r in records:
        lines.append(_header(r))
        game = json.dumps(r.game_id, ensure_ascii=False)
        for hand, seq, event in number_events(r.events):
            lines.append(f'{{"game_id": {game}, "hand": {hand}, "seq": {seq}, {_tail(event)}')
    return "\n".join(lines) + "\n"


def dump(games: GameRecord | Iterable[GameRecord], file: str | Path | IO[str]) -> None:
    """Write JSON Lines for one game or several to a path or an open text file."""
    write_text(dumps(games), file)
