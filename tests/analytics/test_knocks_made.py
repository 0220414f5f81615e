"""Knocks made judged as choices, from what the knocker could see (issue 28): the
expected cost of knocking against not knocking (or, for a counter-knock, against the
better answer), the EV lost, its grade and accuracy.

The sampled costs are checked against an exact enumeration of every hidden deal
consistent with what the knocker saw, on positions small enough to count them all.
"""

from __future__ import annotations

import math
import random
import statistics
from collections import defaultdict

import pytest

from kroeg.analytics import verdicts
from kroeg.analytics.derived import facts_for_game
from kroeg.analytics.verdicts import KNOCK_GRADES, knock_costs
from kroeg.recorder import trickcore
from kroeg.recorder.events import number_events
from kroeg.recorder.referee import Replay
from kroeg.recorder.rules import Ruleset
from kroeg.recorder.simulate import simulate
from kroeg.recorder.toepen import Toepen
from tests.analytics.positions import consistent_deals, decisions_late_in_the_hand
from tests.recorder.table import deal, run, table


def _before_bens_knock() -> Toepen:
    """Three tricks played (tests/analytics/test_answers.py's position), Ben about to
    knock to a stake of 2 with the nine of spades for the last trick."""
    game = table("classic")
    deal(game, "Dan", ["Jh Jc Jd Ts", "Qh Qc Kd 9s", "Kh Kc Ad 8s", "Ah 7c 9d 7s"])
    run(game, "Anna Jh", "Ben Qh", "Carla Kh", "Dan Ah", "Dan 7c", "Anna Jc", "Ben Qc", "Carla Kc")
    run(game, "Dan 9d", "Anna Jd", "Ben Kd", "Carla Ad")
    return game


def _exact(game: Toepen, seat: int) -> tuple[float, float, float]:
    """Over every deal `seat` cannot rule out: the mean cost of knocking, its standard
    deviation, and the mean cost of not knocking."""
    deals = consistent_deals(game, seat)
    paid = game.paid_this_hand[seat]
    knocking = [verdicts._knock_played_on(game, seat, d) - paid for d in deals]
    takers = game.last_trick_takers(deals)
    holding = [0.0 if game.takes_hand(seat, t) else float(game.stake) for t in takers]
    return statistics.fmean(knocking), statistics.pstdev(knocking), statistics.fmean(holding)


def test_a_knock_is_weighed_against_playing_on_without_one() -> None:
    game = _before_bens_knock()
    assert game.can_knock(1)
    exact_knock, spread, exact_hold = _exact(game, 1)
    costs = knock_costs(game, 1, random.Random(2), samples=4000)
    assert costs is not None and costs.other_choice == "play_on"
    assert abs(costs.knock - exact_knock) <= 4 * max(spread, 0.05) / math.sqrt(4000)
    assert abs(costs.other - exact_hold) <= 4 * 0.5 / math.sqrt(4000)
    # The game itself is untouched: the knock was played on copies.
    assert game.stake == 1 and not game.answer_queue and game.log[-1].kind == "trick"


def test_a_sure_winners_knock_costs_nothing() -> None:
    # Dan leads the last trick with the ten of spades, the highest card of the suit he
    # leads: whatever the others answer, he takes the hand, so neither choice costs.
    game = table("classic")
    deal(game, "Dan", ["Jh Jc Jd 7s", "Qh Qc Kd 9s", "Kh Kc Ad 8s", "Ah 7c 9d Ts"])
    run(game, "Anna Jh", "Ben Qh", "Carla Kh", "Dan Ah", "Dan 7c", "Anna Jc", "Ben Qc", "Carla Kc")
    run(game, "Dan 9d", "Anna Jd", "Ben Kd", "Carla Ad")
    costs = knock_costs(game, 3, random.Random(3), samples=200)
    assert costs == (0.0, 0.0, "play_on")


def test_a_counter_knock_is_weighed_against_the_better_answer() -> None:
    game = table("classic", 4, "kroegtoepen")
    deal(game, "Dan", ["Jh Jc Jd Ts", "Qh Qc Kd 9s", "Kh Kc Ad 8s", "Ah 7c 9d 7s"])
    run(game, "Anna Jh", "Ben Qh", "Carla Kh", "Dan Ah", "Dan 7c", "Anna Jc", "Ben Qc", "Carla Kc")
    run(game, "Dan 9d", "Anna Jd", "Ben Kd", "Carla Ad", "Ben knock")
    asked = game.answerers()[0]
    costs = knock_costs(game, asked, random.Random(4), samples=400)
    answers = verdicts.answer_costs(game, asked, random.Random(4), samples=400)
    assert costs is not None and answers is not None
    assert costs.other_choice in ("stay", "fold")
    assert costs.other == min(answers.stay, answers.fold)


def test_no_knock_allowed_or_cards_unknown_no_verdict() -> None:
    game = _before_bens_knock()
    run(game, "Ben knock")
    assert knock_costs(game, 1, random.Random(1)) is None  # his knock is being answered


@pytest.mark.parametrize(
    ("preset", "variants", "players", "seed"),
    [
        ("classic", (), 4, 1),
        ("lives", ("poverty", "dirty-laundry"), 3, 3),
        ("classic", ("team-toepen",), 4, 4),
    ],
    ids=["classic-4", "lives-3", "team-classic-4"],
)
def test_sampled_knock_costs_agree_with_the_exact_enumeration(
    preset, variants, players, seed
) -> None:
    """Within four standard errors, on up to 8 knocks late in 400 simulated hands."""
    rules = Ruleset.preset(preset).with_variants(*variants)
    checked = 0
    for game, seat in decisions_late_in_the_hand(
        rules, players, seed, ("knock",), 5_000, lambda game: not game.answer_queue
    ):
        exact_knock, spread, exact_hold = _exact(game, seat)
        samples = 1500
        costs = knock_costs(game, seat, random.Random(checked), samples)
        assert costs is not None
        bound = 4 * max(spread, game.stake / math.sqrt(samples)) / math.sqrt(samples)
        assert abs(costs.knock - exact_knock) <= bound, (seat, costs, exact_knock)
        hold_bound = 4 * game.stake * 0.5 / math.sqrt(samples)
        assert abs(costs.other - exact_hold) <= hold_bound, (seat, costs, exact_hold)
        checked += 1
        if checked == 8:
            break
    assert checked >= 3, "the simulation gave positions to check"


@pytest.mark.parametrize(
    ("preset", "variants", "players"),
    [
        ("classic", (), 4),
        ("lives", ("poverty", "dirty-laundry"), 3),
        ("classic", ("team-toepen",), 6),
        ("classic", ("kroegtoepen", "folded-card-leaves"), 5),
        ("lives", ("fast-fold", "team-toepen", "poverty"), 6),
    ],
    ids=["classic-4", "lives-3", "team-classic-6", "kroegtoepen-5", "fast-fold-team-lives-6"],
)
def test_the_answers_shared_between_deals_cost_what_a_fork_per_deal_does(
    preset, variants, players
) -> None:
    """`knock_costs` plays the answers to a knock once per sequence of answers met
    (`_KnockAnswered`): on every knock of the first hands of a simulation, counter-knocks
    included, each of 24 sampled deals costs exactly what a fork per deal makes it."""
    rules = Ruleset.preset(preset).with_variants(*variants)
    bots = ("random", "bluffer", "sharp", "cautious", "random", "bluffer")[:players]
    checked = 0
    answers_met: set[int] = set()
    for record in simulate(rules, players, 60, 5, bots):
        replay = Replay(record.rules, record.players)
        for _hand, _seq, event in number_events(record.events):
            game = replay.game
            if event.kind == "knock" and isinstance(game, Toepen) and event.seat is not None:
                seat = event.seat
                seen = verdicts.seen_by(game, seat)
                pool = [i for i, c in enumerate(game.deck) if c not in seen]
                fixed, hidden = verdicts._known_and_hidden(game, seat, seen, game.seats_in_hand())
                shared = verdicts._KnockAnswered(game, seat)
                draws = trickcore.draws(random.Random(checked))
                try:
                    for _ in range(24):
                        dealt = trickcore.python_supposed(hidden, pool, game.ranks, draws)
                        deal = [list(cards) for cards in fixed]
                        for (other, _n, _v), cards in zip(hidden, dealt, strict=True):
                            deal[other].extend(cards)
                        expected = verdicts._knock_played_on(game, seat, deal)
                        assert shared.paid(deal) == expected, (record.game_id, event)
                finally:
                    draws.finish()
                answers_met.add(len(shared.positions))
                checked += 1
            replay.feed(event)
    assert checked >= 20, "the simulation gave knocks to check"
    assert max(answers_met) > 2, "some knock met more than one sequence of answers"


def test_every_knock_stored_with_its_choice_graded_by_the_stake() -> None:
    rules = Ruleset.preset("classic")
    judged = 0
    for record in simulate(rules, 4, 300, 7, ("random", "bluffer", "sharp", "cautious")):
        for knock in facts_for_game(record).knocks:
            assert isinstance(knock["stake"], int) and knock["stake"] >= 1
            if knock["accuracy"] is None:
                continue
            judged += 1
            lost = knock["ev_lost"]
            assert lost == max(0.0, knock["cost_knock"] - knock["cost_other"])
            assert knock["grade"] == verdicts.grade(lost, knock["stake"], KNOCK_GRADES)
            assert knock["accuracy"] == verdicts.accuracy(lost, knock["stake"])
    assert judged > 50


@pytest.mark.slow
@pytest.mark.parametrize("seed", [11, 12])
@pytest.mark.parametrize(
    ("preset", "variants", "players"),
    [
        ("classic", (), 4),
        ("lives", ("poverty", "dirty-laundry"), 3),
        ("classic", ("team-toepen",), 6),
    ],
    ids=["classic-4", "lives-3", "team-classic-6"],
)
def test_knocks_are_graded_in_the_order_the_bots_designs_imply(
    preset, variants, players, seed
) -> None:
    """The sharp bot, which knocks on a strength well above its fair share, knocks more
    accurately than the random bot (by chance) and the bluffer (by design below it)."""
    rules = Ruleset.preset(preset).with_variants(*variants)
    styles = ("sharp", "random", "cautious", "bluffer", "sharp", "random")[:players]
    scores: dict[str, list[float]] = defaultdict(list)
    for record in simulate(rules, players, 1500, seed, styles):
        for knock in facts_for_game(record).knocks:
            if knock["accuracy"] is not None:
                scores[styles[int(knock["seat"])]].append(float(knock["accuracy"]))
    mean = {style: statistics.fmean(values) for style, values in scores.items()}
    assert mean["sharp"] > mean["random"]
    if "bluffer" in mean:
        assert mean["sharp"] > mean["bluffer"]
