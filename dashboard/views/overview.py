"""The Overview page."""

from dashboard.screens import overview

overview()
