"""Events to words: one hand of a game as steps a person can follow (`kroeg replay`).

The hand is rebuilt by replaying the game's events through the engine, so the
scores before the hand, the stake and who is still in come from the referee.
"""

from __future__ import annotations

from dataclasses import dataclass

from kroeg.recorder.cards import Card, Rank
from kroeg.recorder.events import (
    Armoede,
    Baunie,
    CardPlayed,
    Check,
    Deal,
    Eliminated,
    Event,
    Fold,
    GameEnd,
    HandEnd,
    HandStart,
    HandWon,
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
from kroeg.recorder.records import GameRecord, side_name
from kroeg.recorder.referee import Game, Replay
from kroeg.recorder.troefcall import TEAMS, Troefcall

__all__ = ["HandView", "describe_events", "pretty", "view_hand"]


def pretty(card: Card | None) -> str:
    """A card for people: `10♥`, `J♠`; `?` when unknown."""
    return "?" if card is None else card.pretty


@dataclass(frozen=True)
class HandView:
    """A hand as text: a heading, and one block of lines per step."""

    heading: list[str]
    steps: list[list[str]]


def view_hand(record: GameRecord, number: int) -> HandView:
    """Rebuild hand `number` (1-based) of a game and describe every step of it."""
    events = record.events
    begin, end = record.hand_bounds(number)
    rebuilt = Replay(record.rules, record.players)
    for event in events[:begin]:
        rebuilt.feed(event)
    game = rebuilt.game
    names = record.players
    if isinstance(game, Troefcall):
        scores = ", ".join(f"{side_names(game, s)} {game.score_text(s)}" for s in (0, 1))
    else:
        scores = ", ".join(
            f"{names[s]} {game.score_text(s)}" for s in range(game.n) if game.alive[s]
        )
    dealer = events[begin]
    assert isinstance(dealer, HandStart)
    heading = [
        f"Hand {number} of game {record.game_id} ({record.ruleset}, {record.hands} hands)",
        f"Dealer {names[dealer.seat]}; scores before the hand: {scores}",
    ]
    steps: list[list[str]] = []
    writer = _Steps(game, rebuilt)
    for event in events[begin:end]:
        block = writer.describe(event)
        if block:
            steps.append(block)
    steps.extend(writer.flush())
    return HandView(heading, steps)


def side_names(game: Troefcall, seat: int) -> str:
    """The names of a seat's side: `Anna & Carla`."""
    return side_name(game.players, TEAMS, TEAMS[seat])


def describe_events(game: Game, events: list[Event], *, joined: bool = True) -> list[str]:
    """Sentences for events the game has just recorded (its state is already past them).

    `joined`: a fold or a check and the payment it causes make one sentence ("Carla folds
    and pays 1"); a replay that shows every event as its own step says them apart
    ("Carla folds", then "Carla pays 1")."""
    steps = _Steps(game, None, joined=joined)
    lines = [line for event in events for line in steps.describe(event)]
    return lines + [line for block in steps.flush() for line in block]


class _Steps:
    def __init__(self, game: Game, rebuilt: Replay | None, *, joined: bool = True) -> None:
        self.game = game
        self.rebuilt = rebuilt
        self.joined = joined
        self.deals: dict[int, list[Card | None]] = {}
        self.swallow_pay: tuple[int, int] | None = None
        self.reveals: list[str] = []
        self.winners: list[int] = []

    def flush(self) -> list[list[str]]:
        """Dealt cards waiting to be shown, as one step."""
        if not self.deals:
            return []
        names = self.game.players
        width = max(len(n) for n in names)
        lines = ["Cards dealt:"] + [
            f"  {names[s]:<{width}}  {' '.join(pretty(c) for c in cards)}"
            for s, cards in sorted(self.deals.items())
        ]
        self.deals = {}
        return [lines]

    def describe(self, event: Event) -> list[str]:
        if self.rebuilt is not None:
            self.rebuilt.feed(event)
        game = self.game
        names = game.players
        if isinstance(event, Deal):
            self.deals.setdefault(event.seat, []).append(event.card)
            return []
        pending = self.flush()
        text = self.sentence(event, names)
        lines = [line for block in pending for line in block]
        if text:
            lines.append(text)
        return lines

    def sentence(self, event: Event, names: tuple[str, ...]) -> str | None:
        game = self.game
        if isinstance(event, Pay) and (event.seat, event.amount) == self.swallow_pay:
            self.swallow_pay = None
            return None
        if not isinstance(event, Reveal):  # a check shows the cards, then the penalty is paid
            self.swallow_pay = None
        match event:  # the same in both games
            case CardPlayed(seat=seat, card=played):
                return f"  {names[seat]} plays {pretty(played)}"
            case TrickWon(seat=seat, number=number):
                return f"  → {names[seat]} takes trick {number}"
        if isinstance(game, Troefcall):
            return self.troefcall_sentence(game, event, names)
        match event:
            case HandStart(stake=stake):
                poor = (
                    f" (poverty: {names[game.poor]} starts as if knocking)"
                    if game.poor is not None
                    else ""
                )
                sudden = (
                    " — sudden death: the last players tied, whoever pays in this hand is out"
                    if game.sudden_death
                    else ""
                )
                return f"{names[event.seat]} deals; the stake is {stake}{poor}{sudden}"
            case Knock(seat=seat, stake=stake):
                return f"{names[seat]} knocks: the stake is now {stake}"
            case Stay(seat=seat):
                return f"{names[seat]} stays in"
            case Fold(seat=seat, stake=stake):
                if not self.joined:
                    return f"{names[seat]} folds"
                self.swallow_pay = (seat, stake)
                return f"{names[seat]} folds and pays {stake}"
            case Pay(seat=seat, amount=amount):
                return f"{names[seat]} pays {amount}"
            case Laundry(seat=seat):
                return f"{names[seat]} swaps the hand for four cards from the stock (laundry)"
            case Armoede(seat=seat):
                return f"{names[seat]} declares armoede"
            case Check(seat=seat, target=target, genuine=genuine):
                verdict = "it was genuine" if genuine else "it was a bluff"
                loser = seat if genuine else target
                if not self.joined:
                    return f"{names[seat]} checks {names[target]}: {verdict}"
                self.swallow_pay = (loser, game.rules.check_penalty)
                return (
                    f"{names[seat]} checks {names[target]}: {verdict}; "
                    f"{names[loser]} pays {game.rules.check_penalty}"
                )
            case Redeal(seat=seat):
                return f"{names[seat]} gathers the cards and deals again"
            case Whistle(seat=seat, rank=rank, count=count):
                word = "stands up" if count == 4 else "whistles"
                return f"{names[seat]} {word}: {count} {rank.english}s"
            case Reveal(seat=seat, card=card):
                return f"{names[seat]} shows {pretty(card)}"
            case HandWon(seat=seat):
                self.winners.append(seat)
                return None
            case HandEnd(seat=seat, stake=stake):
                winners, self.winners = self.winners, []
                if seat in winners or not winners:
                    return f"{names[seat]} wins the hand (stake {stake})"
                won = " and ".join(names[s] for s in winners)
                return (
                    f"{names[seat]} took the last trick and loses the hand; "
                    f"{won} win{'s' if len(winners) == 1 else ''} (stake {stake})"
                )
            case Eliminated(seat=seat):
                return f"{names[seat]} is out of the game"
            case GameEnd(seat=winner, loser=loser):
                if winner is not None:
                    return f"Game over: {names[winner]} wins"
                return f"Game over: {names[loser] if loser is not None else 'nobody'} loses"
        return None

    def troefcall_sentence(
        self, game: Troefcall, event: Event, names: tuple[str, ...]
    ) -> str | None:
        match event:
            case HandStart(seat=dealer, caller=caller):
                who = names[caller] if caller is not None else "?"
                return f"{names[dealer]} deals; {who} cuts and calls trump"
            case TrumpCalled(seat=seat, suit=suit):
                return f"{names[seat]} calls trump: {suit.symbol} {suit.english}"
            case Kap(seat=seat):
                side, first = side_names(game, seat), game.rules.kap_tricks
                return f"{names[seat]}: kap! ({side} took the first {first} tricks)"
            case Baunie(seat=seat):
                side, every = side_names(game, seat), game.rules.hand_size
                return f"{names[seat]}: baunie! ({side} go for all {every} tricks)"
            case Stop(seat=seat):
                return f"{names[seat]} stops the hand"
            case Score(seat=seat, amount=amount):
                return (
                    f"{side_names(game, seat)} score {amount} "
                    f"(now {side_names(game, 0)} {game.scores[0]}, "
                    f"{side_names(game, 1)} {game.scores[1]})"
                )
            case HandEnd():
                taken = game.side_tricks
                return (
                    f"Hand over: {side_names(game, 0)} {taken[0]} tricks, "
                    f"{side_names(game, 1)} {taken[1]}"
                )
            case Reveal(seat=seat, card=card):
                jack = (
                    " — the first Jack: they call trump first"
                    if card and card.rank is Rank.JACK
                    else ""
                )
                return f"{names[seat]} is dealt {pretty(card)} face up{jack}"
            case GameEnd(seat=winner):
                if winner is None:
                    return f"Game over: a draw at {game.scores[0]} all"
                return (
                    f"Game over: {side_names(game, winner)} win "
                    f"{game.scores[winner % 2]}–{game.scores[1 - winner % 2]}"
                )
        return None
