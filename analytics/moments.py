"""The notable moves of a set of games, defined once: the evening's moments on the
dashboard's landing page and the awards of the newsletter ask the same questions.

Each is a query over the views (docs/STATS.md), for the games `where` lets through (a
condition on the `games` row, alias `g`, or on `game_id`):

- the **biggest bluff that worked**: a bluff everyone folded to, the one that brought in
  the most; on equal takings, the weaker hand (the bolder bluff), then the higher stake;
- the **costliest fold**: the fold that paid the most (and whether playing on would have
  won it: `regret`, NULL where the cards were not known);
- the **regrettable folds**: folds that playing on would have won, costliest first;
- the **blunder**: the answer to a knock that lost the most in expectation, from what the
  player could see (`answer_facts`), relative to the stake, then in lives or points.

Ties are broken by game, hand and move, so an answer never depends on the engine's order.
"""

from __future__ import annotations

__all__ = ["biggest_bluff", "blunder", "costliest_fold", "regrettable_folds"]


def biggest_bluff(where: str) -> str:
    """The biggest bluff that worked: player, game_id, hand, seq, stake, strength,
    fair_share, folded_to_it and the unit they count in."""
    return (
        "SELECT k.player, k.game_id, k.hand, k.seq, k.stake, k.strength, k.fair_share, "
        "k.folded_to_it, g.unit "
        "FROM knock_outcomes AS k JOIN games AS g USING (game_id) "
        f"WHERE k.bluff_won AND {where} "
        "ORDER BY k.folded_to_it DESC, k.strength, k.stake DESC, k.game_id, k.hand, k.seq "
        "LIMIT 1"
    )


def costliest_fold(where: str) -> str:
    """The costliest fold: player, game_id, hand, seq, cost, regret."""
    return (
        "SELECT f.player, f.game_id, f.hand, f.seq, f.cost, x.regret "
        "FROM folds AS f JOIN games AS g USING (game_id) "
        "LEFT JOIN fold_facts AS x USING (game_id, hand, seq) "
        f"WHERE {where} ORDER BY f.cost DESC, f.game_id, f.hand, f.seq LIMIT 1"
    )


def regrettable_folds(where: str, limit: int = 10) -> str:
    """Folds that playing on would have won, costliest first: player, game_id, hand, seq,
    cost."""
    return (
        "SELECT f.player, f.game_id, f.hand, f.seq, f.cost "
        "FROM folds AS f JOIN games AS g USING (game_id) "
        "JOIN fold_facts AS x USING (game_id, hand, seq) "
        f"WHERE x.regret AND {where} ORDER BY f.cost DESC, f.game_id, f.hand, f.seq "
        f"LIMIT {int(limit)}"
    )


def blunder(where: str) -> str:
    """The decision graded a blunder that lost the most of its stake in expectation, an
    answer to a knock, a knock made, a laundry swap or an armoede: player, game_id, hand,
    seq, answer (stay, fold, knock, laundry or armoede), stake, cost_chosen, cost_other,
    ev_lost, partners_play_on (an answer's: a fold left partners playing on),
    other_choice (a knock's: play_on, stay or fold), genuine (a swap's: the claim was
    true)."""
    return (
        "WITH judged AS ("
        "SELECT seat, game_id, hand, seq, answer, stake, "
        "CASE WHEN answer = 'stay' THEN cost_stay ELSE cost_fold END AS cost_chosen, "
        "CASE WHEN answer = 'stay' THEN cost_fold ELSE cost_stay END AS cost_other, "
        "ev_lost, coalesce(partners_play_on, false) AS partners_play_on, "
        "NULL::VARCHAR AS other_choice, NULL::BOOLEAN AS genuine "
        "FROM answer_facts WHERE grade = 'blunder' "
        "UNION ALL "
        "SELECT seat, game_id, hand, seq, 'knock', stake, cost_knock, cost_other, ev_lost, "
        "false, other_choice, NULL FROM knock_facts WHERE grade = 'blunder' "
        "UNION ALL "
        "SELECT seat, game_id, hand, seq, kind, stake, cost_swap, cost_keep, ev_lost, "
        "false, NULL, genuine FROM swap_facts WHERE grade = 'blunder') "
        "SELECT g.players[a.seat + 1] AS player, a.* EXCLUDE (seat) "
        "FROM judged AS a JOIN games AS g USING (game_id) "
        f"WHERE {where} "
        "ORDER BY a.ev_lost / a.stake DESC, a.ev_lost DESC, a.game_id, a.hand, a.seq LIMIT 1"
    )
