"""Events to words: one hand of a game as steps a person can follow (`kroeg replay`).

The hand is rebuilt by replaying the game's events through the engine, so the
scores before the hand, the stake and who is still in come from the referee.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Protocol

from kroeg.recorder.cards import Card, Rank, Suit
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
    HandSkipped,
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
from kroeg.recorder.text import plural
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
    "reason_text",
    "result_of",
    "say_amount",
    "say_score",
    "scores_text",
    "skipped_text",
    "suit_name",
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


def skipped_text(speaker: Speaker = PLAIN_ENGLISH) -> str:
    """What is known of a hand a lenient reading passed over (`hand_skipped`)."""
    return speaker.say(
        "step_skipped",
        "This hand could not be read when its log was imported (kroeg import --lenient): "
        "it keeps its number, and nothing else of it is known.",
    )


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
    hands = plural(record.hands, "hand")
    title = f"Hand {number} of game {record.game_id} ({record.rules.label}, {hands})"
    if isinstance(dealer, HandSkipped):
        return HandView([title, skipped_text()], [])
    assert isinstance(dealer, HandStart)
    heading = [
        title,
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


def scores_text(game: Game, speaker: Speaker = PLAIN_ENGLISH) -> str:
    """The scores as they stand, in one line: each player still in the game (Toepen), or
    each side where seats play in teams (one pool a side): `Anna & Carla 9 lives, …`."""
    troefcall = isinstance(game, Troefcall)
    return ", ".join(
        f"{who} {say_score(speaker, score, troefcall)}" for who, score in _scores(game)
    )


#: A score as the engine writes it (`9 lives`, `1 point`: recorder/ speaks English only).
_SCORE = re.compile(r"(-?\d+) (points?|li(?:fe|ves))")


def say_score(speaker: Speaker, text: str, troefcall: bool = False) -> str:
    """A score the engine wrote (`game.score_text`, `Replay.score_texts`: `9 lives`,
    `1 point`) in `speaker`'s words; a text of another shape as it is. Toepen's points are
    penalty points (`Ruleset.unit`; English says `points`, Dutch `strafpunten`),
    Troefcall's a side's points."""
    found = _SCORE.fullmatch(text)
    if found is None:
        return text
    n = int(found[1])
    if found[2].startswith("point"):
        return say_amount(speaker, n, "points" if troefcall else "penalty points")
    return say_amount(speaker, n, "lives")


def say_amount(speaker: Speaker, n: int, unit: str) -> str:
    """`3 points`, `1 life` in `speaker`'s words, `unit` a rule set's (`Ruleset.unit`:
    penalty points, lives, or Troefcall's points). English says Toepen's penalty points
    as the engine writes them, `points`; Dutch `strafpunten`."""
    if unit == "lives":
        return speaker.say_n("result_n_lives", "{n} life", "{n} lives", n)
    if unit == "points":
        return speaker.say_n("result_n_points", "{n} point", "{n} points", n)
    return speaker.say_n("result_n_penalty_points", "{n} point", "{n} points", n)


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
    #: The scores after the hand: who (a player, or a side) and the score as the engine
    #: writes it (`9 lives`; `say_score` says it in a speaker's words).
    scores: tuple[tuple[str, str], ...]
    #: A hand a lenient reading passed over (`hand_skipped`): nothing of it is known.
    skipped: bool = False

    def who(self, seats: tuple[int, ...], speaker: Speaker = PLAIN_ENGLISH) -> str:
        """Seats in words, a whole side by its name."""
        return seats_name(self.players, self.teams, seats, speaker.say("step_and", "and"))

    def verdict_for(self, speaker: Speaker) -> str:
        """`verdict` in `speaker`'s words."""
        names = self.players
        if self.troefcall:
            assert self.side_tricks is not None and self.teams is not None
            tricks = speaker.say_n(
                "result_side_tricks",
                "{side} {n} trick, {other_side} {other_tricks}",
                "{side} {n} tricks, {other_side} {other_tricks}",
                self.side_tricks[0],
                side=side_name(names, self.teams, 0),
                other_side=side_name(names, self.teams, 1),
                other_tricks=self.side_tricks[1],
            )
            if not self.winners:
                return speaker.say("result_hand_over", "Hand over: {tricks}", tricks=tricks)
            losers = next(s for s in range(len(names)) if s not in self.winners)
            why = reason_text(
                self.reason, side_name(names, self.teams, self.teams[losers]), speaker
            )
            return speaker.say(
                "result_side_wins",
                "Hand over: {winners} win the hand{why} ({tricks})",
                winners=self.who(self.winners, speaker),
                why=why,
                tricks=tricks,
            )
        if self.taker is None:
            return speaker.say("result_not_finished", "The hand is not finished")
        winners = self.winners or (self.taker,)
        who = self.who(winners, speaker)
        if self.taker in winners:
            return speaker.say_n(
                "result_wins",
                "{winners} wins the hand (stake {stake})",
                "{winners} win the hand (stake {stake})",
                len(winners),
                winners=who,
                stake=self.stake,
            )
        side = side_seats(self.teams, self.taker)
        if len(side) > 1:  # team toepen: the side of the last trick loses, partners too
            return speaker.say_n(
                "result_side_took_last_trick",
                "{taker} took the last trick: {side} lose the hand; {winners} wins (stake {stake})",
                "{taker} took the last trick: {side} lose the hand; {winners} win (stake {stake})",
                len(winners),
                taker=names[self.taker],
                side=self.who(side, speaker),
                winners=who,
                stake=self.stake,
            )
        return speaker.say_n(
            "result_took_last_trick",
            "{taker} took the last trick and loses the hand; {winners} wins (stake {stake})",
            "{taker} took the last trick and loses the hand; {winners} win (stake {stake})",
            len(winners),
            taker=names[self.taker],
            winners=who,
            stake=self.stake,
        )

    def game_over_for(self, speaker: Speaker) -> str | None:
        """`game_over` in `speaker`'s words."""
        end = self.game_end
        if end is None:
            return None
        if self.troefcall and end.seat is None:
            assert self.side_points is not None
            return speaker.say(
                "result_game_drawn",
                "Game over: a draw at {points} all",
                points=self.side_points[0],
            )
        for seat, won in ((end.seat, True), (end.loser, False)):
            if seat is None:
                continue
            seats = side_seats(self.teams, seat)
            who, n = self.who(seats, speaker), len(seats)
            if self.troefcall and self.side_points is not None and self.teams:
                mine = self.side_points[self.teams[seat]]
                other = self.side_points[1 - self.teams[seat]]
                score = f"{mine}–{other}" if won else f"{other}–{mine}"  # the winners' first
                if won:
                    return speaker.say_n(
                        "result_game_won_score",
                        "Game over: {winners} wins the game {score}",
                        "Game over: {winners} win the game {score}",
                        n,
                        winners=who,
                        score=score,
                    )
                return speaker.say_n(
                    "result_game_lost_score",
                    "Game over: {losers} loses the game {score}",
                    "Game over: {losers} lose the game {score}",
                    n,
                    losers=who,
                    score=score,
                )
            if won:
                return speaker.say_n(
                    "result_game_won",
                    "Game over: {winners} wins the game",
                    "Game over: {winners} win the game",
                    n,
                    winners=who,
                )
            return speaker.say_n(
                "result_game_lost",
                "Game over: {losers} loses the game",
                "Game over: {losers} lose the game",
                n,
                losers=who,
            )
        return speaker.say("result_game_over", "Game over")

    def text_for(self, speaker: Speaker) -> str:
        """`text` in `speaker`'s words."""
        if self.skipped:
            return skipped_text(speaker)
        parts: list[str] = []
        if self.finished:
            parts.append(self.verdict_for(speaker) + ".")
            if self.troefcall and self.winners:
                parts.append(
                    speaker.say(
                        "result_side_scores",
                        "{winners} score {points}.",
                        winners=self.who(self.winners, speaker),
                        points=self.points,
                    )
                )
        if self.out:
            parts.append(
                speaker.say_n(
                    "result_out",
                    "{players} is out of the game.",
                    "{players} are out of the game.",
                    len(self.out),
                    players=self.who(self.out, speaker),
                )
            )
        game_over = self.game_over_for(speaker)
        if game_over:
            parts.append(game_over + ".")
        if not parts:
            parts.append(speaker.say("result_not_finished", "The hand is not finished") + ".")
        if self.paid:
            names = self.players
            parts.append(
                speaker.say(
                    "result_paid",
                    "Paid: {payments}.",
                    payments=", ".join(f"{names[s]} {n}" for s, n in self.paid),
                )
            )
        parts.append(
            speaker.say(
                "result_scores_after",
                "Scores after the hand: {scores}.",
                scores=", ".join(
                    f"{who} {say_score(speaker, s, self.troefcall)}" for who, s in self.scores
                ),
            )
        )
        return " ".join(parts)

    @property
    def verdict(self) -> str:
        """The hand's end in one sentence: who won it (and who took the last trick)."""
        return self.verdict_for(PLAIN_ENGLISH)

    @property
    def game_over(self) -> str | None:
        """The game's end in one sentence, a side named as a side; None if it goes on."""
        return self.game_over_for(PLAIN_ENGLISH)

    @property
    def text(self) -> str:
        """The result in one paragraph: the verdict, who scored (Troefcall) or who paid
        what (Toepen), who went out, the game's end, and the scores after the hand."""
        return self.text_for(PLAIN_ENGLISH)


def reason_text(reason: str | None, other_side: str, speaker: Speaker = PLAIN_ENGLISH) -> str:
    """Why a Troefcall hand scored, in words to put after its winners: nothing for a
    majority, ` by kap partij`, …; a failed baunie names the side that announced it
    (`other_side`, the one that did not score): `, Anna & Carla's baunie failed`. The
    replay, `kroeg replay` and the Games page all say it from here."""
    match reason:
        case "kap":
            return speaker.say("result_by_kap", " by kap partij")
        case "partner-kap":
            return speaker.say("result_by_partner_kap", " by the partner's kap partij")
        case "silent-kap":
            return speaker.say("result_by_silent_kap", " by kap partij (silent)")
        case "baunie":
            return speaker.say("result_by_baunie", " by baunie")
        case "failed-baunie":
            return speaker.say("result_failed_baunie", ", {side}'s baunie failed", side=other_side)
    return ""


def result_of(game: Game) -> HandResult:
    """The result of the game's latest hand as the engine wrote it in its log (which holds
    the engine's verdicts even where a stored log lacks them): the one reading of a hand's
    result. `game` is past the hand's events (or some of them)."""
    log = game.log
    begin = next(
        (i for i in range(len(log) - 1, -1, -1) if isinstance(log[i], HandStart | HandSkipped)),
        0,
    )
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
        skipped=bool(hand) and isinstance(hand[0], HandSkipped),
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
    """Sentences for events the game has just recorded (its state is already past them),
    in `speaker`'s words.

    `joined`: a fold or a check and the payment it causes make one sentence ("Carla folds
    and pays 1"); a replay that shows every event as its own step says them apart
    ("Carla folds", then "Carla pays 1")."""
    steps = _Steps(game, None, joined=joined, speaker=speaker)
    lines = [line for event in events for line in steps.describe(event)]
    return lines + [line for block in steps.flush() for line in block]


def suit_name(suit: Suit, speaker: Speaker = PLAIN_ENGLISH) -> str:
    """A suit's name (the engine's `Suit.english`, `hearts`) in `speaker`'s words."""
    match suit:
        case Suit.CLUBS:
            return speaker.say("step_suit_clubs", "clubs")
        case Suit.DIAMONDS:
            return speaker.say("step_suit_diamonds", "diamonds")
        case Suit.HEARTS:
            return speaker.say("step_suit_hearts", "hearts")
        case Suit.SPADES:
            return speaker.say("step_suit_spades", "spades")
    return suit.english


def _rank_name(speaker: Speaker, rank: Rank) -> str:
    """A rank's name in the plural (the engine's `Rank.english`, as in `4 jacks`: a
    whistle shows three or four of a kind), in `speaker`'s words."""
    match rank:
        case Rank.ACE:
            return speaker.say("step_rank_aces", "aces")
        case Rank.KING:
            return speaker.say("step_rank_kings", "kings")
        case Rank.QUEEN:
            return speaker.say("step_rank_queens", "queens")
        case Rank.JACK:
            return speaker.say("step_rank_jacks", "jacks")
        case Rank.TEN:
            return speaker.say("step_rank_tens", "tens")
        case Rank.NINE:
            return speaker.say("step_rank_nines", "nines")
        case Rank.EIGHT:
            return speaker.say("step_rank_eights", "eights")
        case Rank.SEVEN:
            return speaker.say("step_rank_sevens", "sevens")
        case Rank.SIX:
            return speaker.say("step_rank_sixes", "sixes")
        case Rank.FIVE:
            return speaker.say("step_rank_fives", "fives")
        case Rank.FOUR:
            return speaker.say("step_rank_fours", "fours")
        case Rank.THREE:
            return speaker.say("step_rank_threes", "threes")
        case Rank.TWO:
            return speaker.say("step_rank_twos", "twos")
    return f"{rank.english}s"


class _Steps:
    def __init__(
        self,
        game: Game,
        rebuilt: Replay | None,
        *,
        joined: bool = True,
        speaker: Speaker = PLAIN_ENGLISH,
    ) -> None:
        self.game = game
        self.rebuilt = rebuilt
        self.joined = joined
        self.speaker = speaker
        self.deals: dict[int, list[Card | None]] = {}
        self.swallow_pay: tuple[int, int] | None = None
        self.reveals: list[str] = []

    def flush(self) -> list[list[str]]:
        """Dealt cards waiting to be shown, as one step."""
        if not self.deals:
            return []
        names = self.game.players
        width = max(len(n) for n in names)
        lines = [self.speaker.say("step_cards_dealt", "Cards dealt:")] + [
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
        sp = self.speaker
        if isinstance(event, Pay) and (event.seat, event.amount) == self.swallow_pay:
            self.swallow_pay = None
            return None
        if not isinstance(event, Reveal):  # a check shows the cards, then the penalty is paid
            self.swallow_pay = None
        match event:  # the same in both games; a card and a trick are indented under the hand
            case CardPlayed(seat=seat, card=played):
                return "  " + sp.say(
                    "step_play", "{player} plays {card}", player=names[seat], card=pretty(played)
                )
            case TrickWon(seat=seat, number=number):
                return "  → " + sp.say(
                    "step_trick", "{player} takes trick {number}", player=names[seat], number=number
                )
            case HandSkipped():
                return skipped_text(sp)
        if isinstance(game, Troefcall):
            return self.troefcall_sentence(game, event, names)
        match event:
            case HandStart(stake=stake):
                poor = (
                    sp.say(
                        "step_deal_poverty",
                        " (poverty: {player} starts as if knocking)",
                        player=names[game.poor],
                    )
                    if game.poor is not None
                    else ""
                )
                sudden = (
                    sp.say(
                        "step_deal_sudden_death",
                        " — sudden death: the last players tied, whoever pays in this hand is out",
                    )
                    if game.sudden_death
                    else ""
                )
                return sp.say(
                    "step_deal",
                    "{player} deals; the stake is {stake}{poverty}{sudden_death}",
                    player=names[event.seat],
                    stake=stake,
                    poverty=poor,
                    sudden_death=sudden,
                )
            case Knock(seat=seat, stake=stake):
                return sp.say(
                    "step_knock",
                    "{player} knocks: the stake is now {stake}",
                    player=names[seat],
                    stake=stake,
                )
            case Stay(seat=seat):
                return sp.say("step_stay", "{player} stays in", player=names[seat])
            case Fold(seat=seat, stake=stake):
                if not self.joined:
                    return sp.say("step_fold", "{player} folds", player=names[seat])
                self.swallow_pay = (seat, stake)
                return sp.say(
                    "step_fold_pay",
                    "{player} folds and pays {amount}",
                    player=names[seat],
                    amount=stake,
                )
            case Pay(seat=seat, amount=amount):
                return sp.say(
                    "step_pay", "{player} pays {amount}", player=names[seat], amount=amount
                )
            case Laundry(seat=seat):
                return sp.say(
                    "step_laundry",
                    "{player} swaps the hand for four cards from the stock (laundry)",
                    player=names[seat],
                )
            case Armoede(seat=seat):
                return sp.say("step_armoede", "{player} declares armoede", player=names[seat])
            case Check(seat=seat, target=target, genuine=genuine):
                said = (
                    sp.say(
                        "step_check_genuine",
                        "{player} checks {target}: it was genuine",
                        player=names[seat],
                        target=names[target],
                    )
                    if genuine
                    else sp.say(
                        "step_check_bluff",
                        "{player} checks {target}: it was a bluff",
                        player=names[seat],
                        target=names[target],
                    )
                )
                loser = seat if genuine else target
                if not self.joined:
                    return said
                self.swallow_pay = (loser, game.rules.check_penalty)
                pays = sp.say(
                    "step_pay",
                    "{player} pays {amount}",
                    player=names[loser],
                    amount=game.rules.check_penalty,
                )
                return f"{said}; {pays}"
            case Redeal(seat=seat):
                return sp.say(
                    "step_redeal", "{player} gathers the cards and deals again", player=names[seat]
                )
            case Whistle(seat=seat, rank=rank, count=count):
                if count == 4:
                    return sp.say(
                        "step_stands_up",
                        "{player} stands up: {count} {rank}",
                        player=names[seat],
                        count=count,
                        rank=_rank_name(sp, rank),
                    )
                return sp.say(
                    "step_whistles",
                    "{player} whistles: {count} {rank}",
                    player=names[seat],
                    count=count,
                    rank=_rank_name(sp, rank),
                )
            case Reveal(seat=seat, card=card):
                return sp.say(
                    "step_shows", "{player} shows {card}", player=names[seat], card=pretty(card)
                )
            case HandEnd():
                return result_of(game).verdict_for(sp)
            case Eliminated(seat=seat):
                return sp.say("step_out", "{player} is out of the game", player=names[seat])
            case GameEnd():
                return result_of(game).game_over_for(sp)
        return None

    def troefcall_sentence(
        self, game: Troefcall, event: Event, names: tuple[str, ...]
    ) -> str | None:
        sp = self.speaker
        match event:
            case HandStart(seat=dealer, caller=caller):
                return sp.say(
                    "step_troefcall_deal",
                    "{player} deals; {caller} cuts and calls trump",
                    player=names[dealer],
                    caller=names[caller] if caller is not None else "?",
                )
            case TrumpCalled(seat=seat, suit=suit):
                return sp.say(
                    "step_trump",
                    "{player} calls trump: {symbol} {suit}",
                    player=names[seat],
                    symbol=suit.symbol,
                    suit=suit_name(suit, sp),
                )
            case Kap(seat=seat):
                return sp.say_n(
                    "step_kap",
                    "{player}: kap! ({side} took the first trick)",
                    "{player}: kap! ({side} took the first {n} tricks)",
                    game.rules.kap_tricks,
                    player=names[seat],
                    side=side_names(game, seat),
                )
            case Baunie(seat=seat):
                return sp.say_n(
                    "step_baunie",
                    "{player}: baunie! ({side} go for every trick)",
                    "{player}: baunie! ({side} go for all {n} tricks)",
                    game.rules.hand_size,
                    player=names[seat],
                    side=side_names(game, seat),
                )
            case Stop(seat=seat):
                return sp.say("step_stop", "{player} stops the hand", player=names[seat])
            case Score(seat=seat, amount=amount):
                return sp.say(
                    "step_score",
                    "{side} score {points} (now {side_a} {points_a}, {side_b} {points_b})",
                    side=side_names(game, seat),
                    points=amount,
                    side_a=side_names(game, 0),
                    points_a=game.scores[0],
                    side_b=side_names(game, 1),
                    points_b=game.scores[1],
                )
            case HandEnd():
                return result_of(game).verdict_for(sp)
            case Reveal(seat=seat, card=card):
                if card and card.rank is Rank.JACK:
                    return sp.say(
                        "step_first_jack",
                        "{player} is dealt {card} face up — the first Jack: they call trump first",
                        player=names[seat],
                        card=pretty(card),
                    )
                return sp.say(
                    "step_face_up",
                    "{player} is dealt {card} face up",
                    player=names[seat],
                    card=pretty(card),
                )
            case GameEnd():
                return result_of(game).game_over_for(sp)
        return None
