"""Figures as a reader reads them: a half rounds up, and the figures of one verdict add up
(what was chosen, the other option, and what the choice lost)."""

from __future__ import annotations

import itertools
import re
from decimal import Decimal

import pytest

from kroeg.analytics import formats
from kroeg.analytics.verdict_words import (
    announce_verdict,
    answer_verdict,
    call_verdict,
    knock_choice_verdict,
    swap_verdict,
)
from kroeg.analytics.words import words


@pytest.mark.parametrize(
    ("value", "digits", "en", "nl"),
    [
        (0.25, 1, "0.3", "0,3"),  # a half up, as people round (half to even wrote 0.2)
        (0.75, 1, "0.8", "0,8"),
        (1.125, 2, "1.13", "1,13"),
        (-0.25, 1, "-0.3", "-0,3"),
        (2.675, 2, "2.67", "2,67"),  # stored a little below 2.675: not a half
        (-0.04, 1, "0.0", "0,0"),  # no sign on a zero
        (1234.5, 0, "1,235", "1.235"),
    ],
)
def test_a_figure_rounds_a_half_up_in_every_language(
    value: float, digits: int, en: str, nl: str
) -> None:
    assert formats.decimal(value, digits, "en") == en
    assert formats.decimal(value, digits, "nl") == nl


def test_a_percentage_rounds_a_half_up() -> None:
    assert formats.percent(0.125) == "13%"
    assert formats.percent(0.125, 0, "fr") == "13\xa0%"
    assert formats.percent(0.0625, 1) == "6.3%"


def _three(text: str, pattern: str) -> tuple[Decimal, Decimal, Decimal]:
    found = re.search(pattern, text)
    assert found, text
    return tuple(Decimal(x) for x in found.groups())  # type: ignore[return-value]


# Costs as the verdicts make them: averages over 16 deals (a swap, a knock), or 48 (the
# answers' chance of winning), so exact halves of the shown decimal are common.
_SIXTEENTHS = [Decimal(i) / 16 for i in range(0, 49)]


def test_a_swaps_figures_add_up_as_shown() -> None:
    en = words("en")
    pattern = r"expected to cost ([\d.]+); keeping the hand, ([\d.]+).*Lost ([\d.]+) of"
    for swap, keep in itertools.product(_SIXTEENTHS, repeat=2):
        lost = swap - keep
        if lost < Decimal("0.05"):
            continue
        text = swap_verdict(en, "Eva", "laundry", False, 2, float(swap), float(keep),
                            float(lost), "mistake")[1]  # fmt: skip
        shown_swap, shown_keep, shown_lost = _three(text, pattern)
        assert shown_swap - shown_keep == shown_lost, text
        assert shown_lost == formats.rounded(float(lost), 1)  # as its grade reads it
        assert abs(shown_swap - swap) <= Decimal("0.1") and abs(shown_keep - keep) <= Decimal("0.1")
    text = swap_verdict(en, "Dan", "laundry", False, 1, 1.375, 0.9375, 0.4375, "mistake")[1]
    assert "expected to cost 1.4; keeping the hand, 1.0" in text and "Lost 0.4 of" in text


def test_a_folds_certain_price_is_shown_as_it_is() -> None:
    """The figure nearer its rounding is the one shown as rounded: a fold's price, a whole
    number, is never moved to make the figures add up."""
    en = words("en")
    pattern = r"Folded: cost ([\d.]+); staying in was expected to cost ([\d.]+).*Lost ([\d.]+) of"
    for stay in _SIXTEENTHS[:16]:
        lost = 1 - stay
        if lost < Decimal("0.05"):
            continue
        text = answer_verdict(en, "Ben", "fold", 1, 0.5, float(stay), 1.0, float(lost),
                              "mistake")[1]  # fmt: skip
        fold, shown_stay, shown_lost = _three(text, pattern)
        assert fold == Decimal("1.0") and fold - shown_stay == shown_lost, text


def test_a_trump_calls_figures_add_up_as_shown() -> None:
    """Points: the higher the better, so the best call's figure is the chosen one's and
    the loss together."""
    en = words("en")
    num = r"(-?\d+\.\d)"
    pattern = rf"expected {num} points.*the best call, expected {num}.*Lost {num} points"
    points = [v - 3 for v in _SIXTEENTHS[::3]]  # "less the others'": often below nothing
    for chosen, best in itertools.product(points, repeat=2):
        if best - chosen < Decimal("0.05"):
            continue
        values = {"h": float(chosen), "s": float(best)}
        text = call_verdict(en, "Anna", "h", "s", values, float(best - chosen), "mistake",
                            ("Anna & Carla", "Ben & Dan"))[1]  # fmt: skip
        shown_chosen, shown_best, shown_lost = _three(text, pattern)
        assert shown_best - shown_chosen == shown_lost, text
        assert abs(shown_chosen - chosen) <= Decimal("0.1") and abs(shown_best - best) <= Decimal(
            "0.1"
        )


def test_every_verdict_with_a_loss_shows_figures_that_add_up() -> None:
    """A knock made, a stay, and a choice at seven tricks: the same figures, each in its
    sentence."""
    en = words("en")
    num = r"(-?\d+\.\d)"
    knock = knock_choice_verdict(en, "Ben", "play_on", 1, 1.1875, 0.8125, 0.375, "inaccuracy")
    found = _three(knock[1], rf"cost {num}; playing on without a knock, {num}.*Lost {num} of")
    assert found[0] - found[1] == found[2] == Decimal("0.4"), knock[1]
    stay = answer_verdict(en, "Carla", "stay", 2, 0.25, 1.5625, 0.9375, 0.625, "blunder")
    found = _three(stay[1], rf"cost {num}; folding would have cost {num}.*Lost {num} of")
    assert found[0] - found[1] == found[2], stay[1]
    values = {"kap": -0.625, "baunie": 1.125, "stop": 0.0, "play": 0.25}
    said = announce_verdict(en, "Dan", "kap", "baunie", values, 0.4, 1.75, "blunder",
                            ("Ben & Dan", "Anna & Carla"))[1]  # fmt: skip
    found = _three(said, rf"expected {num} points.*best choice, expected {num}.*Lost {num} points")
    assert found[1] - found[0] == found[2], said
