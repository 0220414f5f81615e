"""Names are shown on a terminal, never obeyed; exported files are the dataset's, byte for byte."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from typer.testing import CliRunner

from kroeg.cli import app
from kroeg.parsers import notation
from kroeg.recorder.store import Dataset

SAMPLES = Path(__file__).resolve().parents[2] / "sample_logs"
# Written by another tool, straight into the dataset: our doors refuse such names.
ESCAPING = ("\x1b[2JAnna", "\x1b]52;c;aGk=\x07Ben", "Carla\u202e", "Dan\x1b]0;pwned\x07")


def dataset(tmp_path: Path) -> Dataset:
    (game,) = notation.load(SAMPLES / "laundry-and-checks.txt")
    ds = Dataset(tmp_path / "ds")
    ds.write([dataclasses.replace(game, players=ESCAPING, game_id="escaping")])
    return ds


def test_no_terminal_escape_reaches_the_screen(tmp_path: Path) -> None:
    ds = dataset(tmp_path)
    runner = CliRunner()
    for args in (["info", ds.path], ["stats", ds.path], ["replay", ds.path, "--game", "escaping"]):
        result = runner.invoke(app, [str(a) for a in args])
        assert result.exit_code == 0, result.output
        assert "\x1b" not in result.output and "\x07" not in result.output
        assert "\u202e" not in result.output
    shown = runner.invoke(app, ["info", str(ds.path)]).output
    assert "\\x1b[2JAnna" in shown  # visible, as escapes


def test_export_writes_the_same_bytes_to_a_pipe_and_to_a_file(tmp_path: Path) -> None:
    ds = dataset(tmp_path)
    runner = CliRunner()
    piped = runner.invoke(app, ["export", str(ds.path), "--game", "escaping"])
    assert piped.exit_code == 0
    out = tmp_path / "game.txt"
    assert (
        runner.invoke(
            app, ["export", str(ds.path), "--game", "escaping", "--out", str(out)]
        ).exit_code
        == 0
    )
    assert piped.stdout_bytes == out.read_bytes()
    assert b"\x1b]52;c;aGk=\x07Ben" in piped.stdout_bytes  # the data, not stripped


def test_the_markup_names_sample_through_every_command(tmp_path: Path) -> None:
    """sample_logs/markup-in-names.txt: imported, then every output shows the names as typed."""
    from markdown_it import MarkdownIt

    runner = CliRunner()
    club = tmp_path / "club"
    sample = SAMPLES / "markup-in-names.txt"
    assert runner.invoke(app, ["import", str(sample), "--into", str(club)]).exit_code == 0
    (game_id,) = Dataset(club).game_ids()
    for args in (["info"], ["stats"], ["replay", "--game", game_id]):
        result = runner.invoke(app, [args[0], str(club), *args[1:]])
        assert result.exit_code == 0, result.output
        assert "![Anna](//127.0.0.2/i.png)" in result.output or args[0] == "stats"
    exported = runner.invoke(app, ["export", str(club), "--game", game_id]).stdout
    again = tmp_path / "again.txt"
    again.write_text(exported, encoding="utf-8")
    assert runner.invoke(app, ["import", str(again), "--into", str(club)]).exit_code == 0
    assert Dataset(club).game_ids() == {game_id}  # the same game: it read back identical
    out = tmp_path / "nl"
    news = runner.invoke(app, ["newsletter", str(club), "--month", "2026-11", "--out", str(out)])
    assert news.exit_code == 0, news.output
    html = MarkdownIt("commonmark").render((out / "newsletter-2026-11.md").read_text("utf-8"))
    assert "<img" not in html and "<script" not in html and "<a " not in html
    page = (out / "newsletter-2026-11.html").read_text("utf-8")
    assert "<b>Ben</b>" not in page and "&lt;b&gt;Ben&lt;/b&gt;" in page


def test_a_joined_emoji_name_stays_joined_among_escaped_ones(tmp_path: Path) -> None:
    """A name drawn of joined emoji (👩‍👩‍👧: allowed at every door) is shown as typed, even
    in output that escapes another name's hidden character: the escaping went character
    by character and turned the joiner into `\\u200d` there, so `kroeg games` printed a
    row wider than it had measured."""
    from kroeg.recorder.text import visible_text

    family = "\U0001f469\u200d\U0001f469\u200d\U0001f467"
    shown = visible_text(f"{family}\nDan\u200b")
    assert shown == f"{family}\nDan\\u200b"
    (game,) = notation.load(SAMPLES / "laundry-and-checks.txt")
    ds = Dataset(tmp_path / "ds")
    players = (family, "Ben\u200b", "Carla", "Dan")
    ds.write([dataclasses.replace(game, players=players, game_id="joined")])
    listed = CliRunner().invoke(app, ["games", str(ds.path)])
    assert listed.exit_code == 0, listed.output
    assert family in listed.output and "Ben\\u200b" in listed.output
