"""Laundry swaps and armoede judged as choices, from what the swapper could see (issue
28): the expected cost of swapping against keeping the hand, the EV lost, its grade and
accuracy (`analytics.verdicts.swap_costs`, docs/STATS.md, "Swaps")."""

from __future__ import annotations

import random
import statistics
from collections import defaultdict

import pytest

from kroeg.analytics import verdicts
from kroeg.analytics.derived import facts_for_game
from kroeg.analytics.verdicts import SWAP_GRADES, swap_costs
from kroeg.recorder import trickcore
from kroeg.recorder.cards import Card
from kroeg.recorder.events import number_events
from kroeg.recorder.referee import Replay
from kroeg.recorder.rules import Ruleset
from kroeg.recorder.seeding import SeededAtFirstDraw
from kroeg.recorder.simulate import simulate
from tests.recorder.table import deal, feed, run, seat, table
from tests.recorder.test_house_rules import SEVEN, STOCK


def test_real_laundry_is_swapped_soundly_and_kept_at_a_loss() -> None:
    """Only jacks to aces, the lowest cards of classic: kept, the hand is all but lost
    (the cost is the stake, 1); swapped for four from the stock it costs an average
    hand's, and a check only makes the checker pay."""
    game = table("classic")
    deal(game, "Dan", ["Jh Jc Jd Ts", "Qh Qc Kd As", "Kh Kc Ad 8s", "Ah 7c 9d 7s"])
    ben = seat(game, "Ben")
    costs = swap_costs(game, ben, "laundry", random.Random(3), samples=64)
    assert costs is not None and costs.genuine
    assert costs.keep > 0.9
    assert costs.swap < costs.keep - 0.1
    assert costs.swap > 0.4  # a new hand still loses more often than not, at four


def test_a_false_claim_costs_the_checks_it_meets() -> None:
    """A strong hand that is no laundry (a ten and a nine): swapping it throws the cards
    away and meets the checks of the sharp bot (each other player one in four), so it
    costs more than keeping it."""
    game = table("classic")
    deal(game, "Dan", ["Jh Jc Jd Ts", "Th 9c Kd As", "Kh Kc Ad 8s", "Ah 7c 9d 7s"])
    ben = seat(game, "Ben")
    costs = swap_costs(game, ben, "laundry", random.Random(4), samples=64)
    assert costs is not None and not costs.genuine
    assert costs.swap > costs.keep + 0.3


def test_no_choice_is_not_judged() -> None:
    """Unknown cards, or rules without laundry, give no verdict."""
    game = table("classic")
    deal(game, "Dan", ["Jh Jc Jd Ts", "? ? ? ?", "Kh Kc Ad 8s", "Ah 7c 9d 7s"])
    assert swap_costs(game, seat(game, "Ben"), "laundry", random.Random(0)) is None
    lives = table("lives")
    deal(lives, "Dan", ["Jh Jc Jd Ts", "Qh Qc Kd As", "Kh Kc Ad 8s", "Ah 7c 9d 7s"])
    assert swap_costs(lives, seat(lives, "Ben"), "laundry", random.Random(0)) is None


@pytest.mark.parametrize(("preset", "variants"), [("classic", ()), ("lives", ("poverty",))])
def test_every_swap_made_is_stored_with_its_grade(preset, variants) -> None:
    """Every laundry and armoede of simulated games has its row (a forced swap, real
    laundry under `laundry_mandatory`, none: there was no choice), and the row's EV
    lost, grade and accuracy follow from its costs."""
    rules = Ruleset.preset(preset).with_variants(*variants)
    styles = ("sharp", "bluffer", "random", "cautious")
    swaps = rows = 0
    for record in simulate(rules, 4, 300, 7, styles):
        made = {
            (hand, seq) for hand, seq, e in number_events(record.events)
            if e.kind in ("laundry", "armoede")
        }  # fmt: skip
        stored = facts_for_game(record).swaps
        swaps += len(made)
        rows += len(stored)
        assert {(r["hand"], r["seq"]) for r in stored} <= made
        for row in stored:
            lost = row["ev_lost"]
            assert row["kind"] in ("laundry", "armoede")
            assert lost == max(0.0, row["cost_swap"] - row["cost_keep"])
            assert row["grade"] == verdicts.grade(lost, row["stake"], SWAP_GRADES)
            assert row["accuracy"] == verdicts.accuracy(lost, row["stake"])
    assert swaps > 20
    assert rows == swaps  # no forced swaps under these rules: each was a choice


@pytest.mark.slow
@pytest.mark.parametrize("seed", [11, 12])
def test_swaps_are_graded_in_the_order_the_bots_designs_imply(seed) -> None:
    """The sharp bot swaps only real laundry; the bluffer also swaps other hands one time
    in four, meeting the checks: the sharp bot's swaps are the more accurate. (The random
    and cautious bots swap only real laundry too, half of them or all: graded as the
    sharp bot's.)"""
    rules = Ruleset.preset("classic")
    styles = ("sharp", "bluffer", "random", "cautious")
    scores: dict[str, list[float]] = defaultdict(list)
    for record in simulate(rules, 4, 1500, seed, styles):
        for row in facts_for_game(record).swaps:
            scores[styles[int(row["seat"])]].append(float(row["accuracy"]))
    mean = {style: statistics.fmean(values) for style, values in scores.items()}
    assert mean["sharp"] > mean["bluffer"] + 0.2
    assert mean["sharp"] > 0.9


@pytest.mark.parametrize(
    ("kind", "genuine", "said"),
    [
        ("laundry", True, "Eva swapped the laundry: expected to cost 0.8; keeping the hand, 1.1"),
        ("laundry", False, "Eva swapped the laundry on a false claim: expected to cost 0.8; "
                           "keeping the hand, 1.1"),
        ("armoede", True, "Eva declared armoede: expected to cost 0.8; keeping the hand, 1.1"),
        ("armoede", False, "Eva declared armoede on a false claim: expected to cost 0.8; "
                           "keeping the hand, 1.1"),
    ],
)  # fmt: skip
def test_a_swaps_sentence_names_the_claim_and_both_costs(kind, genuine, said) -> None:
    """The replay's words for each swap: what was claimed (and whether the claim was
    false, as the swapper knew), what swapping and keeping were expected to cost, then the
    verdict: the better choice, as good as keeping (next to nothing lost), or a grade."""
    from kroeg.analytics.verdict_words import swap_verdict
    from kroeg.analytics.words import words

    w = words("en")
    mark, text = swap_verdict(w, "Eva", kind, genuine, 1, 0.8125, 1.125, 0.0, None)
    assert (mark, text) == ("sound", f"{said} (from what Eva could see). The better choice.")
    mark, text = swap_verdict(w, "Eva", kind, genuine, 1, 1.15, 1.125, 0.025, None)
    assert mark == "sound" and text.endswith("could see). As good as keeping the hand.")
    mark, text = swap_verdict(w, "Eva", kind, genuine, 2, 2.0, 1.0, 1.0, "blunder")
    assert mark == "blunder"
    assert text.endswith("Lost 1.0 of a stake of 2 in expectation: a blunder (??).")
    # Another language has its own words for each case, the figures as it writes them.
    nl = swap_verdict(words("nl"), "Eva", kind, genuine, 1, 0.8125, 1.125, 0.0, None)[1]
    assert "0,8" in nl and "1,1" in nl and "Eva" in nl and "swapped" not in nl


@pytest.mark.parametrize(
    ("preset", "variants", "players"),
    [
        ("classic", (), 4),
        ("lives", ("team-toepen",), 6),
        ("classic", ("face-up", "dirty-laundry"), 4),
        ("classic", ("check-before-swap",), 7),
    ],
    ids=["classic-4", "team-lives-6", "face-up-4", "check-before-swap-7"],
)
def test_the_trick_core_plays_a_swaps_cards_as_the_engine_would(preset, variants, players):
    """A swap's play-outs settle the swaps and checks through the engine, then play the
    cards in the trick core (nobody knocks in them): the costs are exactly those of the
    engine playing every card, on every swap of 150 simulated hands, including the
    seven-player stock that runs dry and the cards a check-before-swap holds back."""
    rules = Ruleset.preset(preset).with_variants(*variants)
    styles = ("bluffer", "sharp", "random", "cautious", "bluffer", "sharp", "random")[:players]
    compared = 0
    try:
        for record in simulate(rules, players, 150, 5, styles):
            replay = Replay(record.rules, record.players)
            for _hand, _seq, event in number_events(record.events):
                if event.kind in ("laundry", "armoede") and event.seat is not None:
                    game, seat = replay.game, event.seat
                    verdicts._PLAY_OUT_IN_THE_CORE = True
                    core = swap_costs(game, seat, event.kind, random.Random(compared))
                    verdicts._PLAY_OUT_IN_THE_CORE = False
                    engine = swap_costs(game, seat, event.kind, random.Random(compared))
                    assert core == engine, (record.game_id, event)
                    compared += core is not None
                replay.feed(event)
    finally:
        verdicts._PLAY_OUT_IN_THE_CORE = True
    assert compared >= 20


def test_a_supposed_games_source_draws_as_one_seeded_at_the_start() -> None:
    """`SeededAtFirstDraw` costs no seeding until it draws, then draws what
    `random.Random(seed)` does, through every door the engine and the core use."""
    for first in ("random", "getrandbits", "getstate", "sample", "shuffle"):
        lazy, eager = SeededAtFirstDraw(77), random.Random(77)
        assert lazy._seeded is False
        for source in (lazy, eager):
            if first == "getstate":
                source.setstate(source.getstate())
        if first == "random":
            assert lazy.random() == eager.random()
        elif first == "getrandbits":
            assert lazy.getrandbits(32) == eager.getrandbits(32)
        elif first == "sample":
            assert lazy.sample(range(32), 5) == eager.sample(range(32), 5)
        elif first == "shuffle":
            mine, theirs = list(range(32)), list(range(32))
            trickcore.shuffle(mine, lazy)
            trickcore.shuffle(theirs, eager)
            assert mine == theirs
        assert [lazy.random() for _ in range(5)] == [eager.random() for _ in range(5)]
        assert lazy.getstate() == eager.getstate()


def test_a_claim_caught_before_the_swap_leaves_its_cards_where_the_swapper_knows_them():
    """Seven at the table: a false claim caught after its four new cards sends them back,
    the whole stock. The swapper knows them: a second claim's deals put them on the stock
    (none held twice, as a dry stock once did: the engine shuffles the whole deck again);
    a player who never saw them finds unseen cards in their places."""
    game = table("classic", 7, "check-before-swap")
    deal(game, "Gijs", SEVEN)
    carla, eva = seat(game, "Carla"), seat(game, "Eva")
    run(game, "Carla laundry")
    feed(game, ["", "", STOCK])
    run(game, "Ben check Carla")
    returned = [Card.parse(c) for c in STOCK.split()]
    assert game.stock_top == returned and game.can_laundry(carla)
    rng = random.Random(3)
    for swapper, knows in ((carla, True), (eva, False)):
        seen = verdicts.seen_by(game, swapper)
        dealt = [s for s in range(game.n) if game.dealt[s]]
        fixed, hidden = verdicts._known_and_hidden(game, swapper, seen, dealt)
        order = [c for c in game.deck if c not in seen]
        top = [c if c in seen else None for c in game.stock_top]
        for _ in range(20):
            rng.shuffle(order)
            supposed = verdicts._swap_position(game, fixed, hidden, (order, [1] * 8, [], top))
            supposed.laundry(swapper)
            new = supposed.hands[swapper]
            held = [c for hand in supposed.hands for c in hand]
            assert len(set(held)) == len(held) == 28
            assert (new == returned) is knows
            assert knows or not set(new) & seen
        costs = swap_costs(game, swapper, "laundry", random.Random(5))
        assert costs is not None and costs.genuine is (swapper == eva)
