"""A season's standings on a hand-made season: evenings placed by net games from the
engine's `game_end` facts, shared places, the minimum evenings, the worst dropped, the
bots' evenings apart; and the club file that names the seasons, refused in words."""

from __future__ import annotations

import dataclasses
import json
from datetime import date, datetime
from functools import cache
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kroeg.analytics.club import Season, read_club
from kroeg.analytics.season import standings
from kroeg.analytics.views import connect
from kroeg.cli import app
from kroeg.cli import standings as standings_command
from kroeg.recorder.errors import UsageError
from kroeg.recorder.events import GameEnd
from kroeg.recorder.records import GameRecord
from kroeg.recorder.rules import Ruleset
from kroeg.recorder.simulate import simulate
from kroeg.recorder.store import Dataset

CLUB = ("Anna", "Ben", "Carla", "Dan")


@cache
def _finished(preset: str) -> GameRecord:
    """A whole game the engine played (seed 3): classic names a loser, lives a winner,
    Troefcall a winning and a losing side."""
    game = next(iter(simulate(Ruleset.preset(preset), 4, 400, 3)))
    assert [e for e in game.events if isinstance(e, GameEnd)], "the game did not finish"
    return game


def _end(game: GameRecord) -> GameEnd:
    (end,) = (e for e in game.events if isinstance(e, GameEnd))
    return end


def game(
    game_id: str, when: str, *, loser: str | None = None, winner: str | None = None,
    preset: str = "classic", venue: str = "De Kroon", source: str = "typed",
) -> GameRecord:  # fmt: skip
    """The engine's finished game again, its players seated so that `loser` (classic) or
    `winner` (lives, Troefcall: a player of the winning side) sits where the engine's
    `game_end` says."""
    base = _finished(preset)
    end = _end(base)
    seat, name = (end.loser, loser) if preset == "classic" else (end.seat, winner)
    assert seat is not None and name is not None
    others = [p for p in CLUB if p != name]
    players = tuple(name if i == seat else others.pop(0) for i in range(4))
    return dataclasses.replace(
        base, game_id=game_id, players=players, source=source, venue=venue,
        started_at=datetime.fromisoformat(when),
    )  # fmt: skip


SEASON = Season("Winter", date(2026, 11, 1), date(2026, 11, 30), min_evenings=2, drop_worst=1,
                placing_points=(10, 8, 6, 5))  # fmt: skip


def _standings(tmp_path: Path, games: list[GameRecord], season: Season = SEASON):
    dataset = Dataset(tmp_path / "club")
    dataset.write(games)
    return standings(connect(dataset), season)


def test_an_evening_places_its_players_by_net_games_and_level_players_share(
    tmp_path: Path,
) -> None:
    """One evening, three classic games: Ben loses two, Anna one. Carla and Dan, level
    at 0, share first and second: (10 + 8) / 2 = 9 each; Anna third (6), Ben fourth (5)."""
    found = _standings(tmp_path, [
        game("e1", "2026-11-06 20:00", loser="Ben"),
        game("e2", "2026-11-06 21:00", loser="Anna"),
        game("e3", "2026-11-06 22:00", loser="Ben"),
    ])  # fmt: skip
    evening = {r["player"]: r for r in found.evenings.iter_rows(named=True)}
    assert {p: (r["games"], r["won"], r["lost"]) for p, r in evening.items()} == {
        "Anna": (3, 0, 1), "Ben": (3, 0, 2), "Carla": (3, 0, 0), "Dan": (3, 0, 0),
    }  # fmt: skip
    assert {p: (r["place"], r["points"]) for p, r in evening.items()} == {
        "Anna": (3, 6.0), "Ben": (4, 5.0), "Carla": (1, 9.0), "Dan": (1, 9.0),
    }  # fmt: skip
    # One evening is fewer than the season's minimum of two: listed, nobody ranked.
    assert found.table["place"].to_list() == [None] * 4


def test_the_minimum_and_the_dropped_evenings(tmp_path: Path) -> None:
    """Three evenings (lives: the winner's game). Anna plays all three, wins two: her
    worst evening is dropped; Dan plays only one, under the minimum of two: not ranked;
    Ben plays two, the minimum, so none of his is dropped."""
    games = [
        # 6 Nov: Anna wins (10), Ben, Carla, Dan level second to fourth: (8 + 6 + 5) / 3.
        game("a1", "2026-11-06 20:00", winner="Anna", preset="lives"),
        # 13 Nov: Carla wins; Anna, Ben, Dan level.
        game("b1", "2026-11-13 20:00", winner="Carla", preset="lives"),
        # 20 Nov: Anna wins twice, Ben once; Carla and Dan nothing.
        game("c1", "2026-11-20 20:00", winner="Anna", preset="lives"),
        game("c2", "2026-11-20 21:00", winner="Anna", preset="lives"),
        game("c3", "2026-11-20 22:00", winner="Ben", preset="lives"),
    ]
    three_of = (8 + 6 + 5) / 3
    found = _standings(tmp_path, games)
    points = {
        (r["evening"][:10], r["player"]): r["points"] for r in found.evenings.iter_rows(named=True)
    }
    assert points[("2026-11-06", "Anna")] == 10 and points[("2026-11-06", "Dan")] == three_of
    assert points[("2026-11-13", "Carla")] == 10 and points[("2026-11-13", "Anna")] == three_of
    assert points[("2026-11-20", "Anna")] == 10 and points[("2026-11-20", "Ben")] == 8
    assert points[("2026-11-20", "Carla")] == points[("2026-11-20", "Dan")] == (6 + 5) / 2
    table = {r["player"]: r for r in found.table.iter_rows(named=True)}
    # Everyone played all three evenings here: each drops the worst one.
    assert {p: (r["evenings"], r["counted"]) for p, r in table.items()} == {p: (3, 2) for p in CLUB}
    assert table["Anna"]["points"] == 20 and table["Anna"]["dropped"] == pytest.approx(three_of)
    assert table["Anna"]["place"] == 1 and table["Anna"]["firsts"] == 2
    # Without the drop, the whole season counts.
    whole = _standings(tmp_path / "whole", games, dataclasses.replace(SEASON, drop_worst=0))
    assert whole.table.filter(player="Anna")["points"].item() == pytest.approx(20 + three_of)


def test_a_player_at_the_minimum_keeps_every_evening_and_under_it_is_not_ranked(
    tmp_path: Path,
) -> None:
    games = [
        game("a1", "2026-11-06 20:00", loser="Ben"),
        game("b1", "2026-11-13 20:00", loser="Anna"),
        # Dan's third evening is another four: Dan is with Anna, Ben and Carla only twice.
        game("c1", "2026-11-20 20:00", loser="Carla"),
    ]
    evening_of_three = dataclasses.replace(
        game("d1", "2026-11-27 20:00", loser="Ben"), players=("Eva", "Frits", "Ben", "Gijs")
    )
    found = _standings(tmp_path, [*games, evening_of_three],
                       dataclasses.replace(SEASON, min_evenings=3))  # fmt: skip
    table = {r["player"]: r for r in found.table.iter_rows(named=True)}
    assert table["Ben"]["evenings"] == 4 and table["Ben"]["counted"] == 3  # one dropped
    assert table["Anna"]["evenings"] == 3 and table["Anna"]["counted"] == 3  # at the minimum
    assert table["Eva"]["place"] is None and table["Eva"]["evenings"] == 1  # under it
    ranked = found.table.filter(found.table["place"].is_not_null())["player"].to_list()
    assert set(ranked) == set(CLUB)


def test_the_bots_and_other_games_and_days_are_not_the_seasons(tmp_path: Path) -> None:
    games = [
        game("in", "2026-11-06 20:00", loser="Ben"),
        game("bots", "2026-11-06 21:00", loser="Anna", source="engine"),
        game("before", "2026-10-31 23:00", loser="Carla"),
        game("after", "2026-12-01 20:00", loser="Dan"),
        game("troef", "2026-11-06 22:00", winner="Anna", preset="troefcall"),
    ]
    found = _standings(tmp_path, games, dataclasses.replace(SEASON, min_evenings=1))
    lost = {r["player"]: r["lost"] for r in found.evenings.iter_rows(named=True)}
    assert lost == {"Anna": 0, "Ben": 1, "Carla": 0, "Dan": 0}
    # The Troefcall season: the winning pair both win, the other pair both lose.
    troef = standings(connect(Dataset(tmp_path / "club")),
                      dataclasses.replace(SEASON, game="troefcall", min_evenings=1))  # fmt: skip
    rows = {r["player"]: (r["won"], r["lost"]) for r in troef.evenings.iter_rows(named=True)}
    winners = {p for p, (won, _) in rows.items() if won}
    assert "Anna" in winners and len(winners) == 2
    assert all(rows[p] == (0, 1) for p in set(CLUB) - winners)


CLUB_FILE = """name = "Café De Kroeg"

[[seasons]]
name = "Winter"
from = 2026-11-01
to = 2026-11-30
min_evenings = 2
drop_worst = 1
placing_points = [10, 8, 6, 5]
"""


def test_kroeg_standings_reads_the_club_file(tmp_path: Path) -> None:
    dataset = Dataset(tmp_path / "club")
    dataset.write([game("a1", "2026-11-06 20:00", loser="Ben"),
                   game("b1", "2026-11-13 20:00", loser="Anna")])  # fmt: skip
    (dataset.path / "club.toml").write_text(CLUB_FILE, encoding="utf-8")
    runner = CliRunner()
    result = runner.invoke(app, ["standings", str(dataset.path), "--season", "winter"])
    assert result.exit_code == 0, result.output
    assert "Winter: toepen, 1 November 2026 to 30 November 2026, 2 evenings." in result.output
    lines = result.output.splitlines()
    header = next(i for i, line in enumerate(lines) if line.startswith("place"))
    # Carla and Dan: level first to third twice, (10 + 8 + 6) / 3 = 8 each time, none
    # dropped at the minimum of two.
    assert lines[header + 1].split() == ["1", "Carla", "2", "2", "16", "0", "2"]
    as_json = runner.invoke(app, ["standings", str(dataset.path), "--season", "Winter",
                                  "--format", "json"])  # fmt: skip
    rows = json.loads(as_json.output)
    assert {r["player"]: r["points"] for r in rows} == {
        "Carla": 16.0, "Dan": 16.0, "Anna": 8.0 + 5.0, "Ben": 5.0 + 8.0,
    }  # fmt: skip
    wrong = runner.invoke(app, ["standings", str(dataset.path), "--season", "Wintr"])
    assert wrong.exit_code == 2 and "did you mean Winter?" in wrong.output


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("[[seasons]]\nname = 'W'\nfrom = 2026-11-01\n", "no to date"),
        ("[[seasons]]\nname = 'W'\nfrom = '2026-11-01'\nto = 2026-11-30\n", "must be a date"),
        ("[[seasons]]\nname = 'W'\nfrom = 2026-11-30\nto = 2026-11-01\n", "ends (2026-11-01)"),
        ("[[seasons]]\nname = 'W'\nfrom = 2026-11-01\nto = 2026-11-30\ndrop_wrst = 1\n",
         "did you mean drop_worst?"),
        ("[[seasons]]\nname = 'W'\nfrom = 2026-11-01\nto = 2026-11-30\nmin_evenings = 0\n",
         "min_evenings must be a whole number, 1 or more"),
        ("[[seasons]]\nname = 'W'\nfrom = 2026-11-01\nto = 2026-11-30\n"
         "placing_points = [5, 8]\n", "must not rise"),
        ("[[seasons]]\nname = 'W'\nfrom = 2026-11-01\nto = 2026-11-30\ngame = 'toep'\n",
         "did you mean toepen?"),
        ("[[seasons]]\nname = 'W'\nfrom = 2026-11-01\nto = 2026-11-30\n" * 2,
         "two seasons are called 'W'"),
        ("name = \n", "not a club file"),
        ("colour = 'red'\n", "unknown key 'colour'"),
        ("language = 'nld'\n", "did you mean nl?"),
        ("language = 'xx'\n", "unknown language 'xx'"),
        ("language = 1\n", "language must be text"),
    ],
)  # fmt: skip
def test_a_club_file_that_cannot_be_read_is_refused_in_words(
    tmp_path: Path, text: str, says: str
) -> None:
    path = tmp_path / "club.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(UsageError) as refused:
        read_club(path)
    assert says in str(refused.value) and str(path) in str(refused.value)


def test_no_club_file_says_where_it_looked(tmp_path: Path) -> None:
    dataset = Dataset(tmp_path / "club")
    dataset.write([game("a1", "2026-11-06 20:00", loser="Ben")])
    result = CliRunner().invoke(app, ["standings", str(dataset.path), "--season", "Winter"])
    assert result.exit_code == 2 and f"{dataset.path / 'club.toml'}: no club file" in result.output


@pytest.mark.parametrize(
    ("lang", "heading", "rows"),
    [
        ("en", "## Winter: the standings after November 2026",
         ["| place | player | points | evenings counted |", "| 1 | Carla | 16 | 2 of 2 |",
          "| 1 | Dan | 16 | 2 of 2 |", "| 3 | Anna | 13 | 2 of 2 |"]),
        ("nl", "## Winter: de stand na november 2026",
         ["| plaats | speler | punten | avonden geteld |", "| 1 | Carla | 16 | 2 van 2 |"]),
    ],
)  # fmt: skip
def test_the_bulletin_tells_the_season_as_it_stands(
    tmp_path: Path, lang: str, heading: str, rows: list[str]
) -> None:
    """A month in a season of the club file: the bulletin has the season's table at the
    month's end, places shared as the table shares them (a table, not a numbered list,
    which a Markdown reader would renumber 1, 2, 3)."""
    dataset = Dataset(tmp_path / "club")
    dataset.write([game("a1", "2026-11-06 20:00", loser="Ben"),
                   game("b1", "2026-11-13 20:00", loser="Anna"),
                   game("later", "2026-12-04 20:00", loser="Carla")])  # fmt: skip
    (dataset.path / "club.toml").write_text(CLUB_FILE.replace("2026-11-30", "2027-03-31"), "utf-8")
    out = tmp_path / "out"
    result = CliRunner().invoke(app, ["newsletter", str(dataset.path), "--month", "2026-11",
                                      "--out", str(out), "--lang", lang])  # fmt: skip
    assert result.exit_code == 0, result.output
    text = (out / "newsletter-2026-11.md").read_text(encoding="utf-8")
    assert heading in text
    lines = text.splitlines()
    start = lines.index(rows[0])
    assert lines[start : start + len(rows) - 1 + 2][2:] == rows[1:]  # December is not in it
    page = (out / "newsletter-2026-11.html").read_text(encoding="utf-8")
    assert "<td>Carla</td><td>16</td>" in page


def test_the_cli_and_the_bulletin_say_the_season_s_rules_in_one_sentence(tmp_path: Path) -> None:
    """`kroeg standings` and the English bulletin read the season's rules from the one
    message (words.py, `season_rules`), with the same figures."""
    from kroeg.analytics.season import rules_sentence
    from kroeg.analytics.words import words

    dataset = Dataset(tmp_path / "club")
    dataset.write([game("a1", "2026-11-06 20:00", loser="Ben"),
                   game("b1", "2026-11-13 20:00", loser="Anna")])  # fmt: skip
    (dataset.path / "club.toml").write_text(CLUB_FILE, encoding="utf-8")
    season = read_club(dataset.path / "club.toml").seasons[0]
    found = standings(connect(dataset), season)
    sentence = rules_sentence(found, words("en"))
    assert sentence.startswith("An evening's places score 10, 8, 6, 5")
    told = CliRunner().invoke(app, ["standings", str(dataset.path), "--season", "Winter"])
    assert sentence in told.output.splitlines()
    out = tmp_path / "out"
    CliRunner().invoke(app, ["newsletter", str(dataset.path), "--month", "2026-11",
                             "--out", str(out)])  # fmt: skip
    assert sentence in (out / "newsletter-2026-11.md").read_text(encoding="utf-8").splitlines()


def _toml_after(text: str, opening: str) -> str:
    """The first block of `text` after the line `opening`, to its closing fence (or to
    the first line indented less than the block)."""
    lines = text.splitlines()
    start = lines.index(opening) + 1
    if opening.startswith("```"):
        return "\n".join(lines[start : lines.index("```", start)])
    block = []
    for line in lines[start:]:
        if line.strip() and not line.startswith("        "):
            break
        block.append(line[8:])
    return "\n".join(block).strip() + "\n"


def test_the_club_file_the_docs_and_the_help_show_is_one_kroeg_reads(tmp_path: Path) -> None:
    """docs/SEASONS.md's example and `kroeg standings --help`'s are files `read_club`
    takes, with the values they say."""
    docs = (Path(__file__).parents[2] / "docs" / "SEASONS.md").read_text(encoding="utf-8")
    path = tmp_path / "club.toml"
    path.write_text(_toml_after(docs, "```toml"), encoding="utf-8")
    club = read_club(path)
    assert (club.name, club.language) == ("Café De Kroeg", "nl")
    assert club.seasons == (
        Season("Winter 2026", date(2026, 9, 1), date(2026, 12, 31), "toepen", 3, 1,
               (10, 8, 6, 5, 4, 3, 2, 1)),
    )  # fmt: skip
    helped = _toml_after(standings_command.__doc__ or "", "        [[seasons]]")
    path.write_text("[[seasons]]\n" + helped, encoding="utf-8")
    assert read_club(path).seasons == (
        Season("Autumn 2026", date(2026, 9, 1), date(2026, 11, 30), min_evenings=3,
               drop_worst=1),
    )  # fmt: skip


def test_the_season_meant_without_a_name_is_the_one_going_on() -> None:
    from datetime import date

    from kroeg.analytics.club import Season
    from kroeg.analytics.season import default_season

    autumn = Season("Autumn", date(2026, 9, 1), date(2026, 11, 30))
    autumn_troefcall = Season("Troefcall autumn", date(2026, 9, 1), date(2026, 11, 30),
                              game="troefcall")  # fmt: skip
    winter = Season("Winter", date(2026, 12, 1), date(2027, 2, 28))
    seasons = [autumn, autumn_troefcall, winter]
    assert default_season(seasons, date(2026, 12, 7)) is winter  # going on
    assert default_season(seasons, date(2026, 10, 7)) is autumn  # the first listed of a day
    assert default_season(seasons, date(2027, 6, 1)) is winter  # over: the last begun
    assert default_season(seasons, date(2026, 1, 1)) is autumn  # none begun: the first
    year = Season("Year", date(2026, 1, 1), date(2026, 12, 31))
    cup = Season("March cup", date(2026, 3, 1), date(2026, 3, 31), game="troefcall")
    assert default_season([year, cup], date(2026, 6, 15)) is year  # the cup is over
    assert default_season([year, cup], date(2026, 3, 15)) is cup  # both on: the later
