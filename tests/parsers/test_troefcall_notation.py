"""Troefcall in the typed notation: the sample evening, round trips, and mistakes caught."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kroeg.parsers import jsonl, notation
from kroeg.parsers.reading import collect
from kroeg.recorder.errors import NotationError, RulesError
from kroeg.recorder.events import HAND_OPENERS, Kap, Score
from kroeg.recorder.referee import replay
from kroeg.recorder.rules import Ruleset
from kroeg.recorder.simulate import simulate
from kroeg.recorder.troefcall import TEAMS

SAMPLE = Path(__file__).resolve().parents[2] / "sample_logs" / "troefcall-evening.txt"
HEAD = "rules: troefcall\nplayers: Anna, Ben, Carla, Dan\n"


def test_the_sample_evening_is_refereed_and_scored() -> None:
    (game,) = notation.load(SAMPLE)
    assert game.game_type == "troefcall" and game.teams == TEAMS
    assert game.venue == "Café Paramaribo" and game.hands == 3
    assert [e for e in game.events if isinstance(e, Kap)] == [Kap(2)]
    assert [(e.seat, e.amount) for e in game.events if isinstance(e, Score)] == [
        (2, 5), (3, 2), (1, 2),
    ]  # fmt: skip
    # The first Jack went to Anna: Dan deals the first hand, then the deal moves on.
    starts = [e for e in game.events if e.kind == "hand_start"]
    assert [(e.seat, e.caller) for e in starts] == [(3, 0), (0, 1), (1, 2)]  # type: ignore[attr-defined]


def test_the_sample_reads_back_from_its_canonical_form() -> None:
    games = notation.load(SAMPLE)
    assert notation.loads(notation.dumps(games)) == games
    assert "Anna trumps spades" in notation.dumps(games)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10**6),
    variants=st.lists(st.sampled_from(["free-trump-call", "silent-kap", "no-baunie"]),
                      unique=True),
)  # fmt: skip
def test_engine_games_round_trip_through_text_and_jsonl(seed: int, variants: list[str]) -> None:
    rules = Ruleset.preset("troefcall").with_variants("target-15", *variants)
    games = list(
        simulate(rules, 4, 12, seed, ["sharp", "random"], datetime(2026, 1, 1, tzinfo=UTC))
    )
    assert notation.loads(notation.dumps(games)) == games
    assert jsonl.loads(jsonl.dumps(games)) == games


def message(text: str) -> str:
    with pytest.raises(NotationError) as info:
        notation.loads(text)
    return str(info.value)


def test_a_trump_call_by_the_wrong_player_names_the_caller() -> None:
    assert message(HEAD + "hand 1, dealer Dan\nBen trumps hearts\n") == (
        "4:1: hand 1, before the first lead: Anna calls trump, not Ben"
    )


def test_an_unknown_suit_is_a_syntax_error() -> None:
    assert message(HEAD + "hand 1, dealer Dan\nAnna trumps roses\n") == (
        "4:1: unknown suit 'roses': expected one of c d h s (or ♣ ♦ ♥ ♠)"
    )


def test_the_dealer_must_sit_right_of_the_jack() -> None:
    text = HEAD + "jacks: Anna 2c, Ben Jd\nhand 1, dealer Dan\n"
    assert message(text) == (
        "4:1: before the first hand: Anna deals, not Dan "
        "(the dealer sits to the right of the first Jack's receiver)"
    )


def test_toepen_words_are_refused_in_troefcall() -> None:
    assert message(HEAD + "hand 1, dealer Dan\nAnna trumps s\nBen knocks\n") == (
        "5:1: 'knocks' is not a Troefcall action"
    )


def test_an_unfinished_hand_says_who_is_to_act() -> None:
    assert message(HEAD + "hand 1, dealer Dan\nAnna trumps s\n1. Anna As\n") == (
        "3:1: hand 1 is not finished (Ben to play)"
    )


def test_a_typed_result_that_disagrees_is_refused() -> None:
    text = SAMPLE.read_text(encoding="utf-8").replace("result: Carla 5", "result: Anna 2")
    assert message(text) == (
        "29:1: hand 1: the result says Anna's side scored 2, but the rules give 5"
    )


def test_troefcall_variants_do_not_apply_to_toepen() -> None:
    with pytest.raises(RulesError, match="'silent-kap' is not a toepen variant"):
        Ruleset.preset("classic").with_variants("silent-kap")
    with pytest.raises(RulesError, match="'poverty' is not a troefcall variant"):
        Ruleset.preset("troefcall").with_variants("poverty")


def test_lenient_skips_a_bad_hand_and_the_deal_still_moves_on() -> None:
    text = SAMPLE.read_text(encoding="utf-8").replace(
        "4. Carla Kd, Dan 9d, Anna 5d, Ben Qd", "4. Carla Kd, Dan 9d, Anna 5d, Ben Qs"
    )
    parsed = notation.parse(text, on_error=collect)
    assert [str(e) for e in parsed.errors] == [
        "38:22: hand 2, trick 5: Anna cannot play Qs: it is played or shown"
    ]
    (game,) = parsed.games
    starts = [e for e in game.events if e.kind == "hand_start"]
    # Hand 2 (Anna dealing) is left out; hand 3 is still Ben's deal and Carla's call.
    assert [(e.seat, e.caller) for e in starts] == [(3, 0), (1, 2)]  # type: ignore[attr-defined]
    # It is recorded as passed over, so the stored game keeps its hand numbers and replays.
    assert [(e.kind, e.seat) for e in game.events if e.kind in HAND_OPENERS] == [
        ("hand_start", 3), ("hand_skipped", None), ("hand_start", 1)  # no dealer typed
    ]  # fmt: skip
    replay(game.rules, game.players, game.events)


def test_holdings_come_before_the_first_card() -> None:
    text = HEAD + "hand 1, dealer Dan\nAnna trumps s\n1. Anna As\nBen: ?\n"
    assert message(text) == "6:1: cards can be written only before the first card is played"
