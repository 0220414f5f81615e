"""Rule sets: every parameter of `shared/RULES.md` as one immutable value.

Behaviour follows parameters, never preset names: the engine reads
`rules.last_trick`, `rules.knock_limit`, … and nothing else. Presets are
just ready-made values, and variants are named bundles of parameter
changes, so a club can write its own rule set as JSON:

    {"name": "De Gouden Leeuw", "base": "classic", "variants": ["poverty"], "lives": 15}

`Ruleset.to_json()` always writes every resolved parameter, so a stored
rule set needs no preset table to be read back.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Sequence
from dataclasses import asdict, dataclass, fields, replace
from pathlib import Path
from typing import Any, Literal

from kroeg.recorder.atomic import write_text_atomic
from kroeg.recorder.cards import Rank
from kroeg.recorder.errors import RulesError
from kroeg.recorder.text import quoted, text_problem, unknown_choice

__all__ = [
    "MAX_STAKE",
    "PRESETS",
    "RANGES",
    "TROEFCALL_VARIANTS",
    "VARIANTS",
    "Ruleset",
    "partners_opposite",
    "shared_lives",
]

LastTrick = Literal["wins", "loses"]
GameEndRule = Literal["first_out_loses", "last_standing"]
FirstDealer = Literal["random", "cut", "jack"]
NextDealer = Literal["winner", "left"]
KnockLimit = Literal["new_stake", "stake", "none"]
ScoreDisplay = Literal["points", "lives"]

#: The highest stake a hand can reach under any rule set: a knock beyond it is refused
#: (`Toepen.knock`), so every stake, fold and pay fits the log's 16-bit `amount`.
MAX_STAKE = 999

#: The lowest and highest value of every whole-number parameter (docs/RULES.md, "The
#: ranges of the parameters"): checked whenever a rule set is made, so at every door (a
#: rules file, a typed log's `rules:` line, a JSON Lines header, `kroeg record`,
#: `kroeg simulate`). The bounds keep every number a game records within its column
#: (docs/FORMAT.md): a stake, a pay, a score within `amount` (int16), and the hands of
#: one game within `hand` (int16) — each hand costs somebody at least 1 (Toepen) or
#: scores a side at least 1 point (Troefcall), so a game lasts at most 8 × 999 hands.
RANGES: dict[str, tuple[int, int]] = {
    "min_players": (2, 8),
    "max_players": (2, 8),
    "lives": (1, 999),
    "stake_cap": (1, MAX_STAKE),
    "hand_size": (1, 13),
    "check_penalty": (1, 99),
    "target_score": (1, 999),
    "fixed_hands": (1, 999),
    "kap_tricks": (1, 13),
    "kap_points": (1, 99),
    "partner_kap_points": (1, 99),
    "majority_points": (1, 99),
    "baunie_points": (1, 99),
    "failed_baunie_points": (1, 99),
}

#: The parameters that may also be null (JSON), None in Python.
_OPTIONAL = frozenset({"stake_cap", "target_score", "fixed_hands"})
#: The largest rules file read (bytes): a club's rule set is a few hundred.
MAX_RULES_FILE = 1_000_000

_CHOICES: dict[str, tuple[str, ...]] = {
    "game": ("toepen", "troefcall"),
    "score_display": ("points", "lives"),
    "last_trick": ("wins", "loses"),
    "game_end": ("first_out_loses", "last_standing"),
    "first_dealer": ("random", "cut", "jack"),
    "next_dealer": ("winner", "left"),
    "knock_limit": ("new_stake", "stake", "none"),
}


@dataclass(frozen=True)
class Ruleset:
    """Every rule parameter of a Toepen (or Troefcall) game; see docs/RULES.md."""

    name: str = "classic"
    game: str = "toepen"
    min_players: int = 3
    max_players: int = 8
    #: Penalty-point limit (points) or starting lives (lives): the same budget either way.
    lives: int = 10
    #: How scores are shown: penalty points counting up, or lives counting down.
    score_display: ScoreDisplay = "points"
    #: Whether the winner of the 4th trick wins the hand (others pay) or loses it (pays).
    last_trick: LastTrick = "wins"
    #: first_out_loses: the first to run out loses, game over; last_standing: they drop out.
    game_end: GameEndRule = "first_out_loses"
    first_dealer: FirstDealer = "random"
    next_dealer: NextDealer = "winner"
    #: new_stake: may knock only if losing the new stake stays within the budget;
    #: stake: may not knock with fewer lives than the current stake; none: no limit.
    knock_limit: KnockLimit = "new_stake"
    #: Highest stake a hand can reach (None: no cap). 1 means no knocking at all.
    stake_cap: int | None = None
    #: A player answering a knock may raise at once; answers then go round again.
    counter_knock: bool = False
    #: A player may knock again before someone else has knocked.
    knock_twice: bool = False
    #: House rule: the first player to speak may not knock before a card is played.
    first_speaker_waits: bool = False
    #: Answers to a knock come in any order instead of clockwise from the knocker's left.
    fast_fold: bool = False
    #: Laundry (witte was): swap a hand of only A/K/Q/J for 4 cards from the stock.
    laundry: bool = True
    #: Dirty laundry (vuile was): three of A/K/Q/J plus one 7 may be swapped too.
    dirty_laundry: bool = False
    #: Malay seed: a real laundry hand must be swapped while the stock lasts.
    laundry_mandatory: bool = False
    #: A player caught swapping a hand that was not laundry plays the new hand face up.
    face_up_penalty: bool = False
    #: Armoede: declare a hand of only J/Q/K/A and demand a redeal by the same dealer.
    armoede: bool = False
    #: Poverty: a player one short of the budget starts the hand at stake 2 and leads.
    poverty: bool = False
    #: House rule: a player knocks only when it is their turn to play a card (a
    #: counter-knock, which answers a knock, is still allowed where the rules have it).
    knock_on_turn: bool = False
    #: House rule: laundry only before any knock in the hand, and once per player.
    laundry_before_knock: bool = False
    #: House rule: a swap checked and found false is undone: the swapper takes the old
    #: hand back, and the new cards are laid aside.
    false_swap_undone: bool = False
    #: House rule: a laundry claim is checked before the swap counts: a false claim caught
    #: swaps nothing, and the new cards (if already dealt) go back to the stock.
    check_before_swap: bool = False
    #: House rule: a folded player's card leaves the trick; the first card still on the
    #: table gives the suit to follow (none left: the next player still in leads afresh).
    folded_card_leaves: bool = False
    #: House rule: a check penalty that takes a player to the limit puts them out at once
    #: (the game ends if the first out loses), not at the end of the hand.
    check_out_at_once: bool = False
    #: Team toepen (seeds 000/001): 4 or 6 players in fixed partnerships, partners seated
    #: opposite, each side sharing one pool of `lives`.
    teams: bool = False
    #: Ranks of which three or four in hand must be announced by whistling (4: standing up).
    whistle_must: tuple[Rank, ...] = ()
    #: Ranks of which three or four may be announced.
    whistle_may: tuple[Rank, ...] = ()
    #: A holder of three or four may whistle or stand up, either (seeds 000/001); without
    #: it three is a whistle and four is standing up (seed 003).
    whistle_or_stand: bool = False
    #: Cards per hand and tricks per hand.
    hand_size: int = 4
    #: Cost of a lost check (laundry or armoede), paid by the checker or the swapper.
    check_penalty: int = 1
    # -- Troefcall (ignored by Toepen) ---------------------------------------------------------
    #: Points a side needs to win the game (None: play `fixed_hands` hands).
    target_score: int | None = 20
    #: Play exactly this many hands, the side ahead wins (None: play to `target_score`).
    fixed_hands: int | None = None
    #: The caller names trump after all 13 cards are dealt, not after the first 5.
    free_trump_call: bool = False
    #: Winning the first 7 tricks scores 5 with no announcement.
    silent_kap: bool = False
    #: A side that swept the first `kap_tricks` tricks may announce baunie and go for all.
    baunie: bool = True
    #: Tricks a side must win in a row from the first for kap partij.
    kap_tricks: int = 7
    #: What each result scores: kap by the last of those tricks' winner, kap by the partner,
    #: the majority of tricks, a baunie made, a baunie failed (to the other side).
    kap_points: int = 5
    partner_kap_points: int = 2
    majority_points: int = 2
    baunie_points: int = 15
    failed_baunie_points: int = 2

    def __post_init__(self) -> None:
        problem = (
            text_problem("a rule set's name", self.name)
            if isinstance(self.name, str)
            else f"a rule set's name must be text, found {quoted(self.name)}"
        )
        if problem is not None:
            raise RulesError(problem)
        for key, allowed in _CHOICES.items():
            value = getattr(self, key)
            if not isinstance(value, str) or value not in allowed:
                raise RulesError(
                    f"rule {key} = {quoted(value)} is not valid: expected one of "
                    f"{', '.join(allowed)}"
                )
        for key, (low, high) in RANGES.items():
            value = getattr(self, key)
            if value is None and key in _OPTIONAL:
                continue
            if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
                raise RulesError(
                    f"rule {key} takes a whole number from {low} to {high}"
                    f"{' (or null)' if key in _OPTIONAL else ''}, found {quoted(value)}"
                )
        if not 2 <= self.min_players <= self.max_players <= 8:
            raise RulesError(
                f"players must satisfy 2 <= min_players <= max_players <= 8, "
                f"found {self.min_players}..{self.max_players}"
            )
        if self.poverty and self.stake_cap is not None and self.stake_cap < 2:
            raise RulesError("poverty needs a stake cap of at least 2")
        if (
            self.teams
            and self.game == "toepen"
            and not (self.min_players <= 6 and self.max_players >= 4)
        ):
            raise RulesError("team toepen is played by 4 or 6 players")
        if self.game == "toepen" and self.first_dealer == "jack":
            raise RulesError("first_dealer 'jack' (the first Jack dealt face up) is Troefcall's")
        if self.game == "troefcall":
            if self.min_players != 4 or self.max_players != 4 or self.hand_size != 13:
                raise RulesError("troefcall is played by exactly 4 players with 13 cards each")
            if self.target_score is None and self.fixed_hands is None:
                raise RulesError("troefcall needs a target_score, a number of fixed_hands, or both")
        # JSON gives lists and strings; keep the value hashable and typed.
        for key in ("whistle_must", "whistle_may"):
            value = getattr(self, key)
            try:
                ranks = tuple(Rank.parse(str(r)) for r in value)
            except ValueError as exc:
                raise RulesError(f"rule {key}: {exc}") from None
            object.__setattr__(self, key, ranks)

    # -- presets and variants -------------------------------------------------------------

    @classmethod
    def preset(cls, name: str) -> Ruleset:
        """The named preset: `classic`, `lives` or `troefcall`."""
        try:
            return PRESETS[name]
        except KeyError:
            raise RulesError(unknown_choice("rule preset", name, sorted(PRESETS))) from None

    def with_variants(self, *names: str) -> Ruleset:
        """This rule set with the named variants applied, in order."""
        rules = self
        for name in names:
            key = name.strip().lower().replace("_", "-")
            if key not in VARIANTS:
                raise RulesError(unknown_choice("variant", name, sorted(VARIANTS)))
            if (key in TROEFCALL_VARIANTS) != (rules.game == "troefcall"):
                raise RulesError(f"variant {quoted(name)} is not a {rules.game} variant")
            applied = (*rules.variants, key)
            rules = replace(rules, **VARIANTS[key])
            object.__setattr__(rules, "_variants", applied)
        return rules

    @property
    def variants(self) -> tuple[str, ...]:
        """The variants this rule set was made with, by name. A stored rule set is its
        parameters alone: read back, a preset's variants are found from them (those
        whose every change it holds, the most specific of overlapping ones)."""
        value: tuple[str, ...] | None = self.__dict__.get("_variants")
        if value is None:
            value = _variants_held(self)
            object.__setattr__(self, "_variants", value)
        return value

    @property
    def label(self) -> str:
        """The name with the variants applied: `lives + gezinstoepen`."""
        return " + ".join((self.name, *self.variants))

    @property
    def unit(self) -> str:
        """What a score counts, in words: `penalty points` or `lives` (Toepen, as
        `score_display` says), `points` (Troefcall's, a side's). Figures in two units
        are never added up."""
        if self.game == "troefcall":
            return "points"
        return "lives" if self.score_display == "lives" else "penalty points"

    def table_problem(self, players: int) -> str | None:
        """Why `players` cannot sit down to this rule set, or None: the one statement of
        the table's size, for the engines and for every door that takes a table."""
        if not self.min_players <= players <= self.max_players:
            table = (
                f"exactly {self.min_players}"
                if self.min_players == self.max_players
                else f"{self.min_players} to {self.max_players}"
            )
            return f"{self.label} needs {table} players, found {players}"
        if self.teams and players not in (4, 6):
            return f"{self.label} is played by 4 or 6 players, partners opposite; found {players}"
        return None

    @classmethod
    def resolve(cls, preset: str, variants: list[str] | tuple[str, ...] = ()) -> Ruleset:
        """A preset by name, or a path to a club's JSON file, with variants applied."""
        if preset.endswith(".json"):
            return cls.load(preset).with_variants(*variants)
        return cls.preset(preset).with_variants(*variants)

    # -- JSON -------------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """Every parameter, as plain JSON values.

        A parameter added after rule sets were first stored is left out while it has its
        default value, so a game stored before it keeps its JSON and so its id.
        """
        data = asdict(self)
        for key in _ADDED_LATER:
            if data[key] == _DEFAULTS[key]:
                del data[key]
        data["whistle_must"] = [r.value for r in self.whistle_must]
        data["whistle_may"] = [r.value for r in self.whistle_may]
        return data

    def to_json(self) -> str:
        """Every resolved parameter as a JSON object, keys in a stable order."""
        cached = self.__dict__.get("_json")
        if cached is None:
            cached = json.dumps(self.to_dict(), sort_keys=True, separators=(",", ":"))
            object.__setattr__(self, "_json", cached)  # immutable, so computed once
        return cached

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Ruleset:
        """Read a rule set: a full parameter object, or `base` + `variants` + overrides."""
        if not isinstance(data, dict):
            raise RulesError(f"a rule set must be a JSON object, found {_json_kind(data)}")
        data = dict(data)
        base = data.pop("base", "classic")
        if not isinstance(base, str):
            raise RulesError(f"rule set key 'base' takes a preset's name, found {quoted(base)}")
        base_rules = cls.preset(base)
        variants = data.pop("variants", [])
        if not isinstance(variants, list) or not all(isinstance(v, str) for v in variants):
            raise RulesError("rule set key 'variants' must be a list of variant names")
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise RulesError(f"unknown rule parameter(s): {quoted(', '.join(unknown))}")
        rules = base_rules.with_variants(*variants)
        for key, value in data.items():
            if value is None and key in _OPTIONAL:
                continue
            _check_type(key, value, getattr(rules, key))
        try:
            made = replace(rules, **data)
            if variants:  # named in the file; else (a stored rule set) found from its values
                object.__setattr__(made, "_variants", rules.variants)
            return made
        except TypeError as exc:
            raise RulesError(f"bad rule set: {quoted(str(exc))}") from None

    @classmethod
    def from_json(cls, text: str) -> Ruleset:
        """Read a rule set from JSON text."""
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise RulesError(f"rule set is not valid JSON: {exc}") from None
        except RecursionError:
            raise RulesError("rule set is not valid: the JSON nests too deeply") from None
        except ValueError as exc:  # a number of more digits than Python converts
            raise RulesError(f"rule set is not valid: {quoted(str(exc))}") from None
        return cls.from_dict(data)

    @classmethod
    def load(cls, path: str | Path) -> Ruleset:
        """Read a club's rule set from a JSON file (UTF-8, at most `MAX_RULES_FILE` bytes)."""
        try:
            with open(path, "rb") as handle:
                raw = handle.read(MAX_RULES_FILE + 1)
        except OSError as exc:
            raise RulesError(f"cannot read rule set {path}: {exc.strerror}") from None
        if len(raw) > MAX_RULES_FILE:
            raise RulesError(
                f"rule set {path} is larger than {MAX_RULES_FILE:,} bytes: not a rules file"
            )
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            line = raw[: exc.start].count(b"\n") + 1
            raise RulesError(f"rule set {path} is not UTF-8 text (line {line})") from None
        return cls.from_json(text)

    def dump(self, path: str | Path) -> None:
        """Write this rule set to a JSON file."""
        write_text_atomic(path, json.dumps(self.to_dict(), indent=2) + "\n")


CLASSIC = Ruleset()

#: Parameters added after format 1's first datasets (see `Ruleset.to_dict`).
_ADDED_LATER = (
    "kap_tricks", "kap_points", "partner_kap_points", "majority_points", "baunie_points",
    "failed_baunie_points", "whistle_or_stand", "knock_on_turn", "laundry_before_knock",
    "false_swap_undone", "folded_card_leaves", "check_out_at_once", "teams",
    "check_before_swap",
)  # fmt: skip
_DEFAULTS = {f.name: f.default for f in fields(Ruleset)}

LIVES = Ruleset(
    name="lives",
    lives=10,
    score_display="lives",
    last_trick="loses",
    game_end="last_standing",
    first_dealer="cut",
    next_dealer="left",
    knock_limit="stake",
    counter_knock=True,
    laundry=False,
    armoede=True,
)

TROEFCALL = Ruleset(
    name="troefcall",
    game="troefcall",
    min_players=4,
    max_players=4,
    hand_size=13,
    first_dealer="jack",
    next_dealer="left",
    laundry=False,
    target_score=20,
)

PRESETS: dict[str, Ruleset] = {"classic": CLASSIC, "lives": LIVES, "troefcall": TROEFCALL}

#: Each variant is a bundle of parameter changes; docs/RULES.md says where each comes from.
VARIANTS: dict[str, dict[str, Any]] = {
    "limit-15": {"lives": 15},
    "lives-15": {"lives": 15},
    "dirty-laundry": {"dirty_laundry": True},
    "face-up": {"face_up_penalty": True},
    "poverty": {"poverty": True},
    "whistling": {"whistle_must": (Rank.TEN,), "whistle_may": (Rank.JACK,)},
    "whistling-malay": {"whistle_must": (Rank.TEN, Rank.JACK), "whistle_may": ()},
    "whistle-or-stand": {"whistle_must": (Rank.TEN,), "whistle_may": (), "whistle_or_stand": True},
    "whistle-or-stand-jacks": {
        "whistle_must": (Rank.TEN, Rank.JACK),
        "whistle_may": (),
        "whistle_or_stand": True,
    },
    "play-to-end": {"game_end": "last_standing"},
    "mandatory-discard": {"laundry": True, "laundry_mandatory": True},
    "fast-fold": {"fast_fold": True},
    "no-armoede": {"armoede": False},
    "first-speaker-waits": {"first_speaker_waits": True},
    "gezinstoepen": {"lives": 5, "max_players": 4, "stake_cap": 2},
    "kroegtoepen": {"knock_limit": "none", "counter_knock": True},
    "no-knock": {"stake_cap": 1},
    "team-toepen": {"teams": True, "min_players": 4, "max_players": 6},
    # House rules of many cafés (docs/RULES.md "House rules")
    "knock-on-turn": {"knock_on_turn": True},
    "laundry-before-knock": {"laundry_before_knock": True},
    "false-swap-undone": {"false_swap_undone": True},
    "folded-card-leaves": {"folded_card_leaves": True},
    "check-out-at-once": {"check_out_at_once": True},
    "cut-for-dealer": {"first_dealer": "cut"},
    "check-before-swap": {"check_before_swap": True},
    # Troefcall
    "target-15": {"target_score": 15},
    "target-20": {"target_score": 20},
    "target-50": {"target_score": 50},
    "free-trump-call": {"free_trump_call": True},
    "silent-kap": {"silent_kap": True},
    "no-baunie": {"baunie": False},
}

#: The variants of Troefcall; every other variant is Toepen's.
TROEFCALL_VARIANTS = frozenset(
    {"target-15", "target-20", "target-50", "free-trump-call", "silent-kap", "no-baunie"}
)


#: What a rule parameter's value must be, by the type of its default, in a club's words.
_KINDS: tuple[tuple[type, str], ...] = (
    (bool, "true or false"),
    (int, "a whole number"),
    (float, "a number"),
    (str, "a text"),
    (tuple, "a list"),
)


def _check_type(key: str, value: object, default: object) -> None:
    """A club's rule file names a parameter with a value of the wrong kind: say which
    parameter, what it takes and what was found (not Python's own error later on)."""
    for kind, words in _KINDS:
        if isinstance(default, kind):
            if kind is bool:
                ok = isinstance(value, bool)
            elif kind is int:
                ok = isinstance(value, int) and not isinstance(value, bool)
            elif kind is float:
                ok = isinstance(value, int | float) and not isinstance(value, bool)
            elif kind is tuple:
                ok = isinstance(value, list | tuple)
            else:
                ok = isinstance(value, kind)
            if not ok:
                raise RulesError(f"rule {key!r} takes {words}, found {quoted(value)}")
            return


def _json_kind(value: object) -> str:
    """What a JSON value is, in JSON's words: a list, a number, text."""
    kinds = ((list, "a list"), (str, "text"), (bool, "true or false"), (int | float, "a number"))
    for kind, words in kinds:
        if isinstance(value, kind):
            return words
    return "null" if value is None else type(value).__name__


def _variants_held(rules: Ruleset) -> tuple[str, ...]:
    """The variants a rule set named after a preset holds: each whose every change it
    has, where the preset differs; of two that change the same (limit-15, lives-15) the
    first, and none whose changes another's include."""
    base = PRESETS.get(rules.name)
    if base is None or base is rules:
        return ()
    held = [
        name
        for name, changes in VARIANTS.items()
        if (name in TROEFCALL_VARIANTS) == (rules.game == "troefcall")
        and all(getattr(rules, key) == value for key, value in changes.items())
        and any(getattr(base, key) != value for key, value in changes.items())
    ]
    held.sort(key=lambda name: not name.startswith(base.name))  # lives: lives-15, not limit-15
    kept: list[str] = []
    for name in held:
        mine = set(VARIANTS[name].items())
        if any(mine < set(VARIANTS[other].items()) for other in held):
            continue
        if not any(mine == set(VARIANTS[other].items()) for other in kept):
            kept.append(name)
    return tuple(kept)


def partners_opposite(players: int) -> tuple[int, ...]:
    """The side of each seat when partners sit opposite each other: `(0, 1, 0, 1)` for 4
    players, `(0, 1, 2, 0, 1, 2)` for 6 (Troefcall's partnerships, and team toepen's)."""
    half = players // 2
    return tuple(seat % half for seat in range(players))


def shared_lives(teams: Sequence[int] | None, players: int) -> list[tuple[int, ...]]:
    """The seats whose lives each seat's payments come out of: its side in team toepen
    (one pool), else the seat alone."""
    return list(_shared_lives(None if teams is None else tuple(teams), players))


@functools.lru_cache(maxsize=64)
def _shared_lives(teams: tuple[int, ...] | None, players: int) -> tuple[tuple[int, ...], ...]:
    """`shared_lives`, worked out once per table (every copy of a game asks again)."""
    side = teams if teams is not None else range(players)
    return tuple(tuple(m for m in range(players) if side[m] == side[s]) for s in range(players))
