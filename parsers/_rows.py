"""The notation of a game from its rows as plain values: what `_Writer` writes of the
same events, without an event object per row (`kroeg export`, through `_columns`).

Compiled with mypyc where a compiler is (`kroeg/_native.py`): a row group's hundreds of
thousands of rows are most of an export's time. `_Writer` stays the reference;
tests/parsers/test_export.py holds the two equal on games of every rule set.
"""

from __future__ import annotations

from typing import Final

from kroeg.parsers._writer import _VERB_WORDS, _header
from kroeg.recorder.records import GameRecord
from kroeg.recorder.rules import shared_lives
from kroeg.recorder.troefcall import CALLER_PACKET, TEAMS

__all__ = ["Row", "plain_row", "text"]

#: A row as the notation needs it: what to do with it, the seat, a word (the card, the
#: verb, …), the amount, the target; NULL as -1.
Row = tuple[int, int, str, int, int]

# What the notation does with each kind of row (`_Writer.write` and `statement`).
_DEAL: Final = 0
_TRUMP: Final = 1
_PLAY: Final = 2
_TRICK: Final = 3
_HAND_START: Final = 4
_VERB: Final = 5
_VERB_FLUSH: Final = 6
_CHECK: Final = 7
_WHISTLE: Final = 8
_PAY: Final = 9
_ANNOUNCE: Final = 10
_SCORE: Final = 11
_HAND_END: Final = 12
_REVEAL: Final = 13
_OTHER: Final = 14
_CODES: Final = {
    "deal": _DEAL, "trump": _TRUMP, "play": _PLAY, "trick": _TRICK,
    "hand_start": _HAND_START, "knock": _VERB, "stay": _VERB, "fold": _VERB,
    "armoede": _VERB, "laundry": _VERB_FLUSH, "redeal": _VERB_FLUSH, "check": _CHECK,
    "whistle": _WHISTLE, "pay": _PAY, "kap": _ANNOUNCE, "baunie": _ANNOUNCE,
    "stop": _ANNOUNCE, "score": _SCORE, "hand_end": _HAND_END, "reveal": _REVEAL,
}  # fmt: skip
_SUITS: Final = {"c": "clubs", "d": "diamonds", "h": "hearts", "s": "spades"}


def plain_row(row: tuple[object, ...]) -> Row:
    """A row as `to_row` writes it, as `text` reads it: what the notation writes of its
    event (its card, its verb, …), NULLs as -1."""
    kind, seat, card, amount, target = (str(row[0]), row[1], row[2], row[3], row[4])
    code = _CODES.get(kind, _OTHER)
    word = ""
    if code == _DEAL:
        word = "?" if card is None else str(card)
    elif code in (_PLAY, _REVEAL):
        word = str(card)
    elif code == _TRUMP:
        word = _SUITS[str(card)]
    elif code in (_VERB, _VERB_FLUSH, _ANNOUNCE):
        word = _VERB_WORDS[kind]
    elif code == _WHISTLE:
        word = f"{'stands' if amount == 4 else 'whistles'} {amount}{card}"
    elif code == _CHECK:
        word = "genuine" if amount else "bluff"
    return (code, _int(seat), word, _int(amount), _int(target))


def _int(value: object) -> int:
    return -1 if value is None else int(value)  # type: ignore[call-overload]


def text(
    record: GameRecord, rows: list[Row], index: list[int], begin: int, end: int
) -> tuple[str, int]:
    """One game in the notation (`_Writer.write` of it) and its number of hands: the game's
    rows are `rows[index[i]]` for i in `begin`..`end`."""
    names = record.players
    out = _header(record)
    troefcall = record.rules.game == "troefcall"
    cut: list[str] = []
    for i in range(begin, end):
        row = rows[index[i]]
        if row[0] == _HAND_START:
            break
        if row[0] == _REVEAL:
            cut.append(f"{names[row[1]]} {row[2]}")
    if cut:
        out.append(f"{'jacks' if troefcall else 'cut'}: " + ", ".join(cut))
    rules = record.rules
    lives = rules.lives if rules.score_display == "lives" else None
    totals = [0] * len(names)
    pool = shared_lives(record.teams if not troefcall else None, len(names))
    holdings: dict[int, list[str]] = {}
    paid: dict[int, int] = {}
    scored: dict[int, int] = {}
    line: list[str] = []
    label = ""
    trick_open = False
    hand = trick = hands = 0
    caller = -1
    trump_line = ""
    append = out.append
    for i in range(begin, end):
        code, seat, word, amount, target = rows[index[i]]
        if code == _DEAL:
            held = holdings.get(seat)
            if held is None:
                holdings[seat] = [word]
            else:
                held.append(word)
            continue
        if code == _TRUMP:
            trump_line = f"{names[seat]} trumps {word}"
            continue
        if holdings:
            if line:
                append(label + ", ".join(line))
                line, label = [], ""
            for who in sorted(holdings):
                cards = holdings[who]
                if who == caller and len(cards) > CALLER_PACKET:
                    cards = [*cards[:CALLER_PACKET], "|", *cards[CALLER_PACKET:]]
                append(f"{names[who]}: {' '.join(cards)}")
            holdings = {}
        if trump_line:
            append(trump_line)
            trump_line = ""
        if code == _PLAY:
            if not trick_open:
                if line:
                    append(label + ", ".join(line))
                    line = []
                label = f"{trick}. "
                trick_open = True
            line.append(f"{names[seat]} {word}")
        elif code == _TRICK:
            if line:
                append(label + ", ".join(line))
                line = []
            label = ""
            trick_open = False
            trick += 1
        elif code == _VERB:
            line.append(f"{names[seat]} {word}")
        elif code == _PAY:
            paid[seat] = paid.get(seat, 0) + amount
        elif code == _HAND_START:
            caller = target if troefcall else -1
            hand += 1
            hands += 1
            trick = 1
            out.extend(["", f"hand {hand}, dealer {names[seat]}"])
            paid = {}
        elif code == _HAND_END:
            if line:
                append(label + ", ".join(line))
                line = []
            label = ""
            trick_open = False
            if troefcall:
                parts = [f"{names[s]} {scored[s]}" for s in sorted(scored)]
                append("result: " + ", ".join(parts))
                for who, points in scored.items():
                    totals[TEAMS[who]] += points
                scored = {}
                append(f"score: {names[0]} {totals[0]}, {names[1]} {totals[1]}")
            else:
                parts = [f"{names[s]} {paid[s]}" for s in sorted(paid)]
                append("result: " + (", ".join(parts) if parts else "nobody pays"))
                for who, cost in paid.items():
                    for member in pool[who]:  # team toepen: the side's one pool
                        totals[member] += cost
                scores = totals if lives is None else [lives - t for t in totals]
                append(
                    "score: " + ", ".join(f"{n} {x}" for n, x in zip(names, scores, strict=True))
                )
        elif code == _VERB_FLUSH:
            line.append(f"{names[seat]} {word}")
            append(label + ", ".join(line))  # the new cards follow on their own lines
            line, label = [], ""
        elif code == _CHECK:
            line.append(f"{names[seat]} checks {names[target]} {word}")
        elif code == _WHISTLE:
            line.append(f"{names[seat]} {word}")
        elif code == _ANNOUNCE:
            if line:
                append(label + ", ".join(line))
                line = []
            label = ""
            trick_open = False
            append(f"{names[seat]} {word}")
        elif code == _SCORE:
            scored[seat] = scored.get(seat, 0) + amount
        # reveals, eliminations, the end of the game: the engine derives them
    if line:
        append(label + ", ".join(line))
    return "\n".join(out) + "\n", hands
