"""Peak memory and time of reading a large typed log: `kroeg validate` and an import's
landing (without the analysis that `kroeg import` runs after it). Prints figures.

    python bench/log_memory.py                     # a 100 MB canonical log, made first
    python bench/log_memory.py --mb 10 --jsonl     # 10 MB of JSON Lines

The log is engine games (4-player classic, random bots) written by `kroeg export`'s
writer, repeated with fresh game ids until it is the size asked for. Each step runs in
a fresh process, so each peak RSS is that step's alone.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path


def make_log(path: Path, megabytes: int, as_jsonl: bool) -> None:
    from kroeg.parsers import jsonl, notation
    from kroeg.recorder.rules import Ruleset
    from kroeg.recorder.simulate import simulate

    games = list(simulate(Ruleset.preset("classic"), 4, 2_000, 1, ["random"]))
    module = jsonl if as_jsonl else notation
    block = module.dumps(games)
    ids = [g.game_id for g in games]
    size, copy = 0, 0
    with path.open("w", encoding="utf-8") as out:
        while size < megabytes * 1_000_000:
            text = block
            for game_id in ids:  # both notations carry the games' ids: make each copy's new
                text = text.replace(game_id, f"{game_id}-{copy}")
            out.write(text)
            size += len(text.encode("utf-8"))
            copy += 1


STEP = """
import resource, sys, time
from pathlib import Path
from kroeg.parsers.files import import_files, iter_file
from kroeg.recorder.store import Dataset
began = time.perf_counter()
if sys.argv[1] == "validate":
    errors = []
    games = sum(1 for _ in iter_file(sys.argv[2], errors))
    assert not errors, errors[:1]
else:
    (report,) = import_files([sys.argv[2]], Dataset(sys.argv[3]).create())
    assert not report.rejected, report.rejected[:1]
    games = len(report.imported)
seconds = time.perf_counter() - began
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(f"{sys.argv[1]:<9} {games:>7,} games  {seconds:7.1f} s  peak RSS {peak:6.0f} MB")
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=int, default=100)
    parser.add_argument("--jsonl", action="store_true")
    parser.add_argument("--log", type=Path, help="Read this log instead of making one.")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        log = args.log or Path(tmp) / ("log.jsonl" if args.jsonl else "log.txt")
        if args.log is None:
            make_log(log, args.mb, args.jsonl)
        size = log.stat().st_size
        print(f"kroeg log bench: {log.name}, {size / 1e6:,.1f} MB, python {sys.version.split()[0]}")
        for step in ("validate", "import"):
            command = [sys.executable, "-c", STEP, step, str(log), str(Path(tmp) / "ds")]
            subprocess.run(command, check=True)


if __name__ == "__main__":
    main()
