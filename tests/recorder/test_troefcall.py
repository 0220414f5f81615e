"""Troefcall: a scenario for every rule of the deal, the play, every scoring rule and variant."""

from __future__ import annotations

import pytest

from kroeg.recorder.cards import Card, Suit
from kroeg.recorder.errors import IllegalActionError, RulesError
from kroeg.recorder.events import Baunie, GameEnd, HandEnd, Kap, Score, ScoreReason, TrickWon
from kroeg.recorder.referee import replay
from kroeg.recorder.rules import Ruleset
from kroeg.recorder.troefcall import Troefcall
from tests.recorder.troef_table import (
    ALL_SPADES,
    NAMES,
    SEVEN_THEN_HEARTS,
    S,
    game,
    hand,
    play_out,
    play_tricks,
    scores,
    this_hand,
)


def test_the_preset_is_four_players_in_partnerships_with_a_full_deck() -> None:
    rules = Ruleset.preset("troefcall")
    assert (rules.game, rules.min_players, rules.max_players, rules.hand_size) == (
        "troefcall", 4, 4, 13,
    )  # fmt: skip
    g = game()
    assert len(g.deck) == 52 and g.teams == (0, 1, 0, 1)
    assert g.power[Card.parse("As")] > g.power[Card.parse("Ks")] > g.power[Card.parse("2s")]
    with pytest.raises(IllegalActionError, match="exactly 4 players"):
        Troefcall(rules, NAMES[:3])
    with pytest.raises(RulesError, match="exactly 4 players"):
        Ruleset.from_dict({"base": "troefcall", "max_players": 5})


def test_the_first_jack_dealt_face_up_makes_the_first_caller_and_the_dealer_sits_right() -> None:
    g = game()
    for seat, card in [(1, "5h"), (2, "Kd"), (3, "Jc")]:
        g.draw_for_caller(seat, Card.parse(card))
    assert g.next_dealer == 2  # Dan got the Jack; Carla, on his right, deals
    with pytest.raises(IllegalActionError, match="only to find the first trump caller"):
        g.draw_for_caller(0, Card.parse("Jd"))
    with pytest.raises(IllegalActionError, match="Carla deals, not Anna"):
        g.start_hand(0)
    start = g.start_hand(2)
    assert (start.seat, start.caller) == (2, 3)


def test_face_up_cards_go_round_clockwise() -> None:
    g = game()
    g.draw_for_caller(0, Card.parse("5h"))
    with pytest.raises(IllegalActionError, match="goes to Ben, not Carla"):
        g.draw_for_caller(2, Card.parse("6h"))


def test_caller_gets_five_then_calls_then_five_four_four() -> None:
    g = game()
    g.start_hand(3)  # Dan deals, Anna calls
    assert list(g.deal_queue) == [0] * 5
    for card in ("2c", "3c", "4c", "5c", "6c"):
        g.deal(0, Card.parse(card))
    assert g.phase == "call"
    with pytest.raises(IllegalActionError, match="Anna calls trump, not Ben"):
        g.call_trump(1, S)
    with pytest.raises(IllegalActionError, match="cannot play"):
        g.play(0, Card.parse("2c"))
    g.call_trump(0, Suit.CLUBS)
    order = list(g.deal_queue)
    assert (
        order == [1] * 5 + [2] * 5 + [3] * 5 + [0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3] * 2
    )
    assert g.trump is Suit.CLUBS


def test_free_trump_call_comes_after_all_thirteen_cards() -> None:
    g = game("free-trump-call")
    g.start_hand(3)
    assert len(g.deal_queue) == 52
    with pytest.raises(IllegalActionError, match="after all 13 cards"):
        g.call_trump(0, S)
    hand(game("free-trump-call"), ALL_SPADES)  # the helper deals 52, then calls


def test_caller_leads_follow_suit_and_trumping_is_optional() -> None:
    g = game()
    hand(g, SEVEN_THEN_HEARTS)
    assert g.to_move == 0
    with pytest.raises(IllegalActionError, match="Anna plays next, not Ben"):
        g.play(1, Card.parse("Ah"))
    g.play(0, Card.parse("2h"))
    with pytest.raises(IllegalActionError, match="must follow hearts"):
        g.play(1, Card.parse("Ad"))
    g.play(1, Card.parse("8h"))
    assert not any(c.suit is Suit.HEARTS for c in g.hands[2])
    g.play(2, Card.parse("Ac"))  # void in hearts: discarding is allowed, trumping is not forced
    g.play(3, Card.parse("2c"))
    assert g.log[-1] == TrickWon(1, 1)


def test_the_highest_trump_wins_else_the_highest_of_the_led_suit() -> None:
    g = game()
    hand(g, SEVEN_THEN_HEARTS, trump=Suit.CLUBS)
    g.play(0, Card.parse("2h"))
    g.play(1, Card.parse("Ah"))
    g.play(2, Card.parse("8c"))  # a low trump beats the ace of the led suit
    g.play(3, Card.parse("2d"))
    assert g.log[-1] == TrickWon(2, 1)
    g.play(2, Card.parse("7s"))
    g.play(3, Card.parse("2c"))  # Dan has no spades: he ruffs with the lowest trump
    g.play(0, Card.parse("As"))
    g.play(1, Card.parse("Kh"))
    assert g.log[-1] == TrickWon(3, 2)  # the only trump wins, however low


# -- scoring ------------------------------------------------------------------------------------


def test_majority_scores_two() -> None:
    g = game()
    hand(g, SEVEN_THEN_HEARTS)
    play_out(g)  # Anna leads her lowest: Ben takes the hearts first, no sweep
    events = this_hand(g)
    assert not any(isinstance(e, Kap | Baunie) for e in events)
    taken = [g.tricks_won[0] + g.tricks_won[2], g.tricks_won[1] + g.tricks_won[3]]
    side = 0 if taken[0] >= 7 else 1
    (scored,) = scores(events)
    assert scored[1] == 2 and scored[0] % 2 == side
    assert g.scores[side] == 2 and g.scores[1 - side] == 0
    assert sum(taken) == 13 and isinstance(g.log[-1], HandEnd)


def test_kap_by_the_winner_of_the_seventh_trick_scores_five_and_ends_the_hand() -> None:
    g = game()
    hand(g, ALL_SPADES)
    play_tricks(g, 6)
    with pytest.raises(IllegalActionError, match="at once after a side wins the first 7"):
        g.kap(0)
    play_tricks(g, 1)
    assert g.phase == "announce"
    with pytest.raises(IllegalActionError, match="Ben's side did not win the first 7"):
        g.kap(1)
    g.kap(0)
    assert scores(this_hand(g)) == [(0, 5)] and g.scores == [5, 0]
    assert g.log[-1] == HandEnd(0, None) and g.trick_no == 0 and g.phase == "idle"


def test_kap_by_the_partner_scores_two_and_either_side_may_stop() -> None:
    g = game()
    hand(g, ALL_SPADES)
    play_tricks(g, 7)
    g.kap(2)  # Carla announces, but Anna won the 7th trick
    assert g.phase == "after_kap"
    with pytest.raises(IllegalActionError, match="comes too late"):
        g.baunie(0)
    g.stop(1)  # an opponent stops the hand
    assert scores(this_hand(g)) == [(2, 2)] and g.scores == [2, 0]
    assert [e.kind for e in this_hand(g)[-6:]] == ["kap", "stop", "score", "win", "win", "hand_end"]
    assert [e for e in this_hand(g) if e.kind == "score"] == [Score(2, 2, ScoreReason.PARTNER_KAP)]


def test_after_a_partners_kap_the_hand_may_play_on_and_still_scores_two_once() -> None:
    g = game()
    hand(g, ALL_SPADES)
    play_tricks(g, 7)
    g.kap(2)
    play_out(g)  # nobody stops: the last six tricks are played, nothing more is scored
    assert g.tricks_won[0] == 13
    assert scores(this_hand(g)) == [(2, 2)] and g.scores == [2, 0]


def test_baunie_won_scores_fifteen() -> None:
    g = game()
    hand(g, ALL_SPADES)
    play_tricks(g, 7)
    g.baunie(0)
    play_tricks(g, 6)
    assert scores(this_hand(g)) == [(0, 15)] and g.scores == [15, 0]
    assert isinstance(g.log[-1], GameEnd) is False  # 15 < 20: the game goes on


def test_a_failed_baunie_gives_the_opponents_two() -> None:
    g = game()
    hand(g, SEVEN_THEN_HEARTS)
    play_tricks(g, 7)
    assert g.phase == "announce" and g.leader == 0
    g.baunie(2)  # either partner may announce it
    g.play(0, Card.parse("2h"))
    g.play(1, Card.parse("Ah"))  # Ben breaks it
    play_out(g)
    assert scores(this_hand(g))[0][1] == 2 and scores(this_hand(g))[0][0] in (1, 3)
    assert g.scores == [0, 2]


def test_sweeping_seven_without_announcing_scores_only_the_majority() -> None:
    g = game()
    hand(g, ALL_SPADES)
    play_tricks(g, 7)
    play_tricks(g, 6)  # Anna leads on: no kap, no baunie (a silent 13 is not rewarded)
    assert scores(this_hand(g)) == [(0, 2)]


def test_silent_kap_scores_five_with_no_announcement() -> None:
    g = game("silent-kap")
    hand(g, ALL_SPADES)
    play_tricks(g, 7)
    with pytest.raises(IllegalActionError, match="kap is silent here"):
        g.kap(0)
    with pytest.raises(IllegalActionError, match="announce baunie to play on, or stop"):
        g.play(0, Card.parse("6s"))
    with pytest.raises(IllegalActionError, match="only the side with the first 7"):
        g.stop(1)
    g.stop(2)  # the side takes its 5
    assert scores(this_hand(g)) == [(0, 5)]


def test_silent_kap_may_still_go_for_baunie() -> None:
    g = game("silent-kap")
    hand(g, ALL_SPADES)
    play_tricks(g, 7)
    g.baunie(0)
    play_tricks(g, 6)
    assert scores(this_hand(g)) == [(0, 15)]


def test_silent_kap_without_baunie_ends_the_hand_at_seven_by_itself() -> None:
    g = game("silent-kap", "no-baunie")
    hand(g, ALL_SPADES)
    play_tricks(g, 7)
    assert [e.kind for e in this_hand(g)[-5:]] == ["trick", "score", "win", "win", "hand_end"]
    assert [e.reason for e in this_hand(g) if e.kind == "score"] == [ScoreReason.SILENT_KAP]
    assert g.scores == [5, 0] and g.phase == "idle"


def test_no_baunie_ends_the_hand_at_seven_in_a_row() -> None:
    g = game("no-baunie")
    hand(g, ALL_SPADES)
    play_tricks(g, 7)
    with pytest.raises(IllegalActionError, match="plays without baunie"):
        g.baunie(0)
    with pytest.raises(IllegalActionError, match="the hand ends at seven in a row"):
        g.play(0, Card.parse("6s"))
    g.kap(0)
    assert g.scores == [5, 0]
    g2 = game("no-baunie")
    hand(g2, ALL_SPADES)
    play_tricks(g2, 7)
    g2.kap(2)  # the partner's kap ends it too, for 2
    assert scores(this_hand(g2)) == [(2, 2)] and g2.phase == "idle"
    g3 = game("no-baunie")
    hand(g3, ALL_SPADES)
    play_tricks(g3, 7)
    g3.stop(3)  # nobody announced: the majority's 2
    assert scores(this_hand(g3)) == [(0, 2)]


def test_roles_move_one_seat_clockwise_after_every_hand() -> None:
    g = game()
    hand(g, ALL_SPADES, dealer=3)
    play_tricks(g, 7)
    g.kap(0)
    assert g.next_dealer == 0
    with pytest.raises(IllegalActionError, match="Anna deals, not Dan"):
        g.start_hand(3)
    start = g.start_hand()
    assert (start.seat, start.caller) == (0, 1)


@pytest.mark.parametrize(("variant", "target"), [("target-15", 15), ("target-20", 20),
                                                 ("target-50", 50)])  # fmt: skip
def test_the_game_ends_when_a_side_reaches_the_target(variant: str, target: int) -> None:
    g = game(variant)
    hands = 0
    while not g.over:
        hand(g, ALL_SPADES, dealer=None if hands else 3)
        # The caller moves round: whoever calls, seat 0 holds the spades, so Anna
        # and Carla sweep when Anna or Carla leads; Ben and Dan lead a low card.
        play_tricks(g, 7)
        if g.phase == "announce":
            g.kap(g.leader)
        else:
            play_out(g)
        hands += 1
    assert g.scores[0] >= target > g.scores[0] - 5
    assert g.log[-1] == GameEnd(0, 1)


def test_fixed_hands_ends_after_that_many_hands_and_the_side_ahead_wins() -> None:
    rules = Ruleset.from_dict({"base": "troefcall", "target_score": None, "fixed_hands": 2})
    g = Troefcall(rules, NAMES)
    for dealer in (3, None):
        hand(g, ALL_SPADES, dealer=dealer)
        play_out(g)
    assert g.hand_no == 2 and g.over and g.log[-1] == GameEnd(0, 1)
    with pytest.raises(IllegalActionError, match="the game is over"):
        g.start_hand()


def test_a_fixed_hands_game_may_end_in_a_draw() -> None:
    rules = Ruleset.from_dict({"base": "troefcall", "target_score": None, "fixed_hands": 2})
    g = Troefcall(rules, NAMES)
    hand(g, ALL_SPADES, dealer=3)  # Anna calls and sweeps
    play_tricks(g, 7)
    g.kap(0)
    # Ben calls next; with Ben holding every spade, Ben and Dan sweep.
    hand(g, ALL_SPADES[3:] + ALL_SPADES[:3], dealer=None)
    play_tricks(g, 7)
    g.kap(1)
    assert g.log[-1] == GameEnd(None, None) and g.scores == [5, 5]


def test_a_typed_hand_replays_to_the_same_game() -> None:
    g = game()
    for seat, card in [(0, "4d"), (1, "Jh")]:
        g.draw_for_caller(seat, Card.parse(card))
    hand(g, ALL_SPADES, dealer=None)  # Ben calls: Anna deals
    play_out(g)
    assert [e.kind for e in g.log[:3]] == ["reveal", "reveal", "hand_start"]
    again = replay(g.rules, g.players, g.log)
    assert isinstance(again, Troefcall) and again.snapshot() == g.snapshot()


def test_a_fork_plays_on_without_touching_the_game() -> None:
    g = game()
    hand(g, ALL_SPADES)
    play_tricks(g, 3)
    before = g.snapshot()
    other = g.fork()
    play_tricks(other, 4)
    other.kap(0)
    assert other.scores == [5, 0] and other.log[-1] == HandEnd(0, None)
    assert g.snapshot() == before and len(g.hands[0]) == 10


def test_a_replays_scores_are_its_score_rows_so_far_not_what_the_engine_recorded_ahead() -> None:
    """The kap is one event, its score the next: replayed a row at a time, the kap's row
    still shows the scores before it and the score's row the five (the engine recorded
    the score with the kap, ahead of the log being read)."""
    from pathlib import Path

    from kroeg.parsers import notation
    from kroeg.recorder.referee import Replay

    sample = Path(__file__).resolve().parents[2] / "sample_logs" / "troefcall-evening.txt"
    record = notation.load(sample)[0]
    rebuilt = Replay(record.rules, record.players)
    shown = []
    for event in record.events[: [e.kind for e in record.events].index("hand_end") + 1]:
        rebuilt.feed(event)
        shown.append((event.kind, rebuilt.score_texts()))
    zero, five = ("0 points", "0 points", "0 points", "0 points"), ("5 points", "0 points") * 2
    kinds = [kind for kind, _ in shown]
    assert shown[kinds.index("kap")] == ("kap", zero)
    assert shown[kinds.index("score")] == ("score", five)
    assert shown[-1] == ("hand_end", five)
    assert rebuilt.game.score_text(0) == "5 points"  # the engine's state: the kap scored
