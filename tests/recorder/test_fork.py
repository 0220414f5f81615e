"""`TrickGame.fork_into`: a fork made in a game already played on (a verdict's play-outs
reuse one) is the fork of the position, attribute by attribute, whatever the game it
is made in held before, and shares nothing mutable with the position."""

from __future__ import annotations

import contextlib
import random

import pytest

from kroeg.recorder.errors import IllegalActionError
from kroeg.recorder.referee import Replay
from kroeg.recorder.rules import Ruleset
from kroeg.recorder.simulate import simulate
from kroeg.recorder.tricks import TrickGame

#: Rule sets whose state differs most: the classic table, lives, team toepen, a house
#: rule with a window and the stock's top (check before the swap), and Troefcall.
CASES = [
    ("classic", (), 4, ["random", "bluffer"]),
    ("lives", (), 5, ["sharp", "cautious"]),
    ("classic", ("team-toepen",), 4, ["random", "sharp"]),
    ("classic", ("check-before-swap", "whistling"), 4, ["bluffer", "random"]),
    ("troefcall", (), 4, ["random"]),
]


def attributes(game: TrickGame) -> dict[str, object]:
    """Every attribute set in `game` (compiled classes name theirs)."""
    names = getattr(type(game), "__mypyc_attrs__", None)
    if names is None:
        return dict(vars(game))
    return {name: getattr(game, name) for name in names if hasattr(game, name)}


def positions(rules: Ruleset, players: int, bots: list[str]) -> list[TrickGame]:
    """Every position of a few simulated games, as forks."""
    found: list[TrickGame] = []
    for record in simulate(rules, players, 12, 7, bots):
        replay = Replay(record.rules, record.players)
        for event in record.events:
            found.append(replay.game.fork())
            replay.feed(event)
    return found


@pytest.mark.parametrize(("preset", "variants", "players", "bots"), CASES)
def test_a_fork_into_a_used_game_is_the_fork(
    preset: str, variants: tuple[str, ...], players: int, bots: list[str]
) -> None:
    found = positions(Ruleset.preset(preset).with_variants(*variants), players, bots)
    rng = random.Random(3)
    scratch = found[-1].fork()  # a game at its end: every list and set filled
    compared = played = 0
    for position in rng.sample(found, min(200, len(found))):
        made = position.fork_into(scratch)
        assert made is scratch
        expected = attributes(position.fork())
        got = attributes(made)
        assert got.keys() == expected.keys()
        for name, value in expected.items():
            assert got[name] == value, name
            # Its own copy where the fork has one (playing on must not touch the
            # position), shared where the fork shares it (the deck's tables).
            own = getattr(position, name)
            assert (got[name] is own) == (value is own), name
        compared += 1
        # Play the scratch on a little, as a verdict does, before it is used again.
        mover = getattr(made, "to_move", None)
        if isinstance(mover, int) and made.hands[mover] and None not in made.hands[mover]:
            with contextlib.suppress(IllegalActionError):
                made.play(mover, made.legal_cards(mover)[0])
                played += 1
    assert compared >= 50 and played >= 10
