"""The statistics and the analysis on Apache Spark (`--engine spark`).

One definition, two engines. The views are `analytics/sql/views.sql`, written in
DuckDB's dialect within what sqlglot (a well-kept SQL translator) turns into Spark
SQL; the few things it cannot are rewritten here on the parsed tree, never by a second
copy of a view: `x[i]` (1-based in DuckDB, 0-based in Spark) becomes
`try_element_at(x, i)`, and the one macro is expanded where it is used. The
statistics' own queries (`analytics.stats`) go through the same translation, so
`kroeg stats --engine spark` runs `stats_blocks` unchanged on a `SparkConnection`.

The analysis (knock strength, fold regret) runs the same Python engine inside Spark
tasks: `analytics.derived.enrich` hands each chunk of games to a Spark task instead of
a worker process, and stores what comes back with the same writer, so the derived files
are the same whichever engine wrote them.

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
from typing import Any, TypeVar

import polars as pl
import pyarrow as pa
import sqlglot
from sqlglot import exp

from analytics.views import RULE_PARAMETERS, TABLES, rule_rows, statements
from recorder.errors import UsageError
from recorder.store import Dataset

__all__ = ["SparkConnection", "connect_engine", "spark_runner", "to_spark"]

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

    def cursor(self) -> SparkConnection:
        return self


T = TypeVar("T")
R = TypeVar("R")


def spark_runner(
    master: str, slices: int = 8
) -> Callable[[Callable[[T], R], Iterator[T]], Iterator[R]]:
    """Run `function` over `tasks` in Spark tasks, results in the tasks' order: what
    `analytics.derived.enrich` does with worker processes, on a Spark cluster."""
    spark = _session(master)
    context = spark.sparkContext

    def run(function: Callable[[T], R], tasks: Iterator[T]) -> Iterator[R]:
        batch: list[T] = []
        for task in tasks:
            batch.append(task)
            if len(batch) == slices:
                yield from context.parallelize(batch, len(batch)).map(function).collect()
                batch = []
        if batch:
            yield from context.parallelize(batch, len(batch)).map(function).collect()

    return run


def connect_engine(dataset: Dataset, engine: str, master: str = "local[2]") -> Any:
    """The dataset's views on `engine`: a DuckDB connection, or a `SparkConnection`."""
    if engine == "spark":
        return SparkConnection(dataset, master)
    from analytics.views import connect

    return connect(dataset)
