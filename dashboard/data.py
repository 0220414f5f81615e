"""Data for the dashboard: one DuckDB connection per session, a cursor per query, cached results."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import duckdb
import polars as pl
import streamlit as st

from analytics.views import connect, consistently
from dashboard.replay import TableState, hand_states
from recorder.records import GameRecord
from recorder.store import Dataset

__all__ = ["connection", "dataset_path", "game", "query", "signature"]


def dataset_path() -> Path | None:
    """The dataset the dashboard shows: KROEG_DATASET (which `kroeg dashboard` sets)."""
    value = os.environ.get("KROEG_DATASET")
    return None if not value else Path(value)


def signature(path: Path) -> tuple[str, ...]:
    """The dataset's files: when they change, cached results are stale."""
    dataset = Dataset(path)
    files = dataset.files("games") + dataset.files("events")
    return tuple(sorted(f"{p.name}:{p.stat().st_size}" for p in files))


#: DuckDB's memory for the whole server (every session shares one database).
MEMORY_LIMIT = "1GB"


@st.cache_resource(show_spinner=False, max_entries=2)
def _database(path: str, files: tuple[str, ...]) -> duckdb.DuckDBPyConnection:
    con = connect(path)
    con.execute(f"SET memory_limit = '{MEMORY_LIMIT}'")
    return con


def connection(path: Path) -> duckdb.DuckDBPyConnection:
    """The server's one connection to the dataset (views registered once, shared by every
    session; each query takes its own cursor), made again when the files change.

    One database for all sessions keeps the server's memory flat however many people
    visit: a connection per session held its own caches (docs/RELIABILITY.md)."""
    return _database(str(path), signature(path))


@st.cache_data(show_spinner=False, max_entries=128, ttl=3600)
def _cached(path: str, files: tuple[str, ...], sql: str, params: tuple[Any, ...]) -> pl.DataFrame:
    def read() -> pl.DataFrame:
        cursor = connection(Path(path)).cursor()  # a cursor per query
        frame: pl.DataFrame = cursor.sql(sql, params=list(params)).pl()
        return frame

    return consistently(read)  # a compaction during the query: asked again


def query(path: Path, sql: str, *params: Any) -> pl.DataFrame:
    """The result of a query over the dataset's views, cached until the files change."""
    return _cached(str(path), signature(path), sql, params)


@st.cache_data(show_spinner=False, max_entries=32, ttl=3600)
def _game(path: str, files: tuple[str, ...], game_id: str) -> GameRecord:
    return Dataset(path).read_game(game_id)


def game(path: Path, game_id: str) -> GameRecord:
    """One game with its events (cached)."""
    return _game(str(path), signature(path), game_id)


@st.cache_data(show_spinner=False, max_entries=64, ttl=3600)
def _states(
    path: str, files: tuple[str, ...], game_id: str, hand: int, reveal_all: bool
) -> list[TableState]:
    return hand_states(_game(path, files, game_id), hand, reveal_all=reveal_all)


def states(path: Path, game_id: str, hand: int, reveal_all: bool) -> list[TableState]:
    """Every step of a hand (cached: stepping through a hand replays nothing again)."""
    return _states(str(path), signature(path), game_id, hand, reveal_all)
