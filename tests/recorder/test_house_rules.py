"""Scenario tests: the house rules a club can switch on (docs/RULES.md "House rules")."""

from dataclasses import replace

import pytest

from kroeg.recorder.cards import Card
from kroeg.recorder.errors import IllegalActionError
from kroeg.recorder.rules import Ruleset
from kroeg.recorder.toepen import Toepen
from tests.recorder.table import NAMES, deal, feed, run, seat, table

HANDS = ["Jh Jc Td 9s", "Qh Qc Jd 8s", "Kh Kc 7d As", "Ah 7c 8d Qd"]
NOT_LAUNDRY = "Ah Kh Qs 9d"
SWAP_HANDS = ["Jh 9s 7c Qd", "Qh Js 7s Jc", NOT_LAUNDRY, "8h Ts Ac Ad"]
NEW = "7h 8c 9c Tc"


def refused(game: Toepen, step: str) -> str:
    with pytest.raises(IllegalActionError) as err:
        run(game, step)
    return str(err.value)


def test_knock_only_on_ones_turn_to_play():
    game = table("classic", 4, "knock-on-turn")
    deal(game, "Dan", HANDS)
    assert refused(game, "Ben knock") == (
        "hand 1, before the first lead: Ben cannot knock: a knock comes on one's turn "
        "to play, and it is Anna's turn"
    )
    run(game, "Anna knock", "Ben stay", "Carla stay", "Dan stay", "Anna Jh")
    run(game, "Ben knock")  # now it is Ben's turn
    plain = table("classic")
    deal(plain, "Dan", HANDS)
    run(plain, "Ben knock")  # without the house rule, any moment


def test_knock_on_turn_still_lets_an_answer_counter_knock():
    game = table("lives", 4, "knock-on-turn")
    deal(game, "Dan", HANDS)
    run(game, "Anna knock", "Ben knock")  # Ben answers Anna's knock by raising


def test_laundry_only_before_any_knock_and_once_per_player():
    game = table("classic", 4, "laundry-before-knock")
    deal(game, "Dan", SWAP_HANDS)
    run(game, "Carla laundry")
    feed(game, ["", "", NEW, ""])
    assert refused(game, "Carla laundry") == (
        "hand 1, before the first lead: Carla swaps (laundry), but has already swapped in this hand"
    )
    run(game, "Anna knock", "Ben stay", "Carla stay", "Dan stay")
    assert refused(game, "Dan laundry") == (
        "hand 1, before the first lead: Dan swaps (laundry), but laundry comes before any knock"
    )
    plain = table("classic")
    deal(plain, "Dan", SWAP_HANDS)
    run(plain, "Anna knock", "Ben stay", "Carla stay", "Dan stay", "Carla laundry")
    feed(plain, ["", "", NEW, ""])
    run(plain, "Carla laundry")  # the stock still has 8 cards


def test_a_false_swap_found_out_is_undone():
    game = table("classic", 4, "false-swap-undone")
    deal(game, "Dan", SWAP_HANDS)
    run(game, "Carla laundry")
    feed(game, ["", "", NEW, ""])
    run(game, "Ben check Carla")
    carla = seat(game, "Carla")
    assert game.hands[carla] == [Card.parse(c) for c in NOT_LAUNDRY.split()]
    assert game.lives[carla] == 9  # and the penalty is paid
    run(game, "Anna Jh", "Ben Qh")
    assert "Carla cannot play 7h" in refused(game, "Carla 7h")
    run(game, "Carla Ah")
    plain = table("classic")  # kroeg's reading: the swapper keeps the new hand
    deal(plain, "Dan", SWAP_HANDS)
    run(plain, "Carla laundry")
    feed(plain, ["", "", NEW, ""])
    run(plain, "Ben check Carla", "Anna Jh", "Ben Qh", "Carla 7h")


def test_a_folded_players_card_leaves_the_trick():
    game = table("classic", 4, "folded-card-leaves")
    deal(game, "Dan", HANDS)
    run(game, "Anna Jh", "Ben knock", "Carla stay", "Dan stay", "Anna fold")
    assert game.trick_plays == []
    run(game, "Ben 8s")  # Ben leads afresh: hearts need not be followed
    plain = table("classic")
    deal(plain, "Dan", HANDS)
    run(plain, "Anna Jh", "Ben knock", "Carla stay", "Dan stay", "Anna fold")
    assert refused(plain, "Ben 8s") == "hand 1, trick 1: Ben must follow hearts (holds Qh)"


def test_the_first_card_left_gives_the_suit_when_the_leader_folds():
    game = table("classic", 4, "folded-card-leaves")
    deal(game, "Dan", ["Jh Jc Td 9s", "Qc Qh Jd 8s", "Kh Kc 7d As", "Ah 7c 8d Qd"])
    run(game, "Anna Jh", "Ben Qh", "Carla knock", "Dan stay", "Anna fold", "Ben stay")
    assert [str(c) for _, c in game.trick_plays] == ["Qh"]
    run(game, "Carla Kh", "Dan Ah")
    assert [e.seat for e in game.log if e.kind == "trick"] == [seat(game, "Dan")]


def test_a_check_penalty_to_the_limit_ends_the_game_at_once():
    rules = replace(Ruleset.preset("classic").with_variants("check-out-at-once"), lives=1)
    game = Toepen(rules, NAMES[:4])
    deal(game, "Dan", SWAP_HANDS)
    run(game, "Carla laundry")
    feed(game, ["", "", NEW, ""])
    run(game, "Ben check Carla")
    assert game.over and game.loser == seat(game, "Carla")
    assert [e.kind for e in game.log[-3:]] == ["reveal", "pay", "game_end"]


def test_a_check_penalty_to_the_limit_puts_the_player_out_of_the_hand_at_once():
    base = replace(Ruleset.preset("lives"), lives=1, laundry=True, armoede=False)
    for at_once in (True, False):
        rules = base.with_variants("check-out-at-once") if at_once else base
        game = Toepen(rules, NAMES[:4])
        run_cut = ["Anna", "Ben", "Carla", "Dan"]
        for name, card in zip(run_cut, ["7h", "8h", "9h", "Th"], strict=True):
            game.cut(seat(game, name), Card.parse(card))
        deal(game, "Dan", SWAP_HANDS)
        run(game, "Carla laundry")
        feed(game, ["", "", NEW, ""])
        run(game, "Ben check Carla")
        if at_once:
            assert game.log[-1].kind == "eliminated" and not game.alive[seat(game, "Carla")]
            run(game, "Anna Jh", "Ben Qh", "Dan 8h")  # the trick goes round without Carla
            assert "Carla is out of the game" in refused(game, "Carla 7h")
        else:
            run(game, "Anna Jh", "Ben Qh", "Carla 7h", "Dan 8h")  # out when the hand ends


def test_the_highest_cut_card_deals_first_in_any_preset():
    game = table("classic", 4, "cut-for-dealer")
    for name, card in zip(["Anna", "Ben", "Carla", "Dan"], ["7h", "Th", "9h", "8h"], strict=True):
        game.cut(seat(game, name), Card.parse(card))
    assert refused(game, "Anna knock")  # no hand yet
    with pytest.raises(IllegalActionError) as err:
        game.start_hand(seat(game, "Anna"))
    assert str(err.value) == (
        "before the first hand: Ben deals, not Anna (the highest cut card deals)"
    )
    game.start_hand(seat(game, "Ben"))
    plain = table("classic")
    with pytest.raises(IllegalActionError) as err:
        plain.cut(0, Card.parse("7h"))
    assert "chooses the first dealer at random" in str(err.value)


# 7 players leave a stock of 4 (As 7d 8d Jd): one swap's worth.
SEVEN = [*SWAP_HANDS, "Kc Ks Kd Qc", "Th 9h 7h 8c", "9c Tc 8s Td"]
STOCK = "As 7d 8d Jd"


def kinds(game: Toepen, since: int) -> list[tuple[str, str]]:
    return [(e.kind, game.players[e.seat]) for e in game.log[since:]]  # type: ignore[attr-defined]


def test_a_false_claim_checked_before_the_swap_leaves_the_stock_for_a_real_laundry():
    game = table("classic", 7, "check-before-swap")
    deal(game, "Gijs", SEVEN)
    assert game.stock == 4
    start = len(game.log)
    run(game, "Carla laundry", "Ben check Carla")  # before any new card: a bluff
    carla = seat(game, "Carla")
    assert kinds(game, start) == [
        ("laundry", "Carla"), ("check", "Ben"), *[("reveal", "Carla")] * 4, ("pay", "Carla"),
    ]  # fmt: skip
    assert game.log[start + 1].genuine == 0  # type: ignore[attr-defined]
    assert game.hands[carla] == [Card.parse(c) for c in NOT_LAUNDRY.split()]
    assert (game.lives[carla], game.stock, list(game.deal_queue)) == (9, 4, [])
    assert game.stock_top == []  # no new card was dealt: none went back
    run(game, "Eva laundry")  # a later real laundry: the stock still has its 4 cards
    feed(game, ["", "", "", "", STOCK])
    assert game.stock == 0
    assert game.hands[seat(game, "Eva")] == [Card.parse(c) for c in STOCK.split()]
    run(game, "Anna Jh", "Ben Qh")
    assert "Carla cannot play As" in refused(game, "Carla As")
    run(game, "Carla Ah")
    # What kroeg did before: the swap is undone and its four cards laid aside.
    undone = table("classic", 7, "false-swap-undone")
    deal(undone, "Gijs", SEVEN)
    run(undone, "Carla laundry")
    feed(undone, ["", "", STOCK])
    run(undone, "Ben check Carla")
    assert refused(undone, "Eva laundry") == (
        "hand 1, before the first lead: Eva swaps (laundry), but the stock has only 0 cards"
    )


def test_a_true_claim_checked_before_the_swap_costs_the_checker_and_swaps():
    game = table("classic", 4, "check-before-swap")
    deal(game, "Dan", ["Jh 9s 7c Qd", "Qh Js 7s Jc", "Ah Kh Qs Jd", "8h Ts Ac Ad"])
    start = len(game.log)
    run(game, "Carla laundry", "Ben check Carla")
    assert game.lives[seat(game, "Ben")] == 9 and game.stock == 12
    assert list(game.deal_queue) == [seat(game, "Carla")] * 4  # the swap goes on
    assert refused(game, "Anna Jh") == (
        "hand 1, before the first lead: Anna cannot play Jh: no card can be played now"
    )
    feed(game, ["", "", NEW, ""])
    assert kinds(game, start) == [
        ("laundry", "Carla"), ("check", "Ben"), *[("reveal", "Carla")] * 4, ("pay", "Ben"),
        *[("deal", "Carla")] * 4,
    ]  # fmt: skip
    assert game.stock == 12 and game.window is None  # 16 less the four swapped
    assert refused(game, "Anna check Carla") == (
        "hand 1, before the first lead: Anna checks Carla, but Carla has no swap to check"
    )
    run(game, "Anna Jh", "Ben Qh", "Carla 7h")


def test_a_check_before_the_swap_needs_the_house_rule_and_comes_before_any_new_card():
    plain = table("classic")
    deal(plain, "Dan", SWAP_HANDS)
    run(plain, "Carla laundry")
    assert refused(plain, "Ben check Carla") == (
        "hand 1, before the first lead: Ben checks Carla, but the cards are still being dealt"
    )
    game = table("classic", 4, "check-before-swap")
    deal(game, "Dan", SWAP_HANDS)
    run(game, "Carla laundry")
    game.deal(seat(game, "Carla"), Card.parse("7h"))  # one new card: the swap has begun
    assert refused(game, "Ben check Carla") == (
        "hand 1, before the first lead: Ben checks Carla, but the cards are still being dealt"
    )


def test_a_false_claim_checked_after_its_cards_sends_them_back_to_the_stock():
    # A seeded game deals the new cards with the claim; the check still judges the claim.
    game = table("classic", 7, "check-before-swap", "false-swap-undone", "face-up")
    deal(game, "Gijs", SEVEN)
    run(game, "Carla laundry")
    feed(game, ["", "", STOCK])
    start = len(game.log)
    run(game, "Ben check Carla")
    assert kinds(game, start) == [("check", "Ben"), *[("reveal", "Carla")] * 4, ("pay", "Carla")]
    assert game.hands[seat(game, "Carla")] == [Card.parse(c) for c in NOT_LAUNDRY.split()]
    assert game.stock == 4  # not laid aside (false-swap-undone) nor shown (face-up)
    # Carla alone knows them: the stock's top, as a verdict from her cards deals it.
    assert game.stock_top == [Card.parse(c) for c in STOCK.split()]
    assert game.fork().stock_top == game.stock_top and game.fork().stock_top is not game.stock_top
    unseen = game.fork()  # a log that does not say which cards Eva took: the top's next
    run(unseen, "Eva laundry")
    feed(unseen, ["", "", "", "", "? ? 8d ?"])
    assert unseen.stock_top == [] and game.stock_top == [Card.parse(c) for c in STOCK.split()]
    run(game, "Eva laundry")
    feed(game, ["", "", "", "", STOCK])  # the same four cards, dealt again
    assert game.stock == 0 and game.stock_top == []


def test_a_seeded_false_claim_puts_the_cards_back_on_top_of_the_stock():
    rules = Ruleset.preset("classic").with_variants("check-before-swap")
    game = Toepen(rules, NAMES[:4], seed=7)
    game.start_hand()
    swapper = next(p for p in range(4) if game.is_laundry(game.hands[p]) is False)
    old = list(game.hands[swapper])
    game.laundry(swapper)
    new = list(game.hands[swapper])
    game.check((swapper + 1) % 4, swapper)
    assert game.hands[swapper] == old and game.stock == 16 and game.stock_top == new
    other = (swapper + 2) % 4
    game.laundry(other)
    assert game.hands[other] == new  # the stock kept them, in their order
    assert game.stock_top == []


def test_a_checker_put_out_before_the_swap_leaves_no_cards_to_deal():
    rules = Ruleset.preset("classic").with_variants("check-before-swap", "check-out-at-once")
    game = Toepen(replace(rules, lives=1), NAMES[:4])
    deal(game, "Dan", ["Jh 9s 7c Qd", "Qh Js 7s Jc", "Ah Kh Qs Jd", "8h Ts Ac Ad"])
    run(game, "Carla laundry", "Ben check Carla")  # genuine: Ben pays his last point
    assert game.over and game.loser == seat(game, "Ben")
    assert list(game.deal_queue) == [] and game.log[-1].kind == "game_end"
