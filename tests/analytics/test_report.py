"""CSV cells a spreadsheet would run as formulas are neutralised."""

from __future__ import annotations

import pytest

from kroeg.analytics.report import neutralise


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
