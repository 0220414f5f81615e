"""The notation of a game (docs/NOTATION.md) from its rows as plain values, without an
event object per row: what `notation.dumps` writes of one game (`_writer`, from each
event's `to_row`) and `kroeg export` of a whole dataset (`_columns`, from the columns).

Compiled with mypyc where a compiler is (`kroeg/_native.py`): a row group's hundreds of
thousands of rows are most of an export's time. The round-trip tests
(`loads(dumps(games)) == games`) and tests/parsers/test_export.py hold it.
"""

from __future__ import annotations

import json
from datetime import UTC
from typing import Final

from kroeg.recorder.records import GameRecord
from kroeg.recorder.rules import PRESETS, VARIANTS, Ruleset, shared_lives
from kroeg.recorder.troefcall import CALLER_PACKET, TEAMS

__all__ = ["Row", "plain_row", "text"]


#: The rules' lines of each rule set written so far (a dataset has a few).
_RULES_LINES: dict[Ruleset, tuple[str, ...]] = {}


def _rules_lines(rules: Ruleset) -> tuple[str, ...]:
    lines = _RULES_LINES.get(rules)
    if lines is None:
        if len(_RULES_LINES) > 4096:
            _RULES_LINES.clear()
        lines = _RULES_LINES[rules] = tuple(_rules_lines_of(rules))
    return lines


def _rules_lines_of(rules: Ruleset) -> list[str]:
    preset = PRESETS.get(rules.name)
    if preset is not None:
        if rules == preset:
            return [f"rules: {rules.name}"]
        chosen: list[str] = []
        changes: list[dict[str, object]] = []
        for name, change in VARIANTS.items():
            if (
                all(getattr(rules, k) == v for k, v in change.items())
                and any(getattr(preset, k) != v for k, v in change.items())
                and change not in changes
            ):
                chosen.append(name)
                changes.append(change)
        if preset.with_variants(*chosen) == rules:
            return [f"rules: {rules.name}", f"variants: {', '.join(chosen)}"]
    return [f"rules: {json.dumps(rules.to_dict(), separators=(', ', ': '))}"]


def _header(record: GameRecord) -> list[str]:
    lines = [f"game: {record.game_id}", *_rules_lines(record.rules)]
    if record.started_at is not None:
        when = record.started_at.astimezone(UTC)
        exact = when.second or when.microsecond
        lines.append(f"date: {when.isoformat(sep=' ') if exact else f'{when:%Y-%m-%d %H:%M}'}")
    if record.venue:
        lines.append(f"venue: {record.venue}")
    if record.evening:
        lines.append(f"evening: {record.evening}")
    if record.source != "text":
        lines.append(f"source: {record.source}")
    if record.seed is not None:
        lines.append(f"seed: {record.seed}")
    lines.append(f"players: {', '.join(record.players)}")
    return lines


_VERB_WORDS = {
    "knock": "knocks", "stay": "stays", "fold": "folds", "armoede": "armoede",
    "laundry": "laundry", "redeal": "redeals",
    "kap": "kap", "baunie": "baunie", "stop": "stops",
}  # fmt: skip


# What the notation does with each kind of row.
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
_HAND_SKIPPED: Final = 15
_CODES: Final = {
    "deal": _DEAL, "trump": _TRUMP, "play": _PLAY, "trick": _TRICK,
    "hand_start": _HAND_START, "knock": _VERB, "stay": _VERB, "fold": _VERB,
    "armoede": _VERB, "laundry": _VERB_FLUSH, "redeal": _VERB_FLUSH, "check": _CHECK,
    "whistle": _WHISTLE, "pay": _PAY, "kap": _ANNOUNCE, "baunie": _ANNOUNCE,
    "stop": _ANNOUNCE, "score": _SCORE, "hand_end": _HAND_END, "reveal": _REVEAL,
    "hand_skipped": _HAND_SKIPPED,
}  # fmt: skip
#: The line under a hand a lenient reading passed over: a comment, so that the text reads
#: as it was typed, the hand unread (strict, its import stops there; lenient, it is passed
#: over again, and the game is the same).
SKIPPED_LINE: Final = "# not read when this log was imported (kroeg import --lenient)"
_SUITS: Final = {"c": "clubs", "d": "diamonds", "h": "hearts", "s": "spades"}


class Row:
    """A row as the notation needs it: what to do with it, the seat, a word (the card, the
    verb, …), the amount, the target; NULL as -1. A class (not a tuple) so that compiled
    code reads a field without unboxing the other four."""

    def __init__(self, code: int, seat: int, word: str, amount: int, target: int) -> None:
        self.code = code
        self.seat = seat
        self.word = word
        self.amount = amount
        self.target = target


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
    return Row(code, _int(seat), word, _int(amount), _int(target))


def _int(value: object) -> int:
    return -1 if value is None else int(value)  # type: ignore[call-overload]


_POOLS: dict[tuple[tuple[int, ...] | None, int], list[tuple[int, ...]]] = {}


def _pool(teams: tuple[int, ...] | None, players: int) -> list[tuple[int, ...]]:
    """`shared_lives`, once per table layout."""
    pool = _POOLS.get((teams, players))
    if pool is None:
        pool = _POOLS[(teams, players)] = shared_lives(teams, players)
    return pool


def text(record: GameRecord, rows: list[Row], begin: int, end: int) -> tuple[str, int]:
    """One game in the notation and its number of hands, from its rows
    `rows[begin:end]`."""
    names = record.players
    n = len(names)
    out = _header(record)
    troefcall = record.rules.game == "troefcall"
    cut: list[str] = []
    for i in range(begin, end):
        row = rows[i]
        if row.code == _HAND_START or row.code == _HAND_SKIPPED:
            break
        if row.code == _REVEAL:
            cut.append(f"{names[row.seat]} {row.word}")
    if cut:
        out.append(f"{'jacks' if troefcall else 'cut'}: " + ", ".join(cut))
    rules = record.rules
    lives = rules.lives if rules.score_display == "lives" else -1
    totals = [0] * n
    pool = _pool(record.teams if not troefcall else None, n)
    # Each seat's cards dealt and not yet written, by seat.
    holdings: list[list[str]] = [[] for _ in range(n)]
    dealt = False
    paid: dict[int, int] = {}
    scored: dict[int, int] = {}
    line: list[str] = []
    label = ""
    trick_open = False
    hand = 0
    trick = 0
    caller = -1
    trump_line = ""
    for i in range(begin, end):
        row = rows[i]
        code = row.code
        if code == _DEAL:
            holdings[row.seat].append(row.word)
            dealt = True
            continue
        if code == _TRUMP:
            trump_line = f"{names[row.seat]} trumps {row.word}"
            continue
        if dealt:
            if line:
                out.append(label + ", ".join(line))
                line = []
                label = ""
            for who in range(n):
                cards = holdings[who]
                if not cards:
                    continue
                if who == caller and len(cards) > CALLER_PACKET:
                    cards = [*cards[:CALLER_PACKET], "|", *cards[CALLER_PACKET:]]
                out.append(f"{names[who]}: {' '.join(cards)}")
                holdings[who] = []
            dealt = False
        if trump_line:
            out.append(trump_line)
            trump_line = ""
        if code == _PLAY:
            if not trick_open:
                if line:
                    out.append(label + ", ".join(line))
                    line = []
                label = f"{trick}. "
                trick_open = True
            line.append(f"{names[row.seat]} {row.word}")
        elif code == _TRICK:
            if line:
                out.append(label + ", ".join(line))
                line = []
            label = ""
            trick_open = False
            trick += 1
        elif code == _VERB:
            line.append(f"{names[row.seat]} {row.word}")
        elif code == _PAY:
            paid[row.seat] = paid.get(row.seat, 0) + row.amount
        elif code == _HAND_START:
            caller = row.target if troefcall else -1
            hand += 1
            trick = 1
            out.append("")
            out.append(f"hand {hand}, dealer {names[row.seat]}")
            paid = {}
        elif code == _HAND_SKIPPED:
            hand += 1
            out.append("")
            out.append(f"hand {hand}" + ("" if row.seat < 0 else f", dealer {names[row.seat]}"))
            out.append(SKIPPED_LINE)
        elif code == _HAND_END:
            if line:
                out.append(label + ", ".join(line))
                line = []
            label = ""
            trick_open = False
            if troefcall:
                parts = [f"{names[s]} {scored[s]}" for s in sorted(scored)]
                out.append("result: " + ", ".join(parts))
                for who, points in scored.items():
                    totals[TEAMS[who]] += points
                scored = {}
                out.append(f"score: {names[0]} {totals[0]}, {names[1]} {totals[1]}")
            else:
                parts = [f"{names[s]} {paid[s]}" for s in sorted(paid)]
                out.append("result: " + (", ".join(parts) if parts else "nobody pays"))
                for who, cost in paid.items():
                    for member in pool[who]:  # team toepen: the side's one pool
                        totals[member] += cost
                scores = totals if lives < 0 else [lives - t for t in totals]
                out.append("score: " + ", ".join([f"{names[s]} {scores[s]}" for s in range(n)]))
        elif code == _VERB_FLUSH:
            line.append(f"{names[row.seat]} {row.word}")
            out.append(label + ", ".join(line))  # the new cards follow on their own lines
            line = []
            label = ""
        elif code == _CHECK:
            line.append(f"{names[row.seat]} checks {names[row.target]} {row.word}")
        elif code == _WHISTLE:
            line.append(f"{names[row.seat]} {row.word}")
        elif code == _ANNOUNCE:
            if line:
                out.append(label + ", ".join(line))
                line = []
            label = ""
            trick_open = False
            out.append(f"{names[row.seat]} {row.word}")
        elif code == _SCORE:
            scored[row.seat] = scored.get(row.seat, 0) + row.amount
        # reveals, eliminations, the end of the game: the engine derives them
    if line:
        out.append(label + ", ".join(line))
    return "\n".join(out) + "\n", hand
