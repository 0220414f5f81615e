"""The fault suite: concurrent writers and hostile files (docs/RELIABILITY.md).

Every test here is marked `faults`: `pytest tests/faults` or `pytest -m faults` runs
them on their own.
"""

from __future__ import annotations

import pytest


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if "tests/faults/" in item.nodeid:
            item.add_marker(pytest.mark.faults)
