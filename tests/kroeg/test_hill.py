"""`kroeg hill` (an evening's standings) and `kroeg record --evening king-of-the-hill`."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner, Result

from kroeg.cli import app
from kroeg.recorder.hill import KING_OF_THE_HILL
from kroeg.recorder.records import GameRecord
from kroeg.recorder.store import Dataset
from tests.recorder.hill_games import played

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "sample_logs" / "troefcall-king-of-the-hill.txt"
runner = CliRunner()


def kroeg(*args: str, input: str | None = None) -> Result:
    return runner.invoke(app, list(args), input=input)


def test_hill_prints_the_sample_evenings_standings(tmp_path: Path) -> None:
    club = tmp_path / "club"
    assert kroeg("import", str(SAMPLE), "--into", str(club)).exit_code == 0
    table = kroeg("hill", str(club))
    assert table.exit_code == 0, table.output
    assert table.output.splitlines()[:6] == [
        "King of the hill, 2026-08-28 at Café Paramaribo: 4 games",
        "",
        "pair               games  wins  longest_reign",
        "Ingrid & Sharda    4      3     3",
        "Kenneth & Latisha  2      1     1",
        "Roy & Winston      2      0     0",
    ]
    assert "Sharda   4      3" in table.output
    chosen = ("--evening", "2026-08-28", "--venue", "Café Paramaribo")
    csv = kroeg("hill", str(club), *chosen, "--format", "csv")
    assert csv.output.splitlines()[1] == "2026-08-28,Café Paramaribo,pair,Ingrid & Sharda,4,3,3"
    data = json.loads(kroeg("hill", str(club), "--format", "json").output)
    assert data["players"][0] == {"player": "Ingrid", "games": 4, "wins": 3}
    missing = kroeg("hill", str(club), "--evening", "2026-11-28")
    assert missing.exit_code == 1
    assert missing.output.strip().endswith("Error: no king-of-the-hill evening on 2026-11-28")


def test_hill_help_has_an_example() -> None:
    result = kroeg("hill", "--help")
    assert result.exit_code == 0
    assert "Example: kroeg hill club.kroeg --evening 2026-08-28" in result.output


def _typed(game: GameRecord) -> list[str]:
    """A finished game as a scorekeeper types it at `kroeg record`: the dealer, unknown
    cards, the trump call, every card and call (what the engine records itself left out)."""
    names = game.players
    lines: list[str] = []
    for event in game.events:
        kind, seat, card, _, _ = event.to_row()
        name = "" if seat is None else names[seat]
        if kind == "hand_start":
            lines.append(name)
        elif kind == "deal" and lines[-1] != "skip":
            lines.append("skip")
        elif kind == "trump":
            lines.append(f"{name} trumps {card}")
        elif kind == "play":
            lines.append(f"{name} {card}")
        elif kind in ("kap", "baunie", "stop"):
            lines.append(f"{name} {kind}")
    return lines


def test_record_keeps_the_winners_and_asks_who_challenges_them(tmp_path: Path) -> None:
    rules = tmp_path / "one-hand.json"
    rules.write_text('{"base": "troefcall", "target_score": null, "fixed_hands": 1}')
    first = played(("Anna", "Ben", "Carla", "Dan"), ("Ben", "Dan"), 1)
    script = [
        *_typed(first),
        "Eva",  # one name: refused, and asked again
        "Eva, Frits",
    ]
    club = tmp_path / "club"
    result = kroeg(
        "record", "--into", str(club), "--players", "Anna,Ben,Carla,Dan",
        "--rules", str(rules), "--venue", "Café Paramaribo", "--evening", KING_OF_THE_HILL,
        input="\n".join(script) + "\n",
    )  # fmt: skip
    assert "Ben & Dan won and stay on the hill as partners, in seats 2 and 4" in result.output
    # (a script gets no prompts; a terminal asks "who challenges Ben & Dan?")
    assert "refused: two challengers take on Ben & Dan, found 1" in result.output
    assert "next game: Eva, Ben, Frits, Dan" in result.output  # the winners keep their seats
    assert result.output.strip().endswith("Error: 1 line refused (see above)")
    (stored,) = Dataset(club).read_games()
    assert stored.evening == KING_OF_THE_HILL and stored.venue == "Café Paramaribo"
    assert stored.events[-1].to_row() == ("game_end", 1, None, None, 0)
    journals = sorted((club / "journal").glob("*.jsonl"))
    assert len(journals) == 2  # the first game's, and the second's, kept for --resume
    headers = [json.loads(j.read_text().splitlines()[0])["header"] for j in journals]
    assert sorted(h["players"] for h in headers) == [
        ["Anna", "Ben", "Carla", "Dan"], ["Eva", "Ben", "Frits", "Dan"],
    ]  # fmt: skip
    assert {h["evening"] for h in headers} == {KING_OF_THE_HILL}
