"""Atomic writes: the file appears whole or not at all."""

from __future__ import annotations

from pathlib import Path

import pytest

from kroeg.recorder.atomic import atomic_write, write_text_atomic


def test_a_write_replaces_the_file_whole(tmp_path: Path) -> None:
    target = tmp_path / "out.txt"
    target.write_text("old", encoding="utf-8")
    write_text_atomic(target, "new ♥")
    assert target.read_text(encoding="utf-8") == "new ♥"
    assert [p.name for p in tmp_path.iterdir()] == ["out.txt"]  # no temporary file left


def test_a_failed_write_keeps_the_old_content_and_leaves_nothing(tmp_path: Path) -> None:
    target = tmp_path / "out.txt"
    target.write_text("old", encoding="utf-8")
    with pytest.raises(RuntimeError), atomic_write(target) as handle:
        handle.write("half of the new")
        raise RuntimeError("the disk is full")
    assert target.read_text(encoding="utf-8") == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["out.txt"]


def test_until_the_block_ends_only_a_temporary_file_exists(tmp_path: Path) -> None:
    target = tmp_path / "rules.json"
    with atomic_write(target) as handle:
        handle.write("{}")
        (tmp,) = tmp_path.iterdir()
        assert tmp.name.startswith(".rules.json.") and tmp.name.endswith(".tmp")
        assert not target.exists()
    assert target.read_text(encoding="utf-8") == "{}"
