"""kroeg: record, replay and analyse hand histories of Dutch café card games.

One import namespace: `kroeg.recorder` (the engine and the log), `kroeg.parsers`
(typed logs), `kroeg.analytics` (statistics, the newsletter), `kroeg.dashboard` (the
Streamlit app) and `kroeg.cli` (the `kroeg` command); docs/ARCHITECTURE.md.
"""

from __future__ import annotations

__all__ = ["__version__"]


def __getattr__(name: str) -> str:
    """`__version__`, the one version number, pyproject.toml's (as installed): looked up
    when asked for, since importlib.metadata costs every `kroeg` command 35 ms (measured)."""
    if name == "__version__":
        from importlib.metadata import version

        return version("kroeg")
    raise AttributeError(f"module 'kroeg' has no attribute {name!r}")
