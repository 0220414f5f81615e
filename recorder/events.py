"""Events: one small frozen value per thing that happens at the table.

Each event class maps its fields onto the four payload columns of
FORMAT.md (`seat`, `card`, `amount`, `target`); the Parquet schema and the
row conversion are derived from these declarations, never written twice.
The `hand` and `seq` columns are not stored in the event: they follow from
the event's position in a game's log (every `hand_start` opens a hand, as does a
`hand_skipped`: HAND_OPENERS).

    >>> Knock(seat=1, stake=2).to_row()
    ('knock', 1, None, 2, None)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field, fields, replace
from enum import StrEnum
from typing import Any, ClassVar, TypeVar

from kroeg.recorder.cards import FULL_DECK, Card, Rank, Suit
from kroeg.recorder.errors import DatasetError
from kroeg.recorder.text import quoted

__all__ = [
    "CARD_WORDS",
    "CODE_NULL",
    "EVENT_TYPES",
    "HAND_OPENERS",
    "PAYLOAD_COLUMNS",
    "PAYLOAD_TYPES",
    "VERDICT_FIELDS",
    "VERDICT_KINDS",
    "AllFolded",
    "Armoede",
    "Baunie",
    "CardPlayed",
    "Check",
    "Deal",
    "Eliminated",
    "Event",
    "Fold",
    "GameEnd",
    "HandEnd",
    "HandSkipped",
    "HandStart",
    "HandWon",
    "Kap",
    "Knock",
    "Laundry",
    "Pay",
    "Redeal",
    "Reveal",
    "Score",
    "ScoreReason",
    "Stay",
    "Stop",
    "TrickWon",
    "TrumpCalled",
    "Whistle",
    "event_from_row",
    "number_events",
    "without_verdicts",
]

#: The payload columns of the events table, in order, with their Parquet types.
PAYLOAD_TYPES = {"seat": "int8", "card": "string", "amount": "int16", "target": "int8"}
PAYLOAD_COLUMNS = tuple(PAYLOAD_TYPES)
_COLUMN_INDEX = {name: i for i, name in enumerate(PAYLOAD_COLUMNS)}


def _col(column: str, **kwargs: Any) -> Any:
    """Declare that a field is stored in the named payload column."""
    return field(metadata={"column": column}, **kwargs)


@dataclass(frozen=True, slots=True)
class Event:
    """Base of all events; `kind` is the value of the `kind` column."""

    kind: ClassVar[str] = ""

    def to_row(self) -> tuple[str, int | None, str | None, int | None, int | None]:
        """The event as (kind, seat, card, amount, target)."""
        raise NotImplementedError  # generated for each event class by @_event

    def to_codes(self) -> tuple[int, int, int, int, int]:
        """The row of `to_row` as five integers, for columns built in bulk: the kind's
        index in `EVENT_TYPES`, the card column's value's index in `CARD_WORDS`, the
        other three as they are; `CODE_NULL` for NULL."""
        raise NotImplementedError  # generated for each event class by @_event


_E = TypeVar("_E", bound=type[Event])
EVENT_TYPES: dict[str, type[Event]] = {}
_DECODERS: dict[str, tuple[type[Event], tuple[tuple[str, int, Callable[[Any], Any]], ...]]] = {}


def _codec(annotation: str) -> tuple[str, Callable[[Any], Any]]:
    """How a field of this type is written (an expression on `v`) and read back."""
    if "Card" in annotation:
        return "v.code", Card.parse
    if "Rank" in annotation:
        return "v.value", Rank
    if "Suit" in annotation:
        return "v.value", Suit
    if "ScoreReason" in annotation:
        return "v.value", ScoreReason
    return "v", int


#: What the `card` column can hold: every card's code, every rank and suit, every score's
#: reason (filled below ScoreReason). `to_codes` gives a value as its index here.
CARD_WORDS: list[str] = []
_CARD_NUMBERS: dict[str, int] = {}
#: NULL in `to_codes`: below every column's range (int8, int16, an index), so no value
#: a column can hold is taken for it. (A value equal to it, which no engine or reader
#: makes, would be stored as NULL where every other value out of range is refused.)
CODE_NULL = -(2**31)


def _row_function(
    kind: str, layout: list[tuple[str, int, str, bool]], codes: bool = False
) -> Callable[..., Any]:
    """Generate a fast `to_row` for one event class (the log is converted millions of
    times), or with `codes` its `to_codes`."""
    null = str(CODE_NULL) if codes else "None"
    slots = [null] * len(PAYLOAD_COLUMNS)
    for name, index, encode, nullable in layout:
        expr = encode.replace("v", f"self.{name}", 1)
        if codes and PAYLOAD_TYPES[PAYLOAD_COLUMNS[index]] == "string":
            expr = f"_CARD_NUMBERS[{expr}]"
        slots[index] = f"({null} if self.{name} is None else {expr})" if nullable else expr
    name = "to_codes" if codes else "to_row"
    head = str(len(EVENT_TYPES)) if codes else repr(kind)
    source = f"def {name}(self):\n    return ({head}, {', '.join(slots)})\n"
    namespace: dict[str, Any] = {"_CARD_NUMBERS": _CARD_NUMBERS}
    exec(source, namespace)
    fn: Callable[..., Any] = namespace[name]
    fn.__doc__ = getattr(Event, name).__doc__
    return fn


def _event(kind: str) -> Callable[[_E], _E]:
    def register(cls: _E) -> _E:
        if kind in EVENT_TYPES:  # `to_codes` numbers each kind by its registration
            raise TypeError(f"event kind {kind!r} registered twice")
        cls.kind = kind
        layout = []
        decoders = []
        for f in fields(cls):
            column = f.metadata.get("column", f.name)
            if column not in _COLUMN_INDEX:
                raise TypeError(f"{cls.__name__}.{f.name}: no column {column!r}")
            encode, decode = _codec(str(f.type))
            nullable = "None" in str(f.type)
            layout.append((f.name, _COLUMN_INDEX[column], encode, nullable))
            decoders.append((f.name, _COLUMN_INDEX[column], decode))
        cls.to_row = _row_function(kind, layout)  # type: ignore[method-assign]
        cls.to_codes = _row_function(kind, layout, codes=True)  # type: ignore[method-assign]
        _DECODERS[kind] = (cls, tuple(decoders))
        EVENT_TYPES[kind] = cls
        return cls

    return register


# -- shared by Toepen and Troefcall ----------------------------------------------------------


@_event("hand_start")
@dataclass(frozen=True, slots=True)
class HandStart(Event):
    """A hand begins: the dealer, the starting stake (Toepen), the trump caller (Troefcall)."""

    seat: int
    stake: int | None = _col("amount")
    caller: int | None = _col("target", default=None)


@_event("deal")
@dataclass(frozen=True, slots=True)
class Deal(Event):
    """One card dealt to `seat`, in dealing order; `card` is None when nobody saw it."""

    seat: int
    card: Card | None


@_event("play")
@dataclass(frozen=True, slots=True)
class CardPlayed(Event):
    """A card played to the current trick."""

    seat: int
    card: Card


@_event("trick")
@dataclass(frozen=True, slots=True)
class TrickWon(Event):
    """A trick is complete; `seat` won it."""

    seat: int
    number: int = _col("amount")


@_event("reveal")
@dataclass(frozen=True, slots=True)
class Reveal(Event):
    """A card shown face up: a cut for the deal, a checked hand, a hand played face up."""

    seat: int
    card: Card | None


@_event("hand_end")
@dataclass(frozen=True, slots=True)
class HandEnd(Event):
    """The hand is over: `seat` took the last trick, or everyone folded to them.

    `stake` is Toepen's final stake; Troefcall has none (NULL).
    """

    seat: int
    stake: int | None = _col("amount")


@_event("win")
@dataclass(frozen=True, slots=True)
class HandWon(Event):
    """`seat` won the hand (Toepen): the engine's verdict, recorded just before `hand_end`.

    Where the last trick wins: its taker, or the knocker everyone folded to. Where it
    loses: every player still in except its taker. A reader counts wins without the rule.
    """

    seat: int


@_event("all_folded")
@dataclass(frozen=True, slots=True)
class AllFolded(Event):
    """Every opponent of `seat` (every opposing side, in team toepen) folded to its knock,
    the hand's last: the engine's verdict, recorded before the hand's `win` rows."""

    seat: int


#: Kinds that record the engine's verdict on what came before. Logs written before a kind
#: existed lack it: a replay supplies it from the engine instead of refusing the log.
VERDICT_KINDS = frozenset({"win", "all_folded"})
#: Fields of an event that hold a verdict of the engine's, by kind: a log written before
#: the field existed has None there, and a replay takes the engine's (`without_verdicts`).
VERDICT_FIELDS: dict[str, tuple[str, ...]] = {"score": ("reason",)}


@_event("game_end")
@dataclass(frozen=True, slots=True)
class GameEnd(Event):
    """The game is over, with its winner and/or its loser."""

    seat: int | None
    loser: int | None = _col("target")


# -- Toepen ------------------------------------------------------------------------------------


@_event("laundry")
@dataclass(frozen=True, slots=True)
class Laundry(Event):
    """Lays the hand down to swap it for 4 cards from the stock."""

    seat: int


@_event("armoede")
@dataclass(frozen=True, slots=True)
class Armoede(Event):
    """Declares armoede and asks the dealer for a redeal."""

    seat: int


@_event("check")
@dataclass(frozen=True, slots=True)
class Check(Event):
    """`seat` checks the hand swapped or declared by `target`; genuine 1 if it really was."""

    seat: int
    genuine: int = _col("amount")
    target: int = _col("target")


@_event("redeal")
@dataclass(frozen=True, slots=True)
class Redeal(Event):
    """All hands go back; the dealer deals again."""

    seat: int


@_event("whistle")
@dataclass(frozen=True, slots=True)
class Whistle(Event):
    """Announces `count` cards of `rank` (3: whistling, 4: standing up); rank in `card`."""

    seat: int
    rank: Rank = _col("card")
    count: int = _col("amount")


@_event("knock")
@dataclass(frozen=True, slots=True)
class Knock(Event):
    """Toep: raises the stake to `stake`."""

    seat: int
    stake: int = _col("amount")


@_event("stay")
@dataclass(frozen=True, slots=True)
class Stay(Event):
    """Answers a knock by staying in."""

    seat: int


@_event("fold")
@dataclass(frozen=True, slots=True)
class Fold(Event):
    """Answers a knock by folding, paying `stake` (the stake before the knock)."""

    seat: int
    stake: int = _col("amount")


@_event("pay")
@dataclass(frozen=True, slots=True)
class Pay(Event):
    """A cost: `amount` lives lost or penalty points taken by `seat`."""

    seat: int
    amount: int


@_event("eliminated")
@dataclass(frozen=True, slots=True)
class Eliminated(Event):
    """Out of the game."""

    seat: int


# -- Troefcall ---------------------------------------------------------------------------------


@_event("trump")
@dataclass(frozen=True, slots=True)
class TrumpCalled(Event):
    """The caller names trump; the suit letter is stored in `card`."""

    seat: int
    suit: Suit = _col("card")


@_event("kap")
@dataclass(frozen=True, slots=True)
class Kap(Event):
    """Announces kap after the first seven tricks in a row."""

    seat: int


@_event("baunie")
@dataclass(frozen=True, slots=True)
class Baunie(Event):
    """Announces that the side goes for all 13 tricks."""

    seat: int


@_event("stop")
@dataclass(frozen=True, slots=True)
class Stop(Event):
    """Stops the hand after a partner's kap."""

    seat: int


class ScoreReason(StrEnum):
    """Why a Troefcall hand scored what it did: the engine's verdict, in the score's row."""

    MAJORITY = "majority"  # the side with most tricks
    KAP = "kap"  # kap partij announced by the winner of the kap trick: the hand ends
    PARTNER_KAP = "partner-kap"  # kap partij announced by that winner's partner
    SILENT_KAP = "silent-kap"  # the kap tricks in a row, scored without a word (silent-kap)
    BAUNIE = "baunie"  # all the tricks, as announced
    FAILED_BAUNIE = "failed-baunie"  # baunie announced and lost: the other side scores


@_event("score")
@dataclass(frozen=True, slots=True)
class Score(Event):
    """The side of `seat` gains `amount` points, for `reason` (in the `card` column; None
    in logs written before it was recorded)."""

    seat: int
    amount: int
    reason: ScoreReason | None = _col("card", default=None)


# -- both games, added later (registered last: every older kind keeps its code) --------------


@_event("hand_skipped")
@dataclass(frozen=True, slots=True)
class HandSkipped(Event):
    """A hand that a lenient reading could not referee (`kroeg import --lenient`): it keeps
    its number, so later hands keep theirs, and the engine passes over it as the reading
    did (who deals next). `seat`: its dealer as the log named them, or None. Nothing else
    of it is known: it is never finished, so no statistic counts it."""

    seat: int | None = None


#: The kinds that open a hand: every hand's first event, the next `hand` number.
HAND_OPENERS = ("hand_start", "hand_skipped")


CARD_WORDS.extend(
    dict.fromkeys(
        [*(c.code for c in FULL_DECK), *(r.value for r in Rank), *(s.value for s in Suit)]
        + [r.value for r in ScoreReason]
    )
)
_CARD_NUMBERS.update({word: number for number, word in enumerate(CARD_WORDS)})


def event_from_row(kind: str, seat: Any, card: Any, amount: Any, target: Any) -> Event:
    """Build an event from the columns of one row; raise DatasetError for an unknown kind."""
    try:
        cls, layout = _DECODERS[kind]
    except KeyError:
        raise DatasetError(f"unknown event kind {quoted(kind)}") from None
    row = (seat, card, amount, target)
    values = {}
    for name, index, decode in layout:
        value = row[index]
        values[name] = None if value is None else decode(value)
    try:
        return cls(**values)
    except TypeError as exc:
        raise DatasetError(f"bad {kind} event {quoted(row)}: {exc}") from None


def without_verdicts(event: Event) -> Event:
    """`event` with its verdict fields left None, as a log written before them has it."""
    names = VERDICT_FIELDS.get(event.kind)
    return replace(event, **dict.fromkeys(names)) if names else event


def number_events(events: Iterable[Event]) -> Iterator[tuple[int, int, Event]]:
    """Yield (hand, seq, event): every `hand_start` (or `hand_skipped`: HAND_OPENERS) opens
    the next hand; hand 0 before it."""
    hand, seq = 0, 0
    for event in events:
        if event.kind in HAND_OPENERS:
            hand += 1
            seq = 0
        yield hand, seq, event
        seq += 1
