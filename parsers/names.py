"""Naming players in typed text: a full name, a unique beginning of one, or a seat number."""

from __future__ import annotations

from kroeg.recorder.errors import UnknownName
from kroeg.recorder.text import MAX_DIGITS, quoted

__all__ = ["NameIndex", "UnknownName"]


class NameIndex:
    """Resolves a word to a seat: exact names first, then unique beginnings of names."""

    def __init__(self, players: tuple[str, ...], *, seat_numbers: bool = False) -> None:
        self.players = players
        self.seat_numbers = seat_numbers
        # Full names, and a cache of beginnings already looked up: memory grows with the
        # names and the words asked about, never with every beginning of every name.
        self.lowered = [n.lower() for n in players]
        self.exact = {name: seat for seat, name in enumerate(self.lowered)}
        self.seen: dict[str, int | None] = {}
        self.multiword = any(" " in n for n in players)

    def get(self, word: str) -> int | None:
        """The seat a word names, or None."""
        # isdecimal, not isdigit: int() reads no superscript, nor 4,300 digits.
        if (
            self.seat_numbers
            and word.isdecimal()
            and len(word) <= MAX_DIGITS
            and 1 <= int(word) <= len(self.players)
        ):
            return int(word) - 1
        lowered = word.lower()
        seat = self.exact.get(lowered)
        if seat is not None or not lowered:
            return seat
        if lowered not in self.seen:
            starts = [s for s, name in enumerate(self.lowered) if name.startswith(lowered)]
            if len(self.seen) > 1024:  # words typed at a table are few; a flood is not kept
                self.seen.clear()
            self.seen[lowered] = starts[0] if len(starts) == 1 else None
        return self.seen[lowered]

    def resolve(self, word: str) -> int:
        """The seat a word names; UnknownName says why not."""
        seat = self.get(word)
        if seat is not None:
            return seat
        lowered = word.lower()
        matches = [p for p in self.players if p.lower().startswith(lowered)]
        if matches:
            raise UnknownName(
                f"{quoted(word)} could be {', '.join(matches)}: write more of the name"
            )
        numbers = f", or a seat number 1 to {len(self.players)}" if self.seat_numbers else ""
        raise UnknownName(
            f"expected a player ({', '.join(self.players)}{numbers}), found {quoted(word)}"
        )
