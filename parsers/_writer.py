"""Games to the canonical text of docs/NOTATION.md: what `notation.dumps` writes.

Reading it back gives the identical game (`loads(dumps(games)) == games`): full
names, `Th` spellings, holdings one per line in seat order (a Troefcall caller's
first five first, the trump call after the holdings), each trick on a line that
starts with its number, and a `result:` line per hand.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from datetime import UTC
from pathlib import Path
from typing import IO

from kroeg.parsers._io import write_text
from kroeg.recorder.events import (
    Armoede,
    Baunie,
    CardPlayed,
    Check,
    Deal,
    Event,
    Fold,
    HandEnd,
    HandStart,
    Kap,
    Knock,
    Laundry,
    Pay,
    Redeal,
    Reveal,
    Score,
    Stay,
    Stop,
    TrickWon,
    TrumpCalled,
    Whistle,
)
from kroeg.recorder.records import GameRecord
from kroeg.recorder.rules import PRESETS, VARIANTS, Ruleset, shared_lives
from kroeg.recorder.troefcall import CALLER_PACKET, TEAMS

__all__ = ["dump", "dumps"]


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


class _Writer:
    """Writes one game's events in the canonical form of docs/NOTATION.md."""

    def __init__(self, record: GameRecord) -> None:
        self.names = record.players
        self.out = _header(record)
        self.line: list[str] = []
        self.label = ""
        self.holdings: dict[int, list[str]] = {}
        self.paid: dict[int, int] = {}
        self.trick_open = False
        self.hand_number = self.trick_number = 0
        self.troefcall = record.rules.game == "troefcall"
        self.trump_line: str | None = None  # written once the caller's holding is complete
        self.scored: dict[int, int] = {}
        self.rules = record.rules
        self.caller: int | None = None  # Troefcall: whose first five cards are set off
        self.totals = [0] * len(record.players)  # paid so far (Toepen), scored (per side)
        # Who shares each seat's lives (team toepen's pools; Troefcall's sides score apart).
        teams = record.teams if record.rules.game == "toepen" else None
        self.pool = shared_lives(teams, len(record.players))

    def flush(self) -> None:
        """End the statement line being built."""
        if self.line:
            self.out.append(self.label + ", ".join(self.line))
        self.line, self.label = [], ""

    def write(self, events: tuple[Event, ...]) -> list[str]:
        names = self.names
        cut = [e for e in _before_first_hand(events) if isinstance(e, Reveal)]
        if cut:
            key = "jacks" if self.troefcall else "cut"
            self.out.append(f"{key}: " + ", ".join(f"{names[e.seat]} {e.card}" for e in cut))
        holdings = self.holdings
        for event in events:
            # The commonest kinds first, by their name: a card dealt, a card played and a
            # trick won are most of a log (a `match` tries each class in turn).
            kind = event.kind
            if kind == "deal":
                assert isinstance(event, Deal)
                holdings.setdefault(event.seat, []).append(str(event.card or "?"))
                continue
            if kind == "trump":
                assert isinstance(event, TrumpCalled)
                # The caller's cards on one line, all 13: the trump call follows them.
                self.trump_line = f"{names[event.seat]} trumps {event.suit.english}"
                continue
            if holdings:
                self.flush()
                for seat in sorted(holdings):
                    cards = holdings[seat]
                    if seat == self.caller and len(cards) > CALLER_PACKET:
                        cards = [*cards[:CALLER_PACKET], "|", *cards[CALLER_PACKET:]]
                    self.out.append(f"{names[seat]}: {' '.join(cards)}")
                holdings.clear()
            if self.trump_line is not None:
                self.out.append(self.trump_line)
                self.trump_line = None
            if kind == "play":
                assert isinstance(event, CardPlayed)
                if not self.trick_open:
                    self.flush()
                    self.label = f"{self.trick_number}. "
                    self.trick_open = True
                self.line.append(f"{names[event.seat]} {event.card}")
            elif kind == "trick":
                self.flush()
                self.trick_open = False
                self.trick_number += 1
            else:
                self.statement(event)
        self.flush()
        return self.out

    def statement(self, event: Event) -> None:
        names = self.names
        match event:
            case HandStart(seat=dealer):
                self.caller = event.caller if self.troefcall else None
                self.hand_number += 1
                self.trick_number = 1
                self.out.extend(["", f"hand {self.hand_number}, dealer {names[dealer]}"])
                self.paid = {}
            case CardPlayed(seat=seat, card=card):
                if not self.trick_open:
                    self.flush()
                    self.label = f"{self.trick_number}. "
                    self.trick_open = True
                self.line.append(f"{names[seat]} {card}")
            case TrickWon():
                self.flush()
                self.trick_open = False
                self.trick_number += 1
            case Knock(seat=seat) | Stay(seat=seat) | Fold(seat=seat) | Armoede(seat=seat):
                self.line.append(f"{names[seat]} {_VERB_WORDS[event.kind]}")
            case Laundry(seat=seat) | Redeal(seat=seat):
                self.line.append(f"{names[seat]} {_VERB_WORDS[event.kind]}")
                self.flush()  # the new cards follow on their own lines
            case Check(seat=seat, target=target, genuine=genuine):
                verdict = "genuine" if genuine else "bluff"
                self.line.append(f"{names[seat]} checks {names[target]} {verdict}")
            case Whistle(seat=seat, rank=rank, count=count):
                word = "stands" if count == 4 else "whistles"
                self.line.append(f"{names[seat]} {word} {count}{rank.value}")
            case Pay(seat=seat, amount=amount):
                self.paid[seat] = self.paid.get(seat, 0) + amount
            case Kap(seat=seat) | Baunie(seat=seat) | Stop(seat=seat):
                self.flush()
                self.trick_open = False
                self.out.append(f"{names[seat]} {_VERB_WORDS[event.kind]}")
            case Score(seat=seat, amount=amount):
                self.scored[seat] = self.scored.get(seat, 0) + amount
            case HandEnd() if self.troefcall:
                self.flush()
                self.trick_open = False
                parts = [f"{names[s]} {self.scored[s]}" for s in sorted(self.scored)]
                self.out.append("result: " + ", ".join(parts))
                for seat, points in self.scored.items():
                    self.totals[TEAMS[seat]] += points
                self.scored = {}
                # The running score, as a club writes it: each side by its first player.
                self.out.append(f"score: {names[0]} {self.totals[0]}, {names[1]} {self.totals[1]}")
            case HandEnd():
                self.flush()
                self.trick_open = False
                parts = [f"{names[s]} {self.paid[s]}" for s in sorted(self.paid)]
                self.out.append("result: " + (", ".join(parts) if parts else "nobody pays"))
                for seat, amount in self.paid.items():
                    for member in self.pool[seat]:  # team toepen: the side's one pool
                        self.totals[member] += amount
                lives = self.rules.score_display == "lives"
                scores = [self.rules.lives - t if lives else t for t in self.totals]
                self.out.append(
                    "score: " + ", ".join(f"{n} {x}" for n, x in zip(names, scores, strict=True))
                )
            case _:
                pass  # reveals, eliminations, the end of the game: the engine derives them


_VERB_WORDS = {
    "knock": "knocks", "stay": "stays", "fold": "folds", "armoede": "armoede",
    "laundry": "laundry", "redeal": "redeals",
    "kap": "kap", "baunie": "baunie", "stop": "stops",
}  # fmt: skip


def _write_game(record: GameRecord) -> list[str]:
    return _Writer(record).write(record.events)


def _before_first_hand(events: tuple[Event, ...]) -> tuple[Event, ...]:
    for i, event in enumerate(events):
        if event.kind == "hand_start":
            return events[:i]
    return events


def dumps(games: GameRecord | Iterable[GameRecord]) -> str:
    """The canonical text of one game or several."""
    records = [games] if isinstance(games, GameRecord) else list(games)
    blocks = ["\n".join(_write_game(r)) for r in records]
    return "\n\n".join(blocks) + "\n"


def dump(games: GameRecord | Iterable[GameRecord], file: str | Path | IO[str]) -> None:
    """Write the canonical text of one game or several to a path or an open text file."""
    write_text(dumps(games), file)
