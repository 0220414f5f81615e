"""Statistics, derived facts, the newsletter (docs/ARCHITECTURE.md)."""
