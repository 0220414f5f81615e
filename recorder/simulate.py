"""Engine sessions played by bots: the source of simulated datasets.

The driver asks each bot what it wants and the engine what is legal; the
engine records every event. Bots knock on their own turn to play (or when
answering, where counter-knocks are allowed), which covers knocks before
the first lead, mid-trick and during the last trick.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import partial
from typing import TYPE_CHECKING

from kroeg.recorder.bots import Bot, make_bot
from kroeg.recorder.errors import UsageError
from kroeg.recorder.records import GameRecord, content_id
from kroeg.recorder.rules import Ruleset
from kroeg.recorder.text import venue_problem
from kroeg.recorder.toepen import Toepen
from kroeg.recorder.troefcall import Troefcall
from kroeg.recorder.troefcall_bots import make_troefcall_bot, play_troefcall_hand

if TYPE_CHECKING:  # the store imports pyarrow, which playing alone does not need
    from kroeg.recorder.store import Dataset

__all__ = [
    "DEFAULT_NAMES",
    "SimulationReport",
    "check_simulation",
    "continue_hand",
    "play_game",
    "play_hand",
    "simulate",
    "simulate_into",
]

DEFAULT_NAMES = ("Anna", "Ben", "Carla", "Dan", "Eva", "Frits", "Gijs", "Hanna")


def play_hand(game: Toepen, bots: Sequence[Bot]) -> None:
    """Play one hand to its end: every decision from a bot, every ruling from the engine."""
    game.start_hand()
    continue_hand(game, bots)


def continue_hand(
    game: Toepen,
    bots: Sequence[Bot],
    until_cards: bool = False,
    asked: set[object] | None = None,
    windows: list[object] | None = None,
) -> None:
    """Let the bots play the current hand from wherever it is to its end; `until_cards`:
    only until the next knock or card is to be chosen, every answer, whistle, swap and
    check before it settled (a caller whose bots never knock plays the cards on in the
    trick core, `Toepen.last_trick_takers`). A call that goes on from such a stop passes
    the stopped call's `asked` and `windows`, so that nothing is put to the bots twice."""
    rules = game.rules
    if asked is None:
        asked = set()  # whistles and swap rounds already put to the bots
    if windows is None:
        windows = []  # swaps and armoede already put to the others for a check
    while game.phase in ("preplay", "play"):
        if game.answer_queue:
            seat = game.answerers()[0]
            bot = bots[seat]
            can_counter = (
                rules.counter_knock and game.stake < bot.max_stake and game.can_knock(seat)
            )
            choice = bot.answer(game, seat, can_counter)
            if choice == "knock":
                game.knock(seat)
            elif choice == "stay":
                game.stay(seat)
            else:
                game.fold(seat)
            continue
        window = game.window
        if window is not None and not any(w is window for w in windows):
            windows.append(window)
            target = window.seat
            for seat in game.seats_from(target)[:-1]:
                if game.in_hand(seat) and bots[seat].wants_check(game, seat, target):
                    game.check(seat, target)
                    break
            if window.kind == "armoede" and game.can_redeal(window_dealer(game)):
                game.redeal(window_dealer(game))
                asked.discard("swaps")
            continue
        if game.phase == "preplay" and (
            _preplay_obligations(game, bots, asked) or _offer_swaps(game, bots, asked)
        ):
            continue
        if until_cards:
            return
        mover = game.to_move
        assert mover is not None
        bot = bots[mover]
        if game.stake < bot.max_stake and bot.wants_knock(game, mover) and game.can_knock(mover):
            game.knock(mover)
            continue
        game.play(mover, bots[mover].choose_card(game, mover))


def window_dealer(game: Toepen) -> int:
    """The dealer of the current hand."""
    assert game.dealer is not None
    return game.dealer


def _preplay_obligations(game: Toepen, bots: Sequence[Bot], asked: set[object]) -> bool:
    """Whistles and forced swaps; True if something was done."""
    rules = game.rules
    for seat in range(game.n):
        if not game.dealt[seat]:
            continue
        for rank in rules.whistle_must + rules.whistle_may:
            count = sum(1 for c in game.hands[seat] if c is not None and c.rank is rank)
            # A bot that declined a `whistle_may` is not asked again while it holds the
            # same cards; a `whistle_must` is owed whenever the engine allows it (a hand
            # given back after a laundry checked and found a bluff owes it once more).
            key = ("whistle", seat, rank, tuple(game.hands[seat]))
            must = rank in rules.whistle_must
            if rank in game.whistled[seat] or (key in asked and not must):
                continue
            if not game.can_whistle(seat, rank, count):
                continue
            asked.add(key)
            if must or bots[seat].wants_whistle(game, seat, rank):
                game.whistle(seat, rank, count)
                return True
        if game.must_swap(seat):
            game.laundry(seat)
            return True
    return False


def _offer_swaps(game: Toepen, bots: Sequence[Bot], asked: set[object]) -> bool:
    """Ask each player once per deal whether to swap (laundry) or declare armoede."""
    if "swaps" in asked:
        return False
    asked.add("swaps")
    for seat in game.seats_from(window_dealer(game)):
        if not game.in_hand(seat):
            continue
        hand = game.hands[seat]
        if (
            game.rules.laundry
            and bots[seat].wants_swap(game, seat, bool(game.is_laundry(hand)))
            and game.can_laundry(seat)
        ):
            game.laundry(seat)
            asked.discard("swaps")  # others may still swap after this one
            return True
        if game.rules.armoede:
            genuine = bool(game.claim_genuine("armoede", hand))
            if bots[seat].wants_swap(game, seat, genuine) and game.can_armoede(seat):
                game.armoede(seat)
                return True
    return False


def play_game(game: Toepen, bots: Sequence[Bot], max_hands: int | None = None) -> int:
    """Play hands until the game ends or `max_hands` are played; return hands played."""
    played = 0
    while not game.over and (max_hands is None or played < max_hands):
        play_hand(game, bots)
        played += 1
    return played


def check_simulation(
    rules: Ruleset, players: int, hands: int, styles: Sequence[str], venue: str | None = None
) -> list[str]:
    """Raise UsageError for settings no game can be played with (or a venue no game may
    name); return the style of each seat."""
    problem = rules.table_problem(players) or (None if venue is None else venue_problem(venue))
    if problem is not None:
        raise UsageError(problem)
    if hands < 1:
        raise UsageError(f"--hands must be at least 1, found {hands}")
    styles = [s.strip() for s in styles if s.strip()] or ["random"]
    seat_styles = [styles[i % len(styles)] for i in range(players)]
    for style in set(seat_styles):
        (make_troefcall_bot if rules.game == "troefcall" else make_bot)(style, 0)
    return seat_styles


def simulate(
    rules: Ruleset,
    players: int,
    hands: int,
    seed: int,
    styles: Sequence[str] = ("random",),
    start: datetime | None = None,
    venue: str | None = None,
    progress: Callable[[int], None] | None = None,
    backwards: bool = False,
) -> Iterator[GameRecord]:
    """Play `hands` hands in total, as many games as that takes; yield each game.

    Seats get the bot styles in order (the list repeats if shorter). Every game's
    seed, and so its `game_id`, follows from `seed` and the settings: running the
    same simulation again produces the same games.

    With a `start`, the games are club evenings (see `evening_time`): from that evening
    on, or, `backwards`, on the evenings up to it.
    """
    seat_styles = check_simulation(rules, players, hands, styles, venue)
    names = tuple(DEFAULT_NAMES[i] for i in range(players))
    troefcall = rules.game == "troefcall"
    done, index = 0, 0
    while done < hands:
        game_seed = int(content_id("", seed, index)[:12], 16)
        game: Toepen | Troefcall
        if troefcall:
            game = Troefcall(rules, names, seed=game_seed)
            tbots = [make_troefcall_bot(s, game_seed + seat) for seat, s in enumerate(seat_styles)]
            step: Callable[[], None] = partial(play_troefcall_hand, game, tbots)
        else:
            game = Toepen(rules, names, seed=game_seed)
            bots = [make_bot(s, game_seed + seat) for seat, s in enumerate(seat_styles)]
            step = partial(play_hand, game, bots)
        cap = hands - done
        played = 0
        while not game.over and played < cap:
            step()
            played += 1
            if progress is not None:
                progress(1)
        truncated = not game.over
        parts: list[object] = [rules.to_json(), names, seat_styles, game_seed]
        if truncated:
            parts.append(f"first {played} hands")
        yield GameRecord(
            game_id=content_id("e", *parts),
            rules=rules,
            players=names,
            events=tuple(game.log),
            source="engine",
            started_at=evening_time(start, index, backwards),
            venue=venue,
            seed=game_seed,
        )
        done += played
        index += 1


#: Simulated games are played as club evenings: this many games a night, an hour apart.
GAMES_PER_EVENING = 3


def evening_time(start: datetime | None, index: int, backwards: bool = False) -> datetime | None:
    """When the `index`-th simulated game was played: `GAMES_PER_EVENING` games an evening
    from `start`'s time, an hour apart, one evening a day (before `start` when
    `backwards`, so that no game is dated in the future)."""
    if start is None:
        return None
    evening, game = divmod(index, GAMES_PER_EVENING)
    day = timedelta(days=-evening if backwards else evening)
    return start + day + timedelta(hours=game)


@dataclass(frozen=True)
class SimulationReport:
    """What `simulate_into` did."""

    games: int
    added: int
    skipped: int


def simulate_into(
    dataset: Dataset,
    rules: Ruleset,
    players: int,
    hands: int,
    seed: int,
    styles: Sequence[str] = ("random",),
    start: datetime | None = None,
    venue: str | None = None,
    progress: Callable[[int], None] | None = None,
    batch_hands: int = 100_000,
    backwards: bool = False,
) -> SimulationReport:
    """Simulate into a dataset, landing a file every `batch_hands` hands (memory stays flat)."""
    batch: list[GameRecord] = []
    pending = games = added = skipped = 0
    played = simulate(rules, players, hands, seed, styles, start, venue, progress, backwards)
    for record in played:
        batch.append(record)
        pending += record.hands
        games += 1
        if pending >= batch_hands:
            report = dataset.write(batch)
            added, skipped = added + len(report.added), skipped + len(report.skipped)
            batch, pending = [], 0
    if batch:
        report = dataset.write(batch)
        added, skipped = added + len(report.added), skipped + len(report.skipped)
    return SimulationReport(games, added, skipped)
