"""Which engine runs the statistics and the analysis: DuckDB here, or Apache Spark.

DuckDB comes with every install. Spark is the `spark` extra (pyspark and sqlglot, with
Java from the system); its module is imported only when asked for, after `require`
has said in one line what to install if it is missing.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Callable
from typing import Any

from kroeg.analytics.derived import enrich, pending
from kroeg.analytics.totals import store_counts
from kroeg.analytics.views import connect
from kroeg.recorder.errors import AccessError, UsageError
from kroeg.recorder.store import Dataset

__all__ = ["ENGINES", "MISSING_SPARK", "bring_up_to_date", "connect_engine", "require"]

ENGINES = ("duckdb", "spark")
#: What `--engine spark` says where the extra is not installed.
MISSING_SPARK = "--engine spark needs the spark extra: pip install 'kroeg[spark]' (and Java 17)"
_SPARK_PACKAGES = ("pyspark", "sqlglot")


def require(engine: str) -> None:
    """Raise UsageError unless `engine` can run here (its packages are installed)."""
    if engine not in ENGINES:
        raise UsageError(f"unknown engine {engine!r}: choose one of {', '.join(ENGINES)}")
    if engine == "spark" and any(importlib.util.find_spec(p) is None for p in _SPARK_PACKAGES):
        raise UsageError(MISSING_SPARK)


def connect_engine(dataset: Dataset, engine: str, master: str = "local[2]") -> Any:
    """The dataset's views on `engine`: a DuckDB connection, or a `SparkConnection`."""
    require(engine)
    if engine == "spark":
        from kroeg.analytics.spark import SparkConnection

        return SparkConnection(dataset, master)
    return connect(dataset)


def bring_up_to_date(
    dataset: Dataset,
    progress: Callable[[int], None] | None = None,
    engine: str = "duckdb",
    master: str = "local[2]",
) -> int:
    """Store new games' counts, then analyse them (knock strength, fold regret): in
    worker processes, or (`engine="spark"`) in Spark tasks on `master`.

    `progress` is called once per game analysed. Returns how many games were analysed.

    One writer at a time: the writer lock is held from choosing the games to storing the
    last fact (another writer waits). Derived facts a dataset holds twice (two analyses
    that chose their games before kroeg held the lock for it) are removed at the end.
    """
    require(engine)
    try:
        return _bring_up_to_date(dataset, progress, engine, master)
    except AccessError:
        if pending(dataset):
            raise
        return 0  # a dataset kroeg may only read, analysed already: read it as it is


def _bring_up_to_date(
    dataset: Dataset, progress: Callable[[int], None] | None, engine: str, master: str
) -> int:
    with dataset.writing():
        store_counts(dataset)
        if engine == "spark":
            from kroeg.analytics.spark import analyse

            done = analyse(dataset, master, progress=progress)
        else:
            done = enrich(
                dataset, progress=None if progress is None else (lambda _hands: progress(1))
            )
        dataset.remove_derived_doubles()
        return done
