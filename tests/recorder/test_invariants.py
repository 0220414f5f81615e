"""Random games checked after every event.

A seeded engine plays random legal actions (every kind: knocks, counter-knocks,
laundry, armoede, checks, whistles). After each action:

- a second engine, fed the same events from outside (the replay path), must
  reach an identical state;
- a sample of random actions must be accepted exactly when `legal_actions()`
  lists them, so no illegal action is ever accepted.

Each finished log is then audited by `Auditor`, an independent reading of the
rules that does not use the engine: distinct cards, trick winners, fold costs,
and the costs of every hand under the preset's scoring.
"""

from __future__ import annotations

import random
import re

import pytest

from kroeg.recorder.cards import TOEPEN_DECK, Rank
from kroeg.recorder.errors import IllegalActionError
from kroeg.recorder.events import (
    Armoede,
    CardPlayed,
    Check,
    Event,
    Fold,
    HandStart,
    Knock,
    Laundry,
    Redeal,
    Stay,
    Whistle,
)
from kroeg.recorder.rules import Ruleset
from kroeg.recorder.toepen import Toepen

POWER = {rank: 8 - i for i, rank in enumerate("T987AKQJ")}
ALL_VARIANTS = {
    "classic": (
        "poverty",
        "whistling",
        "dirty-laundry",
        "face-up",
        "play-to-end",
        "mandatory-discard",
    ),
    "lives": ("whistle-or-stand-jacks", "first-speaker-waits", "fast-fold"),
}


class Auditor:
    """Checks a Toepen log against the rules, reading events only."""

    def __init__(self, rules: Ruleset, players: int) -> None:
        self.rules = rules
        self.n = players
        # Team toepen: partners opposite (read from the seeds, not from the engine).
        half = players // 2
        self.side = [s % half if rules.teams else s for s in range(players)]

    def audit(self, log: list[Event]) -> None:
        hand: list[Event] = []
        for event in log:
            if event.kind == "hand_start" and hand:
                self.audit_hand(hand)
                hand = []
            hand.append(event)
        if hand and hand[0].kind == "hand_start":
            self.audit_hand(hand)

    def audit_hand(self, events: list[Event]) -> None:
        kinds = [e.kind for e in events]
        if "hand_end" not in kinds:
            return  # the game was cut short mid-hand
        seen: set[str] = set()
        folded: set[int] = set()
        chose_to_fold: set[int] = set()
        knocker: int | None = None
        dealt: set[int] = set()
        stake = events[0].stake  # type: ignore[attr-defined]
        trick: list[tuple[int, str]] = []
        last_winner = None
        expect_pay: list[tuple[int, int]] = []
        # Laundry and its checks (read from the seeds and docs/RULES.md, not the engine):
        # each seat's cards, the stock, and the last claim (seat, old hand, new cards).
        hands: dict[int, list[str]] = {}
        stock = 32
        claim: tuple[int, list[str], list[str]] | None = None
        armoede: int | None = None
        for i, event in enumerate(events):
            row = event.to_row()
            kind, seat, card = row[0], row[1], row[2]
            if kind == "deal":
                if card in seen:
                    raise AssertionError(f"{card} dealt twice in a hand")
                seen.add(card)
                dealt.add(seat)
                hands.setdefault(seat, []).append(card)
                stock -= 1
                if claim is not None and claim[0] == seat:
                    claim[2].append(card)
            elif kind == "redeal":
                seen.clear()
                dealt.clear()
                hands.clear()
                stock, claim, armoede = 32, None, None
            elif kind == "laundry":
                # Four cards must be left in the stock (a claim caught before its swap, or
                # sent back, left them there).
                assert stock >= 4, f"laundry with {stock} cards in the stock"
                claim = (seat, hands.pop(seat, []), [])
                armoede = None
            elif kind == "armoede":
                claim, armoede = None, seat
            elif kind == "check" and claim is not None and event.target == claim[0]:  # type: ignore[attr-defined]
                swapper, old, new = claim
                claim = None
                if len(new) < 4:  # checked before (all) the new cards were dealt
                    assert self.rules.check_before_swap and not new, "check amid the swap"
                genuine = event.genuine  # type: ignore[attr-defined]
                faces = sum(c[0] in "AKQJ" for c in old)
                sevens = sum(c[0] == "7" for c in old)
                laundry = faces == 4 or (self.rules.dirty_laundry and faces == 3 and sevens == 1)
                assert genuine == int(laundry), f"check of {old} said genuine={genuine}"
                shown = [e.to_row() for e in events[i + 1 : i + 5]]
                assert shown == [("reveal", swapper, c, None, None) for c in old]
                payer = event.seat if genuine else swapper  # type: ignore[attr-defined]
                penalty = self.rules.check_penalty
                assert events[i + 5].to_row() == ("pay", payer, None, penalty, None)
                if not genuine and self.rules.check_before_swap:
                    # Nothing swapped, nothing laid aside: the new cards (if any) are the
                    # stock's again, and no new card follows for the swapper.
                    hands[swapper] = list(old)
                    seen.difference_update(new)
                    stock += len(new)
                    later = events[i + 6] if i + 6 < len(events) else None
                    assert later is None or later.to_row()[:2] != ("deal", swapper)
                elif not genuine and self.rules.false_swap_undone:
                    hands[swapper] = list(old)  # the new cards stay aside (still seen)
                elif len(new) < 4:
                    claim = (swapper, old, new)  # genuine: the swap goes on
                    following = [e.to_row()[:2] for e in events[i + 6 : i + 10]]
                    assert following == [("deal", swapper)] * 4
            elif kind == "check":
                assert armoede is not None and event.target == armoede  # type: ignore[attr-defined]
            elif kind == "knock":
                assert event.stake == stake + 1  # type: ignore[attr-defined]
                stake += 1
                knocker = seat
            elif kind == "fold":
                assert event.stake == stake - 1, "a fold pays the stake from before its knock"  # type: ignore[attr-defined]
                assert events[i + 1].to_row() == ("pay", seat, None, stake - 1, None)
                folded.add(seat)
                chose_to_fold.add(seat)
                if self.rules.folded_card_leaves:  # the card goes with its player
                    trick = [(s, c) for s, c in trick if s != seat]
            elif kind == "eliminated":
                folded.add(seat)  # out at once (check_out_at_once): out of the hand too
            elif kind == "play":
                assert seat not in folded, f"{seat} played after folding"
                held = hands.get(seat, [])
                if None not in held:  # every card known: it comes from the hand
                    assert card in held, f"{seat} played {card}, holding {held}"
                    held.remove(card)
                trick.append((seat, card))
            elif kind == "trick":
                live = [(s, c) for s, c in trick if s not in folded]
                led = trick[0][1][1]
                following = [(s, c) for s, c in live if c[1] == led]
                best = (
                    max(following, key=lambda sc: POWER[sc[1][0]])[0] if following else live[0][0]
                )
                assert seat == best, f"trick {trick} went to {seat}, not {best}"
                last_winner = seat
                trick = []
            elif kind == "hand_end":
                assert event.stake == stake  # type: ignore[attr-defined]
                in_hand = sorted(dealt - folded)
                side = self.side
                verdict: list[tuple[object, ...]] = []
                if len({side[s] for s in in_hand}) == 1:
                    assert seat in in_hand  # everyone else folded (or only partners are left)
                    winners = in_hand
                    opponents = {s for s in dealt if side[s] != side[seat]}
                    # (poverty's opening stake of 2 is no knock: folding to it says nothing)
                    if knocker == seat and opponents <= chose_to_fold:
                        # every opponent folded to the knock: the engine says so
                        verdict = [("all_folded", seat, None, None, None)]
                else:
                    assert seat == last_winner
                    if self.rules.last_trick == "wins":
                        winners = [s for s in in_hand if side[s] == side[seat]]
                        losers = [s for s in in_hand if side[s] != side[seat]]
                        # each losing side pays once (a player alone is a side of one)
                        firsts = {}
                        for s in sorted(losers, key=lambda s: (s - seat) % self.n):
                            firsts.setdefault(side[s], s)
                        expect_pay = [(s, stake) for s in firsts.values()]
                    else:
                        expect_pay = [(seat, stake)]
                        winners = [s for s in in_hand if side[s] != side[seat]]
                # The hand's winners are recorded just before its end, in seat order.
                wins = [e.to_row() for e in events[i - len(winners) : i]]
                assert wins == [("win", s, None, None, None) for s in winners]
                i -= len(winners)
                said = [e.to_row() for e in events[i - len(verdict) : i]]
                assert said == verdict and events[i - 1 - len(verdict)].kind != "all_folded"
                i -= len(verdict)
                pays = [e.to_row() for e in events[i - len(expect_pay) : i]]
                assert sorted((p[1], p[3]) for p in pays) == sorted(expect_pay)
                assert all(p[0] == "pay" for p in pays)


def verify(game: Toepen, event: Event) -> bool:
    """Does the engine accept `event` now? (Asks verify_*, changes nothing.)"""
    calls = {
        "hand_start": lambda e: game.verify_start_hand(e.seat),
        "play": lambda e: game.verify_play(e.seat, e.card),
        "knock": lambda e: game.verify_knock(e.seat),
        "stay": lambda e: game.verify_stay(e.seat),
        "fold": lambda e: game.verify_fold(e.seat),
        "laundry": lambda e: game.verify_laundry(e.seat),
        "armoede": lambda e: game.verify_armoede(e.seat),
        "check": lambda e: game.verify_check(e.seat, e.target),
        "redeal": lambda e: game.verify_redeal(e.seat),
        "whistle": lambda e: game.verify_whistle(e.seat, e.rank, e.count),
    }
    try:
        calls[event.kind](event)
    except IllegalActionError:
        return False
    return True


def random_candidates(game: Toepen, rng: random.Random, k: int) -> list[Event]:
    seats = range(game.n)
    makers = [
        lambda s: HandStart(s, 1),
        lambda s: CardPlayed(s, rng.choice(TOEPEN_DECK)),
        lambda s: Knock(s, game.stake + 1),
        lambda s: Stay(s),
        lambda s: Fold(s, game.stake - 1),
        lambda s: Laundry(s),
        lambda s: Armoede(s),
        lambda s: Check(s, 0, rng.choice(seats)),
        lambda s: Redeal(s),
        lambda s: Whistle(s, rng.choice((Rank.TEN, Rank.JACK)), rng.choice((3, 4))),
    ]
    return [rng.choice(makers)(rng.choice(seats)) for _ in range(k)]


def same_action(a: Event, b: Event) -> bool:
    if a.kind != b.kind:
        return False
    if a.kind in ("check",):
        return a.seat == b.seat and a.target == b.target  # type: ignore[attr-defined]
    if a.kind in ("hand_start", "knock", "fold"):
        return a.seat == b.seat  # type: ignore[attr-defined]
    return a == b


def fuzz_game(rules: Ruleset, players: int, seed: int, max_steps: int = 1500) -> Toepen:
    rng = random.Random(seed)
    game = Toepen(rules, [f"P{i}" for i in range(players)], seed=seed)
    mirror = Toepen(rules, game.players)
    fed = 0
    for _ in range(max_steps):
        legal = game.legal_actions()
        for candidate in random_candidates(game, rng, 4):
            listed = any(same_action(candidate, e) for e in legal)
            assert verify(game, candidate) == listed, (candidate, listed, game.where())
        if not legal:
            assert game.over
            break
        # Pick a kind first, so rare actions (laundry, checks, whistles) get their turn;
        # knocks less often, so that hands still finish.
        by_kind: dict[str, list[Event]] = {}
        for event in legal:
            by_kind.setdefault(event.kind, []).append(event)
        kinds = sorted(by_kind)
        if "knock" in by_kind and len(kinds) > 1 and rng.random() < 0.7:
            kinds.remove("knock")
        action = rng.choice(by_kind[rng.choice(kinds)])
        game.apply(action)
        while fed < len(game.log):
            event = game.log[fed]
            if fed >= len(mirror.log):
                mirror.apply(event)
            assert mirror.log[fed] == event
            fed += 1
        assert mirror.snapshot() == game.snapshot()
    Auditor(rules, players).audit(game.log)
    return game


@pytest.mark.parametrize("preset", ["classic", "lives"])
@pytest.mark.parametrize("players", [3, 4, 5, 6, 7, 8])
def test_random_games_keep_every_invariant(preset: str, players: int) -> None:
    rules = Ruleset.preset(preset)
    for seed in range(3):
        game = fuzz_game(rules, players, seed=1000 * players + seed)
        assert game.hand_no >= 1


@pytest.mark.parametrize("preset", ["classic", "lives"])
def test_random_games_with_every_variant_on(preset: str) -> None:
    rules = Ruleset.preset(preset).with_variants(*ALL_VARIANTS[preset])
    for seed in range(8):
        fuzz_game(rules, 4, seed=seed)


#: The house rules a club may switch on, each alone or with any of the others.
HOUSE_RULES = (
    "knock-on-turn",
    "laundry-before-knock",
    "false-swap-undone",
    "folded-card-leaves",
    "check-out-at-once",
    "cut-for-dealer",
    "check-before-swap",
)


@pytest.mark.parametrize("preset", ["classic", "lives"])
@pytest.mark.parametrize("chosen", range(2 ** len(HOUSE_RULES)))
def test_random_games_with_every_combination_of_house_rules(preset: str, chosen: int) -> None:
    flags = [name for i, name in enumerate(HOUSE_RULES) if chosen >> i & 1]
    rules = Ruleset.preset(preset).with_variants(*flags)
    if chosen % 3 == 0:  # with the seed variants on too, now and then
        rules = rules.with_variants(*ALL_VARIANTS[preset])
    players = 3 + chosen % 4
    for seed in range(2):
        fuzz_game(rules, players, seed=chosen * 10 + seed, max_steps=600)


@pytest.mark.parametrize("players", [4, 6])
@pytest.mark.parametrize("house", [(), ("check-out-at-once", "folded-card-leaves")])
def test_random_team_toepen_games_keep_every_invariant(players: int, house: tuple[str, ...]):
    for base in ("lives", "classic"):
        rules = Ruleset.preset(base).with_variants("team-toepen", *house)
        for seed in range(4):
            game = fuzz_game(rules, players, seed=100 * players + seed)
            assert game.hand_no >= 1


def test_every_house_rule_is_fuzzed() -> None:
    """The house rules docs/RULES.md lists are the ones fuzzed above, each a variant."""
    from pathlib import Path

    from kroeg.recorder.rules import VARIANTS

    rules_md = Path(__file__).resolve().parents[2] / "docs" / "RULES.md"
    section = rules_md.read_text(encoding="utf-8").split("## House rules")[1].split("\n## ")[0]
    documented = re.findall(r"^\| `([a-z-]+)` \|", section, flags=re.M)
    assert documented == list(HOUSE_RULES)
    assert all(name in VARIANTS for name in HOUSE_RULES)


def test_auditor_catches_a_wrong_trick_winner() -> None:
    rules = Ruleset.preset("classic")
    game = fuzz_game(rules, 4, seed=3, max_steps=300)
    log = list(game.log)
    index = next(i for i, e in enumerate(log) if e.kind == "trick")
    import dataclasses

    log[index] = dataclasses.replace(log[index], seat=(log[index].seat + 1) % 4)  # type: ignore[attr-defined]
    with pytest.raises(AssertionError):
        Auditor(rules, 4).audit(log)


@pytest.mark.parametrize(
    ("preset", "variants"),
    [("classic", []), ("lives", []), ("classic", ["team-toepen"]),
     ("troefcall", []), ("troefcall", ["silent-kap"]), ("troefcall", ["no-baunie"])],
)  # fmt: skip
def test_a_replays_scores_read_from_the_rows_agree_with_the_engine_at_rest(
    preset: str, variants: list[str]
) -> None:
    """Replayed a row at a time, the scores read from the pay and score rows so far
    (`Replay.score_texts`) are the engine's own wherever the log has caught up with what
    the engine recorded: the rows are the facts the state was built from."""
    from kroeg.recorder.referee import Replay
    from kroeg.recorder.simulate import simulate

    rules = Ruleset.resolve(preset, variants)
    at_rest = 0
    for record in simulate(rules, 4, 4, seed=3):
        rebuilt = Replay(record.rules, record.players)
        for event in record.events:
            rebuilt.feed(event)
            game = rebuilt.game
            if rebuilt.count == len(game.log):
                at_rest += 1
                assert rebuilt.score_texts() == tuple(game.score_text(s) for s in range(4))
    assert at_rest > 100
