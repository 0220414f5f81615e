"""Troefcall's choice at seven tricks in a row (kap, baunie, stop, play on) judged from the
chooser's cards (analytics.verdicts.announce_values): each rule set's options, the sure
values the engine gives, the sampled values against an exact enumeration of every deal
the chooser could not rule out, the sharp bot choosing better than the random one under
two seeds, and the verdicts reaching the statistics."""

from __future__ import annotations

import itertools
import math
import random
import statistics
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from kroeg.analytics.derived import enrich, facts_for_game, judge_announcement
from kroeg.analytics.stats import troefcall_stats
from kroeg.analytics.verdicts import (
    ANNOUNCE_GRADES,
    announce_deals,
    announce_options,
    announce_values,
    announce_with_deal,
    grade,
)
from kroeg.analytics.views import connect
from kroeg.recorder import trickcore
from kroeg.recorder.rules import Ruleset
from kroeg.recorder.simulate import simulate, simulate_into
from kroeg.recorder.store import Dataset
from kroeg.recorder.troefcall import TEAMS, Troefcall
from kroeg.recorder.troefcall_bots import announcement, make_troefcall_bot

NAMES = ("Anna", "Ben", "Carla", "Dan")


def _positions(rules: Ruleset, seeds: range, styles: tuple[str, ...]) -> Iterator[Troefcall]:
    """Every position at seven (`kap_tricks`) tricks in a row in games of the bots
    `styles` (by seat), as the bots' table reaches it: the live game, to judge before
    the next one is asked for."""
    for seed in seeds:
        bots = [make_troefcall_bot(styles[s % len(styles)], seed + s) for s in range(4)]
        game = Troefcall(rules, NAMES, seed=seed)
        while not game.over:
            game.start_hand()
            while game.phase not in ("idle", "over"):
                if game.phase == "call":
                    assert game.caller is not None
                    game.call_trump(game.caller, bots[game.caller].call_trump(game, game.caller))
                elif game.phase in ("announce", "after_kap"):
                    if game.phase == "announce":
                        yield game
                    game.apply(announcement(game, bots))
                else:
                    mover = game.to_move
                    assert mover is not None
                    game.play(mover, bots[mover].choose_card(game, mover))


def _first(rules: Ruleset, styles: tuple[str, ...] = ("sharp", "random")) -> Troefcall:
    return next(_positions(rules, range(200), styles))


def test_each_rule_set_offers_the_choices_its_rules_allow() -> None:
    game = _first(Ruleset.preset("troefcall"))
    leader = game.leader
    partner, others = game.partner(leader), [s for s in range(4) if TEAMS[s] != TEAMS[leader]]
    assert list(announce_options(game, leader)) == ["kap", "baunie", "play"]
    assert list(announce_options(game, partner)) == ["kap", "baunie"]
    assert all(announce_options(game, s) == {} for s in others)
    assert all(announce_values(game, s, random.Random(1)) is None for s in others)
    # Silent kap: the five are scored by stopping; playing on is baunie's.
    silent = _first(Ruleset.preset("troefcall").with_variants("silent-kap"))
    assert list(announce_options(silent, silent.leader)) == ["baunie", "stop"]
    # Without baunie the hand ends at seven in a row: kap, or stop (the majority's 2).
    plain = _first(Ruleset.preset("troefcall").with_variants("no-baunie"))
    assert list(announce_options(plain, plain.leader)) == ["kap", "stop"]
    judged = announce_values(plain, plain.leader, random.Random(1), samples=4)
    assert judged is not None and judged.baunie_chance is None
    assert judged.values == {"kap": 5, "stop": 2}


def test_the_sure_options_are_worth_what_the_engine_scores() -> None:
    rules = Ruleset.preset("troefcall")
    game = _first(rules)
    before = game.snapshot()
    judged = announce_values(game, game.leader, random.Random(2), samples=16)
    assert judged is not None and judged.baunie_chance is not None
    values = judged.values
    # The 7th trick's winner's kap ends the hand at 5; playing on without a word keeps the
    # seven tricks, a majority: 2; a baunie scores 15 if made, else 2 to the others.
    assert values["kap"] == rules.kap_points and values["play"] == rules.majority_points
    made, failed = rules.baunie_points, -rules.failed_baunie_points
    assert values["baunie"] == pytest.approx(
        judged.baunie_chance * made + (1 - judged.baunie_chance) * failed
    )
    partner = announce_values(game, game.partner(game.leader), random.Random(2), samples=16)
    assert partner is not None and partner.values["kap"] == rules.partner_kap_points
    assert game.snapshot() == before  # judging plays on copies only


def _exact(game: Troefcall, seat: int) -> tuple[dict[str, float], dict[str, float], int]:
    """Every deal of the cards `seat` cannot see that keeps the suits each player showed
    out of, each played on from every option: each option's mean and standard deviation
    over them, and how many there are."""
    pool, hidden = announce_deals(game, seat)
    options = announce_options(game, seat)
    outcomes: dict[str, list[int]] = {name: [] for name in options}

    def deals(left: list[int], i: int) -> Iterator[list[list[int]]]:
        if i == len(hidden):
            yield []
            return
        _seat, need, void = hidden[i]
        for cards in itertools.combinations(left, need):
            if any(void >> (c // game.ranks) & 1 for c in cards):
                continue
            rest = [c for c in left if c not in cards]
            for tail in deals(rest, i + 1):
                yield [list(cards), *tail]

    count = 0
    for deal in deals(pool, 0):
        count += 1
        values, _ = announce_with_deal(game, seat, hidden, deal, options)
        for name, value in values.items():
            outcomes[name].append(value)
    means = {name: statistics.fmean(v) for name, v in outcomes.items()}
    spreads = {name: statistics.pstdev(v) for name, v in outcomes.items()}
    return means, spreads, count


@pytest.mark.parametrize("tricks_left", [1, 2])
def test_sampled_values_agree_with_every_deal_enumerated(tricks_left: int) -> None:
    """At seven in a row with one or two tricks left (a rule set whose kap takes 12 or 11
    tricks), the sampled values lie within 4 standard errors of the exact enumeration."""
    rules = replace(Ruleset.preset("troefcall"), kap_tricks=13 - tricks_left)
    samples = 400
    checked = 0
    for game in _positions(rules, range(400), ("sharp", "random")):
        seat = game.leader
        means, spreads, count = _exact(game, seat)
        if len(set(means.values())) < 2 or not spreads["baunie"] > 0:
            continue  # no uncertain baunie here: look further
        assert count >= 2
        judged = announce_values(game, seat, random.Random(checked), samples)
        assert judged is not None
        for name, exact in means.items():
            bound = 4 * spreads[name] / math.sqrt(samples)
            assert abs(judged.values[name] - exact) <= bound + 1e-9, (name, exact, judged)
        checked += 1
        if checked == 3:
            break
    assert checked == 3


def test_the_voids_the_chooser_saw_are_kept_in_every_deal() -> None:
    rules = Ruleset.preset("troefcall")
    game = next(g for g in _positions(rules, range(200), ("sharp", "random")) if any(g.voids))
    seat = game.leader
    pool, hidden = announce_deals(game, seat)
    # What the chooser cannot see: every card not in their hand and not yet played.
    unseen = {c for s in range(4) if s != seat for c in game.hands[s]}
    assert {game.deck[i] for i in pool} == unseen
    assert sorted(other for other, _, _ in hidden) == [s for s in range(4) if s != seat]
    draws = trickcore.draws(random.Random(7))
    try:
        for _ in range(200):
            deal = trickcore.python_supposed(hidden, pool, game.ranks, draws)
            for (other, need, _void), cards in zip(hidden, deal, strict=True):
                assert len(cards) == need == len(game.hands[other])
                assert not {game.deck[c].suit for c in cards} & game.voids[other]
    finally:
        draws.finish()


@pytest.mark.parametrize("seed", [11, 12])
def test_the_sharp_bot_chooses_better_than_the_random_one(seed: int) -> None:
    """At the same positions (the sharp bots' tables: the random bots seldom take seven in
    a row), the sharp bot's choices lose less than the random bot's."""
    rules = Ruleset.preset("troefcall")
    randoms = [make_troefcall_bot("random", seed + s) for s in range(4)]
    rng = random.Random(seed)
    accuracy: dict[str, list[float]] = {"sharp": [], "random": []}
    for game in _positions(rules, range(seed * 100, seed * 100 + 200), ("sharp",)):
        sharp = announcement(game, [make_troefcall_bot("sharp", 0)] * 4)
        other = announcement(game, randoms)
        for style, chosen in (("sharp", sharp), ("random", other)):
            row = judge_announcement(game, chosen.seat, chosen.kind, rng, 16)  # type: ignore[attr-defined]
            if row is not None:
                accuracy[style].append(float(row["accuracy"]))  # type: ignore[arg-type]
        if len(accuracy["sharp"]) >= 40 and len(accuracy["random"]) >= 40:
            break
    assert len(accuracy["sharp"]) >= 40 and len(accuracy["random"]) >= 40
    means = {style: statistics.mean(v) for style, v in accuracy.items()}
    # Measured (bench/grades.py --announcements): about 99 % against 32 %.
    assert means["sharp"] > means["random"] + 0.3, means


def test_a_partners_kap_before_the_leader_is_a_blunder_and_baunie_on_nothing_too() -> None:
    rules = Ruleset.preset("troefcall")
    for game in _positions(rules, range(200), ("sharp", "random")):
        judged = announce_values(game, game.leader, random.Random(4), samples=32)
        assert judged is not None
        if judged.baunie_chance == 0:
            lost = judged.values["kap"] - judged.values["baunie"]
            assert lost == rules.kap_points + rules.failed_baunie_points
            assert grade(lost, rules.kap_points, ANNOUNCE_GRADES) == "blunder"
            # Playing on without a word gives away the kap's 3 points more: a blunder.
            lost = judged.values["kap"] - judged.values["play"]
            assert grade(lost, rules.kap_points, ANNOUNCE_GRADES) == "blunder"
            return
    raise AssertionError("no hopeless baunie found")


def test_the_same_game_gives_the_same_announcement_verdicts() -> None:
    rules = Ruleset.preset("troefcall")
    records = simulate(rules, 4, 60, 4, ("sharp", "random"))
    rows = [row for record in records for row in facts_for_game(record).announcements]
    assert rows, "sixty hands of a sharp side hold a sweep of seven"
    again = [row for record in simulate(rules, 4, 60, 4, ("sharp", "random"))
             for row in facts_for_game(record).announcements]  # fmt: skip
    assert rows == again
    for row in rows:
        values = {k[6:]: v for k, v in row.items() if k.startswith("value_") and v is not None}
        assert row["chosen"] in values and row["best"] == max(values, key=values.__getitem__)
        assert row["ev_lost"] == values[row["best"]] - values[row["chosen"]] >= 0  # type: ignore[index]


def test_the_announcement_verdicts_reach_the_troefcall_statistics(tmp_path: Path) -> None:
    dataset = Dataset(tmp_path / "troef").create()
    simulate_into(dataset, Ruleset.preset("troefcall"), 4, 60, 4, ("sharp", "random"))
    enrich(dataset)
    frame = troefcall_stats(connect(dataset))
    stored = (
        connect(dataset)
        .sql(
            "SELECT g.players[a.seat + 1], count(*), sum(a.accuracy), sum(a.ev_lost) "
            "FROM announce_facts a JOIN games g USING (game_id) GROUP BY 1"
        )
        .fetchall()
    )
    by_player = {name: (n, points, lost) for name, n, points, lost in stored}
    assert sum(frame["announcements_judged"]) == sum(n for n, _, _ in by_player.values()) > 0
    for row in frame.iter_rows(named=True):
        n, points, lost = by_player.get(row["player"], (0, 0.0, 0.0))
        assert row["announcements_judged"] == n
        assert row["announce_accuracy"] == pytest.approx(points / n if n else None)
        assert row["ev_lost_per_announcement"] == pytest.approx(lost / n if n else None)
    sides = troefcall_stats(connect(dataset), by="side")
    assert sum(sides["announcements_judged"]) == sum(frame["announcements_judged"])
