"""A club's November worked out by hand: the figures every surface must show.

Three typed games in `sample_logs/`, each worked out hand by hand below. The tests that
hold them: `tests/test_conformance_november.py` (`kroeg stats` with every `--by`, in
table, CSV and JSON; the newsletter in Markdown, HTML and CSV) and
`tests/dashboard/test_conformance.py` (the Evenings, Games, Replay and Players pages).

**`lives-evening.txt`**, Fri 20 Nov, Café De Kroeg: a club's own rule set "Drie levens"
(the lives preset with 3 lives: the last trick loses). Anna, Ben, Carla.

- hand 1 (Carla deals): Anna knocks on four tens (she must take every trick, so the last
  one: her chance is 0, a bluff); Ben and Carla fold, 1 each. Anna wins: everyone folded.
  Each fold could have made sure of winning (Anna takes the last trick whatever they do):
  both regrettable.
- hand 2 (Anna deals): played out. Tricks to Carla (8♥), Anna (9♣), Ben (8♦), Ben (10♠):
  Ben takes the last trick and pays 1; Anna and Carla win.
- hand 3 (Ben deals): Carla knocks on four tens (a bluff, as Anna's); Anna stays, Ben folds
  (1, his last life; regrettable). Carla takes every trick and pays 2, her last two. Anna
  wins the hand; Ben and Carla are out: Anna wins the game. Lives: Anna 3, Ben 0, Carla 0.

**`classic-short-night.txt`**, Tue 24 Nov, Café De Kroeg: classic (penalty points, the
last trick wins). Anna, Ben, Dan.

- hand 1 (Dan deals): played out; Ben takes the last trick (10♠): Anna and Dan pay 1.
- hand 2 (Ben deals, the winner): Dan knocks, Anna folds (1), Ben stays and takes every
  trick: Dan pays 2. Points: Anna 2, Ben 0, Dan 3.

**`team-six-players.txt`**, Sat 14 Nov, Clubhuis De Troef: lives + team-toepen with six:
three sides, partners opposite (Anna & Dan, Ben & Eva, Carla & Fenna), one pool of 10.

- hand 1 (Fenna deals): Anna knocks on four tens (a bluff); Ben, Carla, Eva and Fenna fold
  (1 each), Dan stays. Two whole sides folded: only Anna & Dan are left, the hand ends and
  they win it (every opposing side folded: the bluff succeeded, 4 in). Every fold was
  regrettable (Anna takes the last trick whatever happens).
- hand 2 (Anna deals): Ben knocks on four tens (a bluff); Carla stays, Dan folds, Eva and
  Fenna stay, Anna folds: the whole of Anna & Dan folded (1 each, regrettable), two sides
  play on. Ben takes every trick: Ben & Eva pay 2; Carla & Fenna win. Bluff profit 2 in,
  less the 1 the raise cost: 1.
- hand 3 (Ben deals): played out; tricks to Dan, Anna, Fenna, Eva: Eva takes the last
  trick and Ben & Eva pay 1; the other four win. Pools: Anna & Dan 8, Ben & Eva 5,
  Carla & Fenna 8.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

SAMPLES = Path(__file__).resolve().parents[1] / "sample_logs"
LIVES, CLASSIC, TEAMS = "lives-evening.txt", "classic-short-night.txt", "team-six-players.txt"
NOVEMBER = (LIVES, CLASSIC, TEAMS)

#: The counts the statistics add up, in this order in every table below.
COUNTS = ("hands", "won", "paid", "knocks", "knocks_won", "knocks_faced", "folds", "fold_cost")
#: The analysis's counts (known knocks and folds), where the cards make them certain.
VERDICTS = ("knocks_known", "bluffs", "bluffs_won", "bluff_profit",
            "folds_known", "regrets", "regret_cost")  # fmt: skip

#: By hand, per game and player: COUNTS.
BY_GAME: dict[str, dict[str, tuple[int, ...]]] = {
    LIVES: {
        "Anna": (3, 3, 0, 1, 1, 1, 0, 0),
        "Ben": (3, 0, 3, 0, 0, 2, 2, 2),
        "Carla": (3, 1, 3, 1, 0, 1, 1, 1),
    },
    CLASSIC: {
        "Anna": (2, 0, 2, 0, 0, 1, 1, 1),
        "Ben": (2, 2, 0, 0, 0, 1, 0, 0),
        "Dan": (2, 0, 3, 1, 0, 0, 0, 0),
    },
    TEAMS: {
        "Anna": (3, 2, 1, 1, 1, 1, 1, 1),
        "Ben": (3, 0, 3, 1, 0, 1, 1, 1),
        "Carla": (3, 2, 1, 0, 0, 2, 1, 1),
        "Dan": (3, 2, 1, 0, 0, 2, 1, 1),
        "Eva": (3, 0, 2, 0, 0, 2, 1, 1),
        "Fenna": (3, 2, 1, 0, 0, 2, 1, 1),
    },
}
#: By hand, the lives games' VERDICTS per player (the classic game's are left to the
#: analysis: Dan's knock and Anna's fold are not certain either way).
VERDICTS_BY_GAME: dict[str, dict[str, tuple[int, ...]]] = {
    LIVES: {
        "Anna": (1, 1, 1, 2, 0, 0, 0),
        "Ben": (0, 0, 0, 0, 2, 2, 2),
        "Carla": (1, 1, 0, 0, 1, 1, 1),
    },
    TEAMS: {
        "Anna": (1, 1, 1, 4, 1, 1, 1),
        "Ben": (1, 1, 0, 1, 1, 1, 1),
        **{p: (0, 0, 0, 0, 1, 1, 1) for p in ("Carla", "Dan", "Eva", "Fenna")},
    },
}
#: By hand, per side of the team game: COUNTS then VERDICTS. A side's hands and wins are
#: the side's (a hand both partners win counts once); the rest is its players' added up.
BY_SIDE = {
    "Anna & Dan": (3, 2, 2, 1, 1, 3, 2, 2, *(1, 1, 1, 4, 2, 2, 2)),
    "Ben & Eva": (3, 0, 5, 1, 0, 3, 2, 2, *(1, 1, 0, 1, 2, 2, 2)),
    "Carla & Fenna": (3, 2, 2, 0, 0, 4, 2, 2, *(0, 0, 0, 0, 2, 2, 2)),
}
#: The unit of each game's scores, and the day and venue it was played.
UNIT = {LIVES: "lives", CLASSIC: "penalty points", TEAMS: "lives"}
VENUE = {LIVES: "Café De Kroeg", CLASSIC: "Café De Kroeg", TEAMS: "Clubhuis De Troef"}
DAY = {LIVES: "2026-11-20", CLASSIC: "2026-11-24", TEAMS: "2026-11-14"}
#: The rule set as every surface names it (with its variants).
LABEL = {LIVES: "Drie levens", CLASSIC: "classic", TEAMS: "lives + team-toepen"}
#: The scores after each game's last hand, as the engine keeps them.
SCORES_AFTER = {
    LIVES: {"Anna": 3, "Ben": 0, "Carla": 0},
    CLASSIC: {"Anna": 2, "Ben": 0, "Dan": 3},
    TEAMS: {"Anna & Dan": 8, "Ben & Eva": 5, "Carla & Fenna": 8},
}


def added(games: Iterable[str], table: dict[str, dict[str, tuple[int, ...]]] = BY_GAME,
          ) -> dict[str, tuple[int, ...]]:  # fmt: skip
    """The hand-worked counts of `games` added up per player (games of one unit only)."""
    total: dict[str, tuple[int, ...]] = {}
    for game in games:
        for player, counts in table[game].items():
            before = total.get(player, (0,) * len(counts))
            total[player] = tuple(a + b for a, b in zip(before, counts, strict=True))
    return total


#: By hand, each hand's end as every surface words it: who won (a side as a side), who
#: paid what, and the scores after it (a player out of the game is no longer scored).
RESULTS: dict[str, list[tuple[str, str, str]]] = {
    LIVES: [
        ("Anna wins the hand (stake 2)", "Ben 1, Carla 1",
         "Anna 3 lives, Ben 2 lives, Carla 2 lives"),
        ("Ben took the last trick and loses the hand; Anna and Carla win (stake 1)", "Ben 1",
         "Anna 3 lives, Ben 1 life, Carla 2 lives"),
        ("Carla took the last trick and loses the hand; Anna wins (stake 2). Ben and Carla are "
         "out of the game. Game over: Anna wins the game", "Ben 1, Carla 2", "Anna 3 lives"),
    ],
    CLASSIC: [
        ("Ben wins the hand (stake 1)", "Anna 1, Dan 1",
         "Anna 1 point, Ben 0 points, Dan 1 point"),
        ("Ben wins the hand (stake 2)", "Anna 1, Dan 2",
         "Anna 2 points, Ben 0 points, Dan 3 points"),
    ],
    TEAMS: [
        ("Anna & Dan win the hand (stake 2)", "Ben 1, Carla 1, Eva 1, Fenna 1",
         "Anna & Dan 10 lives, Ben & Eva 8 lives, Carla & Fenna 8 lives"),
        ("Ben took the last trick: Ben & Eva lose the hand; Carla & Fenna win (stake 2)",
         "Anna 1, Ben 2, Dan 1", "Anna & Dan 8 lives, Ben & Eva 6 lives, Carla & Fenna 8 lives"),
        ("Eva took the last trick: Ben & Eva lose the hand; "
         "Anna & Dan and Carla & Fenna win (stake 1)",
         "Eva 1", "Anna & Dan 8 lives, Ben & Eva 5 lives, Carla & Fenna 8 lives"),
    ],
}  # fmt: skip
#: By hand, each hand in a line (the Evenings and Games pages): the decisions, who won,
#: who paid; and the standings after the game, best first.
HAND_LINES = {
    LIVES: [
        "Anna knocked; Ben, Carla folded; Anna won (stake 2); paid: Ben 1, Carla 1",
        "Anna and Carla won (stake 1); paid: Ben 1",
        "Carla knocked; Ben folded; Anna won (stake 2); paid: Ben 1, Carla 2",
    ],
    CLASSIC: [
        "Ben won (stake 1); paid: Anna 1, Dan 1",
        "Dan knocked; Anna folded; Ben won (stake 2); paid: Anna 1, Dan 2",
    ],
    TEAMS: [
        "Anna knocked; Ben, Carla, Eva, Fenna folded; Anna & Dan won (stake 2); "
        "paid: Ben 1, Carla 1, Eva 1, Fenna 1",
        "Ben knocked; Anna, Dan folded; Carla & Fenna won (stake 2); paid: Anna 1, Ben 2, Dan 1",
        "Anna & Dan and Carla & Fenna won (stake 1); paid: Eva 1",
    ],
}
STANDINGS = {
    LIVES: "Anna 3 lives, Ben out, Carla out",
    CLASSIC: "Ben 0 points, Anna 2 points, Dan 3 points",
    TEAMS: "Anna & Dan 8 lives, Carla & Fenna 8 lives, Ben & Eva 5 lives",
}
