"""Who may see the dashboard, and whether it may write: decided once, where it starts.

- On loopback (127.0.0.1, ::1, localhost) it is this machine's: everything is on.
- Any other address needs `--expose`. Without a token it is then **read-only**: the
  Record page (the only page that writes to the dataset) is off.
- With a token every visitor must give it (`?token=…` in the address once, or the
  sidebar's field); the Record page is on again.

The server gets its decision through two environment variables; docs/RELIABILITY.md
has the threat model and how to put the dashboard behind a reverse proxy instead.
"""

from __future__ import annotations

import hmac
import ipaddress
from dataclasses import dataclass, field

from kroeg.recorder.errors import UsageError

__all__ = ["Access", "dashboard_access", "token_matches"]

#: The environment variables the server reads.
READ_ONLY_VAR, TOKEN_VAR = "KROEG_READ_ONLY", "KROEG_DASHBOARD_TOKEN"


@dataclass(frozen=True)
class Access:
    """What the server is told, and what the person starting it is warned of."""

    environment: dict[str, str] = field(default_factory=dict)
    warning: str | None = None


def _loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def dashboard_access(host: str, expose: bool, token: str | None) -> Access:
    """Check `--host`, `--expose` and `--token` together; UsageError if they do not fit."""
    if token is not None and len(token) < 12:
        raise UsageError("--token must be at least 12 characters (a secret, not a word)")
    if _loopback(host):
        return Access({TOKEN_VAR: token} if token else {})
    try:
        ipaddress.ip_address(host)
    except ValueError:
        raise UsageError(f"--host must be an IP address, found {host!r}") from None
    if not expose:
        raise UsageError(
            f"--host {host} serves the dashboard beyond this machine: add --expose "
            "(read-only) or --expose --token SECRET (docs/RELIABILITY.md)"
        )
    if token:
        return Access(
            {TOKEN_VAR: token},
            f"Warning: serving on {host} to the network; visitors need the token.",
        )
    return Access(
        {READ_ONLY_VAR: "1"},
        f"Warning: serving on {host} to the network without a token: read-only, "
        "no Record page, anyone who reaches the port sees every game.",
    )


def token_matches(given: str | None, expected: str) -> bool:
    """Whether a visitor gave the token (compared in constant time)."""
    return given is not None and hmac.compare_digest(given.encode(), expected.encode())
