"""Data for the dashboard: one DuckDB connection per server, a cursor per query, cached results.

The SQL is analytics' (kroeg.analytics.evenings, .games, .pages): a page asks for the
result of an analytics function (`ask(path, evenings_frame, games)`), as the CLI calls
it, and holds no SQL of its own.

Results are kept in this process, not in Streamlit's cache, so that the server can
compute the landing page's before its first visitor arrives (`dashboard.serve` runs
`dashboard.evenings.prefetch` before Streamlit's runtime exists) and every visitor then
finds them: the same function with the same arguments over the same files is one entry.
"""

from __future__ import annotations

import os
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from pathlib import Path
from typing import Any

import duckdb
import polars as pl
import streamlit as st

from kroeg.analytics.expectations import hand_expectations
from kroeg.analytics.games import toepen_ids
from kroeg.analytics.games import toepen_units as units_of
from kroeg.analytics.pages import (
    before_game,
    before_hand,
    connect_limited,
    counts_before_games,
    game_hand_counts,
)
from kroeg.analytics.stats import player_stats, troefcall_stats
from kroeg.analytics.views import consistently
from kroeg.analytics.words import words
from kroeg.dashboard.replay import TableState, hand_states
from kroeg.recorder.records import GameRecord
from kroeg.recorder.store import Dataset

__all__ = [
    "ask", "before_this_hand", "check_once", "dataset_path", "figures", "forget_signature",
    "game", "signature", "toepen_units",
]  # fmt: skip


def dataset_path() -> Path | None:
    """The dataset the dashboard shows: KROEG_DATASET (which `kroeg dashboard` sets)."""
    value = os.environ.get("KROEG_DATASET")
    return None if not value else Path(value)


#: Seconds a dataset's signature is reused while its folders' own times of change stay
#: the same: a page run asks for it a dozen times (every cached query names it), and
#: listing ~100 files took 3-5 ms each time, a third of a warm page's time in the server.
#: A file lands by a rename into its folder, which changes the folder's time: seen at once
#: (in a month's partition folder, a second later at most).
SIGNATURE_FOR = 1.0
_signatures: dict[Path, tuple[float, tuple[int, ...], tuple[str, ...]]] = {}


def _folder_times(path: Path) -> tuple[int, ...]:
    """The times of change of the folders files land in (a few `stat`s, microseconds)."""
    times = []
    for name in ("games", "events", "derived"):
        try:
            times.append((path / name).stat().st_mtime_ns)
        except OSError:
            times.append(0)
    try:
        with os.scandir(path / "derived") as entries:
            times += sorted(e.stat().st_mtime_ns for e in entries if e.is_dir())
    except OSError:
        pass
    return tuple(times)


def signature(path: Path) -> tuple[str, ...]:
    """The dataset's stored facts, as a token: every Parquet file (games, events and the
    analysis' derived/ tables) with its size and time of change. A game that lands, an
    analysis (`kroeg analyse`, or the Record page's at landing) or a compaction while the
    server runs changes it, and every cached result of the old files is stale. Listed
    again when a folder changes, or `SIGNATURE_FOR` seconds on."""
    now, folders = time.monotonic(), _folder_times(path)
    kept = _signatures.get(path)
    if kept is not None and now - kept[0] < SIGNATURE_FOR and kept[1] == folders:
        return kept[2]
    token = _listed(path)
    _signatures[path] = (now, folders, token)
    if len(_signatures) > 8:  # a test's many datasets: the oldest go
        del _signatures[min(_signatures, key=lambda p: _signatures[p][0])]
    return token


def forget_signature(path: Path) -> None:
    """List the files again at the next `signature`: after this process changed them (the
    Record page's landing), its next page must show the change at once."""
    _signatures.pop(path, None)


def _listed(path: Path) -> tuple[str, ...]:
    files = sorted(path.glob("games/**/*.parquet"))
    files += sorted(path.glob("events/**/*.parquet"))
    files += sorted(path.glob("derived/**/*.parquet"))
    token = []
    for p in files:
        try:
            stat = p.stat()
        except FileNotFoundError:  # a compaction took it between the glob and now
            continue
        token.append(f"{p.relative_to(path)}:{stat.st_size}:{stat.st_mtime_ns}")
    return tuple(token)


#: DuckDB's memory for the whole server (every session shares one database).
MEMORY_LIMIT = "1GB"


#: Query results kept (least recently used dropped first); a result is a few hundred rows.
RESULTS_KEPT = 256

_lock = threading.Lock()
_databases: OrderedDict[tuple[str, tuple[str, ...]], duckdb.DuckDBPyConnection] = OrderedDict()
_results: OrderedDict[tuple[Any, ...], Any] = OrderedDict()


def _database(path: str, files: tuple[str, ...]) -> duckdb.DuckDBPyConnection:
    """The server's one connection to the dataset (views registered once, shared by every
    session; each query takes its own cursor), made again when the files change.

    One database for all sessions keeps the server's memory flat however many people
    visit: a connection per session held its own caches (docs/RELIABILITY.md)."""
    key = (path, files)
    with _lock:
        con = _databases.get(key)
        if con is None:
            con = connect_limited(path, MEMORY_LIMIT)
            _databases[key] = con
            while len(_databases) > 2:  # the files changed: the old views go (a query
                _databases.popitem(last=False)  # still running keeps its cursor's own)
        return con


def _frozen(value: Any) -> Any:
    """A parameter as part of a cache key (a list of game ids becomes a tuple)."""
    return tuple(value) if isinstance(value, list) else value


def _remember(key: tuple[Any, ...], compute: Callable[[], Any]) -> Any:
    """`compute()`, kept under `key` (which names the dataset's files: a change misses)."""
    with _lock:
        if key in _results:
            _results.move_to_end(key)
            return _results[key]
    frame = consistently(compute)  # a compaction during the query: asked again
    with _lock:  # two sessions asking at once compute it twice, and keep one
        _results[key] = frame
        while len(_results) > RESULTS_KEPT:
            _results.popitem(last=False)
    return frame


def ask(path: Path, function: Callable[..., Any], *args: Any) -> Any:
    """`function(cursor, *args)`, an analytics query over the dataset's views, kept until
    the files change (its results are polars frames, which cannot be changed in place, or
    plain values: every caller may share one)."""
    files = signature(path)

    def compute() -> Any:
        return function(_database(str(path), files).cursor(), *args)  # a cursor per query

    name = f"{function.__module__}.{function.__qualname__}"
    return _remember((str(path), files, name, *(_frozen(a) for a in args)), compute)


def figures(
    path: Path, game: str, unit: str | None = None, games: list[str] | None = None
) -> pl.DataFrame:
    """Every player's statistics (analytics.stats) over `games` (None: all), Toepen's
    only for the games paid in `unit` (lives, penalty points) when given; kept like a query's
    result, so a page switch or a click on a bar computes nothing again."""
    files = signature(path)
    chosen = None if games is None else tuple(games)

    def compute() -> pl.DataFrame:
        cursor = _database(str(path), files).cursor()
        ids = None if chosen is None else list(chosen)
        if game == "troefcall":
            return troefcall_stats(cursor, game_ids=ids)
        if unit is not None:  # the Toepen games paid in this unit, among those chosen
            inside = set(toepen_ids(cursor, unit))
            ids = [g for g in (ids if ids is not None else inside) if g in inside]
        return player_stats(cursor, game_ids=ids)

    frame: pl.DataFrame = _remember((str(path), files, "figures", game, unit, chosen), compute)
    return frame


def before_this_hand(
    path: Path, game_id: str, hand: int, players: tuple[str, ...], games: list[str] | None
) -> pl.DataFrame:
    """Each of `players`' figures before hand `hand` of a game, over the games among
    `games` (analytics.pages.before_hand). The earlier games' counts are one table for
    every game (`counts_before_games`), kept until the files change: a game's rows are a
    lookup in it, and only the game's own hands are asked for (`game_hand_counts`)."""
    every: pl.DataFrame = ask(path, counts_before_games, games)
    hands: pl.DataFrame = ask(path, game_hand_counts, game_id)
    return before_hand(players, before_game(every, game_id), hands, hand)


_checked: OrderedDict[tuple[str, tuple[str, ...]], None] = OrderedDict()


def check_once(path: Path) -> None:
    """`Dataset.check_files` (every footer and schema: a damaged file is named at once),
    once per state of the files for the whole server, not once per session: a visitor
    opening a page cost the server 10-20 ms of reading footers each time."""
    key = (str(path), signature(path))
    with _lock:
        if key in _checked:
            return
    Dataset(path).check_files()  # raises: not kept, so every run says it again
    with _lock:
        _checked[key] = None
        while len(_checked) > 4:
            _checked.popitem(last=False)


# Games and hand steps are kept once for every session (`st.cache_resource`: the object
# itself, frozen dataclasses and a list no caller changes), not copied out of a pickle at
# every run of every session as `st.cache_data` does.
@st.cache_resource(show_spinner=False, max_entries=32, ttl=3600)
def _game(path: str, files: tuple[str, ...], game_id: str) -> GameRecord:
    return Dataset(path).read_game(game_id)


def game(path: Path, game_id: str) -> GameRecord:
    """One game with its events (cached)."""
    return _game(str(path), signature(path), game_id)


@st.cache_resource(show_spinner=False, max_entries=64, ttl=3600)
def _states(
    path: str,
    files: tuple[str, ...],
    game_id: str,
    hand: int,
    reveal_all: bool,
    seat: int | None,
    lang: str,
) -> list[TableState]:
    record = _game(path, files, game_id)
    return hand_states(record, hand, reveal_all=reveal_all, seat=seat, speaker=words(lang))


def states(
    path: Path,
    game_id: str,
    hand: int,
    reveal_all: bool,
    seat: int | None = None,
    lang: str = "en",
) -> list[TableState]:
    """Every step of a hand (cached: stepping through a hand replays nothing again), as
    the table saw it, as `seat` did, or with every card, its words in `lang`; the list is
    every session's: read it, never change it."""
    return _states(str(path), signature(path), game_id, hand, reveal_all, seat, lang)


@st.cache_resource(show_spinner=False, max_entries=64, ttl=3600)
def _expectations(path: str, files: tuple[str, ...], game_id: str, hand: int) -> pl.DataFrame:
    return hand_expectations(_game(path, files, game_id), hand)


def expectations(path: Path, game_id: str, hand: int) -> pl.DataFrame:
    """Each player's expected result of a hand step by step, from what they could see
    (analytics.expectations; cached: worked out once per hand for every session)."""
    return _expectations(str(path), signature(path), game_id, hand)


def toepen_units(path: Path, games: list[str] | None) -> list[str]:
    """The units the chosen Toepen games are paid in (`lives`, `penalty points`): figures
    in different units are never added together."""
    units: list[str] = ask(path, units_of, games)
    return list(units)  # the kept list is every caller's: a copy to change
