"""A plan in DATASET/.journal/ that names anything but the dataset's own files is refused.

The next writer carries out the plans a crash left (docs/RELIABILITY.md). A plan put
there by someone else, naming `..`, an absolute path, a folder, or a path that leads
out through a link, must not make kroeg delete anything: the command that finds it
stops with one `Error:` line, and `kroeg check` names it.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kroeg.cli import app
from kroeg.recorder.rules import Ruleset
from kroeg.recorder.simulate import simulate
from kroeg.recorder.store import Dataset

NAME = "part-20261101T200000-0123abcd.parquet"


def kroeg(*args: object):
    return CliRunner().invoke(app, [str(a) for a in args])


def setup(tmp_path: Path) -> tuple[Dataset, Path, Path]:
    """A dataset, and beside it a victim folder holding a file."""
    ds = Dataset(tmp_path / "club")
    ds.write(simulate(Ruleset.preset("classic"), 4, 12, 1, ["random"]))
    victim = tmp_path / "victim"
    victim.mkdir()
    (victim / "notes.txt").write_text("keep me")
    return ds, victim, victim / "notes.txt"


def plan(ds: Dataset, content: dict[str, object]) -> Path:
    ds.journal_dir.mkdir(exist_ok=True)
    entry = ds.journal_dir / "0f.json"
    entry.write_text(json.dumps(content))
    return entry


def hostile_plans(ds: Dataset, victim: Path, notes: Path) -> dict[str, tuple[dict, str]]:
    """Each hostile plan, and how the refusal describes it."""
    return {
        "dot-dot": (
            {"op": "write", "files": ["../victim/notes.txt", f"games/{NAME}"]},
            "it names '../victim/notes.txt', which is not one of the dataset's table files "
            "(events/, games/ or derived/NAME/, part-….parquet)",
        ),
        "absolute": (
            {"op": "write", "files": [str(notes), f"games/{NAME}"]},
            f"it names '{notes}', which is not one of the dataset's table files "
            "(events/, games/ or derived/NAME/, part-….parquet)",
        ),
        "a folder": (
            {"op": "derive", "files": [f"events/{NAME}", f"derived/games/{NAME}"]},
            f"it names 'events/{NAME}', which is not a file",
        ),
        "staging outside": (
            {"op": "compact", "staging": "../victim", "stem": "part-compact-x"},
            "it names the staging folder '../victim', not one kroeg makes",
        ),
        "a link out": (
            {"op": "derive", "files": [f"derived/knocks/{NAME}", f"derived/games/{NAME}"]},
            f"it names 'derived/knocks/{NAME}', which leads out of the dataset through a link",
        ),
        "a linked file": (
            {"op": "write", "files": [f"events/{NAME}", f"games/{NAME}"]},
            f"it names 'events/{NAME}', which leads out of the dataset through a link",
        ),
        "an unknown op": (
            {"op": "erase", "files": ["../victim"]},
            "it is an operation kroeg does not know ('erase')",
        ),
    }


def arm(case: str, ds: Dataset, victim: Path, notes: Path) -> None:
    """What each case needs on disk besides the plan."""
    if case == "a folder":
        (ds.events_dir / NAME).mkdir()
    elif case == "a link out":
        (ds.path / "derived").mkdir(exist_ok=True)
        (ds.path / "derived" / "knocks").symlink_to(victim, target_is_directory=True)
    elif case == "a linked file":
        (ds.events_dir / NAME).symlink_to(notes)


CASES = ["dot-dot", "absolute", "a folder", "staging outside", "a link out", "a linked file",
         "an unknown op"]  # fmt: skip


@pytest.mark.parametrize("case", CASES)
@pytest.mark.parametrize("command", ["stats", "import", "compact"])
def test_a_plan_naming_a_path_outside_is_refused_and_nothing_deleted(
    case: str, command: str, tmp_path: Path, samples: Path
) -> None:
    ds, victim, notes = setup(tmp_path)
    arm(case, ds, victim, notes)
    content, problem = hostile_plans(ds, victim, notes)[case]
    entry = plan(ds, content)
    before = sorted(str(p) for p in tmp_path.rglob("*"))
    args = {
        "stats": ["stats", ds.path],
        "import": ["import", samples / "classic-evening.txt", "--into", ds.path],
        "compact": ["compact", ds.path],
    }[command]
    result = kroeg(*args)
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [
        f"Error: {entry}: a plan kroeg will not carry out: {problem}; nothing was changed. "
        f"If kroeg did not write it, move it out of {ds.journal_dir}"
    ]
    assert notes.read_text() == "keep me"
    assert sorted(str(p) for p in tmp_path.rglob("*")) == before  # nothing deleted or added


@pytest.mark.parametrize("case", CASES)
def test_check_names_the_plan_it_will_not_carry_out(case: str, tmp_path: Path) -> None:
    ds, victim, notes = setup(tmp_path)
    arm(case, ds, victim, notes)
    content, problem = hostile_plans(ds, victim, notes)[case]
    entry = plan(ds, content)
    result = kroeg("check", ds.path)
    assert result.exit_code == 1
    assert (
        f"{entry}: a plan kroeg will not carry out: {problem}; nothing was changed. "
        f"If kroeg did not write it, move it out of {ds.journal_dir}"
    ) in result.stdout.splitlines()
    assert notes.read_text() == "keep me"


def test_a_journal_folder_that_links_out_is_refused(tmp_path: Path) -> None:
    ds, victim, _ = setup(tmp_path)
    (victim / "0f.json").write_text(json.dumps({"op": "write", "files": [f"games/{NAME}"]}))
    if ds.journal_dir.exists():
        ds.journal_dir.rmdir()  # left empty by the landing
    ds.journal_dir.symlink_to(victim, target_is_directory=True)
    result = kroeg("stats", ds.path)
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [
        f"Error: {ds.journal_dir}: a plan kroeg will not carry out: it is not a folder of "
        "plans but a link or a file; nothing was changed. If kroeg did not write it, move "
        f"it out of {ds.journal_dir}"
    ]
    assert sorted(p.name for p in victim.iterdir()) == ["0f.json", "notes.txt"]


def test_a_plan_kroeg_wrote_is_still_carried_out(tmp_path: Path) -> None:
    """The refusal is for plans that leave the dataset: a crash's own plan is undone."""
    ds, _, _ = setup(tmp_path)
    stray = ds.events_dir / NAME
    stray.write_bytes((ds.files("events")[0]).read_bytes())
    plan(ds, {"op": "write", "files": [f"events/{NAME}", f"games/{NAME}"]})
    assert kroeg("stats", ds.path).exit_code == 0
    assert not stray.exists() and not ds.pending_operations()


def test_temporaries_behind_a_link_out_are_not_swept(tmp_path: Path) -> None:
    """The next writer removes atomic_write's leftovers (`.NAME.XXXX.tmp`) from the
    dataset's folders, never from a folder a link leads to."""
    ds, victim, _ = setup(tmp_path)
    theirs = victim / ".draft.1234abcd.tmp"
    theirs.write_text("someone else's")
    (ds.path / "derived").mkdir(exist_ok=True)
    (ds.path / "derived" / "elsewhere").symlink_to(victim, target_is_directory=True)
    ours = ds.events_dir / ".part-x.parquet.1234abcd.tmp"
    ours.write_text("half a file")
    ds.write(simulate(Ruleset.preset("classic"), 4, 6, 9, ["random"]))
    assert theirs.read_text() == "someone else's"
    assert not ours.exists()
