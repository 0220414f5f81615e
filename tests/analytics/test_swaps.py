"""Laundry swaps and armoede judged as choices, from what the swapper could see (issue
28): the expected cost of swapping against keeping the hand, the EV lost, its grade and
accuracy (`analytics.verdicts.swap_costs`, docs/STATS.md, "Swaps")."""

from __future__ import annotations

import copy
import pickle
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
from kroeg.recorder.records import GameRecord
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
    unseeded = SeededAtFirstDraw(5)
    for copied in (copy.copy(unseeded), pickle.loads(pickle.dumps(unseeded))):
        assert copied._seeded is False and copied.random() == random.Random(5).random()
    drawn = SeededAtFirstDraw(5)
    drawn.random()
    assert copy.deepcopy(drawn).random() == drawn.random()
    assert SeededAtFirstDraw(9).gauss() == random.Random(9).gauss()


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
        fixed, hidden, order, top = verdicts._swapper_view(game, swapper)
        assert top == (returned if knows else [None] * 4)
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


def test_cards_sent_back_leave_the_stocks_top_when_a_checked_real_claim_takes_them():
    """Six at the table: Carla's false claim sends its cards back; Eva's real claim is
    checked before its cards, then dealt them (a typed log deals the claim's cards after
    the check). They left the stock, so Carla's second claim is judged on a stock without
    them, and its analysis runs (the trick core refuses a card held twice)."""
    game = table("classic", 6, "check-before-swap")
    deal(game, "Frits", SEVEN[:6])
    carla, eva = seat(game, "Carla"), seat(game, "Eva")
    back = "9c Tc 8s Td"
    run(game, "Carla laundry")
    feed(game, ["", "", back])
    run(game, "Ben check Carla")
    assert game.stock_top == [Card.parse(c) for c in back.split()]
    run(game, "Eva laundry", "Ben check Eva")
    assert game.window is None and list(game.deal_queue) == [eva] * 4
    feed(game, ["", "", "", "", back])
    assert game.stock_top == [] and game.drawing_from_stock is None
    costs = swap_costs(game, carla, "laundry", random.Random(5))
    assert costs is not None and costs.genuine is False
    run(game, "Carla laundry")
    feed(game, ["", "", "As 7d 8d Jd"])
    record = GameRecord("stale-top", game.rules, game.players, tuple(game.log))
    judged = [s for s in facts_for_game(record).swaps if s["seat"] == carla]
    assert len(judged) == 2 and all(s["ev_lost"] is not None for s in judged)


def test_a_hand_laid_down_in_an_open_swap_is_supposed_not_read() -> None:
    """A swap judged while another player's swap is still open to a check: the hand that
    player laid down is unseen until checked, so each deal supposes it. The deals held the
    real one: under check-before-swap a card then lay in two hands (the trick core refused
    the deal and the whole analysis stopped: seed 7's games 10 and 19), and a check in the
    play-outs knew whether the other's claim was true."""
    rules = Ruleset.preset("classic").with_variants("check-before-swap", "whistling")
    met = supposed_apart = 0
    for record in simulate(rules, 4, 150, 7, ["random", "bluffer", "cautious", "sharp"]):
        facts_for_game(record)  # raised ValueError: card … is dealt twice
        replay = Replay(record.rules, record.players)
        for event in record.events:
            game = replay.game
            window = getattr(game, "window", None)
            if event.kind in ("laundry", "armoede") and window is not None:
                assert event.seat is not None  # its own open swap, or another's
                met += 1
                seen = verdicts.seen_by(game, event.seat)
                fixed, hidden, order, top = verdicts._swapper_view(game, event.seat)
                rng = random.Random(met)
                for _ in range(10):
                    rng.shuffle(order)
                    draws = (order, [1] * 8, [[]] * 8, top)
                    supposed = verdicts._swap_position(game, fixed, hidden, draws)
                    assert supposed.window is not None
                    laid = supposed.window.cards
                    held = [c for hand in supposed.hands for c in hand] + laid
                    assert len(set(held)) == len(held)  # no card in two places
                    for real, card in zip(window.cards, laid, strict=True):
                        assert card == real if real in seen else card not in seen
                    supposed_apart += laid != window.cards
            replay.feed(event)
    assert met >= 3 and supposed_apart > 0
