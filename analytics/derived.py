"""Derived facts, computed once per game and stored beside the dataset's tables.

    DATASET/derived/knocks/*.parquet   strength of every knock, and whether it was a bluff
    DATASET/derived/folds/*.parquet    whether every fold was regrettable, and its cost
    DATASET/derived/games/*.parquet    the games already analysed (so work is never redone)
    DATASET/derived/events/*.parquet   the whole log, as the engine records it now, of a game
                                       whose stored log was written before some of its facts
                                       (docs/FORMAT.md, "Logs written before a fact")

The verdict on each knock (its strength; a **bluff** is a strength below the fair share)
and each fold (its regret) is `analytics.verdicts`'s. Here: replaying each game to the
moment of every knock and fold, spreading games over worker processes, and storing.
A hand with unknown cards gives NULL, never a guess. docs/STATS.md has more.
"""

from __future__ import annotations

import os
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace

import pyarrow as pa
import pyarrow.compute as pc

from kroeg.analytics.schemas import ANALYSED_SCHEMA, ANALYSIS_VERSION, FOLD_SCHEMA, KNOCK_SCHEMA
from kroeg.analytics.verdicts import SAMPLES, fold_regret, knock_strength
from kroeg.analytics.workers import Workers
from kroeg.recorder.events import number_events
from kroeg.recorder.records import GameRecord, content_id
from kroeg.recorder.referee import Replay
from kroeg.recorder.store import Dataset, events_to_table, records_from_tables
from kroeg.recorder.toepen import Toepen

__all__ = [
    "SAMPLES",
    "enrich",
    "facts_for_game",
    "fold_regret",
    "knock_strength",
    "pending",
]


@dataclass(frozen=True)
class GameFacts:
    """The derived rows of one game; `upgraded`: the game with the engine's whole log,
    where its stored log lacks facts the engine now records (else None)."""

    knocks: list[dict[str, object]]
    folds: list[dict[str, object]]
    upgraded: GameRecord | None = None


def facts_for_game(record: GameRecord, samples: int = SAMPLES) -> GameFacts:
    """Strength of every knock and regret of every fold of one game (seeded by its id),
    and the engine's log of it where the stored one lacks facts."""
    knocks: list[dict[str, object]] = []
    folds: list[dict[str, object]] = []
    rebuilt = Replay(record.rules, record.players)
    if record.rules.game != "toepen":  # knocks and folds are Toepen's: nothing to judge
        for event in record.events:
            rebuilt.feed(event)
        return GameFacts(knocks, folds, _upgraded(record, rebuilt))
    rng = random.Random(int(content_id("", record.game_id)[:12], 16))
    for hand, seq, event in number_events(record.events):
        game = rebuilt.game
        assert isinstance(game, Toepen)
        kind, seat, _, amount, _ = event.to_row()
        if kind == "knock" and seat is not None:
            players_in = len(game.seats_in_hand())
            strength = knock_strength(game, seat, rng, samples)
            share = game.fair_share(players_in)
            knocks.append({
                "game_id": record.game_id, "hand": hand, "seq": seq, "seat": seat,
                "players_in": players_in, "strength": strength, "fair_share": share,
                "bluff": None if strength is None else strength < share,
            })  # fmt: skip
        elif kind == "fold" and seat is not None:
            folds.append({
                "game_id": record.game_id, "hand": hand, "seq": seq, "seat": seat,
                "cost": amount, "regret": fold_regret(game, seat),
            })  # fmt: skip
        rebuilt.feed(event)
    return GameFacts(knocks, folds, _upgraded(record, rebuilt))


def _upgraded(record: GameRecord, rebuilt: Replay) -> GameRecord | None:
    """The game with the engine's log, if that holds more than the stored one: the facts
    a log written before them lacks (an `all_folded`, a score's reason). The facts come
    where the engine records them, at the end of a hand, so every knock and fold keeps
    its place (hand, seq)."""
    log = tuple(rebuilt.finish().log)
    return None if log == record.events else replace(record, events=log)


def analysed(dataset: Dataset) -> set[str]:
    """Games whose facts are stored under the current analysis version."""
    done: set[str] = set()
    for path in dataset.files("derived/games"):
        table = dataset.read_file(path)
        for game_id, version in zip(table.column("game_id").to_pylist(),
                                    table.column("version").to_pylist(), strict=True):  # fmt: skip
            if version == ANALYSIS_VERSION:
                done.add(game_id)
    return done


#: Games per task given to a worker process: small enough for a steady progress bar and
#: an even spread over the cores, large enough that handing the task over costs little.
CHUNK = 24
#: Below this many Toepen games (about 1,500 hands) the analysis stays in this process:
#: starting worker processes would cost more than they save.
PARALLEL_FROM = 200


def workers_for(games: int) -> int:
    """How many processes analyse `games` Toepen games: every core this process may use."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return 1 if games < PARALLEL_FROM else max(1, cores or 1)


def _chunk_facts(task: tuple[pa.Table, pa.Table, int]) -> list[tuple[int, GameFacts]]:
    """Facts of the games of one task (its `games` and `events` rows), in game_id order,
    each with its number of hands (for the progress bar). Runs in a worker process."""
    games, events, samples = task
    return [(r.hands, facts_for_game(r, samples)) for r in records_from_tables(games, events)]


def _tasks(
    dataset: Dataset, games: pa.Table, groups: list[list[list[str]]], samples: int
) -> Iterator[tuple[pa.Table, pa.Table, int]]:
    """Each group's events read once, handed out in chunks, in order."""
    for group in groups:
        events = dataset.events_table([g for chunk in group for g in chunk])
        for chunk in group:
            wanted = pa.array(chunk, pa.string())
            yield (
                games.filter(pc.is_in(games.column("game_id"), wanted)),
                events.filter(pc.is_in(events.column("game_id"), wanted)),
                samples,
            )


def _in_order(
    run: Callable[[tuple[pa.Table, pa.Table, int]], list[tuple[int, GameFacts]]],
    tasks: Iterator[tuple[pa.Table, pa.Table, int]],
    workers: int,
) -> Iterator[list[tuple[int, GameFacts]]]:
    """`run` over `tasks`, results in the tasks' order: here, or in `workers` processes."""
    if workers <= 1:
        yield from map(run, tasks)
        return
    with Workers[tuple[pa.Table, pa.Table, int], list[tuple[int, GameFacts]]](workers) as pool:
        yield from pool.run(run, tasks)


def enrich(
    dataset: Dataset,
    progress: Callable[[int], None] | None = None,
    batch: int = 480,
    samples: int = SAMPLES,
    workers: int | None = None,
) -> int:
    """Analyse every game not analysed yet; return how many were. Safe to run again.

    The games are spread over `workers` processes (default: `workers_for` the hands to
    do; analytics.spark.analyse does the same on Spark); what is stored does not depend on
    how many or where: every game's random source is seeded
    by its id, and the facts are written in game order, `batch` games at a time.
    `progress` is called with each game's number of hands as it is done.

    The games are chosen with the dataset's writer lock held, and it is held until their
    facts are stored: a second analysis waits, then finds them analysed.
    """
    with dataset.writing():
        return _enrich(dataset, progress, batch, samples, workers)


def _enrich(
    dataset: Dataset,
    progress: Callable[[int], None] | None,
    batch: int,
    samples: int,
    workers: int | None,
) -> int:
    todo = sorted(dataset.game_ids() - analysed(dataset))
    if not todo:
        return 0
    games = dataset.games_table()
    games = games.filter(pc.is_in(games.column("game_id"), pa.array(todo, pa.string())))
    if workers is None:
        workers = workers_for(games.column("game_type").to_pylist().count("toepen"))
    chunks = [todo[i : i + CHUNK] for i in range(0, len(todo), CHUNK)]
    per_batch = max(1, batch // CHUNK)
    groups = [chunks[i : i + per_batch] for i in range(0, len(chunks), per_batch)]
    results = _in_order(_chunk_facts, _tasks(dataset, games, groups, samples), workers)
    for group in groups:
        knocks: list[dict[str, object]] = []
        folds: list[dict[str, object]] = []
        upgraded: list[GameRecord] = []
        for _chunk in group:
            for hands, facts in next(results):
                knocks.extend(facts.knocks)
                folds.extend(facts.folds)
                if facts.upgraded is not None:
                    upgraded.append(facts.upgraded)
                if progress is not None:
                    progress(hands)  # called once per game
        ids = [g for chunk in group for g in chunk]
        rows = [{"game_id": g, "version": ANALYSIS_VERSION} for g in ids]
        # One operation: a crash leaves all four or none, so no fact is stored twice.
        dataset.write_derived_batch([
            ("knocks", pa.Table.from_pylist(knocks, schema=KNOCK_SCHEMA)),
            ("folds", pa.Table.from_pylist(folds, schema=FOLD_SCHEMA)),
            ("events", events_to_table(upgraded)),
            ("games", pa.Table.from_pylist(rows, schema=ANALYSED_SCHEMA)),
        ])  # fmt: skip
    return len(todo)


def pending(dataset: Dataset) -> int:
    """How many games `bring_up_to_date` would analyse."""
    return len(dataset.game_ids() - analysed(dataset))
