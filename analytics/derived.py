"""Derived facts, computed once per game and stored beside the dataset's tables.

    DATASET/derived/knocks/*.parquet   strength of every knock, and whether it was a bluff
    DATASET/derived/folds/*.parquet    whether every fold was regrettable, and its cost
    DATASET/derived/answers/*.parquet  every answer to a knock (stay or fold): the expected
                                       cost of each choice from what the player could see,
                                       the EV lost, its grade and accuracy
    DATASET/derived/luck/*.parquet     what each player's cards were worth at the deal
    DATASET/derived/calls/*.parquet    every Troefcall trump call: the value of naming each
                                       suit from the caller's cards, the EV lost, its grade
    DATASET/derived/announcements/*.parquet
                                       every choice at seven tricks in a row (kap, baunie,
                                       stop, play on): each option's value from the
                                       chooser's cards, the EV lost, its grade
    DATASET/derived/swaps/*.parquet    every laundry swap and armoede declared: the expected
                                       cost of swapping and of keeping the hand from the
                                       swapper's view, the EV lost, its grade
    DATASET/derived/games/*.parquet    the games already analysed (so work is never redone)
    DATASET/derived/events/*.parquet   the whole log, as the engine records it now, of a game
                                       whose stored log was written before some of its facts
                                       (docs/FORMAT.md, "Logs written before a fact")

The verdict on each knock (its strength; a **bluff** is a strength below the fair share),
each fold (its regret, in hindsight) and each answer (its expected cost) is
`analytics.verdicts`'s. Here: replaying each game to the
moment of every knock and fold, spreading games over worker processes, and storing.
A hand with unknown cards gives NULL, never a guess. docs/STATS.md has more.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field, replace
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc

from kroeg.analytics.schemas import ANALYSED_SCHEMA, ANALYSIS_VERSION, FACT_TABLES
from kroeg.analytics.verdicts import (
    ANNOUNCE_GRADES,
    ANNOUNCE_OPTIONS,
    ANNOUNCE_SAMPLES,
    CALL_GRADES,
    CALL_SAMPLES,
    CALL_STAKE,
    KNOCK_GRADES,
    SAMPLES,
    SWAP_GRADES,
    Sight,
    accuracy,
    announce_values,
    answer_costs,
    call_values,
    deal_luck,
    fold_regret,
    grade,
    knock_costs,
    knock_strength,
    swap_costs,
)
from kroeg.analytics.workers import Workers, usable_cores
from kroeg.recorder import trickcore
from kroeg.recorder.cards import Card, Suit
from kroeg.recorder.errors import KroegError
from kroeg.recorder.events import Event, number_events
from kroeg.recorder.records import GameRecord, content_id
from kroeg.recorder.referee import Replay
from kroeg.recorder.store import (
    EVENTS_SCHEMA,
    Dataset,
    events_to_table,
    pylist,
    records_from_tables,
)
from kroeg.recorder.toepen import Toepen
from kroeg.recorder.troefcall import Troefcall

__all__ = [
    "SAMPLES",
    "enrich",
    "facts_for_game",
    "fold_regret",
    "judge_announcement",
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
    answers: list[dict[str, object]] = field(default_factory=list)
    luck: list[dict[str, object]] = field(default_factory=list)
    calls: list[dict[str, object]] = field(default_factory=list)
    announcements: list[dict[str, object]] = field(default_factory=list)
    swaps: list[dict[str, object]] = field(default_factory=list)
    #: Where the engine refused the stored log part way (a log an older kroeg stored, or
    #: another tool wrote): what it said, where included. The facts stop there; the rest
    #: of the dataset is analysed as usual, and `stopped_games` names the game.
    stopped: str | None = None


def facts_for_game(record: GameRecord, samples: int = SAMPLES) -> GameFacts:
    """Strength of every knock, regret of every fold and the expected costs of every
    answer to a knock of one game (each seeded by its id), and the engine's log of it
    where the stored one lacks facts."""
    knocks: list[dict[str, object]] = []
    folds: list[dict[str, object]] = []
    answers: list[dict[str, object]] = []
    luck: list[dict[str, object]] = []
    rebuilt = Replay(record.rules, record.players)
    if record.rules.game == "troefcall":  # knocks and folds are Toepen's; calls Troefcall's
        calls, announcements, refused = _troefcall_facts(record, rebuilt, samples)
        return GameFacts(
            knocks,
            folds,
            None if refused else _upgraded(record, rebuilt),
            calls=calls,
            announcements=announcements,
            stopped=refused,
        )
    # Each verdict's own random source, seeded by the game's id (the knocks' strengths do
    # not depend on the answers being judged), and its draws kept for the whole game.
    rng, answer_rng, luck_rng, knock_rng = (
        trickcore.draws(random.Random(int(content_id("", *what, record.game_id)[:12], 16)))
        for what in ((), ("answers",), ("luck",), ("knocks",))
    )
    # The swaps' play-outs draw more than shuffles (the checks): a plain random source.
    swap_rng = random.Random(int(content_id("", "swaps", record.game_id)[:12], 16))
    swaps: list[dict[str, object]] = []
    lucky_hand = 0  # the last hand whose deal was judged
    stopped: str | None = None
    assert isinstance(rebuilt.game, Toepen)
    sight = Sight(rebuilt.game)  # what each player saw, kept up with the game's log
    for hand, seq, event in number_events(record.events):
        game = rebuilt.game
        assert isinstance(game, Toepen)
        kind, seat, _, amount, _ = event.to_row()
        if kind in ("knock", "play") and hand != lucky_hand:
            # The hand's first knock or card: the deal and the swaps are done, and every
            # player dealt in is still in (a fold comes after a knock).
            lucky_hand = hand
            luck.extend(_luck(game, record.game_id, hand, luck_rng, sight))
        if kind == "knock" and seat is not None:
            players_in = len(game.seats_in_hand())
            seen = sight.seen(seat)  # the knocker's view, for both verdicts
            strength = knock_strength(game, seat, rng, samples, seen)
            share = game.side_share()  # a side's: the strength is the side's chance
            knocks.append({
                "game_id": record.game_id, "hand": hand, "seq": seq, "seat": seat,
                "players_in": players_in, "strength": strength, "fair_share": share,
                "bluff": None if strength is None else strength < share,
                **_knock_choice(game, seat, knock_rng, seen),
            })  # fmt: skip
        elif kind == "fold" and seat is not None:
            folds.append({
                "game_id": record.game_id, "hand": hand, "seq": seq, "seat": seat,
                "cost": amount, "regret": fold_regret(game, seat),
            })  # fmt: skip
        elif kind in ("laundry", "armoede") and seat is not None:
            swap = _swap(game, seat, kind, swap_rng, sight.seen(seat))
            if swap is not None:
                swaps.append({"game_id": record.game_id, "hand": hand, "seq": seq, **swap})
        if kind in ("stay", "fold") and seat is not None:
            answer = _answer(game, seat, kind, answer_rng, samples, sight.seen(seat))
            if answer is not None:
                answers.append({"game_id": record.game_id, "hand": hand, "seq": seq, **answer})
        stopped = _refused(rebuilt, event)
        if stopped is not None:
            break
    for draws in (rng, answer_rng, luck_rng, knock_rng):
        draws.finish()
    upgraded = None if stopped else _upgraded(record, rebuilt)
    return GameFacts(knocks, folds, upgraded, answers, luck, swaps=swaps, stopped=stopped)


def _troefcall_facts(
    record: GameRecord, rebuilt: Replay, samples: int
) -> tuple[list[dict[str, object]], list[dict[str, object]], str | None]:
    """Replay a Troefcall game through `rebuilt`, judging every trump call as it is made
    (CALL_SCHEMA rows) and every choice at seven tricks in a row (ANNOUNCE_SCHEMA rows),
    up to where the engine refuses the log (`GameFacts.stopped`, else None):
    `CALL_SAMPLES` deals per call and `ANNOUNCE_SAMPLES` per choice (at the knocks'
    `SAMPLES`; in proportion to `samples` else), each seeded by the game's id."""
    rng, announce_rng = (
        random.Random(int(content_id("", what, record.game_id)[:12], 16))
        for what in ("calls", "announcements")
    )
    deals = max(1, round(samples * CALL_SAMPLES / SAMPLES))
    announce_deals = max(1, round(samples * ANNOUNCE_SAMPLES / SAMPLES))
    calls: list[dict[str, object]] = []
    announcements: list[dict[str, object]] = []
    suits = list(Suit)
    for hand, seq, event in number_events(record.events):
        kind, seat, card, _, _ = event.to_row()
        game = rebuilt.game
        if kind == "trump" and seat is not None and isinstance(game, Troefcall):
            values = call_values(game, seat, rng, deals)
            if values is not None and card is not None:
                best = max(range(len(suits)), key=values.__getitem__)
                lost = values[best] - values[suits.index(Suit(card))]
                calls.append({
                    "game_id": record.game_id, "hand": hand, "seq": seq, "seat": seat,
                    "trump": card, "best": suits[best].value,
                    **{f"value_{s.name.lower()}": v for s, v in zip(suits, values, strict=True)},
                    "stake": CALL_STAKE, "ev_lost": lost,
                    "grade": grade(lost, CALL_STAKE, CALL_GRADES),
                    "accuracy": accuracy(lost, CALL_STAKE),
                })  # fmt: skip
        elif (
            kind in ANNOUNCE_OPTIONS and seat is not None and isinstance(game, Troefcall)
            and game.phase == "announce"
        ):  # fmt: skip
            row = judge_announcement(game, seat, kind, announce_rng, announce_deals)
            if row is not None:
                announcements.append({"game_id": record.game_id, "hand": hand, "seq": seq, **row})
        refused = _refused(rebuilt, event)
        if refused is not None:
            return calls, announcements, refused
    return calls, announcements, None


def _refused(rebuilt: Replay, event: Event) -> str | None:
    """Feed `event` to the replay; what the engine said if it refused it (`GameFacts.stopped`:
    a log an older kroeg stored, or another tool wrote), else None."""
    try:
        rebuilt.feed(event)
    except KroegError as error:
        return str(error)
    return None


def judge_announcement(
    game: Troefcall, seat: int, chosen: str, rng: random.Random, samples: int
) -> dict[str, object] | None:
    """The row of one choice at seven in a row (ANNOUNCE_SCHEMA, without its place), or
    None where it cannot be judged (no choice, cards unknown, not the chooser's option)."""
    judged = announce_values(game, seat, rng, samples)
    if judged is None or chosen not in judged.values:
        return None
    values = judged.values
    best = max(values, key=values.__getitem__)  # the first best, in ANNOUNCE_OPTIONS order
    lost = values[best] - values[chosen]
    stake = game.rules.kap_points
    return {
        "seat": seat, "chosen": chosen, "best": best,
        **{f"value_{name}": values.get(name) for name in ANNOUNCE_OPTIONS},
        "baunie_chance": judged.baunie_chance, "stake": stake, "ev_lost": lost,
        "grade": grade(lost, stake, ANNOUNCE_GRADES), "accuracy": accuracy(lost, stake),
    }  # fmt: skip


def _luck(game: Toepen, game_id: str, hand: int, rng: Any, sight: Sight) -> list[dict[str, object]]:
    """The luck of each player still in at the first knock or card of a hand (LUCK_SCHEMA
    rows). In
    team toepen the cards are the side's luck, shared by its players still in (as the side
    pays once), so that a side's figures add up its players'."""
    rows: list[dict[str, object]] = []
    seats = game.seats_in_hand()
    for seat in seats:
        judged = deal_luck(game, seat, rng, seen=sight.seen(seat))
        if judged is not None:
            sharing = sum(1 for s in seats if game.sides([s]) == game.sides([seat]))
            rows.append({
                "game_id": game_id, "hand": hand, "seat": seat, "players_in": len(seats),
                "stake": game.stake, "chance": judged[0], "fair_share": game.side_share(),
                "luck": judged[1] / sharing,  # a side's chance, shared
            })  # fmt: skip
    return rows


def _answer(
    game: Toepen, seat: int, chosen: str, rng: Any, samples: int, seen: set[Card]
) -> dict[str, object] | None:
    """The row of one answer to a knock (ANSWER_SCHEMA, without its place), or None where
    it cannot be judged (cards unknown, or no choice); `seen`: what `seat` saw."""
    costs = answer_costs(game, seat, rng, samples, seen)
    if costs is None:
        return None
    stay, fold = costs.stay, costs.fold
    lost = (stay if chosen == "stay" else fold) - min(stay, fold)
    stake = game.stake
    return {
        "seat": seat, "answer": chosen, "stake": stake, "win_chance": costs.chance,
        "cost_stay": stay, "cost_fold": fold, "ev_lost": lost,
        "grade": grade(lost, stake), "accuracy": accuracy(lost, stake),
        "partners_play_on": costs.partners_play_on,
    }  # fmt: skip


def _swap(
    game: Toepen, seat: int, kind: str, rng: random.Random, seen: set[Card]
) -> dict[str, object] | None:
    """The row of a laundry swap or an armoede `seat` declares now (SWAP_SCHEMA, without its
    place), or None where it cannot be judged (cards unknown, or no choice)."""
    costs = swap_costs(game, seat, kind, rng, seen=seen)
    if costs is None:
        return None
    lost = max(0.0, costs.swap - costs.keep)
    stake = game.stake
    return {
        "seat": seat, "kind": kind, "genuine": costs.genuine, "stake": stake,
        "cost_swap": costs.swap, "cost_keep": costs.keep, "ev_lost": lost,
        "grade": grade(lost, stake, SWAP_GRADES), "accuracy": accuracy(lost, stake),
    }  # fmt: skip


#: A knock's verdict columns where it cannot be judged (cards unknown).
_KNOCK_UNJUDGED = ("cost_knock", "cost_other", "other_choice", "ev_lost", "grade", "accuracy")


def _knock_choice(game: Toepen, seat: int, rng: Any, seen: set[Card]) -> dict[str, object]:
    """The verdict columns of a knock `seat` makes now (KNOCK_SCHEMA): its expected cost
    and the other choice's, from `seat`'s view (`knock_costs`), graded by EV lost / the
    stake before the knock."""
    stake = game.stake
    costs = knock_costs(game, seat, rng, seen=seen)
    if costs is None:
        return {"stake": stake, **dict.fromkeys(_KNOCK_UNJUDGED)}
    lost = max(0.0, costs.knock - costs.other)
    return {
        "stake": stake, "cost_knock": costs.knock, "cost_other": costs.other,
        "other_choice": costs.other_choice, "ev_lost": lost,
        "grade": grade(lost, stake, KNOCK_GRADES), "accuracy": accuracy(lost, stake),
    }  # fmt: skip


def _upgraded(record: GameRecord, rebuilt: Replay) -> GameRecord | None:
    """The game with the engine's log, if that holds more than the stored one: the facts
    a log written before them lacks (an `all_folded`, a score's reason). The facts come
    where the engine records them, at the end of a hand, so every knock and fold keeps
    its place (hand, seq)."""
    log = tuple(rebuilt.finish().log)
    return None if log == record.events else replace(record, events=log)


def _registered(dataset: Dataset) -> Iterator[tuple[str, str | None]]:
    """Each game `derived/games` registers under the current analysis version, with where
    the engine stopped it (`GameFacts.stopped`; None, also in files stored before it was)."""
    for path in dataset.files("derived/games"):
        table = dataset.read_file(path)
        ids, versions = table.column("game_id").to_pylist(), table.column("version").to_pylist()
        said = table.column("stopped").to_pylist() if "stopped" in table.column_names else None
        for row, (game_id, version) in enumerate(zip(ids, versions, strict=True)):
            if version == ANALYSIS_VERSION:
                yield game_id, None if said is None else said[row]


def analysed(dataset: Dataset) -> set[str]:
    """Games whose facts are stored under the current analysis version."""
    return {game_id for game_id, _ in _registered(dataset)}


#: Games per task given to a worker process: small enough for a steady progress bar and
#: an even spread over the cores, large enough that handing the task over costs little.
CHUNK = 24
#: Below this many Toepen games (about 1,500 hands) the analysis stays in this process:
#: starting worker processes would cost more than they save.
PARALLEL_FROM = 200


def workers_for(games: int) -> int:
    """How many processes analyse `games` Toepen games: every core this process may use."""
    return 1 if games < PARALLEL_FROM else usable_cores()


#: A task: its games' rows, their events as an Arrow IPC stream, the playouts per knock.
Task = tuple[pa.Table, bytes, int]


def _chunk_facts(task: Task) -> list[tuple[int, GameFacts]]:
    """Facts of the games of one task (its `games` and `events` rows), in game_id order,
    each with its number of hands (for the progress bar). Runs in a worker process."""
    games, stream, samples = task
    events = pa.ipc.open_stream(stream).read_all()
    return [(r.hands, facts_for_game(r, samples)) for r in records_from_tables(games, events)]


def _serialized(events: pa.Table) -> bytes:
    """A slice of a row group's events as an Arrow IPC stream: only the slice's rows
    (measured: a pickled slice carries its whole group, 11.6 MB for 200 rows)."""
    sink = pa.BufferOutputStream()
    with pa.ipc.new_stream(sink, events.schema) as writer:
        writer.write_table(events)
    data: bytes = sink.getvalue().to_pybytes()
    return data


class _Tasks:
    """The tasks of an analysis, read as they are handed out: each events file's row
    groups once, in the files' order (`Dataset.event_groups`), cut into chunks of `CHUNK`
    games; `chunks` gets each chunk's game ids as its task is made, for the results
    (which come back in the tasks' order) to be matched to their games."""

    def __init__(self, dataset: Dataset, games: pa.Table, samples: int) -> None:
        # One chunk: `take` from a table of many (one per file) joins them all first.
        self.dataset, self.games, self.samples = dataset, games.combine_chunks(), samples
        ids = games.column("game_id").to_pylist()
        self.rows = {game_id: row for row, game_id in enumerate(ids)}
        self.chunks: deque[list[str]] = deque()

    def _task(self, ids: list[str], events: pa.Table) -> Task:
        rows = pa.array([self.rows[g] for g in ids], pa.int64())
        self.chunks.append(ids)
        return (self.games.take(rows), _serialized(events), self.samples)

    def __iter__(self) -> Iterator[Task]:
        seen: set[str] = set()
        for events in self.dataset.event_groups(self.rows):
            codes = events.column("game_id").chunk(0)
            # Each game's first row: the rows are sorted, a game's rows together.
            ids, starts = _runs(codes)
            ends = [*starts[1:], events.num_rows]
            for first in range(0, len(ids), CHUNK):
                last = min(first + CHUNK, len(ids)) - 1
                begin, end = starts[first], ends[last]
                yield self._task(ids[first : last + 1], events.slice(begin, end - begin))
            seen.update(ids)
        # A game listed without events (verify names it) is analysed as it reads: empty.
        without = [g for g in self.rows if g not in seen]
        for first in range(0, len(without), CHUNK):
            yield self._task(without[first : first + CHUNK], _EMPTY_EVENTS)


def _runs(codes: pa.Array) -> tuple[list[str], list[int]]:
    """The game ids of a sorted game_id column, each once, and the row each begins at."""
    if not len(codes):
        return [], []
    if pa.types.is_dictionary(codes.type):
        indices = codes.indices
        new = pc.not_equal(indices.slice(1), indices.slice(0, len(indices) - 1))
    else:
        new = pc.not_equal(codes.slice(1), codes.slice(0, len(codes) - 1))
    starts = [0, *(i + 1 for i in pc.indices_nonzero(new).to_pylist())]
    ids = pylist(codes.take(pa.array(starts, pa.int64())))
    return [str(i) for i in ids], starts


_EMPTY_EVENTS = EVENTS_SCHEMA.empty_table()


def _in_order(
    run: Callable[[Task], list[tuple[int, GameFacts]]],
    tasks: Iterable[Task],
    workers: int,
) -> Iterator[list[tuple[int, GameFacts]]]:
    """`run` over `tasks`, results in the tasks' order: here, or in `workers` processes."""
    if workers <= 1:
        yield from map(run, tasks)
        return
    with Workers[Task, list[tuple[int, GameFacts]]](workers) as pool:
        yield from pool.run(run, iter(tasks))


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
    todo = dataset.game_ids() - analysed(dataset)
    if not todo:
        return 0
    games = dataset.games_table()
    games = games.filter(pc.is_in(games.column("game_id"), pa.array(sorted(todo), pa.string())))
    if workers is None:
        workers = workers_for(games.column("game_type").to_pylist().count("toepen"))
    tasks = _Tasks(dataset, games, samples)
    # Games in the order the files hold them, a batch of about `batch` games at a time
    # (whole chunks): the same batches however many workers.
    facts_of: dict[str, list[dict[str, object]]] = {name: [] for name in FACT_TABLES}
    upgraded: list[GameRecord] = []
    ids: list[str] = []
    stopped: dict[str, str] = {}
    for results in _in_order(_chunk_facts, tasks, workers):
        chunk = tasks.chunks.popleft()
        for game_id, (hands, facts) in zip(chunk, results, strict=True):
            for name, rows in facts_of.items():
                rows.extend(getattr(facts, name))
            if facts.upgraded is not None:
                upgraded.append(facts.upgraded)
            if facts.stopped is not None:
                stopped[game_id] = facts.stopped
            if progress is not None:
                progress(hands)  # called once per game
        ids.extend(chunk)
        if len(ids) >= batch:
            _store(dataset, facts_of, upgraded, ids, stopped)
            facts_of = {name: [] for name in FACT_TABLES}
            upgraded, ids, stopped = [], [], {}
    if ids:
        _store(dataset, facts_of, upgraded, ids, stopped)
    return len(todo)


def _store(
    dataset: Dataset,
    facts_of: dict[str, list[dict[str, object]]],
    upgraded: list[GameRecord],
    ids: list[str],
    stopped: dict[str, str],
) -> None:
    """One batch's facts (`FACT_TABLES`), the logs given facts, and the games they are of
    (with where the engine stopped a game, `GameFacts.stopped`), as one operation: a crash
    leaves all of them or none, so no fact is stored twice."""
    rows = [
        {"game_id": g, "version": ANALYSIS_VERSION, "stopped": stopped.get(g)} for g in sorted(ids)
    ]
    dataset.write_derived_batch([
        *((name, pa.Table.from_pylist(facts_of[name], schema=schema))
          for name, schema in FACT_TABLES.items()),
        ("events", events_to_table(upgraded)),
        ("games", pa.Table.from_pylist(rows, schema=ANALYSED_SCHEMA)),
    ])  # fmt: skip


def stopped_games(dataset: Dataset) -> list[tuple[str, str]]:
    """The games analysed under the current version whose stored log the engine refused
    part way (`GameFacts.stopped`), each with what it said, in game_id order."""
    found = {game_id: said for game_id, said in _registered(dataset) if said is not None}
    return sorted(found.items())


def pending(dataset: Dataset) -> int:
    """How many games `bring_up_to_date` would analyse."""
    return len(dataset.game_ids() - analysed(dataset))
