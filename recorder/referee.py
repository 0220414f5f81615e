"""One entry to the referees: make the engine a rule set names, and replay a log through it.

`new_game` gives a `Toepen` or a `Troefcall` game as `rules.game` says;
`Replay` rebuilds a game event by event, checking every event against the
engine, whichever game it is. Parsers, manual entry, analytics and the
dashboard all go through here, so the rules live in the engines only.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from kroeg.recorder.errors import IllegalActionError
from kroeg.recorder.events import VERDICT_KINDS, Event, without_verdicts
from kroeg.recorder.rules import Ruleset
from kroeg.recorder.toepen import Toepen
from kroeg.recorder.tricks import TrickGame
from kroeg.recorder.troefcall import Troefcall

__all__ = ["Game", "Replay", "describe_event", "new_game", "replay"]

#: A game of either kind.
Game = Toepen | Troefcall


def new_game(rules: Ruleset, players: Sequence[str], seed: int | None = None) -> Game:
    """The engine for `rules.game`, at the start of a game."""
    if rules.game == "troefcall":
        return Troefcall(rules, players, seed)
    return Toepen(rules, players, seed)


class Replay:
    """Rebuilds a game event by event, checking each one (what `replay` does, one at a time).

    Events the engine records by itself (tricks won, costs, scores, ends of hands) must
    match what the engine records at that point; the others are applied as actions.
    """

    def __init__(self, rules: Ruleset, players: Sequence[str]) -> None:
        self.game: Game = new_game(rules, players)
        self.count = 0

    def feed(self, event: Event) -> None:
        """Check and apply the next event; raise IllegalActionError naming the rule."""
        game = self.game
        log = game.log
        count, recorded_so_far = self.count, len(log)
        # A log written before a verdict kind existed lacks it: the engine's stands.
        while (
            count < recorded_so_far
            and log[count].kind in VERDICT_KINDS
            and event.kind != log[count].kind
        ):
            count += 1
        self.count = count = count + 1
        if count <= recorded_so_far:
            expected = log[count - 1]
            # A log written before a verdict field existed holds the event without it.
            if expected != event and event != without_verdicts(expected):
                raise IllegalActionError(
                    f"{game.where()}: event {self.count} is {describe_event(game, event)}, "
                    f"but the rules give {describe_event(game, expected)}"
                )
            return
        recorded = game.apply(event)
        if recorded != event:
            raise IllegalActionError(
                f"{game.where()}: event {self.count} is {describe_event(game, event)}, "
                f"but the rules give {describe_event(game, recorded)}"
            )

    def score_texts(self) -> tuple[str, ...]:
        """Each seat's score as the log stands at the event fed last: what its pay or score
        rows so far say, not yet what the engine has recorded ahead of them (a kap's
        score, a fold's pay, which come as the next events)."""
        return tuple(self.game.score_text(s, upto=self.count) for s in range(self.game.n))

    def finish(self) -> Game:
        """The rebuilt game; raise if the log stops before events the rules still owe."""
        game = self.game
        while self.count < len(game.log) and game.log[self.count].kind in VERDICT_KINDS:
            self.count += 1
        if self.count < len(game.log):
            raise IllegalActionError(
                f"{game.where()}: the log stops before {describe_event(game, game.log[self.count])}"
            )
        return game


def replay(rules: Ruleset, players: Sequence[str], events: Iterable[Event]) -> Game:
    """Rebuild a game from its events, checking each one; raise IllegalActionError if any fails."""
    rebuilt = Replay(rules, players)
    for event in events:
        rebuilt.feed(event)
    return rebuilt.finish()


def describe_event(game: TrickGame, event: Event) -> str:
    """An event in words, for messages."""
    kind, seat, card, amount, target = event.to_row()
    text = f"{kind} by {_who(game, seat)}" if seat is not None else kind
    if card is not None:
        text += f" {card}"
    if amount is not None:
        text += f" ({amount})"
    if target is not None:
        text += f" on {_who(game, target)}"
    return text


def _who(game: TrickGame, seat: int) -> str:
    """The player at a seat, or the seat said as such where the table has none (a log's
    event may name any number; the message about it must still be written)."""
    return game.name(seat) if 0 <= seat < len(game.players) else f"seat {seat}, which no one holds"
