"""The demo dataset of `kroeg demo` (and so `make demo`): the sample logs and bot sessions.

What it holds is decided here, not in the command line: every typed sample log,
then sessions of every Toepen bot style under `classic` (4 and 6 players) and
`lives`, and a Troefcall session with sharp partners against random ones.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from importlib.resources import files
from pathlib import Path

from kroeg.analytics.club import CLUB_FILE
from kroeg.parsers.files import import_files
from kroeg.recorder.atomic import write_text_atomic
from kroeg.recorder.errors import DatasetError, RejectedError
from kroeg.recorder.rules import Ruleset
from kroeg.recorder.simulate import DEFAULT_NAMES, simulate_into
from kroeg.recorder.store import Dataset
from kroeg.recorder.text import plural

__all__ = ["SAMPLE_LOGS", "SESSIONS", "build_demo"]

#: The typed sample logs shipped with kroeg: package data (`kroeg/sample_logs`, the
#: repository's `sample_logs/`), so an installed wheel has them too.
SAMPLE_LOGS = Path(str(files("kroeg") / "sample_logs"))
_TOEPEN_STYLES = ("random", "cautious", "bluffer", "sharp")


@dataclass(frozen=True)
class Session:
    """One simulated session of the demo."""

    preset: str
    players: int
    hands: int
    seed: int
    styles: tuple[str, ...]
    venue: str


SESSIONS = (
    Session("classic", 4, 1000, 1, _TOEPEN_STYLES, "Café De Kroeg"),
    Session("lives", 4, 800, 2, _TOEPEN_STYLES, "Café De Kroeg"),
    Session("classic", 6, 300, 3, _TOEPEN_STYLES, "Café De Kroeg"),
    Session("troefcall", 4, 400, 4, ("sharp", "random"), "Café Paramaribo"),
)
#: The bots' evenings end here and go back a day at a time (none in the future).
_LAST_EVENING = datetime(2026, 11, 30, 20, tzinfo=UTC)

#: The demo club's file (docs/SEASONS.md): its autumn, the bots' evenings and the sample
#: logs' November in it; written once, a club's own edits kept.
DEMO_CLUB = """\
# The demo club's seasons (docs/SEASONS.md). kroeg demo writes this file only once.
name = "Café De Kroeg"

[[seasons]]
name = "Autumn 2026"
from = 2026-09-01
to = 2026-11-30
min_evenings = 3
drop_worst = 1

[[seasons]]
name = "Troefcall autumn 2026"
from = 2026-09-01
to = 2026-11-30
game = "troefcall"
min_evenings = 3
"""


def build_demo(out: str | Path, say: Callable[[str], None] = print) -> Dataset:
    """Build (or top up: nothing lands twice) the demo dataset in `out`; `say` reports."""
    dataset = Dataset(out).create()
    logs = sorted(p for p in SAMPLE_LOGS.glob("*") if p.suffix in (".txt", ".jsonl"))
    if not logs:
        raise DatasetError(f"no sample logs in {SAMPLE_LOGS}: this kroeg install is incomplete")
    for imported in import_files(logs, dataset):
        if imported.rejected:
            raise RejectedError(f"sample log {imported.path} did not read: {imported.rejected[0]}")
    say(f"sample logs: {plural(len(logs), 'file')} from {SAMPLE_LOGS}")
    club = dataset.path / CLUB_FILE
    if not club.exists():
        write_text_atomic(club, DEMO_CLUB)
    toepen = [s for s in SESSIONS if s.preset != "troefcall"]
    most = max(s.players for s in toepen)
    styles = _TOEPEN_STYLES * (most // len(_TOEPEN_STYLES) + 1)
    seats = ", ".join(f"{n} {s}" for n, s in zip(DEFAULT_NAMES[:most], styles, strict=False))
    say(f"bots by seat: {seats}")
    for session in SESSIONS:
        report = simulate_into(
            dataset, Ruleset.preset(session.preset), session.players, session.hands,
            session.seed, session.styles, _LAST_EVENING, session.venue, backwards=True,
        )  # fmt: skip
        say(
            f"{session.preset}, {session.players} players, {session.hands:,} hands: "
            f"{plural(report.added, 'game')} added, {report.skipped} already there"
        )
    return dataset
