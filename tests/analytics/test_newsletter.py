"""The newsletter: three files, names escaped, formulas neutralised, nothing from the network."""

from __future__ import annotations

import csv
import dataclasses
import re
from datetime import date
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kroeg.cli import app
from kroeg.parsers import notation
from kroeg.recorder.store import Dataset

SAMPLES = Path(__file__).resolve().parents[2] / "sample_logs"
HOSTILE = ("<script>alert(1)</script>", '=HYPERLINK("x")', "Carla & Co", "@Dan")


@pytest.fixture
def club(tmp_path: Path) -> Path:
    (night,) = notation.load(SAMPLES / "laundry-and-checks.txt")
    renamed = dataclasses.replace(night, players=HOSTILE, game_id="hostile")
    Dataset(tmp_path / "ds").write([night, renamed])
    return tmp_path / "ds"


def test_the_newsletter_files(club: Path, tmp_path: Path) -> None:
    result = CliRunner().invoke(
        app, ["newsletter", str(club), "--month", "2026-10", "--out", str(tmp_path / "out")]
    )
    assert result.exit_code == 0, result.output
    names = sorted(p.name for p in (tmp_path / "out").iterdir())
    assert names == ["newsletter-2026-10.csv", "newsletter-2026-10.html", "newsletter-2026-10.md"]
    md = (tmp_path / "out" / "newsletter-2026-10.md").read_text(encoding="utf-8")
    assert md.startswith("# Toepen in October 2026\n")
    for section in ("## Rule sets without a leaderboard", "## Costliest fold",
                    "## Hand of the month", "## Every player: classic"):  # fmt: skip
        assert section in md
    assert "Ben knocks: the stake is now 2" in md  # the hand of the month, move by move


def test_games_of_one_evening_are_named_by_their_order(club: Path, tmp_path: Path) -> None:
    """Two games of one evening at one time: each named as the dashboard numbers it
    (analytics.evenings.game_names), in either language. In `club` the two games are the
    same hands under other names, so every fact ties and the first game is named; a
    second evening has a costlier fold in its second game, the knock war's."""
    shown = _newsletter(club, "2026-10", tmp_path / "en")
    assert ("Carla folded for 1 in hand 2 of game 1 of Fri 23 Oct, 20:00 at Café De Kroeg "
            "(Anna, Ben, Carla, Dan).") in shown  # fmt: skip
    (night,) = notation.load(SAMPLES / "laundry-and-checks.txt")
    (war,) = notation.load(SAMPLES / "knock-war.txt")
    moved = dataclasses.replace(
        war, players=HOSTILE, game_id="war", started_at=night.started_at, venue=night.venue
    )
    Dataset(tmp_path / "two").write([night, moved])
    second = _newsletter(tmp_path / "two", "2026-10", tmp_path / "two-en")
    assert ("<script>alert(1)</script> folded for 4 in hand 1 of game 2 of Fri 23 Oct, 20:00 at "
            f"Café De Kroeg ({', '.join(HOSTILE)})") in second  # fmt: skip
    dutch = _newsletter(club, "2026-10", tmp_path / "nl", "--lang", "nl")
    assert ("Hand 2 van spel 1 van vr 23 okt, 20:00 in Café De Kroeg (Anna, Ben, Carla, Dan), "
            "gespeeld om een inzet van 2.") in dutch  # fmt: skip
    tweede = _newsletter(tmp_path / "two", "2026-10", tmp_path / "two-nl", "--lang", "nl")
    assert f"van spel 2 van vr 23 okt, 20:00 in Café De Kroeg ({', '.join(HOSTILE)})" in tweede


def test_html_escapes_every_name_and_loads_nothing(club: Path, tmp_path: Path) -> None:
    CliRunner().invoke(app, ["newsletter", str(club), "--month", "2026-10", "--out", str(tmp_path)])
    page = (tmp_path / "newsletter-2026-10.html").read_text(encoding="utf-8")
    assert "<script>" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "Carla &amp; Co" in page
    assert not re.search(r"(src|href)=|https?://|@import|url\(", page)
    assert page.count("<svg") == 2


def test_csv_neutralises_formulas(club: Path, tmp_path: Path) -> None:
    CliRunner().invoke(app, ["newsletter", str(club), "--month", "2026-10", "--out", str(tmp_path)])
    with open(tmp_path / "newsletter-2026-10.csv", encoding="utf-8") as handle:
        players = [row["player"] for row in csv.DictReader(handle)]
    assert '\'=HYPERLINK("x")' in players and "'@Dan" in players
    assert "<script>alert(1)</script>" in players  # plain text in CSV, not a formula


def test_a_month_without_hands_and_a_bad_month(club: Path, tmp_path: Path) -> None:
    # A mistyped month or language is said before any work: nothing is analysed yet.
    out = str(tmp_path / "o")
    for options, said in (
        (["--month", "2026/11"], "Error: expected a month like 2026-11, found '2026/11'"),
        (["--month", "2026-11", "--lang", "de"], "Error: no newsletter words for 'de': "),
    ):
        refused = CliRunner().invoke(app, ["newsletter", str(club), *options, "--out", out])
        assert refused.exit_code == 2 and refused.output.startswith(said), refused.output
        assert not (club / "derived").exists() and not (tmp_path / "o").exists()
    empty = CliRunner().invoke(
        app, ["newsletter", str(club), "--month", "2025-01", "--out", str(tmp_path)]
    )
    assert empty.exit_code == 1
    assert empty.output.strip() == "Error: no finished hands in 2025-01"
    bad = CliRunner().invoke(
        app, ["newsletter", str(club), "--month", "Nov", "--out", str(tmp_path)]
    )
    assert bad.output.strip() == "Error: expected a month like 2026-11, found 'Nov'"


def test_a_troefcall_evening_gets_its_own_tables(tmp_path: Path) -> None:
    (evening,) = notation.load(SAMPLES / "troefcall-evening.txt")
    hostile = dataclasses.replace(evening, players=HOSTILE, game_id="hostile-tc")
    Dataset(tmp_path / "tc").write([evening, hostile])
    out = tmp_path / "out"
    result = CliRunner().invoke(
        app, ["newsletter", str(tmp_path / "tc"), "--month", "2026-11", "--out", str(out)]
    )
    assert result.exit_code == 0, result.output
    md = (out / "newsletter-2026-11.md").read_text(encoding="utf-8")
    assert md.startswith("# Troefcall in November 2026\n") and "## Leaderboard" not in md
    # Each figure as the statistics registry writes it, small samples starred.
    assert "| Anna & Carla | 3 | 50% 1/2* | 33% 1/3* | - | 5.67 17/3* | 1.67 5/3* |" in md
    assert "| Dan | 3 | - | 0% 0/3* | - | 5.33 16/3* | 1.33 4/3* |" in md
    page = (out / "newsletter-2026-11.html").read_text(encoding="utf-8")
    assert "Calls made good (the majority of the tricks)" in page and "<script>" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt; &amp; Carla &amp; Co" in page
    text = (out / "newsletter-2026-11.csv").read_text(encoding="utf-8")
    rows = list(csv.DictReader(text.splitlines()))
    assert {r["player"] for r in rows} >= {"Anna", '\'=HYPERLINK("x")'}
    assert {r["unit"] for r in rows} == {"points"}  # Troefcall's, from games.unit


def test_a_side_s_every_player_wins_and_loses_its_games(tmp_path: Path) -> None:
    """A Troefcall game is won by a side: both partners are credited, as the engine's
    `game_end` names the side (by its first seat), and so in a team game."""
    from collections import Counter

    dataset = _with_bots(tmp_path / "tc", "troefcall", 400, source="text")
    won: Counter[str] = Counter()
    lost: Counter[str] = Counter()
    for game in Dataset(dataset).iter_games():
        if game.started_at is None or game.started_at.month != 10:
            continue
        for event in game.events:
            if event.kind == "game_end":  # partners sit opposite: seats 0 & 2, 1 & 3
                _, winner, _, _, loser = event.to_row()
                for seat, into in ((winner, won), (loser, lost)):
                    if seat is not None:  # None: a draw
                        into.update(game.players[s] for s in (seat, (seat + 2) % 4))
    assert won and lost
    md = _newsletter(dataset, "2026-10", tmp_path / "out")
    said = {
        key: Counter({name: int(n) for name, n in re.findall(r"(\w+) (\d+)", text)})
        for key, text in re.findall(r"Games (won|lost): ([^.]*)\.", md)
    }
    assert said == {"won": won, "lost": lost}


MARKUP_NAMES = ("![i](//127.0.0.1/img.png)", "[login](https//x.y)", "<img src=x onerror=a()>",
                "a|b **c**")  # fmt: skip


def test_names_are_text_in_the_markdown_a_commonmark_renderer_shows(tmp_path: Path) -> None:
    from markdown_it import MarkdownIt  # CommonMark, as a club's editor would paste it

    (evening,) = notation.load(SAMPLES / "troefcall-evening.txt")
    marked = dataclasses.replace(evening, players=MARKUP_NAMES, game_id="markup")
    Dataset(tmp_path / "tc").write([marked])
    out = tmp_path / "out"
    result = CliRunner().invoke(
        app, ["newsletter", str(tmp_path / "tc"), "--month", "2026-11", "--out", str(out)]
    )
    assert result.exit_code == 0, result.output
    md = (out / "newsletter-2026-11.md").read_text(encoding="utf-8")
    rendered = MarkdownIt("commonmark").render(md)
    assert "<img" not in rendered and "<a " not in rendered and "<strong>c" not in rendered
    assert "&lt;img src=x onerror=a()&gt;" in rendered  # shown, as typed
    rows = [line for line in md.splitlines() if line.startswith("| a")]
    assert rows and all(row.count(" | ") == 6 for row in rows)  # the | did not add a cell


def test_the_sample_logs_month_reads_as_a_bulletin(tmp_path: Path) -> None:
    """The sample logs' November: the month summed up, a leaderboard per rule set with the
    ranking rule stated, the awards naming their games by date, venue and players (never a
    hex id), and the hand of the month told in at most 15 lines."""
    from kroeg.analytics.newsletter import MIN_RANKED_HANDS, STORY_LINES

    dataset = Dataset(tmp_path / "club")
    for log in sorted(SAMPLES.glob("*.txt")):
        dataset.write(notation.load(log))
    out = tmp_path / "out"
    result = CliRunner().invoke(
        app, ["newsletter", str(dataset.path), "--month", "2026-11", "--out", str(out)]
    )
    assert result.exit_code == 0, result.output
    text = (out / "newsletter-2026-11.md").read_text(encoding="utf-8")
    shown = re.sub(r"\\(.)", r"\1", text)  # what a Markdown renderer shows
    # Plain Markdown: a backslash only where markup would start, none before a comma.
    assert not re.search(r"\\[,.:;%/()!?'\"-]", text), re.findall(r".{20}\\[,.:;%/()].{5}", text)
    assert "## The month" in shown and "the club met on" in shown
    boards = re.findall(r"^## Leaderboard: (\S+)$", shown, re.M)
    assert len(boards) >= 2 and len(set(boards)) == len(boards)  # one per rule set
    # How the leaderboards rank is said once, above the first of them, not under each.
    assert shown.count(f"ranked from {MIN_RANKED_HANDS} hands in the month") == 1
    assert shown.count("points and lives are never added") == 1
    said = shown.index("points and lives are never added")
    first = shown.index("## Leaderboard: ")
    assert first < said < shown.index("\n1. ") < shown.index("## Leaderboard: ", first + 1)
    for award in ("## Costliest fold", "## Hand of the month"):
        assert award in shown
    assert "of the game of " in shown  # games named by their evening
    ids = {g.game_id for g in dataset.read_games()}
    assert not [i for i in ids if i in text]  # no game id anywhere
    assert not re.search(r"\b[0-9a-f]{12,16}\b", text)
    # Team toepen (sample_logs/team-toepen-evening.txt and team-side-folds.txt, two hands
    # each): the partnerships' own table.
    sides = shown.split("## Every side (team toepen): lives")[1].split("\n## ")[0]
    assert "| Anna & Carla | 4 |" in sides and "| Ben & Dan | 4 |" in sides
    story = shown.split("### The hand, as it went")[1].split("\n## ")[0]
    lines = [line for line in story.splitlines() if line.startswith("    ")]
    assert 3 <= len(lines) <= STORY_LINES
    assert not [line for line in lines if " plays " in line]  # decisions, not every card
    # The CSV: a row per player and rule set, rates to two decimals beside their counts.
    with open(out / "newsletter-2026-11.csv", encoding="utf-8") as handle:
        table = list(csv.DictReader(handle))
    assert {r["rule_set"] for r in table} >= {"classic", "troefcall"}
    assert not [c for c in table[0] if c.endswith("_small")]
    rates = [r["win_rate"] for r in table if r["win_rate"]]
    assert rates and all(re.fullmatch(r"\d+\.\d\d", v) for v in rates)
    first = next(r for r in table if r["win_rate"])
    done, of = int(first["win_rate_done"]), int(first["win_rate_of"])
    assert float(first["win_rate"]) == round(done / of, 2)


def test_the_bulletin_in_dutch(tmp_path: Path) -> None:
    """--lang nl: the same bulletin in Dutch words (toepen/kloppen, meegaan, passen, wassen),
    from the one catalogue; an unknown language is refused in words."""
    from kroeg.analytics.newsletter import STORY_LINES
    from kroeg.analytics.words import LANGUAGES

    dataset = Dataset(tmp_path / "club")
    for log in sorted(SAMPLES.glob("*.txt")):
        dataset.write(notation.load(log))
    out = tmp_path / "nl"
    result = CliRunner().invoke(
        app, ["newsletter", str(dataset.path), "--month", "2026-11", "--out", str(out),
              "--lang", "nl"],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    shown = re.sub(r"\\(.)", r"\1", (out / "newsletter-2026-11.md").read_text(encoding="utf-8"))
    assert shown.startswith("# Toepen en Troefcall in november 2026\n")
    for heading in ("## De maand", "## Ranglijst: klassiek", "## Duurste pas",
                    "## Hand van de maand", "### De hand, zoals hij ging"):  # fmt: skip
        assert heading in shown
    assert "kwam de club" in shown and "het spel van " in shown
    story = shown.split("### De hand, zoals hij ging")[1].split("\n## ")[0]
    lines = [line.strip() for line in story.splitlines() if line.startswith("    ")]
    assert 3 <= len(lines) <= STORY_LINES
    assert any(" klopt " in x or " past" in x or " gaat mee" in x for x in lines)
    assert not [x for x in lines if " knocks" in x or " folds" in x]  # no English left
    assert not [i for i in dataset.game_ids() if i in shown]
    # Numbers as Dutch writes them: a decimal comma, never an English decimal point.
    assert re.search(r"— \d+,\d\d strafpunten verloren per hand", shown)
    english = r"(?<![\d.])\d+\.\d{1,2}(?![\d.])"  # 0.97 (an address's 127.0.0.2 aside)
    assert not re.findall(english, shown)
    page = (out / "newsletter-2026-11.html").read_text(encoding="utf-8")
    assert '<html lang="nl">' in page and "HET CLUBBLAD" in page
    assert not re.findall(english, re.sub(r"<[^>]+>", "", page.split("<body")[1]))
    bad = CliRunner().invoke(
        app, ["newsletter", str(dataset.path), "--month", "2026-11", "--out", str(out),
              "--lang", "xx"],
    )  # fmt: skip
    assert bad.exit_code != 0
    assert f"no newsletter words for 'xx': expected one of {', '.join(LANGUAGES)}" in bad.output


def test_the_club_file_s_language_is_the_bulletin_s(club: Path, tmp_path: Path) -> None:
    """A club that names its language gets its bulletin in it without --lang; --lang
    still chooses another."""
    (club / "club.toml").write_text('name = "Café De Kroeg"\nlanguage = "nl"\n', "utf-8")
    dutch = _newsletter(club, "2026-10", tmp_path / "club")
    assert "Hand 2 van spel 1 van vr 23 okt" in dutch
    assert dutch == _newsletter(club, "2026-10", tmp_path / "nl", "--lang", "nl")
    english = _newsletter(club, "2026-10", tmp_path / "en", "--lang", "en")
    assert english.startswith("# Toepen in October 2026")


def _newsletter(dataset: Path, month: str, out: Path, *options: str) -> str:
    """The Markdown of `kroeg newsletter`, as a renderer shows it (escapes dropped)."""
    result = CliRunner().invoke(
        app, ["newsletter", str(dataset), "--month", month, "--out", str(out), *options]
    )
    assert result.exit_code == 0, result.output
    return re.sub(r"\\(.)", r"\1", (out / f"newsletter-{month}.md").read_text(encoding="utf-8"))


def _with_bots(
    path: Path, rules: str | dict[str, object], hands: int, *club: Path, source: str = "engine"
) -> Path:
    """A dataset of the club's typed logs and the bots' games (`kroeg.recorder.simulate`)
    from the evening of 23 October 2026, 21:00, at Café De Kroeg; with another `source`
    the bots' games land as the club's own (a typed log's `text`)."""
    from datetime import UTC, datetime

    from kroeg.recorder.rules import Ruleset
    from kroeg.recorder.simulate import simulate

    ruleset = Ruleset.preset(rules) if isinstance(rules, str) else Ruleset.from_dict(rules)
    start = datetime(2026, 10, 23, 21, 0, tzinfo=UTC)
    bots = simulate(ruleset, 4, hands=hands, seed=1, start=start, venue="Café De Kroeg")
    games = [*(game for log in club for game in notation.load(log)),
             *(dataclasses.replace(game, source=source) for game in bots)]  # fmt: skip
    Dataset(path).write(games)
    return path


def test_the_club_and_the_bots_on_one_night_are_two_evenings(tmp_path: Path) -> None:
    """An evening is the dashboard's (analytics.evenings): one day, one venue, the club's
    games and the bots' apart; a game's hour is named only among games of its evening."""
    data = _with_bots(tmp_path / "ds", "classic", 6, SAMPLES / "laundry-and-checks.txt")
    shown = _newsletter(data, "2026-10", tmp_path / "out", "--include-simulated")
    # The bots' game is the one that ended: its loser is the bot named Anna, not the
    # member (stats.bots_apart).
    assert ("In October 2026 the club met on 2 evenings and played 2 games, 8 hands in all, "
            "at Café De Kroeg. Games lost: Anna (bot) 1.") in shown  # fmt: skip
    assert "of the game of Fri 23 Oct at Café De Kroeg (Anna, Ben, Carla, Dan)" in shown
    assert "Fri 23 Oct, 2" not in shown


def test_bot_games_are_left_out_of_every_part_unless_asked_for(tmp_path: Path) -> None:
    """The club's night (2 hands) and a bot game the same evening (6 hands): the bulletin
    tells the club's alone, in every part and file, and says so in one line."""
    data = _with_bots(tmp_path / "ds", "classic", 6, SAMPLES / "laundry-and-checks.txt")
    shown = _newsletter(data, "2026-10", tmp_path / "out")
    assert ("In October 2026 the club met on 1 evening and played 1 game, 2 hands in all, "
            "at Café De Kroeg.\n\nLeft out: 1 game played by the bots (simulated); "
            "--include-simulated counts them.\n") in shown  # fmt: skip
    table = shown.split("## Every player: classic")[1]
    assert [row.split(" | ")[1] for row in table.splitlines() if row.startswith("| ")][1:] == [
        "2", "2", "2", "2"
    ]  # fmt: skip
    assert "stake of 3" not in shown  # the bots' hand of the month (a stake of 3) is not told
    page = (tmp_path / "out" / "newsletter-2026-10.html").read_text(encoding="utf-8")
    assert ('<p class="simulated">Left out: 1 game played by the bots (simulated); '
            "--include-simulated counts them.</p>") in page  # fmt: skip
    with open(tmp_path / "out" / "newsletter-2026-10.csv", encoding="utf-8") as handle:
        assert {row["hands"] for row in csv.DictReader(handle)} == {"2"}
    counted = _newsletter(data, "2026-10", tmp_path / "all", "--include-simulated")
    assert ("played 2 games, 8 hands in all, at Café De Kroeg. Games lost: Anna (bot) 1.\n\n"
            "Counted in: 1 game played by the bots (simulated).\n") in counted  # fmt: skip
    assert "played for a stake of 3." in counted


def test_a_month_of_bot_games_alone_had_no_club_games(tmp_path: Path) -> None:
    """Only simulated games in the month: the bulletin says there were no club games (in
    English and Dutch); with --include-simulated it tells them."""
    data = _with_bots(tmp_path / "ds", "classic", 6)
    shown = _newsletter(data, "2026-10", tmp_path / "en")
    assert shown == (
        "# The club in October 2026\n\n## The month\n\n"
        "There were no club games in October 2026.\n\n"
        "Left out: 1 game played by the bots (simulated); --include-simulated counts them.\n\n"
        "A figure such as 40% 12/30 means 12 times out of 30 chances; * marks fewer than 20 "
        "chances, too few to go by.\n"
    )
    # The spreadsheet's header alone (it was an empty file).
    sheet = (tmp_path / "en" / "newsletter-2026-10.csv").read_text(encoding="utf-8")
    assert sheet.startswith("rule_set,unit,player,hands,") and sheet.count("\n") == 1
    dutch = _newsletter(data, "2026-10", tmp_path / "nl", "--lang", "nl")
    assert dutch.startswith(
        "# De club in oktober 2026\n\n## De maand\n\nIn oktober 2026 waren er geen "
        "clubspellen.\n\nWeggelaten: 1 spel gespeeld door de bots (gesimuleerd); "
        "--include-simulated telt ze mee.\n\n"
    )
    counted = _newsletter(data, "2026-10", tmp_path / "all", "--include-simulated")
    assert counted.startswith(
        "# Toepen in October 2026\n\n## The month\n\n"
        "In October 2026 the club met on 1 evening and played 1 game, 6 hands in all"
    )


def test_a_club_rule_set_counted_in_lives_is_told_in_lives(tmp_path: Path) -> None:
    """A club's own rule set named neither `lives` nor `...lives` that counts lives: its
    unit comes from its parameters (games.unit), in the Markdown, the HTML and the CSV."""
    kruik = {"name": "De Kruik", "base": "lives"}
    data = _with_bots(tmp_path / "ds", kruik, 40, source="text")
    shown = _newsletter(data, "2026-10", tmp_path / "en")
    assert "1. Ben — 0.80 lives lost per hand over 40 hands\n" in shown
    assert "points lost" not in shown and "4. Carla — 1.23 lives lost" in shown
    page = (tmp_path / "en" / "newsletter-2026-10.html").read_text(encoding="utf-8")
    assert "<li>Ben — 0.80 lives lost per hand over 40 hands</li>" in page
    assert 'aria-label="What folding cost — lives"' in page
    with open(tmp_path / "en" / "newsletter-2026-10.csv", encoding="utf-8") as handle:
        assert {(r["rule_set"], r["unit"]) for r in csv.DictReader(handle)} == {
            ("De Kruik", "lives")
        }
    dutch = _newsletter(data, "2026-10", tmp_path / "nl", "--lang", "nl")
    assert "1. Ben — 0,80 levens verloren per hand over 40 handen\n" in dutch


def test_the_bluffer_and_the_stars_follow_the_statistics_registry(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The biggest bluffer is the registry's `bluff_rate`: its small-sample rule says who
    may win it and its cell writes the share; the boards' `*` is `cost_per_hand`'s rule.
    Change the registry and the bulletin follows: there is no second definition."""
    from kroeg.analytics.stats import STAT_BY_NAME

    kruik = {"name": "De Kruik", "base": "lives"}
    data = _with_bots(tmp_path / "ds", kruik, 40, source="text")
    shown = _newsletter(data, "2026-10", tmp_path / "as-is")
    assert "Biggest bluffer" not in shown  # nobody has 20 knocks of known strength (at most 15)
    assert "* fewer than 20 hands." in shown and " over 30 hands\n" in shown  # Carla, no *
    bluffs, cost = STAT_BY_NAME["bluff_rate"], STAT_BY_NAME["cost_per_hand"]
    monkeypatch.setitem(STAT_BY_NAME, "bluff_rate", dataclasses.replace(bluffs, small_sample=11))
    monkeypatch.setitem(STAT_BY_NAME, "cost_per_hand", dataclasses.replace(cost, small_sample=39))
    shown = _newsletter(data, "2026-10", tmp_path / "changed")
    # Anna 9/12, Ben 2/11, Dan 4/15 qualify; Carla's 6/10 is now the small sample.
    assert "## Biggest bluffer\n\nAnna: 75% of their knocks were bluffs (9 of 12).\n" in shown
    assert "* fewer than 39 hands." in shown
    assert " over 40 hands\n" in shown and " over 30 hands*\n" in shown  # Ben; Carla starred
    assert "4. Carla — 1.23 lives lost per hand over 30 hands*\n" in shown


@pytest.mark.parametrize(
    ("lang", "side_words"),
    [("en", "the partners would have played on"), ("nl", "de partners hadden voor de ploeg")],
)
def test_the_blunder_of_the_month_says_when_partners_played_on(
    tmp_path: Path, lang: str, side_words: str
) -> None:
    """A blunder in team toepen where a fold leaves partners in the hand: the bulletin says
    that folding's cost was an expectation, from the stored `partners_play_on`."""
    from kroeg.analytics.derived import enrich
    from kroeg.analytics.newsletter import build, markdown
    from kroeg.analytics.views import connect

    (game,) = notation.load(SAMPLES / "team-side-folds.txt")
    dataset = Dataset(tmp_path / "teams")
    dataset.write([game])
    enrich(dataset)
    news = build(connect(dataset), dataset, "2026-11", lang)
    row = {
        "player": "Ben", "game_id": game.game_id, "hand": 1, "seq": 9, "answer": "stay",
        "stake": 2, "cost_chosen": 1.6, "cost_other": 0.5, "ev_lost": 1.1,
        "other_choice": None,
    }  # fmt: skip
    told = {
        partners: markdown(dataclasses.replace(news, blunder={**row, "partners_play_on": partners}))
        for partners in (True, False)
    }
    assert side_words in told[True] and side_words not in told[False]
    chosen, other = ("1.6", "0.5") if lang == "en" else ("1,6", "0,5")  # as each writes it
    for text in told.values():
        assert chosen in text and other in text


@pytest.mark.parametrize(
    ("other_choice", "words"),
    [
        ("play_on", "knocked at a stake of 1 in hand 4 of {game}: expected to cost 1.9, where "
         "playing on without a knock was expected to cost 0.0."),
        ("stay", "knocked back at a stake of 1 in hand 4 of {game}: expected to cost 1.9, "
         "where staying in was expected to cost 0.0."),
    ],
)  # fmt: skip
def test_a_knock_can_be_the_blunder_of_the_month(
    tmp_path: Path, other_choice: str, words: str
) -> None:
    """The month's blunder is the decision that lost the most of its stake, an answer or
    a knock made: a knock's sentence names the choice not taken."""
    from kroeg.analytics.derived import enrich
    from kroeg.analytics.newsletter import build, markdown
    from kroeg.analytics.views import connect

    (game,) = notation.load(SAMPLES / "team-side-folds.txt")
    dataset = Dataset(tmp_path / "teams")
    dataset.write([game])
    enrich(dataset)
    news = build(connect(dataset), dataset, "2026-11", "en")
    row = {
        "player": "Ben", "game_id": game.game_id, "hand": 4, "seq": 26, "answer": "knock",
        "stake": 1, "cost_chosen": 1.875, "cost_other": 0.0, "ev_lost": 1.875,
        "partners_play_on": False, "other_choice": other_choice,
    }  # fmt: skip
    told = markdown(dataclasses.replace(news, blunder=row))
    assert "## Blunder of the month\n\nBen " + words.split("{game}")[0] in told
    assert words.split("{game}")[1] in told


def test_the_sample_month_s_blunder_is_the_knock_that_lost_most(tmp_path: Path) -> None:
    """In the sample logs' November, Ben's knock on a sure last trick (lives: Dan's K♥
    takes it) lost the most of its stake: folding, Dan takes his king out of the trick,
    and Ben's A♠, the first card left, takes it, unless Carla folds too (docs/STATS.md)."""
    from kroeg.analytics.derived import enrich
    from kroeg.analytics.moments import blunder
    from kroeg.analytics.views import connect

    dataset = Dataset(tmp_path / "club")
    dataset.write([g for p in sorted(SAMPLES.glob("*.txt")) for g in notation.load(p)])
    enrich(dataset)
    con = connect(dataset)
    cursor = con.execute(blunder("strftime(g.started_at, '%Y-%m') = '2026-11'"))
    names = [d[0] for d in cursor.description]
    (found,) = cursor.fetchall()
    row = dict(zip(names, found, strict=True))
    assert (row["player"], row["answer"], row["hand"], row["stake"]) == ("Ben", "knock", 4, 1)
    assert row["other_choice"] == "play_on" and row["cost_other"] == 0.0
    assert row["cost_chosen"] > 1.5  # at a stake of 2 he takes the last trick nearly always


@pytest.mark.parametrize("lang", ["en", "nl"])
def test_a_laundry_swap_can_be_the_blunder_of_the_month(tmp_path: Path, lang: str) -> None:
    """Carla's false laundry claim at the seven-player table (check-before-swap) is the
    worst decision of its month: the query reads the stored swap facts, and the sentence
    calls the claim false and weighs it against keeping the hand, in each language."""
    from kroeg.analytics.derived import enrich
    from kroeg.analytics.newsletter import build, markdown
    from kroeg.analytics.views import connect
    from kroeg.analytics.words import words

    (game,) = notation.load(SAMPLES / "laundry-checked-before-swap.txt")
    dataset = Dataset(tmp_path / "laundry")
    dataset.write([game])
    enrich(dataset)
    con = connect(dataset)
    ((swap, keep),) = con.sql(
        "SELECT cost_swap, cost_keep FROM swap_facts WHERE grade = 'blunder'"
    ).fetchall()
    news = build(con, dataset, "2026-11", lang)
    assert news.blunder is not None
    assert (news.blunder["player"], news.blunder["answer"]) == ("Carla", "laundry")
    assert news.blunder["genuine"] is False
    w = words(lang)
    told = w("blunder_laundry_false", player="Carla", hand=1, game="{game}",
             chosen=w.number(swap, 1), other=w.number(keep, 1))  # fmt: skip
    text = markdown(news)
    assert f"## {w('blunder')}\n\n" + told.split("{game}")[0] in text
    assert told.split("{game}")[1] in text
    assert told != w("blunder_laundry", player="Carla", hand=1, game="{game}",
                     chosen=w.number(swap, 1), other=w.number(keep, 1))  # fmt: skip


def test_figures_as_each_language_writes_them() -> None:
    """One figure, the statistics registry's cell and a sentence's count: English as the
    CLI shows them, Dutch with its decimal comma and thousands point (Babel's CLDR data),
    the same digits in both."""
    from kroeg.analytics.stats import STAT_BY_NAME
    from kroeg.analytics.words import words

    cost, bluffs = STAT_BY_NAME["cost_per_hand"], STAT_BY_NAME["bluff_rate"]
    assert cost.cell(97, 100) == "0.97 97/100" and cost.cell(97, 100, lang="nl") == "0,97 97/100"
    assert bluffs.cell(417, 821) == "51% 417/821" and bluffs.cell(417, 821, lang="nl") == (
        "51% 417/821"
    )
    assert cost.cell(-0.001, 1, counts=False, lang="nl") == "0,00"  # no sign on nothing
    assert words("en").count(2434, "n_hands") == "2,434 hands"
    assert words("nl").count(2434, "n_hands") == "2.434 handen"
    assert (words("en").count(1, "n_hands"), words("nl").count(1, "n_hands")) == ("1 hand",) * 2
    assert words("nl").number(1.25, 1) == "1,3"  # a half up, as people round
    assert words("nl").month(date(2026, 12, 1)) == "december 2026"


def test_the_risers_and_fallers_of_the_month_in_both_languages(tmp_path: Path) -> None:
    """The ratings (analytics.ratings.month_movers): the rating that rose most over the
    month's games and the one that fell most, from the rating before the month's first game;
    a player needs MIN_MONTH_GAMES rated games in the month. The change is the one the two
    ratings shown give (24.3 to 25.7 is 1.4, though 24.27 to 25.73 is 1.46)."""
    dataset = Dataset(tmp_path / "club")
    for log in sorted(SAMPLES.glob("*.txt")):
        dataset.write(notation.load(log))
    shown = {}
    for lang in ("en", "nl"):
        asked = ["newsletter", str(dataset.path), "--month", "2026-11", "--out",
                 str(tmp_path / lang), "--lang", lang]  # fmt: skip
        result = CliRunner().invoke(app, asked)
        assert result.exit_code == 0, result.output
        text = (tmp_path / lang / "newsletter-2026-11.md").read_text(encoding="utf-8")
        shown[lang] = re.sub(r"\\(.)", r"\1", text)
    assert ("## Riser of the month\n\nDan: rating up 1.4 in Toepen over 16 games this month "
            "(24.3 to 25.7).") in shown["en"]  # fmt: skip
    assert ("## Faller of the month\n\nCarla: rating down 2.4 in Toepen over 16 games this "
            "month (31.6 to 29.2).") in shown["en"]  # fmt: skip
    assert ("## Stijger van de maand\n\nDan: rating 1,4 omhoog bij Toepen in 16 potjes deze "
            "maand (van 24,3 naar 25,7).") in shown["nl"]  # fmt: skip
    assert "## Daler van de maand\n\nCarla: rating 2,4 omlaag" in shown["nl"]
    assert dataset.files("derived/ratings")  # stored once, by the command


def test_a_venue_with_a_comma_stays_one_venue_in_the_list() -> None:
    """ "at Café De Kroeg, Café De Kroeg, aan de bar and Café Paramaribo" read as four
    venues."""
    from kroeg.analytics.newsletter import _and
    from kroeg.analytics.words import words

    w = words("en")
    assert _and(["Café De Kroeg", "Café Paramaribo", "De Zwaan"], w) == (
        "Café De Kroeg, Café Paramaribo and De Zwaan"
    )
    assert _and(["Café De Kroeg", "Café De Kroeg, aan de bar", "Café Paramaribo"], w) == (
        "Café De Kroeg; Café De Kroeg, aan de bar and Café Paramaribo"
    )
    assert _and(["De Zwaan"], w) == "De Zwaan"
