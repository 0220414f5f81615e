"""The trick core (`recorder.trickcore`) and its C twin (`_trickcore.c`): the same answers on
random positions of every rule set, played by the engine; the twin refuses bad arguments
instead of crashing; and `make test-pure` runs the Python core."""

from __future__ import annotations

import importlib
import os
import random
from collections.abc import Iterator
from types import ModuleType
from typing import Any

import pytest

from kroeg.recorder import trickcore
from kroeg.recorder.events import CardPlayed
from kroeg.recorder.referee import Replay
from kroeg.recorder.rules import Ruleset
from kroeg.recorder.simulate import simulate
from kroeg.recorder.toepen import Toepen
from kroeg.recorder.tricks import TrickGame, suit_number

needs_twin = pytest.mark.skipif(not trickcore.NATIVE, reason="the C twin is not built here")

#: Every kind of table the rules allow: the last trick winning and losing, teams of 2 and
#: 3, a folded player's card staying in the trick or leaving with them, trumps.
TABLES = [
    ("classic", (), 4),
    ("classic", (), 3),
    ("lives", (), 5),
    ("lives", ("folded-card-leaves",), 6),
    ("classic", ("team-toepen",), 4),
    ("classic", ("team-toepen",), 6),
    ("lives", ("team-toepen",), 6),
    ("classic", ("kroegtoepen",), 8),
    ("troefcall", (), 4),
]


def twin() -> ModuleType:
    return importlib.import_module("kroeg.recorder._trickcore")


def positions(preset: str, variants: tuple[str, ...], players: int) -> Iterator[TrickGame]:
    """Copies of simulated games just before each card is played."""
    rules = Ruleset.preset(preset).with_variants(*variants)
    styles = ["random", "sharp"] if rules.game == "troefcall" else ["random", "bluffer", "sharp"]
    for record in simulate(rules, players, 30, players, styles):
        replay = Replay(record.rules, record.players)
        for event in record.events:
            if isinstance(event, CardPlayed):
                yield replay.game.fork()
            replay.feed(event)


class Position:
    """A game's position as the core's integers."""

    def __init__(self, game: TrickGame) -> None:
        index = game.index
        self.game = game
        self.n, self.ranks = game.n, game.ranks
        self.live = game.live_mask()
        self.trump = suit_number(game.trump)
        self.held = [[index[c] for c in hand if c is not None] for hand in game.hands]
        #: The masks of the seats still in (the search's hands: the others hold none).
        self.hands = [
            sum(1 << c for c in hand) if self.live >> s & 1 else 0
            for s, hand in enumerate(self.held)
        ]
        self.seats = [s for s, _ in game.trick_plays]
        self.cards = [index[c] for _, c in game.trick_plays]
        self.led = self.cards[0] // self.ranks if self.cards else -1
        self.leader = game.leader
        self.hand_size = game.rules.hand_size
        self.lowest = game.rules.last_trick == "wins"

    def reshuffled(self, rng: random.Random) -> list[list[int]]:
        """The cards still held dealt again among the same seats, as many each."""
        pool = [c for hand in self.held for c in hand]
        rng.shuffle(pool)
        deal = []
        for hand in self.held:
            deal.append(pool[: len(hand)])
            pool = pool[len(hand) :]
        return deal

    def takes(self, seat: int) -> int:
        game = self.game
        if isinstance(game, Toepen):
            return sum(1 << s for s in game.seats_in_hand() if game.takes_hand(seat, s))
        return 1 << seat | 1 << (seat + 2) % 4  # Troefcall: the side of `seat`


def same(name: str, *args: Any) -> Any:
    """The Python core's answer, after checking the twin gives the same."""
    expected = getattr(trickcore, "python_" + name, getattr(trickcore, name))(*args)
    assert getattr(twin(), name)(*args) == expected, (name, args)
    return expected


@needs_twin
@pytest.mark.parametrize(("preset", "variants", "players"), TABLES)
def test_the_twin_and_the_reference_agree_on_every_rule(
    preset: str, variants: tuple[str, ...], players: int
) -> None:
    rng = random.Random(f"{preset}{variants}{players}")
    counted = {"positions": 0, "searched": 0, "forced": 0}
    for game in positions(preset, variants, players):
        p = Position(game)
        counted["positions"] += 1
        for seat in range(p.n):
            mask = sum(1 << c for c in p.held[seat])
            for led in (-1, 0, 1, 2, 3):
                same("playable", mask, led, p.ranks)
            if p.held[seat]:
                for lowest in (True, False):
                    same("reference_pick", p.held[seat], p.led, p.ranks, lowest)
        first = p.seats[0] if p.seats else -1
        last = p.seats[-1] if p.seats else -1
        mover = same("next_to_play", p.n, p.live, p.leader, first, last)
        assert mover == game.to_move  # the engine asks the core, and agrees with it
        for _ in range(3):
            some = rng.randrange(1 << p.n)
            same("next_to_play", p.n, some, rng.randrange(p.n), rng.randrange(-1, p.n),
                 rng.randrange(-1, p.n))  # fmt: skip
        live_cards = [c for s, c in zip(p.seats, p.cards, strict=True) if p.live >> s & 1]
        if live_cards:
            same("trick_winner", live_cards, p.led, p.trump, p.ranks)
        cards = rng.sample(range(4 * p.ranks), rng.randrange(1, p.n + 1))
        same("trick_winner", cards, cards[0] // p.ranks, rng.randrange(-1, 4), p.ranks)
        deals = [p.held, *(p.reshuffled(rng) for _ in range(4))]
        args = (p.n, p.live, p.ranks, p.trump, p.lowest, p.hand_size, game.trick_no, p.leader,
                p.seats, p.cards)  # fmt: skip
        same("play_outs", *args, deals)
        same("play_outs", *args[:4], not p.lowest, *args[5:], deals)
        if sum(len(h) for h in p.held) <= 16:  # a search of a whole Troefcall hand is long
            counted["searched"] += 1
            for seat in range(p.n):
                if p.live >> seat & 1:
                    forced = same("can_force", p.n, p.live, p.ranks, p.trump, seat, p.takes(seat),
                                  p.hands, p.seats, p.cards, p.leader)  # fmt: skip
                    counted["forced"] += forced
    # Enough positions, and the searches answered both ways.
    assert counted["positions"] > 150
    assert counted["searched"] > 50
    assert 0 < counted["forced"] < counted["searched"] * players


def test_the_reference_policy_takes_the_first_of_equal_ranks() -> None:
    # Toepen numbering: 8 cards a suit, the ten (0) strongest, the jack (7) weakest.
    jc, jd, th, js = 7, 15, 16, 31
    assert trickcore.reference_pick([jd, th, jc, js], -1, 8, True) == 0  # lowest: Jd before Jc
    assert trickcore.reference_pick([jc, jd], -1, 8, True) == 0
    assert trickcore.reference_pick([jd, jc], -1, 8, True) == 0
    assert trickcore.reference_pick([jd, th, 0], -1, 8, False) == 1  # highest: Th before Tc
    assert trickcore.reference_pick([jd, th, jc], 0, 8, True) == 2  # must follow clubs: Jc
    with pytest.raises(ValueError, match="the hand is empty"):
        trickcore.reference_pick([], -1, 8, True)


def test_the_trick_goes_to_the_highest_trump_else_the_highest_of_the_led_suit() -> None:
    # 8 cards a suit: clubs 0-7, diamonds 8-15, hearts 16-23, spades 24-31.
    assert trickcore.trick_winner([3, 1, 9], 0, -1, 8) == 1
    assert trickcore.trick_winner([3, 1, 23], 0, 2, 8) == 2  # the lowest trump beats clubs
    assert trickcore.trick_winner([9, 17, 25], 1, -1, 8) == 0
    assert trickcore.trick_winner([17, 25], 0, -1, 8) == 0  # nobody follows: the first card
    assert trickcore.next_to_play(4, 0b1011, 2, -1, -1) == 3  # the leader is out: the next
    assert trickcore.next_to_play(4, 0b1011, 3, 3, 0) == 1
    assert trickcore.next_to_play(4, 0b1011, 3, 3, 1) == -1  # round to the first: complete
    assert trickcore.next_to_play(4, 0b1011, 2, 2, 1) == -1  # a folded player's card led it
    assert trickcore.playable(0b1_0000_0110, 0, 8) == 0b110
    assert trickcore.playable(0b1_0000_0110, 2, 8) == 0b1_0000_0110


@needs_twin
def test_the_twin_refuses_bad_arguments() -> None:
    core = twin()
    with pytest.raises(ValueError, match="ranks must be 1 to 16"):
        core.playable(1, 0, 17)
    with pytest.raises(ValueError, match="hand must be a mask of 32 bits"):
        core.playable(1 << 40, 0, 8)
    with pytest.raises(ValueError, match="hand must be a mask of 32 bits"):
        core.playable(-1, 0, 8)
    with pytest.raises(TypeError, match="led must be an int, not str"):
        core.playable(1, "h", 8)
    with pytest.raises(ValueError, match="leader must be 0 to 3, found 4"):
        core.next_to_play(4, 15, 4, -1, -1)
    with pytest.raises(ValueError, match="live must be 0 to 15"):
        core.next_to_play(4, 16, 0, -1, -1)
    with pytest.raises(ValueError, match="cards must be 0 to 31, found 32"):
        core.trick_winner([1, 32], 0, -1, 8)
    with pytest.raises(TypeError, match="cards must be a sequence of ints"):
        core.trick_winner(5, 0, -1, 8)
    with pytest.raises(TypeError, match="takes 4 arguments"):
        core.trick_winner([1], 0, -1)
    table = (4, 15, 8, -1, True, 4, 1, 0, [], [])
    with pytest.raises(ValueError, match="a deal must hold 4 hands"):
        core.play_outs(*table, [[[1], [2], [3]]])
    with pytest.raises(ValueError, match="card 1 is dealt twice"):
        core.play_outs(*table, [[[1], [1], [3], [4]]])
    with pytest.raises(ValueError, match="the hand is empty"):
        core.play_outs(*table, [[[1], [2], [3], []]])
    with pytest.raises(ValueError, match="trick_seats has 1 items but trick_cards 0"):
        core.play_outs(*table[:8], [0], [], [])
    with pytest.raises(ValueError, match="trick_seats holds 5 items, at most 4"):
        core.play_outs(*table[:8], [0, 1, 2, 3, 0], [1, 2, 3, 4, 5], [])
    with pytest.raises(ValueError, match="a card is held twice"):
        core.can_force(4, 15, 8, -1, 0, 1, [1, 1, 2, 4], [], [], 0)
    with pytest.raises(ValueError, match="hands must hold 4 masks"):
        core.can_force(4, 15, 8, -1, 0, 1, [1, 2], [], [], 0)
    with pytest.raises(ValueError, match="seat must be 0 to 3"):
        core.can_force(4, 15, 8, -1, 9, 1, [1, 2, 4, 8], [], [], 0)


def test_the_pure_python_build_runs_the_python_core() -> None:
    # `make test-pure` (KROEG_PURE_PYTHON=1, no extensions) must test the fallback.
    if os.environ.get("KROEG_PURE_PYTHON") == "1":
        assert not trickcore.NATIVE
    assert trickcore.use_native(False) is False
    try:
        assert trickcore.play_outs(4, 15, 8, -1, True, 1, 4, 0, [], [],
                                   [[[0], [8], [16], [24]]]) == [0]  # fmt: skip
    finally:
        assert trickcore.use_native(True) is trickcore.NATIVE


@pytest.mark.parametrize("native", [False, True])
def test_the_draws_are_random_shuffles_and_leave_the_source_where_python_would(
    native: bool,
) -> None:
    if native and not trickcore.NATIVE:
        pytest.skip("the C twin is not built here")
    trickcore.use_native(native)
    try:
        for seed in range(60):
            ours, theirs = random.Random(seed), random.Random(seed)
            ours.gauss(0, 1), theirs.gauss(0, 1)  # a state with a gauss kept aside
            draws = trickcore.draws(ours)
            assert isinstance(draws, trickcore.PythonDraws) is not native
            for shuffled in range(seed % 30 + 1):  # past the Twister's 624 words at times
                length = (seed * 7 + shuffled) % 53
                mine, reference = list(range(length)), list(range(length))
                draws.shuffle(mine)
                theirs.shuffle(reference)
                assert mine == reference
            draws.finish()
            assert ours.getstate() == theirs.getstate()
            assert ours.random() == theirs.random()
    finally:
        trickcore.use_native(True)


class _Loaded(random.Random):
    def getrandbits(self, k: int) -> int:
        return 0


def test_a_random_source_of_its_own_draws_in_python() -> None:
    # A subclass may draw otherwise: only a plain random.Random runs in the twin.
    assert isinstance(trickcore.draws(_Loaded(1)), trickcore.PythonDraws)


@needs_twin
def test_the_twins_draws_refuse_what_is_not_a_random_source() -> None:
    with pytest.raises(AttributeError):
        twin().Draws(5)
    with pytest.raises(TypeError, match="needs a list, not tuple"):
        twin().Draws(random.Random(1)).shuffle((1, 2))
    draws = twin().Draws(random.Random(1))
    draws.finish()
    with pytest.raises(ValueError, match="finished"):
        draws.shuffle([1, 2])


def _outcome(run: Any, *args: Any) -> object:
    """What `run(*args)` gives, or the message of the ValueError it raises (a pool too
    short: a hand runs out, in the twin and the reference alike)."""
    try:
        return run(*args)
    except ValueError as exc:
        return str(exc)


def _supposed_args(p: Position, seat: int, rng: random.Random) -> tuple[Any, ...]:
    """A supposed-deal question about `p` as `seat` sees it: their own cards fixed, one
    other seat's at random shown (fixed) or hidden, random voids, the rest in the pool."""
    fixed: list[list[int]] = [[] for _ in range(p.n)]
    hidden: list[tuple[int, int, int]] = []
    pool: list[int] = []
    for s in range(p.n):
        if not p.live >> s & 1 and s != seat:
            continue
        if s == seat or rng.random() < 0.2:
            fixed[s] = list(p.held[s])
            continue
        shown = p.held[s][: rng.randrange(len(p.held[s]) + 1)] if rng.random() < 0.3 else []
        fixed[s] = shown
        pool += p.held[s][len(shown) :]
        if len(p.held[s]) > len(shown):
            hidden.append((s, len(p.held[s]) - len(shown), rng.randrange(16) & rng.randrange(16)))
    # As in a game: the pool also holds the cards nobody is known to hold (the stock, a
    # folded hand); now and then it is short of what the hidden hands need.
    known = {c for hand in fixed for c in hand} | set(p.cards)
    pool += [
        c for c in range(4 * p.ranks) if c not in known and c not in pool and rng.random() < 0.5
    ]
    if rng.random() < 0.1:
        pool = pool[: rng.randrange(len(pool) + 1)]
    rng.shuffle(pool)
    return (fixed, hidden, pool)


@needs_twin
@pytest.mark.parametrize(("preset", "variants", "players"), TABLES[:7])
def test_the_twin_deals_the_same_supposed_hands_with_the_same_draws(
    preset: str, variants: tuple[str, ...], players: int
) -> None:
    """`sampled_play_outs`: the C twin's supposed deals (rejection until the voids are kept,
    then the quick deal, then none kept) and play-outs are the reference's, draw for draw,
    and leave the random source where the reference does."""
    rng = random.Random(f"supposed{preset}{variants}{players}")
    checked = 0
    for game in positions(preset, variants, players):
        p = Position(game)
        seat = next(s for s in range(p.n) if p.live >> s & 1)
        fixed, hidden, pool = _supposed_args(p, seat, rng)
        if not hidden:
            continue
        args = (p.n, p.live, p.ranks, p.trump, p.lowest, p.hand_size, game.trick_no, p.leader,
                p.seats, p.cards, fixed, hidden, pool, 12)  # fmt: skip
        seed = rng.randrange(1 << 30)
        ours, theirs = random.Random(seed), random.Random(seed)
        c_draws = twin().Draws(ours)
        got = _outcome(c_draws.sampled_play_outs, *args)
        c_draws.finish()
        expected = _outcome(
            trickcore.python_sampled_play_outs, *args, trickcore.PythonDraws(theirs)
        )
        assert got == expected
        if isinstance(got, list):
            assert ours.getstate() == theirs.getstate()
            checked += 1
    assert checked > 100


def test_supposed_deals_keep_the_voids_and_hold_what_is_fixed() -> None:
    """8 cards a suit: a seat void in clubs (bit 0) never gets a club while a deal keeping
    every void exists; a seat's fixed cards stay first, in their order."""
    rng = random.Random(3)
    pool = [0, 1, 2, 8, 9, 16, 17, 24]  # three clubs among eight
    for _ in range(200):
        dealt = trickcore.python_supposed(
            [(1, 3, 0b0001), (2, 5, 0)], pool, 8, trickcore.PythonDraws(rng)
        )
        assert all(c >= 8 for c in dealt[0]) and len(dealt[0]) == 3
        assert sorted(dealt[0] + dealt[1]) == pool
    # Two seats void in everything the pool holds: no deal keeps it, the voids are ignored.
    dealt = trickcore.python_supposed([(1, 2, 0b1111), (2, 2, 0b1111)], pool[:4], 8,
                                      trickcore.PythonDraws(rng))  # fmt: skip
    assert sorted(dealt[0] + dealt[1]) == pool[:4]


@needs_twin
def test_the_twins_supposed_deals_refuse_bad_arguments() -> None:
    table = (4, 15, 8, -1, True, 4, 1, 0, [], [])
    draws = twin().Draws(random.Random(1))
    with pytest.raises(ValueError, match="card 1 of the pool is held"):
        draws.sampled_play_outs(*table, [[1], [], [], []], [(1, 1, 0)], [1, 2], 1)
    with pytest.raises(ValueError, match="each hidden seat is"):
        draws.sampled_play_outs(*table, [[1], [], [], []], [(1, 1)], [2], 1)
    with pytest.raises(ValueError, match="not at the table"):
        draws.sampled_play_outs(*table, [[1], [], [], []], [(5, 1, 0)], [2], 1)
    with pytest.raises(ValueError, match="voids must be a mask of 4 suits"):
        draws.sampled_play_outs(*table, [[1], [], [], []], [(1, 1, 16)], [2], 1)
    with pytest.raises(TypeError, match="takes 14 arguments"):
        draws.sampled_play_outs(*table, [[1], [], [], []])
    draws.finish()
    with pytest.raises(ValueError, match="finished"):
        draws.sampled_play_outs(*table, [[1], [], [], []], [(1, 1, 0)], [2], 1)


def test_shuffle_and_choice_draw_as_random_does() -> None:
    """The engine deals with `trickcore.shuffle` and the bots choose with `trickcore.choice`
    (compiled, several times faster): the same cards as `random.shuffle` and
    `random.choice` from the same state, and the source left where they leave it, so a
    seeded game is the game it always was."""
    for seed in range(200):
        ours, theirs = random.Random(seed), random.Random(seed)
        for length in (1, 2, 3, 5, 8, 13, 32, 52):
            mine, reference = list(range(length)), list(range(length))
            trickcore.shuffle(mine, ours)
            theirs.shuffle(reference)
            assert mine == reference
            assert trickcore.choice(mine, ours) == theirs.choice(reference)
        assert ours.getstate() == theirs.getstate()
    with pytest.raises(IndexError):
        trickcore.choice([], random.Random(1))
