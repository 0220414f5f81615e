"""The analysis of a stored dataset as `kroeg analyse` makes it, as one command that
`farm-bench` can time whole (and `--vs` against another build's venv): the dataset is
copied without its `derived` folder into a temporary one, then `enrich` analyses it on
`--workers` processes. Prints the seconds `enrich` took and the hands a second; asserts
nothing.

    python bench/enrich.py DATASET [--workers 2]

DATASET: for instance the bench's 10,000 hands, `python bench/analysis.py --cache
/tmp/kroeg-bench` keeps them in /tmp/kroeg-bench/hands-10000. Run it from outside the
checkout (`cd /tmp`) when timing an installed build: a worker started with `-m` imports
the current folder's `kroeg` first.
"""

from __future__ import annotations

import argparse
import shutil
import tempfile
import time
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc

from kroeg.analytics.derived import enrich
from kroeg.recorder.events import HAND_OPENERS
from kroeg.recorder.store import Dataset


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dataset", type=Path)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        target = Path(tmp) / "dataset"
        shutil.copytree(args.dataset, target, ignore=shutil.ignore_patterns("derived"))
        dataset = Dataset(target)
        openers = pa.array(sorted(HAND_OPENERS))
        kinds = (dataset.read_file(f).column("kind") for f in dataset.table_files("events"))
        hands = sum(pc.sum(pc.is_in(kind, openers)).as_py() or 0 for kind in kinds)
        start = time.perf_counter()
        enrich(dataset, workers=args.workers)
        took = time.perf_counter() - start
    workers = f"{args.workers} worker{'' if args.workers == 1 else 's'}"
    print(f"{took:.3f} s, {hands:,} hands: {hands / took:,.0f} hands/s ({workers})")


if __name__ == "__main__":
    main()
