"""CSV cells a spreadsheet would run as formulas are neutralised."""

from __future__ import annotations

import pytest

from analytics.report import neutralise


@pytest.mark.parametrize(
    "cell",
    ["=1+1", " =1+1", "  +SUM(A1)", "-2+3", "@x", "＝1+1", "＋1", "－1", "＠x", "\t1", "\r1"],
)
def test_a_formula_gets_an_apostrophe(cell: str) -> None:
    assert neutralise(cell) == "'" + cell


@pytest.mark.parametrize("cell", ["Anna", "Café De Kroeg", "", 3, None, 0.5])
def test_anything_else_is_left_alone(cell: object) -> None:
    assert neutralise(cell) == cell
