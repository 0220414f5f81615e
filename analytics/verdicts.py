"""The verdicts on one knock and one fold, from a position of the engine: the analysis'
hot loops, compiled with the engine at install time (setup.py) and plain Python otherwise.

**Strength** of a knock: the knocker's chance of winning the hand from that moment, from
what the knocker could see (their own cards, the cards played and shown since the cards
now held were dealt). The hidden cards are dealt at random to the others (who keep the
suits they showed out of void), and the hand is played out by the engine's trick rules
(`Toepen.play_outs`) with the fixed reference policy, nobody knocking or folding any more.

**Regret** of a fold: with the cards as they lay, could the folder have made sure of
winning the hand, whatever the others did, had everyone played on? Solved exactly by
searching every card play (the others play against the folder), with the engine's own
trick rules (`recorder.trickcore`, as the engine).

**Value** of a Troefcall trump call: for each suit the caller could name, the caller's
side's expected points less the other side's in the hand, from the cards the caller held
when calling. The other cards are dealt at random (the same deals for every suit), and
the hand is played to its end through the engine by the sharp Troefcall bot for every
seat (`recorder.troefcall_bots`: its cards and its announcements, the reference policy).

A hand with unknown cards gives None, never a guess. docs/STATS.md has more.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable
from typing import Any, NamedTuple

from kroeg.recorder import trickcore
from kroeg.recorder.bots import Bot, SharpBot
from kroeg.recorder.cards import Card, Suit
from kroeg.recorder.events import (
    CardPlayed,
    Deal,
    Event,
    Reveal,
    Score,
    ScoreReason,
    TrumpCalled,
)
from kroeg.recorder.seeding import SeededAtFirstDraw
from kroeg.recorder.simulate import continue_hand
from kroeg.recorder.toepen import Toepen
from kroeg.recorder.trickcore import shuffle
from kroeg.recorder.tricks import TrickGame, suit_number
from kroeg.recorder.troefcall import TEAMS, Troefcall
from kroeg.recorder.troefcall_bots import TroefcallBot, make_troefcall_bot, play_on

__all__ = [
    "ANNOUNCE_GRADES",
    "ANNOUNCE_OPTIONS",
    "ANNOUNCE_SAMPLES",
    "CALL_GRADES",
    "CALL_SAMPLES",
    "CALL_STAKE",
    "GRADES",
    "KNOCK_GRADES",
    "KNOCK_SAMPLES",
    "LUCK_SAMPLES",
    "SAMPLES",
    "SWAP_GRADES",
    "SWAP_SAMPLES",
    "AnnounceValues",
    "AnswerCosts",
    "KnockCosts",
    "Sight",
    "SwapCosts",
    "accuracy",
    "announce_deals",
    "announce_options",
    "announce_values",
    "announce_with_deal",
    "answer_costs",
    "call_values",
    "deal_luck",
    "fold_regret",
    "grade",
    "knock_costs",
    "knock_strength",
    "play_out_from",
    "seen_by",
    "shuffle",
    "swap_costs",
    "win_chance",
]  # fmt: skip

#: Playouts per knock. The standard error of a strength is at most 0.5 / sqrt(SAMPLES).
SAMPLES = 48

#: Playouts per player for the luck of a deal: a correction to the result, unbiased however
#: few; 16 keep its cost to a third of a knock's (docs/STATS.md, "Luck").
LUCK_SAMPLES = 16

#: The grades of an answer to a knock, by its EV lost relative to the stake (EV lost /
#: stake at least this): docs/STATS.md, "Grades", says how they were chosen from bot data.
GRADES = (("blunder", 0.5), ("mistake", 0.4), ("inaccuracy", 0.25))

#: Deals per knock made, each played on twice (knocking and not): the two options' costs
#: are judged on the same deals, so their difference, which the verdict is, varies least.
#: Each deal costs a copy of the game and the answers through the engine, so 16, as for
#: luck (docs/STATS.md, "Knocks made": the error bound).
KNOCK_SAMPLES = 16
#: The grades of a knock made, by EV lost / the stake before it: an answer's, the same
#: currency. The sharp bot's knocks cannot place them as its answers did (it knocks on a
#: sure last trick where a fold then hands it that trick: its p90 is 0.75), and they sit
#: where the sampling alone stops reaching in the closest knocks (seed 11: p90 0.25, p98 0.375;
#: `python bench/grades.py --knocks`; docs/STATS.md, "Knocks made").
KNOCK_GRADES = GRADES
#: The reference policy of the answers to a knock played on: the sharp bot's (its pot
#: odds; it draws nothing, so one serves every seat).
_ANSWER_POLICY = SharpBot(0)

#: Deals per trump call, each played out once per suit (the same deals for every suit, so
#: that the suits' differences, which the verdict is made of, vary least).
CALL_SAMPLES = 16
#: What a trump call's EV lost is measured against: a hand's usual score, the majority's
#: 2 points.
CALL_STAKE = 2
#: The grades of a trump call, by EV lost / CALL_STAKE, chosen from bot data as GRADES
#: are (docs/STATS.md, "Trump calls").
CALL_GRADES = (("blunder", 0.7), ("mistake", 0.55), ("inaccuracy", 0.4))
#: The reference policy of a call's play-outs: the sharp Troefcall bot at every seat (its
#: choices use no randomness).
_CALL_POLICY: list[TroefcallBot] = [make_troefcall_bot("sharp", 0) for _ in range(4)]


def _deal_start(game: TrickGame) -> int:
    """Where the cards now held were dealt: the hand's start, or its last redeal (after
    armoede every card goes back and is dealt again)."""
    log = game.log
    for i in range(len(log) - 1, -1, -1):
        if log[i].kind in ("hand_start", "redeal"):
            return i
    return 0


def seen_by(game: TrickGame, seat: int) -> set[Card]:
    """The cards `seat` has seen of the cards now in play: their own, and every card
    played or shown since the cards now held were dealt."""
    return Sight(game, _deal_start(game)).seen(seat)


class Sight:
    """What each player has seen of the cards now in play (`seen_by`), kept up with a
    game's log as it grows: a caller that judges many positions of one game in turn (the
    analysis of a game) reads each event of the log once, rather than the hand's log
    again for every verdict."""

    def __init__(self, game: TrickGame, start: int = 0) -> None:
        self.game = game
        #: The cards played or shown since the deal (every player saw them), and the
        #: cards dealt to each seat since then.
        self.shown: set[Card] = set()
        self.dealt: list[set[Card]] = [set() for _ in range(game.n)]
        self.read = start  # the log's events read so far

    def seen(self, seat: int) -> set[Card]:
        """`seen_by(game, seat)` as the game stands now."""
        log = self.game.log
        if len(log) < self.read:  # not the log read so far: read it again
            self.read = _deal_start(self.game)
            self._forget()
        for i in range(self.read, len(log)):
            event = log[i]
            if event.kind in ("hand_start", "redeal"):
                self._forget()  # new cards: what was seen of the old ones is no help
            elif isinstance(event, (CardPlayed, Reveal)):
                card: Card | None = event.card
                if card is not None:
                    self.shown.add(card)
            elif isinstance(event, Deal):
                card = event.card
                if card is not None:
                    self.dealt[event.seat].add(card)
        self.read = len(log)
        seen = set(self.shown)
        seen |= self.dealt[seat]
        for card in self.game.hands[seat]:
            if card is not None:
                seen.add(card)
        return seen

    def _forget(self) -> None:
        self.shown = set()
        self.dealt = [set() for _ in range(self.game.n)]


def knock_strength(
    game: Toepen,
    seat: int,
    rng: random.Random | Any,
    samples: int = SAMPLES,
    seen: set[Card] | None = None,
) -> float | None:
    """The knocker's chance of winning from here, seen from the knocker's seat (None:
    unknown); `seen` as `win_chance`'s."""
    return win_chance(game, seat, rng, samples, seen)


def win_chance(
    game: Toepen,
    seat: int,
    rng: random.Random | Any,
    samples: int = SAMPLES,
    seen: set[Card] | None = None,
) -> float | None:
    """The chance that `seat`'s side wins the hand from here, from what `seat` could see
    (`seen`, default `seen_by`): the hidden cards dealt `samples` times to the others
    still in, the hand played out by the reference policy (None: own cards unknown).
    `seat` may have folded (team toepen: their partner plays on). `rng` is a
    random.Random, or draws from one (`trickcore.draws`) that a caller keeps for many
    verdicts and finishes itself: the same shuffles, without handing the state to and fro
    each time."""
    own = game.hands[seat]
    if any(c is None for c in own):
        return None
    if seen is None:
        seen = seen_by(game, seat)
    # Cards as the trick core numbers them: their place in the deck.
    pool = [i for i, c in enumerate(game.deck) if c not in seen]
    fixed, hidden = _known_and_hidden(game, seat, seen, game.seats_in_hand())
    if not isinstance(rng, random.Random):  # the game's draws (`trickcore.draws`), kept
        takers = game.sampled_last_trick_takers(fixed, hidden, pool, samples, rng)
    else:
        draws = trickcore.draws(rng)  # rng.shuffle's draws (in C where the twin runs)
        try:
            takers = game.sampled_last_trick_takers(fixed, hidden, pool, samples, draws)
        finally:
            draws.finish()
    # The takers of the last trick with whom `seat` wins the hand, asked once a seat
    # rather than once a deal.
    winning = 0
    for s in range(game.n):
        if game.takes_hand(seat, s):
            winning |= 1 << s
    wins = 0
    for taker in takers:
        wins += winning >> taker & 1
    return wins / samples


def _known_and_hidden(
    game: TrickGame, seat: int, seen: set[Card], seats: Iterable[int]
) -> tuple[list[list[int]], list[tuple[int, int, int]]]:
    """What `seat` knows each of `seats` holds, in the trick core's numbers: their own
    cards, and the others' cards `seat` saw shown and not played (a hand played face up);
    and the rest of each hand, to be dealt from the unseen cards (`trickcore.python_supposed`:
    seat, how many cards, the suits it showed out of as a bit mask), the players who
    showed out of more suits first."""
    index = game.index
    fixed: list[list[int]] = [[] for _ in range(game.n)]
    hidden: list[tuple[int, int, int]] = []
    for s in seats:
        if s == seat:
            fixed[s] = [index[c] for c in game.hands[s] if c is not None]
            continue
        fixed[s] = [index[c] for c in game.hands[s] if c is not None and c in seen]
        need = len(game.hands[s]) - len(fixed[s])
        if need > 0:
            void = 0
            for suit in game.voids[s]:
                void |= 1 << suit_number(suit)
            hidden.append((s, need, void))
    hidden.sort(key=lambda h: -bin(h[2]).count("1"))  # stable: by seat among equals
    return fixed, hidden


def fold_regret(game: Toepen, seat: int) -> bool | None:
    """Could the folder have made sure of winning by playing on? (None: cards unknown.)

    Solved by `trickcore.can_force` (in C where it was built) on the cards as they lie."""
    live = game.seats_in_hand()
    if any(c is None for s in live for c in game.hands[s]):
        return None
    index = game.index
    hands = [0] * game.n
    for s in live:
        for c in game.hands[s]:
            if c is not None:
                hands[s] |= 1 << index[c]
    takes = 0  # the takers of the last trick with whom the folder wins the hand
    for s in live:
        if game.takes_hand(seat, s):
            takes |= 1 << s
    return trickcore.can_force(
        game.n, game.live_mask(), game.ranks, suit_number(game.trump), seat, takes, hands,
        [s for s, _ in game.trick_plays], [index[c] for _, c in game.trick_plays], game.leader,
    )  # fmt: skip


class AnswerCosts(NamedTuple):
    """What each answer to a knock is expected to cost its player (`answer_costs`)."""

    #: The chance of winning the hand by staying in, from the player's view.
    chance: float
    #: The expected cost of staying and of folding, in the game's lives or points.
    stay: float
    fold: float
    #: Team toepen: a fold leaves partners in the hand, who play on for the side (the
    #: side pays the stake again unless they win, so the fold's cost is expected too).
    partners_play_on: bool


def answer_costs(
    game: Toepen,
    seat: int,
    rng: random.Random | Any,
    samples: int = SAMPLES,
    seen: set[Card] | None = None,
) -> AnswerCosts | None:
    """The answer to a knock `seat` gives now, seen from `seat` (`AnswerCosts`). None
    where the cards are unknown, or where the rules leave no choice (folding or staying
    not allowed).

    Staying: the side pays the stake unless it wins, at the `win_chance` from `seat`'s
    view. Folding: the engine's fold on a copy of the game, so what it pays is the rule's
    (`Toepen.fold_price`); in team toepen the partners still in play on, and the side
    pays the stake again unless they win. The reference policy plays out the hand as for
    a knock's strength: nobody knocks or folds any more, so the others yet to answer stay.
    """
    if not (game.can_fold(seat) and game.can_stay(seat)):
        return None
    if seen is None:
        seen = seen_by(game, seat)
    chance = win_chance(game, seat, rng, samples, seen)
    if chance is None:
        return None
    stay = (1 - chance) * game.stake
    if not game.partner_in(seat):
        # Nobody plays on for the folder.
        return AnswerCosts(chance, stay, float(game.fold_price()), partners_play_on=False)
    folded = game.fork()
    folded.fold(seat)
    fold = float(folded.paid_this_hand[seat] - game.paid_this_hand[seat])
    playing_on = folded.phase not in ("idle", "over") and folded.partner_in(seat)
    if playing_on:
        partners = win_chance(folded, seat, rng, samples, seen)
        if partners is None:
            return None
        fold += (1 - partners) * folded.stake
    return AnswerCosts(chance, stay, fold, playing_on)


class KnockCosts(NamedTuple):
    """What knocking now, and not, is expected to cost the knocker's side (`knock_costs`)."""

    #: The expected cost of knocking, in the game's lives or points: the others answer
    #: by the reference policy, then the hand is played on.
    knock: float
    #: Of the other choice: for a knock on one's turn, playing on without a knock; for a
    #: counter-knock, the better of staying and folding (`answer_costs`).
    other: float
    #: That other choice: "play_on", "stay" or "fold".
    other_choice: str


def knock_costs(
    game: Toepen,
    seat: int,
    rng: random.Random | Any,
    samples: int = KNOCK_SAMPLES,
    seen: set[Card] | None = None,
) -> KnockCosts | None:
    """The knock `seat` makes now (on their turn, or a counter-knock while answering),
    against not making it, seen from `seat`. None where the cards are unknown or the
    rules allow no knock.

    The cards `seat` could not see are dealt `samples` times, keeping the voids seen
    (`trickcore.python_supposed`, as for the strength). On each deal, a copy of the game
    takes the knock through the engine, every player asked answers it as the reference
    policy does (the sharp bot's pot odds, from that player's own cards, without a
    counter-knock), and the hand is played out by the reference card policy, nobody
    knocking any more: the cost is what the side paid by then (nothing, where all fold)
    plus the stake unless it takes the hand. Not knocking, on the same deals: the hand
    played out at the stake as it is. A counter-knock's other choices are an answer's
    (`answer_costs`: stay or fold, the better one)."""
    if not game.can_knock(seat) or any(c is None for c in game.hands[seat]):
        return None
    counter = bool(game.answer_queue)
    if seen is None:
        seen = seen_by(game, seat)
    pool = [i for i, c in enumerate(game.deck) if c not in seen]
    fixed, hidden = _known_and_hidden(game, seat, seen, game.seats_in_hand())
    paid = game.paid_this_hand[seat]
    deals: list[list[list[int]]] = []
    draws = rng if not isinstance(rng, random.Random) else trickcore.draws(rng)
    try:
        for _ in range(samples):
            dealt = trickcore.python_supposed(hidden, pool, game.ranks, draws)
            deal = [list(cards) for cards in fixed]
            for (other, _need, _void), cards in zip(hidden, dealt, strict=True):
                deal[other].extend(cards)
            deals.append(deal)
    finally:
        if isinstance(rng, random.Random):
            draws.finish()
    # The deals played out together (one call to the trick core for many), the costs
    # added up in the deals' order.
    knocking = holding = 0.0
    for cost in _KnockAnswered(game, seat).paid_each(deals):
        knocking += cost - paid
    if not counter:
        for taker in game.last_trick_takers(deals):
            holding += 0.0 if game.takes_hand(seat, taker) else game.stake
    if counter:
        costs = answer_costs(game, seat, rng, SAMPLES, seen)
        if costs is None:
            return None
        best = "stay" if costs.stay <= costs.fold else "fold"
        return KnockCosts(knocking / samples, min(costs.stay, costs.fold), best)
    return KnockCosts(knocking / samples, holding / samples, "play_on")


def _place(
    hands: list[list[Card | None]],
    seen: set[Card],
    placed: Iterable[tuple[int, list[Card | None]]],
) -> None:
    """Put each seat's supposed cards in `hands`, the engine's `seen` kept in step: the
    cards the seat held leave it, the supposed ones join it. Every supposed position
    (a knock's deals, a swap's) is made through here."""
    for seat, cards in placed:
        # Loops, not generators handed to the set: a generator is an object made and
        # driven per seat, and this runs for every seat of every supposed deal.
        for card in hands[seat]:
            if card is not None:
                seen.discard(card)
        for card in cards:
            if card is not None:
                seen.add(card)
        hands[seat] = cards


def _supposed_hands(
    game: Toepen, deal: list[list[int]]
) -> tuple[list[list[Card | None]], set[Card]]:
    """The hands and the engine's `seen` of a copy of `game` whose players still in hold
    `deal` (the trick core's numbers), each seat's cards put in its place in seat order."""
    deck = game.deck
    hands = list(game.hands)
    seen = set(game.seen)
    _place(hands, seen, ((s, _cards(deck, deal[s])) for s in game.seats_in_hand()))
    return hands, seen


def _cards(deck: tuple[Card, ...], numbers: list[int]) -> list[Card | None]:
    """The trick core's card numbers as the deck's cards."""
    return [deck[i] for i in numbers]


class _KnockAnswered:
    """`_knock_played_on` for many deals of one knock, the engine's work shared: a knock,
    a stay and a fold read no card held (only the reference policy's answer does, from
    the asker's own cards and `seen`), so the game after the knock and each sequence of
    answers is forked and played once, and each deal walks them, its cards put in each
    position only for the policy to read. The same answers and costs as
    `_knock_played_on` deal by deal (tests/analytics/test_knocks_made.py), at a fork per
    sequence of answers met rather than per deal."""

    def __init__(self, game: Toepen, seat: int) -> None:
        self.game = game
        self.seat = seat
        knocked = game.fork()
        knocked.knock(seat)
        #: The game after the knock and the answers so far (True: stayed), by those answers.
        self.positions: dict[tuple[bool, ...], Toepen] = {(): knocked}

    def paid(self, deal: list[list[int]]) -> float:
        """What the knocker has paid in the hand by its end, the others holding `deal`."""
        return _knock_paid(self._answered(deal), self.seat, deal)

    def paid_each(self, deals: list[list[list[int]]]) -> list[float]:
        """`paid` of each of `deals`, the deals that end in the same position played out
        in one call to the trick core (`Toepen.last_trick_takers`)."""
        ending: dict[int, tuple[Toepen, list[int]]] = {}  # by the position's id
        for k, deal in enumerate(deals):
            position = self._answered(deal)
            ending.setdefault(id(position), (position, []))[1].append(k)
        costs = [0.0] * len(deals)
        for position, ks in ending.values():
            paid = _paid_by_the_end(position, self.seat, [deals[k] for k in ks])
            for k, cost in zip(ks, paid, strict=True):
                costs[k] = cost
        return costs

    def _answered(self, deal: list[list[int]]) -> Toepen:
        """The position after the knock's answers by the reference policy, the others
        holding `deal` (each position met is forked once, and kept)."""
        hands, seen = _supposed_hands(self.game, deal)
        answers: tuple[bool, ...] = ()
        position = self.positions[answers]
        while position.answer_queue:
            asked = position.answerers()[0]
            position.hands = hands
            position.seen = seen
            answers += (_ANSWER_POLICY.answer(position, asked, False) == "stay",)
            after = self.positions.get(answers)
            if after is None:
                after = position.fork()
                if answers[-1]:
                    after.stay(asked)
                else:
                    after.fold(asked)
                self.positions[answers] = after
            position = after
        return position


def _knock_paid(supposed: Toepen, seat: int, deal: list[list[int]]) -> float:
    """What `seat` has paid by the hand's end from `supposed`, the knock answered: the
    play-out of `deal` by the reference policy, unless everyone else folded."""
    return _paid_by_the_end(supposed, seat, [deal])[0]


def _paid_by_the_end(supposed: Toepen, seat: int, deals: list[list[list[int]]]) -> list[float]:
    """`_knock_paid` of each of `deals`, played out in one call to the trick core."""
    paid = float(supposed.paid_this_hand[seat])
    if supposed.phase not in ("preplay", "play"):  # everyone else folded: the hand is over
        return [paid] * len(deals)
    stake = supposed.stake
    return [
        paid if supposed.takes_hand(seat, taker) else paid + stake
        for taker in supposed.last_trick_takers(deals)
    ]


def _knock_played_on(game: Toepen, seat: int, deal: list[list[int]]) -> float:
    """What `seat` has paid in the hand by its end when `seat` knocks now in a copy of
    `game` whose players hold `deal` (the trick core's numbers, every seat in the hand):
    the answers by the reference policy, then the play-out (`knock_costs`). The reference
    of `_KnockAnswered`, a fork per deal, that the tests hold it to."""
    supposed = game.fork()
    supposed.hands, supposed.seen = _supposed_hands(game, deal)
    supposed.knock(seat)
    while supposed.answer_queue:
        asked = supposed.answerers()[0]
        if _ANSWER_POLICY.answer(supposed, asked, False) == "stay":
            supposed.stay(asked)
        else:
            supposed.fold(asked)
    return _knock_paid(supposed, seat, deal)


#: Deals per swap made (laundry, armoede), each played on twice (swapping and not) on the
#: same cards and the same checks: 16, as for a knock made (docs/STATS.md, "Swaps").
SWAP_SAMPLES = 16
#: The grades of a swap, by EV lost / the stake at the swap: an answer's, the same currency
#: (docs/STATS.md, "Swaps": what bot data and the sampling say of them).
SWAP_GRADES = GRADES


class SwapCosts(NamedTuple):
    """What swapping now (laundry, armoede), and keeping the hand, are expected to cost
    the swapper's side (`swap_costs`)."""

    #: The expected cost of the swap and of keeping the hand, in the game's lives or
    #: points: the checks and the penalty they bring, and the hand played on.
    swap: float
    keep: float
    #: Whether the hand laid down made the claim true (real laundry or armoede).
    genuine: bool


class _SwapReference(SharpBot):
    """The reference policy of a swap's play-outs: the sharp bot's answers, checks (at its
    `check_chance`, whatever the cards), swaps (only real laundry or armoede) and cards,
    and no knock, as in every verdict; the player judged swaps no more in the hand."""

    def __init__(self, seed: int, swaps: bool, checks: list[float]) -> None:
        super().__init__(seed)
        self.swaps = swaps
        #: Uniform draws for the checks, the last first (`SwapCosts`: drawn per deal, the
        #: same for both choices); once spent, the bot's own source (`Bot.rng`).
        self.checks = checks

    def wants_knock(self, game: Toepen, seat: int) -> bool:
        return False

    def check_draw(self) -> float:
        return self.checks.pop() if self.checks else super().check_draw()

    def wants_swap(self, game: Toepen, seat: int, genuine: bool) -> bool:
        return self.swaps and genuine


def swap_costs(
    game: Toepen,
    seat: int,
    kind: str,
    rng: random.Random,
    samples: int = SWAP_SAMPLES,
    seen: set[Card] | None = None,
) -> SwapCosts | None:
    """The swap `seat` makes now (`kind` "laundry": four new cards from the stock;
    "armoede": a redeal), against keeping the hand, seen from `seat`. None where the cards
    are unknown or there is no choice (the swap not allowed, or a real laundry the rules
    make `seat` swap).

    The cards `seat` could not see are dealt `samples` times: the others' hands, the
    stock, the cards laid aside. On each deal a copy of the game takes the swap through
    the engine (or not), and the hand is played to its end through the engine
    (`simulate.continue_hand`) by the reference policy at every seat (`_SwapReference`:
    who checks, and what a check costs, is the engine's ruling on it). The cost is what
    `seat`'s side paid in the hand by its end. Both choices are played on the same deals
    with the same draws for the checks, so their difference, the verdict, varies least."""
    hand = game.hands[seat]
    if any(c is None for c in hand):
        return None
    if kind == "laundry":
        if not game.can_laundry(seat) or game.must_swap(seat):
            return None
    elif kind != "armoede" or not game.can_armoede(seat):
        return None
    genuine = bool(game.claim_genuine(kind, hand))
    fixed, hidden, pool, top = _swapper_view(game, seat, seen)
    before = game.paid_this_hand[seat]
    swapping = keeping = 0.0
    # Each deal's position is made once, in `scratch`, and copied into `spare` (a fork
    # costs less than supposing the deal again): the swap is played on in the copy, the
    # hand kept in the position itself.
    scratch, spare = game.fork(), game.fork()
    for _ in range(samples):
        order = list(pool)
        shuffle(order, rng)
        seeds = [rng.getrandbits(32) for _ in range(game.n + 1)]
        checks = [[rng.random() for _ in range(_CHECK_DRAWS)] for _ in range(game.n)]
        position = _swap_position(game, fixed, hidden, (order, seeds, checks, top), scratch)
        copy = position.fork_into(spare)
        copy.rng = SeededAtFirstDraw(seeds[-1])  # a fork's source is its own: the same draws
        swapping += _swap_played_on(copy, seat, kind, seeds, checks) - before
        keeping += _swap_played_on(position, seat, None, seeds, checks) - before
    return SwapCosts(swapping / samples, keeping / samples, genuine)


def _swapper_view(
    game: Toepen, seat: int, seen: set[Card] | None = None
) -> tuple[list[list[int]], list[tuple[int, int, int]], list[Card], list[Card | None]]:
    """What `seat` knows before a swap (`_known_and_hidden`: the cards known to lie in
    each hand, and how many to deal each seat), the cards `seat` could not see, and the
    stock's known top (a false claim's new cards, back on it) as `seat` knows it: those
    `seat` was dealt lie there, None where the card is among the unseen. `seen`: as
    `win_chance`'s."""
    if seen is None:
        seen = seen_by(game, seat)
    dealt = [s for s in range(game.n) if game.dealt[s]]  # folded ones too: their cards lie
    fixed, hidden = _known_and_hidden(game, seat, seen, dealt)
    pool = [c for c in game.deck if c not in seen]
    top = [c if c is not None and c in seen else None for c in game.stock_top]
    return fixed, hidden, pool, top


def _swap_played_on(
    supposed: Toepen, seat: int, kind: str | None, seeds: list[int], checks: list[list[float]]
) -> float:
    """What `seat` has paid in the hand by its end when `seat` swaps now (`kind`; None:
    keeps the hand) in `supposed`, a position `_swap_position` supposed (played on in
    place), the bots drawing from `seeds` and the checks from the uniform draws `checks`."""
    if kind == "laundry":
        supposed.laundry(seat)
    elif kind == "armoede":
        supposed.armoede(seat)
    bots: list[Bot] = [
        _SwapReference(seeds[s], s != seat, list(checks[s])) for s in range(supposed.n)
    ]
    if not _PLAY_OUT_IN_THE_CORE:
        continue_hand(supposed, bots)
        return float(supposed.paid_this_hand[seat])
    # The swaps, checks and whistles through the engine; then, nobody knocking, the cards
    # by the reference policy, which the trick core plays as the sharp bot would.
    asked: set[object] = set()
    windows: list[object] = []
    continue_hand(supposed, bots, True, asked, windows)
    paid = float(supposed.paid_this_hand[seat])
    if supposed.phase not in ("preplay", "play"):
        return paid
    index = supposed.index
    deal = [[index[c] for c in held if c is not None] for held in supposed.hands]
    if supposed.deal_queue:
        # Cards still to come once a check is passed (`check_before_swap`): the engine
        # plays these on from where it stopped.
        continue_hand(supposed, bots, False, asked, windows)
        return float(supposed.paid_this_hand[seat])
    taker = supposed.last_trick_takers([deal])[0]
    return paid if supposed.takes_hand(seat, taker) else paid + supposed.stake


def _swap_position(
    game: Toepen,
    fixed: list[list[int]],
    hidden: list[tuple[int, int, int]],
    draws: tuple[list[Card], list[int], list[list[float]], list[Card | None]],
    scratch: Toepen | None = None,
) -> Toepen:
    """A copy of `game` as one of `swap_costs`' deals supposes it, before the swap: the
    others' unseen cards from the end of `draws`' order, the rest of it the stock, under
    the cards the swapper knows lie on top of it (`top`: `Toepen.stock_top` as the
    swapper knows it, None where unknown), the cards of another's open swap that the
    swapper has not seen supposed as well, and the game's source seeded from `draws`.
    Made in `scratch` (`Toepen.fork_into`) where given."""
    order, seeds, _checks, top = draws
    supposed = game.fork() if scratch is None else game.fork_into(scratch)
    deck = game.deck
    left = list(order)
    placed = (
        (other, _cards(deck, fixed[other]) + [left.pop() for _ in range(need)])
        for other, need, _void in hidden
    )
    _place(supposed.hands, supposed.seen, placed)
    supposed.shuffled = left  # the stock, and a redeal's shuffles, from here
    supposed.rng = SeededAtFirstDraw(seeds[-1])
    if top:  # the stock's known top, the unknown places in it from the unseen cards
        supposed.stock_top = []
        supposed.lay_on_stock([left.pop() if c is None else c for c in top])
    window = supposed.window  # the copy's own (`_fork_core`)
    if window is not None:
        # The hand another player laid down in a swap still open to a check: where the
        # swapper has not seen it (it is shown only when checked), it is supposed from
        # the unseen cards as the hands are, never the real one.
        unseen = set(order)
        window.cards = [left.pop() if c is None or c in unseen else c for c in window.cards]
    return supposed


#: The draws for the checks each reference bot has per deal of a swap's play-outs: a
#: bot asked more often than this (one check per swap it sees) seeds its own source.
_CHECK_DRAWS = 3


#: False: a swap's play-outs play every card through the engine (`continue_hand` to the
#: end), as the tests compare with the trick core's.
_PLAY_OUT_IN_THE_CORE = True


def grade(lost: float, stake: int, grades: tuple[tuple[str, float], ...] = GRADES) -> str | None:
    """The grade of a decision that lost `lost` in expectation at `stake` (`GRADES`, or
    `CALL_GRADES` for a trump call): "inaccuracy", "mistake", "blunder", or None for a
    sound one."""
    relative = lost / stake if stake > 0 else 0.0
    for name, least in grades:
        if relative >= least:
            return name
    return None


def accuracy(lost: float, stake: int) -> float:
    """How accurate a decision was, 0 to 1, from its EV lost relative to the stake: the
    curve lichess puts on the win percentage a chess move loses (docs/STATS.md), with
    100 × EV lost / stake in place of that percentage. A best decision is 1."""
    relative = lost / stake if stake > 0 else 0.0
    if relative <= 0:
        return 1.0
    value = 1.031668 * math.exp(-4.354 * relative) - 0.031669
    return min(1.0, max(0.0, value))


def deal_luck(
    game: Toepen,
    seat: int,
    rng: random.Random | Any,
    samples: int = LUCK_SAMPLES,
    seen: set[Card] | None = None,
) -> tuple[float, float] | None:
    """What `seat`'s cards are worth at the hand's first knock or card, seen from `seat`:
    (the chance of winning the hand with them, their luck = that chance above an average
    hand's, `Toepen.side_share`: positive for better cards). Under the reference policy
    (nobody knocks or folds) the side pays the stake unless it wins, so the cards save
    luck × stake in expectation. None where the cards are unknown. `seen` as
    `win_chance`'s."""
    chance = win_chance(game, seat, rng, samples, seen)
    if chance is None:
        return None
    return chance, chance - game.side_share()


def call_values(
    game: Troefcall, seat: int, rng: random.Random, samples: int = CALL_SAMPLES
) -> list[float] | None:
    """The value of naming each suit as trump (in `Suit` order) for the caller `seat`, in
    the game as it stands at the call: the caller's side's points less the other side's in
    this hand, averaged over `samples` deals of the cards the caller could not see (the
    cards still to come to them, and the others' hands), each played to the hand's end by
    the reference policy (`_CALL_POLICY`) through the engine. None where a card the caller
    held is unknown."""
    held = game.hands[seat]
    known: list[Card] = [c for c in held if c is not None]
    if len(known) != len(held) or game.phase != "call":
        return None
    hidden = [c for c in game.deck if c not in known]
    suits = list(Suit)
    totals = [0.0] * len(suits)
    for _ in range(samples):
        order = list(hidden)
        shuffle(order, rng)
        for i, suit in enumerate(suits):
            supposed = _supposed(game, seat, order)
            totals[i] += play_out_from(supposed, seat, TrumpCalled(seat, suit))[0]
    return [t / samples for t in totals]


def _supposed(game: Troefcall, seat: int, order: list[Card]) -> Troefcall:
    """A copy of `game` at the call in which every card `seat` cannot see comes from
    `order` (taken from its end, as a seeded deal takes them): the others' hands where they
    are dealt already (free trump call), and the rest of the deal, dealt as the engine
    deals a seeded game's."""
    supposed = game.fork()
    left = list(order)
    for other in range(len(supposed.hands)):
        if other != seat:
            supposed.hands[other] = [left.pop() for _ in supposed.hands[other]]
    supposed.shuffled = left
    supposed.rng = random.Random(0)  # dealing from `shuffled` draws nothing
    return supposed


#: Deals per announcement at seven in a row, every option played on the same deals: a
#: baunie's value is 17 points times a chance, so its standard error is at most
#: 17 × 0.5 / sqrt(ANNOUNCE_SAMPLES) = 1.06 points, and far less where the chance is
#: near 0 or 1, as it mostly is (docs/STATS.md, "Kap or baunie").
ANNOUNCE_SAMPLES = 64
#: The options at seven in a row, in the order they are stored: the announcements (each
#: an event's kind) and playing on without a word ("play").
ANNOUNCE_OPTIONS = ("kap", "baunie", "stop", "play")
#: The grades of a choice at seven in a row, by EV lost / the kap's points (the stake of
#: the choice): where the sampling alone stops reaching in a dead-even call, 1 time in 10,
#: 20 and 50 (`python bench/grades.py --announcements`; docs/STATS.md, "Kap or baunie").
ANNOUNCE_GRADES = (("blunder", 0.45), ("mistake", 0.4), ("inaccuracy", 0.3))


class AnnounceValues(NamedTuple):
    """What each option at seven in a row is worth to the one choosing (`announce_values`)."""

    #: The side's points less the other side's in the hand, expected, by option name.
    values: dict[str, float]
    #: The chance that a baunie takes every trick left (None: baunie was no option).
    baunie_chance: float | None


def announce_options(game: Troefcall, seat: int) -> dict[str, Event | None]:
    """The choices `seat` has now, at seven in a row (phase "announce"), by name
    (`ANNOUNCE_OPTIONS`): the announcements the engine allows `seat`, and playing on
    without a word where `seat` is to lead and the rules let play go on (None: the
    reference policy's card). Empty in any other phase."""
    if game.phase != "announce":
        return {}
    options: dict[str, Event | None] = {}
    for action in game.legal_actions():
        if getattr(action, "seat", None) != seat:
            continue
        if isinstance(action, CardPlayed):
            options["play"] = None
        else:
            options[action.kind] = action
    return {name: options[name] for name in ANNOUNCE_OPTIONS if name in options}


def play_out_from(game: Troefcall, seat: int, event: Event | None) -> tuple[int, bool]:
    """Play `game` (a copy with every hand dealt: at a trump call, at seven in a row) on
    from `seat`'s choice `event` (None: the reference policy's card) to the hand's end, the
    reference policy (`_CALL_POLICY`) choosing for every seat through the engine: (the
    side's points less the other side's in the hand, whether a baunie was scored)."""
    side = TEAMS[seat]
    before = list(game.scores)
    if event is None:
        event = CardPlayed(seat, _CALL_POLICY[seat].choose_card(game, seat))
    game.apply(event)
    play_on(game, _CALL_POLICY)
    ours = game.scores[side] - before[side]
    theirs = game.scores[1 - side] - before[1 - side]
    made = any(isinstance(e, Score) and e.reason is ScoreReason.BAUNIE for e in game.log)
    return ours - theirs, made


def announce_deals(game: Troefcall, seat: int) -> tuple[list[int], list[tuple[int, int, int]]]:
    """The cards `seat` cannot see at seven in a row, in the trick core's numbers, and
    the others' hands to deal them to (`trickcore.python_supposed`'s `hidden`)."""
    seen = seen_by(game, seat)
    pool = [i for i, c in enumerate(game.deck) if c not in seen]
    _, hidden = _known_and_hidden(game, seat, seen, range(game.n))
    return pool, hidden


def announce_with_deal(
    game: Troefcall,
    seat: int,
    hidden: list[tuple[int, int, int]],
    deal: list[list[int]],
    options: dict[str, Event | None],
) -> tuple[dict[str, int], bool]:
    """Each option's `play_out_from` with the others holding `deal` (the cards of
    `hidden`'s seats, in its order); and whether the baunie was made."""
    deck = game.deck
    values: dict[str, int] = {}
    made = False
    for name, event in options.items():
        supposed = game.fork()
        for (other, _need, _void), cards in zip(hidden, deal, strict=True):
            supposed.hands[other] = [deck[i] for i in cards]
        values[name], scored = play_out_from(supposed, seat, event)
        if name == "baunie":
            made = scored
    return values, made


def announce_values(
    game: Troefcall, seat: int, rng: random.Random, samples: int = ANNOUNCE_SAMPLES
) -> AnnounceValues | None:
    """The value of each choice `seat` has at seven in a row (`announce_options`), from
    what `seat` could see: their own cards, the cards played, the suits each player
    showed out of. The others' cards are dealt `samples` times, every deal that keeps
    those voids equally likely (`trickcore.python_supposed`), and each option is played
    to the hand's end on the same deals (`announce_with_deal`). None where `seat` has no
    choice (fewer than two options) or a card `seat` held is unknown."""
    options = announce_options(game, seat)
    if len(options) < 2 or any(c is None for c in game.hands[seat]):
        return None
    pool, hidden = announce_deals(game, seat)
    totals = dict.fromkeys(options, 0.0)
    made = 0
    draws = trickcore.draws(rng)
    try:
        for _ in range(samples):
            deal = trickcore.python_supposed(hidden, pool, game.ranks, draws)
            values, scored = announce_with_deal(game, seat, hidden, deal, options)
            for name, value in values.items():
                totals[name] += value
            made += scored
    finally:
        draws.finish()
    chance = made / samples if "baunie" in options else None
    return AnnounceValues({name: t / samples for name, t in totals.items()}, chance)
