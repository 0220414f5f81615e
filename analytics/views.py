"""DuckDB views over a dataset, registered by one function; the SQL is in `sql/views.sql`.

From the tables: `games`, `events`, `hands`, `hand_players`, `knocks`, `folds`, `tricks`,
`game_results`.
From the derived facts (analytics.derived): `knock_facts`, `fold_facts`, `answer_facts`,
`luck_facts`, `knock_outcomes`, `hand_facts`, and both side by side a hand at a time:
`hand_counts`; from the ratings (analytics.ratings): `ratings_stored`.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import duckdb

from kroeg.analytics.schemas import (
    ANNOUNCE_SCHEMA,
    ANSWER_SCHEMA,
    CALL_SCHEMA,
    FACT_TABLES,
    FOLD_SCHEMA,
    KNOCK_SCHEMA,
    LUCK_SCHEMA,
    RATING_SCHEMA,
    SEAT_COUNTS_SCHEMA,
    SWAP_SCHEMA,
)
from kroeg.recorder.errors import DatasetChanged, RulesError
from kroeg.recorder.rules import Ruleset
from kroeg.recorder.store import EVENTS_SCHEMA, GAMES_SCHEMA, Dataset

__all__ = [
    "RULE_PARAMETERS",
    "TABLES",
    "connect",
    "consistently",
    "register",
    "rule_rows",
    "statements",
]

_SQL = (Path(__file__).parent / "sql" / "views.sql").read_text(encoding="utf-8")
_DUCK_TYPES = {
    "string": "VARCHAR", "int8": "TINYINT", "int16": "SMALLINT", "int32": "INTEGER",
    "int64": "BIGINT", "timestamp[us, tz=UTC]": "TIMESTAMPTZ",
    "list<item: string>": "VARCHAR[]", "list<item: int8>": "TINYINT[]",
    "double": "DOUBLE", "bool": "BOOLEAN",
}  # fmt: skip


def _literal(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def _source(dataset: Dataset, table: str) -> str:
    """A read_parquet argument for the table (the list of files a reader should read, taken
    now), or "" when it has none."""
    files = dataset.table_files(table)
    if not files:
        return ""
    return "[" + ", ".join(_literal(str(p)) for p in files) + "]"


def _empty(schema: object) -> str:
    columns = ", ".join(
        f"NULL::{_DUCK_TYPES[str(f.type)]} AS {f.name}"
        for f in schema  # type: ignore[attr-defined]
    )
    return f"(SELECT {columns} WHERE false)"


#: The rule parameters the views read, each game's as its rule set resolves them.
#: `label` is the rule set's name with its variants (`lives + team-toepen`), `unit` what
#: its scores count (`penalty points`, `lives`, `points`): how every surface names them.
#: `rules_problem` is NULL, or why the engine cannot read the stored rules (a value an
#: older kroeg let in, out of its range today): such a game is still listed and counted
#: by its events, its parameters NULL, instead of the whole dataset failing.
RULE_PARAMETERS = (
    ("last_trick", "VARCHAR"), ("score_display", "VARCHAR"), ("hand_size", "SMALLINT"),
    ("kap_points", "SMALLINT"), ("baunie_points", "SMALLINT"), ("lives", "SMALLINT"),
    ("label", "VARCHAR"), ("unit", "VARCHAR"), ("rules_problem", "VARCHAR"),
)  # fmt: skip


def rule_rows(texts: list[str]) -> list[tuple[object, ...]]:
    """A `game_rules` row per rules text: the text, then each of RULE_PARAMETERS as the
    engine's `Ruleset` reads it (the SQL restates no rule and no default). A text the
    engine refuses gives NULL parameters and its reason in `rules_problem`."""
    rows: list[tuple[object, ...]] = []
    for text in texts:
        try:
            rules = Ruleset.from_json(text)
        except RulesError as exc:
            blank = (None,) * (len(RULE_PARAMETERS) - 1)
            rows.append((text, *blank, str(exc)))
            continue
        values = (getattr(rules, name) for name, _ in RULE_PARAMETERS[:-1])
        rows.append((text, *values, None))
    return rows


#: The tables the views read, by placeholder: the dataset's folder and its schema.
TABLES = (
    ("games", "games", GAMES_SCHEMA),
    ("events", "events", EVENTS_SCHEMA),
    ("upgraded_events", "derived/events", EVENTS_SCHEMA),
    ("knock_facts", "derived/knocks", KNOCK_SCHEMA),
    ("fold_facts", "derived/folds", FOLD_SCHEMA),
    ("answer_facts", "derived/answers", ANSWER_SCHEMA),
    ("luck_facts", "derived/luck", LUCK_SCHEMA),
    ("call_facts", "derived/calls", CALL_SCHEMA),
    ("announce_facts", "derived/announcements", ANNOUNCE_SCHEMA),
    ("swap_facts", "derived/swaps", SWAP_SCHEMA),
    ("seat_counts", "derived/seat_counts", SEAT_COUNTS_SCHEMA),
    ("rating_facts", "derived/ratings", RATING_SCHEMA),
)


def statements(sources: dict[str, str]) -> list[str]:
    """The views' statements, comments out, each table's `read_parquet({name}, …)`
    replaced by `sources[name]` (what an engine reads it from)."""
    sql = _SQL
    for name, text in sources.items():
        sql = sql.replace(f"read_parquet({{{name}}}, union_by_name = true)", text)
    out = []
    for statement in (s.strip() for s in sql.split(";")):
        lines = [line for line in statement.splitlines() if not line.strip().startswith("--")]
        if "".join(lines).strip():
            out.append("\n".join(lines))
    return out


def _register_game_rules(con: duckdb.DuckDBPyConnection, games: str) -> None:
    """Table `game_rules`: a row per distinct rules text of the games, with the parameters
    the views need (`rule_rows`). A table, not a registered object: every cursor of the
    connection sees it."""
    texts: list[str] = []
    if games:
        query = f"SELECT DISTINCT rules FROM read_parquet({games}, union_by_name = true)"
        texts = [row[0] for row in con.sql(query).fetchall() if row[0] is not None]
    columns = ", ".join(f"{name} {kind}" for name, kind in RULE_PARAMETERS)
    con.execute(f"CREATE OR REPLACE TABLE game_rules (rules VARCHAR, {columns})")
    rows = rule_rows(texts)
    if rows:
        marks = ", ".join("?" * (len(RULE_PARAMETERS) + 1))
        con.executemany(f"INSERT INTO game_rules VALUES ({marks})", rows)


def register(con: duckdb.DuckDBPyConnection, dataset: Dataset) -> None:
    """Create (or replace) every view on `con` for this dataset."""
    dataset.check()
    dataset.check_files()  # a damaged file is named here, not deep in a DuckDB traceback
    _register_game_rules(con, _source(dataset, "games"))
    sources = {}
    for name, table, schema in TABLES:
        source = _source(dataset, table)
        read = f"read_parquet({source}, union_by_name = true)"
        if source and (table == "games" or table.removeprefix("derived/") in FACT_TABLES):
            # Facts stored by an older analysis may lack a column a newer one adds: every
            # column of the schema is there (NULL where the files have none), so that an
            # older dataset still reads until it is analysed again. The same for games
            # landed before an added column (`evening`, docs/FORMAT.md).
            read = f"(SELECT * FROM {read} UNION ALL BY NAME SELECT * FROM {_empty(schema)})"
        sources[name] = read if source else _empty(schema)
    for statement in statements(sources):
        con.execute(statement)


def connect(dataset: str | Path | Dataset) -> duckdb.DuckDBPyConnection:
    """An in-memory DuckDB connection with the dataset's views registered."""
    ds = dataset if isinstance(dataset, Dataset) else Dataset(dataset)
    con = duckdb.connect()
    register(con, ds)
    return con


T = TypeVar("T")
_GONE = ("No such file", "Cannot open file", "No files found", "not found")


def consistently(read: Callable[[], T], attempts: int = 30) -> T:
    """Run `read` (which connects and queries) again when a compaction swapped the files
    it was reading: a reader then sees the dataset before or after, never an error."""
    for attempt in range(attempts):
        try:
            return read()
        except DatasetChanged:
            pass
        except duckdb.IOException as exc:
            if not any(word in str(exc) for word in _GONE):
                raise
        time.sleep(min(0.05 * (attempt + 1), 0.5))  # a compaction takes a moment
    return read()
