"""`TrickGame.fork_into`: a fork made in a game already played on (a verdict's play-outs
reuse one) is the fork of the position, attribute by attribute, whatever the game it
is made in held before, and shares nothing mutable with the position."""

from __future__ import annotations

import contextlib
import random
from collections import deque

import pytest

from kroeg.recorder.errors import IllegalActionError
from kroeg.recorder.referee import Replay
from kroeg.recorder.rules import Ruleset
from kroeg.recorder.simulate import simulate
from kroeg.recorder.toepen_state import SwapWindow
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


#: What a fork shares with its position: tables read, never written, during play.
SHARED = frozenset({"power", "index", "_clockwise", "side_seats", "players", "rules", "deck"})


def _containers(value: object) -> list[object]:
    """`value` and every list, set, dict or deque inside it (a window's cards too)."""
    found: list[object] = []
    if isinstance(value, (list, set, dict, deque)):
        found.append(value)
        items = value.values() if isinstance(value, dict) else value
        for item in items:
            found.extend(_containers(item))
    elif isinstance(value, SwapWindow):
        found.append(value)
        found.extend(_containers(value.cards))
    return found


@pytest.mark.parametrize(("preset", "variants", "players", "bots"), CASES)
def test_a_fork_shares_nothing_mutable_with_its_position(
    preset: str, variants: tuple[str, ...], players: int, bots: list[str]
) -> None:
    """Whatever `fork` and `fork_into` share (`_fork_core`), neither may hand the copy a
    list, set, dict, deque or window of the position's, at any depth, but the tables
    in `SHARED`."""
    found = positions(Ruleset.preset(preset).with_variants(*variants), players, bots)
    scratch = found[-1].fork()
    checked = 0
    for position in random.Random(5).sample(found, min(100, len(found))):
        theirs = {
            id(c)
            for name, value in attributes(position).items()
            if name not in SHARED
            for c in _containers(value)
        }
        for copy in (position.fork(), position.fork_into(scratch)):
            for name, value in attributes(copy).items():
                if name not in SHARED:
                    assert not any(id(c) in theirs for c in _containers(value)), name
        checked += 1
    assert checked >= 50


def test_a_game_is_forked_only_into_another_of_its_kind() -> None:
    game = positions(Ruleset.preset("classic"), 4, ["random"])[-1]
    with pytest.raises(TypeError):
        game.fork_into(game)
    troefcall = positions(Ruleset.preset("troefcall"), 4, ["random"])[-1]
    with pytest.raises(TypeError):
        game.fork_into(troefcall)  # type: ignore[arg-type]
