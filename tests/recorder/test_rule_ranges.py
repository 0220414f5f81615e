"""Every rule parameter has a range, stated once (`rules.RANGES`), and every value in it
fits the column a game stores it in (docs/FORMAT.md); a rule set of any other shape is
refused with one message, never a Python error."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pyarrow as pa
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kroeg.recorder.errors import RulesError
from kroeg.recorder.rules import MAX_STAKE, RANGES, Ruleset
from kroeg.recorder.store import EVENTS_SCHEMA
from kroeg.recorder.toepen import MAX_STAKE as ENGINE_MAX_STAKE

DOCS = Path(__file__).resolve().parents[2] / "docs"
TROEFCALL_ONLY = {
    "target_score", "fixed_hands", "kap_tricks", "kap_points", "partner_kap_points",
    "majority_points", "baunie_points", "failed_baunie_points",
}  # fmt: skip


def _int16_max(column: str) -> int:
    kind = EVENTS_SCHEMA.field(column).type
    assert kind == pa.int16()
    return int(2 ** (kind.bit_width - 1) - 1)


def test_the_ranges_table_in_the_docs_is_the_code() -> None:
    text = (DOCS / "RULES.md").read_text(encoding="utf-8")
    section = text.split("## The ranges of the parameters", 1)[1].split("\n## ", 1)[0]
    rows = re.findall(r"^\| `(\w+)` \| (\d+) \| (\d+) \|", section, flags=re.M)
    assert {key: (int(low), int(high)) for key, low, high in rows} == RANGES


def test_every_value_the_ranges_allow_fits_its_column() -> None:
    """The log's `amount` (int16) holds every stake, fold, pay and score; `hand` (int16)
    every hand of a game: each hand costs a Toepen player at least 1 of a budget of at most
    `lives` each (8 players), or scores a Troefcall side at least 1 point of a target."""
    amount, hand = _int16_max("amount"), _int16_max("hand")
    assert MAX_STAKE == ENGINE_MAX_STAKE  # one bound, the engine's
    for key in ("stake_cap", "check_penalty", "kap_points", "partner_kap_points",
                "majority_points", "baunie_points", "failed_baunie_points"):  # fmt: skip
        assert RANGES[key][1] <= amount
    assert RANGES["lives"][1] + MAX_STAKE <= amount  # a score shown past the budget
    assert RANGES["max_players"][1] * (RANGES["lives"][1] + MAX_STAKE) <= hand
    assert 2 * RANGES["target_score"][1] <= hand and RANGES["fixed_hands"][1] <= hand
    for key in ("kap_points", "partner_kap_points", "majority_points"):
        assert RANGES[key][0] >= 1  # every hand scores: a game to a target ends


def _base(key: str) -> str:
    return "troefcall" if key in TROEFCALL_ONLY or key == "hand_size" else "classic"


@pytest.mark.parametrize("key", sorted(RANGES))
def test_a_value_outside_its_range_is_refused_at_both_ends(key: str) -> None:
    low, high = RANGES[key]
    null = " (or null)" if key in ("stake_cap", "target_score", "fixed_hands") else ""
    for value in (low - 1, high + 1, -(10**30), 10**30):
        with pytest.raises(RulesError) as err:
            Ruleset.from_dict({"base": "classic", key: value})
        assert str(err.value) == (
            f"rule {key} takes a whole number from {low} to {high}{null}, found {value}"
        )


@pytest.mark.parametrize("key", sorted(set(RANGES) - {"min_players", "max_players"}))
def test_the_ends_of_each_range_are_allowed(key: str) -> None:
    low, high = RANGES[key]
    if key == "hand_size":
        assert Ruleset.from_dict({"hand_size": low}).hand_size == low
        assert Ruleset.from_dict({"hand_size": 10, "max_players": 3}).hand_size == 10
        assert Ruleset.from_dict({"base": "troefcall"}).hand_size == high
        return
    for value in (low, high):
        assert getattr(Ruleset.from_dict({"base": _base(key), key: value}), key) == value


def test_a_game_of_the_largest_budget_still_fits() -> None:
    """The INT16 overflow the issue measured: lives 40,000 landed, then every query failed."""
    with pytest.raises(RulesError) as err:
        Ruleset.from_json('{"base": "classic", "lives": 40000}')
    assert str(err.value) == "rule lives takes a whole number from 1 to 999, found 40000"
    assert Ruleset.from_json('{"base": "classic", "lives": 999}').lives == 999


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[1, 2]", "a rule set must be a JSON object, found a list"),
        ('"classic"', "a rule set must be a JSON object, found text"),
        ("7", "a rule set must be a JSON object, found a number"),
        ("null", "a rule set must be a JSON object, found null"),
        ('{"hand_size": 0}', "rule hand_size takes a whole number from 1 to 13, found 0"),
        ('{"hand_size": -4}', "rule hand_size takes a whole number from 1 to 13, found -4"),
        ('{"hand_size": 4.5}', "rule 'hand_size' takes a whole number, found 4.5"),
        ('{"hand_size": true}', "rule 'hand_size' takes a whole number, found True"),
        ('{"hand_size": NaN}', "rule 'hand_size' takes a whole number, found nan"),
        ('{"lives": "1e9"}', "rule 'lives' takes a whole number, found '1e9'"),
        ('{"lives": [10]}', "rule 'lives' takes a whole number, found [10]"),
        ('{"base": 3}', "rule set key 'base' takes a preset's name, found 3"),
        ('{"base": ["classic"]}', "rule set key 'base' takes a preset's name, found ['classic']"),
        ('{"variants": [1]}', "rule set key 'variants' must be a list of variant names"),
        ('{"variants": "poverty"}', "rule set key 'variants' must be a list of variant names"),
        ('{"name": 7}', "rule 'name' takes a text, found 7"),
        ('{"whistle_must": [[]]}', "rule whistle_must: unknown rank '[]': expected one of "
         "A K Q J T 9 8 7 6 5 4 3 2 (or 10, Dutch B V H)"),
        ('{"last_trick": ["wins"]}', "rule 'last_trick' takes a text, found ['wins']"),
    ],
)  # fmt: skip
def test_rule_sets_of_every_shape_are_one_message(text: str, message: str) -> None:
    with pytest.raises(RulesError) as err:
        Ruleset.from_json(text)
    assert str(err.value) == message


def test_a_huge_number_is_refused_without_showing_it() -> None:
    with pytest.raises(RulesError) as err:
        Ruleset.from_json('{"lives": ' + "9" * 5000 + "}")
    assert str(err.value).startswith("rule set is not valid: 'Exceeds the limit")
    with pytest.raises(RulesError) as err:
        Ruleset.from_dict({"lives": 10**5000})
    assert str(err.value) == (
        "rule lives takes a whole number from 1 to 999, found a number of about 5,000 digits"
    )


def test_a_long_text_is_quoted_short() -> None:
    with pytest.raises(RulesError) as err:
        Ruleset.from_json(json.dumps({"base": "x" * 100_000}))
    message = str(err.value)
    assert message.startswith("unknown rule preset '" + "x" * 80 + "…' (100,000 characters)")
    assert len(message) < 300


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b'{"a": ' * 100_000 + b"1" + b"}" * 100_000,
         "rule set is not valid: the JSON nests too deeply"),
        (b'{"name": "\xff\xfe"}', "rule set {path} is not UTF-8 text (line 1)"),
        (b'{\n"name":\n "caf\xe9"}', "rule set {path} is not UTF-8 text (line 3)"),
        (b" " * 1_000_001, "rule set {path} is larger than 1,000,000 bytes: not a rules file"),
        (b"", "rule set is not valid JSON: Expecting value: line 1 column 1 (char 0)"),
    ],
)  # fmt: skip
def test_a_rules_file_of_any_content_is_one_message(
    tmp_path: Path, content: bytes, message: str
) -> None:
    path = tmp_path / "club.json"
    path.write_bytes(content)
    with pytest.raises(RulesError) as err:
        Ruleset.load(path)
    assert str(err.value) == message.format(path=path)


_PARAMETERS = sorted({*RANGES, "name", "base", "variants", "laundry", "whistle_must",
                      "last_trick", "teams", "game", "colour"})  # fmt: skip
_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=200),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=12,
)


@settings(max_examples=400, deadline=None)
@given(
    st.one_of(
        _JSON,
        st.dictionaries(st.sampled_from(_PARAMETERS), _JSON | st.integers(-10, 1000)),
    )
)
def test_any_json_value_is_a_rule_set_or_one_rules_error(data: object) -> None:
    """A property over shapes: whatever JSON a club's file holds, reading it gives a rule
    set or a RulesError of a bounded length, never another exception."""
    try:
        rules = Ruleset.from_json(json.dumps(data))
    except RulesError as exc:
        assert "\n" not in str(exc) and len(str(exc)) < 1000
        return
    for key, (low, high) in RANGES.items():
        value = getattr(rules, key)
        assert value is None or low <= value <= high
