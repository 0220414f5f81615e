"""The typed notation: reading, writing, strict and lenient, and its error messages."""

from __future__ import annotations

import random
from datetime import UTC, datetime

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kroeg.parsers import jsonl, notation
from kroeg.parsers.notation import NotationRuleError
from kroeg.parsers.reading import collect
from kroeg.recorder.errors import NotationError
from kroeg.recorder.rules import VARIANTS, Ruleset
from kroeg.recorder.simulate import simulate

EXAMPLE = """\
rules: classic
date: 2026-11-27 20:30
venue: Café De Kroeg
players: Anna, Ben, Carla, Dan

hand 1, dealer Dan
Anna: Jh Jc Td 9s
Ben: Qh Qc Jd 8s
Carla: Kh Kc 7d As
Dan: Ah 7c 8d Qd
1. Anna Jh, Ben Qh, Carla Kh, Dan Ah
2. Dan 7c, Anna Jc, Ben Qc, Carla Kc
Ben knocks, Carla folds, Dan stays, Anna stays
3. Dan 8d, Anna Td, Ben Jd
Anna knocks, Ben stays, Dan folds
4. Anna 9s, Ben 8s
result: Ben 3, Carla 1, Dan 2
"""

FAST = """\
players: Anna, Ben, Carla, Dan
hand 1 dealer D
a: jh jc 10d 9s; b: qh qc jd 8s; c: kh kc 7d as; d: ah 7c 8d qd
a jh, b qh, c kh, d ah
d 7c, a jc, b qc, c kc
b k, c f, d s, a s
d 8d, a 10♦, b jd
a k, b s, d f
a 9s, b 8s
"""


def message(text: str) -> str:
    with pytest.raises(NotationError) as err:
        notation.loads(text)
    return str(err.value)


def test_the_seed_example_reads_and_writes_back_in_canonical_form() -> None:
    (game,) = notation.loads(EXAMPLE)
    assert game.players == ("Anna", "Ben", "Carla", "Dan")
    assert game.started_at == datetime(2026, 11, 27, 20, 30, tzinfo=UTC)
    assert game.venue == "Café De Kroeg" and game.source == "text"
    text = notation.dumps(game)
    # The canonical form adds the running score a club writes after each hand.
    assert text == f"game: {game.game_id}\n" + EXAMPLE + "score: Anna 0, Ben 3, Carla 1, Dan 2\n"


def test_fast_typing_gives_the_same_events() -> None:
    (slow,) = notation.loads(EXAMPLE)
    (fast,) = notation.loads(FAST)
    assert fast.events == slow.events


def test_importing_the_same_content_gives_the_same_id() -> None:
    assert notation.loads(EXAMPLE)[0].game_id == notation.loads(EXAMPLE)[0].game_id
    assert notation.loads(EXAMPLE)[0].game_id != notation.loads(FAST)[0].game_id  # no date


def test_syntax_errors_name_line_column_found_and_expected() -> None:
    assert message(EXAMPLE.replace("hand 1, dealer Dan", "hnd 1")) == (
        "6:1: expected 'hand 1' before the first statement, found 'hnd 1'"
    )
    assert message(EXAMPLE.replace("Ben knocks,", "Ben knocks loudly,")) == (
        "13:1: knocks takes nothing after it, found 'loudly'"
    )
    assert message(EXAMPLE.replace("Anna: Jh Jc Td 9s", "Anna: Jh Jc Td")) == (
        "7:1: expected 4 cards for Anna (or '?'), found 3"
    )
    assert message("players: Anna, Ben\n") == ("1:10: classic needs 3 to 8 players, found 2")
    assert message("rules: klassiek\nplayers: A, B, C\n") == (
        "1:8: unknown rule preset 'klassiek': did you mean classic? "
        "Expected one of classic, lives, troefcall"
    )
    assert (
        message("") == "1:1: no game found: expected a header such as 'players: Anna, Ben, Carla'"
    )
    # A mistyped action is not called a bad card: the words expected, and the nearest one.
    typo = message(EXAMPLE.replace("Ben knocks,", "Ben knokcs,"))
    assert typo.startswith("13:5: 'knokcs' is neither a card nor an action: did you mean 'knocks'?")
    assert "an action: knocks, stays, folds" in typo and "unknown rank" not in typo


def test_rule_errors_come_from_the_engine_with_the_statement_position() -> None:
    with pytest.raises(NotationRuleError) as err:
        notation.loads(EXAMPLE.replace("Ben knocks, Carla folds", "Carla folds, Ben knocks"))
    assert str(err.value) == ("13:1: hand 1, trick 3: Carla folds, but there is no knock to answer")


def test_a_typed_score_is_checked() -> None:
    good = EXAMPLE + "score: Anna 0, Ben 3, Carla 1, Dan 2\n"
    assert len(notation.loads(good)) == 1
    assert message(EXAMPLE + "score: Ben 4\n") == (
        "18:1: hand 1: the score says Ben has 4, but the rules give 3"
    )


def test_lenient_keeps_the_good_hands_and_lists_the_bad_ones() -> None:
    two_hands = (
        EXAMPLE
        + """
hand 2, dealer Anna
Anna: Qs Th Js 9h
Ben: As Ts 8h Jd
Carla: 7s Qd Qc Kh
Dan: 9c 8c Kc 7c
Ben 8h
hand 3, dealer Anna
Anna: Qs Th Js 9h
Ben: As Ts 8h Jd
Carla: 7s Qd Qc Kh
Dan: 9c 8c Kc 7c
1. Ben As, Carla 7s, Dan 9c, Anna Qs
2. Carla Qd, Dan 8c, Anna Th, Ben Jd
3. Carla Qc, Dan Kc, Anna Js, Ben Ts
4. Dan 7c, Anna 9h, Ben 8h, Carla Kh
"""
    )
    with pytest.raises(NotationError):
        notation.loads(two_hands)
    parsed = notation.parse(two_hands, on_error=collect, source="evening.txt")
    assert [str(e) for e in parsed.errors] == [
        "evening.txt:19:1: hand 2 is not finished (Carla to act)"
    ]
    (game,) = parsed.games
    assert game.hands == 3  # hands 1 and 3, and hand 2 passed over: they keep their numbers
    assert [e.kind for e in game.events].count("hand_skipped") == 1
    assert game.events[-1].to_row() == ("hand_end", 3, None, 1, None)


def test_names_by_prefix_and_ambiguity() -> None:
    text = EXAMPLE.replace("Anna stays", "an stays")
    assert len(notation.loads(text)) == 1
    assert message(
        EXAMPLE.replace("players: Anna, Ben, Carla, Dan", "players: Anna, Ben, Carla, Dan, Game")
    ) == ("4:10: 'Game' cannot be a player name")


def test_unknown_cards_and_a_check_that_needs_its_outcome() -> None:
    text = """\
players: Anna, Ben, Carla, Dan
hand 1, dealer Dan
Carla laundry
Ben checks Carla
"""
    assert message(text) == (
        "4:1: hand 1, before the first lead: Ben checks Carla: the hand is unknown, "
        "so say whether it was genuine"
    )
    parsed = notation.parse(text.replace("checks Carla", "checks Carla bluff"), on_error=collect)
    assert [str(e) for e in parsed.errors] == ["2:1: hand 1 is not finished (Anna to act)"]


def random_rules(seed: int) -> Ruleset:
    rng = random.Random(seed)
    preset = rng.choice(["classic", "lives"])
    names = rng.sample(sorted(VARIANTS), rng.randint(0, 3))
    try:
        return Ruleset.preset(preset).with_variants(*names)
    except Exception:
        return Ruleset.preset(preset)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), players=st.integers(3, 8))
def test_engine_games_round_trip_through_text_and_jsonl(seed: int, players: int) -> None:
    rules = random_rules(seed)
    players = max(min(players, rules.max_players), rules.min_players)
    if rules.teams:  # partners opposite: 4 or 6
        players = 4 if players < 6 else 6
    styles = ["random", "bluffer", "cautious", "sharp"]
    games = list(simulate(rules, players, 20, seed, styles, datetime(2026, 1, 1, tzinfo=UTC)))
    assert notation.loads(notation.dumps(games)) == games
    assert jsonl.loads(jsonl.dumps(games)) == games
