"""The Players page: bluffs, answers to knocks and what folding cost, every bar with its
hands behind it."""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from pathlib import Path
from urllib.parse import quote

import polars as pl
import streamlit as st

from kroeg.analytics.pages import BEHIND, behind
from kroeg.analytics.ratings import INTERVAL, PROVISIONAL_GAMES, rating_chart
from kroeg.analytics.stats import (
    SMALL_SAMPLE,
    STAT_BY_NAME,
    STATS,
    TROEFCALL_STATS,
    Stat,
    player_stats,
)
from kroeg.dashboard.data import ask, figures, toepen_units
from kroeg.dashboard.filters import chosen_games, current_path, empty_state
from kroeg.recorder.text import markdown_text as md


def players() -> None:
    """Bluff rate, bluff success and fold cost per player, with the hands behind them."""
    st.title("Players")
    if empty_state():
        return
    frame = _mine(_stats(current_path(), "toepen"))
    troef = _mine(_stats(current_path(), "troefcall"))
    if frame.is_empty() and troef.is_empty():
        st.info("No hands match the filters.")
        return
    if not frame.is_empty():
        if not troef.is_empty():
            st.header("Toepen")
        _toepen_players(frame)
    if not troef.is_empty():
        _troefcall_players(troef)
    _ratings(frame.is_empty(), troef.is_empty())


def _ratings(no_toepen: bool, no_troefcall: bool) -> None:
    """Each player's rating game by game, with its interval: the club's games, and the bots'
    (rated apart) when the sidebar shows them or the dataset holds nothing else."""
    people = st.session_state.get("filter_people") or None
    shown_bots = bool(st.session_state.get("filter_simulated"))
    for game_type, empty in (("toepen", no_toepen), ("troefcall", no_troefcall)):
        if empty:
            continue
        club = ask(current_path(), rating_chart, game_type, False, people)
        pools = [(False, club)]
        if shown_bots or club.is_empty():
            pools.append((True, ask(current_path(), rating_chart, game_type, True, people)))
        for bots, chart in pools:
            if chart.is_empty():
                continue
            whose = "the bots' games, rated apart from the club's" if bots else "the club's games"
            st.subheader(f"Rating over time: {game_type.capitalize()}, {whose}")
            _rating_chart(chart)


def _rating_chart(chart: pl.DataFrame) -> None:
    """A line per player (the rating μ after each game) in a band of μ ± INTERVAL σ."""
    st.caption(
        "openskill's Plackett–Luce rating after each game, with its interval (about 95 %). "
        f"A rating is provisional (?) until {PROVISIONAL_GAMES} games. Every game "
        'counts, whatever the date filter (docs/STATS.md, "Ratings").'
    )
    rows = [
        {"player": r["player"], "game": int(r["step"]) + 1, "games": r["games"],
         "when": None if r["started_at"] is None else r["started_at"].isoformat(),
         "rating": round(r["mu"], 2), "low": round(r["low"], 2), "high": round(r["high"], 2),
         "provisional": bool(r["provisional"]),
         "shown": f"{r['mu']:.1f}{'?' if r['provisional'] else ''} ± "
                  f"{INTERVAL * r['sigma']:.1f} after {r['games']} games"}
        for r in chart.iter_rows(named=True)
    ]  # fmt: skip
    x = {"field": "game", "type": "quantitative", "title": "game (in the order played)"}
    color = {"field": "player", "type": "nominal", "title": None}
    st.vega_lite_chart(
        {
            "data": {"values": rows},
            "height": 280,
            "layer": [
                {
                    "mark": {"type": "area", "opacity": 0.15},
                    "encoding": {
                        "x": x,
                        "color": color,
                        "y": {
                            "field": "low",
                            "type": "quantitative",
                            "title": "rating",
                            "scale": {"zero": False},
                        },
                        "y2": {"field": "high"},
                    },
                },
                {
                    "mark": {"type": "line", "point": {"filled": True}},
                    "encoding": {
                        "x": x,
                        "color": color,
                        "y": {"field": "rating", "type": "quantitative"},
                        "tooltip": [
                            {"field": "player"},
                            {"field": "when", "title": "played"},
                            {"field": "shown", "title": "rating"},
                        ],
                    },
                },
            ],
        },
        width="stretch",
    )


def _stats(path: Path, game: str, unit: str | None = None) -> pl.DataFrame:
    """Every player's figures for the games the filters let through (Toepen: those paid
    in `unit`, points or lives, when given), kept until the files change."""
    return figures(path, game, unit, chosen_games())


def _mine(frame: pl.DataFrame) -> pl.DataFrame:
    """The players the sidebar's filter names (all without one)."""
    people = st.session_state.get("filter_people") or []
    return frame.filter(pl.col("player").is_in(people)) if people else frame


def _by_unit() -> dict[str, pl.DataFrame]:
    """Toepen figures per unit of payment (games.unit: lives, penalty points), for the
    games the filters let through: a fold's cost in lives and one in points are never
    added."""
    frames = {
        unit: _mine(_stats(current_path(), "toepen", unit))
        for unit in toepen_units(current_path(), chosen_games())
    }
    return {unit: f for unit, f in frames.items() if not f.is_empty()}


def _troefcall_players(frame: pl.DataFrame) -> None:
    """Troefcall: calls made good, kap partij and tricks, per player."""
    st.header("Troefcall")
    left, right = st.columns(2)
    with left:
        _bars(frame, STAT_BY_NAME["calls_made_rate"])
    with right:
        _bars(frame, STAT_BY_NAME["kap_rate"])
    _numbers(frame, TROEFCALL_STATS)


def _answers(frame: pl.DataFrame) -> None:
    """Answering knocks: accuracy and blunders per player, and accuracy month by month."""
    st.subheader("Answering knocks")
    st.caption(
        "Every answer to a knock (stay or fold) is judged on what the player could see: the "
        "expected cost of staying against the price of a fold. 100% accuracy is the better "
        "answer every time; a blunder lost half the stake or more in expectation "
        "(docs/STATS.md)."
    )
    left, right = st.columns(2)
    with left:
        _bars(frame, STAT_BY_NAME["answer_accuracy"])
    with right:
        _bars(frame, STAT_BY_NAME["blunder_rate"], behind="blunders")
    accuracy = STAT_BY_NAME["answer_accuracy"]
    months = _mine(ask(current_path(), player_stats, "month", None, None, None, chosen_games()))
    months = months.filter(pl.col(accuracy.opportunities) > 0)
    if months["month"].n_unique() < 2:
        return  # one month: the bars say it all
    rows = [
        {"month": r["month"], "player": r["player"], "accuracy": round(100 * r[accuracy.name], 1),
         "shown": accuracy.cell(r[accuracy.done], r[accuracy.opportunities])}
        for r in months.iter_rows(named=True)
    ]  # fmt: skip
    st.caption("Accuracy month by month (answers judged that month).")
    st.vega_lite_chart(
        {
            "data": {"values": rows},
            "mark": {"type": "line", "point": True},
            "encoding": {
                "x": {"field": "month", "type": "ordinal", "title": None},
                "y": {
                    "field": "accuracy",
                    "type": "quantitative",
                    "title": "accuracy (%)",
                    "scale": {"domain": [0, 100]},
                },
                "color": {"field": "player", "type": "nominal", "title": None},
                "tooltip": [
                    {"field": "player"},
                    {"field": "month"},
                    {"field": "shown", "title": "accuracy"},
                ],
            },
        },
        width="stretch",
    )


def _numbers(frame: pl.DataFrame, stats: Sequence[Stat]) -> None:
    """Every figure as done/opportunities, a row per player."""
    rows = []
    for row in frame.iter_rows(named=True):
        cells = {"player": row["player"], "hands": row["hands"]}
        for stat in stats:
            cells[stat.label] = stat.cell(row[stat.done], row[stat.opportunities])
        rows.append(cells)
    st.dataframe(pl.DataFrame(rows), hide_index=True, width="stretch")


def _toepen_players(frame: pl.DataFrame) -> None:
    """Toepen: bluffing and folding, with the hands behind every bar."""
    st.subheader("Bluffing")
    st.caption(
        "A knock is a bluff when the knocker's chance of winning, from the cards they could "
        "see, was below their fair share: what an average seat expects with that many "
        "players still in (1 in that number where the last trick wins, all but 1 in it "
        "where the last trick loses). It succeeded when every opponent (every other side, "
        "in team toepen) folded to it (docs/STATS.md)."
    )
    left, right = st.columns(2)
    with left:
        _bars(frame, STAT_BY_NAME["bluff_rate"], behind="bluffs")
    with right:
        _bars(frame, STAT_BY_NAME["bluff_success"], behind="won")
    by_unit = _by_unit()
    for unit, unit_frame in by_unit.items():
        st.subheader(f"What folding cost, in {unit}")
        left, middle, right = st.columns(3)
        with left:
            _bars(unit_frame, STAT_BY_NAME["cost_per_fold"], behind="folds", unit=unit)
        with middle:
            _bars(unit_frame, STAT_BY_NAME["cost_per_fold"], behind="folds", total=True, unit=unit)
        with right:
            _bars(unit_frame, STAT_BY_NAME["regret_rate"], behind="regrets", unit=unit)
    st.caption(
        f"Click a bar to list the hands behind it. Grey bars and `*`: fewer than "
        f'{SMALL_SAMPLE} chances, a small sample. "No chances": nothing to count yet.'
    )
    _answers(frame)
    if len(by_unit) > 1:  # a table per unit: no row adds a penalty point to a life
        for unit, unit_frame in by_unit.items():
            st.subheader(f"The numbers in {unit}, with done / opportunities")
            _numbers(unit_frame, STATS)
    else:
        st.subheader("The numbers, with done / opportunities")
        _numbers(frame, STATS)
    _hands_behind(frame["player"].to_list())


def _hands_behind(names: list[str]) -> None:
    """The hands behind one player's number, each linking to its replay."""
    if st.session_state.get("who") not in names:
        st.session_state.pop("who", None)
    left, right = st.columns([1, 2])
    who = left.selectbox("Hands behind the numbers of", names, key="who")
    kind = right.radio(
        "Which hands", list(BEHIND), format_func=lambda k: BEHIND[k][0], key="behind",
        horizontal=True,
    )  # fmt: skip
    label = BEHIND[kind][0]
    hands = ask(current_path(), behind, kind, who, chosen_games())
    st.markdown(f"**{md(who)}'s {label}** ({len(hands)} shown, at most 50)")
    links = [
        # The link opens the replay at the knock or fold itself (its step is its seq).
        f"- [{md(r['game'])} · hand {r['hand']}](replay?game={quote(r['game_id'], safe='')}"
        f"&hand={r['hand']}&step={r['seq']}) — {md(r['what'] or '')}"
        for r in hands.iter_rows(named=True)
    ]
    st.markdown("\n".join(links) or f"No {label} yet.")


def _pick_bar(chart_key: str, behind: str) -> None:
    """A click on a bar: list that player's hands behind that chart's number."""
    points = st.session_state[chart_key].selection.get("bar") or []
    if points:
        st.session_state["who"] = points[0]["player"]
        st.session_state["behind"] = behind


def _bars(
    frame: pl.DataFrame,
    stat: Stat,
    *,
    behind: str | None = None,
    total: bool = False,
    unit: str | None = None,
) -> None:
    """A bar per player for a statistic of the registry, labelled done/opportunities.

    `total`: the bar is what was done in all (e.g. everything folding cost), not the rate.
    `unit`: what an amount is counted in (penalty points, lives), said in the title. A small
    sample is grey and starred; a player with no chance gets no bar and says so; the whole
    column of a player is clickable (a bar at 0 too).
    """
    percent = stat.unit == "%" and not total
    what = f"{stat.label} in all" if total else stat.label
    title = f"{what} ({unit})" if unit and not percent else what
    rows = []
    for row in frame.iter_rows(named=True):
        d, o = row[stat.done], row[stat.opportunities]
        rate = stat.value(d, o)
        small = stat.is_small(o)
        if total:
            value, label = float(d), f"{d} in {o}{'*' if small else ''}"
            shown = f"{d} {unit or ''} in {o} {stat.opportunities}".replace("  ", " ")
        elif rate is None:
            value, label, shown = 0.0, "no chances", "no chances yet"
        else:
            value = 100 * rate if percent else rate
            count = f"{d:.1f}" if not float(d).is_integer() else str(int(d))  # accuracy points
            label = f"{count}/{o}{'*' if small else ''}"
            shown = stat.cell(d, o)
        rows.append(
            {"player": row["player"], "value": round(value, 2), "label": label,
             "shown": shown, "small": small}
        )  # fmt: skip
    definition = stat.definition.replace("lives or points", unit) if unit else stat.definition
    if total:
        definition = (
            f"what {stat.done.replace('_', ' ')} came to in all, over the {stat.opportunities}"
        )
    st.caption(f"{title}: {definition}.")
    axis = f"{title} (%)" if percent else title
    top = 100.0 if percent else max(1.0, max(r["value"] for r in rows))  # an axis even at 0
    for r in rows:
        r["top"] = top
    spec = _bar_spec(rows, title=title, axis=axis, what=what, top=top)
    if behind is None:  # nothing to list behind these bars
        st.vega_lite_chart(spec, width="stretch")
        return
    key = f"bars_{behind}_{stat.name}_{'total' if total else 'rate'}_{unit or ''}"
    st.vega_lite_chart(
        spec, width="stretch", key=key,
        on_select=partial(_pick_bar, key, behind), selection_mode="bar",
    )  # fmt: skip


def _bar_spec(
    rows: list[dict[str, object]], *, title: str, axis: str, what: str, top: float
) -> dict[str, object]:
    """The Vega-Lite spec of a bar chart per player, written out: building it with Altair
    (and its schema validation) took most of the page's time at every run.

    Layers: the bars (a small sample grey), the done/opportunities labels, "no chances"
    upright in an empty column, and on top a transparent full-height column per player
    that takes the click, so that a bar at 0 lists its hands too."""
    x = {"field": "player", "type": "nominal", "title": None, "sort": None,
         "axis": {"labelAngle": -30, "labelLimit": 90}}  # fmt: skip
    tooltip = [
        {"field": "player", "type": "nominal", "title": "player"},
        {"field": "shown", "type": "nominal", "title": what},
    ]
    scale = {"domain": [0, top], "nice": True}

    def layer(mark: dict[str, object], **encoding: object) -> dict[str, object]:
        return {"mark": mark, "encoding": {"x": x, "tooltip": tooltip, **encoding}}

    value = {"field": "value", "type": "quantitative", "scale": scale}
    label = {"field": "label", "type": "nominal"}
    bars = layer(
        {"type": "bar", "cursor": "pointer"},
        y={**value, "title": axis},
        color={"condition": {"test": "datum.small", "value": "#b9a3a3"}, "value": "#7a1f1f"},
        opacity={"condition": {"param": "bar", "value": 1.0}, "value": 0.45},
    )
    labels = {
        **layer({"type": "text", "dy": -8}, y=value, text=label),
        "transform": [{"filter": "datum.label != 'no chances'"}],
    }
    none = {
        **layer(
            {
                "type": "text",
                "angle": 270,
                "align": "left",
                "dx": -4,
                "color": "#666",
                "fontSize": 11,
            },
            y=value,
            text=label,
        ),
        "transform": [{"filter": "datum.label == 'no chances'"}],
    }
    column = {
        **layer(
            {"type": "bar", "cursor": "pointer", "opacity": 0.001},
            y={"field": "top", "type": "quantitative", "scale": scale},
        ),
        "name": "columns",
    }
    return {
        "data": {"values": rows},
        "height": 260,
        "title": title,
        "layer": [bars, labels, none, column],
        "params": [
            {"name": "bar", "select": {"type": "point", "fields": ["player"], "on": "click"},
             "views": ["columns"]}
        ],
    }  # fmt: skip


players()
