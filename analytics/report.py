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
from kroeg.recorder.text import plural, text_table, text_width

__all__ = [
    "GRADE_SIGNS",
    "dataset_report",
    "neutralise",
    "plural",
    "ratings_table",
    "stats_csv",
    "stats_json",
    "stats_table",
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


def stats_table(
    frame: pl.DataFrame, by: str = "player", stats: Sequence[Stat] = STATS, width: int | None = None
) -> str:
    """Figures as rows and players as columns (a block per session, month or venue).

    Each cell is the rate (or the amount per unit) and done/opportunities; * marks a
    small sample. `width`: the players are cut into blocks of at most that many
    characters (a terminal's), the figures' names repeated; None: one block.
    """
    keys = TROEFCALL_GROUPINGS[by]
    out: list[str] = []
    groups: dict[tuple[Any, ...], list[dict[str, Any]]] = {}
    for row in frame.iter_rows(named=True):
        groups.setdefault(tuple(row[k] for k in keys), []).append(row)
    for group, rows in groups.items():
        if keys:
            out.append(f"{by} {' '.join('-' if g is None else str(g) for g in group)}")
        table = [
            ["", *(str(r["side" if "side" in r else "player"]) for r in rows)],
            ["hands", *(f"{r['hands']:,}" for r in rows)],
        ]
        table += [[s.label, *(s.cell(r[s.done], r[s.opportunities]) for r in rows)] for s in stats]
        for part in _fitted(table, width):
            out += text_table(part)
            out.append("")
    out.append(
        f"rate done/opportunities; * fewer than {SMALL_SAMPLE} opportunities (docs/STATS.md)."
    )
    return "\n".join(out)


def _fitted(table: list[list[str]], width: int | None) -> list[list[list[str]]]:
    """`table` cut by columns into tables that `text_table` writes at most `width`
    characters wide, each with the first column (the names of the rows) and at least one
    other: a club of seventeen players on an 80-column terminal. None: `table` whole."""
    if width is None or len(table[0]) <= 2:
        return [table]
    widths = [max(text_width(row[i]) for row in table) for i in range(len(table[0]))]
    parts: list[list[int]] = []
    used = width  # no part yet
    for column in range(1, len(widths)):
        if used + 2 + widths[column] > width:
            parts.append([])
            used = widths[0]
        parts[-1].append(column)
        used += 2 + widths[column]
    return [[[row[0], *(row[c] for c in part)] for row in table] for part in parts]


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
        out += text_table(table, align="rl")
        out.append("")
    out.append(
        f"rating: μ, a Bayesian Plackett–Luce rating of who places last (higher is better), "
        f"±{interval:g}σ about 95 %; ? provisional: fewer than {provisional_games} games\n"
        f'(docs/STATS.md, "Ratings across evenings").'
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
        + (f" ({s.bytes_per_hand:,.1f} bytes per hand)" if s.hands else ""),
    ]
    if s.rulesets:
        rules = ", ".join(f"{name} {count:,}" for name, count in sorted(s.rulesets.items()))
        lines.append(f"rule sets: {rules}")
    else:
        lines.append("No games yet: add some with `kroeg simulate --out DATASET`.")
        return "\n".join(lines)
    con = connect(dataset)
    lines += [f"game {game}: {UNREADABLE} ({problem})" for game, problem in unreadable_rules(con)]
    toepen, troefcall = ruleset_totals(con)
    for ruleset in sorted({row[0] for row in toepen}):
        table = [[ruleset, "games", "hands", "knocks", "folds", "cost", "cost/hand"]]
        table += [
            [name, f"{games:,}", f"{hands:,}", f"{knocks:,}", f"{folds:,}", f"{cost:,}",
             f"{cost / hands:.3f}"]
            for _, name, games, hands, knocks, folds, cost in (r for r in toepen if r[0] == ruleset)
        ]  # fmt: skip
        lines += ["", *text_table(table, rule=True)]
    for ruleset in sorted({row[0] for row in troefcall}):
        table = [[ruleset, "games", "hands", "calls", "side points"]]
        table += [
            [name, f"{games:,}", f"{hands:,}", f"{calls:,}", f"{points:,}"]
            for _, name, games, hands, calls, points in (r for r in troefcall if r[0] == ruleset)
        ]
        lines += ["", *text_table(table, rule=True)]
    if toepen:
        lines += ["", "cost: penalty points taken or lives lost (every pay event)."]
    if troefcall:
        lines += ["", "side points: what the player's side scored (Troefcall); calls: hands as",
                  "trump caller. `kroeg stats` has calls made good, kap and baunie."]  # fmt: skip
    if toepen or troefcall:
        lines += ["Finished hands only (docs/STATS.md)."]
    return "\n".join(lines)


#: The mark on an answer to a knock by its grade (analytics.verdicts.grade), as chess
#: annotates moves: "?!" an inaccuracy, "?" a mistake, "??" a blunder.
GRADE_SIGNS = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}
