"""The verdicts on a hand's decisions in words, in the reader's language: a mark for a
move list and a sentence a player reads, from the analysis' stored facts (knock
strength and its fair share, fold regret, the answers' expected costs). The Replay page
says them; each is a message of the catalogues (docs/LANGUAGES.md)."""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal

from kroeg.analytics.formats import integer, rounded
from kroeg.analytics.report import GRADE_SIGNS
from kroeg.analytics.words import Words
from kroeg.recorder.cards import Suit

__all__ = [
    "announce_verdict", "answer_verdict", "call_verdict", "fold_verdict", "knock_choice_verdict",
    "knock_verdict", "shown_figures", "stay_verdict", "swap_verdict", "verdict_summary",
]  # fmt: skip


def knock_verdict(
    w: Words,
    strength: float | None,
    fair_share: float,
    bluff: bool | None,
    all_folded: bool,
    knocker_won: bool,
    tell_outcome: bool,
    after_choice: bool = False,
) -> tuple[str, str]:
    """A knock's mark and sentence ; without
    `tell_outcome`, the sentence stops at the knock. `after_choice`: said after the knock's
    verdict as a choice (`knock_choice_verdict`), as what else it was."""
    if strength is None or bluff is None:
        return "?", w.say(
            "replay_knock_unknown", "Verdict unknown: the knocker's cards were not all seen."
        )
    shown, fair = w.number(strength, 2), w.number(fair_share, 2)
    if bluff:
        mark = "bluff"
        what = w.say(
            "replay_knock_bluff",
            "a bluff: strength {strength}, below the fair share {fair}",
            strength=shown, fair=fair,
        )  # fmt: skip
    else:
        mark = "value"
        what = w.say(
            "replay_knock_value",
            "a value knock: strength {strength}, at least the fair share {fair}",
            strength=shown, fair=fair,
        )  # fmt: skip
    if not tell_outcome and after_choice:
        return mark, w.say("replay_knock_also", "Also {what}.", what=what)
    if not tell_outcome:
        return mark, w.say("replay_knock_verdict", "Verdict: {what}.", what=what)
    if all_folded:
        outcome = w.say("replay_knock_all_folded", "everyone folded to it")
    elif knocker_won:
        outcome = w.say("replay_knock_won", "the knocker won the hand")
    else:
        outcome = w.say("replay_knock_lost", "the knocker lost the hand")
    if after_choice:
        return mark, w.say(
            "replay_knock_also_outcome", "Also {what}; {outcome}.", what=what, outcome=outcome
        )
    return mark, w.say(
        "replay_knock_verdict_outcome", "Verdict: {what}; {outcome}.", what=what, outcome=outcome
    )


def fold_verdict(w: Words, regret: bool | None, cost: int, hindsight: bool) -> tuple[str, str]:
    """A fold's mark and sentence ; `hindsight`: said after
    the verdict on the answer (what the folder could see), as what every card shows."""
    shown = integer(cost, w.lang)
    if regret is None:
        return "?", w.say(
            "replay_fold_unknown",
            "Verdict unknown: not every card was seen (the fold cost {cost}).",
            cost=shown,
        )
    if regret and hindsight:
        said = w.say(
            "replay_fold_regret_hindsight",
            "In hindsight: regrettable. The fold cost {cost}; playing on, the folder could "
            "have made sure of winning the hand.",
            cost=shown,
        )
    elif regret:
        said = w.say(
            "replay_fold_regret",
            "Verdict: regrettable. The fold cost {cost}; playing on, the folder could have "
            "made sure of winning the hand.",
            cost=shown,
        )
    elif hindsight:
        said = w.say(
            "replay_fold_fine_hindsight",
            "In hindsight: no regret. The fold cost {cost}; playing on could not have made "
            "sure of winning.",
            cost=shown,
        )
    else:
        said = w.say(
            "replay_fold_fine",
            "Verdict: no regret. The fold cost {cost}; playing on could not have made sure "
            "of winning.",
            cost=shown,
        )
    return ("regret" if regret else "fine"), said


def shown_figures(
    w: Words, chosen: float, other: float, lost: float, higher_better: bool = False
) -> tuple[str, str]:
    """The chosen option's figure and the other's, as a sentence shows them beside what
    the choice lost (`lost`, of the chosen against the other), so that the three add up
    as they are read: the loss rounded (as the sentence's "Lost …" shows it), the figure nearer its
    rounding as rounded (an exact one, a fold's certain price, as it is), and the other
    that figure and the loss apart. 1.375, 0.9375 and a loss of 0.4375 read 1.4, 1.0 and
    0.4, not 1.4, 0.9 and 0.4. A choice that lost nothing shows both as they are. The
    replay and the newsletter show a decision's figures through this alone."""
    if lost <= 0:
        return w.number(chosen, 1), w.number(other, 1)
    step = rounded(lost, 1) * (-1 if higher_better else 1)  # chosen = other + step
    near_chosen, near_other = rounded(chosen, 1), rounded(other, 1)
    if abs(near_chosen - Decimal(chosen)) < abs(near_other - Decimal(other)):
        near_other = near_chosen - step
    else:
        near_chosen = near_other + step
    return w.number(float(near_chosen), 1), w.number(float(near_other), 1)


def answer_verdict(
    w: Words,
    player: str,
    answer: str,
    stake: int,
    win_chance: float,
    cost_stay: float,
    cost_fold: float,
    ev_lost: float,
    grade: str | None,
    partners: bool = False,
) -> tuple[str, str]:
    """An answer to a knock judged from what the player could see: the grade (or
    "sound") and a sentence."""
    if answer == "stay":
        stay, fold = shown_figures(w, cost_stay, cost_fold, ev_lost)
    else:
        fold, stay = shown_figures(w, cost_fold, cost_stay, ev_lost)
    chance = w.say(
        "replay_answer_chance",
        "{player}'s chance of winning the hand by staying in was {chance}",
        player=player, chance=w.percent(win_chance, 0),
    )  # fmt: skip
    if answer == "stay" and partners:
        what = w.say(
            "replay_answer_stayed_partners",
            "Stayed in: expected to cost {stay}; folding would have expected to cost {fold}",
            stay=stay, fold=fold,
        )  # fmt: skip
    elif answer == "stay":
        what = w.say(
            "replay_answer_stayed",
            "Stayed in: expected to cost {stay}; folding would have cost {fold}",
            stay=stay, fold=fold,
        )  # fmt: skip
    elif partners:
        what = w.say(
            "replay_answer_folded_partners",
            "Folded: expected to cost {fold}; staying in was expected to cost {stay}",
            stay=stay, fold=fold,
        )  # fmt: skip
    else:
        what = w.say(
            "replay_answer_folded",
            "Folded: cost {fold}; staying in was expected to cost {stay}",
            stay=stay, fold=fold,
        )  # fmt: skip
    if partners:
        what += w.say(
            "replay_answer_partners",
            " (a fold pays, and the side pays the stake again if the partners lose)",
        )
    judged = _lost_of_the_stake(w, ev_lost, stake, grade)
    if judged is None and ev_lost > 0:
        judged = w.say("replay_answer_as_good", "As good as the other answer")
    elif judged is None:
        judged = w.say("replay_answer_better", "The better answer")
    return grade or "sound", w.say(
        "replay_answer_verdict",
        "{what} ({chance}, from what they could see). {judged}.",
        what=what, chance=chance, judged=judged,
    )  # fmt: skip


def _lost_of_the_stake(w: Words, ev_lost: float, stake: int, grade: str | None) -> str | None:
    """What a decision lost in expectation, against its stake, and its grade: None where
    it lost next to nothing (under 0.05), for the caller to say it was the better one."""
    lost, of = w.number(ev_lost, 1), integer(stake, w.lang)
    if grade == "inaccuracy":
        return w.say(
            "replay_answer_inaccuracy",
            "Lost {lost} of a stake of {stake} in expectation: an inaccuracy ({sign})",
            lost=lost, stake=of, sign=GRADE_SIGNS[grade],
        )  # fmt: skip
    if grade == "mistake":
        return w.say(
            "replay_answer_mistake",
            "Lost {lost} of a stake of {stake} in expectation: a mistake ({sign})",
            lost=lost, stake=of, sign=GRADE_SIGNS[grade],
        )  # fmt: skip
    if grade == "blunder":
        return w.say(
            "replay_answer_blunder",
            "Lost {lost} of a stake of {stake} in expectation: a blunder ({sign})",
            lost=lost, stake=of, sign=GRADE_SIGNS[grade],
        )  # fmt: skip
    if grade is not None:
        raise ValueError(f"a decision graded {grade!r}: not one of {sorted(GRADE_SIGNS)}")
    if ev_lost >= 0.05:
        return w.say(
            "replay_answer_ungraded",
            "Lost {lost} of a stake of {stake} in expectation: under a quarter of it, not graded",
            lost=lost, stake=of,
        )  # fmt: skip
    return None


def knock_choice_verdict(
    w: Words,
    player: str,
    other_choice: str,
    stake: int,
    cost_knock: float,
    cost_other: float,
    ev_lost: float,
    grade: str | None,
) -> tuple[str | None, str]:
    """A knock made, judged as a choice from what the knocker could see: the grade (None:
    not graded) and a sentence, against playing on without a knock or, for a
    counter-knock, the better answer (`other_choice`: play_on, stay or fold)."""
    knock, other = shown_figures(w, cost_knock, cost_other, ev_lost)
    if other_choice == "play_on":
        what = w.say(
            "replay_knock_choice_play_on",
            "{player} knocked: expected to cost {knock}; playing on without a knock, {other}",
            player=player, knock=knock, other=other,
        )  # fmt: skip
    elif other_choice == "stay":
        what = w.say(
            "replay_knock_choice_stay",
            "{player} knocked back: expected to cost {knock}; staying in, {other}",
            player=player, knock=knock, other=other,
        )  # fmt: skip
    else:
        what = w.say(
            "replay_knock_choice_fold",
            "{player} knocked back: expected to cost {knock}; folding, {other}",
            player=player, knock=knock, other=other,
        )  # fmt: skip
    as_good = w.say("replay_knock_choice_as_good", "As good as not knocking")
    return grade, _choice_sentence(w, what, player, ev_lost, stake, grade, as_good)


def _choice_sentence(
    w: Words, what: str, player: str, ev_lost: float, stake: int, grade: str | None, as_good: str
) -> str:
    """A choice's sentence (a knock made, a swap): `what` was chosen and what each option
    was expected to cost, from whose view, then what it lost of the stake and its grade,
    or that it was `as_good` as the other (lost next to nothing) or the better choice."""
    judged = _lost_of_the_stake(w, ev_lost, stake, grade)
    if judged is None and ev_lost > 0:
        judged = as_good
    elif judged is None:
        judged = w.say("replay_choice_better", "The better choice")
    return w.say(
        "replay_choice_verdict",
        "{what} (from what {player} could see). {judged}.",
        what=what, player=player, judged=judged,
    )  # fmt: skip


def swap_verdict(
    w: Words,
    player: str,
    kind: str,
    genuine: bool,
    stake: int,
    cost_swap: float,
    cost_keep: float,
    ev_lost: float,
    grade: str | None,
) -> tuple[str, str]:
    """A laundry swap or an armoede (`kind`) judged against keeping the hand, from what
    the swapper could see: the grade (or "sound") and a sentence; a claim the cards do not
    bear out (`genuine` false) is called false, as the swapper knew it was."""
    swap, keep = shown_figures(w, cost_swap, cost_keep, ev_lost)
    if kind == "laundry" and genuine:
        what = w.say(
            "replay_swap_laundry",
            "{player} swapped the laundry: expected to cost {swap}; keeping the hand, {keep}",
            player=player, swap=swap, keep=keep,
        )  # fmt: skip
    elif kind == "laundry":
        what = w.say(
            "replay_swap_laundry_false",
            "{player} swapped the laundry on a false claim: expected to cost {swap}; keeping "
            "the hand, {keep}",
            player=player, swap=swap, keep=keep,
        )  # fmt: skip
    elif genuine:
        what = w.say(
            "replay_swap_armoede",
            "{player} declared armoede: expected to cost {swap}; keeping the hand, {keep}",
            player=player, swap=swap, keep=keep,
        )  # fmt: skip
    else:
        what = w.say(
            "replay_swap_armoede_false",
            "{player} declared armoede on a false claim: expected to cost {swap}; keeping "
            "the hand, {keep}",
            player=player, swap=swap, keep=keep,
        )  # fmt: skip
    as_good = w.say("replay_swap_as_good", "As good as keeping the hand")
    return grade or "sound", _choice_sentence(w, what, player, ev_lost, stake, grade, as_good)


def call_verdict(
    w: Words,
    caller: str,
    trump: str,
    best: str,
    values: dict[str, float],
    ev_lost: float,
    grade: str | None,
    sides: tuple[str, str],
) -> tuple[str | None, str]:
    """A Troefcall trump call judged from the caller's cards: the grade (None: not
    graded) and a sentence. `values`: each suit's expected points for the caller's side
    less the other side's, by suit letter; `sides`: the caller's side and the other, by
    their players (`Anna & Carla`)."""
    called, better = Suit(trump).symbol, Suit(best).symbol
    value, best_value = shown_figures(w, values[trump], values[best], ev_lost, higher_better=True)
    side, others = sides
    if trump == best:
        what = w.say(
            "replay_call_best",
            "{caller} called {suit}, the best call from {caller}'s cards: expected {value} "
            "points for {side}, less {others}'s",
            caller=caller, suit=called, value=value, side=side, others=others,
        )  # fmt: skip
    else:
        what = w.say(
            "replay_call_other",
            "{caller} called {suit}: expected {value} points for {side}, less {others}'s, "
            "from {caller}'s cards; {best} was the best call, expected {best_value}",
            caller=caller, suit=called, value=value, best=better, side=side, others=others,
            best_value=best_value,
        )  # fmt: skip
    return _points_lost(w, what, ev_lost, grade, "call")


def _points_lost(
    w: Words, what: str, ev_lost: float, grade: str | None, decision: str
) -> tuple[str | None, str]:
    """The grade and sentence of a Troefcall decision (a `decision`: "call" or
    "announcement") that lost `ev_lost` points in expectation: `what` it was, then how
    much it lost and its grade."""
    lost = w.number(ev_lost, 1)
    if grade == "inaccuracy":
        judged = w.say(
            "replay_call_inaccuracy", "Lost {lost} points in expectation: an inaccuracy ({sign})",
            lost=lost, sign=GRADE_SIGNS[grade],
        )  # fmt: skip
    elif grade == "mistake":
        judged = w.say(
            "replay_call_mistake", "Lost {lost} points in expectation: a mistake ({sign})",
            lost=lost, sign=GRADE_SIGNS[grade],
        )  # fmt: skip
    elif grade == "blunder":
        judged = w.say(
            "replay_call_blunder", "Lost {lost} points in expectation: a blunder ({sign})",
            lost=lost, sign=GRADE_SIGNS[grade],
        )  # fmt: skip
    elif grade is not None:
        raise ValueError(f"{decision} graded {grade!r}: not one of {sorted(GRADE_SIGNS)}")
    elif ev_lost > 0:
        judged = w.say(
            "replay_call_ungraded", "Lost {lost} points in expectation: too little to grade",
            lost=lost,
        )  # fmt: skip
    else:
        return None, what + "."
    return grade, f"{what}. {judged}."


def _choice(w: Words, option: str) -> tuple[str, str]:
    """A choice at seven in a row in words: what the chooser did (a verb phrase), and the
    choice as a noun."""
    if option == "kap":
        return w.say("replay_did_kap", "announced kap"), w.say("replay_option_kap", "kap")
    if option == "baunie":
        return (
            w.say("replay_did_baunie", "announced baunie"),
            w.say("replay_option_baunie", "baunie"),
        )
    if option == "stop":
        return w.say("replay_did_stop", "stopped the hand"), w.say("replay_option_stop", "stopping")
    if option == "play":
        return (
            w.say("replay_did_play", "played on without a word"),
            w.say("replay_option_play", "playing on"),
        )
    raise ValueError(f"a choice {option!r}: not one of kap, baunie, stop, play")


def announce_verdict(
    w: Words,
    player: str,
    chosen: str,
    best: str,
    values: dict[str, float],
    baunie_chance: float | None,
    ev_lost: float,
    grade: str | None,
    sides: tuple[str, str],
) -> tuple[str | None, str]:
    """A choice at seven tricks in a row judged from the chooser's cards: the grade (None:
    not graded) and a sentence. `values`: each option's expected points for the side less
    the other side's, by option name (analytics.verdicts.ANNOUNCE_OPTIONS); `sides`: the
    chooser's side and the other, by their players."""
    value, best_value = shown_figures(w, values[chosen], values[best], ev_lost, higher_better=True)
    side, others = sides
    if chosen == best:
        what = w.say(
            "replay_announce_best",
            "{player} {did}, the best choice from {player}'s cards: expected {value} points "
            "for {side}, less {others}'s",
            player=player, did=_choice(w, chosen)[0], value=value, side=side, others=others,
        )  # fmt: skip
    else:
        what = w.say(
            "replay_announce_other",
            "{player} {did}: expected {value} points for {side}, less {others}'s, from "
            "{player}'s cards; {best} was the best choice, expected {best_value}",
            player=player, did=_choice(w, chosen)[0], value=value, best=_choice(w, best)[1],
            best_value=best_value, side=side, others=others,
        )  # fmt: skip
    if baunie_chance is not None:
        what += w.say(
            "replay_announce_chance",
            " (a baunie takes every trick left on {chance} of the deals {player} could not "
            "rule out)",
            chance=w.percent(baunie_chance, 0), player=player,
        )  # fmt: skip
    return _points_lost(w, what, ev_lost, grade, "announcement")


def stay_verdict(w: Words, player: str, paid: int) -> tuple[str, str]:
    """What staying in after a knock came to, from the log."""
    if paid:
        return "paid", w.say(
            "replay_stay_paid",
            "Staying in cost {player} {paid} by the end of the hand.",
            player=player, paid=integer(paid, w.lang),
        )  # fmt: skip
    return "held", w.say(
        "replay_stay_held",
        "Staying in cost {player} nothing: nothing paid after it.",
        player=player,
    )


def verdict_summary(
    w: Words,
    knocks: list[tuple[str, bool | None, bool]],
    folds: list[tuple[str, bool | None, int]],
    grades: Sequence[tuple[str, str | None]] = (),
) -> str:
    """One line of a hand's verdicts by player:
    `Ben: 1 knock, 1 bluff (1 that worked), 1 mistake`. `grades`: (player, grade) of
    every decision judged from what the player could see (knocks, answers, swaps): its
    inaccuracies, mistakes and blunders are counted, as lichess sums up a game."""
    players: dict[str, list[str]] = {}
    for player in [k[0] for k in knocks] + [f[0] for f in folds] + [g[0] for g in grades]:
        players.setdefault(player, [])
    for player, parts in players.items():
        mine = [k for k in knocks if k[0] == player]
        if mine:
            bluffs = sum(1 for k in mine if k[1])
            worked = sum(1 for k in mine if k[2])
            text = w.say_n("replay_summary_knocks", "{n} knock", "{n} knocks", len(mine))
            if bluffs:
                text += ", " + w.say_n("replay_summary_bluffs", "{n} bluff", "{n} bluffs", bluffs)
                if worked:
                    text += w.say_n(
                        "replay_summary_worked", " ({n} that worked)", " ({n} that worked)", worked
                    )
            unknown = sum(1 for k in mine if k[1] is None)
            if unknown:
                text += w.say_n(
                    "replay_summary_unknown", " ({n} unknown)", " ({n} unknown)", unknown
                )
            parts.append(text)
        theirs = [f for f in folds if f[0] == player]
        if theirs:
            regrets = [f for f in theirs if f[1]]
            text = w.say_n("replay_summary_folds", "{n} fold", "{n} folds", len(theirs))
            if regrets:
                text += ", " + w.say_n(
                    "replay_summary_regrets", "{n} regrettable (cost {cost})",
                    "{n} regrettable (cost {cost})", len(regrets),
                    cost=integer(sum(f[2] for f in regrets), w.lang),
                )  # fmt: skip
            unknown = sum(1 for f in theirs if f[1] is None)
            if unknown:
                text += w.say_n(
                    "replay_summary_unknown", " ({n} unknown)", " ({n} unknown)", unknown
                )
            parts.append(text)
        mine_graded = [g for who, g in grades if who == player]
        if n := mine_graded.count("inaccuracy"):
            parts.append(
                w.say_n("replay_summary_inaccuracies", "{n} inaccuracy", "{n} inaccuracies", n)
            )
        if n := mine_graded.count("mistake"):
            parts.append(w.say_n("replay_summary_mistakes", "{n} mistake", "{n} mistakes", n))
        if n := mine_graded.count("blunder"):
            parts.append(w.say_n("replay_summary_blunders", "{n} blunder", "{n} blunders", n))
    return "; ".join(f"{p}: {', '.join(parts)}" for p, parts in players.items() if parts)
