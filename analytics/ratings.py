"""Skill ratings across evenings, per player and game type: a Bayesian rating (μ ± σ, a
Gaussian belief about each player's skill) on the Plackett–Luce model read from the last
place up, updated game by game.

- **The model**: a game's sides leave the ranking one by one from the bottom, each time
  the side placed last among those left, by P(last = i) ∝ exp(−μᵢ / SCALE), μᵢ the sum of
  the side's players' μ. Classic names a loser only, the rest tied: one such step. Lives
  ends with the order out: a step per place. Troefcall, two sides: who lost. This is
  what a Toepen game says (who reached the limit), and nothing it does not: openskill's
  Plackett–Luce reads the order from the first place down and pulls tied players
  together, and predicted held-out game losers worse than each player's share of games
  lost (docs/STATS.md, "Ratings across evenings"); this one predicts them better where
  tables change. Higher is better: less likely to place last.
- **The update** (`update`): one Newton (Laplace) step on this likelihood, after Weng &
  Lin's approximate Bayesian update: σ'² = σ² / (1 + σ² h / SCALE²) and
  μ' = μ + σ'² g / SCALE, g the log-likelihood's gradient and h minus its second
  derivative (h ≥ 0) at the ratings before the game; τ² is added to each σ² first (the
  skill's drift).
- **What is rated**: every game, in the order played (`evenings.PLAYED`), as a ranking of
  its sides by the engine's facts: the winner its `game_end` names first, those still in
  next (tied), then the players out, the last out first (`GameResult.places`). A game
  stopped part way (most typed club logs) is ranked as it stood after its last finished
  hand, as the Evenings page's standings: by what each side paid (`pay`) less what it
  scored (`score`). A side is a seat, or the seats of one team where the game has `teams`
  (Troefcall's partners, team toepen): a side's skill is the sum of its players', and
  each player's rating moves by their own σ². Why by game and not by hand: the games
  predict held-out game results better (docs/STATS.md, `python bench/ratings.py`);
  `BY_HAND` (each hand ranked by its `win` rows, then by what each side paid) stays for
  the bench to compare.
- **Pools apart**: a player has one rating per game type (toepen, troefcall) among the
  club's games, and the bots' games (`evenings.simulated`) are rated apart, never mixed in.
- **Provisional** until `PROVISIONAL_GAMES` games.
- **Stored once** (`DATASET/derived/ratings/`, `RATING_SCHEMA`): each player's rating after
  each game. Games played after every rated one continue from the stored ratings; a game
  that sorts before a rated one (landed later, dated earlier), or a change of
  `RATINGS_VERSION`, rates every game again (`update_ratings`). The same games always give
  the same ratings: the model has no randomness and the order is the played order.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta

import duckdb
import polars as pl
import pyarrow as pa

from kroeg.analytics.evenings import PLAYED, simulated
from kroeg.analytics.schemas import RATING_SCHEMA, RATINGS_VERSION
from kroeg.analytics.stats import bots_apart
from kroeg.analytics.views import connect
from kroeg.recorder.store import Dataset

__all__ = [
    "BY_GAME",
    "BY_HAND",
    "INTERVAL",
    "MIN_MONTH_GAMES",
    "MU",
    "PROVISIONAL_GAMES",
    "SCALE",
    "SIGMA",
    "TAU",
    "GameResult",
    "Rater",
    "Rating",
    "chances_last",
    "game_results",
    "month_movers",
    "rating_chart",
    "rating_history",
    "ratings_frame",
    "update_ratings",
]

#: A player's rating is provisional until they have played this many games of its type
#: (about seven evenings of three games): a game's ranking tells little, and σ has come down
#: only from 8.3 to about 5.5 by then at a table of four (docs/STATS.md, "Ratings across
#: evenings").
PROVISIONAL_GAMES = 20
#: The interval shown is μ ± INTERVAL σ (about 95 %).
INTERVAL = 2.0
BY_HAND, BY_GAME = "hand", "game"

#: A new player's rating: μ 25, σ 25/3 (the scale of TrueSkill and openskill).
MU, SIGMA = 25.0, 25 / 3
#: The link's scale: a side SCALE points of μ below another is e times as likely to place
#: last. Scales from 8.3 to 16.7 predict held-out games within 0.001 of each other
#: (docs/STATS.md, `python bench/ratings.py`); with this one the link's fitted steepness
#: comes out 1, the ratings' own chances calibrated.
SCALE = 25 / 2
#: The skill's drift per game (τ, added to σ in quadrature before each update), chosen by
#: held-out log-loss (docs/STATS.md): small, so that σ comes down and intervals part.
TAU = 25 / 3000

TABLE = "ratings"


@dataclass(frozen=True)
class GameResult:
    """What the ratings need of one game, from the engine's facts: its players and sides,
    and for each finished hand the seats dealt in, the seats with a `win` row and what each
    paid; for the whole game (BY_GAME), a place per seat (`_places`)."""

    game_id: str
    game_type: str
    simulated: bool
    started_at: datetime | None
    players: tuple[str, ...]
    teams: tuple[int, ...] | None
    #: Per finished hand in order: the seats dealt in and the seats with a `win` row, as
    #: bit masks, and what each seat paid (its `pay` rows) less what it scored (Troefcall's
    #: `score` rows, on one seat of the side).
    hands: tuple[tuple[int, int, tuple[int, ...]], ...] = ()
    #: Each seat's place in the game (0 best), or None for a game without a result.
    places: tuple[int, ...] | None = None
    #: How many finished hands each seat was dealt into (read without `hands`, by game).
    dealt: tuple[int, ...] = ()

    @property
    def pool(self) -> tuple[bool, str]:
        """The ratings it moves: the bots' or the club's, of its game type."""
        return (self.simulated, self.game_type)

    def sides(self, seats: int) -> list[list[int]]:
        """The sides among the seats of a mask: a seat each, or the seats of each team."""
        present = [s for s in range(len(self.players)) if seats >> s & 1]
        if not self.teams:
            return [[s] for s in present]
        by_team: dict[int, list[int]] = {}
        for s in present:
            by_team.setdefault(self.teams[s], []).append(s)
        return [by_team[t] for t in sorted(by_team)]


@dataclass
class Rating:
    """A player's rating: the mean μ and the standard deviation σ of the belief in their
    skill."""

    mu: float = MU
    sigma: float = SIGMA


@dataclass
class _Player:
    rating: Rating
    games: int = 0
    hands: int = 0


@dataclass
class Rater:
    """Ratings as the games come, in the order played: one pool per (simulated, game type)."""

    by: str = BY_GAME
    tau: float = TAU
    scale: float = SCALE
    players: dict[tuple[bool, str, str], _Player] = field(default_factory=dict)

    def player(self, pool: tuple[bool, str], name: str) -> _Player:
        """A player's state in a pool (a new player starts at the model's prior)."""
        key = (*pool, name)
        found = self.players.get(key)
        if found is None:
            found = self.players[key] = _Player(Rating())
        return found

    def resume(self, rows: Iterable[dict[str, object]]) -> None:
        """Continue from stored rows (RATING_SCHEMA), each player's latest last (in step
        order)."""
        for r in rows:
            pool = (bool(r["simulated"]), str(r["game_type"]))
            name = str(r["player"])
            self.players[(*pool, name)] = _Player(
                Rating(float(r["mu"]), float(r["sigma"])),  # type: ignore[arg-type]
                int(r["games"]),  # type: ignore[call-overload]
                int(r["hands"]),  # type: ignore[call-overload]
            )

    def predict(self, game: GameResult, seats: int) -> list[tuple[list[int], float]]:
        """Each side among `seats` with its chance, by the ratings now, of placing last."""
        sides = game.sides(seats)
        mus = [
            sum(self.player(game.pool, game.players[s]).rating.mu for s in side) for side in sides
        ]
        return list(zip(sides, chances_last(mus, self.scale), strict=True))

    def _rate(self, game: GameResult, sides: list[list[int]], ranks: list[int]) -> None:
        if len(sides) < 2:
            return
        teams = [[self.player(game.pool, game.players[s]).rating for s in side] for side in sides]
        update(teams, ranks, self.tau, self.scale)

    def play(self, game: GameResult) -> list[dict[str, object]]:
        """Rate one game; return its players' ratings after it (RATING_SCHEMA rows, without
        `step`). By game (the default), a game without a finished hand has no result: its
        players' ratings stay, and it counts no game."""
        seated = [self.player(game.pool, name) for name in game.players]
        dealt_in = list(game.dealt) or [0] * len(seated)
        by_hand = self.by == BY_HAND
        sides_of: dict[int, list[list[int]]] = {}  # by the mask of seats dealt in
        for dealt, won, paid in game.hands:
            if not game.dealt:
                for s in range(len(seated)):
                    dealt_in[s] += dealt >> s & 1
            if not by_hand:
                continue
            sides = sides_of.get(dealt)
            if sides is None:
                sides = sides_of[dealt] = game.sides(dealt)
            if len(sides) > 1:
                teams = [[seated[s].rating for s in side] for side in sides]
                update(teams, hand_ranks(sides, won, paid), self.tau, self.scale)
        rated = by_hand or game.places is not None
        if not by_hand and game.places is not None:
            sides = game.sides((1 << len(game.players)) - 1)
            self._rate(game, sides, [min(game.places[s] for s in side) for side in sides])
        for p, hands in zip(seated, dealt_in, strict=True):
            p.hands += hands
        rows: list[dict[str, object]] = []
        for name, p in dict(zip(game.players, seated, strict=True)).items():  # a name once
            p.games += rated
            rows.append({
                "game_id": game.game_id, "simulated": game.simulated,
                "game_type": game.game_type, "started_at": game.started_at, "player": name,
                "mu": p.rating.mu, "sigma": p.rating.sigma, "games": p.games, "hands": p.hands,
                "version": RATINGS_VERSION,
            })  # fmt: skip
        return rows


def chances_last(mus: Sequence[float], scale: float = SCALE) -> list[float]:
    """Each side's chance of placing last among these, by the sum of its players' μ:
    P(last = i) ∝ exp(−μᵢ / SCALE)."""
    low = min(mus)
    weights = [math.exp((low - mu) / scale) for mu in mus]
    total = sum(weights)
    return [w / total for w in weights]


def update(
    teams: list[list[Rating]], ranks: list[int], tau: float = TAU, scale: float = SCALE
) -> None:
    """Rate one game in place: `teams` the sides (each a list of its players' ratings),
    `ranks` each side's place (0 best, ties equal). Read from the last place up: place by
    place from the last, the sides at that place leave those still in, with the chance
    `chances_last` gives them (k sides tied at a place each count as 1/k of a last place,
    then all k leave); the best place, once alone, says nothing more. g, the gradient of
    the log-likelihood in μ / SCALE, and h, minus its second derivative, summed over the
    places; each player then takes the Laplace step of the module's docstring with their
    own σ."""
    for team in teams:
        for rating in team:
            rating.sigma = math.sqrt(rating.sigma * rating.sigma + tau * tau)
    mus = [sum(r.mu for r in team) for team in teams]
    grad = [0.0] * len(teams)
    curve = [0.0] * len(teams)
    left = list(range(len(teams)))
    for place in sorted(set(ranks), reverse=True):
        out = [i for i in left if ranks[i] == place]
        if len(out) == len(left):
            break
        for i, p in zip(left, chances_last([mus[i] for i in left], scale), strict=True):
            grad[i] += p - (ranks[i] == place) / len(out)
            curve[i] += p * (1 - p)
        left = [i for i in left if ranks[i] != place]
    for team, g, h in zip(teams, grad, curve, strict=True):
        for rating in team:
            variance = rating.sigma * rating.sigma
            variance /= 1 + variance * h / (scale * scale)
            rating.mu += variance * g / scale
            rating.sigma = math.sqrt(variance)


def hand_ranks(sides: list[list[int]], won: int, paid: Sequence[int]) -> list[int]:
    """The place of each side in a hand, 0 best: the sides with a `win` row first, then by
    what they paid less scored (`pay` rows: a fold pays less than losing at the end), ties
    tied."""
    keys = [(not any(won >> s & 1 for s in side), sum(paid[s] for s in side)) for side in sides]
    order = sorted(set(keys))
    return [order.index(k) for k in keys]


# -- reading the engine's facts ---------------------------------------------------------------


def _dates(since: date | None, until: date | None) -> tuple[str, list[object]]:
    """SQL on a `games` row and its parameters: started on `since` or later, on `until` or
    before (both days kept), as `kroeg stats` reads them."""
    where: list[str] = ["true"]
    params: list[object] = []
    if since is not None:
        where.append("started_at >= ?::TIMESTAMPTZ")
        params.append(since.isoformat())
    if until is not None:
        where.append("started_at < ?::TIMESTAMPTZ")
        params.append((until + timedelta(days=1)).isoformat())
    return " AND ".join(where), params


def game_results(
    con: duckdb.DuckDBPyConnection,
    since: date | None = None,
    until: date | None = None,
    game_ids: Sequence[str] | None = None,
    by_hand: bool = False,
) -> list[GameResult]:
    """The games to rate (every game, or those of `game_ids`, from `since` to `until`), in
    the order played, each with its places; `by_hand`: with every finished hand too."""
    where, params = _dates(since, until)
    if game_ids is not None:
        where += " AND game_id IN (SELECT unnest(?::VARCHAR[]))"
        params.append(list(game_ids))
    con.execute(
        f"CREATE OR REPLACE TEMP TABLE rated AS SELECT game_id, game_type, "
        f"{simulated()} AS bots, started_at, players, teams, "
        f"row_number() OVER (ORDER BY {PLAYED}) AS played FROM games WHERE {where}",
        params,
    )
    games = con.sql("SELECT * FROM rated ORDER BY played").fetchall()
    hands: dict[str, list[tuple[int, int, tuple[int, ...]]]] = {}
    per_seat: dict[str, tuple[list[int], list[int]]] = {}  # hands dealt, paid less scored
    if by_hand:
        hands = _hands(con)
        for g, played in hands.items():
            dealt_in = [sum(d >> s & 1 for d, _, _ in played) for s in range(8)]
            per_seat[g] = (dealt_in, [sum(c) for c in zip(*(p for *_, p in played), strict=True)])
    else:
        # By game, a game's totals suffice: summed by DuckDB, not hand by hand here.
        for g, seat, dealt, cost in con.sql(
            "WITH seat_hands AS (SELECT e.game_id, e.hand, e.seat, "
            "bool_or(e.kind = 'deal') AS dealt, "
            "sum(CASE e.kind WHEN 'pay' THEN e.amount WHEN 'score' THEN -e.amount ELSE 0 END) "
            "AS cost FROM events AS e SEMI JOIN rated AS r ON r.game_id = e.game_id "
            "WHERE e.hand > 0 AND e.kind IN ('deal', 'pay', 'score') GROUP BY ALL), "
            "finished AS (SELECT DISTINCT e.game_id, e.hand FROM events AS e SEMI JOIN rated "
            "AS r ON r.game_id = e.game_id WHERE e.kind = 'hand_end' AND e.hand > 0) "
            "SELECT s.game_id, s.seat, count(*) FILTER (WHERE s.dealt), sum(s.cost)::BIGINT "
            "FROM seat_hands AS s SEMI JOIN finished AS f ON f.game_id = s.game_id AND "
            "f.hand = s.hand GROUP BY ALL"
        ).fetchall():
            dealt_in, costs = per_seat.setdefault(g, ([0] * 8, [0] * 8))
            dealt_in[seat], costs[seat] = dealt, cost
    outs: dict[str, list[tuple[str, int | None, int | None]]] = {}
    for game_id, kind, seat, target in con.sql(
        "SELECT e.game_id, e.kind, e.seat, e.target FROM events AS e SEMI JOIN rated AS r "
        "ON r.game_id = e.game_id WHERE e.kind IN ('eliminated', 'game_end') "
        "ORDER BY e.game_id, e.hand, e.seq"
    ).fetchall():
        outs.setdefault(game_id, []).append((kind, seat, target))
    return [
        GameResult(
            game_id=g,
            game_type=kind,
            simulated=bool(bots),
            started_at=started,
            players=tuple(players),
            teams=tuple(teams) if teams else None,
            hands=tuple(hands.get(g, ())),
            places=_places(
                tuple(teams) if teams else tuple(range(len(players))),
                outs.get(g, []),
                per_seat[g][1][: len(players)] if g in per_seat else [],
            ),
            dealt=tuple(per_seat[g][0][: len(players)]) if g in per_seat else (),
        )
        for g, kind, bots, started, players, teams, _ in games
    ]


def _hands(con: duckdb.DuckDBPyConnection) -> dict[str, list[tuple[int, int, tuple[int, ...]]]]:
    """Every finished hand of the games in `rated`, in order, by game: the seats dealt in,
    the seats with a `win` row, and what each seat paid (`pay` rows) less what it scored
    for its side (Troefcall's `score` rows), in one pass over the events."""
    table = con.sql(
        "SELECT e.game_id, e.hand, "
        "bit_or(1::INTEGER << e.seat) FILTER (WHERE e.kind = 'deal') AS dealt, "
        "coalesce(bit_or(1::INTEGER << e.seat) FILTER (WHERE e.kind = 'win'), 0) AS won, "
        "list(e.seat) FILTER (WHERE e.kind IN ('pay', 'score')) AS seats, "
        "list(CASE e.kind WHEN 'pay' THEN e.amount ELSE -e.amount END) "
        "FILTER (WHERE e.kind IN ('pay', 'score')) AS amounts "
        "FROM events AS e SEMI JOIN rated AS r ON r.game_id = e.game_id "
        "WHERE e.hand > 0 AND e.kind IN ('deal', 'win', 'pay', 'score', 'hand_end') "
        "GROUP BY e.game_id, e.hand HAVING bool_or(e.kind = 'hand_end') "
        "ORDER BY e.game_id, e.hand"
    ).to_arrow_table()
    hands: dict[str, list[tuple[int, int, tuple[int, ...]]]] = {}
    columns = ("game_id", "dealt", "won", "seats", "amounts")
    for game_id, dealt, won, seats, amounts in zip(
        *(table.column(c).to_pylist() for c in columns), strict=True
    ):
        paid = [0] * 8
        for seat, amount in zip(seats or (), amounts or (), strict=True):
            paid[seat] += amount
        hands.setdefault(game_id, []).append((dealt or 0, won, tuple(paid)))
    return hands


def _places(
    sides: Sequence[int],
    outs: Sequence[tuple[str, int | None, int | None]],
    costs: Sequence[int],
) -> tuple[int, ...] | None:
    """Each seat's place in a game (0 best) from the engine's rows. A game with a `game_end`
    (its result, as the rules decide it): the side of the winner it names first; the sides
    still in at the end next, tied; then the players out, the last out first (`eliminated`
    rows, and the loser `game_end` names, who is out first). A game stopped part way (most
    typed club logs): as it stood, in the order of the standings the Evenings page shows,
    by what each side paid (`pay` rows) less what it scored (`score` rows) over the
    finished hands, ties tied. `sides`: each seat's side (its team, or itself); `costs`:
    each seat's paid less scored. None for a game with neither a `game_end` nor a finished
    hand: nothing to rank by. (Breaking the ties of a finished game by what was paid
    predicts held-out games worse: docs/STATS.md.)"""
    ends = [(seat, target) for kind, seat, target in outs if kind == "game_end"]
    if not ends and not costs:
        return None
    winner, loser = ends[-1] if ends else (None, None)
    out = [seat for kind, seat, _ in outs if kind == "eliminated" and seat is not None]
    if loser is not None and loser not in out:
        out.insert(0, loser)  # named the loser: the worst of those out
    side_cost: dict[int, int] = {}
    for seat, cost in enumerate(costs):
        side_cost[sides[seat]] = side_cost.get(sides[seat], 0) + cost
    keys: list[tuple[int, int]] = []
    for seat, side in enumerate(sides):
        if winner is not None and side == sides[winner]:
            keys.append((0, 0))
        elif seat in out:
            keys.append((2, len(out) - out.index(seat)))  # the later out, the better
        else:  # still in: tied where the game has a result, else by the standings
            keys.append((1, 0 if ends else side_cost.get(side, 0)))
    order = sorted(set(keys))
    return tuple(order.index(k) for k in keys)


# -- stored once ------------------------------------------------------------------------------


def _stored(con: duckdb.DuckDBPyConnection) -> pa.Table:
    """The stored ratings (the `ratings_stored` view: the files as the connection was made)."""
    names = ", ".join(RATING_SCHEMA.names)
    table = con.sql(f"SELECT {names} FROM ratings_stored").to_arrow_table()
    return table.cast(RATING_SCHEMA)


def _plan(
    con: duckdb.DuckDBPyConnection, games: list[tuple[str, bool, str]]
) -> tuple[list[str], list[dict[str, object]], int] | None:
    """What is left to rate: the games after the stored ones, the stored rows to resume
    from (each player's latest, in step order), and the next step; None when the stored
    ratings cannot be continued (a game sorts before a rated one, a game went, another
    version, or rows are missing). Asked of DuckDB, so that finding nothing new over a
    million hands reads two columns, not every row."""
    versions = con.sql("SELECT DISTINCT version FROM ratings_stored").fetchall()
    if not versions:
        return [g for g, _, _ in games], [], 0
    if versions != [(RATINGS_VERSION,)]:
        return None
    steps = con.sql(
        "SELECT step, min(game_id), count(DISTINCT game_id) FROM ratings_stored "
        "GROUP BY step ORDER BY step"
    ).fetchall()
    if [s for s, _, _ in steps] != list(range(len(steps))) or any(n != 1 for *_, n in steps):
        return None  # rows missing (a removal cut short): rate again
    rated = [g for _, g, _ in steps]
    if len(rated) > len(games) or [g for g, _, _ in games[: len(rated)]] != rated:
        return None
    todo = [g for g, _, _ in games[len(rated) :]]
    if not todo:
        return [], [], len(rated)
    latest = con.sql(
        "SELECT * FROM ratings_stored QUALIFY row_number() OVER (PARTITION BY simulated, "
        "game_type, player ORDER BY step DESC) = 1 ORDER BY step"
    ).to_arrow_table()
    return todo, latest.to_pylist(), len(rated)


def _rows(rater: Rater, results: Iterable[GameResult], first_step: int) -> list[dict[str, object]]:
    rows: list[dict[str, object]] = []
    for step, game in enumerate(results, first_step):
        for row in rater.play(game):
            row["step"] = step
            rows.append(row)
    return rows


def update_ratings(dataset: Dataset) -> int:
    """Rate the games not rated yet and store their ratings (derived/ratings); return how
    many games were rated. A game played after every rated one continues from the stored
    ratings; otherwise (or under another `RATINGS_VERSION`) every game is rated again."""
    with dataset.writing():
        con = connect(dataset)
        order = _order(con)
        plan = _plan(con, order)
        if plan is None:
            dataset.remove_derived(TABLE)
            plan = [g for g, _, _ in order], [], 0
        todo, resume, step = plan
        if not todo:
            return 0
        rater = Rater()
        rater.resume(resume)
        rows = _rows(rater, game_results(con, game_ids=todo), step)
        dataset.write_derived(TABLE, pa.Table.from_pylist(rows, schema=RATING_SCHEMA))
        return len(todo)


def _order(con: duckdb.DuckDBPyConnection) -> list[tuple[str, bool, str]]:
    """Every game in the order played: id, whether the bots played it, its type."""
    return [
        (str(g), bool(b), str(t))
        for g, b, t in con.sql(
            f"SELECT game_id, {simulated()}, game_type FROM games ORDER BY {PLAYED}"
        ).fetchall()
    ]


def _history(
    con: duckdb.DuckDBPyConnection, since: date | None, until: date | None
) -> pl.DataFrame:
    """Every player's rating after each game: the stored ratings where they are complete and
    no date range is asked for; else worked out here (nothing stored)."""
    if since is None and until is None:
        plan = _plan(con, _order(con))
        if plan is not None and not plan[0]:
            return _frame(_stored(con))
        if plan is not None:  # continue from what is stored, without storing
            todo, resume, step = plan
            stored = _stored(con)
            rater = Rater()
            rater.resume(resume)
            rows = _rows(rater, game_results(con, game_ids=todo), step)
            return _frame(pa.concat_tables([stored, pa.Table.from_pylist(rows, RATING_SCHEMA)]))
    rows = _rows(Rater(), game_results(con, since, until), 0)
    return _frame(pa.Table.from_pylist(rows, schema=RATING_SCHEMA))


def _frame(table: pa.Table) -> pl.DataFrame:
    frame = pl.from_arrow(table.sort_by([("step", "ascending")]))
    assert isinstance(frame, pl.DataFrame)
    return frame


def rating_history(
    con: duckdb.DuckDBPyConnection,
    game_type: str | None = None,
    with_simulated: bool = False,
    since: date | None = None,
    until: date | None = None,
) -> pl.DataFrame:
    """Each player's rating after each of their games, in the order played: step, game_id,
    started_at, game_type, player, mu, sigma, low, high, games, hands, provisional. The
    club's games, or the bots' (`with_simulated`): never both in one rating."""
    frame = _history(con, since, until)
    frame = frame.filter(pl.col("simulated") == with_simulated)
    if game_type is not None:
        frame = frame.filter(pl.col("game_type") == game_type)
    return frame.with_columns(
        low=pl.col("mu") - INTERVAL * pl.col("sigma"),
        high=pl.col("mu") + INTERVAL * pl.col("sigma"),
        provisional=pl.col("games") < PROVISIONAL_GAMES,
    ).drop("version")


def ratings_frame(
    con: duckdb.DuckDBPyConnection,
    game_type: str | None = None,
    with_simulated: bool = False,
    since: date | None = None,
    until: date | None = None,
) -> pl.DataFrame:
    """Each player's rating now (after their last game), per game type, best first:
    game_type, player, mu, sigma, low, high, games, hands, provisional. A player whose
    games all lack a result (stopped part way) has no rating yet and is left out."""
    history = rating_history(con, game_type, with_simulated, since, until)
    history = history.filter(pl.col("games") > 0)  # only games without a result: unrated
    last = history.group_by("game_type", "player").agg(pl.all().sort_by("step").last())
    return last.sort(
        [pl.col("game_type"), pl.col("mu"), pl.col("player")], descending=[False, True, False]
    ).select("game_type", "player", "mu", "sigma", "low", "high", "games", "hands",
             "provisional")  # fmt: skip


def rating_chart(
    con: duckdb.DuckDBPyConnection,
    game_type: str,
    with_simulated: bool = False,
    players: Sequence[str] | None = None,
    points: int = 200,
) -> pl.DataFrame:
    """Each player's rating over time for a chart (`rating_history`, of `players`, or all):
    at most `points` of each player's games, evenly spread, their first and last kept.
    `game`: the game's number among the games rated in this pool (this game type, the
    club's or the bots'), from 1, before any is left out: the stored `step` counts every
    game rated, of both pools and both game types. `players` are named as the games name
    them; in the bots' pool of a dataset with the club's games too, a bot's `player` reads
    `Anna (bot)` (stats.bots_apart)."""
    history = rating_history(con, game_type, with_simulated).filter(pl.col("games") > 0)
    history = history.with_columns(game=pl.col("step").rank("dense").cast(pl.Int64))
    if players:
        history = history.filter(pl.col("player").is_in(list(players)))
    history = history.with_columns(n=pl.int_range(pl.len()).over("player"),
                                   of=pl.len().over("player"))  # fmt: skip
    every = (pl.col("of") // points + 1).cast(pl.Int64)
    kept = history.filter((pl.col("n") % every == 0) | (pl.col("n") == pl.col("of") - 1))
    # The bots' pool beside the club's: a bot's line reads "Anna (bot)", as in every table.
    marked = bots_apart(con, kept.drop("n", "of").with_columns(bots=pl.lit(with_simulated)))
    return marked.drop("bots")


#: A player is among the month's risers and fallers from this many rated games that month.
MIN_MONTH_GAMES = 3


def month_movers(
    con: duckdb.DuckDBPyConnection, game_ids: Sequence[str]
) -> list[dict[str, object]]:
    """How each player's rating moved over the games `game_ids` (a month's, as the
    newsletter tells them): per pool (the club's or the bots', a game type) and player with
    `MIN_MONTH_GAMES` rated games among them or more, their rating before the first (the
    prior for a newcomer) and after the last: game_type, simulated, player, games, before,
    after, change; the biggest rise first."""
    history = rating_history_all(con)
    wanted = set(game_ids)
    movers: list[dict[str, object]] = []
    for (simulated_pool, game_type, player), rows in history.items():
        inside = [i for i, r in enumerate(rows) if r["game_id"] in wanted]
        if not inside:
            continue
        rated = sum(1 for i in inside if rows[i]["games"] != (rows[i - 1]["games"] if i else 0))
        if rated < MIN_MONTH_GAMES:
            continue
        before = float(rows[inside[0] - 1]["mu"]) if inside[0] else MU  # type: ignore[arg-type]
        after = float(rows[inside[-1]]["mu"])  # type: ignore[arg-type]
        movers.append({"game_type": game_type, "simulated": simulated_pool, "player": player,
                       "games": rated, "before": before, "after": after,
                       "change": after - before})  # fmt: skip
    movers.sort(key=lambda m: (-float(m["change"]), str(m["player"])))  # type: ignore[arg-type]
    return movers


def rating_history_all(
    con: duckdb.DuckDBPyConnection,
) -> dict[tuple[bool, str, str], list[dict[str, object]]]:
    """Every pool's players' ratings after each game, in the order played."""
    by_player: dict[tuple[bool, str, str], list[dict[str, object]]] = {}
    for r in _history(con, None, None).iter_rows(named=True):
        by_player.setdefault((r["simulated"], r["game_type"], r["player"]), []).append(r)
    return by_player
