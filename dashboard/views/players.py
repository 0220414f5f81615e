"""The Players page."""

from dashboard.screens import players

players()
