"""The same statistics and analysis on Apache Spark as on DuckDB: every figure compared.

Marked `spark`: skipped where pyspark or Java is missing (`make test` installs pyspark;
`.ci/run` installs Java). docs/SCALE.md says how to run it on a cluster.
"""

from __future__ import annotations

import math
import shutil
import sys
from pathlib import Path

import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from kroeg.analytics.derived import enrich
from kroeg.analytics.stats import stats_blocks
from kroeg.analytics.views import connect
from kroeg.cli import app
from kroeg.parsers.files import read_file
from kroeg.recorder.rules import Ruleset
from kroeg.recorder.simulate import simulate
from kroeg.recorder.store import Dataset
from tests.analytics.test_refused_logs import older_log

SAMPLES = Path(__file__).resolve().parents[2] / "sample_logs"


def _spark_ready() -> bool:
    try:
        import pyspark  # noqa: F401
    except ImportError:
        return False
    return shutil.which("java") is not None


spark = pytest.mark.skipif(not _spark_ready(), reason="needs pyspark and Java")


def _games() -> list:  # type: ignore[type-arg]
    """A few thousand hands of each game, the sample logs, team toepen, and a game whose
    stored log the engine refuses part way (tests/analytics/test_refused_logs.py)."""
    styles = ["random", "bluffer", "cautious", "sharp"]
    games = list(simulate(Ruleset.preset("classic"), 4, 2000, 11, styles))
    games += list(simulate(Ruleset.preset("lives").with_variants("team-toepen"), 4, 600, 12,
                           styles))  # fmt: skip
    games += list(simulate(Ruleset.preset("troefcall"), 4, 300, 13, ["sharp", "random"]))
    for log in sorted(SAMPLES.glob("*.txt")):
        games += read_file(log).games
    return [*games, older_log()]  # the engine refuses it part way: both say where


def _facts(dataset: Dataset, name: str) -> pa.Table:
    tables = [pq.read_table(p) for p in dataset.files(f"derived/{name}")]
    table = pa.concat_tables(tables)
    keys = [k for k in ("game_id", "hand", "seq") if k in table.column_names]
    return table.sort_by([(k, "ascending") for k in keys]).replace_schema_metadata(None)


def _close(x: float | None, y: float | None) -> bool:
    """Equal but for the order a sum was added in: Spark adds a group's floats in the
    order its tasks hand them over, DuckDB in its own (accuracy points summed over a
    thousand answers differ in the last bits, 1e-12 apart once in CI)."""
    if x is None or y is None:
        return x is None and y is None
    return math.isclose(x, y, rel_tol=1e-12, abs_tol=1e-12)


def _same(duck: pl.DataFrame, spark_frame: pl.DataFrame) -> None:
    """Same rows, same order, same values (integers as integers, floats to 1e-12 of
    their size)."""
    assert duck.columns == spark_frame.columns
    assert duck.height == spark_frame.height
    for column in duck.columns:
        a, b = duck[column].to_list(), spark_frame[column].to_list()
        if duck[column].dtype.is_float():
            far = [(x, y) for x, y in zip(a, b, strict=True) if not _close(x, y)]
            assert not far, (column, far[:3])
        else:
            assert a == b, column


@spark
@pytest.mark.spark
@pytest.mark.slow
@pytest.mark.timeout(1200)  # a JVM and two engines' worth of work on a loaded machine
def test_spark_gives_every_figure_duckdb_gives(tmp_path: Path) -> None:
    from kroeg.analytics.spark import SparkConnection, analyse

    games = _games()
    local, on_spark = Dataset(tmp_path / "local"), Dataset(tmp_path / "spark")
    local.write(games)
    on_spark.write(games)
    # The analysis: the same engine in worker processes and in Spark tasks (each reading
    # its own games' events), the same facts in the same files.
    assert enrich(local, workers=1) == analyse(on_spark, "local[2]") > 0
    for name in ("knocks", "folds", "games"):
        assert _facts(local, name).equals(_facts(on_spark, name)), name
    assert analyse(on_spark, "local[2]") == 0  # analysed: skipped
    # The statistics: every grouping, both games, from the same views and definitions.
    con, sc = connect(local), SparkConnection(on_spark, "local[2]")
    for by in ("player", "game", "month", "venue", "side"):
        duck, sparked = stats_blocks(con, by=by), stats_blocks(sc, by=by)
        assert [b.game_type for b in duck] == [b.game_type for b in sparked], by
        assert duck, by
        for a, b in zip(duck, sparked, strict=True):
            _same(a.frame, b.frame)
    # And the command line: the same table, whichever engine.
    runner = CliRunner()
    plain = runner.invoke(app, ["stats", str(local.path), "--type", "toepen"])
    sparked_out = runner.invoke(
        app, ["stats", str(on_spark.path), "--type", "toepen", "--engine", "spark"]
    )
    assert plain.exit_code == 0 and sparked_out.exit_code == 0, sparked_out.output
    assert plain.output == sparked_out.output


def test_without_pyspark_the_spark_engine_says_how_to_get_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    dataset = Dataset(tmp_path / "club")
    dataset.write(list(simulate(Ruleset.preset("classic"), 4, 20, 1, ["random"])))
    monkeypatch.setitem(sys.modules, "pyspark", None)  # as if not installed
    monkeypatch.setitem(sys.modules, "pyspark.sql", None)
    result = CliRunner().invoke(app, ["stats", str(dataset.path), "--engine", "spark"])
    assert result.exit_code == 2
    assert result.output.strip().splitlines() == [
        "Error: --engine spark needs the spark extra: pip install 'kroeg[spark]' (and Java 17)"
    ]
