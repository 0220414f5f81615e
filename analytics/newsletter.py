"""The month in the club bulletin: Markdown, one standalone HTML page with charts, and CSV.

Content: the month in a paragraph (evenings, games, hands, venues, who won and lost
games); for Toepen a leaderboard per rule set (points and lives never added, ranked
from MIN_RANKED_HANDS hands), the month's awards in sentences naming each game by its
evening (biggest bluffer, best bluff, costliest and most regrettable fold, most calls
made good in Troefcall, the most accurate player answering knocks and the blunder of the
month, judged on what the player could see), the hand of the month (the highest stake)
told in at most STORY_LINES lines, and a table per player; for Troefcall the partnerships'
calls made good, kap partij, baunie and points, and a table per player. Every name is escaped in
HTML; CSV cells that a spreadsheet would run as formulas are neutralised. The
HTML loads nothing from the network: the charts are inline SVG. The CSV holds
the Toepen table, or the Troefcall players' in a month without Toepen.

It tells the club's games: those the bots played (analytics.evenings.simulated) are left
out of every part, and counted only when asked for (`include_simulated`); a line under
the month says which. A month of bot games alone says there were no club games.
"""

from __future__ import annotations

import dataclasses
import html
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import duckdb
import polars as pl

from kroeg.analytics.club import CLUB_FILE, read_club
from kroeg.analytics.evenings import (
    MonthGames,
    evening,
    game_names,
    month_games,
    month_range,
    simulated,
)
from kroeg.analytics.formats import day_name, integer, rounded
from kroeg.analytics.moments import biggest_bluff, blunder, costliest_fold, regrettable_folds
from kroeg.analytics.ratings import month_movers
from kroeg.analytics.report import stats_csv
from kroeg.analytics.season import Standings, not_ranked, points_text, rules_sentence, standings
from kroeg.analytics.stats import (
    SMALL_SAMPLE,
    STAT_BY_NAME,
    bots_apart,
    player_stats,
    troefcall_stats,
)
from kroeg.analytics.verdict_words import shown_figures
from kroeg.analytics.words import LANGUAGES, Words, words
from kroeg.parsers.render import describe_events, pretty
from kroeg.recorder.atomic import write_text_atomic
from kroeg.recorder.cards import Card, mark_red_suits
from kroeg.recorder.errors import NotFoundError, UsageError
from kroeg.recorder.records import GameRecord, seats_name
from kroeg.recorder.referee import Replay
from kroeg.recorder.store import Dataset
from kroeg.recorder.text import markdown_plain as md

__all__ = ["Newsletter", "build", "write"]


@dataclass(frozen=True)
class Newsletter:
    """Everything the bulletin says about one month."""

    month: str
    title: str
    #: Every Toepen player's hands and bluffs of the month, all rule sets: counts that
    #: have no unit (nothing in lives or penalty points is added across rule sets).
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
    #: The language it is written in (analytics/words.py).
    lang: str = "en"
    #: Team toepen: each partnership's figures per rule set (rule sets played in teams).
    side_frames: dict[str, pl.DataFrame] = field(default_factory=dict)
    #: The games told, and the month's simulated games left out or counted.
    told: MonthGames | None = None
    #: What each Toepen rule set's scores count (games.unit: `penalty points`, `lives`),
    #: and Troefcall's (`points`): from the rule parameters, never from a name.
    units: dict[str, str] = field(default_factory=dict)
    troefcall_unit: str = ""
    #: The most accurate player answering knocks, and the month's blunder (issue 28).
    accurate: dict[str, Any] | None = None
    blunder: dict[str, Any] | None = None
    #: The players dealt the best and the worst cards for their hands (luck per hand).
    luckiest: dict[str, Any] | None = None
    unluckiest: dict[str, Any] | None = None
    #: The rating that rose most and the one that fell most over the month's games
    #: (analytics.ratings.month_movers), each only if it moved that way.
    riser: dict[str, Any] | None = None
    faller: dict[str, Any] | None = None
    #: The club file's seasons the month is in, each to the month's end (analytics.season).
    seasons: tuple[Standings, ...] = ()

    @property
    def w(self) -> Words:
        return words(self.lang)


def _one(con: duckdb.DuckDBPyConnection, query: str, params: list[object]) -> dict[str, Any] | None:
    rows = con.sql(query, params=params).pl().to_dicts()
    return rows[0] if rows else None


#: The games the bulletin tells (analytics.evenings.month_games): its one parameter is
#: their ids, so that every part of it tells the same games.
_TOLD = "g.game_id IN (SELECT unnest(?::VARCHAR[]))"


def check_request(month: str, lang: str) -> None:
    """UsageError for a month that is not one (`2026-11`) or a language without words:
    what a bulletin is asked for, checked before any work is done for it."""
    month_range(month)
    if lang not in LANGUAGES:
        raise UsageError(
            f"no newsletter words for {lang!r}: expected one of {', '.join(LANGUAGES)}"
        )


def build(
    con: duckdb.DuckDBPyConnection,
    dataset: Dataset,
    month: str,
    lang: str = "en",
    include_simulated: bool = False,
) -> Newsletter:
    """Gather the month's figures (the dataset's derived facts must be up to date), to be
    written in `lang` (one of analytics.words.LANGUAGES); the club's games only, unless
    `include_simulated`."""
    check_request(month, lang)
    w = words(lang)
    told = month_games(con, month, with_simulated=include_simulated)
    first, ids = told.first, list(told.game_ids)
    players = player_stats(con, game_ids=ids)
    sides = troefcall_stats(con, by="side", game_ids=ids)
    troef_players = troefcall_stats(con, game_ids=ids)
    if players.is_empty() and sides.is_empty() and (told.game_ids or not told.left_out):
        raise NotFoundError(f"no finished hands in {month}")
    played = [name for name, frame in (("Toepen", players), ("Troefcall", sides))
              if not frame.is_empty()]  # fmt: skip
    sides = sides.sort(["points_per_hand", "player"], descending=[True, False])
    shown = [STAT_BY_NAME[n] for n in ("bluff_rate", "answer_accuracy", "luck_per_hand")]
    columns = dict.fromkeys(c for s in shown for c in (s.done, s.opportunities, s.name))
    players = players.select("player", "hands", *columns).sort("player")
    bluffer = _best(players, "bluff_rate")
    accurate = _best(players, "answer_accuracy")
    luckiest = _best(players, "luck_per_hand", beyond_zero=True)
    unluckiest = _best(players, "luck_per_hand", -1, beyond_zero=True)
    best_bluff = _one(con, biggest_bluff(_TOLD), [ids])
    costliest = _one(con, costliest_fold(_TOLD), [ids])
    top = _one(
        con,
        f"""SELECT h.game_id, h.hand, h.stake, g.players[h.end_seat + 1] AS ended_by
            FROM hands h JOIN games g USING (game_id)
            WHERE {_TOLD} AND h.finished
            ORDER BY h.stake DESC, g.started_at, h.game_id, h.hand LIMIT 1""",
        [ids],
    )
    moves: list[str] = []
    if top is not None:
        moves = hand_story(dataset.read_game(top["game_id"]), top["hand"], w)
    # The costliest fold says when it would have won: the most regrettable is another one.
    also_regret = costliest if costliest is not None and costliest["regret"] else None
    place = ("game_id", "hand", "seq")
    regret = next(
        (fold for fold in con.sql(regrettable_folds(_TOLD, limit=2), params=[ids]).pl().to_dicts()
         if also_regret is None or any(fold[k] != also_regret[k] for k in place)),
        None,
    )  # fmt: skip
    caller = None
    if not troef_players.is_empty():
        best = troef_players.filter(pl.col("calls") > 0).sort(
            ["calls_made", "calls", "player"], descending=[True, False, False]
        )
        caller = best.row(0, named=True) if best.height else None
    if played:
        title = w("title", games=f" {w('and')} ".join(played), month=w.month(first))
    else:  # the bots played, the club did not
        title = w("title_no_games", month=w.month(first))
    frames, units = _rule_set_frames(con, told)
    side_frames, side_units = _rule_set_frames(con, told, by="side")
    units.update(side_units)  # a rule set's unit is the same whoever plays it
    troefcall_unit = con.sql(
        f"SELECT string_agg(DISTINCT unit, ', ') FROM games AS g "
        f"WHERE game_type = 'troefcall' AND {_TOLD}",
        params=[ids],
    ).fetchall()[0][0]
    boards = _boards(frames)
    movers = month_movers(con, ids)  # the biggest rise first
    rises = [m for m in movers if float(m["change"]) > 0]  # type: ignore[arg-type]
    falls = [m for m in movers if float(m["change"]) < 0]  # type: ignore[arg-type]
    return Newsletter(
        month, title, players, bluffer, best_bluff, costliest, top, moves, sides, troef_players,
        summary=_summary(con, told, w), boards=boards, board_frames=frames,
        names=_game_names(con, told, w), regret=regret, caller=caller, lang=lang,
        side_frames=side_frames, told=told, units=units, troefcall_unit=troefcall_unit or "",
        accurate=accurate, blunder=_one(con, blunder(_TOLD), [ids]), luckiest=luckiest,
        unluckiest=unluckiest, riser=rises[0] if rises else None,
        faller=falls[-1] if falls else None,
        seasons=_seasons(con, dataset, told, include_simulated),
    )  # fmt: skip


def _seasons(
    con: duckdb.DuckDBPyConnection, dataset: Dataset, told: MonthGames, include_simulated: bool
) -> tuple[Standings, ...]:
    """Each season of the club file (docs/SEASONS.md) the month lies in, its table as it
    stands at the month's end; none without a club file. A club file that cannot be read
    is refused, as `kroeg standings` refuses it."""
    path = dataset.path / CLUB_FILE
    if not path.exists():
        return ()
    found = []
    for season in read_club(path).seasons:
        if season.first <= told.last and season.last >= told.first:
            so_far = dataclasses.replace(season, last=min(season.last, told.last))
            table = standings(con, so_far, include_simulated)
            if not table.table.is_empty():
                found.append(table)
    return tuple(found)


def _best(
    players: pl.DataFrame, name: str, sign: int = 1, beyond_zero: bool = False
) -> dict[str, Any] | None:
    """The player with the highest rate of the registry's statistic `name` (the biggest
    bluffer: `bluff_rate`; the most accurate: `answer_accuracy`; the luckiest:
    `luck_per_hand`), or the lowest with `sign` -1, among the players whose sample it does
    not call small; more done, then the name, break ties. With `beyond_zero`, None where
    that rate is not above 0 (below, with `sign` -1): the unluckiest had worse cards than
    an average hand."""
    s = STAT_BY_NAME[name]
    rows = [r for r in players.iter_rows(named=True) if not s.is_small(r[s.opportunities])]
    rows.sort(key=lambda r: (-sign * (s.value(r[s.done], r[s.opportunities]) or 0.0),
                             -sign * r[s.done], r["player"]))  # fmt: skip
    if not rows:
        return None
    if beyond_zero and sign * (s.value(rows[0][s.done], rows[0][s.opportunities]) or 0.0) <= 0:
        return None
    return rows[0]


#: Fewer hands than this in a month and a player is listed under the leaderboard, not ranked.
MIN_RANKED_HANDS = 10

#: The lines of the hand of the month's story: at most this many.
STORY_LINES = 15


def _game_names(con: duckdb.DuckDBPyConnection, told: MonthGames, w: Words) -> dict[str, str]:
    """Each game of the month as a club names it (its name, analytics.evenings.game_names,
    in prose): `the game of Fri 20 Nov at Café De Kroeg (Anna, Ben, Carla, Dan)`, or `game 2
    of Fri 20 Nov, 20:30 at …` on an evening of several games."""
    said = {}
    for game_id, name in game_names(con, list(told.game_ids)).items():
        day = day_name(name.day, w.lang) if name.day else w("undated")
        where = w("at_venue", venue=name.venue) if name.venue else ""
        who = ", ".join(name.players)
        if name.of > 1:
            hour = f", {name.time}" if name.time else ""
            said[game_id] = w("nth_game_name", number=name.number, day=day, hour=hour,
                              venue=where, players=who)  # fmt: skip
        else:
            said[game_id] = w("game_name", day=day, venue=where, players=who)
    return said


def _summary(con: duckdb.DuckDBPyConnection, told: MonthGames, w: Words) -> str:
    """The month in one paragraph."""
    ids = list(told.game_ids)
    row = _one(
        con,
        f"""SELECT count(DISTINCT {evening("g")}) AS evenings,
                   count(*) AS games,
                   (SELECT count(*) FROM hands h JOIN games g USING (game_id)
                    WHERE {_TOLD} AND h.finished) AS hands,
                   list_sort(list_distinct(list(g.venue) FILTER (WHERE g.venue IS NOT NULL)))
                       AS venues
            FROM games g WHERE {_TOLD}""",
        [ids, ids],
    )
    if row is None or not row["games"]:
        return w("no_club_games", month=w.month(told.first))
    # A side's every player is credited (a Troefcall or team game is won by a side), and
    # a bot named like a member is another player (stats.bots_apart).
    ends = bots_apart(
        con,
        con.sql(
            f"""SELECT unnest(r.winners || r.losers) AS player,
                   unnest(list_transform(r.winners, lambda x: true)
                          || list_transform(r.losers, lambda x: false)) AS won,
                   {simulated("g")} AS bots
            FROM game_results AS r JOIN games AS g USING (game_id)
            WHERE {_TOLD}""",
            params=[ids],
        ).pl(),
    )
    winners = Counter(ends.filter("won")["player"].to_list())
    losers = Counter(ends.filter(~pl.col("won"))["player"].to_list())
    parts = [
        w("summary", month=w.month(told.first),
          evenings=w.count(row["evenings"], "n_evenings"),
          games=w.count(row["games"], "n_games"),
          hands=w.count(row["hands"], "n_hands"))
        + (w("at_venues", venues=_and(row["venues"], w)) if row["venues"] else "")
        + "."
    ]  # fmt: skip
    if winners:
        parts.append(w("games_won", who=_counted(winners)))
    if losers:
        parts.append(w("games_lost", who=_counted(losers)))
    return " ".join(parts)


def _simulated_line(news: Newsletter) -> str:
    """The one line on the month's bot games: left out, or counted ("" without any)."""
    told, w = news.told, news.w
    if told is None or not told.simulated:
        return ""
    games = w.count(told.simulated, "n_games")
    return w("simulated_counted" if told.with_simulated else "simulated_left_out", games=games)


def _and(names: Sequence[str], w: Words) -> str:
    """`A, B and C`; `A; B, C and D` where a name holds a comma itself (a venue such as
    `Café De Kroeg, aan de bar`), so that each name still reads as one."""
    names = list(names)
    if len(names) == 1:
        return names[0]
    between = "; " if any("," in name for name in names) else ", "
    return between.join(names[:-1]) + f" {w('and')} " + names[-1]


def _counted(counts: Counter[str]) -> str:
    return ", ".join(
        f"{name} {n}" for name, n in sorted(counts.items(), key=lambda c: (-c[1], c[0]))
    )


def _rule_set_frames(
    con: duckdb.DuckDBPyConnection, told: MonthGames, by: str = "player"
) -> tuple[dict[str, pl.DataFrame], dict[str, str]]:
    """Every player's Toepen figures of the month per rule set (`by="side"`: every
    partnership's, in the rule sets played in teams), and what each one's scores count.

    A rule set is named with its variants (games.label: `lives + team-toepen`) and is
    one with its unit (games.unit): a name played with penalty points and with lives is
    two, `house (lives)` and `house (penalty points)`, never added."""
    teams = "AND teams IS NOT NULL" if by == "side" else ""
    rulesets = con.sql(
        f"""SELECT label AS ruleset, unit, list(game_id) AS games,
                   count(*) OVER (PARTITION BY label) AS units
            FROM games AS g
            WHERE game_type = 'toepen' AND {_TOLD} {teams}
            GROUP BY label, unit ORDER BY label, unit""",
        params=[list(told.game_ids)],
    ).pl()
    frames, units = {}, {}
    for r in rulesets.iter_rows(named=True):
        frame = player_stats(con, by=by, game_ids=r["games"])
        name = r["ruleset"] if r["units"] == 1 else f"{r['ruleset']} ({r['unit']})"
        if not frame.is_empty():
            frames[name], units[name] = frame, r["unit"]
    return frames, units


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


#: The event kinds the story tells (the cards played are left out: the decisions stay).
_STORY_KINDS = ("hand_start", "knock", "stay", "fold", "laundry", "armoede", "check", "pay",
                "win", "eliminated")  # fmt: skip


def hand_story(record: GameRecord, number: int, w: Words) -> list[str]:
    """The hand of the month told short (at most STORY_LINES lines) in `w`'s language:
    the deal and the cards known, the knocks and answers, the swaps and checks, who won
    and who paid; not every card. Each move is said as the replay says it
    (parsers.render.describe_events, the same messages), the game rebuilt by the engine."""
    begin, end = record.hand_bounds(number)
    names = record.players
    told: list[str] = []
    cards: set[str] = set()  # the lines that show hands, the first to go if too long
    dealt: dict[int, list[str]] = {}
    hand = record.events[begin:end]
    rebuilt = Replay(record.rules, record.players)
    for event in record.events[:begin]:
        rebuilt.feed(event)
    # The winners in one line, a whole side named as a side ("Anna & Dan win the hand").
    winners = tuple(seat for e in hand if (seat := e.to_row()[1]) is not None and e.kind == "win")
    for event in hand:
        rebuilt.feed(event)
        kind, seat, card, _, _ = event.to_row()
        who = names[seat] if seat is not None else ""
        if kind == "win":
            if seat == winners[0] and len(winners) > 1:
                told.append(w("s_win_many", players=seats_name(names, record.teams, winners,
                                                               w("and"))))  # fmt: skip
            elif len(winners) == 1:
                told.append(w("s_win", player=who))
            continue
        if kind == "deal" and seat is not None and card is not None:
            dealt.setdefault(seat, []).append(pretty(Card.parse(card)))
            continue
        if kind not in _STORY_KINDS:
            continue
        if dealt and kind != "hand_start":
            shown = [w("s_cards", player=names[s], cards=" ".join(c)) for s, c in dealt.items()]
            told += shown
            cards.update(shown)
            dealt = {}
        told += describe_events(rebuilt.game, [event], joined=False, speaker=w)
    if len(told) > STORY_LINES:  # too long: the decisions matter more than the cards
        told = [line for line in told if line not in cards]
    if len(told) > STORY_LINES:
        # The deal and how the hand ended stay; the middle is shortened.
        head = STORY_LINES // 2
        told = [*told[:head], "…", *told[len(told) - (STORY_LINES - head - 1) :]]
    return told


def _pct(name: str, done: int, opportunities: int, lang: str) -> str:
    """A figure of the registry as the bulletin shows it: `42% 5/12*`."""
    return STAT_BY_NAME[name].cell(done, opportunities, lang=lang)


def _game(news: Newsletter, game_id: str) -> str:
    """A game by its date, venue and players."""
    return (news.names or {}).get(game_id, news.w("a_game"))


def _headlines(news: Newsletter) -> list[tuple[str, str]]:
    """The month's awards as (title, sentence) pairs, plain text, each with its hand."""
    w = news.w
    items = []
    if news.bluffer is not None:
        b, bluffs = news.bluffer, STAT_BY_NAME["bluff_rate"]
        done, knocks = b[bluffs.done], b[bluffs.opportunities]
        items.append((w("bluffer"), w(
            "bluffer_text", player=b["player"], share=bluffs.cell(done, knocks, False, w.lang),
            bluffs=integer(done, w.lang), knocks=integer(knocks, w.lang),
        )))  # fmt: skip
    if news.best_bluff is not None:
        b = news.best_bluff
        items.append((w("best_bluff"), w(
            "best_bluff_text", player=b["player"], stake=b["stake"], hand=b["hand"],
            game=_game(news, b["game_id"]), chance=w.percent(b["strength"]),
            fair=w.percent(b["fair_share"]), haul=b["folded_to_it"], unit=w(b["unit"]),
        )))  # fmt: skip
    if news.costliest_fold is not None:
        f = news.costliest_fold
        items.append((w("costliest"), w(
            "costliest_text", player=f["player"], cost=f["cost"], hand=f["hand"],
            game=_game(news, f["game_id"]), regret=w("would_have_won") if f["regret"] else "",
        )))  # fmt: skip
    if news.regret is not None:
        g = news.regret
        items.append((w("regret"), w(
            "regret_text", player=g["player"], cost=g["cost"], hand=g["hand"],
            game=_game(news, g["game_id"]),
        )))  # fmt: skip
    if news.caller is not None:
        c = news.caller
        made = STAT_BY_NAME["calls_made_rate"].cell(c["calls_made"], c["calls"], False, w.lang)
        items.append((w("caller"), w(
            "caller_text", player=c["player"], share=made,
            made=integer(c["calls_made"], w.lang), calls=integer(c["calls"], w.lang),
        )))  # fmt: skip
    if news.accurate is not None:
        a, accuracy = news.accurate, STAT_BY_NAME["answer_accuracy"]
        share = accuracy.cell(a[accuracy.done], a[accuracy.opportunities], False, w.lang)
        items.append((w("accurate"), w("accurate_text", player=a["player"], share=share)))
    luck = STAT_BY_NAME["luck_per_hand"]
    for key, found in (("luckiest", news.luckiest), ("unluckiest", news.unluckiest)):
        if found is not None:
            edge = 100 * abs(luck.value(found[luck.done], found[luck.opportunities]) or 0.0)
            if round(edge, 1) > 0:  # not "0.0 points below an average hand's"
                said = w(f"{key}_text", player=found["player"], luck=w.number(edge, 1))
                items.append((w(key), said))
    for key, mover in (("riser", news.riser), ("faller", news.faller)):
        if mover is not None:
            # The change the reader works out from the two ratings shown, to one decimal.
            shown = float(rounded(float(mover["after"]), 1) - rounded(float(mover["before"]), 1))
            items.append((w(key), w(
                f"{key}_text", player=mover["player"], change=w.number(abs(shown), 1),
                game=str(mover["game_type"]).capitalize(), games=mover["games"],
                before=w.number(mover["before"], 1), after=w.number(mover["after"], 1),
            )))  # fmt: skip
    if news.blunder is not None:
        b = news.blunder
        if b["answer"] == "knock":  # a knock made, against the choice not taken
            key = "blunder_knock_" + str(b["other_choice"])
        elif b["answer"] in ("laundry", "armoede"):  # a swap, against keeping the hand
            key = f"blunder_{b['answer']}" + ("" if b["genuine"] else "_false")
        else:
            # Team toepen: a fold that left partners playing on cost the side an expectation.
            key = f"blunder_{b['answer']}" + ("_side" if b["partners_play_on"] else "")
        chosen, other = shown_figures(w, b["cost_chosen"], b["cost_other"], b["ev_lost"])
        items.append((w("blunder"), w(
            key, player=b["player"], stake=b["stake"], hand=b["hand"],
            game=_game(news, b["game_id"]), chosen=chosen, other=other,
        )))  # fmt: skip
    if news.hand_of_the_month is not None:
        h = news.hand_of_the_month
        items.append((w("top_hand"), w(
            "top_hand_text", hand=h["hand"], game=_game(news, h["game_id"]), stake=h["stake"]
        )))  # fmt: skip
    return items


def _board_lines(news: Newsletter) -> list[tuple[str, list[str], str]]:
    """Each leaderboard of a rule set with a player ranked: heading, ranked lines (plain
    text), and who is not ranked (too few hands). The others are `_unranked_boards`'."""
    w, cost = news.w, STAT_BY_NAME["cost_per_hand"]
    boards = []
    for ruleset, ranked, others in news.boards:
        if ranked.is_empty():
            continue
        unit = w(news.units[ruleset])
        lines = [
            w("board_line", player=row["player"], unit=unit,
              value=cost.cell(row[cost.done], row[cost.opportunities], False, w.lang),
              hands=w.count(row[cost.opportunities], "n_hands"),
              small="*" if cost.is_small(row[cost.opportunities]) else "")
            for row in ranked.iter_rows(named=True)
        ]  # fmt: skip
        rest = w("unranked", minimum=MIN_RANKED_HANDS, who=", ".join(others)) if others else ""
        boards.append((w("leaderboard", ruleset=w.ruleset(ruleset)), lines, rest))
    return boards


def _unranked_boards(news: Newsletter) -> list[tuple[str, str]]:
    """The rule sets nobody played `MIN_RANKED_HANDS` hands under this month, each with
    who played them: one short list, not a leaderboard each that says it is empty."""
    return [
        (news.w.ruleset(ruleset), ", ".join(others))
        for ruleset, ranked, others in news.boards
        if ranked.is_empty() and others
    ]


def _ranking(news: Newsletter) -> str:
    return news.w("ranking", minimum=MIN_RANKED_HANDS,
                  small=STAT_BY_NAME["cost_per_hand"].small_sample)  # fmt: skip


#: The figures of the players' tables, by name in the statistics registry.
_COLUMNS = ("win_rate", "cost_per_hand", "knock_rate", "bluff_rate", "fold_rate", "regret_rate")
_TROEF_COLUMNS = (
    "calls_made_rate", "kap_rate", "baunie_success", "tricks_per_hand", "points_per_hand",
)  # fmt: skip


def _headings(columns: Sequence[str], news: Newsletter) -> list[str]:
    return [news.w("hands"), *(news.w(c) for c in columns)]


def _row_cells(row: dict[str, Any], lang: str, columns: Sequence[str] = _COLUMNS) -> list[str]:
    """The hands, then each figure as the registry writes it, in the bulletin's language."""
    stats = [STAT_BY_NAME[c] for c in columns]
    cells = (s.cell(row[s.done], row[s.opportunities], lang=lang) for s in stats)
    return [integer(row["hands"], lang), *cells]


def _season_lines(news: Newsletter) -> list[tuple[str, str, list[list[str]], str]]:
    """Each season the month is in, as it stands at the month's end: heading, its rules in
    a sentence, the table's rows (place, player, points, evenings counted of played:
    level players share a place, which a numbered list would renumber), and who is not
    ranked yet (docs/SEASONS.md)."""
    w, told = news.w, []
    for found in news.seasons:
        rows = [
            [w.number(row["place"], 0), row["player"], points_text(row["points"], w),
             w("season_counted", counted=row["counted"], played=row["evenings"])]
            for row in found.table.filter(pl.col("place").is_not_null()).iter_rows(named=True)
        ]  # fmt: skip
        month = w.month(month_range(news.month)[0])
        heading = w("season_heading", season=found.season.name, month=month)
        told.append((heading, rules_sentence(found, w), rows, not_ranked(found, w)))
    return told


def _season_columns(news: Newsletter) -> list[str]:
    return [news.w(c) for c in ("season_place", "player", "points", "season_evenings")]


def markdown(news: Newsletter) -> str:
    """The bulletin as Markdown (names as typed; a club's editor pastes it)."""
    out = [f"# {md(news.title)}", ""]
    if news.summary:
        out += [f"## {news.w('the_month')}", "", md(news.summary), ""]
    if _simulated_line(news):
        out += [md(_simulated_line(news)), ""]
    if not news.players.is_empty():
        for i, (heading, lines, rest) in enumerate(_board_lines(news)):
            out += [f"## {md(heading)}", ""]
            out += [] if i else [_ranking(news), ""]  # how all rank: said under the first
            out += [f"{place}. {md(line)}" for place, line in enumerate(lines, start=1)]
            out += ["", md(rest), ""] if rest else [""]
        unranked = _unranked_boards(news)
        if unranked:
            out += [f"## {news.w('unranked_boards')}", "",
                    news.w("unranked_boards_note", minimum=MIN_RANKED_HANDS), ""]  # fmt: skip
            out += [f"- {md(rules)}: {md(who)}" for rules, who in unranked]
            out.append("")
    for heading, rules, rows, rest in _season_lines(news):
        out += [f"## {md(heading)}", "", md(rules), "",
                "| " + " | ".join(_season_columns(news)) + " |", "|---" * 4 + "|"]  # fmt: skip
        out += [f"| {place} | {md(who)} | {points} | {played} |"
                for place, who, points, played in rows]  # fmt: skip
        out += ["", md(rest), ""] if rest else [""]
    for title, sentence in _headlines(news):
        out += [f"## {title}", "", md(sentence), ""]
    if not news.players.is_empty():
        if news.moves:
            # An indented code block: no name can close it, as one could close a fence.
            out += [f"### {news.w('story')}", "", *(f"    {m}" for m in news.moves), ""]
        for heading, _, first, frame in _every_player(news):
            out += [f"## {md(heading)}", "",
                    f"| {first} | " + " | ".join(_headings(_COLUMNS, news)) + " |",
                    "|---" * (len(_COLUMNS) + 2) + "|"]  # fmt: skip
            for row in frame.iter_rows(named=True):
                cells = " | ".join(_row_cells(row, news.w.lang))
                out.append(f"| {md(row['player'])} | {cells} |")
            out.append("")
    for heading, frame in _troefcall_tables(news):
        out += [f"## {heading}", "", "| | " + " | ".join(_headings(_TROEF_COLUMNS, news)) + " |",
                "|---" * (len(_TROEF_COLUMNS) + 2) + "|"]  # fmt: skip
        for row in frame.iter_rows(named=True):
            cells = " | ".join(_troef_cells(row, news.w.lang))
            out.append(f"| {md(row['player'])} | {cells} |")
        out.append("")
    out += [news.w("footnote", small=SMALL_SAMPLE), ""]
    return "\n".join(out)


def _troef_cells(row: dict[str, Any], lang: str) -> list[str]:
    return _row_cells(row, lang, _TROEF_COLUMNS)


def _troefcall_tables(news: Newsletter) -> list[tuple[str, pl.DataFrame]]:
    """The Troefcall tables of the month: the sides (most points first), then the players."""
    if news.sides is None or news.sides.is_empty():
        return []
    assert news.troefcall_players is not None
    return [(news.w("sides"), news.sides),
            (news.w("troef_players"), news.troefcall_players)]  # fmt: skip


#: A table in a box of its own: on a phone it scrolls sideways in its box, not the page.
_TABLE, _END_TABLE = '<div class="wide"><table>', "</table></div>"


def _bars(title: str, rows: list[tuple[str, float, str]], maximum: float) -> str:
    """A horizontal bar chart as inline SVG: (label, value, caption) per bar."""
    height = 28 * len(rows) + 40
    parts = [f'<svg width="560" height="{height}" viewBox="0 0 560 {height}" '
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
svg { max-width: 100%; height: auto; } .wide { overflow-x: auto; }
@page { size: A4; margin: 15mm; }
@media print { body { margin: 0; max-width: none; } .card, tr, svg { break-inside: avoid; }
               h2 { break-after: avoid; } .wide { overflow: visible; }
               table { font-size: .75em; } }
"""


def _suits(text: str) -> str:
    """Escaped text with red hearts and diamonds."""
    return mark_red_suits(html.escape(text), lambda symbol: f'<span class="red">{symbol}</span>')


def page(news: Newsletter) -> str:
    """One standalone HTML page: no scripts, no network, charts inline."""
    e = html.escape
    out = ["<!doctype html>", f'<html lang="{news.lang}"><head><meta charset="utf-8">',
           f"<title>{e(news.title)}</title><style>{_CSS}</style></head><body>",
           f"<h1><small>{e(news.w('bulletin'))}</small>{e(news.title)}</h1>"]  # fmt: skip
    if news.summary:
        out.append(f'<p class="summary">{e(news.summary)}</p>')
    if _simulated_line(news):
        out.append(f'<p class="simulated">{e(_simulated_line(news))}</p>')
    cards = "".join(f'<div class="card"><h3>{e(t)}</h3>{e(s)}</div>' for t, s in _headlines(news))
    if cards:
        out.append(f'<div class="cards">{cards}</div>')
    for heading, rules, places, rest in _season_lines(news):
        out.append(
            f"<h2>{e(heading)}</h2><p>{e(rules)}</p>{_TABLE}<tr>"
            + "".join(f"<th>{e(c)}</th>" for c in _season_columns(news))
            + "</tr>"
        )
        out += ["<tr>" + "".join(f"<td>{e(c)}</td>" for c in r) + "</tr>" for r in places]
        out.append(_END_TABLE)
        if rest:
            out.append(f"<p>{e(rest)}</p>")
    if not news.players.is_empty():
        out += _toepen_html(news)
    for heading, frame in _troefcall_tables(news):
        rows = list(frame.iter_rows(named=True))
        out.append(f"<h2>{e(heading)}</h2>")
        if frame is news.sides:
            made = [(r["player"], r["calls_made_rate"] or 0.0,
                     _pct("calls_made_rate", r["calls_made"], r["calls"], news.w.lang))
                    for r in rows]  # fmt: skip
            out.append(_bars(news.w("calls_chart"), made, 1.0))
        out.append(f"{_TABLE}<tr><th></th>"
                   + "".join(f"<th>{e(c)}</th>" for c in _headings(_TROEF_COLUMNS, news))
                   + "</tr>")  # fmt: skip
        for row in rows:
            cells = "".join(f"<td>{e(c)}</td>" for c in _troef_cells(row, news.w.lang))
            out.append(f"<tr><td>{e(row['player'])}</td>{cells}</tr>")
        out.append(_END_TABLE)
    out.append(f"<footer>{e(news.w('footer', small=SMALL_SAMPLE))}</footer>")
    out.append("</body></html>")
    return "\n".join(out)


def _toepen_html(news: Newsletter) -> list[str]:
    e = html.escape
    rows = list(news.players.iter_rows(named=True))
    out = []
    for i, (heading, lines, rest) in enumerate(_board_lines(news)):
        out.append(f"<h2>{e(heading)}</h2>")
        if not i:  # how all the leaderboards rank: said under the first
            out.append(f"<p>{e(_ranking(news))}</p>")
        out.append('<ol class="board">' + "".join(f"<li>{e(x)}</li>" for x in lines) + "</ol>")
        if rest:
            out.append(f"<p>{e(rest)}</p>")
    unranked = _unranked_boards(news)
    if unranked:
        note = news.w("unranked_boards_note", minimum=MIN_RANKED_HANDS)
        out.append(f"<h2>{e(news.w('unranked_boards'))}</h2><p>{e(note)}</p><ul>")
        out += [f"<li>{e(rules)}: {e(who)}</li>" for rules, who in unranked]
        out.append("</ul>")
    if news.moves:
        out.append(f"<h2>{e(news.w('story_html'))}</h2>")
        out.append("<pre>" + "\n".join(_suits(m) for m in news.moves) + "</pre>")
    stat = STAT_BY_NAME["bluff_rate"]
    known = [r for r in rows if r[stat.opportunities]]
    out.append(f"<h2>{e(news.w('bluffing'))}</h2>")
    bluffs = [(r["player"], r[stat.name] or 0.0,
               stat.cell(r[stat.done], r[stat.opportunities], lang=news.w.lang))
              for r in known]  # fmt: skip
    out.append(_bars(news.w("bluff_chart"), bluffs, 1.0))
    w = news.w
    heads = "".join(f"<th>{e(c)}</th>" for c in _headings(_COLUMNS, news))
    for heading, ruleset, first, frame in _every_player(news):  # lives, points apart
        each = list(frame.iter_rows(named=True))
        cost = [
            (r["player"], r["fold_cost"], w.count(r["folds"], "fold_caption", cost=r["fold_cost"]))
            for r in each
        ]
        unit = w(news.units[ruleset])
        out.append(_bars(f"{w('fold_chart')} — {unit}", cost, max((c[1] for c in cost), default=0)))
        out.append(f"<h2>{e(heading)}</h2>{_TABLE}<tr><th>{e(first)}</th>{heads}</tr>")
        for row in each:
            cells = "".join(f"<td>{e(c)}</td>" for c in _row_cells(row, w.lang))
            out.append(f"<tr><td>{e(row['player'])}</td>{cells}</tr>")
        out.append(_END_TABLE)
    return out


def _every_player(news: Newsletter) -> list[tuple[str, str, str, pl.DataFrame]]:
    """Each Toepen rule set's players with every figure ("Every player: classic"), then
    each partnership of a rule set played in teams ("Every side: lives + team-toepen"),
    as (heading, rule set, the first column's heading, rows): a table never adds lives
    and points, and a side's row is headed as a side."""
    w = news.w
    return [
        (w("every_player", ruleset=w.ruleset(ruleset)), ruleset, w("player"), frame.sort("player"))
        for ruleset, frame in news.board_frames.items()
    ] + [
        (w("every_side", ruleset=w.ruleset(ruleset)), ruleset, w("side"), frame.sort("player"))
        for ruleset, frame in news.side_frames.items()
    ]


def table_csv(news: Newsletter) -> str:
    """The month's figures for a spreadsheet: one row per player and rule set (Troefcall
    too), each rate to two decimals beside its counts, no internal columns."""
    rows: list[dict[str, object]] = []

    def add(ruleset: str, unit: str, frame: pl.DataFrame, columns: Sequence[str]) -> None:
        for row in frame.iter_rows(named=True):
            cells: dict[str, object] = {"rule_set": ruleset, "unit": unit,
                                        "player": row["player"], "hands": row["hands"]}  # fmt: skip
            for name in columns:
                stat = STAT_BY_NAME[name]
                value = stat.value(row[stat.done], row[stat.opportunities])
                cells[name] = "" if value is None else f"{value:.2f}"
                cells[f"{name}_done"] = row[stat.done]
                cells[f"{name}_of"] = row[stat.opportunities]
            rows.append(cells)

    for ruleset, ranked, _ in news.boards:
        add(ruleset, news.units[ruleset], ranked, _COLUMNS)
    for ruleset, frame in _unranked(news):
        add(ruleset, news.units[ruleset], frame, _COLUMNS)
    for ruleset, frame in news.side_frames.items():  # a partnership in the player column
        add(f"{ruleset} (sides)", news.units[ruleset], frame, _COLUMNS)
    if news.troefcall_players is not None and not news.troefcall_players.is_empty():
        add("troefcall", news.troefcall_unit, news.troefcall_players, _TROEF_COLUMNS)
    if not rows:  # a month without club games: the header, for a spreadsheet kept monthly
        header = ["rule_set", "unit", "player", "hands"]
        header += [c for name in _COLUMNS for c in (name, f"{name}_done", f"{name}_of")]
        return stats_csv(pl.DataFrame(schema=dict.fromkeys(header, pl.String)))
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
