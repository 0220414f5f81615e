"""The replay's browser side: clickable moves, the move list kept in view, swipes,
autoplay, "copy link".

A Streamlit components-v2 element (in the page itself, no iframe): `replay_nav.js`
listens for clicks on the moves that `dashboard.table.moves_html` draws and sends the
step back; Python moves the slider there before the page is drawn again. Its words (the
buttons', the speeds', what it says once the link is copied) come with its data, in the
page's language: the element's HTML is the same in every language.
"""

from __future__ import annotations

from pathlib import Path

import streamlit as st

from kroeg.analytics.words import Words

__all__ = ["mount", "nav_words"]

#: Autoplay's speeds: the pause between two steps, in milliseconds; the first is the one
#: chosen at first (their names: `nav_words`).
SPEEDS = ("1000", "2000", "500")
_HTML = (
    '<div class="kroeg-share">'
    '<button class="kroeg-play" type="button" aria-pressed="false"></button>'
    '<select class="kroeg-speed">'
    + "".join(f'<option value="{ms}"></option>' for ms in SPEEDS)
    + "</select>"
    '<button class="kroeg-copy" type="button"></button>'
    '<span class="kroeg-copied" aria-live="polite"></span>'
    '<input class="kroeg-link" readonly hidden></div>'
)
_CSS = """
.kroeg-share { display: flex; gap: 8px; align-items: center; flex-wrap: wrap; }
.kroeg-copy, .kroeg-play, .kroeg-speed { font: inherit; font-size: 14px; padding: 4px 10px;
  border-radius: 8px; border: 1px solid var(--st-border-color, #ccc); background: transparent;
  cursor: pointer; color: inherit; min-height: 44px; }
.kroeg-play[aria-pressed="true"] { background: #fff3c4; }
.kroeg-copied { font-size: 13px; color: #2e7d4f; }
.kroeg-link { font-size: 13px; width: 100%; }
/* On a phone the button says its short word (dashboard.table hides its long one). */
@media (max-width: 640px) { .kroeg-share .kroeg-copy::after { content: attr(data-short); } }
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


def nav_words(w: Words) -> dict[str, object]:
    """What the element says, in `w`'s language (replay_nav.js puts it in place)."""
    return {
        "play": w.say("replay_play", "▶ Play"),
        "pause": w.say("replay_pause", "❚❚ Pause"),
        "play_help": w.say("replay_play_help", "Play the hand step by step, from the step shown"),
        "speed": w.say("replay_speed", "Autoplay speed"),
        "speeds": {
            "1000": w.say("replay_speed_normal", "normal"),
            "2000": w.say("replay_speed_slow", "slow"),
            "500": w.say("replay_speed_fast", "fast"),
        },
        "copy": w.say("replay_copy_link", "Copy link"),
        "copy_short": w.say("replay_copy_link_short", "Link"),
        "copied": w.say("replay_link_copied", "Link copied"),
        "copy_by_hand": w.say("replay_copy_by_hand", "Copy this link:"),
        "link": w.say("replay_link", "Link to this move"),
    }


def mount(where: str, kinds: list[str], jumps: dict[str, list[str]], w: Words) -> None:
    """Autoplay and "copy link" here, and the listeners for clicks on the moves, swipes on
    the table and the keys that go back to a previous move of a kind (Shift and `jumps`'
    key), for a hand whose steps are of `kinds`, in order, its words in `w`'s language.
    `where` names the hand: another hand mounts this anew (an autoplay stops there)."""
    data = {"where": where, "kinds": kinds, "jumps": jumps, "words": nav_words(w)}
    _NAV(key="replay_nav", data=data, on_go_change=_go)


def _go() -> None:
    target = st.session_state["replay_nav"].get("go")
    if isinstance(target, int) and target >= 0:
        st.session_state[STEP_KEY] = target
