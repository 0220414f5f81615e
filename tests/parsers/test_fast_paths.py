"""The readers' fast paths (issue 27) read what the plain ones read, and fail the same way.

Each fast path stands beside the plain reading it replaces: files cut in blocks against a
line at a time, JSON objects scanned against `json.loads`, events shared against
`event_from_row`, a lenient game read strictly first against the error hook's view.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from kroeg.parsers import _io, jsonl, notation
from kroeg.parsers._lexer import Stmt, lex_games
from kroeg.parsers._referee import _AMOUNT, Referee
from kroeg.parsers.names import NameIndex
from kroeg.parsers.reading import collect
from kroeg.recorder.errors import DatasetError, NotationError
from kroeg.recorder.events import Event, event_from_row
from kroeg.recorder.referee import Game, new_game
from kroeg.recorder.rules import Ruleset
from kroeg.recorder.text import quoted, too_many_digits
from tests.parsers.hands import HAND

PLAYERS = "players: Anna, Ben, Carla, Dan\n"


def line_at_a_time(path: Path) -> Iterator[str]:
    """How `_io.lines` read a file before blocks: `readline`, decode, cut."""
    with path.open("rb") as handle:
        number = 0
        while True:
            raw = handle.readline(_io.MAX_LINE + 1)
            if not raw:
                return
            number += 1
            if len(raw) > _io.MAX_LINE:
                raise NotationError(
                    f"the line is longer than {_io.MAX_LINE:,} bytes: not a typed log",
                    number, None, str(path),
                )  # fmt: skip
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError:
                raise NotationError("the file is not UTF-8 text", number, None, str(path)) from None
            if number == 1 and text.startswith("\ufeff"):
                text = text[1:]
            yield from text.splitlines()


def outcome(lines: Iterator[str]) -> tuple[list[str], str | None]:
    """Every line read, and the error that stopped the reading."""
    got: list[str] = []
    try:
        for line in lines:
            got.append(line)
    except NotationError as error:
        return got, str(error)
    return got, None


CONTENTS = [
    b"",
    b"one line, no end",
    b"\xef\xbb\xbfplayers: Anna\r\nhand 1\r\n",
    b"\xef\xbb\xbf\n\xef\xbb\xbfsecond line keeps its mark\n",
    b"a\rb\x0cc\x1dd\n\ne\xc2\x85f\xe2\x80\xa8g\r\n\r\n",
    "caf\u00e9 \u2665 10\u2665, Bh\n".encode() * 9,
    b"good\n" * 7 + b"bad \xff byte\n" + b"never read\n",
    b"good\n" * 7 + b"cut \xe2\x99",
    b"ok\n" + b"y" * 40 + b"\nafter\n",
    b"ok\n" + b"y" * 32 + b"\nafter",
    b"ok\n" + b"y" * 31 + b"\n" + b"z" * 32,
    b"ok\n" + b"y" * 33,
    b"x" * 100 + b"\n",
]


@pytest.mark.parametrize("content", CONTENTS)
@pytest.mark.parametrize("block", [1, 2, 5, 16, 1 << 14])
def test_a_file_read_in_blocks_gives_the_lines_and_errors_of_a_line_at_a_time(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, content: bytes, block: int
) -> None:
    monkeypatch.setattr(_io, "BLOCK", block)
    monkeypatch.setattr(_io, "MAX_LINE", 32)
    path = tmp_path / "log.txt"
    path.write_bytes(content)
    assert outcome(_io.lines(path)) == outcome(line_at_a_time(path))


def test_the_error_of_a_later_block_names_its_line(tmp_path: Path) -> None:
    path = tmp_path / "log.txt"
    path.write_bytes(b"players: Anna, Ben\n" * 20_000 + b"\xff\n")
    lines, error = outcome(_io.lines(path))
    assert len(lines) == 20_000 and error == f"{path}:20001: the file is not UTF-8 text"


JSON_LINES = [
    '{"kind": "deal", "seat": 1}',
    ' {"kind": "deal"}',
    '{"kind": "deal"} ',
    '{"kind": "deal"}\t',
    '{"kind": "deal"}x',
    '{"a": 1}{"b": 2}',
    "{",
    '{"a": }',
    '{"a": NaN, "b": -Infinity}',
    '{"a": 1e400, "b": 12345678901234567890}',
    '{"a": "\\ud800"}',
    '{"a": "tab\there"}',
    '{"a": "\\u00e9 \u2665"}',
    "[1, 2]",
    "{" * 100_000,
    '{"a": ' + "[" * 100_000,
    "\ufeff{}",
    '{"a": 1, "a": 2}',
]


def json_outcome(raw: str, loads: object) -> tuple[str, object]:
    try:
        return "value", repr(loads(raw))  # type: ignore[operator]
    except Exception as exc:  # every failure, to compare it whole
        return type(exc).__name__, str(exc)


@pytest.mark.parametrize("raw", JSON_LINES)
def test_a_json_line_is_read_as_json_loads_reads_it(raw: str) -> None:
    assert json_outcome(raw, jsonl._loads) == json_outcome(raw, json.loads)


ROWS = [
    ("deal", 1, "Td", None, None),
    ("deal", 1, "10♦", None, None),
    ("deal", True, "Td", None, None),
    ("deal", 1.0, "Td", None, None),
    ("deal", 1.5, "Td", None, None),
    ("deal", "1", "Td", None, None),
    ("deal", [1], "Td", None, None),
    ("deal", {"a": 1}, "Td", None, None),
    ("pay", 2, None, 3, None),
    ("pay", 2, None, "x", None),
    ("pay", 2, None, None, None),
    ("knock", 0, None, 2, None),
    ("no such kind", 0, None, None, None),
    (["deal"], 0, None, None, None),
]


def event_outcome(row: tuple[object, ...], build: object) -> tuple[str, object]:
    try:
        event = build(*row)  # type: ignore[operator]
    except (DatasetError, ValueError, TypeError) as exc:
        return type(exc).__name__, str(exc)
    return "event", (type(event), event)


@pytest.mark.parametrize("row", ROWS)
def test_an_event_row_gives_the_event_and_the_error_of_event_from_row(
    row: tuple[object, ...],
) -> None:
    expected = event_outcome(row, event_from_row)
    assert event_outcome(row, jsonl._event) == expected
    assert event_outcome(row, jsonl._event) == expected  # built, then shared


def test_equal_rows_share_one_event() -> None:
    first = jsonl._event("deal", 2, "Qs", None, None)
    assert jsonl._event("deal", 2, "Qs", None, None) is first


BAD_HAND = HAND + "result: Anna 7\n"  # Anna pays nothing


@pytest.mark.parametrize(
    "text",
    [
        PLAYERS + HAND,
        PLAYERS + BAD_HAND,  # a wrong sum: reported, the hand kept
        PLAYERS + HAND.replace("Ben Qh", "Ben 8s"),  # a rule broken: the hand skipped
        PLAYERS + HAND + PLAYERS + BAD_HAND + PLAYERS + HAND.replace("hand 1", "hand 2"),
    ],
)
def test_a_lenient_reading_hands_each_error_to_the_hook_once(text: str) -> None:
    seen: list[str] = []
    parsed = notation.parse(text, on_error=lambda error: seen.append(str(error)))
    assert seen == [str(e) for e in parsed.errors]
    again = notation.parse(text, on_error=collect)
    assert again.games == parsed.games and [str(e) for e in again.errors] == seen
    if not seen:
        assert parsed.games == notation.loads(text)


def test_a_lenient_reading_keeps_the_hands_around_a_bad_one() -> None:
    text = PLAYERS + HAND + HAND.replace("hand 1, dealer Dan", "hand 2").replace("Ben Qh", "Ben 8s")
    parsed = notation.parse(text, on_error=collect)
    assert [str(e) for e in parsed.errors] == [
        "10:4: hand 2, before the first lead: Anna cannot play Jh: it is Ben's turn, not Anna's"
    ]
    (game,) = parsed.games
    assert game.hands == 2 and game.events[-1].kind == "hand_skipped"  # hand 2: passed over
    summed = notation.parse(PLAYERS + BAD_HAND, on_error=collect)
    assert [str(e) for e in summed.errors] == [
        "8:1: hand 1: the result says Anna paid 7, but the rules give 0"
    ]
    assert [g.hands for g in summed.games] == [1]


def test_json_lines_writes_each_event_as_json_dumps_of_its_row(samples: Path) -> None:
    """`jsonl.dumps` encodes each distinct event once and reuses its text: every event
    line is still `json.dumps` of its object, keys in the format's order, for games that
    share event objects and games read back from text (objects of their own)."""
    from kroeg.recorder.events import number_events

    games = [
        *notation.load(samples / "laundry-and-checks.txt"),
        *notation.load(samples / "troefcall-evening.txt"),
        *notation.load(samples / "markup-in-names.txt"),
    ]
    games += jsonl.loads(jsonl.dumps(games))  # the same games again, other objects
    lines = jsonl.dumps(games).splitlines()
    at = 0
    for game in games:
        at += 1  # the header
        for hand, seq, event in number_events(game.events):
            row = dict(zip(
                ("game_id", "hand", "seq", "kind", "seat", "card", "amount", "target"),
                (game.game_id, hand, seq, *event.to_row()), strict=True,
            ))  # fmt: skip
            assert lines[at] == json.dumps(row, ensure_ascii=False)
            at += 1
    assert at == len(lines)


def _amounts_by_the_pattern(referee: Referee, game: Game, body: str) -> dict[int, int] | str:
    """How `typed_amounts` read a result's parts before its fast path: `_AMOUNT` on each."""
    typed: dict[int, int] = {}
    try:
        for part in filter(None, (p.strip() for p in body.split("&"))):
            match = _AMOUNT.fullmatch(part)
            if match is None:
                raise referee.fail(f"expected NAME NUMBER, found {quoted(part)}", STMT)
            problem = too_many_digits(match.group(2), "an amount")  # as every number of a log
            if problem is not None:
                raise referee.fail(problem, STMT)
            typed[referee.seat(game, match.group(1), STMT)] = int(match.group(2))
    except NotationError as error:
        return str(error)
    return typed


STMT = Stmt("result: …", 7, 1)
BODIES = [
    "Anna 2", "Anna  2 & Ben 1", "Anna\t2", "Anna -1 & Dan 0", "An 3", "Anna 02", " Carla 1 ",
    "Anna 1 2", "Anna", "2", " 2", "Anna 2x", "Anna - 2", "Anna --2", "Anna ٣", "Anna 2 & & Ben 1",
    "Anna\u00a02", "Ann a 3", "Zed 1", "Anna 1 & Anna 2", "anna 4", "Anna 99999999999999999999",
    "Anna -999999999999999999", "Anna ٣٣٣٣٣٣٣٣٣٣٣٣٣٣٣٣٣٣٣",
]  # fmt: skip


@pytest.mark.parametrize("body", BODIES)
def test_a_results_amounts_are_read_as_the_pattern_reads_them(body: str) -> None:
    lexed = next(lex_games((PLAYERS + HAND).splitlines(), None))
    referee = Referee(lexed, None, collect)
    game = new_game(Ruleset.preset("classic"), ("Anna", "Ben", "Carla", "Dan"))
    referee.names = NameIndex(game.players)
    try:
        fast: dict[int, int] | str = referee.typed_amounts(game, body, STMT, False)
    except NotationError as error:
        fast = str(error)
    assert fast == _amounts_by_the_pattern(referee, game, body)


def _joined_after(statements: list[Stmt]) -> list[tuple[str, int, int, int | None]]:
    """How the lexer joined a hand's sums before it did so line by line: a pass over the
    hand's statements, each `result:` or `score:` taking the statements after it on its
    line (`text[:7]` lowered tells one)."""
    joined: list[tuple[str, int, int, int | None]] = []
    last_sums = False
    for stmt in statements:
        sums = stmt.text[:7].lower().startswith(("result:", "score:"))
        if last_sums and stmt.line == joined[-1][1]:
            text, line, column, trick = joined[-1]
            joined[-1] = (f"{text} & {stmt.text}", line, column, trick)
            continue
        joined.append((stmt.text, stmt.line, stmt.column, stmt.trick))
        last_sums = sums
    return joined


SUM_PIECES = [
    "result: Anna 1", "Ben 2", "score: Carla 3", "Dan stays", "Anna knocks", " Result:Anna 2",
    "SCORE: x", "", "  ", "Anna: 7s 7h", "Anna 7s", "résultat: 1", "result:", "score:-",
    "Ben Jc # c", "Anna Kd ;", "Scorex: 1", "İresult: 1",
]  # fmt: skip


def test_the_lexer_joins_a_lines_sums_as_the_pass_after_it_did() -> None:
    """Random lines of statements, sums among them, commas and semicolons: split with
    `sums`, a line gives the statements the old pass made of its pieces (it joined only
    statements of one line), and `sums` marks each that gives sums."""
    import random

    from kroeg.parsers._lexer import _split_statements, is_sums

    rng = random.Random(5)
    seen_joined = 0
    for number in range(2000):
        k = rng.randint(1, 5)
        seps = [rng.choice([", ", ",", "; ", ";", " , "]) for _ in range(k - 1)] + [""]
        body = "".join(rng.choice(SUM_PIECES) + sep for sep in seps)
        column = rng.randint(1, 9)
        plain = _split_statements(body, number, column)
        joined = _split_statements(body, number, column, sums=True)
        assert [(s.text, s.line, s.column, s.trick) for s in joined] == _joined_after(plain)
        assert [s.sums for s in joined] == [is_sums(s.text) for s in joined]
        assert not any(s.sums for s in plain)
        seen_joined += sum(" & " in s.text for s in joined)
    assert seen_joined > 200  # the joining was put to the test
    # And the lexer splits a hand's lines so: a result over two players, then a score.
    text = PLAYERS + HAND + "result: Anna 1, Dan 2; Ben stays\nscore: Anna 1, Dan 2\n"
    (game,) = lex_games(text.splitlines(), None)
    sums = [(s.text, s.line) for s in game.hands[0].statements if s.sums]
    assert sums == [("result: Anna 1 & Dan 2 & Ben stays", 8), ("score: Anna 1 & Dan 2", 9)]


def test_statements_read_before_read_as_the_first_time() -> None:
    """The referee keeps what it read of plays and of results' parts by the players'
    names (`_referee._READ`): every sample log, good and broken, read with nothing kept
    from another game and then with everything kept, gives the same games and errors."""
    from kroeg.parsers import _referee
    from kroeg.parsers.files import iter_file

    samples = Path(__file__).resolve().parents[2] / "sample_logs"
    paths = sorted(samples.rglob("*.txt"))

    def said(path: Path, fresh: bool) -> tuple[list[tuple[str, tuple[Event, ...]]], list[str]]:
        errors: list[NotationError] = []
        games = []
        _referee._READ.clear()
        for game in iter_file(path, errors, on_error=collect):
            games.append((game.game_id, game.events))
            if fresh:  # the next game is refereed after this: nothing of this one is kept
                _referee._READ.clear()
        return games, [str(e) for e in errors]

    fresh = {path: said(path, fresh=True) for path in paths}
    for path in paths:  # read twice: the second time, every text of it was read before
        said(path, fresh=False)
        assert said(path, fresh=False) == fresh[path], path
    assert len(paths) > 30 and any(errors for _, errors in fresh.values())
    kept = _referee._READ[("Anna", "Ben", "Carla", "Dan")]
    assert len(kept.plays) > 10 and kept.amounts  # (the last log read with these names)


def test_what_the_referee_keeps_stays_small_whatever_the_lines() -> None:
    """A play or a result's part padded to a long line (valid: spaces) is read each
    time, not kept: what is kept is a few short texts, not the log."""
    from kroeg.parsers import _referee

    padded = HAND.replace("Anna Jh,", "Anna" + " " * 500 + "Jh,").replace(
        "Dan Qd", "Dan" + " " * 500 + "Qd"
    )
    assert "Anna" + " " * 500 + "Jh" in padded
    text = PLAYERS + padded + "result: Ben" + " " * 300 + "1 & Carla 1 & Dan 1\n"
    _referee._READ.clear()
    errors: list[NotationError] = []
    (game,) = notation.iterparse(text.splitlines(), errors, collect)
    assert errors == [] and game.hands == 1
    kept = _referee._READ[("Anna", "Ben", "Carla", "Dan")]
    assert kept.plays and kept.amounts  # the short ones are kept
    longest = max(len(t) for t in [*kept.plays, *kept.amounts])
    assert longest <= _referee._READ_LONGEST
