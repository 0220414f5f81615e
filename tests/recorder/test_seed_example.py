"""The worked example of the English seed (003), reproduced exactly."""

from recorder.referee import replay
from tests.recorder.table import costs, deal, rows, run, seat, table

# Dan deals; Anna leads. Dan wins tricks 1 and 2, Anna trick 3, Anna the last.
HANDS = ["Jh Jc Td 9s", "Qh Qc Jd 8s", "Kh Kc 7d As", "Ah 7c 8d Qd"]


def play_example():
    game = table("classic")
    deal(game, "Dan", HANDS)
    run(game, "Anna Jh", "Ben Qh", "Carla Kh", "Dan Ah")  # trick 1: Dan
    run(game, "Dan 7c", "Anna Jc", "Ben Qc", "Carla Kc")  # trick 2: Dan
    # After two tricks Ben knocks: the hand is now worth 2. Carla folds and gets 1.
    run(game, "Ben knock", "Carla fold", "Dan stay", "Anna stay")
    run(game, "Dan 8d", "Anna Td", "Ben Jd")  # trick 3: Anna
    # Before the last trick Anna knocks again: now it's worth 3. Dan folds and gets 2.
    run(game, "Anna knock", "Ben stay", "Dan fold")
    run(game, "Anna 9s", "Ben 8s")  # Anna leads 9♠, Ben has only 8♠: Anna wins
    return game


def test_english_worked_example_scores():
    game = play_example()
    assert costs(game) == {"Anna": 0, "Ben": 3, "Carla": 1, "Dan": 2}
    assert game.points(seat(game, "Carla")) == 1
    assert game.points(seat(game, "Dan")) == 2
    assert game.points(seat(game, "Ben")) == 3
    assert game.points(seat(game, "Anna")) == 0


def test_english_worked_example_anna_deals_next():
    game = play_example()
    assert game.expected_dealer() == seat(game, "Anna")
    game.start_hand()
    assert game.dealer == seat(game, "Anna")


def test_english_worked_example_event_tail():
    game = play_example()
    assert rows(game.log[-6:]) == [
        ("play", 0, "9s", None, None),
        ("play", 1, "8s", None, None),
        ("trick", 0, None, 4, None),
        ("pay", 1, None, 3, None),
        ("win", 0, None, None, None),  # Anna's 9s takes the last trick: she wins the hand
        ("hand_end", 0, None, 3, None),
    ]


def test_english_worked_example_knock_and_fold_events():
    game = play_example()
    knocks = [r for r in rows(game.log) if r[0] in ("knock", "stay", "fold", "pay")]
    assert knocks == [
        ("knock", 1, None, 2, None),
        ("fold", 2, None, 1, None),
        ("pay", 2, None, 1, None),
        ("stay", 3, None, None, None),
        ("stay", 0, None, None, None),
        ("knock", 0, None, 3, None),
        ("stay", 1, None, None, None),
        ("fold", 3, None, 2, None),
        ("pay", 3, None, 2, None),
        ("pay", 1, None, 3, None),
    ]


def test_english_worked_example_replays():
    game = play_example()
    again = replay(game.rules, game.players, game.log)
    assert again.snapshot() == game.snapshot()
