"""The worked example of the English seed (003), reproduced exactly."""

from kroeg.recorder.referee import replay
from tests.recorder.table import costs, play_example, rows, seat


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


def test_english_worked_example_replayed_pays_at_its_pay_rows():
    """Carla's fold is one row, her pay the next: replayed a row at a time, the fold's row
    shows her score before the pay (the engine recorded the pay with the fold) and the pay's
    row the point; at the end every score is the engine's."""
    from kroeg.recorder.referee import Replay

    game = play_example()
    rebuilt = Replay(game.rules, game.players)
    carla = seat(game, "Carla")
    shown = []
    for event in game.log:
        rebuilt.feed(event)
        shown.append((event.kind, event.to_row()[1], rebuilt.score_texts()[carla]))
    fold = shown.index(("fold", carla, "0 points"))
    assert shown[fold + 1] == ("pay", carla, "1 point")
    assert rebuilt.score_texts() == tuple(game.score_text(s) for s in range(game.n))


def test_a_player_out_of_lives_has_none_left_not_fewer():
    """Lives are never shown below none: Anna, with 1 life, pays 3 and is out with 0
    lives, not "-2 lives" (sample_logs/lives-armoede-cut.txt, hand 2)."""
    from pathlib import Path

    from kroeg.parsers import notation
    from kroeg.recorder.referee import Replay

    log = Path(__file__).resolve().parents[2] / "sample_logs" / "lives-armoede-cut.txt"
    (game,) = notation.load(log)
    rebuilt = Replay(game.rules, game.players)
    for event in game.events:
        rebuilt.feed(event)
        assert not any(text.startswith("-") for text in rebuilt.score_texts()), event
    out = [e.to_row()[1] for e in game.events if e.kind == "eliminated"]
    assert out and all(rebuilt.score_texts()[s] == "0 lives" for s in out)
