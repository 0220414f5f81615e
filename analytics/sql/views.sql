-- kroeg analytics views over a FORMAT.md dataset: plain SQL over named views.
-- {games} and {events} are the dataset's Parquet globs. One statement per view.
-- DuckDB's dialect, kept to what sqlglot translates to Spark SQL (analytics/spark.py):
-- `x[i]` is 1-based element access, lambdas are `lambda x: ...`, tables of numbers are
-- VALUES lists, and a macro is expanded by the Spark side before translation.
-- No rule of a game is written here: who won a hand is the engine's `win` event, and
-- the parameters a view needs come from the engine's rule sets through `game_rules`
-- (one row per distinct rules text, made by analytics.views.register).

CREATE OR REPLACE VIEW games AS
SELECT g.*,
       r.* EXCLUDE (rules),
       -- Each side's name where seats play in teams: its players in alphabetical order
       -- joined by ' & ', wherever they sat (recorder.records.side_name): one name a
       -- partnership, in every game. (Lambdas and 1-based element access only: the same
       -- text runs on Spark, below.)
       CASE WHEN g.teams IS NOT NULL THEN list_transform(
           generate_series(0, list_max(g.teams)),
           lambda side: array_to_string(list_sort(list_filter(list_transform(
               generate_series(1, array_length(g.players)),
               lambda i: CASE WHEN g.teams[i] = side THEN g.players[i] END),
               lambda name: name IS NOT NULL)), ' & ')
       ) END AS side_names
FROM read_parquet({games}, union_by_name = true) AS g
LEFT JOIN game_rules AS r USING (rules);

-- Every event. A game whose stored log was written before some of the engine's facts
-- is read from derived/events instead: its whole log as the engine records it now
-- (analytics.derived, docs/FORMAT.md), so every view below counts facts, never guesses.
CREATE OR REPLACE VIEW events AS
SELECT game_id, hand, seq, kind, seat, card, amount, target
FROM read_parquet({events}, union_by_name = true)
WHERE game_id NOT IN (SELECT game_id FROM read_parquet({upgraded_events}, union_by_name = true))
UNION ALL
SELECT game_id, hand, seq, kind, seat, card, amount, target
FROM read_parquet({upgraded_events}, union_by_name = true);

-- One row per hand: who dealt, the stakes, who ended it, who was dealt in and who won
-- it (a bit per seat). No semicolons in comments: the file is split into statements at them.
CREATE OR REPLACE VIEW hands AS
SELECT *, bit_count(dealt_mask) AS players
FROM (
    SELECT e.game_id,
           e.hand,
           max(e.seat) FILTER (WHERE e.kind = 'hand_start') AS dealer,
           max(e.amount) FILTER (WHERE e.kind = 'hand_start') AS start_stake,
           max(e.seat) FILTER (WHERE e.kind = 'hand_end') AS end_seat,
           max(e.amount) FILTER (WHERE e.kind = 'hand_end') AS stake,
           count(*) FILTER (WHERE e.kind = 'knock') AS knocks,
           coalesce(bit_or(1::INTEGER << e.seat) FILTER (WHERE e.kind = 'deal'), 0) AS dealt_mask,
           coalesce(bit_or(1::INTEGER << e.seat) FILTER (WHERE e.kind = 'fold'), 0) AS folded_mask,
           coalesce(bit_or(1::INTEGER << e.seat) FILTER (WHERE e.kind = 'win'), 0) AS won_mask,
           max(e.seat) FILTER (WHERE e.kind = 'all_folded') AS all_folded_seat,
           max(e.seq) FILTER (WHERE e.kind = 'knock') AS last_knock_seq,
           count(*) FILTER (WHERE e.kind = 'fold') AS folds,
           bool_or(e.kind = 'hand_end') AS finished
    FROM events AS e
    WHERE e.hand > 0
    GROUP BY e.game_id, e.hand
);

-- One row per seat per hand it was dealt into, with what it did and paid, and
-- whether it won the hand: the one place these are counted.
CREATE OR REPLACE VIEW seat_hands AS
WITH acts AS (
    SELECT game_id, hand, seat,
           coalesce(sum(amount) FILTER (WHERE kind = 'pay'), 0) AS paid,
           count(*) FILTER (WHERE kind = 'knock') AS knocks,
           count(*) FILTER (WHERE kind = 'fold') AS folds,
           coalesce(sum(amount) FILTER (WHERE kind = 'fold'), 0) AS fold_cost,
           count(*) FILTER (WHERE kind IN ('stay', 'fold')) AS knocks_faced,
           count(*) FILTER (WHERE kind = 'laundry') AS laundry,
           count(*) FILTER (WHERE kind = 'armoede') AS armoede,
           count(*) FILTER (WHERE kind = 'check') AS checks,
           count(*) FILTER (WHERE kind = 'check' AND amount = 0) AS checks_won
    FROM events
    WHERE hand > 0 AND kind IN ('pay', 'knock', 'fold', 'stay', 'laundry', 'armoede', 'check')
    GROUP BY game_id, hand, seat
), checked AS (
    SELECT game_id, hand, target AS seat,
           count(*) FILTER (WHERE amount = 0) AS bluffs_caught
    FROM events
    WHERE kind = 'check'
    GROUP BY game_id, hand, target
), seats AS (
    SELECT h.*, s.seat
    FROM hands AS h, (VALUES (0), (1), (2), (3), (4), (5), (6), (7)) AS s(seat)
    WHERE (h.dealt_mask >> s.seat) & 1 = 1
)
SELECT d.game_id,
       d.hand,
       d.seat::TINYINT AS seat,
       d.finished,
       coalesce(a.paid, 0) AS paid,
       coalesce(a.knocks, 0) AS knocks,
       coalesce(a.folds, 0) AS folds,
       coalesce(a.fold_cost, 0) AS fold_cost,
       coalesce(a.knocks_faced, 0) AS knocks_faced,
       coalesce(a.laundry, 0) AS laundry,
       coalesce(a.armoede, 0) AS armoede,
       coalesce(a.checks, 0) AS checks,
       coalesce(a.checks_won, 0) AS checks_won,
       coalesce(c.bluffs_caught, 0) AS bluffs_caught,
       (d.won_mask >> d.seat) & 1 = 1 AS won
FROM seats AS d
LEFT JOIN acts AS a ON a.game_id = d.game_id AND a.hand = d.hand AND a.seat = d.seat
LEFT JOIN checked AS c ON c.game_id = d.game_id AND c.hand = d.hand AND c.seat = d.seat;

-- The same per player of a Toepen game, with the game's details.
CREATE OR REPLACE VIEW hand_players AS
SELECT s.game_id, s.hand, s.seat, g.players[s.seat + 1] AS player,
       g.ruleset, g.venue, g.started_at, s.* EXCLUDE (game_id, hand, seat)
FROM seat_hands AS s
JOIN games AS g USING (game_id)
WHERE g.game_type = 'toepen';

-- One row per knock: the players still in when it came (a running count of folds
-- before it), the folds that answered it (up to the next knock: the folds whose last
-- knock it is), and how it ended. Each step reads the one before it once: a step read
-- twice is computed once for the whole dataset, and a query for one game (`WHERE
-- game_id = ?`, the replay's) then paid for every game's events.
CREATE OR REPLACE VIEW knocks AS
WITH answers AS (
    SELECT game_id, hand, seq, kind, seat, amount,
           count(*) FILTER (WHERE kind = 'fold') OVER (
               PARTITION BY game_id, hand ORDER BY seq ROWS UNBOUNDED PRECEDING
           ) AS folds_so_far,
           max(seq) FILTER (WHERE kind = 'knock') OVER (
               PARTITION BY game_id, hand ORDER BY seq ROWS UNBOUNDED PRECEDING
           ) AS last_knock
    FROM events
    WHERE kind IN ('knock', 'fold')
), answered AS (
    SELECT *,
           sum(amount) FILTER (WHERE kind = 'fold') OVER (
               PARTITION BY game_id, hand, last_knock
           ) AS folded_to_it
    FROM answers
)
SELECT k.game_id,
       k.hand,
       k.seq,
       k.seat,
       g.players[k.seat + 1] AS player,
       k.amount AS stake,
       h.players - k.folds_so_far AS players_in,
       coalesce(k.folded_to_it, 0) AS folded_to_it,
       -- The engine's verdict: every opponent (side) folded to this knock, the hand's last.
       coalesce(h.all_folded_seat = k.seat AND h.last_knock_seq = k.seq, false) AS all_folded,
       (h.won_mask >> k.seat) & 1 = 1 AS knocker_won
FROM answered AS k
JOIN hands AS h USING (game_id, hand)
JOIN games AS g USING (game_id)
WHERE k.kind = 'knock';

-- One row per fold, with the stake it paid. (The player's name comes from the game's
-- list: joining the per-seat totals cost ten times as much for the same rows.)
CREATE OR REPLACE VIEW folds AS
SELECT f.game_id, f.hand, f.seq, f.seat, g.players[f.seat + 1] AS player, f.amount AS cost
FROM events AS f
JOIN games AS g USING (game_id)
WHERE f.kind = 'fold' AND g.game_type = 'toepen';

-- One row per trick, with its winner.
CREATE OR REPLACE VIEW tricks AS
SELECT t.game_id, t.hand, t.amount AS number, t.seat, g.players[t.seat + 1] AS player
FROM events AS t
JOIN games AS g USING (game_id)
WHERE t.kind = 'trick';

-- One row per finished game: the players who won it and those who lost it, from the
-- engine's `game_end` fact, which names a seat of each (the first seat of a side where
-- seats play in teams): a side's every player is named. The one place a game's result
-- is read per player.
CREATE OR REPLACE VIEW game_results AS
SELECT g.game_id,
       list_filter(list_transform(
           generate_series(1, array_length(g.players)),
           lambda i: CASE WHEN i - 1 = e.winner OR g.teams[i] = g.teams[e.winner + 1]
                          THEN g.players[i] END),
           lambda name: name IS NOT NULL) AS winners,
       list_filter(list_transform(
           generate_series(1, array_length(g.players)),
           lambda i: CASE WHEN i - 1 = e.loser OR g.teams[i] = g.teams[e.loser + 1]
                          THEN g.players[i] END),
           lambda name: name IS NOT NULL) AS losers
FROM games AS g
JOIN (SELECT game_id, any_value(seat) AS winner, any_value(target) AS loser
      FROM events WHERE kind = 'game_end' GROUP BY game_id) AS e USING (game_id);

-- Derived facts (analytics/derived.py), stored once per game under DATASET/derived/.
CREATE OR REPLACE VIEW knock_facts AS
SELECT * FROM read_parquet({knock_facts}, union_by_name = true);

CREATE OR REPLACE VIEW fold_facts AS
SELECT * FROM read_parquet({fold_facts}, union_by_name = true);

-- Every answer to a knock, judged from what the player could see: the expected cost of
-- staying and of folding, the EV lost, its grade and accuracy (analytics/verdicts.py).
CREATE OR REPLACE VIEW answer_facts AS
SELECT * FROM read_parquet({answer_facts}, union_by_name = true);

-- Every Troefcall trump call, judged from the caller's cards: the value of naming each
-- suit, the EV lost against the best, its grade and accuracy (analytics/verdicts.py).
CREATE OR REPLACE VIEW call_facts AS
SELECT * FROM read_parquet({call_facts}, union_by_name = true);

-- Every Troefcall choice at seven tricks in a row (kap, baunie, stop, play on), judged
-- from the chooser's cards: each option's value, the EV lost, its grade.
CREATE OR REPLACE VIEW announce_facts AS
SELECT * FROM read_parquet({announce_facts}, union_by_name = true);

-- Every laundry swap and armoede declared, judged from what the swapper could see: the
-- expected cost of swapping and of keeping the hand, the EV lost, its grade.
CREATE OR REPLACE VIEW swap_facts AS
SELECT * FROM read_parquet({swap_facts}, union_by_name = true);

-- What each player's cards were worth at the first card of a hand: their chance of
-- winning it above an average hand's (positive: better cards), the luck of the deal.
CREATE OR REPLACE VIEW luck_facts AS
SELECT * FROM read_parquet({luck_facts}, union_by_name = true);

-- Every analysed knock with its strength and what it brought in. A bluff won when
-- every other player folded to it (docs/STATS.md): this is the one place that says so.
CREATE OR REPLACE VIEW knock_outcomes AS
SELECT k.*, f.strength, f.fair_share, f.bluff, f.bluff AND k.all_folded AS bluff_won,
       f.stake AS stake_before, f.cost_knock, f.cost_other, f.other_choice,
       f.ev_lost AS knock_ev_lost,
       f.grade AS knock_grade, f.accuracy AS knock_accuracy
FROM knock_facts AS f
JOIN knocks AS k USING (game_id, hand, seq);

-- Per player per hand: the derived figures, ready to add up like hand_players.
-- Bluff profit: the folds a bluff brought in, less the one extra life or point the
-- raise cost the bluffer if the hand was lost anyway.
CREATE OR REPLACE VIEW hand_facts AS
WITH kn AS (
    SELECT game_id, hand, seat,
           count(strength) AS knocks_known,
           count(*) FILTER (WHERE bluff) AS bluffs,
           count(*) FILTER (WHERE bluff_won) AS bluffs_won,
           coalesce(sum(folded_to_it - CASE WHEN knocker_won THEN 0 ELSE 1 END)
                    FILTER (WHERE bluff), 0) AS bluff_profit,
           count(knock_accuracy) AS knocks_judged,
           coalesce(sum(knock_ev_lost), 0) AS knock_ev_lost,
           coalesce(sum(knock_accuracy), 0) AS knock_accuracy_points,
           count(*) FILTER (WHERE knock_grade = 'mistake') AS knock_mistakes,
           count(*) FILTER (WHERE knock_grade = 'blunder') AS knock_blunders
    FROM knock_outcomes
    GROUP BY game_id, hand, seat
), fo AS (
    SELECT game_id, hand, seat,
           count(regret) AS folds_known,
           count(*) FILTER (WHERE regret) AS regrets,
           coalesce(sum(cost) FILTER (WHERE regret), 0) AS regret_cost
    FROM fold_facts
    GROUP BY game_id, hand, seat
), an AS (
    SELECT game_id, hand, seat,
           count(*) AS answers_known,
           sum(ev_lost) AS ev_lost,
           sum(accuracy) AS accuracy_points,
           count(*) FILTER (WHERE grade = 'inaccuracy') AS inaccuracies,
           count(*) FILTER (WHERE grade = 'mistake') AS mistakes,
           count(*) FILTER (WHERE grade = 'blunder') AS blunders
    FROM answer_facts
    GROUP BY game_id, hand, seat
), sw AS (
    SELECT game_id, hand, seat,
           count(*) AS swaps_judged,
           sum(ev_lost) AS swap_ev_lost,
           sum(accuracy) AS swap_accuracy_points,
           count(*) FILTER (WHERE grade = 'mistake') AS swap_mistakes,
           count(*) FILTER (WHERE grade = 'blunder') AS swap_blunders
    FROM swap_facts
    GROUP BY game_id, hand, seat
), lu AS (
    SELECT game_id, hand, seat, count(*) AS luck_hands, sum(luck) AS luck,
           sum(luck * stake) AS luck_value
    FROM luck_facts
    GROUP BY game_id, hand, seat
)
SELECT game_id, hand, seat,
       coalesce(kn.knocks_known, 0) AS knocks_known,
       coalesce(kn.bluffs, 0) AS bluffs,
       coalesce(kn.bluffs_won, 0) AS bluffs_won,
       coalesce(kn.bluff_profit, 0) AS bluff_profit,
       coalesce(kn.knocks_judged, 0) AS knocks_judged,
       coalesce(kn.knock_ev_lost, 0) AS knock_ev_lost,
       coalesce(kn.knock_accuracy_points, 0) AS knock_accuracy_points,
       coalesce(kn.knock_mistakes, 0) AS knock_mistakes,
       coalesce(kn.knock_blunders, 0) AS knock_blunders,
       coalesce(fo.folds_known, 0) AS folds_known,
       coalesce(fo.regrets, 0) AS regrets,
       coalesce(fo.regret_cost, 0) AS regret_cost,
       coalesce(an.answers_known, 0) AS answers_known,
       coalesce(an.ev_lost, 0) AS ev_lost,
       coalesce(an.accuracy_points, 0) AS accuracy_points,
       coalesce(an.inaccuracies, 0) AS inaccuracies,
       coalesce(an.mistakes, 0) AS mistakes,
       coalesce(an.blunders, 0) AS blunders,
       coalesce(sw.swaps_judged, 0) AS swaps_judged,
       coalesce(sw.swap_ev_lost, 0) AS swap_ev_lost,
       coalesce(sw.swap_accuracy_points, 0) AS swap_accuracy_points,
       coalesce(sw.swap_mistakes, 0) AS swap_mistakes,
       coalesce(sw.swap_blunders, 0) AS swap_blunders,
       coalesce(lu.luck_hands, 0) AS luck_hands,
       coalesce(lu.luck, 0) AS luck,
       coalesce(lu.luck_value, 0) AS luck_value
FROM kn FULL OUTER JOIN fo USING (game_id, hand, seat)
FULL OUTER JOIN an USING (game_id, hand, seat)
FULL OUTER JOIN sw USING (game_id, hand, seat)
FULL OUTER JOIN lu USING (game_id, hand, seat);

-- Per player per finished hand of a Toepen game: hand_players' counts and hand_facts'
-- derived figures side by side, what seat_totals adds up, a hand at a time (the
-- replay's figures before a hand: analytics.pages.game_hand_counts). A hand without
-- derived facts (nothing knocked or folded, or not analysed) has NULL for them.
CREATE OR REPLACE VIEW hand_counts AS
SELECT p.*, f.* EXCLUDE (game_id, hand, seat)
FROM hand_players AS p
LEFT JOIN hand_facts AS f USING (game_id, hand, seat)
WHERE p.finished;

-- Counts per player per Toepen game: seat_hands added up over the finished hands.
-- A landed game never changes, so analytics.totals stores these once per game.
CREATE OR REPLACE VIEW seat_counts AS
SELECT game_id, seat,
       count(*) AS hands,
       count(*) FILTER (WHERE won) AS won,
       sum(paid) AS paid,
       sum(knocks) AS knocks,
       coalesce(sum(knocks) FILTER (WHERE won), 0) AS knocks_won,
       sum(knocks_faced) AS knocks_faced,
       sum(folds) AS folds,
       sum(fold_cost) AS fold_cost,
       sum(laundry + armoede) AS swaps,
       sum(bluffs_caught) AS bluffs_caught,
       sum(checks) AS checks,
       sum(checks_won) AS checks_won
FROM seat_hands AS s
SEMI JOIN games AS g ON g.game_id = s.game_id AND g.game_type = 'toepen'
WHERE finished
GROUP BY game_id, seat;

-- Team toepen: each side's finished hands, and those it won (a partner's win is the
-- side's), per game. A side's other figures are its players' counts added up.
CREATE OR REPLACE VIEW side_hands AS
SELECT s.game_id, g.side_names[g.teams[s.seat + 1] + 1] AS side,
       count(DISTINCT s.hand) AS hands,
       count(DISTINCT s.hand) FILTER (WHERE s.won) AS won
FROM seat_hands AS s
JOIN games AS g ON g.game_id = s.game_id AND g.game_type = 'toepen' AND g.teams IS NOT NULL
WHERE s.finished
GROUP BY ALL;

CREATE OR REPLACE VIEW seat_counts_stored AS
SELECT * FROM read_parquet({seat_counts}, union_by_name = true);

-- Each player's rating after each game, as analytics.ratings stored it (its model, not SQL).
CREATE OR REPLACE VIEW ratings_stored AS
SELECT * FROM read_parquet({rating_facts}, union_by_name = true);

-- Every game's counts: the stored ones, and the games not stored yet counted live.
CREATE OR REPLACE VIEW seat_counts_all AS
SELECT * FROM seat_counts_stored
UNION ALL  -- by position: the stored files are this view's columns, in its order
SELECT * FROM seat_counts
WHERE game_id NOT IN (SELECT game_id FROM seat_counts_stored);

-- What the statistics add up, from a table of counts: the game's details and the
-- derived facts beside each player's counts.
CREATE OR REPLACE MACRO totals_of(counts_table) AS TABLE
WITH facts AS (
    SELECT game_id, seat,
           sum(knocks_known) AS knocks_known, sum(bluffs) AS bluffs,
           sum(bluffs_won) AS bluffs_won, sum(bluff_profit) AS bluff_profit,
           sum(knocks_judged) AS knocks_judged, sum(knock_ev_lost) AS knock_ev_lost,
           sum(knock_accuracy_points) AS knock_accuracy_points,
           sum(knock_mistakes) AS knock_mistakes, sum(knock_blunders) AS knock_blunders,
           sum(folds_known) AS folds_known, sum(regrets) AS regrets,
           sum(regret_cost) AS regret_cost,
           sum(answers_known) AS answers_known, sum(ev_lost) AS ev_lost,
           sum(accuracy_points) AS accuracy_points, sum(inaccuracies) AS inaccuracies,
           sum(mistakes) AS mistakes, sum(blunders) AS blunders,
           sum(swaps_judged) AS swaps_judged, sum(swap_ev_lost) AS swap_ev_lost,
           sum(swap_accuracy_points) AS swap_accuracy_points,
           sum(swap_mistakes) AS swap_mistakes, sum(swap_blunders) AS swap_blunders,
           sum(luck_hands) AS luck_hands, sum(luck) AS luck, sum(luck_value) AS luck_value
    FROM hand_facts
    GROUP BY ALL
)
SELECT n.*, g.players[n.seat + 1] AS player, g.venue, g.started_at, g.unit,
       strftime(g.started_at, '%Y-%m') AS month,
       g.side_names[g.teams[n.seat + 1] + 1] AS side,
       coalesce(x.knocks_known, 0) AS knocks_known, coalesce(x.bluffs, 0) AS bluffs,
       coalesce(x.bluffs_won, 0) AS bluffs_won, coalesce(x.bluff_profit, 0) AS bluff_profit,
       coalesce(x.knocks_judged, 0) AS knocks_judged,
       coalesce(x.knock_ev_lost, 0) AS knock_ev_lost,
       coalesce(x.knock_accuracy_points, 0) AS knock_accuracy_points,
       coalesce(x.knock_mistakes, 0) AS knock_mistakes,
       coalesce(x.knock_blunders, 0) AS knock_blunders,
       coalesce(x.folds_known, 0) AS folds_known, coalesce(x.regrets, 0) AS regrets,
       coalesce(x.regret_cost, 0) AS regret_cost,
       coalesce(x.answers_known, 0) AS answers_known, coalesce(x.ev_lost, 0) AS ev_lost,
       coalesce(x.accuracy_points, 0) AS accuracy_points,
       coalesce(x.inaccuracies, 0) AS inaccuracies, coalesce(x.mistakes, 0) AS mistakes,
       coalesce(x.blunders, 0) AS blunders,
       coalesce(x.swaps_judged, 0) AS swaps_judged,
       coalesce(x.swap_ev_lost, 0) AS swap_ev_lost,
       coalesce(x.swap_accuracy_points, 0) AS swap_accuracy_points,
       coalesce(x.swap_mistakes, 0) AS swap_mistakes,
       coalesce(x.swap_blunders, 0) AS swap_blunders,
       coalesce(x.luck_hands, 0) AS luck_hands, coalesce(x.luck, 0) AS luck,
       -- What was paid with the luck of the deal taken out: a lucky player's cards saved
       -- them luck × stake in expectation, added back (docs/STATS.md, "Luck").
       n.paid + coalesce(x.luck_value, 0) AS luck_adjusted_paid
FROM query_table(counts_table) AS n
JOIN games AS g USING (game_id)
LEFT JOIN facts AS x ON x.game_id = n.game_id AND x.seat = n.seat;

-- Always right: stored counts where there are some, live counts for the rest.
CREATE OR REPLACE VIEW seat_totals AS SELECT * FROM totals_of('seat_counts_all');

-- Fast, and right once every game's counts are stored (analytics.totals.store_counts).
CREATE OR REPLACE VIEW seat_totals_stored AS SELECT * FROM totals_of('seat_counts_stored');

-- Troefcall (docs/STATS.md). One row per hand: dealer, caller, trump, each side's
-- tricks, the announcements and the score. A seat's side is the game's `teams` entry.
-- Why a hand scored is the engine's verdict in the score's row (`card`: majority, kap,
-- partner-kap, silent-kap, baunie, failed-baunie), never read from the points.
CREATE OR REPLACE VIEW troef_hands AS
WITH e AS (
    SELECT e.game_id, e.hand, e.kind, e.seat, e.card, e.amount, e.target,
           g.teams[e.seat + 1] AS side, g.hand_size
    FROM events AS e
    JOIN games AS g ON g.game_id = e.game_id AND g.game_type = 'troefcall'
    WHERE e.hand > 0
)
SELECT game_id,
       hand,
       max(seat) FILTER (WHERE kind = 'hand_start') AS dealer,
       max(target) FILTER (WHERE kind = 'hand_start') AS caller,
       max(card) FILTER (WHERE kind = 'trump') AS trump,
       count(*) FILTER (WHERE kind = 'trick' AND side = 0) AS tricks_0,
       count(*) FILTER (WHERE kind = 'trick' AND side = 1) AS tricks_1,
       max(side) FILTER (
           WHERE kind = 'score' AND card IN ('kap', 'partner-kap', 'silent-kap')
       ) AS kap_side,
       max(side) FILTER (WHERE kind = 'baunie') AS baunie_side,
       max(side) FILTER (WHERE kind = 'score' AND card = 'baunie') AS baunie_won_side,
       max(side) FILTER (WHERE kind = 'score') AS score_side,
       max(card) FILTER (WHERE kind = 'score') AS score_reason,
       coalesce(max(amount) FILTER (WHERE kind = 'score'), 0) AS points,
       any_value(hand_size) AS hand_size,
       bool_or(kind = 'hand_end') AS finished
FROM e
GROUP BY game_id, hand;

-- One row per side per finished Troefcall hand, with what the statistics count.
-- A side made kap partij if its score was a kap's (announced, by the partner, or
-- silent). A call is made good with the majority of the tricks.
CREATE OR REPLACE VIEW troef_sides AS
SELECT h.game_id,
       h.hand,
       s.side::TINYINT AS side,
       g.side_names[s.side + 1] AS side_name,
       g.venue,
       g.started_at,
       strftime(g.started_at, '%Y-%m') AS month,
       h.caller,
       1 AS hands,
       (g.teams[h.caller + 1] = s.side)::INTEGER AS calls,
       (g.teams[h.caller + 1] = s.side
           AND 2 * CASE s.side WHEN 0 THEN h.tricks_0 ELSE h.tricks_1 END > h.hand_size
       )::INTEGER AS calls_made,
       coalesce(h.kap_side = s.side, false)::INTEGER AS kaps,
       coalesce(h.baunie_side = s.side, false)::INTEGER AS baunies,
       coalesce(h.baunie_won_side = s.side, false)::INTEGER AS baunies_won,
       CASE s.side WHEN 0 THEN h.tricks_0 ELSE h.tricks_1 END AS tricks,
       CASE s.side WHEN 0 THEN h.tricks_1 ELSE h.tricks_0 END AS tricks_against,
       CASE WHEN h.score_side = s.side THEN h.points ELSE 0 END AS points,
       -- The verdict on the side's own trump call (call_facts), where it called.
       (c.seat IS NOT NULL)::INTEGER AS calls_judged,
       coalesce(c.accuracy, 0) AS call_accuracy_points,
       coalesce(c.ev_lost, 0) AS call_ev_lost,
       coalesce(c.grade = 'mistake', false)::INTEGER AS call_mistakes,
       coalesce(c.grade = 'blunder', false)::INTEGER AS call_blunders,
       -- The verdict on the side's choice at seven in a row (announce_facts), and who chose.
       a.seat AS announcer,
       (a.seat IS NOT NULL)::INTEGER AS announcements_judged,
       coalesce(a.accuracy, 0) AS announce_accuracy_points,
       coalesce(a.ev_lost, 0) AS announce_ev_lost,
       coalesce(a.grade = 'mistake', false)::INTEGER AS announce_mistakes,
       coalesce(a.grade = 'blunder', false)::INTEGER AS announce_blunders
FROM troef_hands AS h
JOIN games AS g ON g.game_id = h.game_id
CROSS JOIN (VALUES (0), (1)) AS s(side)
LEFT JOIN call_facts AS c
    ON c.game_id = h.game_id AND c.hand = h.hand AND c.seat = h.caller
    AND g.teams[h.caller + 1] = s.side
LEFT JOIN announce_facts AS a
    ON a.game_id = h.game_id AND a.hand = h.hand AND g.teams[a.seat + 1] = s.side
WHERE h.finished;

-- The same per player: a player shares the side's tricks, announcements and points,
-- and calls (and makes good) only the hands they called themselves, and the verdicts on
-- their own calls (call_facts) and choices at seven in a row (announce_facts) are
-- theirs alone.
CREATE OR REPLACE VIEW troef_seats AS
SELECT t.game_id, t.hand, p.seat::TINYINT AS seat,
       g.players[p.seat + 1] AS player,
       t.side_name, t.venue, t.started_at, t.month, t.hands,
       (t.caller = p.seat)::INTEGER AS calls,
       (t.caller = p.seat AND t.calls_made = 1)::INTEGER AS calls_made,
       t.kaps, t.baunies, t.baunies_won, t.tricks, t.tricks_against, t.points,
       CASE WHEN t.caller = p.seat THEN t.calls_judged ELSE 0 END AS calls_judged,
       CASE WHEN t.caller = p.seat THEN t.call_accuracy_points ELSE 0 END
           AS call_accuracy_points,
       CASE WHEN t.caller = p.seat THEN t.call_ev_lost ELSE 0 END AS call_ev_lost,
       CASE WHEN t.caller = p.seat THEN t.call_mistakes ELSE 0 END AS call_mistakes,
       CASE WHEN t.caller = p.seat THEN t.call_blunders ELSE 0 END AS call_blunders,
       CASE WHEN t.announcer = p.seat THEN t.announcements_judged ELSE 0 END
           AS announcements_judged,
       CASE WHEN t.announcer = p.seat THEN t.announce_accuracy_points ELSE 0 END
           AS announce_accuracy_points,
       CASE WHEN t.announcer = p.seat THEN t.announce_ev_lost ELSE 0 END AS announce_ev_lost,
       CASE WHEN t.announcer = p.seat THEN t.announce_mistakes ELSE 0 END
           AS announce_mistakes,
       CASE WHEN t.announcer = p.seat THEN t.announce_blunders ELSE 0 END
           AS announce_blunders
FROM troef_sides AS t, games AS g, (VALUES (0), (1), (2), (3), (4), (5), (6), (7)) AS p(seat)
WHERE g.game_id = t.game_id AND p.seat < array_length(g.players) AND g.teams[p.seat + 1] = t.side;
