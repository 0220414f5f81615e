"""CSV cells a spreadsheet would run as formulas are neutralised."""

from __future__ import annotations

import pytest

from kroeg.analytics.report import neutralise, stats_table
from kroeg.analytics.stats import STATS


@pytest.mark.parametrize(
    "cell",
    ["=1+1", " =1+1", "  +SUM(A1)", "-2+3", "@x", "＝1+1", "＋1", "－1", "＠x", "\t1", "\r1"],
)
def test_a_formula_gets_an_apostrophe(cell: str) -> None:
    assert neutralise(cell) == "'" + cell


@pytest.mark.parametrize("cell", ["Anna", "Café De Kroeg", "", 3, None, 0.5])
def test_anything_else_is_left_alone(cell: object) -> None:
    assert neutralise(cell) == cell


def test_the_verdicts_of_a_hand_in_one_line() -> None:
    from kroeg.analytics.verdict_words import verdict_summary
    from kroeg.analytics.words import words

    line = verdict_summary(
        words("en"),
        [("Ben", True, True), ("Ben", False, False), ("Anna", None, False)],
        [("Carla", True, 2), ("Dan", False, 1), ("Carla", None, 1)],
    )
    assert line == (
        "Ben: 2 knocks, 1 bluff (1 that worked); Anna: 1 knock (1 unknown); "
        "Carla: 2 folds, 1 regrettable (cost 2) (1 unknown); Dan: 1 fold"
    )
    assert verdict_summary(words("en"), [], []) == ""
    # The decisions graded from what the player could see are counted as well.
    graded = verdict_summary(
        words("en"),
        [("Ben", True, False)],
        [("Carla", False, 1)],
        [("Ben", "mistake"), ("Ben", None), ("Carla", "blunder"), ("Carla", "blunder"),
         ("Dan", "inaccuracy"), ("Anna", None)],
    )  # fmt: skip
    assert graded == (
        "Ben: 1 knock, 1 bluff, 1 mistake; Carla: 1 fold, 2 blunders; Dan: 1 inaccuracy"
    )
    assert verdict_summary(words("nl"), [], [], [("Ben", "mistake")] * 2) == "Ben: 2 fouten"


def test_a_club_of_seventeen_fits_a_terminal() -> None:
    """`kroeg stats` on the demo's seventeen players printed lines of 306 characters: the
    players are cut into blocks as wide as the terminal, the figures' names in each."""
    import polars as pl

    players = [f"Player {i:02d}" for i in range(17)]
    counts = {s.done: 1 for s in STATS} | {s.opportunities: 3 for s in STATS}
    frame = pl.DataFrame([{"player": p, "hands": 3, **counts} for p in players])
    whole = stats_table(frame)
    assert max(len(line) for line in whole.splitlines()) > 200
    for width in (80, 120, 20):
        text = stats_table(frame, width=width)
        lines = text.splitlines()
        heads = [line.split() for line in lines if line.startswith(" ")]
        if width > 20:
            assert max(len(line) for line in lines) <= width
        else:  # narrower than the names and one player: one player a block
            assert len(heads) == len(players)
        named = [f"{a} {b}" for head in heads for a, b in zip(head[::2], head[1::2], strict=True)]
        assert named == players  # each once, in order
        # Every block names every figure.
        assert sum(line.startswith("knocks/hand ") for line in lines) == len(heads) > 1
    assert stats_table(frame, width=10_000) == whole


def test_one_long_venue_does_not_widen_every_game_listed() -> None:
    """`kroeg games`: a venue of 57 characters padded every row to 280 characters."""
    import polars as pl

    from kroeg.analytics.games import TABLE_WIDTHS, games_table

    venue = "Café De Kroeg, aan de bar, bij het raam, naast de flipperkast"
    frame = pl.DataFrame({
        "game": ["g1", "g2"], "date": ["2026-11-06 20:00"] * 2, "venue": [venue, "Café"],
        "rules": ["classic"] * 2, "players": ["Anna, Ben"] * 2, "hands": [3, 4],
        "result": ["Anna lost"] * 2, "source": ["typed"] * 2,
    })  # fmt: skip
    lines = games_table(frame).splitlines()
    cut = venue[: TABLE_WIDTHS["venue"] - 1].rstrip() + "…"
    assert cut in lines[1] and venue not in lines[1]
    assert max(len(line) for line in lines) < 100
    assert lines[2].split()[:2] == ["g2", "2026-11-06"]


def test_the_games_list_fits_the_terminal_and_aligns_wide_names() -> None:
    """`kroeg games` on 120 columns wrote rows of about 196: the widest cut columns (venue,
    rules, players, result) give way until the list fits, none below NARROWEST; a name
    in wide characters (CJK, emoji) keeps the columns after it in line."""
    import polars as pl

    from kroeg.analytics.games import NARROWEST, games_table
    from kroeg.recorder.text import text_width, visible_text

    FAMILY = "\U0001f469\u200d\U0001f469\u200d\U0001f467"  # three emoji joined: one picture

    frame = pl.DataFrame({
        "game": ["e2f6e2228db08b82", "e4805955a1108d4d"],
        "date": ["2026-11-30 22:00"] * 2, "venue": ["Café De Kroeg", "Café Paramaribo"],
        "rules": ["classic + knock-on-turn + false-swap-undone + folded-card-leaves", "lives"],
        "players": ["Anna, Ben, Carla, Dan, Eva, Frits", f"山田, Ben, 🃏, {FAMILY}, Eva"],
        "hands": [7, 10], "result": ["Anna & Carla won; Ben & Dan lost", "山田 lost"],
        "source": ["simulated", "typed"],
    })  # fmt: skip
    whole = games_table(frame).splitlines()
    # Printed as it was measured: the CLI's visible_text leaves the joined emoji joined.
    assert visible_text("\n".join(whole)) == "\n".join(whole)
    assert max(text_width(line) for line in whole) > 120
    for width in (120, 100):
        lines = games_table(frame, width).splitlines()
        assert max(text_width(line) for line in lines) <= width, lines
        assert "…" in lines[1]
        # Every row's last cell starts in the header's column, past the wide names.
        at = lines[0].index("source")
        cells = zip(lines, ("source", "simulated", "typed"), strict=True)
        assert [text_width(line[: line.index(cell)]) for line, cell in cells] == [at] * 3
    narrow = games_table(frame, 40).splitlines()
    header = narrow[0].split()
    assert len(header) == 8 and text_width(narrow[1]) > 40  # as narrow as they go
    cells = narrow[1].split("  ")
    assert all(text_width(c.strip()) >= min(NARROWEST, len(c.strip())) for c in cells if c)


def test_a_cell_writes_every_count_with_the_language_s_separators() -> None:
    """`accuracy 84% 1,021.5/1211` wrote the points with a thousands separator and the
    chances without, beside `hands 1,000`."""
    from kroeg.analytics.stats import STAT_BY_NAME

    won, accuracy = STAT_BY_NAME["win_rate"], STAT_BY_NAME["answer_accuracy"]
    assert won.cell(451, 1000) == "45% 451/1,000"
    assert won.cell(3, 4) == "75% 3/4*"
    assert accuracy.cell(1021.5, 1211) == "84% 1,021.5/1,211"
    assert accuracy.cell(1021.5, 1211, lang="nl") == "84% 1.021,5/1.211"
