"""`TrickGame.fork_into`: a fork made in a game already played on (a verdict's play-outs
reuse one) is the fork of the position, attribute by attribute, whatever the game it
is made in held before, and shares nothing mutable with the position."""

from __future__ import annotations

import ast
import contextlib
import random
from collections import deque
from pathlib import Path

import pytest

import kroeg.recorder
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


#: Every class a game is made of, by its module: the attributes any of them sets.
GAME_CLASSES = {
    "tricks": ("TrickGame",),
    "toepen_state": ("ToepenState",),
    "toepen_settle": ("ToepenSettlement",),
    "toepen_swaps": ("ToepenSwaps",),
    "toepen": ("Toepen",),
    "troefcall": ("Troefcall",),
}


def _assigned(cls: ast.ClassDef, method: str | None = None, owner: str = "self") -> set[str]:
    """The attributes of `owner` assigned in the class's methods (in `method` only, if
    given), annotated or not, one by one or unpacked."""
    found: set[str] = set()
    for function in cls.body:
        if not isinstance(function, ast.FunctionDef) or method not in (None, function.name):
            continue
        for node in ast.walk(function):
            if isinstance(node, ast.Assign):
                targets = list(node.targets)
            elif isinstance(node, ast.AnnAssign | ast.AugAssign):
                targets = [node.target]
            else:
                continue
            for target in targets:
                for t in target.elts if isinstance(target, ast.Tuple) else [target]:
                    if isinstance(t, ast.Attribute) and ast.unparse(t.value) == owner:
                        found.add(t.attr)
    return found


def test_every_attribute_a_game_sets_is_copied_by_name() -> None:
    """A compiled game is copied attribute by attribute, each named in `_copy_fields`:
    an attribute added to a game's class and not there would be the blank game's in
    every fork, silently. Every attribute any game class assigns is copied."""
    source = Path(kroeg.recorder.__file__).parent
    every: dict[str, set[str]] = {}
    copied: dict[str, set[str]] = {}
    for module, classes in GAME_CLASSES.items():
        tree = ast.parse((source / f"{module}.py").read_text(encoding="utf-8"))
        for node in tree.body:
            if isinstance(node, ast.ClassDef) and node.name in classes:
                every[node.name] = _assigned(node)
                copied[node.name] = _assigned(node, "_copy_fields", "other")
    assert set(every) == {c for cs in GAME_CLASSES.values() for c in cs}
    # The class attributes a game's kind sets (its deck), as TrickGame declares them.
    base = copied["TrickGame"]
    assert base >= every["TrickGame"] | {"deck", "rank_order"}
    toepen, troefcall = base | copied["ToepenState"], base | copied["Troefcall"]
    for name in ("ToepenState", "ToepenSettlement", "ToepenSwaps", "Toepen"):
        assert every[name] <= toepen, (name, every[name] - toepen)
    assert every["Troefcall"] <= troefcall, every["Troefcall"] - troefcall
    assert not copied["ToepenSettlement"] | copied["ToepenSwaps"] | copied["Toepen"]


@pytest.mark.parametrize(("preset", "variants", "players", "bots"), CASES)
def test_a_copy_shares_every_attribute(
    preset: str, variants: tuple[str, ...], players: int, bots: list[str]
) -> None:
    """`_copy_fields` (the compiled path of a fork) leaves the copy holding the very
    objects the position holds, each attribute of the class (`__mypyc_attrs__`, or the
    instance's dict in plain Python)."""
    found = positions(Ruleset.preset(preset).with_variants(*variants), players, bots)
    for position in found[len(found) // 2 :: 17]:
        other = position._blank()
        position._copy_fields(other)
        mine, theirs = attributes(position), attributes(other)
        assert set(mine) <= set(theirs)  # plain Python: the deck on the class, not the game
        assert all(theirs[name] is value for name, value in mine.items())
