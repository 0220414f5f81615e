"""Typed hand histories: the text notation and JSON Lines, read and written (docs/NOTATION.md)."""
