"""A November worked out by hand (tests/conformance_figures.py), on every command-line
surface: `kroeg stats` with every `--by` in table, CSV and JSON, `kroeg replay`, `kroeg
games`, and the newsletter in Markdown, HTML and CSV. A penalty point is never added to a
life: the month mixes classic and lives, and each figure stays in its unit."""

from __future__ import annotations

import csv
import html
import io
import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kroeg.cli import app
from kroeg.parsers import notation
from kroeg.recorder.store import Dataset
from tests.conformance_figures import (
    BY_GAME,
    BY_SIDE,
    CLASSIC,
    COUNTS,
    DAY,
    LABEL,
    LIVES,
    NOVEMBER,
    SAMPLES,
    TEAMS,
    UNIT,
    VENUE,
    VERDICTS,
    VERDICTS_BY_GAME,
    added,
)

runner = CliRunner()


@pytest.fixture(scope="module")
def november(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    """The dataset, and each sample's game id."""
    path = tmp_path_factory.mktemp("november") / "club"
    ids = {}
    for name in NOVEMBER:
        (game,) = notation.load(SAMPLES / name)
        Dataset(path).write([game])
        ids[name] = game.game_id
    return path, ids


def kroeg(*args: object) -> str:
    done = runner.invoke(app, [str(a) for a in args])
    assert done.exit_code == 0, done.output
    return done.output


def rows(dataset: Path, by: str, fmt: str) -> list[dict[str, object]]:
    out = kroeg("stats", dataset, "--by", by, "--format", fmt)
    if fmt == "json":
        return list(json.loads(out))
    return [{k: (int(v) if v.isdigit() else v) for k, v in r.items()}
            for r in csv.DictReader(io.StringIO(out))]  # fmt: skip


def expected_rows(by: str, ids: dict[str, str]) -> dict[tuple[object, ...], tuple[int, ...]]:
    """(unit, group, player) → COUNTS, from the hand-worked games alone."""
    out: dict[tuple[object, ...], tuple[int, ...]] = {}
    for game in NOVEMBER:
        group = {"game": ids[game], "session": ids[game], "month": "2026-11",
                 "venue": VENUE[game], "player": None}[by]  # fmt: skip
        same = [g for g in NOVEMBER if UNIT[g] == UNIT[game] and (
            by == "player" or {"game": ids[g], "session": ids[g], "month": "2026-11",
                                "venue": VENUE[g]}[by] == group)]  # fmt: skip
        for player, counts in added(same).items():
            out[(UNIT[game], group, player)] = counts
    return out


@pytest.mark.parametrize("fmt", ["csv", "json"])
@pytest.mark.parametrize("by", ["player", "game", "session", "month", "venue"])
def test_every_grouping_holds_the_hand_worked_counts_in_their_unit(
    november: tuple[Path, dict[str, str]], by: str, fmt: str
) -> None:
    dataset, ids = november
    column = {"game": "game_id", "session": "game_id"}.get(by, by)
    got = {
        (r["unit"], r[column] if by != "player" else None, r["player"]): tuple(
            int(r[c])
            for c in COUNTS  # type: ignore[call-overload]
        )
        for r in rows(dataset, by, fmt)
    }
    assert got == expected_rows(by, ids)


@pytest.mark.parametrize("fmt", ["csv", "json"])
def test_by_side_holds_each_partnership_of_the_six(
    november: tuple[Path, dict[str, str]], fmt: str
) -> None:
    dataset, _ = november
    got = {
        r["side"]: tuple(int(r[c]) for c in COUNTS + VERDICTS)  # type: ignore[call-overload]
        for r in rows(dataset, "side", fmt)
    }
    assert got == BY_SIDE


def test_the_bluffs_and_regrets_the_cards_make_certain(
    november: tuple[Path, dict[str, str]],
) -> None:
    dataset, ids = november
    got = {
        (r["game_id"], r["player"]): tuple(int(r[c]) for c in VERDICTS)  # type: ignore[call-overload]
        for r in rows(dataset, "game", "json")
        if r["game_id"] != ids[CLASSIC]
    }
    assert got == {
        (ids[game], player): verdicts
        for game, players in VERDICTS_BY_GAME.items()
        for player, verdicts in players.items()
    }


def test_the_table_has_a_block_per_unit_and_never_adds_them(
    november: tuple[Path, dict[str, str]],
) -> None:
    dataset, _ = november
    out = kroeg("stats", dataset, "--by", "month")
    lives, points = out.split("== Toepen, in penalty points ==")
    assert lives.lstrip().startswith("== Toepen, in lives ==")

    def line(block: str, label: str) -> list[str]:
        """The figure's cells, of every block of players the terminal's width cut."""
        found = [x for x in block.splitlines() if x.startswith(label + " ")]
        return [label, *(cell for x in found for cell in x[len(label) :].split())]

    # Anna: 1 life lost in 6 lives hands; 2 penalty points in 2 classic hands (not 3/8).
    assert line(lives, "lost/hand")[1:] == [
        "0.17", "1/6*", "1.00", "6/6*", "0.67", "4/6*", "0.33", "1/3*", "0.67", "2/3*",
        "0.33", "1/3*",
    ]  # fmt: skip
    assert line(points, "lost/hand")[1:] == ["1.00", "2/2*", "0.00", "0/2*", "1.50", "3/2*"]
    assert line(lives, "bluff success")[1:] == [
        "100%", "2/2*", "0%", "0/1*", "0%", "0/1*", "-", "-", "-",
    ]  # fmt: skip
    assert line(lives, "bluff profit")[1:4] == ["3.00", "6/2*", "1.00"]
    assert line(points, "fold cost")[1:] == ["1.00", "1/1*", "-", "-"]


def test_games_names_each_rule_set_with_its_variants_and_the_winner(
    november: tuple[Path, dict[str, str]],
) -> None:
    dataset, ids = november
    lines = kroeg("games", dataset).splitlines()
    for game in NOVEMBER:
        (line,) = [x for x in lines if x.startswith(ids[game])]
        assert f"{DAY[game]} 20:30  {VENUE[game]}" in line
        assert f"  {LABEL[game]}  " in line
    (lives,) = [x for x in lines if x.startswith(ids[LIVES])]
    assert "  Anna won  " in lives


def test_the_replay_tells_each_end_as_the_engine_decided_it(
    november: tuple[Path, dict[str, str]],
) -> None:
    dataset, ids = november

    def replay(game: str, hand: int) -> list[str]:
        return kroeg("replay", dataset, "--game", ids[game], "--hand", hand).splitlines()

    assert replay(LIVES, 1)[-1] == "Anna wins the hand (stake 2)"
    assert "Ben took the last trick and loses the hand; Anna and Carla win (stake 1)" in replay(
        LIVES, 2
    )
    last = replay(LIVES, 3)
    assert "Carla took the last trick and loses the hand; Anna wins (stake 2)" in last
    assert last[-1] == "Game over: Anna wins the game"
    assert replay(CLASSIC, 2)[-1].startswith("Ben wins the hand (stake 2)")
    assert replay(TEAMS, 1)[-1] == "Anna & Dan win the hand (stake 2)"
    assert (
        "Ben took the last trick: Ben & Eva lose the hand; Carla & Fenna win (stake 2)"
        in replay(TEAMS, 2)
    )
    assert (
        "Eva took the last trick: Ben & Eva lose the hand; "
        "Anna & Dan and Carla & Fenna win (stake 1)" in replay(TEAMS, 3)
    )


@pytest.fixture(scope="module")
def bulletin(
    november: tuple[Path, dict[str, str]], tmp_path_factory: pytest.TempPathFactory
) -> dict[str, str]:
    dataset, _ = november
    out = tmp_path_factory.mktemp("bulletin")
    kroeg("newsletter", dataset, "--month", "2026-11", "--out", out)
    return {p.suffix: p.read_text(encoding="utf-8") for p in out.iterdir()}


def test_the_bulletin_tells_the_month(bulletin: dict[str, str]) -> None:
    markdown = bulletin[".md"]
    assert (
        "In November 2026 the club met on 3 evenings and played 3 games, 8 hands in all, "
        "at Café De Kroeg and Clubhuis De Troef. Games won: Anna 1." in markdown
    )  # plain Markdown: no backslash before ordinary punctuation
    # A board per rule set named with its variants; lives and points never in one. Under
    # 10 hands a player each, the rule sets are listed under one heading instead.
    unranked = markdown.split("## Rule sets without a leaderboard\n")[1].split("\n## ")[0]
    for game in NOVEMBER:
        assert f"## Leaderboard: {LABEL[game]}" not in markdown
        assert f"\n- {LABEL[game]}: " in unranked
    # The hand of the month ends with the side that won it, named as a side.
    assert "    Anna & Dan win the hand" in markdown.splitlines()


def _cells(counts: tuple[int, ...]) -> list[str]:
    """A bulletin row from hand-worked counts: hands, won, lost/hand, knocks/hand, folds."""
    hands, won, paid, knocks, _, faced, folds, _ = counts

    def pct(done: int, of: int) -> str:
        return f"{100 * done / of:.0f}% {done}/{of}*" if of else "-"

    return [str(hands), pct(won, hands), f"{paid / hands:.2f} {paid}/{hands}*",
            f"{knocks / hands:.2f} {knocks}/{hands}*", pct(folds, faced)]  # fmt: skip


def markdown_tables(markdown: str) -> dict[str, dict[str, list[str]]]:
    """Each `## heading` of the bulletin (unescaped) → its table's rows by first cell."""
    tables: dict[str, dict[str, list[str]]] = {}
    rows: dict[str, list[str]] = {}
    for line in markdown.splitlines():
        if line.startswith("## "):
            rows = tables.setdefault(unescape(line[3:]), {})
        elif line.startswith("| ") and not line.startswith("|---"):
            cells = [unescape(c.strip()) for c in line.strip("|").split("|")]
            rows[cells[0]] = cells[1:]
    return tables


def unescape(markdown: str) -> str:
    return re.sub(r"\\([!-/:-@\[-`{-~])", r"\1", markdown)


def test_every_player_and_side_table_holds_the_hand_worked_figures(
    bulletin: dict[str, str],
) -> None:
    tables = markdown_tables(bulletin[".md"])
    page = bulletin[".html"]
    expected = [(f"Every player: {LABEL[game]}", who, counts)
                for game in NOVEMBER for who, counts in BY_GAME[game].items()]  # fmt: skip
    expected += [(f"Every side (team toepen): {LABEL[TEAMS]}", side, counts[: len(COUNTS)])
                 for side, counts in BY_SIDE.items()]  # fmt: skip
    for heading, who, counts in expected:
        hands, won, lost, knocks, folds = _cells(counts)
        # | who | hands | won | lost/hand | knocks/hand | bluffs | folds | fold regret |
        row = tables[heading][who]
        assert [row[0], row[1], row[2], row[3], row[5]] == [hands, won, lost, knocks, folds]
        # HTML: the same cells, each name escaped.
        assert f"<tr><td>{html.escape(who)}</td><td>{hands}</td><td>{won}</td>" in page
    assert tables[f"Every side (team toepen): {LABEL[TEAMS]}"]["side"][0] == "hands"
    assert "<th>side</th>" in page


def test_the_bulletin_csv_holds_each_count_with_its_unit(bulletin: dict[str, str]) -> None:
    got = {}
    for r in csv.DictReader(io.StringIO(bulletin[".csv"])):
        got[(r["rule_set"], r["player"])] = (
            r["unit"], int(r["hands"]), int(r["win_rate_done"]), int(r["cost_per_hand_done"]),
            int(r["knock_rate_done"]), int(r["fold_rate_of"]), int(r["fold_rate_done"]),
        )  # fmt: skip
    expected = {}
    for game in NOVEMBER:
        for who, c in BY_GAME[game].items():
            expected[(LABEL[game], who)] = (UNIT[game], c[0], c[1], c[2], c[3], c[5], c[6])
    for side, c in BY_SIDE.items():
        expected[(f"{LABEL[TEAMS]} (sides)", side)] = ("lives", c[0], c[1], c[2], c[3], c[5], c[6])
    assert got == expected
