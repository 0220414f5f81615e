"""The dependency rule, as a test: recorder <- parsers <- analytics <- dashboard <- cli.

Every `import` in every module counts, at the top of a file or inside a function (a
function-level import is still a dependency, and was how a circle hid in analytics),
`TYPE_CHECKING` blocks included. A module may import from its own layer or the layers
below it, never above; inside a layer the modules import each other without a circle.
The old top-level names (`import analytics`) are gone: only `kroeg.…` is imported.
"""

from __future__ import annotations

import ast
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

import kroeg

#: The layers, lowest first: each may import only from itself and those before it.
LAYERS = ("recorder", "parsers", "analytics", "dashboard", "cli")
PACKAGE = Path(kroeg.__file__).parent


def layer_of(module: str) -> str:
    """The layer of a module of the kroeg namespace (`kroeg.x` itself: the command line)."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[1] in LAYERS[:-1] else "cli"


def module_names(root: Path) -> dict[str, Path]:
    """Every module below `root` (a folder holding the `kroeg` package), by dotted name."""
    found = {}
    paths = [
        Path(folder, name)
        for folder, _, names in os.walk(root / "kroeg", followlinks=True)  # the linked layers
        for name in names
        if name.endswith(".py")
    ]
    for path in sorted(paths):
        parts = list(path.relative_to(root).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def imports(module: str, path: Path, known: set[str]) -> Iterator[tuple[str, int]]:
    """The kroeg modules `module` imports, with the line of each import."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, node.lineno
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, *([base] if base else [])])
            for alias in node.names:
                full = f"{base}.{alias.name}"
                yield (full if full in known else base), node.lineno


def violations(root: Path) -> list[str]:
    """What breaks the rule in the tree at `root`, one line each (empty: none)."""
    modules = module_names(root)
    known = set(modules)
    problems = []
    graph: dict[str, set[str]] = {name: set() for name in modules}
    for name, path in modules.items():
        where = path.relative_to(root)
        for target, line in imports(name, path, known):
            top = target.split(".")[0]
            if top in LAYERS[:-1]:
                problems.append(f"{where}:{line}: imports {target}: use kroeg.{target}")
                continue
            if top != "kroeg" or target == "kroeg" or target not in known:
                continue
            mine, theirs = layer_of(name), layer_of(target)
            if LAYERS.index(theirs) > LAYERS.index(mine):
                problems.append(f"{where}:{line}: {mine} imports {target}, which is {theirs}")
            if mine == theirs and target != name:
                graph[name].add(target)
    problems.extend(f"import cycle: {' -> '.join(cycle)}" for cycle in cycles(graph))
    return problems


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """One cycle through each strongly connected group of modules (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for after in sorted(graph[node]):
            if after not in index:
                visit(after)
                low[node] = min(low[node], low[after])
            elif after in on_stack:
                low[node] = min(low[node], index[after])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                found.append(path_through(graph, set(group)))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def path_through(graph: dict[str, set[str]], group: set[str]) -> list[str]:
    """A closed walk inside `group`, from its first member back to it."""
    start = min(group)
    trail, node = [start], start
    seen = {start}
    while True:
        node = min(n for n in graph[node] if n in group)
        trail.append(node)
        if node in seen:
            return trail[trail.index(node) :]
        seen.add(node)


def test_the_package_keeps_the_dependency_rule() -> None:
    assert violations(PACKAGE.parent) == []


def write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    """A small kroeg-shaped tree that keeps the rule."""
    write(tmp_path, {
        "kroeg/__init__.py": "",
        "kroeg/cli.py": "from kroeg.analytics.stats import x\n",
        "kroeg/recorder/__init__.py": "",
        "kroeg/recorder/cards.py": "X = 1\n",
        "kroeg/analytics/__init__.py": "",
        "kroeg/analytics/stats.py": "from kroeg.recorder.cards import X\nfrom . import views\n",
        "kroeg/analytics/views.py": "def f():\n    from kroeg.recorder import cards\n",
    })  # fmt: skip
    return tmp_path


def test_a_tree_that_keeps_the_rule_passes(tree: Path) -> None:
    assert violations(tree) == []


def test_an_upward_import_fails_even_inside_a_function(tree: Path) -> None:
    write(tree, {"kroeg/recorder/cards.py": "def f():\n    from kroeg.analytics import stats\n"})
    assert violations(tree) == [
        "kroeg/recorder/cards.py:2: recorder imports kroeg.analytics.stats, which is analytics"
    ]


def test_a_package_init_belongs_to_its_layer(tree: Path) -> None:
    write(tree, {
        "kroeg/recorder/__init__.py": "from kroeg.analytics.stats import x\n",
        "kroeg/analytics/stats.py": "from kroeg.analytics import views\n"
                                    "from kroeg.recorder import X\n",
    })  # fmt: skip
    assert violations(tree) == [
        "kroeg/recorder/__init__.py:1: recorder imports kroeg.analytics.stats, which is analytics"
    ]


def test_a_circle_through_a_package_init_fails(tree: Path) -> None:
    write(tree, {
        "kroeg/analytics/__init__.py": "from kroeg.analytics.stats import x\n",
        "kroeg/analytics/stats.py": "import kroeg.analytics\n",
    })  # fmt: skip
    assert violations(tree) == [
        "import cycle: kroeg.analytics -> kroeg.analytics.stats -> kroeg.analytics"
    ]


def test_a_circle_inside_a_layer_fails(tree: Path) -> None:
    write(tree, {"kroeg/analytics/views.py": "def f():\n    from .stats import x\n"})
    assert violations(tree) == [
        "import cycle: kroeg.analytics.stats -> kroeg.analytics.views -> kroeg.analytics.stats"
    ]


def test_the_old_top_level_names_fail(tree: Path) -> None:
    write(tree, {"kroeg/analytics/views.py": "import recorder.cards\n"})
    assert violations(tree) == [
        "kroeg/analytics/views.py:1: imports recorder.cards: use kroeg.recorder.cards"
    ]
