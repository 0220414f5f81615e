"""Answers to a knock judged from what the player could see (issue 28): the expected cost
of staying and of folding, the EV lost, its grade and accuracy.

The sampled chances are checked against an exact enumeration of every hidden deal
consistent with what the player saw, on positions small enough to count them all.
"""

from __future__ import annotations

import itertools
import math
import random
import statistics
from pathlib import Path

import pytest

from kroeg.analytics.derived import enrich, facts_for_game, fold_regret
from kroeg.analytics.stats import player_stats
from kroeg.analytics.verdict_words import answer_verdict
from kroeg.analytics.verdicts import GRADES, accuracy, answer_costs, grade, win_chance
from kroeg.analytics.views import connect
from kroeg.analytics.words import words
from kroeg.recorder.events import number_events
from kroeg.recorder.referee import Replay
from kroeg.recorder.rules import Ruleset
from kroeg.recorder.simulate import simulate
from kroeg.recorder.store import Dataset
from kroeg.recorder.toepen import Toepen
from tests.analytics.positions import consistent_deals, decisions_late_in_the_hand, hidden
from tests.recorder.table import deal, run, table


def _position() -> Toepen:
    """Worked by hand (tests/analytics/test_derived.py): three tricks played, Dan to lead
    the last one, Ben knocks to a stake of 2. Anna holds the ten of spades, the highest
    spade: she cannot lose the last trick."""
    game = table("classic")
    deal(game, "Dan", ["Jh Jc Jd Ts", "Qh Qc Kd 9s", "Kh Kc Ad 8s", "Ah 7c 9d 7s"])
    run(game, "Anna Jh", "Ben Qh", "Carla Kh", "Dan Ah", "Dan 7c", "Anna Jc", "Ben Qc", "Carla Kc")
    run(game, "Dan 9d", "Anna Jd", "Ben Kd", "Carla Ad", "Ben knock")
    return game


def test_hindsight_and_what_the_player_saw_can_disagree() -> None:
    """Anna's ten of spades takes the last trick as the cards lay (hindsight: a fold would
    be regrettable), but Dan leads it and she cannot see his card: led any other suit,
    she cannot follow and her ten is worth nothing. From her view, staying at a stake of
    2 is expected to cost more than the fold's 1."""
    game = _position()
    assert answer_costs(game, 0, random.Random(1)) is None  # Carla and Dan answer first
    run(game, "Carla stay", "Dan stay")
    assert game.stake == 2 and game.fold_price() == 1
    assert fold_regret(game, 0) is True
    exact = _exact_chance(game, 0)
    assert 0.3 < exact < 0.5
    costs = answer_costs(game, 0, random.Random(1), samples=4000)
    assert costs is not None
    chance, stay, fold, partners = costs
    assert partners is False  # nobody plays on for Anna
    assert abs(chance - exact) <= 4 * math.sqrt(exact * (1 - exact) / 4000)
    assert fold == 1.0 and stay == pytest.approx((1 - chance) * 2) and stay > fold
    # Folding was the better answer: no EV lost; staying would have lost a little.
    assert grade(0.0, 2) is None and accuracy(0.0, 2) == 1.0
    assert 0 < accuracy(stay - fold, 2) < 1


def test_the_answer_is_judged_on_the_answerers_cards_not_everyones() -> None:
    """Carla (8s) cannot see that Anna holds the Ts: her chance is the exact share of the
    hidden deals she cannot rule out, not the 0 of the cards as they lay."""
    game = _position()
    exact = _exact_chance(game, 2)
    assert 0.0 < exact < 1.0
    sampled = win_chance(game, 2, random.Random(4), samples=4000)
    assert sampled is not None
    assert abs(sampled - exact) <= 4 * math.sqrt(exact * (1 - exact) / 4000)


def test_no_choice_no_verdict() -> None:
    game = _position()
    assert answer_costs(game, 1, random.Random(1)) is None  # Ben knocked: he does not answer


def test_grades_and_accuracy_follow_the_ev_lost_relative_to_the_stake() -> None:
    thresholds = dict(GRADES)
    assert thresholds["inaccuracy"] < thresholds["mistake"] < thresholds["blunder"]
    assert grade(0.0, 2) is None
    assert grade(thresholds["inaccuracy"] * 4, 4) == "inaccuracy"
    assert grade(thresholds["mistake"] * 4, 4) == "mistake"
    assert grade(thresholds["blunder"] * 4, 4) == "blunder"
    values = [accuracy(lost / 10, 1) for lost in range(11)]
    assert values[0] == 1.0 and all(a > b or a == b == 0.0 for a, b in itertools.pairwise(values))
    assert 0.0 <= values[-1] < 0.02


def _exact_chance(game: Toepen, seat: int) -> float:
    """The share of `consistent_deals` that `seat`'s side wins, played out by the
    reference policy (`Toepen.last_trick_takers`)."""
    deals = consistent_deals(game, seat)
    wins = sum(1 for taker in game.last_trick_takers(deals) if game.takes_hand(seat, taker))
    return wins / len(deals)


@pytest.mark.parametrize(
    ("preset", "variants", "players", "seed"),
    [
        ("classic", (), 4, 1),
        ("classic", (), 3, 2),
        ("lives", ("poverty", "dirty-laundry"), 3, 3),
        ("classic", ("team-toepen",), 4, 4),
        ("lives", ("team-toepen",), 6, 5),
        ("classic", ("face-up", "dirty-laundry"), 4, 6),
    ],
    ids=["classic-4", "classic-3", "lives-3", "team-classic-4", "team-lives-6", "face-up-4"],
)
def test_sampled_chances_agree_with_the_exact_enumeration(preset, variants, players, seed) -> None:
    """Within four standard errors, on every such position of 400 simulated hands (at
    most 12, and every one where a hand is played face up): the hidden deals are drawn
    consistently with what the player saw, a hand played face up kept as it is."""
    rules = Ruleset.preset(preset).with_variants(*variants)
    checked = face_up = 0
    for game, seat in decisions_late_in_the_hand(rules, players, seed, ("stay", "fold"), 40_000):
        shown = any(hidden(game, seat)[1].values())
        if checked >= 12 and not shown:
            continue
        face_up += shown
        exact = _exact_chance(game, seat)
        samples = 2000
        sampled = win_chance(game, seat, random.Random(checked), samples)
        assert sampled is not None
        bound = 4 * math.sqrt(max(exact * (1 - exact), 1 / samples) / samples)
        assert abs(sampled - exact) <= bound, (game.trick_no, seat, sampled, exact)
        costs = answer_costs(game, seat, random.Random(checked), samples)
        assert costs is not None
        chance, stay, fold, _ = costs
        assert stay == pytest.approx((1 - chance) * game.stake)
        if not rules.teams:
            assert fold == game.fold_price()  # a lone folder pays the price and is done
        else:
            assert fold >= game.fold_price()  # the side may pay again if the partner loses
        checked += 1
    assert checked >= 3, "the simulation gave positions to check"
    if "face-up" in variants:
        assert face_up, "a position with a hand played face up was checked"


def test_every_answer_is_judged_and_the_ev_lost_is_against_the_better_answer() -> None:
    record = next(
        r
        for r in simulate(Ruleset.preset("classic"), 4, 60, 9, ["sharp", "random"])
        if any(e.kind in ("stay", "fold") for e in r.events)
    )
    facts = facts_for_game(record, samples=16)
    answers = [e for e in record.events if e.kind in ("stay", "fold")]
    assert 0 < len(facts.answers) <= len(answers)
    for row in facts.answers:
        chosen = row["cost_stay"] if row["answer"] == "stay" else row["cost_fold"]
        best = min(row["cost_stay"], row["cost_fold"])  # type: ignore[type-var]
        assert row["ev_lost"] == pytest.approx(chosen - best)  # type: ignore[operator]
        assert row["grade"] == grade(row["ev_lost"], row["stake"])  # type: ignore[arg-type]


@pytest.mark.parametrize("preset", ["classic", "team"])
def test_an_answer_records_whether_partners_play_on_after_a_fold(preset: str) -> None:
    """The stored `partners_play_on` is the position's fact: a partner of the answering
    player still in the hand when they answered (team toepen only), whatever the costs
    came to (an expected cost can be a whole number, so no surface guesses it from one)."""
    rules = Ruleset.preset("classic")
    if preset == "team":
        rules = rules.with_variants("team-toepen")
    seen = set()
    for record in simulate(rules, 4, 12, 21, ["sharp", "bluffer"]):
        facts = facts_for_game(record, samples=4)
        rows = {(r["hand"], r["seq"]): r for r in facts.answers}
        replay = Replay(record.rules, record.players)
        for hand, seq, event in number_events(record.events):
            row = rows.get((hand, seq))
            if row is not None:
                game = replay.game
                assert isinstance(game, Toepen)
                seat = row["seat"]
                partners = [s for s in game.side_seats[seat] if s != seat]  # type: ignore[index]
                expected = any(game.in_hand(s) for s in partners)
                assert row["partners_play_on"] is expected, (record.game_id, hand, seq)
                seen.add(expected)
            replay.feed(event)
    assert seen == ({True, False} if preset == "team" else {False})


def test_the_knocks_strengths_do_not_depend_on_the_answers_being_judged(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Each verdict draws from its own random source: judging the answers (or not) leaves
    every knock's strength as it is."""
    import kroeg.analytics.derived as derived

    record = next(
        r
        for r in simulate(Ruleset.preset("classic"), 4, 60, 9, ["sharp", "random"])
        if sum(e.kind == "knock" for e in r.events) >= 2
    )
    judged = facts_for_game(record, samples=16)
    monkeypatch.setattr(derived, "_answer", lambda *args: None)
    unjudged = facts_for_game(record, samples=16)
    assert judged.answers and not unjudged.answers
    assert judged.knocks == unjudged.knocks


@pytest.mark.parametrize(
    ("preset", "variants", "players"),
    [("classic", (), 4), ("lives", ("poverty", "dirty-laundry"), 3)],
    ids=["classic", "lives"],
)
@pytest.mark.parametrize("seed", [21, 22])
def test_bots_are_graded_in_the_order_their_design_implies(preset, variants, players, seed) -> None:
    """The sharp bot answers by pot odds, the cautious one folds all but strong hands, the
    random one tosses a coin: that order of accuracy, under two seeds. (Team toepen: the
    next test.)"""
    rules = Ruleset.preset(preset).with_variants(*variants)
    styles = ("sharp", "cautious", "random")
    seats = styles + ("random",) * (players - 3)
    accuracy_of: dict[str, list[float]] = {s: [] for s in styles}
    for record in simulate(rules, players, 500, seed, seats):
        for row in facts_for_game(record, samples=24).answers:
            accuracy_of[seats[int(row["seat"])]].append(float(row["accuracy"]))  # type: ignore[call-overload,arg-type]
    means = {s: statistics.mean(v) for s, v in accuracy_of.items()}
    assert means["sharp"] > means["cautious"] > means["random"], means


@pytest.mark.parametrize("preset", ["classic", "lives"])
@pytest.mark.parametrize("seed", [21, 22])
def test_in_team_toepen_bots_are_graded_by_how_seldom_they_fold(preset, seed) -> None:
    """In team toepen a fold pays and leaves the partners to play on, so the side can pay
    twice: the answer that stays is the better one nearly always. The sharp bot knows it
    (it stays while a partner is in, where the last trick wins; by pot odds under lives),
    the bluffer folds one time in eight, the random bot one in two and the cautious bot
    all but its strong hands: that order of accuracy, under two seeds."""
    rules = Ruleset.preset(preset).with_variants("team-toepen")
    seats = ("sharp", "random", "cautious", "bluffer", "sharp", "random")
    accuracy_of: dict[str, list[float]] = {s: [] for s in seats}
    for record in simulate(rules, 6, 300, seed, seats):
        for row in facts_for_game(record, samples=24).answers:
            accuracy_of[seats[int(row["seat"])]].append(float(row["accuracy"]))  # type: ignore[call-overload,arg-type]
    means = {s: statistics.mean(v) for s, v in accuracy_of.items()}
    assert means["sharp"] > means["bluffer"] > means["random"] > means["cautious"], means


def test_stats_and_the_replay_read_the_stored_answers(tmp_path: Path) -> None:
    dataset = Dataset(tmp_path / "ds")
    dataset.write(simulate(Ruleset.preset("classic"), 4, 120, 5, ["sharp", "random"]))
    enrich(dataset, samples=8)
    con = connect(dataset)
    rows = con.sql(
        "SELECT seat, count(*), sum(accuracy), sum(ev_lost), "
        "count(*) FILTER (WHERE grade = 'blunder') FROM answer_facts GROUP BY seat ORDER BY seat"
    ).fetchall()
    assert rows, "the analysis stored answers"
    frame = player_stats(con).sort("player")
    by_seat = {seat: (n, acc, lost, blunders) for seat, n, acc, lost, blunders in rows}
    players = ("Anna", "Ben", "Carla", "Dan")
    for seat, (n, acc, lost, blunders) in by_seat.items():
        row = frame.filter(frame["player"] == players[seat]).row(0, named=True)
        assert row["answers_known"] == n and row["blunders"] == blunders
        assert row["answer_accuracy"] == pytest.approx(acc / n)
        assert row["ev_lost_per_answer"] == pytest.approx(lost / n)
    luck = con.sql(
        "SELECT seat, sum(luck), sum(luck * stake), count(*) FROM luck_facts GROUP BY seat"
    ).fetchall()
    assert set(by_seat) <= {seat for seat, *_ in luck}  # whoever answered was dealt luck
    for seat, total, value, hands in luck:
        row = frame.filter(frame["player"] == players[seat]).row(0, named=True)
        assert row["luck_hands"] == hands
        assert row["luck_per_hand"] == pytest.approx(total / hands)
        assert row["luck_adjusted_cost"] == pytest.approx((row["paid"] + value) / row["hands"])
    en = words("en")
    mark, said = answer_verdict(en, "Carla", "stay", 2, 0.25, 1.5, 1.0, 0.5, "blunder")
    assert mark == "blunder"
    assert said.startswith("Stayed in: expected to cost 1.5; folding would have cost 1.0")
    assert "25%" in said and "a blunder (??)." in said
    mark, said = answer_verdict(en, "Anna", "fold", 2, 0.2, 1.6, 1.0, 0.0, None)
    assert mark == "sound" and "The better answer" in said
    mark, said = answer_verdict(en, "Ben", "stay", 4, 0.1, 3.6, 3.0, 0.6, None)
    assert mark == "sound" and "Lost 0.6 of a stake of 4 in expectation: under a quarter" in said
    mark, said = answer_verdict(en, "Dan", "fold", 2, 0.8, 0.4, 1.3, 0.9, "inaccuracy", True)
    assert "Folded: expected to cost 1.3" in said and "an inaccuracy (?!)." in said
    assert "the side pays the stake again if the partners lose" in said
    # In Dutch: the same verdict in the catalogue's words, its numbers as Dutch writes them.
    mark, said = answer_verdict(words("nl"), "Carla", "stay", 2, 0.25, 1.5, 1.0, 0.5, "blunder")
    assert mark == "blunder" and "1,5" in said and "??" in said and "Stayed in" not in said


@pytest.mark.parametrize("preset", ["classic", "lives"])
def test_the_luck_of_the_deal_is_nothing_on_average(preset: str) -> None:
    """Over every seat and hand, what the cards were worth against an average hand comes to
    nothing within four standard errors of 1,200 player-hands (a lean of about 0.025 would
    pass: docs/STATS.md measures the lean that laundry and knocks bring, on 12,000): each
    seat's chance is the fair share on average, by the law of total probability."""
    luck: list[float] = []
    for record in simulate(Ruleset.preset(preset), 4, 300, 31, ["sharp", "random"]):
        for row in facts_for_game(record, samples=8).luck:
            assert row["luck"] == pytest.approx(row["chance"] - row["fair_share"])  # type: ignore[operator]
            luck.append(float(row["luck"]))  # type: ignore[arg-type]
    assert len(luck) > 900
    error = statistics.stdev(luck) / math.sqrt(len(luck))
    assert abs(statistics.mean(luck)) <= 4 * error


def test_the_expected_result_ends_at_what_each_player_paid() -> None:
    """The replay's graph: from the first card or knock, each player's expected result is
    between nothing and losing the stake on top of what they paid; at the end it is what
    they paid, as the engine recorded it."""
    from kroeg.analytics.expectations import hand_expectations
    from kroeg.parsers import notation

    (record,) = notation.load(Path("sample_logs/laundry-and-checks.txt"))
    frame = hand_expectations(record, 2)
    paid = {s: 0 for s in range(4)}
    for number, _seq, event in number_events(record.events):
        if number == 2 and event.kind == "pay" and event.seat is not None:
            paid[event.seat] += event.amount or 0
    last = frame.filter(frame["seq"] == frame["seq"].max())
    assert {r["player"]: r["expected"] for r in last.iter_rows(named=True)} == {
        record.players[s]: -float(p) for s, p in paid.items()
    }
    assert frame["seq"].n_unique() > 10 and frame["expected"].max() <= 0.0  # type: ignore[operator]
    assert frame["expected"].min() >= -(max(paid.values()) + 3)  # type: ignore[operator]
    troef = next(simulate(Ruleset.preset("troefcall"), 4, 4, 1, ["random"]))
    assert hand_expectations(troef, 1).is_empty()


def test_a_dataset_analysed_before_the_answers_gets_them(tmp_path: Path) -> None:
    """A dataset whose games were analysed under version 3 (no answers, no luck, the old
    hidden deals) is analysed again by the next `kroeg stats`: the answers and the luck
    appear, the old batch's facts are not counted twice, and the figures are the ones a
    fresh analysis gives."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    from kroeg.analytics.engines import bring_up_to_date
    from kroeg.analytics.schemas import ANALYSIS_VERSION

    old = Dataset(tmp_path / "old")
    fresh = Dataset(tmp_path / "fresh")
    for ds in (old, fresh):
        ds.write(simulate(Ruleset.preset("classic"), 4, 80, 12, ["sharp", "random"]))
    enrich(old, samples=8)  # its first analysis, soon outdated
    bring_up_to_date(fresh)
    for path in old.files("derived/games"):  # as the code before issue 28 left it
        table = pq.read_table(path)
        pq.write_table(
            table.set_column(1, "version", pa.array([3] * table.num_rows, pa.int16())), path
        )
    for name in ("answers", "luck"):
        for path in old.files(f"derived/{name}"):
            path.unlink()
    assert ANALYSIS_VERSION > 3
    assert connect(old).sql("SELECT count(*) FROM answer_facts").fetchall() == [(0,)]
    assert bring_up_to_date(old) == len(old.game_ids())
    assert not old.derived_doubles()
    by_seat = "SELECT seat, count(*), sum(ev_lost) FROM answer_facts GROUP BY 1 ORDER BY 1"
    assert connect(old).sql(by_seat).fetchall() == connect(fresh).sql(by_seat).fetchall() != []


def test_answers_stored_before_a_column_was_added_still_read(tmp_path: Path) -> None:
    """A dataset whose answers were stored by analysis version 4 (no `partners_play_on`)
    reads until it is analysed again: the replay's and the newsletter's queries see the
    column as NULL, and the replay's reads it as no partners playing on."""
    import pyarrow.parquet as pq

    from kroeg.analytics.moments import blunder
    from kroeg.analytics.pages import hand_answers
    from kroeg.analytics.schemas import ANSWER_SCHEMA

    dataset = Dataset(tmp_path / "ds")
    dataset.write(simulate(Ruleset.preset("classic"), 4, 30, 3, ["sharp", "random"]))
    enrich(dataset)
    files = dataset.files("derived/answers")
    assert files, "the analysis stored answers"
    for path in files:  # as version 4 wrote them
        table = pq.read_table(path)
        pq.write_table(table.drop_columns(["partners_play_on"]), path)
    assert "partners_play_on" not in pq.read_schema(files[0]).names
    assert "partners_play_on" in ANSWER_SCHEMA.names
    con = connect(dataset)
    game_id, hand = con.sql("SELECT game_id, hand FROM answer_facts LIMIT 1").fetchall()[0]
    rows = hand_answers(con, game_id, hand)
    assert len(rows) >= 1 and rows["partners_play_on"].to_list() == [False] * len(rows)
    con.sql(blunder("true")).fetchall()  # the newsletter's query binds
