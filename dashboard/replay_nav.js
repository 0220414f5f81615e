// The replay's clickable moves, the move list kept in view, and "copy link" (the keys
// are the step buttons' own shortcuts).
//
// Streamlit mounts this in the page itself (components v2, no iframe). It sends one
// trigger, "go", with the step to show; Python moves the slider there. The moves are
// plain HTML drawn by Python (li[data-kroeg-step]); this only listens.
export default function (component) {
  const { data, setTriggerValue, parentElement } = component;
  // The step shown is the list's current move: the data stay the same from step to step,
  // so a step does not mount this again.
  const shown = () => {
    const now = document.querySelector(".kroeg-moves li.now");
    return now ? Number(now.getAttribute("data-kroeg-step")) : null;
  };

  const go = (target) => {
    if (target === null || target === undefined || Number.isNaN(target)) return;
    target = Math.max(0, Math.min(data.last, target));
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
  const callOff = () => {
    timers.forEach(clearTimeout);
    timers = [];
  };
  const keepInView = () => {
    const box = document.querySelector(".kroeg-moves");
    const now = box && box.querySelector("li.now");
    if (!now) return;
    // The current move a third of the way down the box, as a chess site's move list.
    const outer = box.getBoundingClientRect();
    const inner = now.getBoundingClientRect();
    box.scrollTop += inner.top - outer.top - box.clientHeight / 3;
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
    placed = null;
    requestAnimationFrame(keepInView);
    timers = [setTimeout(keepInView, 150), setTimeout(keepInView, 600)];
  };
  const observer = new MutationObserver(onChange);
  observer.observe(document.body, { childList: true, subtree: true });
  onChange();

  // One listener of each at a time, whatever the number of reruns.
  const previous = window.__kroegReplayNav;
  if (previous) previous();
  document.addEventListener("click", onClick);
  document.addEventListener("scroll", onScroll, true); // a box's scroll does not bubble
  const cleanup = () => {
    document.removeEventListener("click", onClick);
    document.removeEventListener("scroll", onScroll, true);
    callOff();
    observer.disconnect();
    if (window.__kroegReplayNav === cleanup) window.__kroegReplayNav = undefined;
  };
  window.__kroegReplayNav = cleanup;

  // "Copy link": the address already names the game, hand and step.
  const button = parentElement.querySelector("button.kroeg-copy");
  const said = parentElement.querySelector(".kroeg-copied");
  const field = parentElement.querySelector("input.kroeg-link");
  if (button) {
    button.onclick = async () => {
      const link = window.location.href;
      try {
        await navigator.clipboard.writeText(link);
        said.textContent = "Link copied";
        field.hidden = true;
      } catch (err) {
        // No clipboard (an address that is not https or localhost): show it to copy by hand.
        field.value = link;
        field.hidden = false;
        field.select();
        said.textContent = "Copy this link:";
      }
    };
  }
  return cleanup;
}
