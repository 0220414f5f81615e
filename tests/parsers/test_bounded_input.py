"""Every free text has a limit checked before any work, with the same rules at every door."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kroeg.cli import app
from kroeg.parsers import jsonl, notation
from kroeg.parsers.names import NameIndex
from kroeg.recorder.errors import NotationError, RulesError, UsageError
from kroeg.recorder.manual import ManualGame
from kroeg.recorder.rules import Ruleset
from tests.parsers.hands import HAND

LONG = "A" * 30_000


def test_a_long_name_in_a_typed_log_is_refused_at_once() -> None:
    text = f"players: Anna, Ben, Carla, {LONG}\n" + HAND.replace("Dan", LONG)
    with pytest.raises(NotationError) as err:
        notation.loads(text)
    assert str(err.value) == "1:10: a player name is 30,000 characters long; at most 40 are allowed"


def test_json_lines_refuses_a_name_with_a_newline_or_an_escape() -> None:
    lines = jsonl.dumps(notation.loads("players: Anna, Ben, Carla, Dan\n" + HAND)).splitlines()
    for bad, shown in (("Da\nn", "'Da\\nn'"), ("\x1b[2JDan", "'\\x1b[2JDan'")):
        header = json.loads(lines[0])
        header["players"][3] = bad
        with pytest.raises(NotationError) as err:
            jsonl.loads("\n".join([json.dumps(header), *lines[1:]]))
        hidden = f"U+{ord(bad[2] if bad[2] == chr(10) else bad[0]):04X}"
        assert str(err.value) == (
            f"1: a player name {shown} holds a control or invisible character ({hidden})"
        )


def test_a_zero_width_character_cannot_hide_in_a_name() -> None:
    with pytest.raises(NotationError) as err:
        notation.loads("players: Anna, Ben, Carla, Da\u200bn\n" + HAND.replace("Dan", "Da\u200bn"))
    assert "holds a control or invisible character (U+200B)" in str(err.value)
    # A joiner between letters hides as well as a zero-width space does.
    with pytest.raises(NotationError) as err:
        notation.loads("players: Anna, Ben, Carla, Da\u200dn\n" + HAND.replace("Dan", "Da\u200dn"))
    assert "(U+200D)" in str(err.value)


@pytest.mark.parametrize(
    "dan", ["Dan 👩\u200d👩\u200d👧", "Dan 🏳\ufe0f\u200d🌈", "Dan 👍🏽\u200d👍"]
)
def test_an_emoji_of_joined_emoji_is_a_name_s_part(dan: str) -> None:
    """A family or a flag drawn from joined emoji was refused for its joiner (U+200D), which
    hides nothing between two emoji; the name reads, and is written back as it was."""
    (game,) = notation.loads("players: Anna, Ben, Carla, " + dan + "\n" + HAND.replace("Dan", dan))
    assert game.players[3] == dan
    assert notation.loads(notation.dumps([game])) == [game]


def test_manual_entry_and_the_record_command_refuse_the_same_names(tmp_path: Path) -> None:
    with pytest.raises(UsageError) as err:
        ManualGame.start(["Anna", "Ben", "Carla", LONG], Ruleset.preset("classic"), tmp_path / "j")
    assert str(err.value) == "a player name is 30,000 characters long; at most 40 are allowed"
    assert not (tmp_path / "j").exists()  # nothing written
    result = CliRunner().invoke(
        app, ["record", "--into", str(tmp_path / "ds"), "--players", "Anna,Ben,Carla,Da:n"],
        input="quit\n",
    )  # fmt: skip
    assert result.exit_code == 2
    assert "Error: 'Da:n' cannot be a player name" in result.output


def test_a_rules_file_name_and_a_venue_are_bounded_too(tmp_path: Path) -> None:
    with pytest.raises(RulesError) as err:
        Ruleset.from_dict({"name": "x" * 101})
    assert str(err.value) == "a rule set's name is 101 characters long; at most 100 are allowed"
    with pytest.raises(UsageError):
        ManualGame.start(
            ["Anna", "Ben", "Carla"], Ruleset.preset("classic"), tmp_path / "j", venue="\x1b]0;x"
        )


def test_the_name_index_grows_with_the_names_not_with_their_square() -> None:
    index = NameIndex(("Anna", "B" * 200_000))  # built at once: no table of every beginning
    assert index.get("bbb") == 1 and index.get("an") == 0 and index.get("x") is None
    assert len(index.exact) == 2 and len(index.seen) == 3


def test_every_free_text_of_a_header_is_bounded() -> None:
    text = "players: Anna, Ben, Carla, Dan\nvenue: " + "v" * 101 + "\n" + HAND
    with pytest.raises(NotationError) as err:
        notation.loads(text)
    assert str(err.value) == "2:8: the venue is 101 characters long; at most 100 are allowed"
    with pytest.raises(NotationError) as err:
        notation.loads(text.replace("venue:", "source:"))
    assert str(err.value) == "2:9: the source is 101 characters long; at most 100 are allowed"


HUGE = "x" * 5_000_000  # the 99 MB line, smaller: the message is what is measured


@pytest.mark.parametrize(
    ("text", "start"),
    [
        (HUGE, "1:1: expected a header line such as 'players: Anna, Ben, Carla', found 'xxx"),
        (f"players: Anna, Ben, Carla, Dan\nhand {HUGE}\n", "2:1: expected 'hand N' or 'hand N, "),
        (f"players: Anna, Ben, Carla, Dan\n{HAND}Anna {HUGE}\n", "8:6: 'xxx"),
        (f"players: Anna, Ben, Carla, Dan\ndate: {HUGE}\n{HAND}", "2:7: expected a date like "),
    ],
)
def test_an_error_on_a_huge_line_quotes_at_most_80_characters(text: str, start: str) -> None:
    with pytest.raises(NotationError) as err:
        notation.loads(text)
    message = str(err.value)
    assert message.startswith(start)
    assert "xxxxx…' (5,000,0" in message and len(message) < 400


def test_json_lines_quote_a_huge_value_short() -> None:
    lines = jsonl.dumps(notation.loads("players: Anna, Ben, Carla, Dan\n" + HAND)).splitlines()
    event = json.loads(lines[2])  # a deal
    for key in ("kind", "game_id", "hand"):
        bad = {**event, key: HUGE}
        with pytest.raises(NotationError) as err:
            jsonl.loads("\n".join([*lines[:2], json.dumps(bad), *lines[3:]]))
        assert "x" * 80 + "…' (5,000,000 characters)" in str(err.value), key
        assert len(str(err.value)) < 400


def test_quoted_is_the_one_quotation_of_found_text() -> None:
    from kroeg.recorder.text import quoted

    assert quoted("Jx") == "'Jx'"
    assert quoted("a\x1bb") == "'a\\x1bb'"
    assert quoted("y" * 81) == "'" + "y" * 80 + "…' (81 characters)"
    assert quoted(40000) == "40000" and quoted([1, "a"]) == "[1, 'a']"
    assert quoted(10**9000) == "a number of about 9,000 digits"


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("hand " + "9" * 5000, "expected a hand number of at most 18 digits, found '9999"),
        ("hand 1\n" + "9" * 5000 + ". Anna 7s", "expected a trick number of at most 18 digits"),
        (HAND.strip() + "\nresult: Anna " + "1" * 5000, "expected an amount of at most 18 digits"),
    ],
)
def test_a_number_too_long_to_read_is_an_error_not_a_crash(line: str, message: str) -> None:
    """Python reads no number of over 4,300 digits: such a number is refused at its line."""
    with pytest.raises(NotationError) as err:
        notation.loads("players: Anna, Ben, Carla, Dan\n" + line)
    assert message in str(err.value)


@pytest.mark.parametrize("word", ["²", "9" * 5000, "٣"])
def test_a_seat_number_is_read_only_where_it_is_one(word: str) -> None:
    """`²` is a digit to isdigit but no number to int(); 5,000 digits no number at all."""
    names = NameIndex(("Anna", "Ben", "Carla", "Dan"), seat_numbers=True)
    assert names.get(word) == (2 if word == "٣" else None)
