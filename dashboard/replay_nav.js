// The replay's clickable moves, the move list kept in view, swipes on the table, the
// keys back to a previous knock, fold or trick, autoplay, and "copy link" (the other keys
// are the step buttons' own shortcuts).
//
// Streamlit mounts this in the page itself (components v2, no iframe). It sends one
// trigger, "go", with the step to show; Python moves the slider there. The moves are
// plain HTML drawn by Python (li[data-kroeg-step]); this only listens. `data.kinds`: the
// kind of each step of the hand; `data.jumps`: a jump's key and the kinds it goes to;
// `data.words`: what the buttons and the speeds say, in the page's language.
export default function (component) {
  const { data, setTriggerValue, parentElement } = component;
  const words = data.words;
  const last = data.kinds.length - 1; // the hand's last step
  // The step shown is the list's current move: the data stay the same from step to step,
  // so a step does not mount this again.
  const shown = () => {
    const now = document.querySelector(".kroeg-moves li.now");
    return now ? Number(now.getAttribute("data-kroeg-step")) : null;
  };

  const go = (target) => {
    if (target === null || target === undefined || Number.isNaN(target)) return;
    target = Math.max(0, Math.min(last, target));
    if (target === shown()) return;
    setTriggerValue("go", target);
  };

  const onClick = (event) => {
    const move = event.target.closest && event.target.closest("[data-kroeg-step]");
    if (move) go(Number(move.getAttribute("data-kroeg-step")));
  };

  // Keep the current move in view inside the list's own box (never scroll the page). The
  // list is drawn anew at each step; it is scrolled once it is there, and again shortly
  // after, when fonts and the table above have settled. A list scrolled by anyone else
  // (a hand, a wheel, a test's click that brings a move into view) is left alone until
  // the step changes: the later scrolls are called off, so a move about to be clicked
  // never slides away under the pointer.
  let handled = null;
  let timers = [];
  let placed = null; // the scrollTop this code last gave the box
  let leftAlone = false; // someone else scrolled the list since the step changed
  const callOff = () => {
    timers.forEach(clearTimeout);
    timers = [];
    leftAlone = true;
  };
  const keepInView = () => {
    const box = document.querySelector(".kroeg-moves");
    const now = box && box.querySelector("li.now");
    if (!now) return;
    // The current move a third of the way down the box, as a chess site's move list;
    // a move too long for the rest of the box (a phone's box is three lines high) is
    // raised until its end, where its mark is, shows, but never above its first line.
    const outer = box.getBoundingClientRect();
    const inner = now.getBoundingClientRect();
    const top = inner.top - outer.top - box.clientTop;
    const third = top - box.clientHeight / 3;
    const end = top + inner.height - box.clientHeight;
    box.scrollTop += Math.min(Math.max(third, end), top);
    placed = box.scrollTop;
  };
  const onScroll = (event) => {
    const box = event.target;
    if (!box.classList || !box.classList.contains("kroeg-moves")) return;
    if (box.scrollTop !== placed) callOff(); // not ours
  };
  const onChange = () => {
    const now = document.querySelector(".kroeg-moves li.now");
    if (!now || now === handled) return;
    handled = now;
    callOff();
    leftAlone = false;
    placed = null;
    requestAnimationFrame(keepInView);
    timers = [setTimeout(keepInView, 150), setTimeout(keepInView, 600)];
    // On a slow machine the box and the list above it may settle later than that: each
    // time the box or its list changes size, the move is brought back into view, until
    // someone else scrolls the list.
    const box = now.closest(".kroeg-moves");
    resized.disconnect();
    if (box) {
      resized.observe(box);
      if (box.firstElementChild) resized.observe(box.firstElementChild);
    }
  };
  const resized = new ResizeObserver(() => { if (!leftAlone) keepInView(); });
  const observer = new MutationObserver(onChange);
  observer.observe(document.body, { childList: true, subtree: true });
  onChange();

  // A swipe across the table steps: to the left on, to the right back (mostly sideways,
  // so that scrolling the page up and down is left alone).
  let touch = null;
  const onTouchStart = (event) => {
    const table = event.target.closest && event.target.closest(".kroeg-table");
    touch = table && event.touches.length === 1
      ? { x: event.touches[0].clientX, y: event.touches[0].clientY } : null;
  };
  const onTouchEnd = (event) => {
    if (!touch || event.changedTouches.length !== 1) return;
    const dx = event.changedTouches[0].clientX - touch.x;
    const dy = event.changedTouches[0].clientY - touch.y;
    touch = null;
    const now = shown();
    if (now !== null && Math.abs(dx) > 40 && Math.abs(dx) > 2 * Math.abs(dy)) {
      go(now + (dx < 0 ? 1 : -1));
    }
  };

  // Shift and a jump's key (Shift+K: the knock before the step shown). The step buttons
  // take the key alone (the next one).
  const onKey = (event) => {
    if (!event.shiftKey || event.ctrlKey || event.altKey || event.metaKey) return;
    const where = event.target;
    if (where && (where.isContentEditable || /^(INPUT|SELECT|TEXTAREA)$/.test(where.tagName))) return;
    const kinds = data.jumps[event.key.toUpperCase()];
    const now = shown();
    if (!kinds || now === null) return;
    for (let step = now - 1; step >= 0; step--) {
      if (kinds.includes(data.kinds[step])) {
        event.preventDefault();
        go(step);
        return;
      }
    }
  };

  // Autoplay: a step on at every tick of the speed chosen, from the step shown, until
  // the hand's end or a second press.
  const play = parentElement.querySelector("button.kroeg-play");
  const speed = parentElement.querySelector("select.kroeg-speed");
  if (play) {
    play.textContent = words.play;
    play.title = words.play_help;
  }
  if (speed) {
    speed.setAttribute("aria-label", words.speed);
    for (const option of speed.options) option.textContent = words.speeds[option.value];
  }
  let playing = null;
  let asked = null; // the step autoplay asked for last, until the page shows it
  const stop = () => {
    if (playing !== null) clearInterval(playing);
    playing = null;
    asked = null;
    if (play) {
      play.textContent = words.play;
      play.setAttribute("aria-pressed", "false");
    }
  };
  const tick = () => {
    const now = shown();
    if (now === null) return stop();
    if (asked !== null && now !== asked) return; // a slow page: the last step is on its way
    if (now >= last) return stop();
    asked = now + 1;
    go(asked);
  };
  const start = () => {
    stop();
    if (shown() !== null && shown() >= last) { // played to the end: again from the start
      asked = 0;
      go(0);
    }
    playing = setInterval(tick, Number(speed.value));
    play.textContent = words.pause;
    play.setAttribute("aria-pressed", "true");
  };
  if (play) play.onclick = () => (playing === null ? start() : stop());
  if (speed) speed.onchange = () => { if (playing !== null) start(); };

  // One listener of each at a time, whatever the number of reruns.
  const previous = window.__kroegReplayNav;
  if (previous) previous();
  document.addEventListener("click", onClick);
  document.addEventListener("scroll", onScroll, true); // a box's scroll does not bubble
  document.addEventListener("touchstart", onTouchStart, { passive: true });
  document.addEventListener("touchend", onTouchEnd);
  document.addEventListener("keydown", onKey);
  const cleanup = () => {
    document.removeEventListener("click", onClick);
    document.removeEventListener("scroll", onScroll, true);
    document.removeEventListener("touchstart", onTouchStart);
    document.removeEventListener("touchend", onTouchEnd);
    document.removeEventListener("keydown", onKey);
    stop();
    callOff();
    observer.disconnect();
    resized.disconnect();
    if (window.__kroegReplayNav === cleanup) window.__kroegReplayNav = undefined;
  };
  window.__kroegReplayNav = cleanup;

  // "Copy link": the address already names the game, hand and step.
  const button = parentElement.querySelector("button.kroeg-copy");
  const said = parentElement.querySelector(".kroeg-copied");
  const field = parentElement.querySelector("input.kroeg-link");
  if (field) field.setAttribute("aria-label", words.link);
  if (button) {
    button.textContent = words.copy;
    button.setAttribute("data-short", words.copy_short);
    button.onclick = async () => {
      const link = window.location.href;
      try {
        await navigator.clipboard.writeText(link);
        said.textContent = words.copied;
        field.hidden = true;
      } catch (err) {
        // No clipboard (an address that is not https or localhost): show it to copy by hand.
        field.value = link;
        field.hidden = false;
        field.select();
        said.textContent = words.copy_by_hand;
      }
    };
  }
  return cleanup;
}
