"""Garbage in: random text and random edits of valid logs only ever raise NotationError."""

from __future__ import annotations

import contextlib
import re
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kroeg.parsers import jsonl, notation
from kroeg.parsers.reading import collect
from kroeg.recorder.errors import NotationError

SAMPLES = Path(__file__).resolve().parents[2] / "sample_logs"
TEXTS = [p.read_text(encoding="utf-8-sig") for p in sorted(SAMPLES.glob("*.txt"))]
JSONL = (SAMPLES / "engine-export.jsonl").read_text(encoding="utf-8")
ALPHABET = "AKQJT98710hdcs♥♦♣♠?:;,.#\n -0123456789abcdefghijklmnopqrstuvwxyz{}[]\"'"
FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))


def survives(reader, text: str) -> None:
    with contextlib.suppress(NotationError):
        reader.loads(text)
    parsed = reader.parse(text, on_error=collect)
    assert all(isinstance(e, NotationError) for e in parsed.errors)


@st.composite
def mutated(draw, base: str) -> str:
    text = base
    for _ in range(draw(st.integers(1, 6))):
        if not text:
            break
        at = draw(st.integers(0, len(text) - 1))
        action = draw(st.sampled_from(["delete", "insert", "replace", "cut_line", "dup_line"]))
        if action == "delete":
            text = text[:at] + text[at + draw(st.integers(1, 12)) :]
        elif action == "insert":
            text = text[:at] + draw(st.text(ALPHABET, min_size=1, max_size=8)) + text[at:]
        elif action == "replace":
            text = text[:at] + draw(st.sampled_from(ALPHABET)) + text[at + 1 :]
        else:
            lines = text.splitlines(keepends=True)
            index = draw(st.integers(0, len(lines) - 1))
            if action == "cut_line":
                del lines[index]
            else:
                lines.insert(index, lines[index])
            text = "".join(lines)
    return text


@FUZZ
@given(st.binary(max_size=400))
def test_random_bytes(data: bytes) -> None:
    text = data.decode("utf-8", errors="replace")
    survives(notation, text)
    survives(jsonl, text)


@FUZZ
@given(st.text(ALPHABET, max_size=300))
def test_random_text_in_the_notations_alphabet(text: str) -> None:
    survives(notation, "players: Anna, Ben, Carla\nhand 1, dealer Anna\n" + text)


@FUZZ
@given(st.sampled_from(TEXTS).flatmap(mutated))
def test_mutations_of_valid_logs(text: str) -> None:
    survives(notation, text)


@FUZZ
@given(mutated(JSONL))
def test_mutations_of_valid_json_lines(text: str) -> None:
    survives(jsonl, text)


def test_an_event_naming_a_seat_no_one_holds_is_refused_in_words() -> None:
    """Found by the mutation test above: a `game_end` whose target is seat 20 at a table
    of four crashed the referee's message (IndexError) instead of refusing the game."""
    last = JSONL.rstrip("\n").rsplit("\n", 1)[1]
    assert '"kind": "game_end"' in last
    broken = JSONL.replace(last, re.sub(r'"target": \d+}', '"target": 20}', last), 1)
    assert broken != JSONL
    parsed = jsonl.parse(broken, on_error=collect)
    assert len(parsed.errors) == 1
    assert isinstance(parsed.errors[0], NotationError)
    assert "seat 20, which no one holds" in str(parsed.errors[0])
