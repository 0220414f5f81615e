"""docs/ARCHITECTURE.md states facts about the code: these tests hold it to them."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import kroeg
import kroeg.recorder.errors as errors
from tests.test_imports import LAYERS, module_names

ROOT = Path(__file__).resolve().parents[1]
ARCHITECTURE = (ROOT / "docs" / "ARCHITECTURE.md").read_text(encoding="utf-8")


def test_every_module_is_named_in_its_package_row() -> None:
    modules = module_names(Path(kroeg.__file__).parent.parent)
    rows = {
        found.group(1): found.group(2)
        for found in re.finditer(r"^\| `(kroeg(?:\.\w+)?)` \|(.*)$", ARCHITECTURE, re.M)
    }
    assert set(rows) == {"kroeg", *(f"kroeg.{layer}" for layer in LAYERS[:-1])}
    missing = []
    for name in modules:
        parts = name.split(".")
        if len(parts) < 2 or name in rows:
            continue  # a package itself
        package = ".".join(parts[:2]) if parts[1] in LAYERS[:-1] else "kroeg"
        row = rows[package]
        if not any(f"`{parts[-1]}{end}" in row for end in ("`", ".py`", "/")):
            missing.append(name)
    assert missing == []


def tree(text: str) -> dict[str, str]:
    """A drawn class tree: each class name with its parent's."""
    parents: dict[str, str] = {}
    stack: list[tuple[int, str]] = []
    for line in text.splitlines():
        found = re.match(r"^(\W*?)(\w+)(\(ValueError\))?(?:\s|$)", line)
        if not found or not found.group(2)[0].isupper():
            continue
        depth = len(found.group(1))
        while stack and stack[-1][0] >= depth:
            stack.pop()
        parents[found.group(2)] = stack[-1][1] if stack else "ValueError"
        stack.append((depth, found.group(2)))
    return parents


def test_the_error_tree_is_drawn_as_the_classes_are() -> None:
    classes = {
        name: cls.__bases__[0].__name__
        for name, cls in vars(errors).items()
        if isinstance(cls, type) and issubclass(cls, errors.KroegError)
    }
    drawn_in_docs = tree(ARCHITECTURE[ARCHITECTURE.index("## Errors") :].split("```")[1])
    drawn_in_module = tree(errors.__doc__.split("\n\n")[1])  # type: ignore[union-attr]
    assert drawn_in_docs == classes
    assert drawn_in_module == classes
    assert set(errors.__all__) == set(classes)


def test_the_test_markers_are_the_ones_described() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    declared = {m.split(":")[0] for m in config["tool"]["pytest"]["ini_options"]["markers"]}
    used = {
        mark
        for path in (ROOT / "tests").rglob("*.py")
        for mark in re.findall(r"pytest\.mark\.(\w+)", path.read_text(encoding="utf-8"))
    } - {"parametrize", "skipif", "timeout", "usefixtures", "xfail", "filterwarnings", "skip"}
    described = set(re.findall(r"`(\w+)`, the", ARCHITECTURE[ARCHITECTURE.index("## Tests") :]))
    assert declared == used == described == {"slow", "spark", "faults"}
