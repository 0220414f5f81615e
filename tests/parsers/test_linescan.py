"""The JSON Lines line scanner (`parsers/_linescan.c`): an event line of the written shape
read as a tuple of json's own values, and any other line left to json (None), so that
reading a log with it and without it gives the same games and the same errors."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kroeg.parsers import jsonl, notation
from kroeg.parsers.reading import collect
from kroeg.recorder.rules import Ruleset
from kroeg.recorder.simulate import simulate

scanner = pytest.importorskip("kroeg.parsers._linescan", reason="the line scanner is not built")
KEYS = ("game_id", "hand", "seq", "kind", "seat", "card", "amount", "target")
LINE = (
    '{"game_id": "g1", "hand": 1, "seq": 2, "kind": "deal", "seat": 3, "card": "Th", '
    '"amount": null, "target": null}'
)


def as_json(line: str) -> tuple[object, ...] | None:
    """What the scanner must give for `line`: json's values in the format's order, where
    json reads it as an object of exactly the format's keys in that order, each a str, an
    int or None; None otherwise (the line may then be anything, even bad JSON)."""
    try:
        value = json.loads(line)
    except (ValueError, RecursionError):
        return None
    if not isinstance(value, dict) or tuple(value) != KEYS:
        return None
    return tuple(value.values())


def same(line: str) -> None:
    """The scanner gives json's values, of json's types, or leaves the line to json."""
    got = scanner.event_row(line)
    if got is None:
        return
    want = as_json(line)
    assert want is not None, f"scanned a line json does not read so: {line!r}"
    assert got == want and [type(v) for v in got] == [type(v) for v in want], line


def test_a_written_event_line_is_read_as_json_reads_it() -> None:
    assert scanner.event_row(LINE) == ("g1", 1, 2, "deal", 3, "Th", None, None)
    compact = LINE.replace(": ", ":").replace(", ", ",")
    spaced = " " + LINE.replace(": ", " :\t").replace(", ", " ,  ") + " \t"
    for line in (compact, spaced):
        assert scanner.event_row(line) == as_json(line)


@pytest.mark.parametrize(
    "line",
    [
        LINE.replace('"seat": 3', '"seat": 3.0'),  # a float
        LINE.replace('"seat": 3', '"seat": 3e0'),
        LINE.replace('"seat": 3', '"seat": 03'),  # not JSON
        LINE.replace('"seat": 3', '"seat": -'),
        LINE.replace('"seat": 3', '"seat": true'),
        LINE.replace('"seat": 3', '"seat": "3"'),
        LINE.replace('"hand": 1', '"hand": null'),  # a column that allows no null
        LINE.replace('"kind": "deal"', '"kind": null'),
        LINE.replace('"hand": 1', '"hand": 1234567890123456789'),  # 19 digits
        LINE.replace('"card": "Th"', '"card": "T\\u0068"'),  # an escape
        LINE.replace('"card": "Th"', '"card": "10♦"'),  # beyond ASCII
        LINE.replace('"card": "Th"', '"card": "T\th"'),  # a control character: not JSON
        LINE.replace('"seat": 3, "card": "Th"', '"card": "Th", "seat": 3'),  # key order
        LINE.replace(', "target": null', ""),  # a key missing
        LINE.replace('"target": null', '"target": null, "extra": 1'),
        LINE.replace('"target"', '"targets"'),
        LINE.replace('"game_id"', '"game_id "'),
        LINE + "x",
        LINE + ",",
        LINE[:-1],
        LINE[1:],
        "[" + LINE + "]",
        "",
        "{}",
        '{"game_id": "g1"}',
        "{" * 1000,
    ],
)
def test_any_other_line_is_left_to_json(line: str) -> None:
    assert scanner.event_row(line) is None
    same(line)


def test_negative_and_zero_integers_are_json_s() -> None:
    largest = 10**18 - 1  # 18 digits: more are left to json
    for text, value in (("0", 0), ("-0", 0), ("-7", -7), (str(largest), largest)):
        line = LINE.replace('"amount": null', f'"amount": {text}')
        assert scanner.event_row(line)[6] == value == json.loads(line)["amount"]


def test_lines_cut_and_mended_at_random_are_read_as_json_reads_them() -> None:
    rng = random.Random(5)
    pieces = list(' {}[]":,-0123456789.eE\\nultrfa\t\u00e9xTh')
    written = [
        line
        for record in simulate(Ruleset.preset("classic"), 4, 3, 1)
        for line in jsonl.dumps(record).splitlines()[1:]
    ]
    for _ in range(20_000):
        line = list(rng.choice(written))
        for _ in range(rng.randint(1, 3)):
            at = rng.randrange(len(line) + 1)
            change = rng.random()
            if change < 0.4 and at < len(line):
                del line[at]
            elif change < 0.8:
                line.insert(at, rng.choice(pieces))
            elif at < len(line):
                line[at] = rng.choice(pieces)
        same("".join(line))


@settings(max_examples=300, deadline=None)
@given(
    st.tuples(
        st.text(max_size=12),
        st.integers(),
        st.integers(),
        st.text(max_size=12),
        st.none() | st.integers(),
        st.none() | st.text(max_size=4),
        st.none() | st.integers() | st.floats(allow_nan=False),
        st.none() | st.integers() | st.booleans(),
    ),
    st.booleans(),
)
def test_any_row_json_writes_is_read_as_json_reads_it(
    row: tuple[object, ...], escaped: bool
) -> None:
    line = json.dumps(dict(zip(KEYS, row, strict=True)), ensure_ascii=escaped)
    same(line)


def test_every_event_line_jsonl_writes_is_scanned(samples: Path) -> None:
    games = [*notation.load(samples / "laundry-and-checks.txt")]
    games += simulate(Ruleset.preset("troefcall"), 4, 5, 2)
    lines = jsonl.dumps(games).splitlines()
    events = [line for line in lines if '"players"' not in line]
    assert events and all(scanner.event_row(line) == as_json(line) for line in events)
    assert all(scanner.event_row(line) is None for line in lines if line not in events)


def test_a_log_reads_alike_with_the_scanner_and_without(
    samples: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    games = [*notation.load(samples / "laundry-and-checks.txt")]
    for seed in range(6):
        games += simulate(Ruleset.preset("lives"), 5, 2, seed)
    text = jsonl.dumps(games)
    lines = text.splitlines()
    # Hostile lines among the written ones, one a game: an event of another game, one out
    # of order, a bad card, a card against the rules, one json must read, one that is not
    # JSON.
    mends = [
        lambda line: line.replace('"game_id": "', '"game_id": "x'),
        lambda line: line.replace('"seq": ', '"seq": 1'),
        lambda line: line.replace('"kind": "', '"kind": "Z'),
        lambda line: line.replace('"seat": ', '"seat": 1'),
        lambda line: line.replace(", ", ",\t"),
        lambda line: line[:-1],
    ]
    headers = [at for at, line in enumerate(lines) if '"players"' in line]
    assert len(headers) >= len(mends)
    for at, mend in zip(headers, mends, strict=False):
        lines[at + 9] = mend(lines[at + 9])
    hostile = "\n".join(lines)
    readings = []
    for scan in (scanner.event_row, None):
        monkeypatch.setattr(jsonl, "_EVENT_ROW", scan)
        for log in (text, hostile):
            parsed = jsonl.parse(log, on_error=collect)
            readings.append((parsed.games, [str(e) for e in parsed.errors]))
    with_scanner, without = readings[:2], readings[2:]
    assert with_scanner == without
    assert readings[0][0] == games and not readings[0][1]
    # each bad line is reported; the one with tabs is good JSON, its game is kept
    assert len(readings[1][1]) == len(mends) - 1
    assert len(readings[1][0]) == len(games) - len(mends) + 1
