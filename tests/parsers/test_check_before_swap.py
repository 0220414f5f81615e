"""check-before-swap at the table: a check typed while the new cards are awaited."""

from __future__ import annotations

from pathlib import Path

from kroeg.parsers.commands import Session
from kroeg.recorder.manual import ManualGame
from kroeg.recorder.rules import Ruleset

PLAYERS = ["Anna", "Ben", "Carla", "Dan"]


def session(tmp_path: Path, hands: str) -> Session:
    rules = Ruleset.preset("classic").with_variants("check-before-swap")
    table = Session(ManualGame.start(PLAYERS, rules, tmp_path / "game.journal"))
    table.run("Dan")
    table.run(hands)
    table.run("Carla laundry")
    # The claim may be checked before its new cards, and the prompt says so.
    assert table.manual.prompt().text == (
        "cards for Carla (or skip), or a check of Carla's laundry first"
    )
    return table


def test_a_bluff_checked_before_the_swap_gets_no_new_cards(tmp_path: Path) -> None:
    table = session(
        tmp_path, "Anna: Jh 9s 7c Qd; Ben: Qh Js 7s Jc; Carla: Ah Kh Qs 9d; Dan: 8h Ts Ac Ad"
    )
    table.run("Ben checks Carla")
    game = table.manual.game
    assert [e.kind for e in game.log[-6:]] == ["check", *["reveal"] * 4, "pay"]
    assert (game.stock, table.manual.prompt().text) == (
        16,
        "hand 1, trick 1: Anna leads (stake 1)",
    )


def test_genuine_laundry_checked_before_the_swap_then_takes_its_cards(tmp_path: Path) -> None:
    table = session(
        tmp_path, "Anna: Jh 9s 7c Qd; Ben: Qh Js 7s Jc; Carla: Ah Kh Qs Jd; Dan: 8h Ts Ac Ad"
    )
    table.run("Ben checks Carla")
    assert table.manual.prompt().text == "cards for Carla (or skip)"
    table.run("7h 8c 9c Tc")
    game = table.manual.game
    assert [e.to_row()[:2] for e in game.log[-11:]] == [
        ("laundry", 2), ("check", 1), *[("reveal", 2)] * 4, ("pay", 1), *[("deal", 2)] * 4,
    ]  # fmt: skip
    assert game.lives[1] == 9 and game.stock == 12
