"""The Players page: bluffs, answers to knocks and what folding cost, every bar with its
hands behind it."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, datetime
from functools import partial
from pathlib import Path
from typing import Any
from urllib.parse import quote

import polars as pl
import streamlit as st

from kroeg.analytics import formats
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
from kroeg.analytics.words import ENGLISH, Words
from kroeg.dashboard.data import ask, figures, toepen_units
from kroeg.dashboard.filters import chosen_games, current_path, day_text, empty_state
from kroeg.dashboard.stat_words import stat_definition, stat_label
from kroeg.dashboard.words import page_words
from kroeg.recorder.text import markdown_text as md


def players() -> None:
    """Bluff rate, bluff success and fold cost per player, with the hands behind them."""
    w = page_words()
    st.title(w.say("players_title", "Players"))
    if empty_state():
        return
    frame = _mine(_stats(current_path(), "toepen"))
    troef = _mine(_stats(current_path(), "troefcall"))
    if frame.is_empty() and troef.is_empty():
        st.info(w.say("players_no_hands", "No hands match the filters."))
        return
    if not frame.is_empty():
        if not troef.is_empty():
            st.header("Toepen")
        _toepen_players(w, frame)
    if not troef.is_empty():
        _troefcall_players(w, troef)
    _ratings(w, frame.is_empty(), troef.is_empty())


def _unit(w: Words, unit: str) -> str:
    """What a rule set's scores count (`penalty points`, `lives`), in the page's language
    (the bulletin's words for them)."""
    return w(unit) if unit in ENGLISH else unit


def _chart_config(w: Words) -> dict[str, Any]:
    """A chart's numbers (its axes) as the page's language writes them: `0,5`, `1.000`."""
    from babel.numbers import get_decimal_symbol, get_group_symbol

    number = {
        "decimal": get_decimal_symbol(w.lang),
        "thousands": get_group_symbol(w.lang),
        "grouping": [3],
        "currency": ["", ""],
    }
    return {"locale": {"number": number}}


def _ratings(w: Words, no_toepen: bool, no_troefcall: bool) -> None:
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
            game = game_type.capitalize()  # the game's name, in every language
            if bots:
                heading = w.say(
                    "players_rating_bots",
                    "Rating over time: {game}, the bots' games, rated apart from the club's",
                    game=game,
                )
            else:
                heading = w.say(
                    "players_rating_club", "Rating over time: {game}, the club's games", game=game
                )
            st.subheader(heading)
            _rating_chart(w, chart)


def _when(started: datetime | date | None, lang: str) -> str | None:
    """When a game was played, as the page's language writes a day (and its hour)."""
    if started is None:
        return None
    day = day_text(started, lang)
    return f"{day}, {started:%H:%M}" if isinstance(started, datetime) else day


def _amount(w: Words, value: float, unit: str) -> str:
    """`1 penalty point`, `3 lives`, `2,5 strafpunten`: an amount in its unit, the unit's
    noun in the form the number takes."""
    if not value.is_integer():
        return f"{w.number(value, 1)} {_unit(w, unit)}"
    n = int(value)
    if unit == "lives":
        return w.say_n("amount_lives", "{n} life", "{n} lives", n)
    if unit == "points":
        return w.say_n("amount_points", "{n} point", "{n} points", n)
    return w.say_n("amount_penalty_points", "{n} penalty point", "{n} penalty points", n)


def _rating_chart(w: Words, chart: pl.DataFrame) -> None:
    """A line per player (the rating μ after each game) in a band of μ ± INTERVAL σ."""
    st.caption(
        w.say(
            "players_rating_caption",
            "Each player's rating after each game (a Bayesian Plackett\u2011Luce rating of who "
            "places last: higher is better), with its interval (about 95 %). "
            "A rating marked ? is provisional: fewer than {games} games. Every game counts, "
            "whatever the date filter.",
            games=formats.integer(PROVISIONAL_GAMES, w.lang),
        )
    )
    rows = [
        {"player": r["player"], "game": r["game"], "games": r["games"],
         "when": _when(r["started_at"], w.lang),
         "rating": round(r["mu"], 2), "low": round(r["low"], 2), "high": round(r["high"], 2),
         "provisional": bool(r["provisional"]),
         "shown": w.say_n(
             "players_rating_shown", "{rating} ± {interval} after {n} game",
             "{rating} ± {interval} after {n} games", int(r["games"]),
             rating=w.number(r["mu"], 1) + ("?" if r["provisional"] else ""),
             interval=w.number(INTERVAL * r["sigma"], 1),
         )}
        for r in chart.iter_rows(named=True)
    ]  # fmt: skip
    x = {
        "field": "game",
        "type": "quantitative",
        "title": w.say("players_rating_axis_game", "game (in the order played)"),
        "axis": {"format": "d", "tickMinStep": 1},  # games are counted whole
    }
    # The legend under the chart, in columns, its dots solid (not the band's faint fill)
    # and a long name cut short: at the side, a phone's plot shrank to a third.
    legend = {"orient": "bottom", "columns": 2, "symbolOpacity": 1, "labelLimit": 120}
    named = len({r["player"] for r in rows})
    color = {"field": "player", "type": "nominal", "title": None, "legend": legend}
    rating = w.say("players_rating_axis", "rating")
    st.vega_lite_chart(
        {
            "data": {"values": rows},
            "height": 200 + 30 * ((named + 1) // 2),  # the plot, and the legend's rows
            "config": _chart_config(w),
            "layer": [
                {
                    # No tooltip of its own (Vega-Lite gave the band's low bound as
                    # "rating"): the line's points say it, in words.
                    "mark": {"type": "area", "opacity": 0.15, "tooltip": False},
                    "encoding": {
                        "x": x,
                        "color": color,
                        "y": {
                            "field": "low",
                            "type": "quantitative",
                            "title": rating,
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
                            {"field": "player", "title": w("player")},
                            {"field": "when", "title": w.say("players_rating_played", "played")},
                            {"field": "shown", "title": rating},
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
    return frame.filter(pl.col("name").is_in(people)) if people else frame  # bots' rows too


def _by_unit() -> dict[str, pl.DataFrame]:
    """Toepen figures per unit of payment (games.unit: lives, penalty points), for the
    games the filters let through: a fold's cost in lives and one in points are never
    added."""
    frames = {
        unit: _mine(_stats(current_path(), "toepen", unit))
        for unit in toepen_units(current_path(), chosen_games())
    }
    return {unit: f for unit, f in frames.items() if not f.is_empty()}


def _troefcall_players(w: Words, frame: pl.DataFrame) -> None:
    """Troefcall: calls made good, kap partij and tricks, per player."""
    st.header("Troefcall")
    left, right = st.columns(2)
    with left:
        _bars(w, frame, STAT_BY_NAME["calls_made_rate"])
    with right:
        _bars(w, frame, STAT_BY_NAME["kap_rate"])
    _numbers(w, frame, TROEFCALL_STATS)


def _answers(w: Words, frame: pl.DataFrame) -> None:
    """Answering knocks: accuracy and blunders per player, and accuracy month by month."""
    st.subheader(w.say("players_answers", "Answering knocks"))
    st.caption(
        w.say(
            "players_answers_caption",
            "Every answer to a knock (stay or fold) is judged on what the player could see: "
            "the expected cost of staying against the price of a fold. 100% accuracy is the "
            "better answer every time; a blunder lost half the stake or more in expectation "
            "(docs/STATS.md).",
        )
    )
    left, right = st.columns(2)
    with left:
        _bars(w, frame, STAT_BY_NAME["answer_accuracy"])
    with right:
        _bars(w, frame, STAT_BY_NAME["blunder_rate"], behind="blunders")
    accuracy = STAT_BY_NAME["answer_accuracy"]
    months = _mine(ask(current_path(), player_stats, "month", None, None, None, chosen_games()))
    months = months.filter(pl.col(accuracy.opportunities) > 0)
    if months["month"].n_unique() < 2:
        return  # one month: the bars say it all
    # A month by its name in the page's language (`2026-10` is the query's, sorted so);
    # the games without a start time last.
    undated = w.say("players_month_undated", "undated")
    names = {
        m: undated if m is None else w.month(date.fromisoformat(f"{m}-01"))
        for m in months["month"].unique()
    }
    rows = [
        {"month": names[r["month"]], "player": r["player"],
         "accuracy": round(100 * r[accuracy.name], 1),
         "shown": accuracy.cell(r[accuracy.done], r[accuracy.opportunities], lang=w.lang)}
        for r in months.iter_rows(named=True)
    ]  # fmt: skip
    label = stat_label(w, accuracy)
    st.caption(
        w.say("players_accuracy_months", "Accuracy month by month (answers judged that month).")
    )
    st.vega_lite_chart(
        {
            "data": {"values": rows},
            "config": _chart_config(w),
            "mark": {"type": "line", "point": True},
            "encoding": {
                "x": {
                    "field": "month",
                    "type": "ordinal",
                    "title": None,
                    "sort": [names[m] for m in sorted(names, key=lambda m: (m is None, m or ""))],
                },
                "y": {
                    "field": "accuracy",
                    "type": "quantitative",
                    "title": w.say("players_chart_percent", "{title} (%)", title=label),
                    "scale": {"domain": [0, 100]},
                },
                "color": {"field": "player", "type": "nominal", "title": None},
                "tooltip": [
                    {"field": "player", "title": w("player")},
                    {"field": "month", "title": w.say("players_month", "month")},
                    {"field": "shown", "title": label},
                ],
            },
        },
        width="stretch",
    )


def _numbers(w: Words, frame: pl.DataFrame, stats: Sequence[Stat]) -> None:
    """Every figure as done/opportunities, a row per player."""
    player, hands = w("player"), w("hands")
    labels = [stat_label(w, stat) for stat in stats]
    rows = []
    for row in frame.iter_rows(named=True):
        cells = {player: row["player"], hands: row["hands"]}
        for stat, label in zip(stats, labels, strict=True):
            cells[label] = stat.cell(row[stat.done], row[stat.opportunities], lang=w.lang)
        rows.append(cells)
    st.dataframe(pl.DataFrame(rows), hide_index=True, width="stretch")


def _toepen_players(w: Words, frame: pl.DataFrame) -> None:
    """Toepen: bluffing and folding, with the hands behind every bar."""
    st.subheader(w.say("players_bluffing", "Bluffing"))
    st.caption(
        w.say(
            "players_bluffing_caption",
            "A knock is a bluff when the knocker's chance of winning, from the cards they "
            "could see, was below their fair share: what an average seat expects with that "
            "many players still in (1 in that number where the last trick wins, all but 1 in "
            "it where the last trick loses). It succeeded when every opponent (every other "
            "side, in team toepen) folded to it (docs/STATS.md).",
        )
    )
    left, right = st.columns(2)
    with left:
        _bars(w, frame, STAT_BY_NAME["bluff_rate"], behind="bluffs")
    with right:
        _bars(w, frame, STAT_BY_NAME["bluff_success"], behind="won")
    by_unit = _by_unit()
    for unit, unit_frame in by_unit.items():
        st.subheader(
            w.say("players_fold_cost_in", "What folding cost, in {unit}", unit=_unit(w, unit))
        )
        left, middle, right = st.columns(3)
        with left:
            _bars(w, unit_frame, STAT_BY_NAME["cost_per_fold"], behind="folds", unit=unit)
        with middle:
            _bars(
                w, unit_frame, STAT_BY_NAME["cost_per_fold"], behind="folds", total=True,
                unit=unit,
            )  # fmt: skip
        with right:
            _bars(w, unit_frame, STAT_BY_NAME["regret_rate"], behind="regrets", unit=unit)
    st.caption(
        w.say(
            "players_bars_caption",
            "Click a bar to list the hands behind it. Grey bars and `*`: fewer than {small} "
            'chances, a small sample. "No chances": nothing to count yet.',
            small=formats.integer(SMALL_SAMPLE, w.lang),
        )
    )
    _answers(w, frame)
    if len(by_unit) > 1:  # a table per unit: no row adds a penalty point to a life
        for unit, unit_frame in by_unit.items():
            st.subheader(
                w.say(
                    "players_numbers_in",
                    "The numbers in {unit}, with done / opportunities",
                    unit=_unit(w, unit),
                )
            )
            _numbers(w, unit_frame, STATS)
    else:
        st.subheader(w.say("players_numbers", "The numbers, with done / opportunities"))
        _numbers(w, frame, STATS)
    _hands_behind(w, frame)


def _kinds(w: Words) -> dict[str, str]:
    """The hands behind a number (BEHIND's kinds), in words."""
    return {
        "bluffs": w.say("players_kind_bluffs", "bluffs"),
        "won": w.say("players_kind_won", "bluffs that won (everyone folded)"),
        "folds": w.say("players_kind_folds", "folds"),
        "regrets": w.say("players_kind_regrets", "regrettable folds"),
        "blunders": w.say("players_kind_blunders", "blunders answering a knock"),
    }


def _what(w: Words, kind: str, r: dict[str, Any]) -> str:
    """What one hand behind a number was (the analysis' verdict on the knock, the fold or
    the answer), in the page's language."""
    if kind in ("bluffs", "won"):
        figures_ = {
            "stake": formats.integer(int(r["stake"]), w.lang),
            "strength": w.number(r["strength"], 2),
            "fair": w.number(r["fair_share"], 2),
        }
        if kind == "won":
            return w.say(
                "players_what_bluff_won",
                "stake {stake}, strength {strength} below the fair share {fair}; the folds "
                "paid {paid} in all",
                paid=formats.integer(int(r["folded_to_it"]), w.lang),
                **figures_,
            )
        if r["all_folded"]:
            return w.say(
                "players_what_bluff_folded",
                "stake {stake}, strength {strength} below the fair share {fair}, everyone folded",
                **figures_,
            )
        return w.say(
            "players_what_bluff",
            "stake {stake}, strength {strength} below the fair share {fair}",
            **figures_,
        )
    if kind in ("folds", "regrets"):
        cost = formats.integer(int(r["cost"]), w.lang)
        if kind == "regrets":
            return w.say(
                "players_what_regret", "the fold cost {cost}; playing on would have won", cost=cost
            )
        return w.say("players_what_fold", "the fold cost {cost}", cost=cost)
    stake, lost = formats.integer(int(r["stake"]), w.lang), w.number(r["ev_lost"], 1)
    if r["answer"] == "stay":
        return w.say(
            "players_what_blunder_stay",
            "stayed in at a stake of {stake}, losing {lost} in expectation",
            stake=stake,
            lost=lost,
        )
    return w.say(
        "players_what_blunder_fold",
        "folded at a stake of {stake}, losing {lost} in expectation",
        stake=stake,
        lost=lost,
    )


def _hands_behind(w: Words, frame: pl.DataFrame) -> None:
    """The hands behind one player's number (a row of `frame`: a bot named like a member
    is a row of its own, stats.bots_apart), each linking to its replay."""
    players = {r["player"]: (r["name"], r["bots"]) for r in frame.iter_rows(named=True)}
    names = list(players)
    if st.session_state.get("who") not in names:
        st.session_state.pop("who", None)
    kinds = _kinds(w)
    left, right = st.columns([1, 2])
    who = left.selectbox(w.say("players_who", "Hands behind the numbers of"), names, key="who")
    kind = right.radio(
        w.say("players_which", "Which hands"), list(BEHIND), format_func=kinds.__getitem__,
        key="behind", horizontal=True,
    )  # fmt: skip
    label = kinds[kind]
    name, bots = players[who]
    hands = ask(current_path(), behind, kind, name, chosen_games(), bots)
    st.markdown(
        w.say_n(
            "players_hands_shown",
            "**{player}'s {what}** ({n} shown, at most 50)",
            "**{player}'s {what}** ({n} shown, at most 50)",
            hands.height,
            player=md(who),
            what=label,
        )
    )
    links = []
    for r in hands.iter_rows(named=True):
        name = w.say(
            "players_hand_link", "{game} · hand {hand}", game=md(r["game"]), hand=r["hand"]
        )
        # The link opens the replay at the knock or fold itself (its step is its seq).
        address = f"replay?game={quote(r['game_id'], safe='')}&hand={r['hand']}&step={r['seq']}"
        links.append(f"- [{name}]({address}) — {md(_what(w, kind, r))}")
    st.markdown("\n".join(links) or w.say("players_none_yet", "No {what} yet.", what=label))


def _pick_bar(chart_key: str, behind: str) -> None:
    """A click on a bar: list that player's hands behind that chart's number."""
    points = st.session_state[chart_key].selection.get("bar") or []
    if points:
        st.session_state["who"] = points[0]["player"]
        st.session_state["behind"] = behind


def _bars(
    w: Words,
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
    unit_said = None if unit is None else _unit(w, unit)
    label_said = stat_label(w, stat)
    what = w.say("players_in_all", "{stat} in all", stat=label_said) if total else label_said
    if unit_said and not percent:
        title = w.say("players_chart_unit", "{what} ({unit})", what=what, unit=unit_said)
    else:
        title = what
    no_chances = w.say("players_no_chances", "no chances")
    rows = []
    for row in frame.iter_rows(named=True):
        d, o = row[stat.done], row[stat.opportunities]
        rate = stat.value(d, o)
        small = stat.is_small(o)
        star = "*" if small else ""
        if total:
            value = float(d)
            done = formats.integer(int(d), w.lang) if float(d).is_integer() else w.number(d, 1)
            label = w.say(
                "players_total_label", "{done} in {n}{small}",
                done=done, n=formats.integer(o, w.lang), small=star,
            )  # fmt: skip
            folds = w.say_n("players_n_folds", "{n} fold", "{n} folds", o)
            amount = _amount(w, float(d), unit) if unit else done
            shown = w.say("players_total_shown", "{amount} in {folds}", amount=amount, folds=folds)
        elif rate is None:
            value, label = 0.0, no_chances
            shown = w.say("players_no_chances_yet", "no chances yet")
        else:
            value = 100 * rate if percent else rate
            # accuracy points are fractions, to one decimal; a count as it is
            count = w.number(d, 1) if not float(d).is_integer() else str(int(d))
            label = f"{count}/{o}{star}"
            shown = stat.cell(d, o, lang=w.lang)
        rows.append(
            {"player": row["player"], "value": round(value, 2), "label": label,
             "shown": shown, "small": small, "none": rate is None and not total}
        )  # fmt: skip
    definition = stat_definition(w, stat, unit_said, total)
    st.caption(w.say("players_chart_caption", "{title}: {definition}.", title=title,
                     definition=definition))  # fmt: skip
    axis = w.say("players_chart_percent", "{title} (%)", title=title) if percent else title
    top = 100.0 if percent else max(1.0, max(r["value"] for r in rows))  # an axis even at 0
    for r in rows:
        r["top"] = top
    spec = _bar_spec(w, rows, title=title, axis=axis, what=what, top=top)
    if behind is None:  # nothing to list behind these bars
        st.vega_lite_chart(spec, width="stretch")
        return
    key = f"bars_{behind}_{stat.name}_{'total' if total else 'rate'}_{unit or ''}"
    st.vega_lite_chart(
        spec, width="stretch", key=key,
        on_select=partial(_pick_bar, key, behind), selection_mode="bar",
    )  # fmt: skip


def _bar_spec(
    w: Words, rows: list[dict[str, object]], *, title: str, axis: str, what: str, top: float
) -> dict[str, object]:
    """The Vega-Lite spec of a bar chart per player, written out: building it with Altair
    (and its schema validation) took most of the page's time at every run.

    Layers: the bars (a small sample grey), a row per player; the done/opportunities
    labels after them ("no chances" in an empty row); and on top a transparent
    full-length bar per player that takes the click, so that a bar at 0 lists its hands
    too."""
    # A row per player, across: every name is shown whole on its own line (a column's
    # name under it was dropped where the names crowd, and its label ran into the next).
    y = {"field": "player", "type": "nominal", "title": None, "sort": None,
         "axis": {"labelLimit": 130, "labelOverlap": False}}  # fmt: skip
    tooltip = [
        {"field": "player", "type": "nominal", "title": w("player")},
        {"field": "shown", "type": "nominal", "title": what},
    ]
    scale = {"domain": [0, top], "nice": True}

    def layer(mark: dict[str, object], **encoding: object) -> dict[str, object]:
        return {"mark": mark, "encoding": {"y": y, "tooltip": tooltip, **encoding}}

    value = {"field": "value", "type": "quantitative", "scale": scale}
    label = {"field": "label", "type": "nominal"}
    bars = layer(
        {"type": "bar", "cursor": "pointer"},
        x={**value, "title": axis, "axis": {"orient": "top"}},
        color={"condition": {"test": "datum.small", "value": "#b9a3a3"}, "value": "#7a1f1f"},
        opacity={"condition": {"param": "bar", "value": 1.0}, "value": 0.45},
    )
    # The labels after the bar's end (done/opportunities), "no chances" in an empty row.
    labels = layer(
        {"type": "text", "align": "left", "dx": 4, "fontSize": 11},
        x=value,
        text=label,
        color={"condition": {"test": "datum.none", "value": "#666"}, "value": "#333"},
    )
    column = {
        **layer(
            {"type": "bar", "cursor": "pointer", "opacity": 0.001},
            x={"field": "top", "type": "quantitative", "scale": scale},
        ),
        "name": "columns",
    }
    return {
        "data": {"values": rows},
        "height": {"step": 24},
        "padding": {"left": 4, "right": 56, "top": 4, "bottom": 4},  # room for a label
        "title": title,
        "config": _chart_config(w),
        "layer": [bars, labels, column],
        "params": [
            {"name": "bar", "select": {"type": "point", "fields": ["player"], "on": "click"},
             "views": ["columns"]}
        ],
    }  # fmt: skip


players()
