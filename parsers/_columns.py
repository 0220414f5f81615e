"""Games written straight from the events table's columns: the text `notation.dumps` and
`jsonl.dumps` give for the same games, without an event object per row (`kroeg export`).

A row group holds a few thousand distinct rows (the same card dealt to the same seat,
the same pay) among hundreds of thousands. Each distinct row is found in bulk (its five
payload columns packed into one integer), read as an event once by `event_from_row` (so a
bad row is refused as every reader refuses it) and turned back into its row by `to_row`:
what is written is what that event writes. JSON Lines are then put together column by
column in Arrow; the notation walks each game's rows in a loop of plain values.

Both are checked against `notation.dumps` and `jsonl.dumps` of the games read back
(tests/parsers/test_export.py); the notation's writing is `_rows.text`, the same for one
game (`notation.dumps`) as here.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any, Literal, NamedTuple

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from kroeg.parsers import jsonl, notation
from kroeg.parsers._rows import plain_row
from kroeg.parsers._rows import text as notation_of
from kroeg.recorder import columns
from kroeg.recorder.events import HAND_OPENERS, event_from_row
from kroeg.recorder.store import _record_from_row, records_from_tables, table_rows

__all__ = ["Prepared", "render"]

_JSON_KEYS = ("kind", "seat", "card", "amount", "target")


def render(
    games: pa.Table, events: pa.Table, fmt: Literal["text", "jsonl"]
) -> Iterator[tuple[str, str, int]]:
    """(game_id, text, hands) of each game of `games` with its rows of `events` (whole
    games, sorted by game_id, hand, seq, as `Dataset.game_groups` gives them): the text
    is `notation.dumps` or `jsonl.dumps` of the game."""
    return Prepared(games, events, fmt).texts()


class Prepared:
    """A row group made ready to write: its games read, its distinct rows found, its JSON
    Lines joined. Most of this is Arrow's and numpy's work, which lets other threads
    run: an export prepares the next row group while it writes this one."""

    def __init__(self, games: pa.Table, events: pa.Table, fmt: Literal["text", "jsonl"]):
        self.fmt = fmt
        self.games, self.events = games, events
        self.records = {row["game_id"]: _record_from_row(row, ()) for row in table_rows(games)}
        self.rows = _distinct(events)
        self.lines: _Lines | None = None
        if self.rows is not None and fmt == "jsonl" and events.num_rows:
            self.lines = _jsonl_lines(events, self.rows)

    def texts(self) -> Iterator[tuple[str, str, int]]:
        """(game_id, text, hands) of each game."""
        fmt, records, rows = self.fmt, self.records, self.rows
        if rows is None:  # columns too varied to pack: one event object per row, as ever
            dump = notation.dumps if fmt == "text" else jsonl.dumps
            for record in records_from_tables(self.games, self.events):
                yield record.game_id, dump(record), record.hands
            return
        ids, starts, inverse, distinct = rows
        done = set()
        if self.lines is not None:
            data, bounds, hands = self.lines
            for k, game_id in enumerate(ids):
                game = records.get(game_id)
                if game is None:
                    continue
                done.add(game_id)
                lines = str(data[bounds[k] : bounds[k + 1]], "utf-8")
                yield game_id, jsonl._header(game) + "\n" + lines, hands[k]
        elif fmt == "text":
            # Each row's plain row, taken by numpy: a list of references, not of indices
            # (868,000 int objects for 20,000 hands).
            plain = np.empty(len(distinct), dtype=object)
            plain[:] = [plain_row(row) for row in distinct]
            table = plain[inverse].tolist()
            bounds = starts.tolist()
            for k, game_id in enumerate(ids):
                held = records.get(game_id)
                if held is None:
                    continue
                done.add(game_id)
                text, count = notation_of(held, table, bounds[k], bounds[k + 1])
                yield game_id, text, count
        for game_id, record in records.items():  # listed without events: the header alone
            if game_id not in done:
                if fmt == "jsonl":
                    yield game_id, jsonl.dumps(record), 0
                else:
                    yield game_id, notation_of(record, [], 0, 0)[0], 0


def _codes(column: pa.ChunkedArray | pa.Array) -> tuple[np.ndarray, list[Any]]:
    """A string column as (an index per row, the distinct values)."""
    if isinstance(column, pa.ChunkedArray):
        column = column.unify_dictionaries() if pa.types.is_dictionary(column.type) else column
        column = column.combine_chunks()
    if not pa.types.is_dictionary(column.type):
        column = pc.dictionary_encode(column)
    indices = column.indices
    if indices.null_count:  # NULL: one past the dictionary
        indices = pc.fill_null(indices, len(column.dictionary))
    codes: np.ndarray = indices.to_numpy(zero_copy_only=False)
    return codes, [*column.dictionary.to_pylist(), None]


def _ints(column: pa.ChunkedArray, offset: int) -> np.ndarray:
    """An integer column as non-negative integers: the value plus `offset`, NULL as 0."""
    values: np.ndarray = pc.fill_null(column, 0).to_numpy().astype(np.int64) + offset
    if column.null_count:
        values[pc.is_null(column).to_numpy(zero_copy_only=False)] = 0
    return values


class _Distinct(NamedTuple):
    """A row group's games and rows: the games' ids in row order, where each starts (and
    the end), each row's index among the distinct rows, and the distinct rows as
    `to_row` writes them."""

    ids: list[str]
    starts: np.ndarray
    inverse: np.ndarray
    distinct: list[tuple[Any, ...]]


def _distinct(events: pa.Table) -> _Distinct | None:
    """The games and distinct rows of `events`; None where the columns are too varied to
    pack in one integer."""
    n = events.num_rows
    game, game_words = _codes(events.column("game_id"))
    kind, kind_words = _codes(events.column("kind"))
    card, card_words = _codes(events.column("card"))
    if len(kind_words) >= 1 << 12 or len(card_words) >= 1 << 12:
        return None
    # seat, target: int8 (9 bits with NULL); amount: int16 (17 bits); 12 + 12 + 35 < 63.
    key = kind.astype(np.int64)
    key = (key << 9) | _ints(events.column("seat"), 129)
    key = (key << 12) | card.astype(np.int64)
    key = (key << 17) | _ints(events.column("amount"), 32769)
    key = (key << 9) | _ints(events.column("target"), 129)
    # By hashing, not sorting (np.unique): 0.03 s against 0.13 s for 868,000 rows.
    packed = pa.array(key)
    keys = pc.unique(packed)
    inverse = pc.index_in(packed, value_set=keys).to_numpy()
    distinct = []
    for value in keys.to_pylist():
        target, value = value & 511, value >> 9
        amount, value = value & 131071, value >> 17
        card_index, value = value & 4095, value >> 12
        seat, kind_index = value & 511, value >> 9
        row = (
            kind_words[kind_index],
            None if seat == 0 else seat - 129,
            card_words[card_index],
            None if amount == 0 else amount - 32769,
            None if target == 0 else target - 129,
        )
        distinct.append(event_from_row(*row).to_row())
    if n:
        starts = np.flatnonzero(game[1:] != game[:-1]) + 1
        starts = np.concatenate(([0], starts, [n]))
        ids = [game_words[i] for i in game[starts[:-1]].tolist()]
    else:
        starts, ids = np.zeros(1, np.int64), []
    return _Distinct(ids, starts, inverse.reshape(-1), distinct)


def _firsts(starts: np.ndarray, n: int) -> np.ndarray:
    """Whether each of `n` rows is its game's first."""
    first = np.zeros(n, dtype=bool)
    first[starts[:-1]] = True
    return first


#: A row group's JSON Lines: the text of all its event lines, where each game's begin
#: (and the end), and each game's hands.
_Lines = tuple[memoryview, list[int], list[int]]


def _jsonl_lines(events: pa.Table, rows: _Distinct) -> _Lines:
    """The event lines of every game (`jsonl.dumps` without the header), built column by
    column."""
    n = events.num_rows
    ids, starts, inverse, distinct = rows
    tails = [
        json.dumps(dict(zip(_JSON_KEYS, row, strict=True)), ensure_ascii=False)[1:] + "\n"
        for row in distinct
    ]
    opening = np.array([row[0] in HAND_OPENERS for row in distinct], dtype=bool)[inverse]
    hand, seq, game_of = columns.hands_and_seqs(opening, np.diff(starts))
    # A line is its (game, hand)'s opening and its (seq, row)'s rest: a few tens of
    # thousands of each, written once in Python, then joined row by row in Arrow.
    segment = np.cumsum(opening | _firsts(starts, n)) - 1
    firsts = np.flatnonzero(np.diff(segment, prepend=-1))
    games = [json.dumps(g, ensure_ascii=False) for g in ids]
    openings = pa.array(
        [
            f'{{"game_id": {games[g]}, "hand": {h}, "seq": '
            for g, h in zip(game_of[firsts].tolist(), hand[firsts].tolist(), strict=True)
        ]
    )
    packed = pa.array(seq.astype(np.int64) * len(distinct) + inverse)
    pairs = pc.unique(packed)
    rests = pa.array(
        [f"{p // len(distinct)}, {tails[p % len(distinct)]}" for p in pairs.to_pylist()]
    )
    lines = pc.binary_join_element_wise(
        openings.take(pa.array(segment)),
        rests.take(pc.index_in(packed, value_set=pairs)),
        "",
    )
    offsets = np.frombuffer(lines.buffers()[1], np.int32, n + 1, lines.offset * 4)
    data = memoryview(lines.buffers()[2])
    hands = np.add.reduceat(opening, starts[:-1]).tolist()
    return data, offsets[starts].tolist(), hands
