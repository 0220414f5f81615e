"""Derived facts: knock strength, bluffs and fold regret, on positions worked out by hand."""

from __future__ import annotations

import random
from pathlib import Path

from kroeg.analytics.derived import analysed, enrich, facts_for_game, fold_regret, knock_strength
from kroeg.analytics.verdicts import shuffle
from kroeg.recorder.cards import FULL_DECK
from kroeg.recorder.events import Deal
from kroeg.recorder.records import GameRecord
from kroeg.recorder.rules import Ruleset
from kroeg.recorder.simulate import simulate
from kroeg.recorder.store import Dataset
from tests.recorder.table import deal, run, table


def test_strength_is_certain_when_no_unseen_card_can_win() -> None:
    game = table("classic")
    deal(game, "Dan", ["Jh Jc Jd Ts", "Qh Qc Kd 9s", "Kh Kc Ad 8s", "Ah 7c 9d 7s"])
    run(game, "Anna Jh", "Ben Qh", "Carla Kh", "Dan Ah", "Dan 7c", "Anna Jc", "Ben Qc", "Carla Kc")
    run(game, "Dan 9d", "Anna Jd", "Ben Kd", "Carla Ad")  # Dan leads the last trick
    game.leader = 0  # as if Anna had won trick 3 and led the last one
    game.trick_plays = []
    assert knock_strength(game, 0, random.Random(2)) == 1.0  # the Ts: no higher spade exists
    lives = table("lives")
    deal(lives, "Dan", ["Jh Jc Jd Ts", "Qh Qc Kd 9s", "Kh Kc Ad 8s", "Ah 7c 9d 7s"])
    run(lives, "Anna Jh", "Ben Qh", "Carla Kh", "Dan Ah", "Dan 7c", "Anna Jc", "Ben Qc", "Carla Kc")
    run(lives, "Dan 9d", "Anna Jd", "Ben Kd", "Carla Ad")
    lives.leader, lives.trick_plays = 0, []
    assert knock_strength(lives, 0, random.Random(2)) == 0.0  # she must take the last trick


def test_strength_is_unknown_when_the_knockers_cards_are() -> None:
    game = table("classic")
    deal(game, "Dan", ["? ? ? ?", "Qh Qc Kd 9s", "Kh Kc Ad 8s", "Ah 7c 9d 7s"])
    assert knock_strength(game, 0, random.Random(3)) is None


def test_fold_regret_by_perfect_information() -> None:
    game = table("classic")
    deal(game, "Dan", ["Jh Jc Jd Ts", "Qh Qc Kd 9s", "Kh Kc Ad 8s", "Ah 7c 9d 7s"])
    run(game, "Anna Jh", "Ben Qh", "Carla Kh", "Dan Ah", "Dan 7c", "Anna Jc", "Ben Qc", "Carla Kc")
    run(game, "Dan 9d", "Anna Jd", "Ben Kd", "Carla Ad")
    # Dan leads the last trick with 7s: Anna's Ts beats it whatever happens; Ben's 9s too.
    run(game, "Ben knock")
    assert fold_regret(game, 0) is True  # Anna would have won: folding was a mistake
    assert fold_regret(game, 2) is False  # Carla's 8s cannot beat Anna's Ts
    lives = table("lives")
    deal(lives, "Dan", ["Jh Jc Jd Ts", "Qh Qc Kd 9s", "Kh Kc Ad 8s", "Ah 7c 9d 7s"])
    run(lives, "Anna Jh", "Ben Qh", "Carla Kh", "Dan Ah", "Dan 7c", "Anna Jc", "Ben Qc", "Carla Kc")
    run(lives, "Dan 9d", "Anna Jd", "Ben Kd", "Carla Ad", "Ben knock")
    assert fold_regret(lives, 3) is True  # Dan leads 7s and is beaten: he would not lose
    assert fold_regret(lives, 0) is False  # Anna's ten takes the last trick: she would lose


def test_facts_are_stored_once_and_only_new_games_are_analysed(tmp_path: Path) -> None:
    dataset = Dataset(tmp_path / "ds")
    rules = Ruleset.preset("lives")
    dataset.write(simulate(rules, 4, 60, 1, ["random", "bluffer"]))
    first = dataset.game_ids()
    assert enrich(dataset, samples=8) == len(first)
    assert enrich(dataset, samples=8) == 0
    dataset.write(simulate(rules, 4, 30, 2, ["random", "bluffer"]))
    added = dataset.game_ids() - first
    assert added and enrich(dataset, samples=8) == len(added)
    assert analysed(dataset) == dataset.game_ids()


def test_facts_are_repeatable_and_null_for_unknown_cards() -> None:
    games = simulate(Ruleset.preset("classic"), 4, 200, 4, ["bluffer", "random"])
    game = next(
        g
        for g in games
        if {"knock", "fold"} <= {e.kind for e in g.events}
        and not {"laundry", "check"} & {e.kind for e in g.events}
    )
    assert facts_for_game(game, samples=16) == facts_for_game(game, samples=16)
    hidden = tuple(Deal(e.seat, None) if isinstance(e, Deal) else e for e in game.events)
    blind = facts_for_game(
        GameRecord(game_id="x", rules=game.rules, players=game.players, events=hidden), samples=4
    )
    assert blind.knocks and all(k["strength"] is None and k["bluff"] is None for k in blind.knocks)
    assert blind.folds and all(f["regret"] is None for f in blind.folds)


def test_the_seed_examples_folds_were_not_regrettable() -> None:
    from tests.recorder.test_seed_example import play_example

    game = play_example()
    record = GameRecord(game_id="seed", rules=game.rules, players=game.players,
                        events=tuple(game.log))  # fmt: skip
    facts = facts_for_game(record, samples=8)
    # Carla (7d As against Anna's Td 9s) cannot stop Anna taking tricks 3 and 4; Dan holds
    # no spade when Anna leads the 9s. Neither could have made sure of winning.
    assert [(f["seat"], f["cost"], f["regret"]) for f in facts.folds] == [
        (2, 1, False),
        (3, 2, False),
    ]
    assert [(k["seat"], k["players_in"]) for k in facts.knocks] == [(1, 4), (0, 3)]


def derived_rows(dataset: Dataset) -> dict[str, list[dict[str, object]]]:
    """Every stored derived row, in a fixed order."""
    rows = {}
    for name in ("knocks", "folds", "games"):
        paths = dataset.files(f"derived/{name}")
        found = [r for p in paths for r in dataset.read_file(p).to_pylist()]
        rows[name] = sorted(found, key=lambda r: (r["game_id"], r.get("seq", 0)))
    return rows


def test_the_stored_facts_do_not_depend_on_the_number_of_worker_processes(
    tmp_path: Path,
) -> None:
    games = list(simulate(Ruleset.preset("classic"), 4, 300, 6, ["random", "bluffer"]))
    one, two = Dataset(tmp_path / "one"), Dataset(tmp_path / "two")
    one.write(games)
    two.write(games)
    assert enrich(one, samples=6, batch=30, workers=1) == len(games)
    assert enrich(two, samples=6, batch=30, workers=2) == len(games)
    stored = derived_rows(one)
    assert stored["knocks"] and stored["folds"]
    assert stored == derived_rows(two)
    # Written a batch at a time, whatever the workers: the same batches of games.
    batches = [
        sorted(dataset.read_file(p).column("game_id").to_pylist()
               for p in dataset.files("derived/games"))
        for dataset in (one, two)
    ]  # fmt: skip
    assert batches[0] == batches[1] and len(batches[0]) > 1


def test_cards_dealt_before_a_redeal_are_not_taken_for_seen() -> None:
    # After armoede every card goes back and is dealt again. Counting the first deal as
    # seen left too few unseen cards for five players' hands (the analysis crashed).
    after_redeal = 0
    for game in simulate(Ruleset.preset("lives"), 5, 150, 1, ["random", "bluffer"]):
        facts = facts_for_game(game, samples=4)
        assert all(k["strength"] is not None for k in facts.knocks)  # every card is known
        hand: list[str] = []
        for event in game.events:
            hand = [] if event.kind == "hand_start" else [*hand, event.kind]
            after_redeal += event.kind == "knock" and "redeal" in hand
    assert after_redeal > 20


def test_the_analysis_shuffle_draws_exactly_as_random_shuffle() -> None:
    # The stored strengths depend on these draws: compiled or not, they must be Python's.
    for seed in range(200):
        for length in (0, 1, 2, 5, 12, 16, 28, 52):
            cards = list(FULL_DECK[:length])
            ours, theirs = list(cards), list(cards)
            mine, reference = random.Random(seed), random.Random(seed)
            shuffle(ours, mine)
            reference.shuffle(theirs)
            assert ours == theirs and mine.getstate() == reference.getstate()
