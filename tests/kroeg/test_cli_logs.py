"""kroeg validate, import, export and replay: exit codes and messages."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kroeg.cli import app
from kroeg.parsers import jsonl, notation
from kroeg.parsers.files import read_file
from kroeg.recorder.store import Dataset
from tests.parsers.results import SIX_ID, six_at_team_toepen

runner = CliRunner()
SAMPLES = Path(__file__).resolve().parents[2] / "sample_logs"
GOOD = SAMPLES / "laundry-and-checks.txt"
BROKEN = SAMPLES / "broken" / "not-following-suit.txt"


def kroeg(*args: object):
    return runner.invoke(app, [str(a) for a in args])


def test_validate_good_and_broken_files() -> None:
    ok = kroeg("validate", GOOD)
    assert ok.exit_code == 0
    assert ok.output == f"{GOOD}: OK, 1 game, 2 hands\n"
    bad = kroeg("validate", GOOD, BROKEN)
    assert bad.exit_code == 1
    assert bad.output.splitlines() == [
        f"{GOOD}: OK, 1 game, 2 hands",
        f"{BROKEN}:12:13: hand 1, trick 1: Ben must follow hearts (holds Qh)",
        f"{BROKEN}: 1 error",
        "Error: 1 of 2 files has errors",
    ]


def test_import_lands_games_once(tmp_path: Path) -> None:
    out = tmp_path / "club"
    first = kroeg("import", *sorted(SAMPLES.glob("*.txt")), "--into", out)
    assert first.exit_code == 0, first.output
    # utf8-bom-crlf.txt and dutch-card-letters.txt are the same game typed two ways:
    # the same content gives the same id, so the second is a duplicate.
    games = sum(len(read_file(p).games) for p in sorted(SAMPLES.glob("*.txt")))
    assert first.output.splitlines()[-1] == f"{out}: {games - 1} games imported, 1 duplicate"
    # Analysed as they land (a dashboard open on the dataset shows their verdicts).
    from kroeg.analytics.derived import analysed

    assert analysed(Dataset(out)) == Dataset(out).game_ids()
    again = kroeg("import", GOOD, "--into", out)
    assert again.output.splitlines() == [
        f"{GOOD}: imported 0 games (0 hands), 1 duplicate",
        f"{out}: 0 games imported, 1 duplicate",
    ]
    assert len(Dataset(out).game_ids()) == games - 1


def test_strict_import_rejects_a_file_whole(tmp_path: Path) -> None:
    mixed = tmp_path / "mixed.txt"
    mixed.write_text(GOOD.read_text(encoding="utf-8") + "\n" + BROKEN.read_text(encoding="utf-8"))
    result = kroeg("import", mixed, "--into", tmp_path / "d")
    assert result.exit_code == 1
    assert result.output.splitlines()[0].startswith(f"rejected: {mixed}:")
    assert f"{mixed}: rejected" in result.output
    assert not (tmp_path / "d").exists()  # nothing landed: no dataset folder either
    lenient = kroeg("import", mixed, "--into", tmp_path / "d", "--lenient")
    assert lenient.exit_code == 1
    assert f"{mixed}: imported 1 game (2 hands), 0 duplicates, 1 error" in lenient.output
    assert lenient.output.strip().endswith("Error: 1 of 1 file had errors (listed above)")
    assert len(Dataset(tmp_path / "d").game_ids()) == 1


def test_export_reads_back_identical(tmp_path: Path) -> None:
    out = tmp_path / "d"
    kroeg("import", GOOD, "--into", out)
    (game_id,) = Dataset(out).game_ids()
    text = kroeg("export", out, "--game", game_id)
    assert text.exit_code == 0
    assert notation.loads(text.output) == [Dataset(out).read_game(game_id)]
    jsonl_file = tmp_path / "g.jsonl"
    written = kroeg("export", out, "--game", game_id, "--format", "jsonl", "--out", jsonl_file)
    assert written.output == f"{jsonl_file}: game {game_id} written (2 hands)\n"
    assert kroeg("validate", jsonl_file).exit_code == 0
    bad = kroeg("export", out, "--game", "nope")
    assert bad.exit_code == 1
    assert bad.output.strip() == f"Error: {out}: no game 'nope' (kroeg games {out} lists them)"
    pgn = kroeg("export", out, "--game", game_id, "--format", "pgn")
    assert pgn.exit_code == 2  # bad usage: typer lists the choices
    assert "Invalid value for '--format': Value error, 'pgn' is not one of 'text', 'jsonl'." in (
        pgn.output
    )


def test_export_writes_many_games_in_the_order_played(tmp_path: Path) -> None:
    """Several --game, a date range, or every game: one file that reads back as the
    dataset's games, in the order they were played, written in batches."""
    out = tmp_path / "d"
    logs = [SAMPLES / n for n in ("classic-short-night.txt", "lives-evening.txt",
                                  "team-six-players.txt", "troefcall-club-points.txt")]  # fmt: skip
    assert kroeg("import", *logs, "--into", out).exit_code == 0
    ds = Dataset(out)
    played = sorted(ds.read_games(), key=lambda r: (r.started_at, r.game_id))
    every = tmp_path / "all.txt"
    done = kroeg("export", out, "--out", every)
    assert (
        done.output
        == f"{every}: {len(played)} games written ({sum(r.hands for r in played)} hands)\n"
    )
    assert notation.load(every) == played
    assert every.read_text(encoding="utf-8") == notation.dumps(played)  # as one dumps call
    # In batches of two, JSON Lines to a pipe: the same bytes as all at once.
    import io

    from kroeg.parsers.export import choose_games, export_games

    piped = io.StringIO()
    export_games(ds, [r.game_id for r in played], "jsonl", piped, batch=2)
    assert piped.getvalue() == kroeg("export", out, "--format", "jsonl").output
    assert piped.getvalue() == jsonl.dumps(played)
    # A date range, both days included: the 14th (team), the 20th (lives, Troefcall).
    nov = kroeg("export", out, "--since", "2026-11-14", "--until", "2026-11-20")
    days = [r for r in played if 14 <= r.started_at.day <= 20]
    assert notation.loads(nov.output) == days
    assert {r.started_at.day for r in days} == {14, 20} and len(days) < len(played)
    # Several --game, each a whole id or a unique start, in the order played.
    picked = [played[2].game_id, played[0].game_id[:6]]
    assert choose_games(ds, picked) == [played[0].game_id, played[2].game_id]
    none = kroeg("export", out, "--since", "2030-01-01")
    assert (none.exit_code, none.output.strip()) == (
        1, f"Error: {out}: no games match --since/--until",
    )  # fmt: skip


def replayed(tmp_path: Path, log: Path, hand: int) -> tuple[Path, str, list[str]]:
    """The dataset a typed log of one game lands in, the game's id, and `kroeg replay`'s
    lines for one of its hands."""
    out = tmp_path / "d"
    kroeg("import", log, "--into", out)
    (game_id,) = Dataset(out).game_ids()
    result = kroeg("replay", out, "--game", game_id, "--hand", str(hand))
    assert result.exit_code == 0, result.output
    return out, game_id, result.output.splitlines()


def test_replay_shows_a_hand_with_suit_symbols(tmp_path: Path) -> None:
    out, game_id, lines = replayed(tmp_path, GOOD, 2)
    assert lines[0] == f"Hand 2 of game {game_id} (classic + dirty-laundry + face-up, 2 hands)"
    assert lines[1] == (
        "Dealer Carla; scores before the hand: Anna 1 point, Ben 2 points, Carla 0 points, "
        "Dan 1 point"
    )
    assert "  Dan    10♦ 9♥ K♣ Q♠" in lines
    assert "Anna checks Dan: it was a bluff; Dan pays 1" in lines
    assert "Dan shows 10♦" in lines  # face up after the caught bluff
    assert "Carla folds and pays 1" in lines
    assert "Dan pays 1" not in lines and "Carla pays 1" not in lines  # each paid once
    assert lines[-1] == "Dan wins the hand (stake 2)"
    missing = kroeg("replay", out, "--game", game_id, "--hand", "3")
    assert missing.output.strip() == f"Error: game {game_id} has hands 1 to 2, not hand 3"


def test_replay_shows_a_troefcall_hand_with_trump_and_sides(tmp_path: Path) -> None:
    _, game_id, lines = replayed(tmp_path, SAMPLES / "troefcall-evening.txt", 2)
    assert lines[0] == f"Hand 2 of game {game_id} (troefcall + target-15, 3 hands)"
    assert lines[1] == (
        "Dealer Anna; scores before the hand: Anna & Carla 5 points, Ben & Dan 0 points"
    )
    assert lines[2] == "Anna deals; Ben cuts and calls trump"
    assert "Ben calls trump: ♥ hearts" in lines
    assert "  → Ben takes trick 6" in lines  # Ben's 4♥ ruffs Anna's K♠
    assert lines[-2:] == [  # the side of the `score` row won the hand
        "Ben & Dan score 2 (now Anna & Carla 5, Ben & Dan 2)",
        "Hand over: Ben & Dan win the hand (Anna & Carla 5 tricks, Ben & Dan 8)",
    ]


def test_replay_says_who_won_a_lives_hand_the_last_tricks_taker_lost(tmp_path: Path) -> None:
    _, game_id, lines = replayed(tmp_path, SAMPLES / "lives-armoede-cut.txt", 2)
    assert lines[0] == f"Hand 2 of game {game_id} (lives, 8 hands)"
    assert lines[-4:] == [
        "  → Anna takes trick 4",
        "Anna pays 3",
        "Anna took the last trick and loses the hand; Ben wins (stake 3)",
        "Anna is out of the game",
    ]


def test_replay_names_a_team_toepen_side_as_a_side(tmp_path: Path) -> None:
    out, game_id, lines = replayed(tmp_path, SAMPLES / "team-toepen-evening.txt", 1)
    assert lines[:2] == [
        f"Hand 1 of game {game_id} (lives + team-toepen, 2 hands)",
        "Dealer Dan; scores before the hand: Anna & Carla 10 lives, Ben & Dan 10 lives",
    ]
    assert lines[-3:] == [
        "  → Anna takes trick 4",
        "Anna pays 1",
        "Anna took the last trick: Anna & Carla lose the hand; Ben & Dan win (stake 1)",
    ]
    listed = kroeg("games", out).output.splitlines()
    assert listed[1].startswith(game_id)
    assert "  lives + team-toepen  Anna, Ben, Carla, Dan  2      unfinished  typed" in listed[1]


def test_replay_and_games_name_the_side_that_won_a_game_for_six(tmp_path: Path) -> None:
    out = tmp_path / "d"
    Dataset(out).write([six_at_team_toepen()])
    result = kroeg("replay", out, "--game", SIX_ID, "--hand", "5")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[:2] == [
        f"Hand 5 of game {SIX_ID} (lives + team-toepen, 5 hands)",
        "Dealer Eva; scores before the hand: Ben & Eva 1 life, Carla & Frits 3 lives",
    ]
    assert lines[-4:] == [
        "Carla took the last trick: Carla & Frits lose the hand; Ben & Eva win (stake 2)",
        "Carla is out of the game",
        "Frits is out of the game",
        "Game over: Ben & Eva win the game",
    ]
    listed = kroeg("games", out).output.splitlines()
    assert listed[1].split() == [
        SIX_ID, "lives", "+", "team-toepen", "Anna,", "Ben,", "Carla,", "Dan,",
        "Eva,", "Frits", "5", "Ben", "&", "Eva", "won", "simulated",
    ]  # fmt: skip


def test_games_fits_a_terminal_and_cuts_no_more_in_a_pipe(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On a terminal (COLUMNS here) the list fits its width, the widest cells cut with
    `…`; into a pipe a roster under its cap stays whole, for grep."""
    out = tmp_path / "d"
    Dataset(out).write([six_at_team_toepen()])
    piped = kroeg("games", out).output.splitlines()
    assert "Anna, Ben, Carla, Dan, Eva, Frits" in piped[1] and "…" not in piped[1]
    monkeypatch.setenv("COLUMNS", "96")
    shown = kroeg("games", out).output.splitlines()
    assert max(len(line) for line in shown) <= 96 < max(len(line) for line in piped)
    assert "…" in shown[1] and shown[1].split()[0] == SIX_ID


def test_games_lists_every_game_and_a_prefix_names_one(tmp_path: Path) -> None:
    """`kroeg games` lists what `--game` takes; a unique start of an id is enough, an
    ambiguous one is refused with the candidates."""
    out = tmp_path / "d"
    imported = runner.invoke(
        app,
        [
            "import",
            str(SAMPLES / "laundry-and-checks.txt"),
            str(SAMPLES / "troefcall-evening.txt"),
            "--into",
            str(out),
        ],
    )
    assert imported.exit_code == 0, imported.output
    ids = sorted(Dataset(out).game_ids())
    for game_id in ids:  # import prints the ids it lands
        assert f"  game {game_id}" in imported.output
    listed = runner.invoke(app, ["games", str(out)])
    assert listed.exit_code == 0, listed.output
    lines = listed.output.splitlines()
    assert lines[0].split() == ["game", "date", "venue", "rules", "players", "hands", "result",
                                "source"]  # fmt: skip
    assert sorted(line.split()[0] for line in lines[1:]) == ids
    assert all(line.rstrip().endswith("typed") for line in lines[1:])
    as_json = runner.invoke(app, ["games", str(out), "--format", "json", "--player", "Anna"])
    rows = json.loads(as_json.output)
    assert {r["game"] for r in rows} == set(ids) and {r["source"] for r in rows} == {"typed"}
    none = runner.invoke(app, ["games", str(out), "--source", "simulated"])
    assert none.output == "No games match.\n"
    troef = next(g.game_id for g in Dataset(out).read_games() if g.game_type == "troefcall")
    prefix = next(troef[:n] for n in range(1, 17) if sum(i.startswith(troef[:n]) for i in ids) == 1)
    shown = runner.invoke(app, ["replay", str(out), "--game", prefix, "--hand", "1"])
    assert shown.exit_code == 0 and f"game {troef}" in shown.output
    both = runner.invoke(app, ["replay", str(out), "--game", "", "--hand", "1"])
    assert both.exit_code == 1 and "no game ''" in both.output
    ambiguous = runner.invoke(app, ["replay", str(out), "--game", "g", "--hand", "1"])
    assert ambiguous.exit_code != 0
    assert ambiguous.output.startswith("Error: 'g' is the start of 2 games' ids (")
