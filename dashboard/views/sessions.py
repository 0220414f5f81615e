"""The Sessions page."""

from dashboard.screens import sessions

sessions()
