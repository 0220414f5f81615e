"""Cards, suits, ranks and the two decks.

A card prints as its canonical two-character code (`Th`, `Js`): rank, then
suit. `Card.parse` is lenient about spelling (`10h`, `10♥`, Dutch `B`/`V`/`H`,
any case) but `str(card)` is always the canonical code, so
`Card.parse(str(c)) == c` for every card.

Cards are interned: `Card.parse` and the deck constants return the same
52 objects, so identity checks and dictionary look-ups stay cheap in the
engine's hot loop.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import ClassVar

from kroeg.recorder.errors import CardError
from kroeg.recorder.text import quoted

__all__ = [
    "FULL_DECK",
    "FULL_ORDER",
    "TOEPEN_DECK",
    "TOEPEN_ORDER",
    "Card",
    "Rank",
    "Suit",
    "mark_red_suits",
]


class Suit(StrEnum):
    """A suit; its value is the notation letter."""

    CLUBS = "c"
    DIAMONDS = "d"
    HEARTS = "h"
    SPADES = "s"

    @property
    def symbol(self) -> str:
        """The suit as a symbol: ♣ ♦ ♥ ♠."""
        return _SUIT_SYMBOLS[self]

    @property
    def is_red(self) -> bool:
        """True for hearts and diamonds."""
        return self in (Suit.HEARTS, Suit.DIAMONDS)

    @property
    def english(self) -> str:
        """The suit's English name in the plural: `hearts`."""
        return self.name.lower()

    @classmethod
    def parse(cls, text: str) -> Suit:
        """Read a suit letter (`h`, `H`), symbol (`♥`, `♡`) or name (`hearts`)."""
        key = text.strip().lower()
        suit = _SUIT_SPELLINGS.get(key)
        if suit is None:
            raise CardError(f"unknown suit {quoted(text)}: expected one of c d h s (or ♣ ♦ ♥ ♠)")
        return suit


class Rank(StrEnum):
    """A rank; its value is the notation character (`T` is the ten)."""

    ACE = "A"
    KING = "K"
    QUEEN = "Q"
    JACK = "J"
    TEN = "T"
    NINE = "9"
    EIGHT = "8"
    SEVEN = "7"
    SIX = "6"
    FIVE = "5"
    FOUR = "4"
    THREE = "3"
    TWO = "2"

    @property
    def english(self) -> str:
        """The rank as a word a player would say: `ten`, `jack`."""
        return self.name.lower()

    @classmethod
    def parse(cls, text: str) -> Rank:
        """Read a rank: `T`, `10`, `j`, or the Dutch `B` (boer), `V` (vrouw), `H` (heer)."""
        rank = _RANK_SPELLINGS.get(text.strip().upper())
        if rank is None:
            raise CardError(
                f"unknown rank {quoted(text)}: expected one of A K Q J T 9 8 7 6 5 4 3 2 "
                "(or 10, Dutch B V H)"
            )
        return rank


_SUIT_SYMBOLS = {Suit.CLUBS: "♣", Suit.DIAMONDS: "♦", Suit.HEARTS: "♥", Suit.SPADES: "♠"}
_SUIT_SPELLINGS: dict[str, Suit] = {s.value: s for s in Suit}
_SUIT_SPELLINGS.update({s.symbol: s for s in Suit})


def mark_red_suits(text: str, mark: Callable[[str], str]) -> str:
    """`text` with each red suit symbol (♥ ♦) passed through `mark`: red ink for a
    terminal, a span for HTML. Which suits are red is `Suit.is_red`'s to say."""
    for suit in Suit:
        if suit.is_red:
            text = text.replace(suit.symbol, mark(suit.symbol))
    return text


_SUIT_SPELLINGS.update({"♧": Suit.CLUBS, "♢": Suit.DIAMONDS, "♡": Suit.HEARTS, "♤": Suit.SPADES})
_SUIT_SPELLINGS.update({s.english: s for s in Suit})
_RANK_SPELLINGS: dict[str, Rank] = {r.value: r for r in Rank}
_RANK_SPELLINGS.update({"10": Rank.TEN, "B": Rank.JACK, "V": Rank.QUEEN, "H": Rank.KING})


@dataclass(frozen=True, slots=True, eq=False)
class Card:
    """A playing card. `str(card)` is the canonical code of FORMAT.md.

    Every card is interned (`Card(Rank.TEN, Suit.HEARTS) is Card.parse("Th")`), so
    equality and hashing are by identity, which keeps sets and dicts of cards fast.
    """

    rank: Rank
    suit: Suit
    #: The canonical code (`Th`), kept so that logging a card costs no string work.
    code: str = field(init=False, repr=False, compare=False)

    _interned: ClassVar[dict[str, Card]] = {}

    def __new__(cls, rank: Rank, suit: Suit) -> Card:
        card = cls._interned.get(Rank(rank).value + Suit(suit).value)
        if card is None:
            card = object.__new__(cls)
        return card

    def __init__(self, rank: Rank, suit: Suit) -> None:
        # Interned: only the first construction of each card sets its fields.
        if not hasattr(self, "rank"):
            object.__setattr__(self, "rank", Rank(rank))
            object.__setattr__(self, "suit", Suit(suit))
            object.__setattr__(self, "code", self.rank.value + self.suit.value)

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return (Card.parse, (self.code,))

    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: object) -> Card:
        return self

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"

    @property
    def pretty(self) -> str:
        """The card with a suit symbol, for people: `10♥`, `J♠`."""
        rank = "10" if self.rank is Rank.TEN else self.rank.value
        return rank + self.suit.symbol

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read a card in any accepted spelling: `Th`, `10h`, `10♥`, `th`, `Bs` (Dutch boer)."""
        cached = cls._interned.get(text)
        if cached is not None:
            return cached
        cleaned = text.strip()
        if len(cleaned) < 2:
            raise CardError(
                f"not a card: {quoted(text)} (expected rank then suit, like Th or 10h)",
                "too short for a rank and a suit",
            )
        suit_text, rank_text = cleaned[-1], cleaned[:-1]
        try:
            suit = Suit.parse(suit_text)
        except CardError:
            raise CardError(
                f"not a card: {quoted(text)} has unknown suit {quoted(suit_text)} "
                "(expected one of c d h s or ♣ ♦ ♥ ♠)",
                f"unknown suit {quoted(suit_text)}",
            ) from None
        try:
            rank = Rank.parse(rank_text)
        except CardError:
            raise CardError(
                f"not a card: {quoted(text)} has unknown rank {quoted(rank_text)} "
                "(expected A K Q J T 9 8 7 6 5 4 3 2, 10, or Dutch B V H)",
                f"unknown rank {quoted(rank_text)}",
            ) from None
        return cls._interned[rank.value + suit.value]


def _intern_all() -> None:
    for suit in Suit:
        for rank in Rank:
            card = Card(Rank(rank), Suit(suit))
            Card._interned[rank.value + suit.value] = card


_intern_all()

#: Rank order of Toepen, high to low, in every suit.
TOEPEN_ORDER: tuple[Rank, ...] = tuple(Rank(c) for c in "T987AKQJ")
#: Rank order of a full 52-card deck (Troefcall), high to low.
FULL_ORDER: tuple[Rank, ...] = tuple(Rank(c) for c in "AKQJT98765432")

#: The 32 Toepen cards, suit by suit, highest first.
TOEPEN_DECK: tuple[Card, ...] = tuple(
    Card._interned[r.value + s.value] for s in Suit for r in TOEPEN_ORDER
)
#: The 52 cards of a full deck, suit by suit, highest first.
FULL_DECK: tuple[Card, ...] = tuple(
    Card._interned[r.value + s.value] for s in Suit for r in FULL_ORDER
)
