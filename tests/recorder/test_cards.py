"""Cards: canonical codes, every accepted spelling, the two decks and their orders."""

import copy
import pickle

import pytest

from kroeg.recorder.cards import FULL_DECK, FULL_ORDER, TOEPEN_DECK, TOEPEN_ORDER, Card, Rank, Suit
from kroeg.recorder.errors import CardError


@pytest.mark.parametrize(
    "text",
    ["Th", "10h", "10♥", "th", "TH", "10H", "T♡", " Th "],
)
def test_every_spelling_of_the_ten_of_hearts(text: str) -> None:
    assert Card.parse(text) is Card(Rank.TEN, Suit.HEARTS)
    assert str(Card.parse(text)) == "Th"


@pytest.mark.parametrize(
    ("dutch", "code"), [("Bs", "Js"), ("Vd", "Qd"), ("Hc", "Kc"), ("hh", "Kh")]
)
def test_dutch_letters(dutch: str, code: str) -> None:
    assert str(Card.parse(dutch)) == code


def test_parse_of_str_round_trips_for_every_card() -> None:
    assert len(FULL_DECK) == 52 and len(set(FULL_DECK)) == 52
    for card in FULL_DECK:
        assert Card.parse(str(card)) is card
        assert eval(repr(card)) is card
        assert pickle.loads(pickle.dumps(card)) is card
        assert copy.deepcopy(card) is card


def test_toepen_deck_and_rank_orders() -> None:
    assert [r.value for r in TOEPEN_ORDER] == list("T987AKQJ")
    assert [r.value for r in FULL_ORDER] == list("AKQJT98765432")
    assert len(TOEPEN_DECK) == 32
    assert {c.rank for c in TOEPEN_DECK} == set(TOEPEN_ORDER)
    assert [str(c) for c in TOEPEN_DECK[:8]] == ["Tc", "9c", "8c", "7c", "Ac", "Kc", "Qc", "Jc"]


def test_pretty_and_suit_facts() -> None:
    assert Card.parse("Th").pretty == "10♥"
    assert Card.parse("Js").pretty == "J♠"
    assert Suit.HEARTS.is_red and Suit.DIAMONDS.is_red and not Suit.CLUBS.is_red
    assert Suit.parse("♦") is Suit.DIAMONDS


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("Tx", "not a card: 'Tx' has unknown suit 'x' (expected one of c d h s or ♣ ♦ ♥ ♠)"),
        (
            "1h",
            "not a card: '1h' has unknown rank '1' (expected A K Q J T 9 8 7 6 5 4 3 2, "
            "10, or Dutch B V H)",
        ),
        ("h", "not a card: 'h' (expected rank then suit, like Th or 10h)"),
        ("", "not a card: '' (expected rank then suit, like Th or 10h)"),
    ],
)
def test_bad_cards_say_what_is_wrong(text: str, message: str) -> None:
    with pytest.raises(CardError) as err:
        Card.parse(text)
    assert str(err.value) == message
    assert isinstance(err.value, ValueError)


def test_constructing_a_card_gives_the_interned_one() -> None:
    assert Card("T", "h") is Card.parse("Th")  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        Card("X", "h")  # type: ignore[arg-type]
