"""Events to words: one hand of a game as steps a person can follow (`kroeg replay`).

The hand is rebuilt by replaying the game's events through the engine, so the
scores before the hand, the stake and who is still in come from the referee.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

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
from kroeg.recorder.records import GameRecord, seats_name, side_name, side_seats
from kroeg.recorder.referee import Game, Replay
from kroeg.recorder.toepen import Toepen
from kroeg.recorder.troefcall import TEAMS, Troefcall

__all__ = [
    "PLAIN_ENGLISH",
    "HandResult",
    "HandView",
    "Speaker",
    "describe_events",
    "hand_result",
    "pretty",
    "result_of",
    "scores_text",
    "view_hand",
]


class Speaker(Protocol):
    """Who says a step or a result in words: the dashboard's language (an
    analytics.words.Words), or PLAIN_ENGLISH. A message is written where it is used,
    `speaker.say("key", "English {name}", name=...)` (extracted by `make messages`)."""

    def say(self, key: str, english: str, **values: object) -> str: ...

    def say_n(self, key: str, one: str, many: str, n: int, **values: object) -> str: ...


class _PlainEnglish:
    """The messages as written: `kroeg replay`'s words (the CLI speaks English)."""

    def say(self, key: str, english: str, **values: object) -> str:
        return english.format(**values)

    def say_n(self, key: str, one: str, many: str, n: int, **values: object) -> str:
        return (one if n == 1 else many).format(n=f"{n:,}", **values)


#: The English of every message, for the CLI and the tests.
PLAIN_ENGLISH: Speaker = _PlainEnglish()


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
    dealer = events[begin]
    assert isinstance(dealer, HandStart)
    heading = [
        f"Hand {number} of game {record.game_id} ({record.rules.label}, {record.hands} hands)",
        f"Dealer {names[dealer.seat]}; scores before the hand: {scores_text(game)}",
    ]
    steps: list[list[str]] = []
    writer = _Steps(game, rebuilt)
    for event in events[begin:end]:
        block = writer.describe(event)
        if block:
            steps.append(block)
    steps.extend(writer.flush())
    return HandView(heading, steps)


def scores_text(game: Game) -> str:
    """The scores as they stand, in one line: each player still in the game (Toepen), or
    each side where seats play in teams (one pool a side): `Anna & Carla 9 lives, …`."""
    return ", ".join(f"{who} {score}" for who, score in _scores(game))


def _scores(game: Game) -> tuple[tuple[str, str], ...]:
    alive = [s for s in range(game.n) if not isinstance(game, Toepen) or game.alive[s]]
    if game.teams is None:
        return tuple((game.players[s], game.score_text(s)) for s in alive)
    teams = game.teams
    firsts = sorted({side_seats(teams, s)[0] for s in alive})  # a side by its first seat
    return tuple((side_name(game.players, teams, teams[s]), game.score_text(s)) for s in firsts)


@dataclass(frozen=True)
class HandResult:
    """How a hand came out, as the engine wrote it in the log (never worked out again):
    who won it (its `win` rows; in Troefcall the side of its `score` row), what each
    player paid (its `pay` rows), what the side scored, who went out, how the game ended
    (its `game_end`), and the scores after it. The replay's banner and its last step, and
    `kroeg replay`, all say a hand's result from here."""

    players: tuple[str, ...]
    #: Each seat's side where seats play in teams (Troefcall, team toepen).
    teams: tuple[int, ...] | None
    troefcall: bool
    #: Whether the hand has ended (its `hand_end`).
    finished: bool
    #: The seat of `hand_end`: who took the last trick, or whom everyone folded to.
    taker: int | None
    #: Toepen's final stake (None in Troefcall).
    stake: int | None
    #: The seats that won the hand, by seat.
    winners: tuple[int, ...]
    #: Troefcall: the points the winning side scored, and why (the score's reason).
    points: int
    reason: str | None
    #: What each seat paid in the hand (seat, total), by seat: its `pay` rows.
    paid: tuple[tuple[int, int], ...]
    #: The seats out of the game after the hand.
    out: tuple[int, ...]
    #: The game's end, if the hand ended it.
    game_end: GameEnd | None
    #: Troefcall: the tricks each side took, and each side's points after the hand.
    side_tricks: tuple[int, int] | None
    side_points: tuple[int, int] | None
    #: The scores after the hand: who (a player, or a side) and the score, in words.
    scores: tuple[tuple[str, str], ...]

    def who(self, seats: tuple[int, ...]) -> str:
        """Seats in words, a whole side by its name."""
        return seats_name(self.players, self.teams, seats)

    def verdict_for(self, speaker: Speaker) -> str:
        """`verdict` in `speaker`'s words."""
        return self.verdict

    def game_over_for(self, speaker: Speaker) -> str | None:
        """`game_over` in `speaker`'s words."""
        return self.game_over

    def text_for(self, speaker: Speaker) -> str:
        """`text` in `speaker`'s words."""
        return self.text

    @property
    def verdict(self) -> str:
        """The hand's end in one sentence: who won it (and who took the last trick)."""
        names = self.players
        if self.troefcall:
            assert self.side_tricks is not None and self.teams is not None
            tricks = (
                f"{side_name(names, self.teams, 0)} {self.side_tricks[0]} tricks, "
                f"{side_name(names, self.teams, 1)} {self.side_tricks[1]}"
            )
            if not self.winners:
                return f"Hand over: {tricks}"
            losers = next(s for s in range(len(names)) if s not in self.winners)
            why = reason_text(self.reason, side_name(names, self.teams, self.teams[losers]))
            return f"Hand over: {self.who(self.winners)} win the hand{why} ({tricks})"
        if self.taker is None:
            return "The hand is not finished"
        winners = self.winners or (self.taker,)
        who = self.who(winners)
        verb = "win" if len(winners) > 1 else "wins"
        if self.taker in winners:
            return f"{who} {verb} the hand (stake {self.stake})"
        side = side_seats(self.teams, self.taker)
        if len(side) > 1:  # team toepen: the side of the last trick loses, partners too
            return (
                f"{names[self.taker]} took the last trick: {self.who(side)} lose the hand; "
                f"{who} {verb} (stake {self.stake})"
            )
        return (
            f"{names[self.taker]} took the last trick and loses the hand; "
            f"{who} {verb} (stake {self.stake})"
        )

    @property
    def game_over(self) -> str | None:
        """The game's end in one sentence, a side named as a side; None if it goes on."""
        end = self.game_end
        if end is None:
            return None
        if self.troefcall and end.seat is None:
            assert self.side_points is not None
            return f"Game over: a draw at {self.side_points[0]} all"
        for seat, verb in ((end.seat, "win"), (end.loser, "lose")):
            if seat is not None:
                seats = side_seats(self.teams, seat)
                said = f"Game over: {self.who(seats)} {verb}{'s' if len(seats) == 1 else ''}"
                said += " the game"
                if self.troefcall and self.side_points is not None and self.teams:
                    mine = self.side_points[self.teams[seat]]
                    other = self.side_points[1 - self.teams[seat]]
                    said += f" {mine}–{other}" if verb == "win" else f" {other}–{mine}"
                return said
        return "Game over"

    @property
    def text(self) -> str:
        """The result in one paragraph: the verdict, who scored (Troefcall) or who paid
        what (Toepen), who went out, the game's end, and the scores after the hand."""
        parts: list[str] = []
        if self.finished:
            parts.append(self.verdict + ".")
            if self.troefcall and self.winners:
                parts.append(f"{self.who(self.winners)} score {self.points}.")
        if self.out:
            are = "are" if len(self.out) > 1 else "is"
            parts.append(f"{self.who(self.out)} {are} out of the game.")
        if self.game_over:
            parts.append(self.game_over + ".")
        if not parts:
            parts.append("The hand is not finished.")
        if self.paid:
            names = self.players
            parts.append("Paid: " + ", ".join(f"{names[s]} {n}" for s, n in self.paid) + ".")
        parts.append(
            "Scores after the hand: "
            + ", ".join(f"{who} {score}" for who, score in self.scores)
            + "."
        )
        return " ".join(parts)


#: Why a Troefcall side scored (the score's reason), as said after the winners.
_REASONS = {
    "kap": " by kap partij",
    "partner-kap": " by the partner's kap partij",
    "silent-kap": " by kap partij (silent)",
    "baunie": " by baunie",
}


def reason_text(reason: str | None, other_side: str) -> str:
    """Why a Troefcall hand scored, in words to put after its winners: nothing for a
    majority, ` by kap partij`, …; a failed baunie names the side that announced it
    (`other_side`, the one that did not score): `, Anna & Carla's baunie failed`. The
    replay, `kroeg replay` and the Games page all say it from here."""
    if reason == "failed-baunie":
        return f", {other_side}'s baunie failed"
    return _REASONS.get(reason or "", "")


def result_of(game: Game) -> HandResult:
    """The result of the game's latest hand as the engine wrote it in its log (which holds
    the engine's verdicts even where a stored log lacks them): the one reading of a hand's
    result. `game` is past the hand's events (or some of them)."""
    log = game.log
    begin = next((i for i in range(len(log) - 1, -1, -1) if isinstance(log[i], HandStart)), 0)
    hand = log[begin:]
    teams = game.teams
    troefcall = isinstance(game, Troefcall)
    end = next((e for e in hand if isinstance(e, HandEnd)), None)
    if troefcall:
        scored = [e.seat for e in hand if isinstance(e, Score)]
        winners = tuple(sorted({s for seat in scored for s in side_seats(teams, seat)}))
    else:
        winners = tuple(sorted({e.seat for e in hand if isinstance(e, HandWon)}))
    paid: dict[int, int] = {}
    for event in hand:
        if isinstance(event, Pay):
            paid[event.seat] = paid.get(event.seat, 0) + event.amount
    return HandResult(
        players=tuple(game.players),
        teams=teams,
        troefcall=troefcall,
        finished=end is not None,
        taker=end.seat if end else None,
        stake=end.stake if end else None,
        winners=winners,
        points=sum(e.amount for e in hand if isinstance(e, Score)),
        reason=next((e.reason for e in hand if isinstance(e, Score)), None),
        paid=tuple(sorted(paid.items())),
        out=tuple(e.seat for e in hand if isinstance(e, Eliminated)),
        game_end=next((e for e in hand if isinstance(e, GameEnd)), None),
        side_tricks=game.side_tricks if isinstance(game, Troefcall) else None,
        side_points=(game.scores[0], game.scores[1]) if isinstance(game, Troefcall) else None,
        scores=_scores(game),
    )


def hand_result(record: GameRecord, number: int) -> HandResult:
    """The result of hand `number` (1-based) of a game: its events replayed through the
    engine, then `result_of`."""
    _, end = record.hand_bounds(number)
    rebuilt = Replay(record.rules, record.players)
    for event in record.events[:end]:
        rebuilt.feed(event)
    return result_of(rebuilt.game)


def side_names(game: Troefcall, seat: int) -> str:
    """The names of a seat's side: `Anna & Carla`."""
    return side_name(game.players, TEAMS, TEAMS[seat])


def describe_events(
    game: Game, events: list[Event], *, joined: bool = True, speaker: Speaker = PLAIN_ENGLISH
) -> list[str]:
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
            case HandEnd():
                return result_of(game).verdict
            case Eliminated(seat=seat):
                return f"{names[seat]} is out of the game"
            case GameEnd():
                return result_of(game).game_over
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
                return result_of(game).verdict
            case Reveal(seat=seat, card=card):
                jack = (
                    " — the first Jack: they call trump first"
                    if card and card.rank is Rank.JACK
                    else ""
                )
                return f"{names[seat]} is dealt {pretty(card)} face up{jack}"
            case GameEnd():
                return result_of(game).game_over
        return None
