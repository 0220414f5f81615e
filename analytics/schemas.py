"""The derived tables' Parquet schemas, apart from the code that fills them.

The views (kroeg.analytics.views) read these tables and the analysis
(kroeg.analytics.derived, .totals, .spark) writes them: both import the schemas from here, so
neither needs the other.

    DATASET/derived/knocks/        KNOCK_SCHEMA: strength of every knock, and whether it was a bluff
    DATASET/derived/folds/         FOLD_SCHEMA: whether every fold was regrettable, and its cost
    DATASET/derived/answers/       ANSWER_SCHEMA: every answer to a knock, its expected costs
    DATASET/derived/luck/          LUCK_SCHEMA: what each player's cards were worth at the deal
    DATASET/derived/games/         ANALYSED_SCHEMA: the games analysed, under which version
    DATASET/derived/seat_counts/   SEAT_COUNTS_SCHEMA: counts per player per game
    DATASET/derived/events/        the events table's schema: logs given the engine's facts
    DATASET/derived/ratings/       RATING_SCHEMA: each player's rating after each game
"""

from __future__ import annotations

import pyarrow as pa

__all__ = [
    "ANALYSED_SCHEMA",
    "ANALYSIS_VERSION",
    "ANNOUNCE_SCHEMA",
    "ANSWER_SCHEMA",
    "CALL_SCHEMA",
    "COUNTS",
    "FACT_TABLES",
    "FOLD_SCHEMA",
    "KNOCK_SCHEMA",
    "LUCK_SCHEMA",
    "RATINGS_VERSION",
    "RATING_SCHEMA",
    "SEAT_COUNTS_SCHEMA",
    "SWAP_SCHEMA",
]  # fmt: skip

#: Bump when a definition changes: games analysed under an older version are redone.
#: 2: after a redeal, the cards dealt before it no longer count as seen by the knocker.
#: 3: a log written before the engine's facts (all_folded, score reasons, Troefcall's
#: win rows) gets them, in derived/events.
#: 4: every answer to a knock gets its expected costs from the player's view
#: (derived/answers), every player's cards their luck (derived/luck); the hidden deals keep
#: the voids with every such deal equally likely, and a hand played face up as it lies; a
#: team knock is held to its side's fair share.
#: 5: an answer records whether a fold left partners playing on (`partners_play_on`).
#: 6: every Troefcall trump call gets the value of each suit (derived/calls).
#: 7: every choice at seven in a row (kap, baunie, stop, play on) gets the value of each
#: option (derived/announcements).
#: 8: the reference policy that plays a kap choice on remembers the cards played before
#: it (it forgot those played before the copy of the game it played on).
#: 9: every knock made gets its expected cost and the other choice's (derived/knocks).
#: 10: every laundry swap and armoede declared gets its expected cost and keeping the
#: hand's (derived/swaps).
#: 11: a swap's deals draw their checks straight from the swap's own source, and a
#: swapper knows the cards a false claim of theirs sent back to the stock
#: (`check_before_swap`: `Toepen.stock_top`); the swaps' costs moved within their error.
#: 12: a swap judged while another player's swap is still open to a check supposes the
#: hand that player laid down (it had the real one, which the swapper never saw: a check
#: in the play-outs then knew whether that claim was true, and under `check_before_swap`
#: a card could be in two hands, which stopped the analysis). 249 of the bench dataset's
#: 5,336 swaps moved; nothing else.
ANALYSIS_VERSION = 12

#: One knock: `strength` the knocker's side's chance of winning the hand from the knock,
#: from the knocker's view; `bluff` below the side's fair share. The knock as a choice
#: (analysis version 9): `stake` before it; `cost_knock` its expected cost to the knocker in
#: lives or points,
#: `cost_other` that of the other choice `other_choice` (play_on: not knocking; a
#: counter-knock's stay or fold, the better), `ev_lost` = cost_knock - cost_other where
#: positive, else 0; `grade` and `accuracy` as an answer's. NULL where not judged.
KNOCK_SCHEMA = pa.schema([
    ("game_id", pa.string()), ("hand", pa.int16()), ("seq", pa.int32()), ("seat", pa.int8()),
    ("players_in", pa.int8()), ("strength", pa.float64()), ("fair_share", pa.float64()),
    ("bluff", pa.bool_()), ("stake", pa.int16()), ("cost_knock", pa.float64()),
    ("cost_other", pa.float64()), ("other_choice", pa.string()), ("ev_lost", pa.float64()),
    ("grade", pa.string()), ("accuracy", pa.float64()),
])  # fmt: skip
FOLD_SCHEMA = pa.schema([
    ("game_id", pa.string()), ("hand", pa.int16()), ("seq", pa.int32()), ("seat", pa.int8()),
    ("cost", pa.int16()), ("regret", pa.bool_()),
])  # fmt: skip
#: One answer to a knock, judged from what the player could see (analytics.verdicts):
#: `answer` stay or fold; `stake` after the knock; `win_chance` by staying; the expected
#: cost of each choice in lives or points; `ev_lost` = the chosen one's minus the best's;
#: `grade` inaccuracy / mistake / blunder (NULL: sound); `accuracy` 0 to 1;
#: `partners_play_on` (team toepen) a fold left partners in the hand playing on for the
#: side, so its cost is an expectation too.
ANSWER_SCHEMA = pa.schema([
    ("game_id", pa.string()), ("hand", pa.int16()), ("seq", pa.int32()), ("seat", pa.int8()),
    ("answer", pa.string()), ("stake", pa.int16()), ("win_chance", pa.float64()),
    ("cost_stay", pa.float64()), ("cost_fold", pa.float64()), ("ev_lost", pa.float64()),
    ("grade", pa.string()), ("accuracy", pa.float64()), ("partners_play_on", pa.bool_()),
])  # fmt: skip
#: One player's cards at a hand's first knock or card (analytics.verdicts.deal_luck): the chance
#: of winning the hand with them, the fair share (a side's), and `luck` = the chance above
#: the fair share (positive: better cards than average); `stake` then.
LUCK_SCHEMA = pa.schema([
    ("game_id", pa.string()), ("hand", pa.int16()), ("seat", pa.int8()),
    ("players_in", pa.int8()), ("stake", pa.int16()), ("chance", pa.float64()),
    ("fair_share", pa.float64()), ("luck", pa.float64()),
])  # fmt: skip
#: A Troefcall trump call (analytics.verdicts.call_values): the value of naming each suit
#: (the caller's side's points less the other side's in the hand, expected from the
#: caller's cards), the suit named (`trump`) and the best, the EV lost against the best,
#: its grade and accuracy (against `stake`, CALL_STAKE).
CALL_SCHEMA = pa.schema([
    ("game_id", pa.string()), ("hand", pa.int16()), ("seq", pa.int32()), ("seat", pa.int8()),
    ("trump", pa.string()), ("best", pa.string()), ("value_clubs", pa.float64()),
    ("value_diamonds", pa.float64()), ("value_hearts", pa.float64()),
    ("value_spades", pa.float64()), ("stake", pa.int16()), ("ev_lost", pa.float64()),
    ("grade", pa.string()), ("accuracy", pa.float64()),
])  # fmt: skip
#: A Troefcall side's choice at seven in a row (analytics.verdicts.announce_values): what
#: the one choosing did (`chosen`: kap, baunie, stop, or play for playing on without a
#: word) and the best option, each option's value (the side's points less the other
#: side's in the hand, expected from the chooser's cards; NULL: not an option for them),
#: the chance that a baunie takes every trick left, the EV lost against the best option,
#: its grade and accuracy (against `stake`, the kap's points).
ANNOUNCE_SCHEMA = pa.schema([
    ("game_id", pa.string()), ("hand", pa.int16()), ("seq", pa.int32()), ("seat", pa.int8()),
    ("chosen", pa.string()), ("best", pa.string()), ("value_kap", pa.float64()),
    ("value_baunie", pa.float64()), ("value_stop", pa.float64()), ("value_play", pa.float64()),
    ("baunie_chance", pa.float64()), ("stake", pa.int16()), ("ev_lost", pa.float64()),
    ("grade", pa.string()), ("accuracy", pa.float64()),
])  # fmt: skip
#: A laundry swap or an armoede declared (analytics.verdicts.swap_costs), judged from what
#: the swapper could see: `kind` laundry or armoede; `genuine` the hand laid down made
#: the claim true; `stake` at the swap; the expected cost in lives or points of swapping
#: (`cost_swap`: the checks and the hand played on) and of keeping the hand
#: (`cost_keep`); `ev_lost` = cost_swap - cost_keep where positive, else 0; `grade` and
#: `accuracy` as an answer's.
SWAP_SCHEMA = pa.schema([
    ("game_id", pa.string()), ("hand", pa.int16()), ("seq", pa.int32()), ("seat", pa.int8()),
    ("kind", pa.string()), ("genuine", pa.bool_()), ("stake", pa.int16()),
    ("cost_swap", pa.float64()), ("cost_keep", pa.float64()), ("ev_lost", pa.float64()),
    ("grade", pa.string()), ("accuracy", pa.float64()),
])  # fmt: skip
#: The facts the analysis works out per game, by derived table: each is a `GameFacts`
#: field of the same name (analytics.derived), stored by the local and the Spark paths.
FACT_TABLES = {
    "knocks": KNOCK_SCHEMA, "folds": FOLD_SCHEMA, "answers": ANSWER_SCHEMA, "luck": LUCK_SCHEMA,
    "calls": CALL_SCHEMA, "announcements": ANNOUNCE_SCHEMA, "swaps": SWAP_SCHEMA,
}  # fmt: skip
#: `stopped`: where the engine refused the game's stored log part way, what it said (the
#: facts stop there; analytics.derived.GameFacts), else NULL. Files stored before it was
#: added lack the column: NULL.
ANALYSED_SCHEMA = pa.schema(
    [("game_id", pa.string()), ("version", pa.int16()), ("stopped", pa.string())]
)

#: What `seat_counts` (sql/views.sql) counts per player per game, stored by analytics.totals.
COUNTS = (
    "hands", "won", "paid", "knocks", "knocks_won", "knocks_faced", "folds", "fold_cost",
    "swaps", "bluffs_caught", "checks", "checks_won",
)  # fmt: skip
SEAT_COUNTS_SCHEMA = pa.schema(
    [("game_id", pa.string()), ("seat", pa.int8()), *((c, pa.int64()) for c in COUNTS)]
)

#: Bump when the ratings' model or what they count changes: every game is rated again.
RATINGS_VERSION = 2  # 2: Plackett–Luce read from the last place up (was openskill's)
#: A player's rating after a game (analytics.ratings), in one pool: the bots' games or the
#: club's (`simulated`), of one game type. `step`: the game's place in the order played,
#: from 0, over every game of the dataset; `games` and `hands` the player's so far.
RATING_SCHEMA = pa.schema([
    ("game_id", pa.string()), ("step", pa.int64()), ("simulated", pa.bool_()),
    ("game_type", pa.string()), ("started_at", pa.timestamp("us", tz="UTC")),
    ("player", pa.string()), ("mu", pa.float64()), ("sigma", pa.float64()),
    ("games", pa.int64()), ("hands", pa.int64()), ("version", pa.int16()),
])  # fmt: skip
