"""The month in the club bulletin: Markdown, one standalone HTML page with charts, and CSV.

Content: the month in a paragraph (evenings, games, hands, venues, who won and lost
games); for Toepen a leaderboard per rule set (points and lives never added, ranked
from MIN_RANKED_HANDS hands), the month's awards in sentences naming each game by its
evening (biggest bluffer, best bluff, costliest and most regrettable fold, most calls
made good in Troefcall), the hand of the month (the highest stake) told in at most
STORY_LINES lines, and a table per player; for Troefcall the partnerships' calls made good,
kap partij, baunie and points, and a table per player. Every name is escaped in
HTML; CSV cells that a spreadsheet would run as formulas are neutralised. The
HTML loads nothing from the network: the charts are inline SVG. The CSV holds
the Toepen table, or the Troefcall players' in a month without Toepen.
"""

from __future__ import annotations

import html
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any

import duckdb
import polars as pl

from analytics.report import plural, stats_csv
from analytics.stats import SMALL_SAMPLE, STAT_BY_NAME, player_stats, troefcall_stats
from parsers.render import view_hand
from recorder.atomic import write_text_atomic
from recorder.cards import mark_red_suits
from recorder.errors import NotFoundError, UsageError
from recorder.records import GameRecord
from recorder.store import Dataset
from recorder.text import markdown_text as md

__all__ = ["Newsletter", "build", "write"]


@dataclass(frozen=True)
class Newsletter:
    """Everything the bulletin says about one month."""

    month: str
    title: str
    players: pl.DataFrame
    bluffer: dict[str, Any] | None
    best_bluff: dict[str, Any] | None
    costliest_fold: dict[str, Any] | None
    hand_of_the_month: dict[str, Any] | None
    moves: list[str]
    #: Troefcall's month: a row per side and a row per player (empty without Troefcall).
    sides: pl.DataFrame | None = None
    troefcall_players: pl.DataFrame | None = None
    #: The month in one paragraph: evenings, games, hands, venues, who won and lost.
    summary: str = ""
    #: Toepen's leaderboards, one per rule set: (rule set, ranked rows, unranked names).
    boards: tuple[tuple[str, pl.DataFrame, tuple[str, ...]], ...] = ()
    #: Every player's figures per Toepen rule set (ranked or not).
    board_frames: dict[str, pl.DataFrame] = field(default_factory=dict)
    #: Each game of the month by its date, venue and players (never its id alone).
    names: dict[str, str] | None = None
    #: The most regrettable fold, and Troefcall's most calls made good.
    regret: dict[str, Any] | None = None
    caller: dict[str, Any] | None = None


def _month_range(month: str) -> tuple[date, date]:
    try:
        if not re.fullmatch(r"[0-9]{4}-[0-9]{2}", month):
            raise ValueError(month)
        year, number = (int(x) for x in month.split("-"))
        first = date(year, number, 1)
        following = date(year + number // 12, number % 12 + 1, 1)
    except ValueError:
        raise UsageError(f"expected a month like 2026-11, found {month!r}") from None
    return first, date.fromordinal(following.toordinal() - 1)


def _one(con: duckdb.DuckDBPyConnection, query: str, params: list[object]) -> dict[str, Any] | None:
    rows = con.sql(query, params=params).pl().to_dicts()
    return rows[0] if rows else None


_IN_MONTH = "strftime(g.started_at, '%Y-%m') = ?"


def build(con: duckdb.DuckDBPyConnection, dataset: Dataset, month: str) -> Newsletter:
    """Gather the month's figures (the dataset's derived facts must be up to date)."""
    first, last = _month_range(month)
    players = player_stats(con, since=first, until=last)
    sides = troefcall_stats(con, by="side", since=first, until=last)
    troef_players = troefcall_stats(con, since=first, until=last)
    if players.is_empty() and sides.is_empty():
        raise NotFoundError(f"no finished hands in {month}")
    ranked = players.sort(["cost_per_hand", "player"])
    games = [name for name, frame in (("Toepen", players), ("Troefcall", sides))
             if not frame.is_empty()]  # fmt: skip
    sides = sides.sort(["points_per_hand", "player"], descending=[True, False])
    bluffer = _one(
        con,
        f"""SELECT k.player, count(*) FILTER (WHERE k.bluff) AS bluffs, count(k.strength) AS knocks
            FROM knock_outcomes k JOIN games g USING (game_id) WHERE {_IN_MONTH}
            GROUP BY k.player HAVING count(k.strength) >= ?
            ORDER BY bluffs / knocks DESC, bluffs DESC, k.player LIMIT 1""",
        [month, SMALL_SAMPLE],
    )
    best_bluff = _one(
        con,
        f"""SELECT k.player, k.game_id, k.hand, k.stake, k.strength, k.folded_to_it
            FROM knock_outcomes k JOIN games g USING (game_id)
            WHERE {_IN_MONTH} AND k.bluff_won
            ORDER BY k.folded_to_it DESC, k.strength, k.game_id, k.hand LIMIT 1""",
        [month],
    )
    costliest = _one(
        con,
        f"""SELECT f.player, f.game_id, f.hand, f.cost, ff.regret
            FROM folds f JOIN games g USING (game_id)
            LEFT JOIN fold_facts ff USING (game_id, hand, seq)
            WHERE {_IN_MONTH}
            ORDER BY coalesce(ff.regret, false) DESC, f.cost DESC, f.game_id, f.hand LIMIT 1""",
        [month],
    )
    top = _one(
        con,
        f"""SELECT h.game_id, h.hand, h.stake, g.players[h.end_seat + 1] AS ended_by
            FROM hands h JOIN games g USING (game_id)
            WHERE {_IN_MONTH} AND h.finished
            ORDER BY h.stake DESC, g.started_at, h.game_id, h.hand LIMIT 1""",
        [month],
    )
    moves: list[str] = []
    if top is not None:
        moves = hand_story(dataset.read_game(top["game_id"]), top["hand"])
    regret = _one(
        con,
        f"""SELECT f.player, f.game_id, f.hand, f.cost
            FROM folds f JOIN games g USING (game_id)
            JOIN fold_facts ff USING (game_id, hand, seq)
            WHERE {_IN_MONTH} AND ff.regret
            ORDER BY f.cost DESC, f.game_id, f.hand LIMIT 1""",
        [month],
    )
    caller = None
    if not troef_players.is_empty():
        best = troef_players.filter(pl.col("calls") > 0).sort(
            ["calls_made", "calls", "player"], descending=[True, False, False]
        )
        caller = best.row(0, named=True) if best.height else None
    title = f"{' and '.join(games)} in {first:%B %Y}"
    frames = _rule_set_frames(con, first, last)
    boards = _boards(frames)
    return Newsletter(
        month, title, ranked, bluffer, best_bluff, costliest, top, moves, sides, troef_players,
        summary=_summary(con, month, first), boards=boards, board_frames=frames,
        names=_game_names(con, month), regret=regret, caller=caller,
    )  # fmt: skip


#: Fewer hands than this in a month and a player is listed under the leaderboard, not ranked.
MIN_RANKED_HANDS = 10

#: The lines of the hand of the month's story: at most this many.
STORY_LINES = 15


def _game_names(con: duckdb.DuckDBPyConnection, month: str) -> dict[str, str]:
    """Each game of the month as a club names it: `the game of Fri 20 Nov at Café De Kroeg
    (Anna, Ben, Carla, Dan)` (its time too when there were several that evening)."""
    rows = con.sql(
        f"""SELECT g.game_id, g.started_at, g.venue, array_to_string(g.players, ', ') AS who,
                   count(*) OVER (PARTITION BY g.started_at::DATE, g.venue) AS that_night
            FROM games g WHERE {_IN_MONTH}""",
        params=[month],
    ).pl()
    names = {}
    for r in rows.iter_rows(named=True):
        when = r["started_at"]
        day = f"{when:%a} {when.day} {when:%b}" if when else "an undated evening"
        hour = f", {when:%H:%M}" if when and r["that_night"] > 1 else ""
        where = f" at {r['venue']}" if r["venue"] else ""
        names[r["game_id"]] = f"the game of {day}{hour}{where} ({r['who']})"
    return names


def _summary(con: duckdb.DuckDBPyConnection, month: str, first: date) -> str:
    """The month in one paragraph."""
    row = _one(
        con,
        f"""SELECT count(DISTINCT (g.started_at::DATE, coalesce(g.venue, ''))) AS evenings,
                   count(*) AS games,
                   (SELECT count(*) FROM hands h JOIN games g USING (game_id)
                    WHERE {_IN_MONTH} AND h.finished) AS hands,
                   list_sort(list_distinct(list(g.venue) FILTER (WHERE g.venue IS NOT NULL)))
                       AS venues
            FROM games g WHERE {_IN_MONTH}""",
        [month, month],
    )
    if row is None or not row["games"]:
        return ""
    ends = con.sql(
        f"""SELECT g.players[e.seat + 1] AS winner, g.players[e.target + 1] AS loser
            FROM events e JOIN games g USING (game_id)
            WHERE e.kind = 'game_end' AND {_IN_MONTH}""",
        params=[month],
    ).pl()
    winners = Counter(w for w in ends["winner"].to_list() if w)
    losers = Counter(x for x in ends["loser"].to_list() if x)
    parts = [
        f"In {first:%B %Y} the club met on {plural(row['evenings'], 'evening')} and played "
        f"{plural(row['games'], 'game')}, {plural(row['hands'], 'hand')} in all"
        + (f", at {_and(row['venues'])}" if row["venues"] else "")
        + "."
    ]
    if winners:
        parts.append("Games won: " + _counted(winners) + ".")
    if losers:
        parts.append("Games lost: " + _counted(losers) + ".")
    return " ".join(parts)


def _and(names: Sequence[str]) -> str:
    names = list(names)
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _counted(counts: Counter[str]) -> str:
    return ", ".join(
        f"{name} {n}" for name, n in sorted(counts.items(), key=lambda c: (-c[1], c[0]))
    )


def _rule_set_frames(
    con: duckdb.DuckDBPyConnection, first: date, last: date
) -> dict[str, pl.DataFrame]:
    """Every player's Toepen figures of the month, per rule set."""
    rulesets = con.sql(
        """SELECT ruleset, list(game_id) AS games FROM games
           WHERE game_type = 'toepen' AND started_at::DATE BETWEEN ? AND ?
           GROUP BY ruleset ORDER BY ruleset""",
        params=[first, last],
    ).pl()
    frames = {}
    for r in rulesets.iter_rows(named=True):
        frame = player_stats(con, game_ids=r["games"])
        if not frame.is_empty():
            frames[r["ruleset"]] = frame
    return frames


def _boards(
    frames: dict[str, pl.DataFrame],
) -> tuple[tuple[str, pl.DataFrame, tuple[str, ...]], ...]:
    """A Toepen leaderboard per rule set (points and lives are never added): fewest lost
    per hand first, among players with at least MIN_RANKED_HANDS hands."""
    boards = []
    for ruleset, frame in frames.items():
        ranked = frame.filter(pl.col("hands") >= MIN_RANKED_HANDS).sort(["cost_per_hand", "player"])
        others = tuple(sorted(frame.filter(pl.col("hands") < MIN_RANKED_HANDS)["player"]))
        boards.append((ruleset, ranked, others))
    return tuple(boards)


def hand_story(record: GameRecord, number: int) -> list[str]:
    """The hand of the month told short (at most STORY_LINES lines): the deal, the
    knocks and answers, the swaps and checks, and how it ended; not every card."""
    view = view_hand(record, number)
    told = []
    for block in view.steps:
        for line in block:
            text = line.strip()
            if not text or text.startswith("→"):
                continue
            if " plays " in text or " leads " in text:
                continue  # the cards: the story keeps the decisions
            told.append(text)
    if len(told) > STORY_LINES:
        # The deal and how the hand ended stay; the middle is shortened.
        head = STORY_LINES // 2
        told = [*told[:head], "…", *told[len(told) - (STORY_LINES - head - 1) :]]
    return told


def _pct(name: str, done: int, opportunities: int) -> str:
    """A figure of the registry as the bulletin shows it: `42% 5/12*`."""
    return STAT_BY_NAME[name].cell(done, opportunities)


def _game(news: Newsletter, game_id: str) -> str:
    """A game by its date, venue and players."""
    return (news.names or {}).get(game_id, "a game of the month")


def _headlines(news: Newsletter) -> list[tuple[str, str]]:
    """The month's awards as (title, sentence) pairs, plain text, each with its hand."""
    items = []
    if news.bluffer is not None:
        b = news.bluffer
        share = _pct("bluff_rate", b["bluffs"], b["knocks"])
        items.append(("Biggest bluffer", f"{b['player']}: {share} of knocks were bluffs."))
    if news.best_bluff is not None:
        b = news.best_bluff
        chance = f"{100 * b['strength']:.0f}%"
        haul = b["folded_to_it"]
        items.append(("Best bluff", f"{b['player']} knocked to {b['stake']} in hand {b['hand']} "
                      f"of {_game(news, b['game_id'])} with a {chance} chance of winning, and "
                      f"everyone folded: {haul} in."))  # fmt: skip
    if news.costliest_fold is not None:
        f = news.costliest_fold
        regret = " — and would have won" if f["regret"] else ""
        items.append(("Costliest fold", f"{f['player']} folded for {f['cost']} in hand "
                      f"{f['hand']} of {_game(news, f['game_id'])}{regret}."))  # fmt: skip
    if news.regret is not None:
        r = news.regret
        items.append(("Most regrettable fold", f"{r['player']} folded for {r['cost']} in hand "
                      f"{r['hand']} of {_game(news, r['game_id'])}; playing on would have won "
                      "the hand."))  # fmt: skip
    if news.caller is not None:
        c = news.caller
        made = _pct("calls_made_rate", c["calls_made"], c["calls"])
        items.append(("Most calls made good", f"{c['player']}: {made} of trump calls made good "
                      "(Troefcall)."))  # fmt: skip
    if news.hand_of_the_month is not None:
        h = news.hand_of_the_month
        items.append(("Hand of the month", f"Hand {h['hand']} of {_game(news, h['game_id'])}, "
                      f"played for a stake of {h['stake']}."))  # fmt: skip
    return items


def _board_lines(news: Newsletter) -> list[tuple[str, list[str], str]]:
    """Each rule set's leaderboard: heading, ranked lines (plain text), and who is not
    ranked (too few hands)."""
    boards = []
    for ruleset, ranked, others in news.boards:
        unit = "lives" if ruleset == "lives" else "points"
        lines = [
            f"{row['player']} — {row['cost_per_hand']:.2f} {unit} lost per hand over "
            f"{plural(row['hands'], 'hand')}{'*' if row['hands'] < SMALL_SAMPLE else ''}"
            for row in ranked.iter_rows(named=True)
        ]
        rest = (
            f"Fewer than {MIN_RANKED_HANDS} hands, not ranked: {', '.join(others)}."
            if others
            else ""
        )
        boards.append((f"Leaderboard: {ruleset}", lines, rest))
    return boards


_RANKING = (
    f"Fewest lost per hand first, each rule set on its own (points and lives are never added); "
    f"ranked from {MIN_RANKED_HANDS} hands in the month; * fewer than {SMALL_SAMPLE} hands."
)


#: The figures of the players' tables, by name in the statistics registry.
_COLUMNS = ("win_rate", "cost_per_hand", "knock_rate", "bluff_rate", "fold_rate", "regret_rate")
_TROEF_COLUMNS = (
    "calls_made_rate", "kap_rate", "baunie_success", "tricks_per_hand", "points_per_hand",
)  # fmt: skip


def _headings(columns: Sequence[str]) -> list[str]:
    return ["hands", *(STAT_BY_NAME[c].label for c in columns)]


def _row_cells(row: dict[str, Any], columns: Sequence[str] = _COLUMNS) -> list[str]:
    """The hands, then each figure as the registry writes it."""
    stats = [STAT_BY_NAME[c] for c in columns]
    return [str(row["hands"]), *(s.cell(row[s.done], row[s.opportunities]) for s in stats)]


def markdown(news: Newsletter) -> str:
    """The bulletin as Markdown (names as typed; a club's editor pastes it)."""
    out = [f"# {md(news.title)}", ""]
    if news.summary:
        out += ["## The month", "", md(news.summary), ""]
    if not news.players.is_empty():
        for heading, lines, rest in _board_lines(news):
            out += [f"## {md(heading)}", "", _RANKING, ""]
            out += [f"{place}. {md(line)}" for place, line in enumerate(lines, start=1)]
            if not lines:
                out.append(f"Nobody played {MIN_RANKED_HANDS} hands under these rules this month.")
            out += ["", md(rest), ""] if rest else [""]
    for title, sentence in _headlines(news):
        out += [f"## {title}", "", md(sentence), ""]
    if not news.players.is_empty():
        if news.moves:
            # An indented code block: no name can close it, as one could close a fence.
            out += ["### The hand, as it went", "", *(f"    {m}" for m in news.moves), ""]
        out += ["## Every player", "", "| player | " + " | ".join(_headings(_COLUMNS)) + " |",
                "|---" * (len(_COLUMNS) + 2) + "|"]  # fmt: skip
        for row in news.players.iter_rows(named=True):
            out.append(f"| {md(row['player'])} | " + " | ".join(_row_cells(row)) + " |")
        out.append("")
    for heading, frame in _troefcall_tables(news):
        out += [f"## {heading}", "", "| | " + " | ".join(_headings(_TROEF_COLUMNS)) + " |",
                "|---" * (len(_TROEF_COLUMNS) + 2) + "|"]  # fmt: skip
        for row in frame.iter_rows(named=True):
            out.append(f"| {md(row['player'])} | " + " | ".join(_troef_cells(row)) + " |")
        out.append("")
    out += ["Rates show done/opportunities. Definitions: kroeg docs/STATS.md.", ""]
    return "\n".join(out)


def _troef_cells(row: dict[str, Any]) -> list[str]:
    return _row_cells(row, _TROEF_COLUMNS)


def _troefcall_tables(news: Newsletter) -> list[tuple[str, pl.DataFrame]]:
    """The Troefcall tables of the month: the sides (most points first), then the players."""
    if news.sides is None or news.sides.is_empty():
        return []
    assert news.troefcall_players is not None
    return [("Troefcall: the partnerships", news.sides),
            ("Troefcall: every player", news.troefcall_players)]  # fmt: skip


def _bars(title: str, rows: list[tuple[str, float, str]], maximum: float) -> str:
    """A horizontal bar chart as inline SVG: (label, value, caption) per bar."""
    height = 28 * len(rows) + 40
    parts = [f'<svg width="560" height="{height}" '
             f'role="img" aria-label="{html.escape(title)}">',
             f'<text x="0" y="18" class="chart-title">{html.escape(title)}</text>']  # fmt: skip
    for i, (label, value, caption) in enumerate(rows):
        y = 34 + 28 * i
        width = 0 if maximum <= 0 else 300 * value / maximum
        parts.append(f'<text x="0" y="{y + 15}" class="label">{html.escape(label)}</text>')
        parts.append(f'<rect x="130" y="{y}" width="{width:.1f}" height="20" class="bar"/>')
        parts.append(f'<text x="{136 + width:.1f}" y="{y + 15}" class="caption">'
                     f'{html.escape(caption)}</text>')  # fmt: skip
    parts.append("</svg>")
    return "".join(parts)


_CSS = """
body { font-family: Georgia, 'Times New Roman', serif; max-width: 760px; margin: 2em auto;
       color: #222; line-height: 1.45; padding: 0 1em; }
h1 { font-size: 2.2em; border-bottom: 4px double #7a1f1f; margin-bottom: .2em; }
h1 small { display: block; font-size: .45em; color: #7a1f1f; letter-spacing: .08em; }
h2 { color: #7a1f1f; font-size: 1.3em; margin-top: 1.4em; }
ol.board li { margin: .15em 0; } ol.board b { font-size: 1.05em; }
.cards { display: grid; grid-template-columns: 1fr 1fr; gap: .8em; }
.card { border: 1px solid #d8cfc0; background: #fbf7ef; padding: .6em .8em; border-radius: 6px; }
.card h3 { margin: 0 0 .3em; font-size: 1em; color: #7a1f1f; text-transform: uppercase;
           letter-spacing: .06em; }
pre { background: #f4f1ea; padding: .8em; font-size: .85em; overflow-x: auto; }
table { border-collapse: collapse; width: 100%; font-size: .9em; }
th, td { border-bottom: 1px solid #ddd; padding: .3em .4em; text-align: right; }
th:first-child, td:first-child { text-align: left; }
svg .bar { fill: #7a1f1f; } svg text { font-family: Georgia, serif; font-size: 13px; }
svg .chart-title { font-weight: bold; font-size: 14px; } svg .caption { fill: #555; }
.red { color: #b00; } footer { margin-top: 2em; font-size: .8em; color: #777; }
@media print { body { margin: 0; } .card { break-inside: avoid; } }
"""


def _suits(text: str) -> str:
    """Escaped text with red hearts and diamonds."""
    return mark_red_suits(html.escape(text), lambda symbol: f'<span class="red">{symbol}</span>')


def page(news: Newsletter) -> str:
    """One standalone HTML page: no scripts, no network, charts inline."""
    e = html.escape
    out = ["<!doctype html>", '<html lang="en"><head><meta charset="utf-8">',
           f"<title>{e(news.title)}</title><style>{_CSS}</style></head><body>",
           f"<h1><small>THE CLUB BULLETIN</small>{e(news.title)}</h1>"]  # fmt: skip
    if news.summary:
        out.append(f'<p class="summary">{e(news.summary)}</p>')
    cards = "".join(f'<div class="card"><h3>{e(t)}</h3>{e(s)}</div>' for t, s in _headlines(news))
    if cards:
        out.append(f'<div class="cards">{cards}</div>')
    if not news.players.is_empty():
        out += _toepen_html(news)
    for heading, frame in _troefcall_tables(news):
        rows = list(frame.iter_rows(named=True))
        out.append(f"<h2>{e(heading)}</h2>")
        if heading.endswith("partnerships"):
            made = [(r["player"], r["calls_made_rate"] or 0.0,
                     _pct("calls_made_rate", r["calls_made"], r["calls"]))
                    for r in rows]  # fmt: skip
            out.append(_bars("Calls made good (the majority of the tricks)", made, 1.0))
        out.append("<table><tr><th></th>"
                   + "".join(f"<th>{e(c)}</th>" for c in _headings(_TROEF_COLUMNS))
                   + "</tr>")  # fmt: skip
        for row in rows:
            cells = "".join(f"<td>{e(c)}</td>" for c in _troef_cells(row))
            out.append(f"<tr><td>{e(row['player'])}</td>{cells}</tr>")
        out.append("</table>")
    out.append("<footer>Rates show done/opportunities. Made with kroeg.</footer>")
    out.append("</body></html>")
    return "\n".join(out)


def _toepen_html(news: Newsletter) -> list[str]:
    e = html.escape
    rows = list(news.players.iter_rows(named=True))
    out = []
    for heading, lines, rest in _board_lines(news):
        out.append(f"<h2>{e(heading)}</h2><p>{e(_RANKING)}</p>")
        if lines:
            out.append('<ol class="board">' + "".join(f"<li>{e(x)}</li>" for x in lines) + "</ol>")
        else:
            out.append(
                f"<p>Nobody played {MIN_RANKED_HANDS} hands under these rules this month.</p>"
            )
        if rest:
            out.append(f"<p>{e(rest)}</p>")
    if news.moves:
        out.append("<h2>The hand of the month, as it went</h2>")
        out.append("<pre>" + "\n".join(_suits(m) for m in news.moves) + "</pre>")
    known = [r for r in rows if r["knocks_known"]]
    out.append("<h2>Bluffing and folding</h2>")
    bluffs = [(r["player"], r["bluff_rate"] or 0.0,
               _pct("bluff_rate", r["bluffs"], r["knocks_known"])) for r in known]  # fmt: skip
    out.append(_bars("Bluff rate (bluffs / knocks)", bluffs, 1.0))
    cost = [(r["player"], r["fold_cost"], f"{r['fold_cost']} in {r['folds']} folds") for r in rows]
    out.append(
        _bars("What folding cost (lives or points)", cost, max((c[1] for c in cost), default=0))
    )
    out.append("<h2>Every player</h2><table><tr><th>player</th>"
               + "".join(f"<th>{e(c)}</th>" for c in _headings(_COLUMNS)) + "</tr>")  # fmt: skip
    for row in rows:
        out.append(f"<tr><td>{e(row['player'])}</td>"
                   + "".join(f"<td>{e(c)}</td>" for c in _row_cells(row)) + "</tr>")  # fmt: skip
    out.append("</table>")
    return out


def table_csv(news: Newsletter) -> str:
    """The month's figures for a spreadsheet: one row per player and rule set (Troefcall
    too), each rate to two decimals beside its counts, no internal columns."""
    rows: list[dict[str, object]] = []

    def add(ruleset: str, frame: pl.DataFrame, columns: Sequence[str]) -> None:
        for row in frame.iter_rows(named=True):
            cells: dict[str, object] = {"rule_set": ruleset, "player": row["player"],
                                        "hands": row["hands"]}  # fmt: skip
            for name in columns:
                stat = STAT_BY_NAME[name]
                value = stat.value(row[stat.done], row[stat.opportunities])
                cells[name] = "" if value is None else f"{value:.2f}"
                cells[f"{name}_done"] = row[stat.done]
                cells[f"{name}_of"] = row[stat.opportunities]
            rows.append(cells)

    for ruleset, ranked, _ in news.boards:
        add(ruleset, ranked, _COLUMNS)
    for ruleset, frame in _unranked(news):
        add(ruleset, frame, _COLUMNS)
    if news.troefcall_players is not None and not news.troefcall_players.is_empty():
        add("troefcall", news.troefcall_players, _TROEF_COLUMNS)
    if not rows:
        return ""
    columns = list(dict.fromkeys(k for r in rows for k in r))
    frame = pl.DataFrame(
        [{c: r.get(c, "") for c in columns} for r in rows], infer_schema_length=None
    )
    return stats_csv(frame.select(pl.all().cast(pl.String)))


def _unranked(news: Newsletter) -> list[tuple[str, pl.DataFrame]]:
    """The players of each rule set's board with too few hands to be ranked."""
    out = []
    for ruleset, _, others in news.boards:
        if others:
            out.append((ruleset, news.board_frames[ruleset].filter(pl.col("player").is_in(others))))
    return out


def write(news: Newsletter, folder: str | Path) -> list[Path]:
    """Write newsletter-YYYY-MM.md, .html and .csv into `folder`; return the paths."""
    target = Path(folder)
    target.mkdir(parents=True, exist_ok=True)
    stem = target / f"newsletter-{news.month}"
    paths = [stem.with_suffix(".md"), stem.with_suffix(".html"), stem.with_suffix(".csv")]
    for path, text in zip(paths, (markdown(news), page(news), table_csv(news)), strict=True):
        write_text_atomic(path, text)
    return paths
