"""Statistics as text: a table for the terminal, CSV (safe for spreadsheets), JSON."""

from __future__ import annotations

import csv
import io
import json
from typing import Any

import polars as pl

from analytics.stats import GROUPINGS, SMALL_SAMPLE, STATS

__all__ = ["neutralise", "stats_csv", "stats_json", "stats_table"]


def neutralise(value: Any) -> Any:
    """A text cell that a spreadsheet would run as a formula gets a leading apostrophe."""
    if isinstance(value, str) and value[:1] in ("=", "+", "-", "@", "\t", "\r"):
        return "'" + value
    return value


def _cell(row: dict[str, Any], name: str) -> str:
    stat = next(s for s in STATS if s.name == name)
    done, opp = row[stat.done], row[stat.opportunities]
    if not opp:
        return "-"
    small = "*" if row[f"{name}_small"] else ""
    if stat.shown_as == "rate":
        return f"{100 * done / opp:.0f}% {done}/{opp}{small}"
    return f"{done / opp:.2f} {done}/{opp}{small}"


def stats_table(frame: pl.DataFrame, by: str = "player") -> str:
    """An aligned table: each figure as rate and done/opportunities; * marks a small sample."""
    keys = [*GROUPINGS[by], "player"]
    headers = [*keys, "hands", *(s.label for s in STATS)]
    rows = [
        [str(row[k]) if row[k] is not None else "-" for k in keys]
        + [str(row["hands"])]
        + [_cell(row, s.name) for s in STATS]
        for row in frame.iter_rows(named=True)
    ]
    widths = [
        max(len(h), *(len(r[i]) for r in rows)) if rows else len(h) for i, h in enumerate(headers)
    ]
    numeric = len(keys)

    def line(cells: list[str]) -> str:
        return "  ".join(
            c.ljust(w) if i < numeric else c.rjust(w)
            for i, (c, w) in enumerate(zip(cells, widths, strict=True))
        ).rstrip()

    out = [line(headers), line(["-" * w for w in widths])]
    out.extend(line(r) for r in rows)
    out.append("")
    out.append(
        f"rate done/opportunities; * fewer than {SMALL_SAMPLE} opportunities. "
        "lost/hand: lives or points per hand; fold cost: paid per fold."
    )
    return "\n".join(out)


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
