"""Statistics as text: a table for the terminal, CSV (safe for spreadsheets), JSON."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Sequence
from typing import Any

import polars as pl

from kroeg.analytics.stats import SMALL_SAMPLE, STATS, TROEFCALL_GROUPINGS, Stat, ruleset_totals
from kroeg.recorder.store import Dataset
from kroeg.recorder.summary import summarize
from kroeg.recorder.text import plural

__all__ = [
    "GRADE_SIGNS",
    "answer_verdict",
    "baunie_verdict",
    "call_verdict",
    "dataset_report",
    "fold_verdict",
    "kap_verdict",
    "knock_verdict",
    "neutralise",
    "plural",
    "ratings_table",
    "stats_csv",
    "stats_json",
    "stats_table",
    "stay_verdict",
]


#: What a spreadsheet may take as the start of a formula (full-width forms too).
_FORMULA_STARTS = frozenset("=+-@＝＋－＠")


def neutralise(value: Any) -> Any:
    """A text cell that a spreadsheet would run as a formula gets a leading apostrophe:
    one starting with = + - @ (or their full-width forms), after any spaces, or with a
    tab or a carriage return."""
    if not isinstance(value, str) or not value:
        return value
    if value[0] in "\t\r" or value.lstrip()[:1] in _FORMULA_STARTS:
        return "'" + value
    return value


def stats_table(frame: pl.DataFrame, by: str = "player", stats: Sequence[Stat] = STATS) -> str:
    """Figures as rows and players as columns (a block per session, month or venue).

    Each cell is the rate (or the amount per unit) and done/opportunities; * marks a
    small sample.
    """
    keys = TROEFCALL_GROUPINGS[by]
    out: list[str] = []
    groups: dict[tuple[Any, ...], list[dict[str, Any]]] = {}
    for row in frame.iter_rows(named=True):
        groups.setdefault(tuple(row[k] for k in keys), []).append(row)
    for group, rows in groups.items():
        if keys:
            out.append(f"{by} {' '.join('-' if g is None else str(g) for g in group)}")
        labels = ["hands", *(s.label for s in stats)]
        table = [
            ["", *(str(r["side" if "side" in r else "player"]) for r in rows)],
            ["hands", *(str(r["hands"]) for r in rows)],
        ]
        table += [[s.label, *(s.cell(r[s.done], r[s.opportunities]) for r in rows)] for s in stats]
        width = max(len(x) for x in labels)
        columns = [max(len(line[i]) for line in table) for i in range(1, len(table[0]))]
        for line in table:
            cells = [line[0].ljust(width)] + [
                c.rjust(w) for c, w in zip(line[1:], columns, strict=True)
            ]
            out.append("  ".join(cells).rstrip())
        out.append("")
    out.append(
        f"rate done/opportunities; * fewer than {SMALL_SAMPLE} opportunities (docs/STATS.md)."
    )
    return "\n".join(out)


def ratings_table(frame: pl.DataFrame, provisional_games: int, interval: float) -> str:
    """Ratings best first, a block per game type (analytics.ratings.ratings_frame): place,
    player, rating μ, ± the interval, games, hands; `?` marks a provisional rating."""
    out: list[str] = []
    types = list(dict.fromkeys(frame["game_type"].to_list()))
    for game_type in types:
        rows = frame.filter(pl.col("game_type") == game_type).iter_rows(named=True)
        table = [["", "player", "rating", f"±{interval:g}σ", "games", "hands"]]
        for place, r in enumerate(rows, 1):
            table.append([
                f"{place}.", str(r["player"]), f"{r['mu']:.1f}{'?' if r['provisional'] else ''}",
                f"±{interval * r['sigma']:.1f}", f"{r['games']:,}", f"{r['hands']:,}",
            ])  # fmt: skip
        if len(types) > 1:
            out.append(f"== {game_type.capitalize()} ==")
        widths = [max(len(line[i]) for line in table) for i in range(len(table[0]))]
        for line in table:
            cells = [line[0].rjust(widths[0]), line[1].ljust(widths[1])]
            cells += [c.rjust(w) for c, w in zip(line[2:], widths[2:], strict=True)]
            out.append("  ".join(cells).rstrip())
        out.append("")
    out.append(
        f"rating: μ of openskill's Plackett–Luce, ±{interval:g}σ about 95 %; ? provisional: "
        f'fewer than {provisional_games} games\n(docs/STATS.md, "Ratings").'
    )
    return "\n".join(out) + "\n"


def _plain(frame: pl.DataFrame) -> list[dict[str, Any]]:
    rows = []
    for row in frame.iter_rows(named=True):
        rows.append({k: (round(v, 4) if isinstance(v, float) else v) for k, v in row.items()})
    return rows


def stats_csv(frame: pl.DataFrame) -> str:
    """CSV with a header; text cells that start like a formula are neutralised."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(frame.columns)
    for row in _plain(frame):
        writer.writerow([neutralise("" if v is None else v) for v in row.values()])
    return buffer.getvalue()


def stats_json(frame: pl.DataFrame) -> str:
    """A JSON list of rows."""
    return json.dumps(_plain(frame), indent=2, default=str) + "\n"


#: What `kroeg info` says of a game whose stored rules the engine refuses today.
UNREADABLE = "its rules cannot be read; it is listed and counted, never analysed"


def dataset_report(dataset: Dataset) -> str:
    """The text of `kroeg info`: the dataset in numbers, then each player's totals."""
    from kroeg.analytics.games import unreadable_rules
    from kroeg.analytics.views import connect

    s = summarize(dataset)
    lines = [
        f"{dataset.path}: {plural(s.games, 'game')}, {plural(s.hands, 'hand')}, "
        f"{plural(s.events, 'event')}",
        f"on disk: {s.bytes_on_disk:,} bytes in {s.files} files"
        + (f" ({s.bytes_per_hand:.1f} bytes per hand)" if s.hands else ""),
    ]
    if s.rulesets:
        rules = ", ".join(f"{name} {count}" for name, count in sorted(s.rulesets.items()))
        lines.append(f"rule sets: {rules}")
    else:
        lines.append("No games yet: add some with `kroeg simulate --out DATASET`.")
        return "\n".join(lines)
    con = connect(dataset)
    lines += [f"game {game}: {UNREADABLE} ({problem})" for game, problem in unreadable_rules(con)]
    toepen, troefcall = ruleset_totals(con)
    for ruleset in sorted({row[0] for row in toepen}):
        header = (
            f"{ruleset:<16} {'games':>6} {'hands':>7} {'knocks':>7} {'folds':>6} "
            f"{'cost':>7} {'cost/hand':>9}"
        )
        lines += ["", header, "-" * len(header)]
        for _, name, games, hands, knocks, folds, cost in (r for r in toepen if r[0] == ruleset):
            lines.append(
                f"{name:<16} {games:>6,} {hands:>7,} {knocks:>7,} {folds:>6,} "
                f"{cost:>7,} {cost / hands:>9.3f}"
            )
    for ruleset in sorted({row[0] for row in troefcall}):
        header = f"{ruleset:<16} {'games':>6} {'hands':>7} {'calls':>6} {'side points':>11}"
        lines += ["", header, "-" * len(header)]
        for _, name, games, hands, calls, points in (r for r in troefcall if r[0] == ruleset):
            lines.append(f"{name:<16} {games:>6,} {hands:>7,} {calls:>6,} {points:>11,}")
    if toepen:
        lines += ["", "cost: penalty points taken or lives lost (every pay event)."]
    if troefcall:
        lines += ["", "side points: what the player's side scored (Troefcall); calls: hands as",
                  "trump caller. `kroeg stats` has calls made good, kap and baunie."]  # fmt: skip
    if toepen or troefcall:
        lines += ["Finished hands only (docs/STATS.md)."]
    return "\n".join(lines)


def knock_verdict(
    strength: float | None,
    fair_share: float,
    bluff: bool | None,
    all_folded: bool,
    knocker_won: bool,
    tell_outcome: bool = True,
) -> tuple[str, str]:
    """The verdict on one knock, as a mark for a move list and a sentence, from the
    analysis' stored facts (`bluff` is `analytics.derived`'s: strength below the fair share).
    Without `tell_outcome`, the sentence stops at the knock (a replay that does not tell
    what is still to come)."""
    if strength is None or bluff is None:
        return "?", "Verdict unknown: the knocker's cards were not all seen."
    if bluff:
        mark, what = "bluff", f"a bluff: strength {strength:.2f}, below the fair share"
    else:
        mark, what = "value", f"a value knock: strength {strength:.2f}, at least the fair share"
    if not tell_outcome:
        return mark, f"Verdict: {what} {fair_share:.2f}."
    if all_folded:
        outcome = "everyone folded to it"
    else:
        outcome = "the knocker won the hand" if knocker_won else "the knocker lost the hand"
    return mark, f"Verdict: {what} {fair_share:.2f}; {outcome}."


def fold_verdict(regret: bool | None, cost: int) -> tuple[str, str]:
    """The verdict on one fold: a mark for a move list and a sentence (docs/STATS.md:
    regrettable when playing on, the folder could have made sure of winning)."""
    if regret is None:
        return "?", f"Verdict unknown: not every card was seen (the fold cost {cost})."
    if regret:
        return "regret", (
            f"Verdict: regrettable. The fold cost {cost}; playing on, the folder could have "
            "made sure of winning the hand."
        )
    return "fine", (
        f"Verdict: no regret. The fold cost {cost}; playing on could not have made sure of winning."
    )


#: The mark on an answer to a knock by its grade (analytics.verdicts.grade), as chess
#: annotates moves: "?!" an inaccuracy, "?" a mistake, "??" a blunder.
GRADE_SIGNS = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}


def answer_verdict(
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
    """The verdict on one answer to a knock from what the player could see (the stored
    `answer_facts`): a mark (the grade, or "sound") and a sentence a player reads, such as
    `Stayed in: expected to cost 2.0; folding would have cost 1.0 (Anna's chance of winning
    the hand by staying in was 2%, from what they could see). Lost 1.0 of a stake of 2 in
    expectation: a blunder ??.` `partners`: team toepen, where a fold leaves the partners
    to play on for the side (its cost is then expected too)."""
    chance = f"{player}'s chance of winning the hand by staying in was {win_chance:.0%}"
    fold = f"{'expected to cost' if partners else 'cost'} {cost_fold:.1f}"
    if answer == "stay":
        what = f"Stayed in: expected to cost {cost_stay:.1f}; folding would have {fold}"
    else:
        what = f"Folded: {fold}; staying in was expected to cost {cost_stay:.1f}"
    if partners:
        what += " (a fold pays, and the side pays the stake again if the partners lose)"
    lost = f"lost {ev_lost:.1f} of a stake of {stake} in expectation"
    if grade is not None:
        article = "an" if grade[0] in "aeiou" else "a"
        judged, mark = f"{lost}: {article} {grade} {GRADE_SIGNS[grade]}", grade
    elif ev_lost >= 0.05:
        judged, mark = f"{lost}: under a quarter of it, not graded", "sound"
    elif ev_lost > 0:
        judged, mark = "as good as the other answer", "sound"
    else:
        judged, mark = "the better answer", "sound"
    return mark, f"{what} ({chance}, from what they could see). {judged[0].upper()}{judged[1:]}."


def stay_verdict(player: str, paid: int) -> tuple[str, str]:
    """What staying in after a knock came to, from the log: what the player paid for the
    hand after staying (nothing when they won it or someone else lost it)."""
    if paid:
        return "paid", f"Staying in cost {player} {paid} by the end of the hand."
    return "held", f"Staying in cost {player} nothing: nothing paid after it."


def call_verdict(caller: str, made: bool, tricks: int, hand_size: int) -> tuple[str, str]:
    """The verdict on a Troefcall trump call (docs/STATS.md: made good with the majority of
    the tricks, counted by `troef_sides`)."""
    if made:
        return "made", (
            f"Verdict: {caller}'s call was made good: the side took {tricks} of {hand_size} tricks."
        )
    return "failed", (
        f"Verdict: {caller}'s call failed: the side took {tricks} of {hand_size} tricks, "
        "not the majority."
    )


def kap_verdict(side: str) -> tuple[str, str]:
    """The mark on a kap: the side took the first seven tricks in a row."""
    return "kap", f"Kap: {side} took the first seven tricks in a row."


def baunie_verdict(won: bool) -> tuple[str, str]:
    """The verdict on a baunie announcement: did the announcing side score it."""
    if won:
        return "made", "Verdict: the baunie was made good and scored."
    return "failed", "Verdict: the baunie failed: the announcing side did not score it."


def verdict_summary(
    knocks: Sequence[tuple[str, bool | None, bool]], folds: Sequence[tuple[str, bool | None, int]]
) -> str:
    """One line of a hand's verdicts by player, from its knocks (player, bluff, bluff that
    won: `knock_outcomes.bluff_won`) and folds (player, regrettable, cost):
    `Ben: 1 knock, 1 bluff (1 that worked)`."""
    players: dict[str, list[str]] = {}
    for player in [k[0] for k in knocks] + [f[0] for f in folds]:
        players.setdefault(player, [])
    for player, parts in players.items():
        mine = [k for k in knocks if k[0] == player]
        if mine:
            bluffs = [k for k in mine if k[1]]
            worked = sum(1 for k in mine if k[2])
            text = plural(len(mine), "knock")
            if bluffs:
                text += f", {plural(len(bluffs), 'bluff')}"
                text += f" ({worked} that worked)" if worked else ""
            unknown = sum(1 for k in mine if k[1] is None)
            parts.append(text + (f" ({unknown} unknown)" if unknown else ""))
        theirs = [f for f in folds if f[0] == player]
        if theirs:
            regrets = [f for f in theirs if f[1]]
            text = plural(len(theirs), "fold")
            if regrets:
                text += f", {len(regrets)} regrettable (cost {sum(f[2] for f in regrets)})"
            unknown = sum(1 for f in theirs if f[1] is None)
            parts.append(text + (f" ({unknown} unknown)" if unknown else ""))
    return "; ".join(f"{p}: {', '.join(parts)}" for p, parts in players.items())
