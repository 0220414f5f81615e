"""Typed hand histories: the text notation and JSON Lines, read and written (docs/NOTATION.md)."""

# The engine first: its package decides, for every compiled module of the project,
# whether the extension or the Python source is imported (see recorder/__init__.py).
import recorder  # noqa: F401
