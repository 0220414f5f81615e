"""Each player's expected result of a hand, step by step, from what they could see: the
graph beside the replay (issue 28). Not stored: worked out for one hand when it is shown.

After every card, trick, knock and answer of the hand, for every player: what their side
has paid in the hand so far, plus, while still in it, the stake times their chance of
losing it (`analytics.verdicts.win_chance`: the hidden cards dealt at random, the hand
played out by the reference policy, nobody knocking or folding any more). The result is
that, negated: 0 is a hand that costs nothing, -2 one expected to cost 2 lives or points.
"""

from __future__ import annotations

import random

import polars as pl

from kroeg.analytics.verdicts import win_chance
from kroeg.recorder.events import number_events
from kroeg.recorder.records import GameRecord, content_id
from kroeg.recorder.referee import Replay
from kroeg.recorder.toepen import Toepen

__all__ = ["EXPECTATION_SAMPLES", "hand_expectations"]

#: Playouts per player per step: the graph's chance has a standard error of at most
#: 0.5 / sqrt(24) ≈ 0.10 at each point.
EXPECTATION_SAMPLES = 24

#: The events after which the expectations are worked out: the cards, the tricks, the knocks
#: and their answers (not the deal and the swaps, while hands are still being made up).
_JUDGED = frozenset({"play", "trick", "knock", "stay", "fold"})

_SCHEMA = {"seq": pl.Int32, "seat": pl.Int8, "player": pl.String, "expected": pl.Float64}


def hand_expectations(
    record: GameRecord, hand: int, samples: int = EXPECTATION_SAMPLES
) -> pl.DataFrame:
    """One row per event of `hand` (its `seq`) and player dealt in: the player's expected
    result of the hand after that event, in lives or points (see the module). Empty for
    Troefcall, and before the cards are dealt."""
    rows: list[dict[str, object]] = []
    if record.rules.game != "toepen":
        return pl.DataFrame(schema=_SCHEMA)
    rng = random.Random(int(content_id("", "expected", record.game_id, hand)[:12], 16))
    replay = Replay(record.rules, record.players)
    for number, seq, event in number_events(record.events):
        if number > hand:
            break
        replay.feed(event)
        game = replay.game
        if number < hand or not isinstance(game, Toepen):
            continue
        if event.kind == "hand_end" or game.phase in ("idle", "over"):
            for seat in range(game.n):
                if game.dealt[seat]:
                    rows.append(_row(record, seq, seat, -float(game.paid_this_hand[seat])))
            break
        if event.kind not in _JUDGED:
            continue  # still dealing or swapping: judged from the first card or knock
        for seat in range(game.n):
            if not game.dealt[seat]:
                continue
            paid = float(game.paid_this_hand[seat])
            if game.in_hand(seat) or any(game.in_hand(s) for s in game.side_seats[seat]):
                chance = win_chance(game, seat, rng, samples)
                if chance is None:
                    continue  # cards nobody saw
                paid += (1 - chance) * game.stake
            rows.append(_row(record, seq, seat, -paid))
    return pl.DataFrame(rows, schema=_SCHEMA)


def _row(record: GameRecord, seq: int, seat: int, expected: float) -> dict[str, object]:
    return {"seq": seq, "seat": seat, "player": record.players[seat], "expected": expected}
