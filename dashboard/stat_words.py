"""The statistics' words on the dashboard: each one's short heading and its definition
in the visitor's language, for every page that shows a statistic (Players, the Replay's
"before this hand"). analytics.stats' registry holds the English; the bulletin's
headings are reused where it has them."""

from __future__ import annotations

from kroeg.analytics.stats import Stat
from kroeg.analytics.words import ENGLISH, Words

__all__ = ["stat_definition", "stat_label"]


def stat_label(w: Words, stat: Stat) -> str:
    """A statistic's short heading (a chart's title, a table's column), in `w`'s
    language: the bulletin's where its tables show it, else the dashboard's own; one
    place for every page (analytics.stats' registry holds the English)."""
    if stat.name in ENGLISH:
        return w(stat.name)
    labels = {
        "knock_success": w.say("stat_label_knock_success", "knock success"),
        "cost_per_fold": w.say("stat_label_cost_per_fold", "fold cost"),
        "bluff_success": w.say("stat_label_bluff_success", "bluff success"),
        "profit_per_bluff": w.say("stat_label_profit_per_bluff", "bluff profit"),
        "cost_per_regret": w.say("stat_label_cost_per_regret", "regret cost"),
        "answer_accuracy": w.say("stat_label_answer_accuracy", "accuracy"),
        "ev_lost_per_answer": w.say("stat_label_ev_lost_per_answer", "EV lost"),
        "mistake_rate": w.say("stat_label_mistake_rate", "mistakes"),
        "blunder_rate": w.say("stat_label_blunder_rate", "blunders"),
        "knock_accuracy": w.say("stat_label_knock_accuracy", "knock accuracy"),
        "ev_lost_per_knock": w.say("stat_label_ev_lost_per_knock", "EV lost/knock"),
        "knock_mistake_rate": w.say("stat_label_knock_mistake_rate", "knock mistakes"),
        "knock_blunder_rate": w.say("stat_label_knock_blunder_rate", "knock blunders"),
        "swap_accuracy": w.say("stat_label_swap_accuracy", "swap accuracy"),
        "ev_lost_per_swap": w.say("stat_label_ev_lost_per_swap", "EV lost/swap"),
        "luck_per_hand": w.say("stat_label_luck_per_hand", "luck"),
        "luck_adjusted_cost": w.say("stat_label_luck_adjusted_cost", "lost/hand, luck apart"),
        "swap_rate": w.say("stat_label_swap_rate", "swaps"),
        "swaps_caught_rate": w.say("stat_label_swaps_caught_rate", "swaps caught"),
        "check_success": w.say("stat_label_check_success", "checks won"),
        "call_rate": w.say("stat_label_call_rate", "calls"),
        "baunie_rate": w.say("stat_label_baunie_rate", "baunie tried"),
        "tricks_against_per_hand": w.say("stat_label_tricks_against", "tricks against"),
        "call_accuracy": w.say("stat_label_call_accuracy", "call accuracy"),
        "ev_lost_per_call": w.say("stat_label_ev_lost_per_call", "EV lost/call"),
        "call_mistake_rate": w.say("stat_label_call_mistake_rate", "call mistakes"),
        "call_blunder_rate": w.say("stat_label_call_blunder_rate", "call blunders"),
        "announce_accuracy": w.say("stat_label_announce_accuracy", "kap/baunie accuracy"),
        "ev_lost_per_announcement": w.say(
            "stat_label_ev_lost_per_announcement", "EV lost/kap choice"
        ),
        "announce_mistake_rate": w.say("stat_label_announce_mistake_rate", "kap choice mistakes"),
        "announce_blunder_rate": w.say("stat_label_announce_blunder_rate", "kap choice blunders"),
    }
    return labels.get(stat.name, stat.label)


def stat_definition(w: Words, stat: Stat, unit: str | None = None, total: bool = False) -> str:
    """What a statistic counts, in one line, in `w`'s language (the registry's definition,
    for the statistics the pages show): `unit` what an amount is counted in, `total` a
    chart's bars add it up."""
    if unit is None:
        unit = w.say("players_lives_or_points", "lives or points")
    if total and stat.name == "cost_per_fold":
        return w.say("stat_def_fold_cost_total", "what fold cost came to in all, over the folds")
    definitions = {
        "bluff_rate": w.say(
            "stat_def_bluff_rate",
            "knocks with less than a fair share of winning, of knocks whose cards are known",
        ),
        "bluff_success": w.say("stat_def_bluff_success", "bluffs every other player folded to"),
        "cost_per_fold": w.say("stat_def_cost_per_fold", "{unit} paid per fold", unit=unit),
        "regret_rate": w.say(
            "stat_def_regret_rate",
            "in hindsight, with every card as it lay: folds where the folder could have made "
            "sure of winning, of folds with known cards",
        ),
        "answer_accuracy": w.say(
            "stat_def_answer_accuracy",
            "how well knocks were answered (stay or fold), from what the player could see: "
            "100% is the best answer every time",
        ),
        "blunder_rate": w.say("stat_def_blunder_rate", "answers to a knock graded a blunder"),
        "knock_accuracy": w.say(
            "stat_def_knock_accuracy",
            "how well knocks were chosen (knocking, against playing on or, for a "
            "counter-knock, the better answer), from what the knocker could see",
        ),
        "swap_accuracy": w.say(
            "stat_def_swap_accuracy",
            "how well swaps (laundry, armoede) were chosen, against keeping the hand, from "
            "what the swapper could see",
        ),
        "calls_made_rate": w.say(
            "stat_def_calls_made_rate", "calls whose side took the majority of the tricks"
        ),
        "kap_rate": w.say(
            "stat_def_kap_rate",
            "hands the side took the first tricks in a row and announced kap (or scored it)",
        ),
        "announce_accuracy": w.say(
            "stat_def_announce_accuracy",
            "how well the choice at seven tricks in a row was made (kap, baunie, play on), "
            "from the chooser's cards: 100% is the best choice every time",
        ),
    }
    return definitions.get(stat.name, stat.definition)
