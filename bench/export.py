"""`kroeg export` of a whole dataset: hands per second for the typed notation and for
JSON Lines, in process and through the command. Prints figures; asserts nothing.

    python bench/export.py                         # 20,000 hands
    python bench/export.py --hands 100000 --cache /tmp/kroeg-bench --before /tmp/old

The dataset is `kroeg simulate --hands N --seed 1 --bots random,bluffer,cautious,sharp
--start 2020-01-01` (kept in `--cache`). `--before DIR` runs the command from another
checkout of kroeg as well (PYTHONPATH=DIR), in the same run, and says whether its output
is the same bytes.
"""

from __future__ import annotations

import argparse
import filecmp
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Literal

from kroeg.parsers.export import choose_games, export_games, skip_pandas_lookup

sys.path.insert(0, str(Path(__file__).parent))
from analysis import BOTS, simulated  # the same datasets as the analysis bench


class Sink:
    """Text written nowhere, counted."""

    def __init__(self) -> None:
        self.size = 0

    def write(self, text: str) -> int:
        self.size += len(text)
        return len(text)


def command(tree: Path | None, dataset: Path, fmt: str, out: Path) -> tuple[float, float]:
    """Wall and CPU seconds of `kroeg export` (from `tree`, else this checkout)."""
    env = {**os.environ, "PYTHONPATH": str(tree or Path(__file__).resolve().parent.parent)}
    began = time.perf_counter()
    before = os.times()
    subprocess.run(
        [sys.executable, "-c", "import sys; from kroeg.cli import app; sys.argv[0] = 'kroeg'; "
         "app()", "export", str(dataset), "--format", fmt, "--out", str(out)],
        check=True, stdout=subprocess.DEVNULL, env=env, cwd=out.parent,  # not this tree's kroeg/
    )  # fmt: skip
    after = os.times()
    cpu = (after.children_user - before.children_user) + (
        after.children_system - before.children_system
    )
    return time.perf_counter() - began, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=20_000)
    parser.add_argument("--cache", type=Path)
    parser.add_argument("--before", type=Path, help="another checkout to time beside this one")
    args = parser.parse_args()
    print(f"kroeg export bench: {args.hands:,} hands, 4-player classic, bots {','.join(BOTS)}, "
          f"python {sys.version.split()[0]}")  # fmt: skip
    skip_pandas_lookup()  # as `kroeg export` does: pyarrow would import pandas (0.3-0.9 s)
    with tempfile.TemporaryDirectory() as tmp:
        dataset = simulated(args.hands, args.cache or Path(tmp) / "cache")
        ids = choose_games(dataset)
        formats: list[Literal["text", "jsonl"]] = ["text", "jsonl"]
        for fmt in formats:
            sink = Sink()
            began, cpu = time.perf_counter(), time.process_time()
            written = export_games(dataset, ids, fmt, sink)  # type: ignore[arg-type]
            wall, cpu = time.perf_counter() - began, time.process_time() - cpu
            print(f"in process, {fmt:<5}  {wall:6.2f} s wall {cpu:6.2f} s CPU  "
                  f"{written.hands / wall:8,.0f} hands/s {written.hands / cpu:8,.0f} per CPU-s "
                  f"({sink.size:,} characters)")  # fmt: skip
        for fmt in formats:
            trees = [("this", None)] + ([("before", args.before)] if args.before else [])
            outs = []
            for label, tree in trees:
                out = Path(tmp) / f"{label}.{fmt}"
                wall, cpu = command(tree, dataset.path, fmt, out)
                outs.append(out)
                print(f"kroeg export --format {fmt:<5} ({label:<6}) {wall:6.2f} s wall "
                      f"{cpu:6.2f} s CPU  {args.hands / wall:8,.0f} hands/s "
                      f"{args.hands / cpu:8,.0f} per CPU-s")  # fmt: skip
            if len(outs) == 2:
                same = filecmp.cmp(outs[0], outs[1], shallow=False)
                print(f"  the two outputs are {'the same bytes' if same else 'DIFFERENT'}")


if __name__ == "__main__":
    main()
