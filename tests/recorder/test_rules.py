"""Rule sets: presets, a flag for every variant, validation, JSON round trips."""

import json
from pathlib import Path

import pytest

from kroeg.recorder.cards import Rank
from kroeg.recorder.errors import RulesError
from kroeg.recorder.rules import PRESETS, TROEFCALL_VARIANTS, VARIANTS, Ruleset


def test_presets_follow_rules_md() -> None:
    classic, lives = Ruleset.preset("classic"), Ruleset.preset("lives")
    assert (classic.lives, classic.last_trick, classic.game_end) == (10, "wins", "first_out_loses")
    assert (classic.next_dealer, classic.knock_limit, classic.laundry) == (
        "winner",
        "new_stake",
        True,
    )
    assert (lives.lives, lives.last_trick, lives.game_end) == (10, "loses", "last_standing")
    assert (lives.first_dealer, lives.next_dealer, lives.knock_limit) == ("cut", "left", "stake")
    assert lives.armoede and lives.counter_knock and not lives.laundry


def _presets_of(variant: str) -> list[Ruleset]:
    """The presets of the game a variant belongs to."""
    game = "troefcall" if variant in TROEFCALL_VARIANTS else "toepen"
    return [p for p in PRESETS.values() if p.game == game]


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_every_variant_changes_the_rules_it_names(name: str) -> None:
    for preset in _presets_of(name):
        changed = preset.with_variants(name)
        for key, value in VARIANTS[name].items():
            assert getattr(changed, key) == value


def test_variants_of_the_seeds() -> None:
    r = Ruleset.preset("classic").with_variants("whistling")
    assert (r.whistle_must, r.whistle_may) == ((Rank.TEN,), (Rank.JACK,))
    g = Ruleset.preset("lives").with_variants("gezinstoepen")
    assert (g.lives, g.max_players, g.stake_cap) == (5, 4, 2)
    assert Ruleset.preset("lives").with_variants("no-knock").stake_cap == 1


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_json_round_trip_of_every_preset_with_every_variant(name: str) -> None:
    for variant in VARIANTS:
        if PRESETS[name] not in _presets_of(variant):
            continue
        rules = PRESETS[name].with_variants(variant)
        assert Ruleset.from_json(rules.to_json()) == rules
        assert json.loads(rules.to_json())["name"] == name


def test_a_club_keeps_its_own_rule_set(tmp_path: Path) -> None:
    path = tmp_path / "leeuw.json"
    path.write_text(
        '{"name": "De Gouden Leeuw", "base": "classic", "variants": ["poverty"], "lives": 15}'
    )
    rules = Ruleset.load(path)
    assert (rules.name, rules.poverty, rules.lives) == ("De Gouden Leeuw", True, 15)
    rules.dump(tmp_path / "again.json")
    assert Ruleset.load(tmp_path / "again.json") == rules
    assert Ruleset.resolve(str(path), ["fast-fold"]).fast_fold


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"lives": 0}, "rule lives takes a whole number from 1 to 999, found 0"),
        (
            {"last_trick": "sometimes"},
            "rule last_trick = 'sometimes' is not valid: expected one of wins, loses",
        ),
        ({"colour": "red"}, "unknown rule parameter(s): 'colour'"),
        (
            {"base": "bridge"},
            "unknown rule preset 'bridge': expected one of classic, lives, troefcall",
        ),
        ({"variants": ["dirty"]}, "unknown variant 'dirty': expected one of "),
        (
            {"min_players": 5, "max_players": 4},
            "players must satisfy 2 <= min_players <= max_players <= 8, found 5..4",
        ),
        ({"whistle_must": ["X"]}, "rule whistle_must: unknown rank 'X'"),
    ],
)
def test_bad_rule_sets_are_refused(data: dict[str, object], message: str) -> None:
    with pytest.raises(RulesError) as err:
        Ruleset.from_dict(data)
    assert str(err.value).startswith(message)


def test_not_json() -> None:
    with pytest.raises(RulesError) as err:
        Ruleset.from_json("{nope")
    assert str(err.value).startswith("rule set is not valid JSON: ")


def test_the_readme_club_rules_file_reads_with_its_house_rules() -> None:
    import re
    from pathlib import Path

    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    (text,) = re.findall(r"```json\n(.*?)```", readme, flags=re.S)
    rules = Ruleset.from_json(text)
    assert rules.name == "De Gouden Leeuw" and rules.lives == 15
    assert rules.knock_on_turn and rules.false_swap_undone and rules.first_dealer == "cut"
    assert rules.poverty and rules.whistle_must
    assert (
        rules.label == "De Gouden Leeuw + poverty + whistling + knock-on-turn + "
        "false-swap-undone + cut-for-dealer"
    )
    again = Ruleset.from_json(rules.to_json())
    assert again == rules  # the stored parameters are the rule set


def test_new_parameters_keep_the_stored_json_of_older_rule_sets() -> None:
    """A game's id comes from its rules JSON: a parameter added later is written only
    when it is not its default, so games stored before it keep their ids."""
    stored = Ruleset.preset("classic").to_json()
    for key in (
        "knock_on_turn",
        "laundry_before_knock",
        "false_swap_undone",
        "folded_card_leaves",
        "check_out_at_once",
        "whistle_or_stand",
        "check_before_swap",
    ):
        assert key not in stored
    assert (
        '"knock_on_turn":true' in Ruleset.preset("classic").with_variants("knock-on-turn").to_json()
    )


@pytest.mark.parametrize(
    ("preset", "variants", "label"),
    [
        ("lives", ["team-toepen"], "lives + team-toepen"),
        ("classic", ["poverty", "whistling", "knock-on-turn"],
         "classic + poverty + whistling + knock-on-turn"),
        ("lives", ["lives-15"], "lives + lives-15"),
        ("classic", ["limit-15"], "classic + limit-15"),
        ("troefcall", ["target-15", "silent-kap"], "troefcall + target-15 + silent-kap"),
        ("lives", ["whistle-or-stand-jacks"], "lives + whistle-or-stand-jacks"),
        ("lives", [], "lives"),
    ],
)  # fmt: skip
def test_a_stored_rule_set_is_named_with_its_variants(preset, variants, label) -> None:
    # A game stores its rules as parameters alone; read back, it is named as it was made.
    made = Ruleset.preset(preset).with_variants(*variants)
    stored = Ruleset.from_json(made.to_json())
    assert (stored, stored.label) == (made, label)


def test_each_rule_set_says_what_its_scores_count() -> None:
    assert [Ruleset.preset(p).unit for p in ("classic", "lives", "troefcall")] == [
        "penalty points", "lives", "points",
    ]  # fmt: skip
    club = Ruleset.from_dict({"name": "De Kruik", "base": "lives", "lives": 7})
    assert (club.label, club.unit) == ("De Kruik", "lives")  # from its values, not its name
