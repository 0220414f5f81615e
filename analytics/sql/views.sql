-- kroeg analytics views over a FORMAT.md dataset. Plain SQL over named views;
-- {games} and {events} are the dataset's Parquet globs. One statement per view.

CREATE OR REPLACE VIEW games AS
SELECT *,
       json_extract_string(rules, '$.last_trick') AS last_trick,
       json_extract_string(rules, '$.score_display') AS score_display
FROM read_parquet({games}, union_by_name = true);

CREATE OR REPLACE VIEW events AS
SELECT * FROM read_parquet({events}, union_by_name = true);

-- One row per hand: who dealt, the stakes, who ended it, how many played.
CREATE OR REPLACE VIEW hands AS
SELECT e.game_id,
       e.hand,
       max(e.seat) FILTER (WHERE e.kind = 'hand_start') AS dealer,
       max(e.amount) FILTER (WHERE e.kind = 'hand_start') AS start_stake,
       max(e.seat) FILTER (WHERE e.kind = 'hand_end') AS end_seat,
       max(e.amount) FILTER (WHERE e.kind = 'hand_end') AS stake,
       count(*) FILTER (WHERE e.kind = 'knock') AS knocks,
       count(DISTINCT e.seat) FILTER (WHERE e.kind = 'deal') AS players,
       count(*) FILTER (WHERE e.kind = 'fold') AS folds,
       bool_or(e.kind = 'hand_end') AS finished
FROM events AS e
WHERE e.hand > 0
GROUP BY e.game_id, e.hand;

-- One row per player per hand they were dealt into, with what they did and paid.
-- `won`: classic (last trick wins) - the player who ended the hand;
-- lives (last trick loses) - every player still in at the end except the one
-- who took the last trick (unless everyone else folded, which the knocker wins).
CREATE OR REPLACE VIEW hand_players AS
WITH dealt AS (
    SELECT DISTINCT game_id, hand, seat FROM events WHERE kind = 'deal' AND hand > 0
), acts AS (
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
    WHERE seat IS NOT NULL AND hand > 0
    GROUP BY game_id, hand, seat
), checked AS (
    SELECT game_id, hand, target AS seat,
           count(*) FILTER (WHERE amount = 0) AS bluffs_caught
    FROM events
    WHERE kind = 'check'
    GROUP BY game_id, hand, target
)
SELECT d.game_id,
       d.hand,
       d.seat,
       g.players[d.seat + 1] AS player,
       g.ruleset,
       g.venue,
       g.started_at,
       h.finished,
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
       h.finished AND coalesce(a.folds, 0) = 0 AND CASE
           WHEN g.last_trick = 'wins' THEN h.end_seat = d.seat
           ELSE h.players - h.folds = 1 OR h.end_seat <> d.seat
       END AS won
FROM dealt AS d
JOIN games AS g USING (game_id)
JOIN hands AS h USING (game_id, hand)
LEFT JOIN acts AS a USING (game_id, hand, seat)
LEFT JOIN checked AS c USING (game_id, hand, seat);

-- One row per knock, with the players still in when it came and whether it paid off.
CREATE OR REPLACE VIEW knocks AS
SELECT k.game_id,
       k.hand,
       k.seq,
       k.seat,
       hp.player,
       k.amount AS stake,
       h.players - (
           SELECT count(*) FROM events AS f
           WHERE f.game_id = k.game_id AND f.hand = k.hand AND f.kind = 'fold' AND f.seq < k.seq
       ) AS players_in,
       hp.won AS knocker_won
FROM events AS k
JOIN hands AS h USING (game_id, hand)
JOIN hand_players AS hp USING (game_id, hand, seat)
WHERE k.kind = 'knock';

-- One row per fold, with the stake it paid.
CREATE OR REPLACE VIEW folds AS
SELECT f.game_id, f.hand, f.seq, f.seat, hp.player, f.amount AS cost
FROM events AS f
JOIN hand_players AS hp USING (game_id, hand, seat)
WHERE f.kind = 'fold';

-- One row per trick, with its winner.
CREATE OR REPLACE VIEW tricks AS
SELECT t.game_id, t.hand, t.amount AS number, t.seat, g.players[t.seat + 1] AS player
FROM events AS t
JOIN games AS g USING (game_id)
WHERE t.kind = 'trick';

-- Derived facts (analytics/derived.py), stored once per game under DATASET/derived/.
CREATE OR REPLACE VIEW knock_facts AS
SELECT * FROM read_parquet({knock_facts}, union_by_name = true);

CREATE OR REPLACE VIEW fold_facts AS
SELECT * FROM read_parquet({fold_facts}, union_by_name = true);

-- Every knock with its strength, and what it brought in: the folds that answered it
-- (up to the next knock), and whether everyone else then folded.
CREATE OR REPLACE VIEW knock_outcomes AS
WITH k AS (
    SELECT *, lead(seq) OVER (PARTITION BY game_id, hand ORDER BY seq) AS next_seq
    FROM knocks
)
SELECT k.game_id, k.hand, k.seq, k.seat, k.player, k.stake, k.players_in, k.knocker_won,
       f.strength, f.fair_share, f.bluff,
       (SELECT coalesce(sum(e.amount), 0) FROM events AS e
        WHERE e.game_id = k.game_id AND e.hand = k.hand AND e.kind = 'fold'
          AND e.seq > k.seq AND (k.next_seq IS NULL OR e.seq < k.next_seq)) AS folded_to_it,
       h.players - h.folds = 1 AND h.end_seat = k.seat AS all_folded
FROM k
JOIN hands AS h USING (game_id, hand)
LEFT JOIN knock_facts AS f USING (game_id, hand, seq);

-- Per player per hand: the derived figures, ready to add up like hand_players.
-- Bluff profit: the folds a bluff brought in, less the one extra life or point the
-- raise cost the bluffer if the hand was lost anyway.
CREATE OR REPLACE VIEW hand_facts AS
WITH kn AS (
    SELECT game_id, hand, seat,
           count(strength) AS knocks_known,
           count(*) FILTER (WHERE bluff) AS bluffs,
           count(*) FILTER (WHERE bluff AND all_folded) AS bluffs_won,
           coalesce(sum(folded_to_it - CASE WHEN knocker_won THEN 0 ELSE 1 END)
                    FILTER (WHERE bluff), 0) AS bluff_profit
    FROM knock_outcomes
    GROUP BY game_id, hand, seat
), fo AS (
    SELECT game_id, hand, seat,
           count(regret) AS folds_known,
           count(*) FILTER (WHERE regret) AS regrets,
           coalesce(sum(cost) FILTER (WHERE regret), 0) AS regret_cost
    FROM fold_facts
    GROUP BY game_id, hand, seat
)
SELECT game_id, hand, seat,
       coalesce(kn.knocks_known, 0) AS knocks_known,
       coalesce(kn.bluffs, 0) AS bluffs,
       coalesce(kn.bluffs_won, 0) AS bluffs_won,
       coalesce(kn.bluff_profit, 0) AS bluff_profit,
       coalesce(fo.folds_known, 0) AS folds_known,
       coalesce(fo.regrets, 0) AS regrets,
       coalesce(fo.regret_cost, 0) AS regret_cost
FROM kn FULL OUTER JOIN fo USING (game_id, hand, seat);
