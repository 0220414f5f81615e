"""Helpers for king-of-the-hill tests: short Troefcall games with the winner chosen."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime, timedelta

from kroeg.recorder.events import GameEnd
from kroeg.recorder.hill import KING_OF_THE_HILL
from kroeg.recorder.records import GameRecord
from kroeg.recorder.rules import Ruleset
from kroeg.recorder.troefcall import Troefcall
from kroeg.recorder.troefcall_bots import make_troefcall_bot, play_troefcall_hand

#: One hand a game: the side with the majority wins it (never a draw: 13 tricks).
ONE_HAND = Ruleset.from_dict({"base": "troefcall", "target_score": None, "fixed_hands": 1})
#: Two hands a game, where equal points are a draw.
TWO_HANDS = Ruleset.from_dict({"base": "troefcall", "target_score": None, "fixed_hands": 2})
EVENING = datetime(2026, 11, 27, 20, 0, tzinfo=UTC)
VENUE = "Café Paramaribo"


def played(
    players: Sequence[str],
    winners: Sequence[str] | None,
    number: int,
    *,
    rules: Ruleset = ONE_HAND,
    evening: str | None = KING_OF_THE_HILL,
    venue: str | None = VENUE,
) -> GameRecord:
    """A finished game of these players (by seat) that `winners` won (None: a draw),
    played by random bots: the first seed whose game ends that way. `number` places it in
    the evening, half an hour apart from 20:00."""
    for seed in range(1, 500):
        game = Troefcall(rules, tuple(players), seed=seed)
        bots = [make_troefcall_bot("random", seed + s) for s in range(4)]
        while not game.over:
            play_troefcall_hand(game, bots)
        end = game.log[-1]
        assert isinstance(end, GameEnd)
        won = None if end.seat is None else {players[end.seat], players[end.seat + 2]}
        if (won is None and winners is None) or (winners is not None and won == set(winners)):
            return GameRecord(
                game_id=f"hill-{number}", rules=rules, players=tuple(players),
                events=tuple(game.log), source="text",
                started_at=EVENING + timedelta(minutes=30 * (number - 1)),
                venue=venue, evening=evening,
            )  # fmt: skip
    raise AssertionError(f"no seed gives {winners} a win")
