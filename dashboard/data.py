"""Data for the dashboard: one DuckDB connection per session, a cursor per query, cached results."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import duckdb
import polars as pl
import streamlit as st

from analytics.views import connect
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


def connection(path: Path) -> duckdb.DuckDBPyConnection:
    """This session's connection, with the views registered (made once per session)."""
    key = ("kroeg_connection", str(path), signature(path))
    if st.session_state.get("kroeg_connection_key") != key:
        st.session_state["kroeg_connection"] = connect(path)
        st.session_state["kroeg_connection_key"] = key
    con: duckdb.DuckDBPyConnection = st.session_state["kroeg_connection"]
    return con


@st.cache_data(show_spinner=False, max_entries=256)
def _cached(path: str, files: tuple[str, ...], sql: str, params: tuple[Any, ...]) -> pl.DataFrame:
    cursor = connection(Path(path)).cursor()  # a cursor per query
    frame: pl.DataFrame = cursor.sql(sql, params=list(params)).pl()
    return frame


def query(path: Path, sql: str, *params: Any) -> pl.DataFrame:
    """The result of a query over the dataset's views, cached until the files change."""
    return _cached(str(path), signature(path), sql, params)


@st.cache_data(show_spinner=False, max_entries=64)
def _game(path: str, files: tuple[str, ...], game_id: str) -> GameRecord:
    return Dataset(path).read_game(game_id)


def game(path: Path, game_id: str) -> GameRecord:
    """One game with its events (cached)."""
    return _game(str(path), signature(path), game_id)


@st.cache_data(show_spinner=False, max_entries=64)
def _states(
    path: str, files: tuple[str, ...], game_id: str, hand: int, reveal_all: bool
) -> list[TableState]:
    return hand_states(_game(path, files, game_id), hand, reveal_all=reveal_all)


def states(path: Path, game_id: str, hand: int, reveal_all: bool) -> list[TableState]:
    """Every step of a hand (cached: stepping through a hand replays nothing again)."""
    return _states(str(path), signature(path), game_id, hand, reveal_all)
