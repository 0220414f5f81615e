"""The club file: what a club says about itself once, in TOML beside its dataset.

`DATASET/club.toml` (or any file given with `--club`) names the club's seasons, each a
date range with the ranking rules the club plays by, and the club's language. The
example, every key and its default are in docs/SEASONS.md (tests/analytics/test_season.py
reads that example with `read_club`).

Every key of a season but its name and dates has a default (SEASON_DEFAULTS). A file
that is not TOML, a key that means nothing, a value of the wrong kind, or two seasons of
one name is refused with the file, the season and the key named.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from datetime import date, datetime
from pathlib import Path
from typing import Any

from kroeg.recorder.errors import UsageError
from kroeg.recorder.text import quoted, text_problem, unknown_choice

__all__ = ["CLUB_FILE", "SEASON_DEFAULTS", "Club", "Season", "club_language", "read_club"]

#: The club file's name inside a dataset's folder, read when no `--club` is given.
CLUB_FILE = "club.toml"
#: The largest club file read (bytes): a club's seasons are a few hundred.
MAX_CLUB_FILE = 64_000
#: A game type's name in a season, as `games.game_type` stores it.
GAME_TYPES = ("toepen", "troefcall")
#: What a season's rules are when its entry does not say.
SEASON_DEFAULTS: dict[str, Any] = {
    "game": "toepen",
    "min_evenings": 1,
    "drop_worst": 0,
    "placing_points": (10, 8, 6, 5, 4, 3, 2, 1),
}


@dataclass(frozen=True)
class Season:
    """A named date range (both days in it) and how its evenings are ranked."""

    name: str
    first: date
    last: date
    game: str = SEASON_DEFAULTS["game"]
    min_evenings: int = SEASON_DEFAULTS["min_evenings"]
    drop_worst: int = SEASON_DEFAULTS["drop_worst"]
    placing_points: tuple[int, ...] = SEASON_DEFAULTS["placing_points"]

    def points(self, place: int) -> int:
        """The points of an evening's `place` (1 = first); none beyond the list."""
        return self.placing_points[place - 1] if place <= len(self.placing_points) else 0


@dataclass(frozen=True)
class Club:
    """A club file's contents."""

    name: str | None
    seasons: tuple[Season, ...]
    path: Path
    #: The club's language (one of analytics.words.LANGUAGES), if it names one: the
    #: bulletin's without `--lang`, the dashboard's until a visitor picks another.
    language: str | None = None

    def season(self, name: str) -> Season:
        """The season of that name (case aside), or an error that lists them."""
        for season in self.seasons:
            if season.name.casefold() == name.strip().casefold():
                return season
        if not self.seasons:
            raise UsageError(f"{self.path}: names no season; add a [[seasons]] entry")
        raise UsageError(
            f"{self.path}: " + unknown_choice("season", name, [s.name for s in self.seasons])
        )


def read_club(path: Path) -> Club:
    """The club file at `path`, checked whole before anything is used."""
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        raise UsageError(f"{path}: no club file there (it names the seasons)") from None
    if len(raw) > MAX_CLUB_FILE:
        raise UsageError(f"{path}: larger than {MAX_CLUB_FILE:,} bytes: not a club file")
    try:
        data = tomllib.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as error:
        raise UsageError(f"{path}: not a club file ({error})") from None
    unknown = set(data) - {"name", "language", "seasons"}
    if unknown:
        key = quoted(sorted(unknown)[0])
        raise UsageError(f"{path}: unknown key {key}; expected name, language, seasons")
    name = data.get("name")
    if name is not None:
        _text(path, "name", name)
    language = data.get("language")
    if language is not None:
        from kroeg.analytics.words import LANGUAGES

        if language not in LANGUAGES:
            shown = _text(path, "language", language)
            raise UsageError(f"{path}: " + unknown_choice("language", shown, LANGUAGES))
    entries = data.get("seasons", [])
    if not isinstance(entries, list) or not all(isinstance(e, dict) for e in entries):
        raise UsageError(f"{path}: seasons must be [[seasons]] entries")
    seasons = tuple(_season(path, entry) for entry in entries)
    names = [s.name.casefold() for s in seasons]
    for season in seasons:
        if names.count(season.name.casefold()) > 1:
            raise UsageError(f"{path}: two seasons are called {quoted(season.name)}")
    return Club(name, seasons, path, language)


def club_language(folder: Path) -> str | None:
    """The language the club file in a dataset's folder names, if there is one that does
    (a club file that cannot be read is refused)."""
    path = folder / CLUB_FILE
    return read_club(path).language if path.is_file() else None


def _text(path: Path, key: str, value: object) -> str:
    if not isinstance(value, str):
        raise UsageError(f"{path}: {key} must be text in quotes")
    problem = text_problem(f"the {key}", value, 100)
    if problem is not None:
        raise UsageError(f"{path}: {problem}")
    return value


def _season(path: Path, entry: dict[str, Any]) -> Season:
    if "name" not in entry:
        raise UsageError(f"{path}: a season has no name")
    name = _text(path, "season's name", entry["name"])
    where = f"{path}: season {quoted(name)}"
    allowed = {"name", "from", "to", *SEASON_DEFAULTS}
    unknown = set(entry) - allowed
    if unknown:
        raise UsageError(
            f"{where}: " + unknown_choice("key", sorted(unknown)[0], sorted(allowed - {"name"}))
        )
    first, last = (_day(where, key, entry.get(key)) for key in ("from", "to"))
    if last < first:
        raise UsageError(f"{where}: ends ({last}) before it begins ({first})")
    game = entry.get("game", SEASON_DEFAULTS["game"])
    if game not in GAME_TYPES:
        raise UsageError(f"{where}: " + unknown_choice("game", str(game), GAME_TYPES))
    min_evenings = _count(where, "min_evenings", entry, least=1)
    drop_worst = _count(where, "drop_worst", entry, least=0)
    points = entry.get("placing_points", SEASON_DEFAULTS["placing_points"])
    if (
        not isinstance(points, list | tuple)
        or not points
        or not all(isinstance(p, int) and not isinstance(p, bool) and p >= 0 for p in points)
    ):
        raise UsageError(f"{where}: placing_points must be a list of whole numbers, 0 or more")
    if list(points) != sorted(points, reverse=True):
        raise UsageError(f"{where}: placing_points must not rise: a better place earns no less")
    return Season(name, first, last, game, min_evenings, drop_worst, tuple(points))


def _day(where: str, key: str, value: object) -> date:
    if value is None:
        raise UsageError(f"{where}: no {key} date (as {key} = 2026-09-01)")
    if isinstance(value, datetime) or not isinstance(value, date):
        raise UsageError(f"{where}: {key} must be a date, as {key} = 2026-09-01 (no quotes)")
    return value


def _count(where: str, key: str, entry: dict[str, Any], least: int) -> int:
    value = entry.get(key, SEASON_DEFAULTS[key])
    if not isinstance(value, int) or isinstance(value, bool) or value < least:
        raise UsageError(f"{where}: {key} must be a whole number, {least} or more")
    return value
