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
from typing import Any, NamedTuple

from kroeg.recorder import trickcore
from kroeg.recorder.cards import Card, Suit
from kroeg.recorder.toepen import Toepen
from kroeg.recorder.trickcore import shuffle
from kroeg.recorder.tricks import suit_number
from kroeg.recorder.troefcall import TEAMS, Troefcall
from kroeg.recorder.troefcall_bots import TroefcallBot, make_troefcall_bot, play_on

__all__ = [
    "CALL_GRADES", "CALL_SAMPLES", "CALL_STAKE", "GRADES", "LUCK_SAMPLES", "SAMPLES",
    "AnswerCosts", "accuracy", "answer_costs", "call_values", "deal_luck", "fold_regret",
    "grade", "knock_strength", "seen_by", "shuffle", "win_chance",
]  # fmt: skip

#: Playouts per knock. The standard error of a strength is at most 0.5 / sqrt(SAMPLES).
SAMPLES = 48

#: Playouts per player for the luck of a deal: a correction to the result, unbiased however
#: few; 16 keep its cost to a third of a knock's (docs/STATS.md, "Luck").
LUCK_SAMPLES = 16

#: The grades of an answer to a knock, by its EV lost relative to the stake (EV lost /
#: stake at least this): docs/STATS.md, "Grades", says how they were chosen from bot data.
GRADES = (("blunder", 0.5), ("mistake", 0.4), ("inaccuracy", 0.25))

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


def _deal_start(game: Toepen) -> int:
    """Where the cards now held were dealt: the hand's start, or its last redeal (after
    armoede every card goes back and is dealt again)."""
    log = game.log
    for i in range(len(log) - 1, -1, -1):
        if log[i].kind in ("hand_start", "redeal"):
            return i
    return 0


def seen_by(game: Toepen, seat: int) -> set[Card]:
    """The cards `seat` has seen of the cards now in play: their own, and every card
    played or shown since the cards now held were dealt."""
    seen: set[Card] = set()
    for event in game.log[_deal_start(game) :]:
        kind, who, card, _, _ = event.to_row()
        if card is not None and (kind in ("play", "reveal") or (kind == "deal" and who == seat)):
            seen.add(Card.parse(card))
    seen.update(c for c in game.hands[seat] if c is not None)
    return seen


def knock_strength(
    game: Toepen, seat: int, rng: random.Random | Any, samples: int = SAMPLES
) -> float | None:
    """The knocker's chance of winning from here, seen from the knocker's seat (None: unknown)."""
    return win_chance(game, seat, rng, samples)


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
    index = game.index
    # What `seat` knows each player holds: their own cards, and the others' cards `seat`
    # saw shown and not played (a hand played face up); the rest of each hand is dealt
    # from the unseen cards, the players who showed out of more suits first.
    fixed: list[list[int]] = [[] for _ in range(game.n)]
    hidden: list[tuple[int, int, int]] = []
    for s in game.seats_in_hand():
        if s == seat:
            fixed[s] = [index[c] for c in own if c is not None]
            continue
        fixed[s] = [index[c] for c in game.hands[s] if c is not None and c in seen]
        need = len(game.hands[s]) - len(fixed[s])
        if need > 0:
            void = 0
            for suit in game.voids[s]:
                void |= 1 << suit_number(suit)
            hidden.append((s, need, void))
    hidden.sort(key=lambda h: -bin(h[2]).count("1"))  # stable: by seat among equals
    if not isinstance(rng, random.Random):  # the game's draws (`trickcore.draws`), kept
        takers = game.sampled_last_trick_takers(fixed, hidden, pool, samples, rng)
    else:
        draws = trickcore.draws(rng)  # rng.shuffle's draws (in C where the twin runs)
        try:
            takers = game.sampled_last_trick_takers(fixed, hidden, pool, samples, draws)
        finally:
            draws.finish()
    wins = 0
    for taker in takers:
        if game.takes_hand(seat, taker):
            wins += 1
    return wins / samples


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
    game: Toepen, seat: int, rng: random.Random | Any, samples: int = SAMPLES
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
    game: Toepen, seat: int, rng: random.Random | Any, samples: int = LUCK_SAMPLES
) -> tuple[float, float] | None:
    """What `seat`'s cards are worth at the hand's first knock or card, seen from `seat`:
    (the chance of winning the hand with them, their luck = that chance above an average
    hand's, `Toepen.side_share`: positive for better cards). Under the reference policy
    (nobody knocks or folds) the side pays the stake unless it wins, so the cards save
    luck × stake in expectation. None where the cards are unknown."""
    chance = win_chance(game, seat, rng, samples)
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
    side = TEAMS[seat]
    suits = list(Suit)
    totals = [0.0] * len(suits)
    for _ in range(samples):
        order = list(hidden)
        shuffle(order, rng)
        for i, suit in enumerate(suits):
            supposed = _supposed(game, seat, order)
            before = list(supposed.scores)
            supposed.call_trump(seat, suit)
            play_on(supposed, _CALL_POLICY)
            ours = supposed.scores[side] - before[side]
            theirs = supposed.scores[1 - side] - before[1 - side]
            totals[i] += ours - theirs
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
