"""The replay's steps and a hand's result in the reader's language: every sentence goes
through a Speaker (parsers/render.py), so a hand replayed with `words("nl")` says its
steps in Dutch, and with PLAIN_ENGLISH (the CLI's, the default) exactly as before."""

from __future__ import annotations

from pathlib import Path

import pytest

from kroeg.analytics.words import words
from kroeg.dashboard.replay import hand_states
from kroeg.parsers import notation
from kroeg.parsers.render import PLAIN_ENGLISH, Speaker, describe_events, hand_result
from kroeg.recorder.cards import Card, Rank, Suit
from kroeg.recorder.events import Event, Reveal, TrumpCalled, Whistle
from kroeg.recorder.records import GameRecord
from kroeg.recorder.referee import Game, Replay
from tests.parsers.results import failed_baunie, six_at_team_toepen

SAMPLES = Path(__file__).resolve().parents[2] / "sample_logs"


def sample(name: str, index: int = 0) -> GameRecord:
    return notation.load(SAMPLES / name)[index]


def steps(record: GameRecord, number: int, speaker: Speaker | None = None) -> list[str]:
    if speaker is None:  # the default
        return [s.text for s in hand_states(record, number, reveal_all=False)]
    return [s.text for s in hand_states(record, number, reveal_all=False, speaker=speaker)]


def joined(record: GameRecord, number: int, speaker: Speaker = PLAIN_ENGLISH) -> list[str]:
    """The hand as `describe_events` says it (the recorder's and `kroeg replay`'s way:
    a fold and its payment in one sentence, the deal as one block)."""
    begin, end = record.hand_bounds(number)
    rebuilt = Replay(record.rules, record.players)
    lines: list[str] = []
    for event in record.events[:end]:
        rebuilt.feed(event)
        if len(rebuilt.game.log) > begin:
            lines += describe_events(rebuilt.game, [event], speaker=speaker)
    return lines


def test_the_replay_says_a_hand_in_english_as_before() -> None:
    game = sample("classic-evening.txt")
    english = steps(game, 1)
    assert steps(game, 1, PLAIN_ENGLISH) == english
    assert english[:3] == [
        "Dan deals; the stake is 1 — 4 cards to each",
        "Anna plays J♥",
        "Ben plays Q♥",
    ]
    assert english[5] == "→ Dan takes trick 1"
    assert english[11:16] == [
        "Ben knocks: the stake is now 2", "Carla folds", "Carla pays 1", "Dan stays in",
        "Anna stays in",
    ]  # fmt: skip
    assert english[-1] == "Anna wins the hand (stake 3)"
    last = hand_states(game, 1, reveal_all=False, speaker=PLAIN_ENGLISH)[-1]
    assert last.scores == ("0 points", "3 points", "1 point", "2 points")
    result = hand_result(game, 1)
    assert (
        result.text_for(PLAIN_ENGLISH)
        == result.text
        == (
            "Anna wins the hand (stake 3). Paid: Ben 3, Carla 1, Dan 2. "
            "Scores after the hand: Anna 0 points, Ben 3 points, Carla 1 point, Dan 2 points."
        )
    )
    assert result.verdict_for(PLAIN_ENGLISH) == result.verdict
    assert "Carla folds and pays 1" in joined(game, 1)
    assert "  → Dan takes trick 1" in joined(game, 1)


def test_the_replay_says_a_hand_in_dutch() -> None:
    nl = words("nl")
    game = sample("classic-evening.txt")
    dutch = steps(game, 1, nl)
    assert dutch[:3] == [
        "Dan deelt; de inzet is 1 — 4 kaarten voor ieder",
        "Anna speelt J♥",
        "Ben speelt Q♥",
    ]
    assert dutch[5] == "→ Dan haalt slag 1"
    assert dutch[11:16] == [
        "Ben klopt (toept): de inzet is nu 2", "Carla past", "Carla betaalt 1", "Dan gaat mee",
        "Anna gaat mee",
    ]  # fmt: skip
    assert dutch[-1] == "Anna wint de hand (inzet 3)"
    last = hand_states(game, 1, reveal_all=False, speaker=nl)[-1]
    assert last.scores == ("0 strafpunten", "3 strafpunten", "1 strafpunt", "2 strafpunten")
    assert hand_result(game, 1).text_for(nl) == (
        "Anna wint de hand (inzet 3). Betaald: Ben 3, Carla 1, Dan 2. "
        "Stand na de hand: Anna 0 strafpunten, Ben 3 strafpunten, Carla 1 strafpunt, "
        "Dan 2 strafpunten."
    )
    assert "Carla past en betaalt 1" in joined(game, 1, nl)
    assert "Gedeelde kaarten:" in joined(game, 1, nl)


def test_troefcall_in_dutch_keeps_its_seed_words() -> None:
    nl = words("nl")
    game = sample("troefcall-evening.txt")
    assert steps(game, 1)[:2] == [
        "Dan deals; Anna cuts and calls trump — 5 cards to Anna",
        "Anna calls trump: ♠ spades — 13 cards to Ben, Carla and Dan, 8 cards to Anna",
    ]
    dutch = steps(game, 1, nl)
    assert dutch[:2] == [
        "Dan deelt; Anna neemt af en roept troef — 5 kaarten voor Anna",
        "Anna roept troef: ♠ schoppen — 13 kaarten voor Ben, Carla en Dan, 8 kaarten voor Anna",
    ]
    assert dutch[-3:] == [
        "Carla: kap! (Anna & Carla haalden de eerste 7 slagen)",
        "Anna & Carla krijgen er 5 bij (nu Anna & Carla 5, Ben & Dan 0)",
        "Hand uit: Anna & Carla winnen de hand door kap partij "
        "(Anna & Carla 7 slagen, Ben & Dan 0)",
    ]
    assert hand_result(failed_baunie(), 1).verdict_for(nl) == (
        "Hand uit: Ben & Dan winnen de hand, de baunie van Anna & Carla mislukt "
        "(Anna & Carla 7 slagen, Ben & Dan 6)"
    )
    assert hand_result(six_at_team_toepen(), 5).text_for(nl) == (
        "Carla haalde de laatste slag: Carla & Frits verliezen de hand; Ben & Eva winnen "
        "(inzet 2). Carla & Frits liggen eruit. Het spel is uit: Ben & Eva winnen het spel. "
        "Betaald: Carla 2, Frits 1. Stand na de hand: Ben & Eva 1 leven."
    )


def test_the_engines_english_names_are_said_in_words_too() -> None:
    """A rank (`4 jacks`) and a suit (`hearts`) are the engine's English; the replay says
    them through messages of its own. Card codes stay symbols."""
    nl, fr = words("nl"), words("fr")
    toepen = _table("classic-evening.txt")
    four_jacks: list[Event] = [Whistle(seat=1, rank=Rank.JACK, count=4)]
    three_tens: list[Event] = [Whistle(seat=1, rank=Rank.TEN, count=3)]
    assert describe_events(toepen, four_jacks) == ["Ben stands up: 4 jacks"]
    assert describe_events(toepen, three_tens) == ["Ben whistles: 3 tens"]
    assert describe_events(toepen, four_jacks, speaker=nl) == ["Ben staat op: 4 boeren"]
    assert describe_events(toepen, three_tens, speaker=fr) == ["Ben siffle\u00a0: 3 dix"]
    troefcall = _table("troefcall-evening.txt")
    jack: list[Event] = [Reveal(seat=2, card=Card.parse("Jh"))]
    assert describe_events(troefcall, jack) == [
        "Carla is dealt J♥ face up — the first Jack: they call trump first"
    ]
    assert describe_events(troefcall, jack, speaker=nl) == [
        "Carla krijgt J♥ open — de eerste boer: die roept als eerste troef"
    ]
    hearts: list[Event] = [TrumpCalled(seat=0, suit=Suit.HEARTS)]
    assert describe_events(troefcall, hearts) == ["Anna calls trump: ♥ hearts"]
    assert describe_events(troefcall, hearts, speaker=nl) == ["Anna roept troef: ♥ harten"]


def _table(log: str) -> Game:
    """A new game at the table of a sample log's first game."""
    record = sample(log)
    return Replay(record.rules, record.players).game


@pytest.mark.parametrize("log", sorted(p.name for p in SAMPLES.glob("*.txt")))
def test_every_step_of_every_sample_says_words_of_its_own_in_dutch(log: str) -> None:
    """The English default is PLAIN_ENGLISH's; in Dutch no step, score or result is left
    as its English (a whistle's ranks, a suit's name, a score's unit included)."""
    nl = words("nl")
    for game in notation.load(SAMPLES / log):
        for number in range(1, game.hands + 1):
            english = hand_states(game, number, reveal_all=True)
            assert [s.text for s in english] == steps_all(game, number, PLAIN_ENGLISH)
            dutch = hand_states(game, number, reveal_all=True, speaker=nl)
            for en, said in zip(english, dutch, strict=True):
                assert said.text != en.text, f"{log} hand {number}: {en.text}"
                assert all(a != b for a, b in zip(en.scores, said.scores, strict=True)), (
                    f"{log} hand {number}: {en.scores}"
                )
            result = hand_result(game, number)
            assert result.text_for(PLAIN_ENGLISH) == result.text
            assert result.text_for(nl) != result.text


def steps_all(record: GameRecord, number: int, speaker: Speaker) -> list[str]:
    return [s.text for s in hand_states(record, number, reveal_all=True, speaker=speaker)]
