"""A random source seeded at its first draw, for the many copies of a game that a verdict
plays on and that mostly never draw.

Not compiled (kroeg/_native.py `COMPILED`): a class compiled by mypyc cannot extend
`random.Random`, whose state lives in its C base.
"""

from __future__ import annotations

import random
from typing import Any

__all__ = ["SeededAtFirstDraw"]


class SeededAtFirstDraw(random.Random):
    """`random.Random(seed)`, seeded at its first draw: a supposed game's source, which
    draws only where an armoede's redeal shuffles (a seeding costs about 4 µs, and most
    play-outs never draw)."""

    def __init__(self, seed: int) -> None:  # no seeding here: `_draw` seeds
        self._seed = seed
        self._seeded = False
        self.gauss_next = None  # what `random.Random.__init__` sets beside seeding

    def __reduce__(self) -> tuple[Any, ...]:
        """Copied and pickled as it stands: its seed, and its state once it drew."""
        return (type(self), (self._seed,), self.getstate() if self._seeded else None)

    def _draw(self) -> None:
        if not self._seeded:
            self.seed(self._seed)

    def seed(self, a: Any = None, version: int = 2) -> None:
        self._seeded = True
        super().seed(a, version)

    def random(self) -> float:
        self._draw()
        return super().random()

    def getrandbits(self, k: int) -> int:
        self._draw()
        return super().getrandbits(k)

    def getstate(self) -> Any:
        self._draw()
        return super().getstate()

    def setstate(self, state: Any) -> None:
        self._seeded = True
        super().setstate(state)
