"""Imported first by the `kroeg` command: one thread for OpenBLAS, unless the user chose.

numpy (which pyarrow imports) loads OpenBLAS, whose thread pool busy-waits beside the
command on every core although kroeg does no linear algebra: measured on a 2-core
machine, `kroeg export` of 20,000 hands to JSON Lines took 0.84× the CPU and 0.95× the
wall time with one thread (farm-bench, side by side; docs/BENCHMARKS.md). It must be set
before numpy is imported; the analysis' worker processes and the dashboard's server
inherit it. The library itself (`import kroeg.recorder` …) leaves a host program's
threads alone.
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
