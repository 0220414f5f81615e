"""kroeg: record, replay and analyse hand histories of Dutch café card games.

One import namespace: `kroeg.recorder` (the engine and the log), `kroeg.parsers`
(typed logs), `kroeg.analytics` (statistics, the newsletter), `kroeg.dashboard` (the
Streamlit app) and `kroeg.cli` (the `kroeg` command); docs/ARCHITECTURE.md.
"""

from importlib.metadata import version

__all__ = ["__version__"]

#: The one version number, pyproject.toml's (as installed).
__version__ = version("kroeg")
