"""Parse + referee throughput of the typed notation and JSON Lines. Prints figures.

    python bench/notation.py                 # 20,000 hands of 4-player classic
    python bench/notation.py --profile       # and where the time goes
    python bench/notation.py --validate --vs /work/main   # `kroeg validate`, two trees
    python bench/notation.py --stages        # the notation's reading, stage by stage

The text is the canonical form `kroeg export` writes for engine games (random
bots), so every card of every hand is known and refereed.

`--validate` times what `kroeg validate FILE` does, for a notation file and a JSON Lines
file of the same games: in process (`parsers.files.iter_file` with the lenient hook, as
the command reads; CPU seconds of the reading alone) and the whole command (wall seconds
from start to exit, imports included). Each figure runs in a fresh process of this
Python with PYTHONPATH at a tree: this one, and with `--vs TREE` another checkout (the
previous code) in the same run, alternating A B A B so that a machine's drift falls on
both; the median of `--rounds` is printed.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import os
import pstats
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from kroeg.parsers import jsonl, notation
from kroeg.recorder.referee import replay
from kroeg.recorder.rules import Ruleset
from kroeg.recorder.simulate import simulate


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=20_000)
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--validate", action="store_true", help="time `kroeg validate`")
    parser.add_argument("--vs", type=Path, help="another checkout to time beside this one")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--stages", action="store_true", help="time each stage of a reading")
    args = parser.parse_args()
    if args.stages:
        stages_bench(args.hands, args.rounds)
        return
    if args.validate:
        validate_bench(args.hands, args.vs, args.rounds)
        return
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    games = list(simulate(Ruleset.preset("classic"), 4, args.hands, 1, ["random"]))
    print(f"kroeg notation bench: {args.hands:,} hands in {len(games):,} games, 4-player classic")
    print(f"python {sys.version.split()[0]}, pinned to CPU {sorted(os.sched_getaffinity(0))}")
    began = time.perf_counter()
    for game in games:
        replay(game.rules, game.players, game.events)
    seconds = time.perf_counter() - began
    print(
        f"{'engine replay':<14} {'':>6}              referee only {seconds:6.2f} s  "
        f"{args.hands / seconds:8,.0f} hands/s   (the ceiling for any parser)"
    )
    for name, module in (("text notation", notation), ("JSON Lines", jsonl)):
        text = module.dumps(games)
        began = time.perf_counter()
        back = module.loads(text)
        seconds = time.perf_counter() - began
        assert back == games
        print(
            f"{name:<14} {len(text) / args.hands:6.0f} bytes/hand   parse + referee "
            f"{seconds:6.2f} s  {args.hands / seconds:8,.0f} hands/s   (goal >= 10,000)"
        )
    if args.profile:
        text = notation.dumps(games)
        profiler = cProfile.Profile()
        profiler.enable()
        notation.loads(text)
        profiler.disable()
        pstats.Stats(profiler).sort_stats("tottime").print_stats(15)


#: The reading `kroeg validate` does, timed in a fresh process: hands, CPU s, wall s.
_IN_PROCESS = """
import json, sys, time
import kroeg
from kroeg.parsers.files import iter_file
from kroeg.parsers.reading import collect
errors = []
began, cpu = time.perf_counter(), time.process_time()
hands = sum(game.hands for game in iter_file(sys.argv[1], errors, on_error=collect))
cpu, wall = time.process_time() - cpu, time.perf_counter() - began
assert not errors, errors[:3]
print(json.dumps([hands, cpu, wall, kroeg.__file__]))
"""
_CLI = (
    "import sys; from kroeg.cli import main; sys.argv = ['kroeg', 'validate', sys.argv[1]]; main()"
)


def _run(tree: Path, code: str, path: Path) -> tuple[float, float, str]:
    """Run `code` on `path` with kroeg from `tree`: the process's CPU seconds (user +
    system, the operating system's count), its wall seconds, and what it printed."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    began = time.perf_counter()
    # -P and a cwd of its own: `python -c` would put the current folder first on the path,
    # before PYTHONPATH, and a checkout's folder would then be imported whatever the tree.
    done = subprocess.run(
        [sys.executable, "-P", "-c", code, str(path)],
        env=env, cwd=path.parent, capture_output=True, text=True,
    )  # fmt: skip
    wall = time.perf_counter() - began
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"{tree}: {done.stderr.strip() or done.stdout.strip()}")
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    return cpu, wall, done.stdout


def validate_bench(hands: int, other: Path | None, rounds: int) -> None:
    """`kroeg validate` on the notation and JSON Lines, this tree beside `other`."""
    here = Path(__file__).resolve().parent.parent
    trees = [("this tree", here)] + ([("--vs", other.resolve())] if other else [])
    games = list(simulate(Ruleset.preset("classic"), 4, hands, 1, ["random"]))
    print(f"kroeg validate bench: {hands:,} hands in {len(games):,} games, 4-player classic")
    for label, tree in trees:
        print(f"  {label:<9} {tree}")
    print(f"python {sys.version.split()[0]}, {rounds} rounds alternating, medians; "
          f"load average before {os.getloadavg()[0]:.1f}")  # fmt: skip
    with tempfile.TemporaryDirectory() as folder:
        files = {
            "text notation": Path(folder) / "log.txt",
            "JSON Lines": Path(folder) / "log.jsonl",
        }
        notation.dump(games, files["text notation"])
        jsonl.dump(games, files["JSON Lines"])
        cpu: dict[tuple[str, str], list[float]] = {}
        command: dict[tuple[str, str], list[float]] = {}
        wall: dict[tuple[str, str], list[float]] = {}
        for round_ in range(rounds):
            for name, path in files.items():
                for label, tree in trees[:: 1 if round_ % 2 == 0 else -1]:  # A B, B A, …
                    _, _, out = _run(tree, _IN_PROCESS, path)
                    counted, seconds, _, module = json.loads(out)
                    assert counted == hands, (tree, counted)
                    assert Path(module).resolve().is_relative_to(tree), (tree, module)
                    cpu.setdefault((name, label), []).append(seconds)
                    seconds, elapsed, out = _run(tree, _CLI, path)
                    assert out.endswith(f"OK, {len(games):,} games, {hands:,} hands\n"), out
                    command.setdefault((name, label), []).append(seconds)
                    wall.setdefault((name, label), []).append(elapsed)
        print(
            f"{'':<24} {'in process':>18}   {'kroeg validate, CPU':>26}   "
            f"{'kroeg validate, wall':>24}"
        )
        for name in files:
            for label, _ in trees:
                c = statistics.median(cpu[name, label])
                k = statistics.median(command[name, label])
                w = statistics.median(wall[name, label])
                print(
                    f"{name:<14} {label:<9} {hands / c:8,.0f} hands/CPU-s   "
                    f"{k:6.2f} s {hands / k:8,.0f} hands/CPU-s   "
                    f"{w:6.2f} s {hands / w:8,.0f} hands/s"
                )
            if other:
                ratios = [
                    statistics.median(table[name, "--vs"])
                    / statistics.median(table[name, "this tree"])
                    for table in (cpu, command, wall)
                ]
                print(
                    f"{name:<14} {'speed-up':<9} {ratios[0]:8.2f}x{'':15}{ratios[1]:11.2f}x"
                    f"{'':17}{ratios[2]:11.2f}x"
                )
    print("goal (issue 27): >= 20,000 hands/s through `kroeg validate`")


def stages_bench(hands: int, rounds: int) -> None:
    """The notation's reading (strict, as a game without errors is read) stage by stage:
    each stage's best CPU time of `rounds`, per hand, stages included in the next."""
    from kroeg.parsers._io import lines
    from kroeg.parsers._lexer import lex_games
    from kroeg.parsers._referee import Referee
    from kroeg.parsers.reading import raise_error

    games = list(simulate(Ruleset.preset("classic"), 4, hands, 1, ["random"]))
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "log.txt"
        notation.dump(games, path)
        lexed = list(lex_games(lines(path), str(path)))

        def best(run: object) -> float:
            times = []
            for _ in range(rounds):
                began = time.process_time()
                run()  # type: ignore[operator]
                times.append(time.process_time() - began)
            return min(times) * 1e6 / hands

        def referee() -> None:
            for game in lexed:
                Referee(game, str(path), raise_error).run()

        def engine() -> None:
            for game in games:
                replay(game.rules, game.players, game.events)

        print(f"kroeg notation stages: {hands:,} hands, best CPU of {rounds}, µs per hand")

        def lex() -> None:
            for _ in lex_games(lines(path), None):
                pass

        print(f"read lines              {best(lambda: sum(1 for _ in lines(path))):7.1f}")
        print(f"read + lex              {best(lex):7.1f}")
        print(f"referee (from lexed)    {best(referee):7.1f}   the engine's actions included")
        print(f"engine replay alone     {best(engine):7.1f}   the same games' events, checked")


if __name__ == "__main__":
    main()
