"""The Record page."""

from dashboard.screens import record

record()
