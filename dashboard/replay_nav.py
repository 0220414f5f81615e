"""The replay's browser side: clickable moves, the move list kept in view, swipes,
autoplay, "copy link".

A Streamlit components-v2 element (in the page itself, no iframe): `replay_nav.js`
listens for clicks on the moves that `dashboard.table.moves_html` draws and sends the
step back; Python moves the slider there before the page is drawn again.
"""

from __future__ import annotations

from pathlib import Path

import streamlit as st

__all__ = ["mount"]

#: Autoplay's speeds: the pause between two steps, in milliseconds, and its name; the
#: first is the one chosen at first.
SPEEDS = {"1000": "normal", "2000": "slow", "500": "fast"}
_HTML = (
    '<div class="kroeg-share">'
    '<button class="kroeg-play" type="button" aria-pressed="false" title="Play the hand '
    'step by step, from the step shown">▶ Play</button>'
    '<select class="kroeg-speed" aria-label="Autoplay speed">'
    + "".join(f'<option value="{ms}">{name}</option>' for ms, name in SPEEDS.items())
    + "</select>"
    '<button class="kroeg-copy" type="button">Copy link</button>'
    '<span class="kroeg-copied" aria-live="polite"></span>'
    '<input class="kroeg-link" readonly hidden aria-label="Link to this move"></div>'
)
_CSS = """
.kroeg-share { display: flex; gap: 8px; align-items: center; flex-wrap: wrap; }
.kroeg-copy, .kroeg-play, .kroeg-speed { font: inherit; font-size: 14px; padding: 4px 10px;
  border-radius: 8px; border: 1px solid var(--st-border-color, #ccc); background: transparent;
  cursor: pointer; color: inherit; min-height: 44px; }
.kroeg-play[aria-pressed="true"] { background: #fff3c4; }
.kroeg-copied { font-size: 13px; color: #2e7d4f; }
.kroeg-link { font-size: 13px; width: 100%; }
"""
_NAV = st.components.v2.component(
    "kroeg_replay_nav",
    html=_HTML,
    css=_CSS,
    js=(Path(__file__).with_name("replay_nav.js")).read_text(encoding="utf-8"),
    isolate_styles=False,
)

#: Where the step lives in the session (the slider's key).
STEP_KEY = "replay_step"


def mount(where: str, kinds: list[str], jumps: dict[str, list[str]]) -> None:
    """Autoplay and "copy link" here, and the listeners for clicks on the moves, swipes on
    the table and the keys that go back to a previous move of a kind (Shift and `jumps`'
    key), for a hand whose steps are of `kinds`, in order. `where` names the hand: another
    hand mounts this anew (an autoplay stops there)."""
    data = {"where": where, "kinds": kinds, "jumps": jumps}
    _NAV(key="replay_nav", data=data, on_go_change=_go)


def _go() -> None:
    target = st.session_state["replay_nav"].get("go")
    if isinstance(target, int) and target >= 0:
        st.session_state[STEP_KEY] = target
