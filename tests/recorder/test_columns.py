"""The columns kroeg writes are built from buffers (`recorder.columns`), not by pyarrow's
conversion of Python values: here each builder, and the two tables built with them, are
held to what `pa.array` and `pa.Table.from_pylist` give for the same values."""

from __future__ import annotations

import dataclasses
import importlib.util
import subprocess
import sys
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path
from zoneinfo import ZoneInfo

import numpy as np
import pyarrow as pa
import pytest

from kroeg.recorder import columns
from kroeg.recorder.cards import Rank
from kroeg.recorder.events import (
    CARD_WORDS,
    CODE_NULL,
    EVENT_TYPES,
    PAYLOAD_COLUMNS,
    Baunie,
    Deal,
    Event,
    GameEnd,
    HandSkipped,
    HandStart,
    Kap,
    Knock,
    Reveal,
    Score,
    ScoreReason,
    Stop,
    Whistle,
    event_from_row,
    number_events,
)
from kroeg.recorder.records import FORMAT_VERSION, GameRecord
from kroeg.recorder.rules import Ruleset
from kroeg.recorder.simulate import simulate
from kroeg.recorder.store import EVENTS_SCHEMA, GAMES_SCHEMA, events_to_table, games_to_table


@pytest.mark.parametrize(
    ("values", "kind", "null"),
    [
        ([3, -1, 0, 127, -128], pa.int8(), None),
        ([5, CODE_NULL, -7, CODE_NULL, 9, 1, 2, 3, 4], pa.int16(), CODE_NULL),
        ([CODE_NULL] * 3, pa.int8(), CODE_NULL),
        ([], pa.int32(), CODE_NULL),
        ([2**63 - 1, -1, 0], pa.int64(), -1),
    ],
)
def test_integers_are_what_pa_array_makes_of_them(
    values: list[int], kind: pa.DataType, null: int | None
) -> None:
    built = columns.integers(np.array(values, np.int64), kind, null)
    assert built.equals(pa.array([None if v == null else v for v in values], kind))
    assert built.null_count == sum(v == null for v in values)


@pytest.mark.parametrize(("value", "kind"), [(128, pa.int8()), (-32769, pa.int16())])
def test_an_integer_a_column_cannot_hold_is_refused(value: int, kind: pa.DataType) -> None:
    with pytest.raises(OverflowError, match=f"{value} does not fit a column of {kind}"):
        columns.integers(np.array([1, value, CODE_NULL], np.int64), kind, CODE_NULL)


@pytest.mark.parametrize(
    "values",
    [["Anna", None, "", "Zoë 🂡", "x" * 300], [], [None, None], ["only"]],
)
def test_strings_are_what_pa_array_makes_of_them(values: list[str | None]) -> None:
    assert columns.strings(values).equals(pa.array(values, pa.string()))


def test_words_decode_indices_into_their_dictionary() -> None:
    indices = np.array([2, 0, CODE_NULL, 1, 2], np.int64)
    built = columns.words(indices, ["kap", "Th", "é"], CODE_NULL)
    assert built.to_pylist() == ["é", "kap", None, "Th", "é"]
    assert built.type == pa.string()


@pytest.mark.parametrize(
    ("values", "kind"),
    [
        ([["Anna", "Ben"], [], ["Carla", "Dan", "Eve"]], pa.list_(pa.string())),
        ([None, [0, 1, 0, 1], None, [1, 0]], pa.list_(pa.int8())),
        ([], pa.list_(pa.int8())),
    ],
)
def test_lists_are_what_pa_array_makes_of_them(
    values: list[list[object] | None], kind: pa.DataType
) -> None:
    assert columns.lists(values, kind).equals(pa.array(values, kind))


def test_timestamps_are_what_pa_array_makes_of_them() -> None:
    values = [
        datetime(2026, 11, 6, 20, 0, tzinfo=UTC),
        None,
        datetime(2026, 11, 6, 21, 30, 15, 123456, tzinfo=ZoneInfo("Europe/Amsterdam")),
        datetime(1969, 12, 31, 23, 59, 59, 999999, tzinfo=timezone(timedelta(hours=-5))),
        datetime(2026, 3, 29, 2, 30),  # naive: as UTC, as pyarrow reads it
    ]
    kind = pa.timestamp("us", tz="UTC")
    assert columns.timestamps(values).equals(pa.array(values, kind))


@pytest.mark.parametrize("seed", range(6))
def test_hands_and_seqs_count_as_number_events_does(seed: int) -> None:
    rng = np.random.default_rng(seed)
    sizes = rng.integers(0, 10, 12)
    sizes[[0, 5, -1]] = 0  # games without events first, between and last
    sizes[1] = 6
    opening = rng.random(int(sizes.sum())) < 0.25
    opening[[1, 3]] = True  # a game that opens more than one hand
    games = np.split(opening, np.cumsum(sizes)[:-1])
    counted = [
        (hand, seq, game)
        for game, opens in enumerate(games)
        for hand, seq, _ in number_events(
            [HandStart(seat=0, stake=None) if o else Kap(seat=0) for o in opens])
    ]  # fmt: skip
    hands, seqs, game_of = columns.hands_and_seqs(opening, sizes)
    assert list(zip(hands.tolist(), seqs.tolist(), game_of.tolist(), strict=True)) == counted
    assert hands.max() > 1 and seqs.max() > 1 and len(counted) > 20


def _games() -> list[GameRecord]:
    """Games of every kind of row: Toepen with swaps and checks, team toepen, Troefcall's
    trump calls (a suit in the card column) and scores (a reason there), a game without
    events, and a hand-made one (not a game the referee would allow) with NULLs where a
    payload is optional and the kinds these few bot games do not reach."""
    swaps = Ruleset.preset("lives").with_variants("poverty", "dirty-laundry")
    games = [
        *simulate(Ruleset.preset("classic"), 4, 30, 1, ("random", "bluffer", "sharp")),
        *simulate(swaps, 5, 30, 2, ("bluffer", "sharp")),
        *simulate(Ruleset.preset("lives").with_variants("team-toepen"), 4, 20, 3, ("sharp",)),
        *simulate(Ruleset.preset("troefcall"), 4, 12, 4, ("sharp", "random")),
    ]
    made = [  # hand 0 before the first hand_start
        Kap(seat=1),
        HandStart(seat=0, stake=None),
        Deal(seat=1, card=None),
        Reveal(seat=2, card=None),
        Whistle(seat=3, rank=Rank.ACE, count=2),
        Knock(seat=2, stake=2),
        Score(seat=0, amount=-3, reason=None),
        Baunie(seat=2),
        Stop(seat=3),
        HandSkipped(seat=None),  # opens hand 2, as hand_start does
        HandSkipped(seat=1),
        GameEnd(seat=None, loser=None),
    ]
    games.insert(3, dataclasses.replace(games[0], game_id="hand-made", events=tuple(made)))
    games.insert(2, dataclasses.replace(games[0], game_id="empty", events=()))
    return games


def test_the_events_table_is_each_events_row_where_number_events_puts_it() -> None:
    games = _games()
    rows = [
        {"game_id": g.game_id, "hand": hand, "seq": seq,
         **dict(zip(("kind", *PAYLOAD_COLUMNS), event.to_row(), strict=True))}
        for g in games for hand, seq, event in number_events(g.events)
    ]  # fmt: skip
    table = events_to_table(games)
    assert table.equals(pa.Table.from_pylist(rows, schema=EVENTS_SCHEMA))
    kinds = set(table.column("kind").to_pylist())
    assert {"laundry", "check", "trump", "score", "knock", "fold"} <= kinds
    assert ScoreReason.MAJORITY.value in table.column("card").to_pylist()


def test_every_event_kind_codes_as_its_row() -> None:
    """`to_codes` is `to_row` in numbers: the kind's index in EVENT_TYPES, the card
    column's value's index in CARD_WORDS, CODE_NULL for NULL."""
    events: list[Event] = [e for g in _games() for e in g.events]
    assert {e.kind for e in events} == set(EVENT_TYPES)
    kinds = list(EVENT_TYPES)
    for event in {e.to_row(): e for e in events}.values():
        codes = event.to_codes()
        kind, *payload = event.to_row()
        assert kinds[codes[0]] == kind
        back = [None if c == CODE_NULL else c for c in codes[1:]]
        back[1] = None if back[1] is None else CARD_WORDS[back[1]]
        assert tuple(back) == tuple(payload)
        assert event_from_row(kind, *back) == event


def test_the_games_table_is_what_from_pylist_makes_of_the_games() -> None:
    games = _games()
    games[1] = dataclasses.replace(games[1], venue="Café 't Hoekje", seed=None, evening="x")
    rows = [
        {"game_id": r.game_id, "game_type": r.game_type, "ruleset": r.ruleset,
         "rules": r.rules.to_json(), "players": list(r.players),
         "teams": None if r.teams is None else list(r.teams), "started_at": r.started_at,
         "venue": r.venue, "source": r.source, "seed": r.seed,
         "format_version": FORMAT_VERSION, "evening": r.evening}
        for r in games
    ]  # fmt: skip
    table = games_to_table(games)
    assert table.equals(pa.Table.from_pylist(rows, schema=GAMES_SCHEMA))
    assert table.column("seed").null_count == 1
    # NULL where a seed is None, and only there: no value stands for it.
    odd = games_to_table([dataclasses.replace(games[0], seed=-1)])
    assert odd.column("seed").to_pylist() == [-1]
    assert games_to_table([]).equals(GAMES_SCHEMA.empty_table())


def test_a_hand_number_the_column_cannot_hold_is_refused() -> None:
    start = HandStart(seat=0, stake=1)
    game = dataclasses.replace(_games()[0], game_id="long", events=(start,) * 32_767)
    assert events_to_table([game]).column("hand").to_pylist()[-1] == 32_767
    longer = dataclasses.replace(game, events=(start,) * 32_768)
    with pytest.raises(OverflowError, match="32768 does not fit a column of int16"):
        events_to_table([longer])


def test_simulating_into_a_dataset_imports_no_pandas(tmp_path: Path) -> None:
    """pyarrow's conversion of Python values imports pandas (0.2 s of a command): kroeg
    writes without it."""
    assert importlib.util.find_spec("pandas") is not None  # it is there to be imported
    script = (
        "import sys\n"
        "from kroeg.recorder.rules import Ruleset\n"
        "from kroeg.recorder.simulate import simulate_into\n"
        "from kroeg.recorder.store import Dataset\n"
        f"report = simulate_into(Dataset({str(tmp_path / 'ds')!r}), Ruleset.preset('classic'),"
        " 4, 40, 1)\n"
        "assert report.added, report\n"
        "print('pandas' in sys.modules)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "False"
