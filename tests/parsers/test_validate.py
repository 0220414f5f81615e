"""`kroeg validate` on every core: a typed log cut into parts at games' first lines, each
part read in a worker process, says exactly what the file read whole says (the games, the
hands, every error with its line), and falls back to the whole file where it must."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TypeVar

import pytest

from kroeg.analytics.workers import in_workers
from kroeg.parsers import _lexer, validate
from kroeg.parsers._lexer import lex_games
from kroeg.parsers.validate import Part, Validation, parts_of, validate_file

_R = TypeVar("_R")

SAMPLES = Path(__file__).resolve().parents[2] / "sample_logs"


def _whole_games(text: bytes) -> bool:
    """Every game of the text has a hand or a cut: put beside another, it stays a game."""
    return all(g.hands or g.cut for g in _lexer.lex(text.decode("utf-8", "replace"), None))


#: The sample logs, good and broken, but the king-of-the-hill ones (read whole: below)
#: and those that end in a header alone (they would take the next file's for theirs).
TEXTS = [
    text
    for p in sorted([*SAMPLES.glob("*.txt"), *SAMPLES.glob("broken/*.txt")])
    if b"king-of-the-hill" not in (raw := p.read_bytes()) and p.name != "not-utf8.txt"
    and _whole_games(text := raw.removeprefix(b"\xef\xbb\xbf").replace(b"\r\n", b"\n"))
]  # fmt: skip
PLAYERS = b"rules: classic\nplayers: Anna, Ben, Carla\n"
#: Small parts, so that a test's log is cut in many.
PART = 1024


def _log(path: Path, *texts: bytes) -> Path:
    path.write_bytes(b"\n".join(t.rstrip(b"\n") + b"\n" for t in texts))
    return path


def _said(found: Validation) -> tuple[int, int, list[str]]:
    return found.games, found.hands, [str(e) for e in found.errors]


@pytest.fixture
def small_parts(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(validate, "PART_BYTES", PART)
    monkeypatch.setattr(validate, "PARALLEL_FROM", 0)
    monkeypatch.setattr(validate, "WINDOW", 256)


def _same_either_way(path: Path, parts: bool | None = True) -> tuple[int, int, list[str]]:
    """What the file says read whole and read in parts by the workers, the same; `parts`:
    whether it was read in parts (False: whole from the start; None: either)."""
    whole = _said(validate_file(path))
    results: list[object] = []

    def counted(function: Callable[[Part], _R], tasks: Iterator[Part]) -> Iterator[_R]:
        for result in in_workers(function, tasks):
            results.append(result)
            yield result

    assert _said(validate_file(path, counted)) == whole
    if parts is not None:
        assert (len(results) > 1) == parts
    return whole


def test_every_cut_falls_where_the_whole_file_opens_a_game(tmp_path: Path) -> None:
    path = _log(tmp_path / "log.txt", *TEXTS, *TEXTS)
    data = path.read_bytes()
    parts = parts_of(path, PART)
    assert parts is not None and len(parts) > 10
    assert parts[0].start == 0 and parts[-1].end == len(data)
    assert all(a.end == b.start for a, b in itertools.pairwise(parts))
    openings = {g.line for g in lex_games(data.decode().splitlines(), None)}
    for part in parts[1:]:
        assert part.before == data[: part.start].count(b"\n")
        assert part.before + 1 in openings  # the part's first line opens a game


def test_a_log_with_errors_says_the_same_in_parts(tmp_path: Path, small_parts: None) -> None:
    path = _log(tmp_path / "log.txt", *TEXTS, *TEXTS)
    assert len(parts_of(path) or []) > 10
    games, hands, errors = _same_either_way(path)
    assert games > 40 and hands > 100
    assert len(errors) > 30  # the broken samples' errors, each with its file's line
    assert all(e.startswith(f"{path}:") for e in errors)


def test_windows_line_ends_are_cut_as_well(tmp_path: Path, small_parts: None) -> None:
    path = _log(tmp_path / "log.txt", *TEXTS)
    path.write_bytes(path.read_bytes().replace(b"\n", b"\r\n"))
    assert len(parts_of(path) or []) > 5
    games, _, errors = _same_either_way(path)
    assert games > 20 and errors


@pytest.mark.parametrize(
    "stop",
    [
        b"\xff not UTF-8 text\n",  # the file cannot be read from here on
        b"game: x1\nplayers: A, B\nhand 1\n4.\n",  # a trick label and nothing after it
        b"players: A, B\nA stays\n",  # a statement before 'hand 1': the lexing stops
    ],
)
def test_what_stops_the_whole_reading_stops_it_in_parts(
    tmp_path: Path, small_parts: None, stop: bytes
) -> None:
    path = _log(tmp_path / "log.txt", *TEXTS, stop, *TEXTS)
    whole = validate_file(path)
    assert _said(validate_file(path, in_workers)) == _said(whole)
    # The games after the stop are not read: fewer than the log's good games.
    assert whole.games < 2 * _said(validate_file(_log(tmp_path / "a.txt", *TEXTS)))[0]


@pytest.mark.parametrize("other", ["\u2028", "\x85", "\x0c", "\x1e"])  # ASCII or not
def test_a_line_break_splitlines_counts_otherwise_reads_the_file_whole(
    tmp_path: Path, small_parts: None, other: str
) -> None:
    path = _log(tmp_path / "log.txt", *TEXTS, f"# a comment{other}with a break\n".encode(), *TEXTS)
    assert parts_of(path) is None
    _same_either_way(path, parts=None)  # parts, until the planner finds the break


def test_a_king_of_the_hill_evening_is_checked_in_order(
    tmp_path: Path, small_parts: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(validate, "MOST_PARTS", 64)  # its games are long for parts this small
    hill = (SAMPLES / "troefcall-king-of-the-hill.txt").read_bytes()
    broken = (SAMPLES / "broken" / "king-of-the-hill-losers-stay.txt").read_bytes()
    path = _log(tmp_path / "log.txt", *TEXTS, hill, *TEXTS, broken)
    assert len(parts_of(path) or []) > 5
    _, _, errors = _same_either_way(path, parts=None)  # parts, until the hill's
    assert any("king-of-the-hill evening" in e and "make way" in e for e in errors)


def test_the_progress_counts_every_byte(tmp_path: Path, small_parts: None) -> None:
    path = _log(tmp_path / "log.txt", *TEXTS)
    told: list[int] = []
    validate_file(path, in_workers, told.append)
    assert len(told) > 5 and sum(told) == path.stat().st_size


def test_a_header_line_is_what_the_lexer_takes_for_one() -> None:
    shape = _lexer.line_shape
    assert shape("  Players: Anna, Ben  # who") == _lexer.HEADER
    assert shape("# only a comment") == shape("   ") == _lexer.BLANK
    assert shape("Anna: 7s 8s 9s Ts") == shape("hand 1, dealer Ben") == _lexer.OTHER
    assert shape("cut: Anna 7s") == _lexer.OTHER  # a cut belongs to the game before hand 1


EMPTY_CUTS = [
    # A cut that names nothing adds no cut: the header after it is the same game's.
    b"cut:\nplayers: Anna, Ben, Dan\n",
    b"jacks: # none drawn yet\ndate: 2026-11-27 20:30\n",
    b"cut: ,;\nvenue: De Kroeg\n",
]


@pytest.mark.parametrize("cut", EMPTY_CUTS)
def test_a_cut_that_names_nothing_is_no_place_to_cut(
    tmp_path: Path, small_parts: None, cut: bytes
) -> None:
    game = b"rules: classic\nplayers: Anna, Ben, Dan\n" + cut + b"hand 1, dealer Dan\n"
    data = TEXTS[0] + b"\n" + game
    at = data.index(cut)  # the empty cut's line
    after = at + cut.index(b"\n") + 1  # the header line after it: the same game's
    assert validate._game_start(data, at) != after
    assert _lexer.line_shape(cut.decode().splitlines()[0]) == _lexer.BLANK
    for n in range(4):
        _same_either_way(_log(tmp_path / f"log{n}.txt", *TEXTS[:n], game, *TEXTS), None)


def test_what_cannot_be_read_in_parts_is_read_whole(tmp_path: Path, small_parts: None) -> None:
    folder = tmp_path / "folder.txt"
    folder.mkdir()  # cannot be opened as a file
    empty = tmp_path / "empty.txt"
    empty.write_bytes(b"")
    for path in (folder, empty):
        _, _, errors = _same_either_way(path, parts=False)
        assert len(errors) == 1
    # A game longer than `MOST_PARTS` parts: the planner would hold it whole.
    line = b"Anna 7s, Ben 8s, Carla 9s\n"
    plays = line * (validate.MOST_PARTS * PART // len(line) + 10)
    path = _log(tmp_path / "long.txt", PLAYERS + b"hand 1\n" + plays, *TEXTS)
    assert len(plays) > validate.MOST_PARTS * PART and parts_of(path) is None
    _, _, errors = _same_either_way(path, parts=False)
    assert errors


def _jsonl_games() -> bytes:
    """The games of the good sample logs (no hill) as JSON Lines, as `kroeg export` writes."""
    from kroeg.parsers import jsonl
    from kroeg.parsers.files import read_file

    games = [
        g
        for p in sorted(SAMPLES.glob("*.txt"))
        if b"king-of-the-hill" not in p.read_bytes()
        for g in read_file(p).games
    ]
    return jsonl.dumps(games).encode()


def _broken(data: bytes, seed: int) -> bytes:
    """JSON Lines with a few lines spoiled: cut short, dropped, swapped, a header's
    players removed, a card changed, blank lines and a byte that is not UTF-8 at the end."""
    import random

    rng = random.Random(seed)
    lines = data.split(b"\n")
    for _ in range(12):
        i = rng.randrange(1, len(lines) - 2)
        change = rng.randrange(6)
        if change == 0:
            lines[i] = lines[i][: len(lines[i]) // 2]
        elif change == 1:
            del lines[i]
        elif change == 2:
            lines[i], lines[i + 1] = lines[i + 1], lines[i]
        elif change == 3:
            lines[i] = lines[i].replace(b'"players"', b'"player"')
        elif change == 4:
            lines[i] = lines[i].replace(b'"card": "', b'"card": "7', 1)
        else:
            lines[i:i] = [b"", b"   "]
    return b"\n".join(lines)


@pytest.fixture
def long_games(monkeypatch: pytest.MonkeyPatch) -> None:
    """A game of JSON Lines is some 20 kB: longer than `MOST_PARTS` parts this small."""
    monkeypatch.setattr(validate, "MOST_PARTS", 1000)


def test_json_lines_are_cut_at_header_lines_and_say_the_same_in_parts(
    tmp_path: Path, small_parts: None, long_games: None
) -> None:
    data = _jsonl_games()
    path = tmp_path / "log.jsonl"
    path.write_bytes(data)
    parts = parts_of(path)
    assert parts is not None and len(parts) > 10
    lines = data.decode().splitlines()
    for part in parts[1:]:  # each part but the first begins with a game's header line
        assert '"players"' in lines[part.before] and lines[part.before].startswith("{")
    games, hands, errors = _same_either_way(path)
    assert games > 20 and hands > 50 and errors == []
    for seed in range(4):  # spoiled lines: the same errors at the same lines
        broken = tmp_path / f"broken{seed}.jsonl"
        broken.write_bytes(_broken(data, seed))
        _, _, errors = _same_either_way(broken, None)
        assert errors
    crlf = tmp_path / "crlf.jsonl"  # Windows line ends
    crlf.write_bytes(data.replace(b"\n", b"\r\n"))
    assert _same_either_way(crlf)[:2] == (games, hands)


def test_json_lines_without_a_game_say_so_as_the_whole_file_does(
    tmp_path: Path, small_parts: None, long_games: None
) -> None:
    """A part without a game is no error in itself: where no part finds a game nor an
    error, the file is read whole, which says there is no game."""
    blank = tmp_path / "blank.jsonl"
    blank.write_bytes(b"\n" * 5000)
    _, _, errors = _same_either_way(blank, None)
    assert len(errors) == 1 and "no game found" in errors[0]
    # Blank lines first, then games: the first part holds no game, and is no error.
    late = tmp_path / "late.jsonl"
    late.write_bytes(b"\n" * 5000 + _jsonl_games())
    games, _, errors = _same_either_way(late, True)
    assert games > 20 and errors == []
