"""Arrow columns built from integer buffers and plain values, without pyarrow's
conversion of Python objects.

`pa.array` on a list (or a numpy array) first asks whether it was given a pandas object,
and the question imports pandas: 0.2 s of every command that writes (measured: `import
pandas` after pyarrow and numpy, 0.20 s). Here every column is laid out in its buffers
(values, offsets, a validity bitmap) with numpy and handed to Arrow as they are, which
is also how `events_to_table` turns millions of events into columns in a fraction of a
second. (`kroeg export`, which reads, tells pyarrow instead that pandas is absent:
`parsers.export.skip_pandas_lookup`; a write builds no Python values for pyarrow to ask
about.) Each builder gives the same array `pa.array` gives for the same values
(tests/recorder/test_columns.py holds them to it).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

__all__ = ["hands_and_seqs", "integers", "lists", "strings", "timestamps", "words"]

_NUMPY_TYPES: dict[pa.DataType, type[np.signedinteger[Any]]] = {
    pa.int8(): np.int8,
    pa.int16(): np.int16,
    pa.int32(): np.int32,
    pa.int64(): np.int64,
}
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_MICROSECOND = timedelta(microseconds=1)


def _given(values: Sequence[object]) -> np.ndarray:
    """Which of `values` are not None, as a boolean array."""
    return np.fromiter((v is not None for v in values), bool, len(values))


def _validity(valid: np.ndarray | None) -> pa.Buffer | None:
    """Arrow's validity bitmap (least significant bit first); None where all are valid."""
    if valid is None or bool(valid.all()):
        return None
    return pa.py_buffer(np.packbits(valid, bitorder="little"))


def integers(
    values: np.ndarray,
    kind: pa.DataType,
    null: int | None = None,
    valid: np.ndarray | None = None,
) -> pa.Array:
    """`values` as an Arrow integer array of type `kind`: NULL where a value equals
    `null` (a value out of `kind`'s range, so never a real one), or where `valid` is
    false. OverflowError where a value does not fit `kind`, as `pa.array` refuses it."""
    numpy_type = _NUMPY_TYPES[kind]
    if null is not None:
        valid = values != null
    if len(values):
        limits = np.iinfo(numpy_type)
        shown = values if valid is None else values[valid]
        if len(shown) and (shown.min() < limits.min or shown.max() > limits.max):
            bad = shown[(shown < limits.min) | (shown > limits.max)][0]
            raise OverflowError(
                f"{bad} does not fit a column of {kind} ({limits.min} to {limits.max})"
            )
    data = values.astype(numpy_type, copy=False)
    if valid is not None:
        data = np.where(valid, data, 0).astype(numpy_type, copy=False)
    data = np.ascontiguousarray(data)
    return pa.Array.from_buffers(kind, len(data), [_validity(valid), pa.py_buffer(data)])


def strings(values: Sequence[str | None]) -> pa.Array:
    """`values` as an Arrow string array; None a NULL."""
    valid = _given(values)
    encoded = [b"" if v is None else v.encode() for v in values]
    offsets = np.zeros(len(encoded) + 1, np.int64)
    np.cumsum(np.fromiter(map(len, encoded), np.int64, len(encoded)), out=offsets[1:])
    if offsets[-1] >= 2**31:
        raise OverflowError(f"{offsets[-1]:,} bytes of text do not fit one string column")
    buffers = [
        _validity(valid),
        pa.py_buffer(offsets.astype(np.int32)),
        pa.py_buffer(b"".join(encoded)),
    ]
    return pa.Array.from_buffers(pa.string(), len(encoded), buffers)


def words(indices: np.ndarray, dictionary: Sequence[str], null: int | None = None) -> pa.Array:
    """The string array whose row i is `dictionary[indices[i]]`, each index equal to
    `null` a NULL (decoded by Arrow, in bulk)."""
    encoded = pa.DictionaryArray.from_arrays(
        integers(indices, pa.int32(), null), strings(list(dictionary))
    )
    return pc.cast(encoded, pa.string())


def lists(values: Sequence[Sequence[object] | None], kind: pa.DataType) -> pa.Array:
    """`values` as an Arrow list array of type `kind` (a list of strings or integers);
    None a NULL list."""
    valid = _given(values)
    flat = [item for value in values if value is not None for item in value]
    offsets = np.zeros(len(values) + 1, np.int32)
    np.cumsum(np.fromiter((0 if v is None else len(v) for v in values), np.int32, len(values)),
              out=offsets[1:])  # fmt: skip
    item = kind.value_type
    strings_in = pa.types.is_string(item)
    child = strings(flat) if strings_in else integers(np.array(flat, np.int64), item)  # type: ignore[arg-type]
    return pa.Array.from_buffers(
        kind, len(values), [_validity(valid), pa.py_buffer(offsets)], children=[child]
    )


def timestamps(values: Sequence[datetime | None]) -> pa.Array:
    """`values` as Arrow timestamps in microseconds, UTC (a naive datetime read as UTC, as
    `pa.array` reads it); None a NULL."""
    count = np.zeros(len(values), np.int64)
    for i, value in enumerate(values):
        if value is not None:
            aware = value if value.tzinfo else value.replace(tzinfo=UTC)
            count[i] = (aware - _EPOCH) // _MICROSECOND
    valid = _given(values)
    data = np.ascontiguousarray(count)
    kind = pa.timestamp("us", tz="UTC")
    return pa.Array.from_buffers(kind, len(values), [_validity(valid), pa.py_buffer(data)])


def hands_and_seqs(opening: np.ndarray, sizes: np.ndarray) -> tuple[np.ndarray, ...]:
    """`hand` and `seq` of every row of games laid one after another, as
    `events.number_events` counts them (each hand opener, `HAND_OPENERS`, opens the next
    hand; `seq` counts the rows since the last opener or the game's start), and the game
    of each row: `opening` says which rows open a hand, `sizes` how many rows each game has
    (0 for a game without events)."""
    sizes = np.asarray(sizes, np.int64)
    starts = np.cumsum(sizes) - sizes  # each game's first row
    game_of = np.repeat(np.arange(len(sizes)), sizes)
    opened = np.cumsum(opening)
    before = np.concatenate(([0], opened))[starts]  # hand_starts before each game
    hands = opened - before[game_of]
    index = np.arange(len(opening))
    opens = opening.copy()
    opens[starts[sizes > 0]] = True
    seqs = index - np.maximum.accumulate(np.where(opens, index, 0))
    return hands, seqs, game_of
