"""The `kroeg` command: exit codes, messages, and every command documented."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kroeg.cli import app
from kroeg.recorder.store import Dataset

ROOT = Path(__file__).resolve().parents[2]

runner = CliRunner()


def kroeg(*args: str):
    return runner.invoke(app, list(args))


def test_simulate_writes_a_dataset_and_running_it_again_adds_nothing(tmp_path: Path) -> None:
    out = tmp_path / "club"
    first = kroeg(
        "simulate", "--hands", "200", "--seed", "4", "--bots", "random,sharp", "--out", str(out)
    )
    assert first.exit_code == 0, first.output
    games = len(Dataset(out).game_ids())
    assert f"{out}: {games:,} games added, 0 already there." in first.output
    assert "Simulated 200 hands" in first.output
    again = kroeg(
        "simulate", "--hands", "200", "--seed", "4", "--bots", "random,sharp", "--out", str(out)
    )
    assert f"{out}: 0 games added, {games:,} already there." in again.output


def test_simulate_lives_with_variants_and_a_club_rules_file(tmp_path: Path) -> None:
    rules = tmp_path / "leeuw.json"
    rules.write_text(
        '{"name": "De Gouden Leeuw", "base": "lives", "variants": ["fast-fold"], "lives": 15}'
    )
    result = kroeg(
        "simulate",
        "--rules",
        str(rules),
        "-V",
        "first-speaker-waits",
        "--players",
        "5",
        "--hands",
        "50",
        "--out",
        str(tmp_path / "d"),
    )
    assert result.exit_code == 0, result.output
    record = next(iter(Dataset(tmp_path / "d").read_games()))
    assert record.ruleset == "De Gouden Leeuw"
    assert record.rules.lives == 15 and record.rules.fast_fold and record.rules.first_speaker_waits
    assert len(record.players) == 5


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["--rules", "bogus"],
            "Error: unknown rule preset 'bogus': expected one of classic, lives, troefcall",
        ),
        (["--players", "9"], "Error: classic needs 3 to 8 players, found 9"),
        (
            ["--bots", "random,foo"],
            "Error: unknown bot style 'foo': expected one of random, cautious, bluffer, sharp",
        ),
        (["-V", "nope"], "Error: unknown variant 'nope': expected one of "),
        (["--hands", "0"], "Error: --hands must be at least 1, found 0"),
        # A near miss is named.
        (["--rules", "clasic"], "Error: unknown rule preset 'clasic': did you mean classic? "
                                "Expected one of classic, lives, troefcall"),
        (["-V", "first-speaker-wait"],
         "Error: unknown variant 'first-speaker-wait': did you mean first-speaker-waits? "),
        (["--bots", "sharpp"], "Error: unknown bot style 'sharpp': did you mean sharp? "),
        (["--rules", "troefcall", "--bots", "sharpe"],
         "Error: unknown troefcall bot style 'sharpe': did you mean sharp? "),
    ],
)  # fmt: skip
def test_simulate_refuses_bad_input_with_one_error_line(tmp_path: Path, args, message) -> None:
    result = kroeg("simulate", "--out", str(tmp_path / "d"), *args)
    # Every usage mistake exits with 2: a count, a choice, a rule set that is not one.
    assert result.exit_code == 2
    assert result.output.startswith(message) and result.output.count("\n") == 1, result.output
    assert not (tmp_path / "d").exists()


@pytest.mark.parametrize(
    ("players", "message"),
    [
        ("Anna,Ben", "Error: classic needs 3 to 8 players, found 2"),
        ("Anna,Anna,Ben", "Error: player names must differ: Anna, Anna, Ben"),
        ("Anna,,Carla,Dan", "Error: a player name is empty"),  # not three seats for four
        ("Anna,Ben,Carla,", "Error: a player name is empty"),
    ],
)
def test_record_refuses_a_table_that_cannot_sit_down(tmp_path: Path, players, message) -> None:
    result = kroeg("record", "--into", str(tmp_path / "d"), "--players", players)
    assert (result.exit_code, result.output) == (2, message + "\n")
    assert not (tmp_path / "d").exists()  # refused before anything was typed: no dataset


def test_two_recordings_started_at_once_keep_a_journal_each(tmp_path: Path) -> None:
    # The default journal is named by the time: to the microsecond, not the second.
    for _ in range(3):
        result = kroeg("record", "--into", str(tmp_path / "d"), "--players", "Anna,Ben,Carla")
        assert result.exit_code == 0, result.output
    assert len(list((tmp_path / "d" / "journal").glob("record-*.jsonl"))) == 3


def test_bad_usage_exits_with_2() -> None:
    result = kroeg("simulate")
    assert result.exit_code == 2
    assert "Missing option '--out'" in result.output


def test_info_and_compact(tmp_path: Path) -> None:
    out = tmp_path / "d"
    for seed in (1, 2):
        kroeg("simulate", "--hands", "60", "--seed", str(seed), "--out", str(out))
    info = kroeg("info", str(out))
    assert info.exit_code == 0
    assert ", 120 hands, " in info.output
    assert "classic  games  hands" in info.output and "Anna" in info.output
    compact = kroeg("compact", str(out))
    before, after = re.search(
        rf"^{re.escape(str(out))}: 4 files compacted into 2; ([0-9,]+) bytes before, ([0-9,]+) "
        "after[.]", compact.output
    ).groups()  # fmt: skip
    assert int(after.replace(",", "")) == sum(
        p.stat().st_size for t in ("games", "events") for p in Dataset(out).files(t)
    )
    assert int(before.replace(",", "")) > 0
    assert kroeg("info", str(out)).output.splitlines()[0] == info.output.splitlines()[0]


def test_commands_on_a_folder_that_is_not_a_dataset(tmp_path: Path) -> None:
    result = kroeg("info", str(tmp_path / "missing"))
    assert result.exit_code == 1
    assert result.output.strip() == (
        f"Error: {tmp_path / 'missing'}: no such dataset (the folder does not exist)"
    )
    (tmp_path / "x.txt").write_text("x")
    result = kroeg("compact", str(tmp_path))
    assert result.output.strip() == (
        f"Error: {tmp_path}: not a kroeg dataset (expected the folders games/ and events/)"
    )


def test_every_command_has_help_with_an_example() -> None:
    commands = app.registered_commands
    assert {c.callback.__name__ for c in commands} >= {"simulate", "compact", "info", "demo"}
    for command in commands:
        name = command.name or command.callback.__name__
        result = kroeg(name, "--help")
        assert result.exit_code == 0
        assert "Example: kroeg " in result.output, name


def test_the_console_script_runs() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "kroeg.cli", "--help"], capture_output=True, text=True, check=False
    )
    assert result.returncode == 0
    assert "simulate" in result.stdout


@pytest.mark.slow
def test_demo_builds_from_the_sample_logs_and_every_bot_style(tmp_path: Path) -> None:
    result = kroeg("demo", "--out", str(tmp_path / "demo"), "--no-dashboard")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    logs = [p for p in (ROOT / "sample_logs").iterdir() if p.is_file()]
    assert lines[0].startswith(f"sample logs: {len(logs)} files from ")
    assert lines[1] == (
        "bots by seat: Anna random, Ben cautious, Carla bluffer, Dan sharp, Eva random, "
        "Frits cautious"
    )
    games = list(Dataset(tmp_path / "demo").read_games())
    sources = {g.source for g in games}
    assert sources == {"text", "engine"}  # the typed logs and the simulations
    assert {g.game_type for g in games} == {"toepen", "troefcall"}
    assert (tmp_path / "demo" / "derived" / "knocks").is_dir()  # analysed for the dashboard
    # Its club file names the seasons its evenings fall in (docs/SEASONS.md); a club's own
    # edit to it is kept when the demo is built again.
    from kroeg.analytics.club import read_club

    club = tmp_path / "demo" / "club.toml"
    assert [s.name for s in read_club(club).seasons] == ["Autumn 2026", "Troefcall autumn 2026"]
    table = kroeg("standings", str(tmp_path / "demo"), "--season", "Autumn 2026",
                  "--include-simulated")  # fmt: skip
    summary = "Autumn 2026: toepen, 1 September 2026 to 30 November 2026"
    assert table.exit_code == 0 and summary in table.output
    club.write_text(club.read_text("utf-8").replace("Autumn 2026", "Herfst 2026"), "utf-8")
    assert kroeg("demo", "--out", str(tmp_path / "demo"), "--no-dashboard").exit_code == 0
    assert read_club(club).seasons[0].name == "Herfst 2026"


def test_simulate_troefcall_with_its_bots_and_variants(tmp_path: Path) -> None:
    out = tmp_path / "tc"
    result = kroeg(
        "simulate", "--rules", "troefcall", "-V", "target-15", "-V", "silent-kap",
        "--hands", "60", "--bots", "sharp,random", "--out", str(out),
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "Simulated 60 hands" in result.output and "(troefcall, 4 players" in result.output
    games = list(Dataset(out).read_games())
    assert {g.game_type for g in games} == {"troefcall"} and games[0].teams == (0, 1, 0, 1)
    assert all(g.rules.silent_kap and g.rules.target_score == 15 for g in games)
    bad = kroeg("simulate", "--rules", "troefcall", "--bots", "bluffer", "--out", str(out))
    assert bad.output.strip() == (
        "Error: unknown troefcall bot style 'bluffer': expected one of random, sharp"
    )
    wrong = kroeg("simulate", "--rules", "troefcall", "-V", "poverty", "--out", str(out))
    assert wrong.output.strip() == "Error: variant 'poverty' is not a troefcall variant"


def test_info_totals_are_the_statistics_counts(tmp_path: Path) -> None:
    from kroeg.parsers import notation

    samples = Path(__file__).resolve().parents[2] / "sample_logs"
    ds = Dataset(tmp_path / "d")
    ds.write(notation.load(samples / "laundry-and-checks.txt"))
    ds.write(notation.load(samples / "troefcall-evening.txt"))
    lines = kroeg("info", str(ds.path)).output.splitlines()
    # The same counts as `kroeg stats` (tests/kroeg/test_cli_stats.py, docs/STATS.md).
    assert lines[lines.index("classic  games  hands  knocks  folds  cost  cost/hand") + 2 :][
        :4
    ] == [
        "Carla        1      2       0      1     1      0.500",
        "Dan          1      2       0      0     2      1.000",
        "Anna         1      2       0      0     3      1.500",
        "Ben          1      2       1      0     4      2.000",
    ]
    assert "Anna           1      3      1            5" in lines
    assert "Dan            1      3      0            4" in lines


def test_info_s_columns_fit_long_and_wide_names(tmp_path: Path) -> None:
    """A long name widens its column; a wide character (CJK, emoji) takes two of a
    terminal's columns: the figures stay under their headings."""
    import dataclasses

    from kroeg.recorder.rules import Ruleset
    from kroeg.recorder.simulate import simulate
    from kroeg.recorder.text import text_width

    names = ("Anna", "漢字ベン", "Carla van der Berg-Oosterhout", "Dan🎲")
    games = simulate(Ruleset.preset("classic"), 4, 20, 1)
    Dataset(tmp_path / "d").write(dataclasses.replace(g, players=names) for g in games)
    lines = kroeg("info", str(tmp_path / "d")).output.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("classic "))
    block = lines[at : at + 2 + len(names)]
    assert {text_width(line) for line in block} == {text_width(block[0])}  # one width
    assert all(any(line.startswith(n + " ") for line in block) for n in names)


def test_simulated_games_are_dated_club_evenings(tmp_path: Path) -> None:
    """Without --start the bots' evenings end today (none in the future), three games an
    evening from 20:00; with --start they begin that evening. So --by month, --since and
    the newsletter's --month find them."""
    from collections import Counter
    from datetime import UTC, date, datetime, timedelta

    past = tmp_path / "past"
    assert kroeg("simulate", "--hands", "120", "--out", str(past)).exit_code == 0
    games = list(Dataset(past).read_games())
    days = Counter(g.started_at.date() for g in games if g.started_at is not None)
    assert sum(days.values()) == len(games)  # every game dated
    today = datetime.now(UTC).date()
    assert max(days) == today and all(n <= 3 for n in days.values())
    assert sorted(days) == [today - timedelta(days=i) for i in range(len(days))][::-1]
    hours = {g.started_at.hour for g in games if g.started_at is not None}
    assert hours <= {20, 21, 22}
    forward = tmp_path / "forward"
    made = kroeg("simulate", "--hands", "60", "--start", "2026-11-01", "--out", str(forward))
    assert made.exit_code == 0, made.output
    first = min(g.started_at for g in Dataset(forward).read_games() if g.started_at)
    assert first.date() == date(2026, 11, 1) and first.hour == 20
    stats = kroeg("stats", str(forward), "--by", "month", "--format", "csv")
    assert stats.exit_code == 0 and "2026-11" in stats.output


def test_a_rules_file_names_the_parameter_and_the_kind_it_takes(tmp_path: Path) -> None:
    rules = tmp_path / "club.json"
    rules.write_text('{"name": "De Gouden Leeuw", "base": "classic", "lives": "fifteen"}')
    result = kroeg("simulate", "--rules", str(rules), "--hands", "10", "--out", str(tmp_path / "o"))
    assert result.exit_code == 2  # the --rules file is not a rule set: a usage mistake
    assert result.output == "Error: rule 'lives' takes a whole number, found 'fifteen'\n"
    rules.write_text('{"name": "X", "base": "classic", "laundry": "yes"}')
    result = kroeg("simulate", "--rules", str(rules), "--hands", "10", "--out", str(tmp_path / "o"))
    assert result.output == "Error: rule 'laundry' takes true or false, found 'yes'\n"


def test_stats_on_an_empty_dataset_is_an_error(tmp_path: Path) -> None:
    Dataset(tmp_path / "empty").create()
    result = kroeg("stats", str(tmp_path / "empty"))
    assert result.exit_code == 1
    assert result.output == (
        f"Error: {tmp_path / 'empty'}: no finished hands yet: add games with kroeg simulate, "
        "import or record\n"
    )


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (["simulat"],
         "Error: No such command 'simulat'. Did you mean 'simulate'? (see kroeg --help)"),
        (["simulate", "--out", "x", "--hands", "abc"],
         "Error: Invalid value for '--hands': Input should be a valid integer, unable to parse "
         "string as an integer (see kroeg simulate --help)"),
        (["simulate"], "Error: Missing option '--out'. (see kroeg simulate --help)"),
        (["replay", "x", "--game", "g", "--hand", "0"],
         "Error: Invalid value for '--hand': Input should be greater than or equal to 1 "
         "(see kroeg replay --help)"),
        (["demo", "--port", "99999"],
         "Error: Invalid value for '--port': Input should be less than or equal to 65535 "
         "(see kroeg demo --help)"),
        # A choice mistyped is said as every unknown name is, the nearest one offered.
        (["stats", "x", "--by", "mnth"],
         "Error: --by: unknown value 'mnth': did you mean month? Expected one of player, "
         "game, session, month, venue, side (see kroeg stats --help)"),
        (["games", "x", "--format", "jsn"],
         "Error: --format: unknown value 'jsn': did you mean json? Expected one of table, "
         "csv, json (see kroeg games --help)"),
        (["stats", "x", "--type", "it's"],
         "Error: --type: unknown value \"it's\": expected one of toepen, troefcall "
         "(see kroeg stats --help)"),
    ],
)  # fmt: skip
def test_a_usage_mistake_the_parser_finds_is_one_line_too(tmp_path: Path, args, line) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "kroeg.cli", *args], cwd=tmp_path, capture_output=True,
        text=True, check=False,
    )  # fmt: skip
    assert (done.returncode, done.stdout, done.stderr) == (2, "", line + "\n")
    assert list(tmp_path.iterdir()) == []  # nothing was made


def test_kroeg_alone_prints_its_help() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "kroeg.cli"], capture_output=True, text=True, check=False
    )
    assert done.stdout.startswith("Usage: kroeg [OPTIONS] COMMAND [ARGS]...") and not done.stderr


def test_simulate_writes_no_bar_to_a_pipe(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "kroeg.cli", "simulate", "--hands", "10", "--out", "club"],
        cwd=tmp_path, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert done.returncode == 0 and done.stderr == ""


@pytest.mark.parametrize(("chosen", "expected"), [(None, "1"), ("3", "3")])
def test_the_command_keeps_openblas_to_one_thread_unless_the_user_chose(chosen, expected) -> None:
    """numpy's OpenBLAS pool busy-waits beside the command although kroeg does no linear
    algebra (kroeg/_threads.py): the command asks for one thread before numpy loads, and
    leaves a user's own setting as it is."""
    env = {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"}
    if chosen is not None:
        env["OPENBLAS_NUM_THREADS"] = chosen
    # What the setting is at the moment numpy is first imported (by pyarrow).
    code = """
import os, sys
seen = []
class Watch:
    def find_spec(self, name, path=None, target=None):
        if name == "numpy" and not seen:
            seen.append(os.environ.get("OPENBLAS_NUM_THREADS", "unset"))
sys.meta_path.insert(0, Watch())
import kroeg.cli
from kroeg._options import open_dataset
open_dataset("nowhere")  # a command that opens a dataset: the store, pyarrow, numpy
print(seen[0] if seen else "numpy not imported")
"""
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    ).stdout.strip()
    assert out == expected


def test_a_command_that_opens_no_dataset_starts_without_pyarrow(tmp_path: Path) -> None:
    """`kroeg validate`, `--help` and `--version` need no store: pyarrow and numpy (0.2 s of
    a start) are imported by the commands that open a dataset (`_options.open_dataset`)."""
    log = tmp_path / "log.txt"
    log.write_text((ROOT / "sample_logs" / "classic-evening.txt").read_text("utf-8"), "utf-8")
    code = f"""
import sys
from kroeg.cli import app
try:
    app(["validate", {str(log)!r}])
except SystemExit as end:
    assert end.code in (0, None), end.code
print(sorted(m for m in ("pyarrow", "numpy", "polars", "duckdb") if m in sys.modules))
"""
    out = (
        subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
        .stdout.strip()
        .splitlines()
    )
    assert out[-1] == "[]"
    assert "OK, 2 games, 9 hands" in out[0]
