"""The statistics and the analysis on Apache Spark (`--engine spark`).

One definition, two engines. The views are `analytics/sql/views.sql`, written in
DuckDB's dialect within what sqlglot (a well-kept SQL translator) turns into Spark
SQL; the few things it cannot are rewritten here on the parsed tree, never by a second
copy of a view: `x[i]` (1-based in DuckDB, 0-based in Spark) becomes
`try_element_at(x, i)`, and the one macro is expanded where it is used. The
statistics' own queries (`analytics.stats`) go through the same translation, so
`kroeg stats --engine spark` runs `stats_blocks` unchanged on a `SparkConnection`.

The analysis (knock strength, fold regret) runs the same Python engine inside Spark
tasks: each task reads its own games' events (the events table partitioned by game,
`mapInArrow`), runs `analytics.derived.facts_for_game` on each game as the worker
processes do, and the facts are stored with the same writer, so the derived files are
the same whichever engine wrote them.

pyspark is an extra (`pip install 'kroeg[spark]'`); Java comes from the system.
"""

from __future__ import annotations

import functools
import os
import re
import shutil
import sys
import warnings
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import polars as pl
import pyarrow as pa
import pyarrow.compute as pc
import sqlglot
from sqlglot import exp

from kroeg.analytics.derived import analysed, facts_for_game
from kroeg.analytics.schemas import ANALYSED_SCHEMA, ANALYSIS_VERSION, FACT_TABLES
from kroeg.analytics.verdicts import SAMPLES
from kroeg.analytics.views import RULE_PARAMETERS, TABLES, rule_rows, statements
from kroeg.recorder.errors import UsageError
from kroeg.recorder.store import EVENTS_SCHEMA, Dataset, events_to_table, records_from_tables

__all__ = ["FACTS_SCHEMA", "SparkConnection", "analyse", "to_spark"]

#: How to get the Spark engine, in one line.
HOW_TO_GET = (
    "the Spark engine needs pyspark and Java: pip install 'kroeg[spark]', and Java 17 "
    "(Debian: apt install openjdk-17-jre-headless)"
)

_MACRO = re.compile(r"CREATE OR REPLACE MACRO (\w+)\((\w+)\) AS TABLE\s+(.*)", re.S | re.I)
_SPARK_TYPES = {"VARCHAR": "STRING", "SMALLINT": "SMALLINT"}


def _session(master: str) -> Any:
    """A Spark session on `master` (`local[2]`, `spark://host:7077`), or UsageError with
    what to install."""
    # pyspark's notice about the pandas it finds: kroeg hands Spark Arrow tables, not pandas.
    warnings.filterwarnings("ignore", message="PySpark does not yet fully support pandas")
    try:
        from pyspark.sql import SparkSession
    except ImportError:
        raise UsageError(f"--engine spark: {HOW_TO_GET}") from None
    if shutil.which("java") is None:
        raise UsageError(f"--engine spark: no Java found; {HOW_TO_GET}")
    # Spark's Python workers run this interpreter (its packages: the engine, pyarrow).
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    builder: Any = SparkSession.builder
    spark = (
        builder.master(master)
        .appName("kroeg")
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")  # no progress bars over the output
        .config("spark.sql.session.timeZone", "UTC")
        .config("spark.sql.shuffle.partitions", "8")
        .getOrCreate()
    )
    spark.sparkContext.setLogLevel("ERROR")
    return spark


def _expand(call: str, body: str, match: re.Match[str]) -> str:
    """A table macro's body for one use: its parameter's table named."""
    return "(" + body.replace(call, match[1]) + ")"


def to_spark(sql: str, macros: dict[str, tuple[str, str]] | None = None) -> str:
    """DuckDB SQL (the views' and the statistics' dialect) as Spark SQL."""
    for name, (param, body) in (macros or {}).items():
        pattern = re.compile(rf"\b{name}\('(\w+)'\)", re.I)
        sql = pattern.sub(functools.partial(_expand, f"query_table({param})", body), sql)
    tree = sqlglot.parse_one(sql, read="duckdb")

    def element(node: exp.Expression) -> exp.Expression:
        if isinstance(node, exp.Bracket) and len(node.expressions) == 1:
            return exp.Anonymous(
                this="try_element_at", expressions=[node.this, node.expressions[0]]
            )
        return node

    while any(len(b.expressions) == 1 for b in tree.find_all(exp.Bracket)):  # nested: again
        tree = tree.transform(element)
    return tree.sql(dialect="spark", unsupported_level=sqlglot.ErrorLevel.RAISE)


class _Result:
    """What `DuckDBPyConnection.sql` gives that the statistics use: `.pl()`, `.fetchall()`."""

    def __init__(self, frame: Any) -> None:
        self.frame = frame

    def pl(self) -> pl.DataFrame:
        table: pa.Table = self.frame.toArrow()
        out = pl.from_arrow(table)
        assert isinstance(out, pl.DataFrame)
        return out

    def fetchall(self) -> list[tuple[Any, ...]]:
        return [tuple(row) for row in self.frame.collect()]


class SparkConnection:
    """The dataset's views on Spark, asked like a DuckDB connection (`sql(query, params)`)."""

    def __init__(self, dataset: Dataset, master: str = "local[2]") -> None:
        dataset.check()
        dataset.check_files()
        self.spark = _session(master)
        self.macros: dict[str, tuple[str, str]] = {}
        for name, folder, schema in TABLES:
            files = [str(p) for p in dataset.table_files(folder)]
            reader = self.spark.read.option("mergeSchema", "true")
            frame = (
                reader.parquet(*files)
                if files
                else self.spark.createDataFrame(schema.empty_table())
            )
            frame.createOrReplaceTempView(f"_raw_{name}")
        texts = [r[0] for r in self.sql("SELECT DISTINCT rules FROM _raw_games").fetchall()]
        columns = ", ".join(
            f"{name} {_SPARK_TYPES.get(kind, kind)}" for name, kind in RULE_PARAMETERS
        )
        rows = rule_rows([t for t in texts if t is not None])
        self.spark.createDataFrame(rows, f"rules STRING, {columns}").createOrReplaceTempView(
            "game_rules"
        )
        for statement in statements({name: f"_raw_{name}" for name, _, _ in TABLES}):
            macro = _MACRO.match(statement)
            if macro:
                self.macros[macro[1].lower()] = (macro[2], macro[3])
                continue
            view = to_spark(statement, self.macros).replace(
                "CREATE OR REPLACE VIEW", "CREATE OR REPLACE TEMPORARY VIEW", 1
            )
            self.spark.sql(view)

    def sql(self, query: str, params: Sequence[object] | None = None) -> _Result:
        """A query in the views' dialect, translated, with `?` parameters."""
        args = [list(p) if isinstance(p, tuple) else p for p in (params or [])]
        return _Result(self.spark.sql(to_spark(query, self.macros), args=args or None))


#: Spark's name of each Arrow type the facts use.
_DDL_TYPES = {
    pa.string(): "STRING", pa.int8(): "TINYINT", pa.int16(): "SMALLINT", pa.int32(): "INT",
    pa.float64(): "DOUBLE", pa.bool_(): "BOOLEAN",
}  # fmt: skip


def _facts_schema() -> pa.Schema:
    """One row per derived fact of any of `FACT_TABLES`, an event of a game's upgraded log,
    or a game the engine stopped (`fact` says which: a table's name, "events", "games"),
    as Spark tasks give them: every table's columns, once each."""
    fields: dict[str, pa.DataType] = {"fact": pa.string()}
    for schema in (*FACT_TABLES.values(), EVENTS_SCHEMA, ANALYSED_SCHEMA):
        for field in schema:
            assert fields.setdefault(field.name, field.type) == field.type, field.name
    return pa.schema(list(fields.items()))


FACTS_SCHEMA = _facts_schema()
_FACTS_DDL = ", ".join(f"{f.name} {_DDL_TYPES[f.type]}" for f in FACTS_SCHEMA)


def _facts_of(
    games: Any, samples: int
) -> Callable[[Iterator[pa.RecordBatch]], Iterator[pa.RecordBatch]]:
    """What one Spark task does with its games' events (all of each game's rows, as
    `repartition` by game gives them): the engine's verdicts, as FACTS_SCHEMA rows."""

    def run(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        events = pa.Table.from_batches(list(batches))
        if not events.num_rows:
            return
        events = events.sort_by(
            [("game_id", "ascending"), ("hand", "ascending"), ("seq", "ascending")]
        )
        table: pa.Table = games.value
        mine = table.filter(pc.is_in(table.column("game_id"), pc.unique(events.column("game_id"))))
        rows: list[dict[str, object]] = []
        for record in records_from_tables(mine, events):
            facts = facts_for_game(record, samples)
            for name in FACT_TABLES:
                rows += [{"fact": name, **row} for row in getattr(facts, name)]
            if facts.upgraded is not None:
                log = events_to_table([facts.upgraded]).to_pylist()
                rows += [{"fact": "events", **e} for e in log]
            if facts.stopped is not None:
                rows.append({"fact": "games", "game_id": record.game_id, "stopped": facts.stopped})
        if rows:
            yield pa.RecordBatch.from_pylist(rows, schema=FACTS_SCHEMA)

    return run


def analyse(
    dataset: Dataset,
    master: str = "local[2]",
    progress: Callable[[int], None] | None = None,
    batch: int = 480,
) -> int:
    """Analyse every game not analysed yet on Spark; return how many were. Safe to run
    again. Each Spark task reads its own games' events (the events table, partitioned by
    game), runs the engine's verdicts on them (`facts_for_game`, as the worker processes
    do) and hands back the facts; they are stored with the same writer, in game order,
    `batch` games at a time, so the files hold what the local path writes. The games are
    chosen, and their facts stored, with the writer lock held (`Dataset.writing`)."""
    with dataset.writing():
        return _analyse(dataset, master, progress, batch)


def _analyse(
    dataset: Dataset, master: str, progress: Callable[[int], None] | None, batch: int
) -> int:
    todo = sorted(dataset.game_ids() - analysed(dataset))
    if not todo:
        return 0
    spark = _session(master)  # first: without pyspark, the one line that says what to get
    from pyspark.sql import functions as F

    wanted = pa.array(todo, pa.string())
    games = dataset.games_table()
    games = games.filter(pc.is_in(games.column("game_id"), wanted))
    shared = spark.sparkContext.broadcast(games)
    files = [str(p) for p in dataset.table_files("events")]
    todo_frame = spark.createDataFrame(pa.table({"game_id": wanted}))
    events = (
        spark.read.parquet(*files)
        .join(F.broadcast(todo_frame), "game_id")
        .repartition(max(2, spark.sparkContext.defaultParallelism * 4), "game_id")
    )
    facts: pa.Table = events.mapInArrow(_facts_of(shared, SAMPLES), _FACTS_DDL).toArrow()
    shared.unpersist()
    facts = facts.cast(FACTS_SCHEMA).sort_by(
        [("game_id", "ascending"), ("hand", "ascending"), ("seq", "ascending")]
    )
    kinds = facts.column("fact")
    tables = {
        name: facts.filter(pc.equal(kinds, name)).select(schema.names).cast(schema)
        for name, schema in FACT_TABLES.items()
    }
    logs = facts.filter(pc.equal(kinds, "events")).select(EVENTS_SCHEMA.names)
    logs = logs.cast(EVENTS_SCHEMA)
    stops = facts.filter(pc.equal(kinds, "games"))
    stopped = dict(zip(stops.column("game_id").to_pylist(), stops.column("stopped").to_pylist(),
                       strict=True))  # fmt: skip
    for first in range(0, len(todo), batch):
        ids = pa.array(todo[first : first + batch], pa.string())
        rows = [
            {"game_id": g, "version": ANALYSIS_VERSION, "stopped": stopped.get(g)}
            for g in ids.to_pylist()
        ]
        # One operation, as the local path: a crash leaves all of them or none.
        dataset.write_derived_batch([
            *((name, table.filter(pc.is_in(table.column("game_id"), ids)))
              for name, table in tables.items()),
            ("events", logs.filter(pc.is_in(logs.column("game_id"), ids))),
            ("games", pa.Table.from_pylist(rows, schema=ANALYSED_SCHEMA)),
        ])  # fmt: skip
        if progress is not None:
            for _ in range(len(rows)):
                progress(1)
    return len(todo)
