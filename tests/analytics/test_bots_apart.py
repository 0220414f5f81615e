"""A bot named like a member is another player (analytics.stats.bots_apart).

`kroeg simulate` names its bots Anna, Ben, Carla, ... as the demo club's members are
named: their figures were added to the members' wherever both kinds of game were shown
(`kroeg stats` and `info` on the demo, the dashboard with the bots' games shown, a season
or a bulletin with the bots counted).
"""

from __future__ import annotations

from pathlib import Path

import duckdb
import polars as pl

from kroeg.analytics.evenings import BOT_MARK, month_games
from kroeg.analytics.newsletter import _summary
from kroeg.analytics.pages import behind, counts_before_games
from kroeg.analytics.ratings import rating_chart, update_ratings
from kroeg.analytics.season import standings
from kroeg.analytics.stats import player_stats, ruleset_totals, troefcall_stats
from kroeg.analytics.views import connect
from kroeg.analytics.words import words
from kroeg.recorder.records import GameRecord
from kroeg.recorder.store import Dataset
from tests.analytics.test_season import SEASON, game


def _connect(tmp_path: Path, games: list[GameRecord]) -> duckdb.DuckDBPyConnection:
    dataset = Dataset(tmp_path / "club")
    dataset.write(games)
    return connect(dataset)


# The bots' game first: a member's figures before their own game must not hold it.
BOTS = game("bots", "2026-11-06 19:00", loser="Anna", source="engine")
CLUB = game("club", "2026-11-06 21:00", loser="Ben")
BOTS_TROEF = game("bots-t", "2026-11-06 19:30", winner="Anna", preset="troefcall",
                  source="engine")  # fmt: skip
CLUB_TROEF = game("club-t", "2026-11-06 22:00", winner="Anna", preset="troefcall")


def test_a_bot_named_like_a_member_has_figures_of_its_own(tmp_path: Path) -> None:
    con = _connect(tmp_path, [BOTS, CLUB, BOTS_TROEF, CLUB_TROEF])
    # Each game alone: one is the other's deal again, its players seated otherwise.
    alone = _connect(tmp_path / "alone", [CLUB])
    hands = dict(player_stats(alone).select("player", "hands").iter_rows())
    frame = player_stats(con)
    rows = {r["player"]: r for r in frame.iter_rows(named=True)}
    assert set(rows) == {"Anna", "Ben", "Carla", "Dan"} | {
        f"{p}{BOT_MARK}" for p in ("Anna", "Ben", "Carla", "Dan")
    }
    for member in ("Anna", "Ben", "Carla", "Dan"):
        bot = rows[f"{member}{BOT_MARK}"]
        assert (rows[member]["name"], rows[member]["bots"]) == (member, False)
        assert (bot["name"], bot["bots"]) == (member, True)
        assert rows[member]["hands"] == bot["hands"] == hands[member] > 0
    # Troefcall's figures, per player and per side, and `kroeg info`'s totals too.
    troef = troefcall_stats(con)["player"].to_list()
    assert "Anna" in troef and f"Anna{BOT_MARK}" in troef and len(troef) == 8
    sides = troefcall_stats(con, by="side")["player"].to_list()
    assert len(sides) == 4 and sum(s.endswith(BOT_MARK) for s in sides) == 2
    toepen, troefcall = ruleset_totals(con)
    assert {(r[1], r[3]) for r in toepen} == {
        *((p, hands[p]) for p in ("Anna", "Ben", "Carla", "Dan")),
        *((f"{p}{BOT_MARK}", hands[p]) for p in ("Anna", "Ben", "Carla", "Dan")),
    }
    assert len(troefcall) == 8


def test_the_bots_alone_keep_their_names(tmp_path: Path) -> None:
    con = _connect(tmp_path, [BOTS, BOTS_TROEF])
    assert sorted(player_stats(con)["player"]) == ["Anna", "Ben", "Carla", "Dan"]
    assert not any(r[1].endswith(BOT_MARK) for r in ruleset_totals(con)[0])
    # The dashboard's filters hide the bots' games where the club has some: a bot row is
    # still marked then, for it is another player than the member.
    con = _connect(tmp_path / "both", [BOTS, CLUB])
    assert sorted(player_stats(con, game_ids=["bots"])["player"]) == [
        f"{p}{BOT_MARK}" for p in ("Anna", "Ben", "Carla", "Dan")
    ]


def test_a_bots_hands_and_its_earlier_figures_are_its_own(tmp_path: Path) -> None:
    con = _connect(tmp_path, [BOTS, CLUB])
    club = behind(con, "folds", "Anna", None, bots=False)["game_id"].unique().to_list()
    bots = behind(con, "folds", "Anna", None, bots=True)["game_id"].unique().to_list()
    every = behind(con, "folds", "Anna", None)["game_id"].unique().to_list()
    assert set(club) <= {"club"} and set(bots) <= {"bots"} and set(every) == {*club, *bots}
    assert bots, "the bots' Anna folded in their game"
    # The club's game comes after the bots': none of its players has figures before it.
    earlier = counts_before_games(con, None)
    assert earlier.filter(pl.col("game_id") == "club").is_empty()


def test_a_season_and_a_bulletin_with_the_bots_counted_keep_them_apart(tmp_path: Path) -> None:
    con = _connect(tmp_path, [BOTS, CLUB])
    found = standings(con, SEASON, include_simulated=True)
    lost = {r["player"]: r["lost"] for r in found.evenings.iter_rows(named=True)}
    assert lost == {"Anna": 0, "Ben": 1, "Carla": 0, "Dan": 0, f"Anna{BOT_MARK}": 1,
                    f"Ben{BOT_MARK}": 0, f"Carla{BOT_MARK}": 0, f"Dan{BOT_MARK}": 0}  # fmt: skip
    told = month_games(con, "2026-11", with_simulated=True)
    summary = _summary(con, told, words("en"))
    assert summary.endswith(f"Games lost: Anna{BOT_MARK} 1, Ben 1."), summary


def test_the_bots_rating_chart_names_them_as_bots(tmp_path: Path) -> None:
    """The Players page's chart of the bots' ratings: its legend said "Anna", the member's
    name, while every other figure of that bot read "Anna (bot)"."""
    both = Dataset(tmp_path / "both")
    both.write([BOTS, CLUB])
    update_ratings(both)
    con = connect(both)
    bots = rating_chart(con, "toepen", True)
    assert set(bots["player"]) == {f"{p}{BOT_MARK}" for p in ("Anna", "Ben", "Carla", "Dan")}
    assert set(rating_chart(con, "toepen", True, ["Anna"])["player"]) == {f"Anna{BOT_MARK}"}
    assert set(rating_chart(con, "toepen", False)["player"]) == {"Anna", "Ben", "Carla", "Dan"}
    alone = Dataset(tmp_path / "alone")
    alone.write([BOTS])
    update_ratings(alone)
    assert set(rating_chart(connect(alone), "toepen", True)["player"]) == {
        "Anna",
        "Ben",
        "Carla",
        "Dan",
    }
