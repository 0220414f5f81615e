"""The Replay page."""

from dashboard.screens import replay

replay()
