"""Naming players in typed text: a full name, a unique beginning of one, or a seat number."""

from __future__ import annotations

from recorder.errors import UnknownName

__all__ = ["NameIndex", "UnknownName"]


class NameIndex:
    """Resolves a word to a seat: exact names first, then unique beginnings of names."""

    def __init__(self, players: tuple[str, ...], *, seat_numbers: bool = False) -> None:
        self.players = players
        self.seat_numbers = seat_numbers
        lowered = [n.lower() for n in players]
        counts: dict[str, int] = {}
        for name in lowered:
            for end in range(1, len(name) + 1):
                counts[name[:end]] = counts.get(name[:end], 0) + 1
        self.prefixes = {
            name[:end]: seat
            for seat, name in enumerate(lowered)
            for end in range(1, len(name) + 1)
            if counts[name[:end]] == 1
        }
        self.prefixes.update({name: seat for seat, name in enumerate(lowered)})
        self.multiword = any(" " in n for n in players)

    def get(self, word: str) -> int | None:
        """The seat a word names, or None."""
        if self.seat_numbers and word.isdigit() and 1 <= int(word) <= len(self.players):
            return int(word) - 1
        return self.prefixes.get(word.lower())

    def resolve(self, word: str) -> int:
        """The seat a word names; UnknownName says why not."""
        seat = self.get(word)
        if seat is not None:
            return seat
        lowered = word.lower()
        matches = [p for p in self.players if p.lower().startswith(lowered)]
        if matches:
            raise UnknownName(f"{word!r} could be {', '.join(matches)}: write more of the name")
        numbers = f", or a seat number 1 to {len(self.players)}" if self.seat_numbers else ""
        raise UnknownName(f"expected a player ({', '.join(self.players)}{numbers}), found {word!r}")
