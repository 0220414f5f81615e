// Links between the dashboard's pages open in the same tab and the same session, so the
// sidebar's filters stay. Streamlit opens a Markdown link in a new tab, as a new session;
// this takes a plain click on a link to one of our pages and sends its address instead
// ("open"), and Python switches page. A click with a modifier or the middle button still
// opens a new tab, as a person expects.
//
// It also keeps the browser's history to what a person calls a move. Streamlit adds an
// entry each time a page's query parameters change: a replay step (`step=17`), or a
// page filling in the parameters it was opened without (`/replay` becoming
// `/replay?game=…&hand=1`), so Back went one step back, or nowhere. An address that only
// adds parameters, or changes only `step` or `view`, replaces the entry instead: Back
// returns to the page you came from, and a change of game or hand is still one entry.
// (A view is the page's setting, not a place: an entry for it was one Back did nothing
// with, as the page wrote the view it shows back into the address.)
const QUIET = new Set(["step", "view"]);

function refines(from, to) {
  if (from.origin !== to.origin || from.pathname !== to.pathname) return false;
  for (const [name, value] of from.searchParams) {
    if (!QUIET.has(name) && to.searchParams.get(name) !== value) return false;
  }
  return true;
}

function calmHistory() {
  if (window.__kroegHistory) return;
  const push = window.history.pushState.bind(window.history);
  window.history.pushState = (state, title, url) => {
    try {
      if (url != null && refines(new URL(window.location.href), new URL(url, window.location.href))) {
        return window.history.replaceState(state, title, url);
      }
    } catch (err) {
      // an address URL() cannot read: Streamlit's own behaviour
    }
    return push(state, title, url);
  };
  window.__kroegHistory = true;
}

export default function (component) {
  calmHistory();
  const { data, setTriggerValue } = component;
  const pages = new Set(data.pages);
  const onClick = (event) => {
    if (event.defaultPrevented || event.button !== 0) return;
    if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    const link = event.target.closest && event.target.closest("a[href]");
    if (!link) return;
    // Streamlit's own list of pages already switches page in this session, and on a
    // phone closes the sidebar after a tap: taking its click here left the sidebar open
    // over the page chosen.
    if (link.closest('[data-testid="stSidebarNav"]')) return;
    const url = new URL(link.getAttribute("href"), window.location.href);
    const page = url.pathname.split("/").pop();
    if (url.origin !== window.location.origin || !pages.has(page)) return;
    event.preventDefault();
    event.stopPropagation();
    setTriggerValue("open", page + url.search);
  };
  const previous = window.__kroegLinks;
  if (previous) previous();
  document.addEventListener("click", onClick, true);
  const cleanup = () => {
    document.removeEventListener("click", onClick, true);
    if (window.__kroegLinks === cleanup) window.__kroegLinks = undefined;
  };
  window.__kroegLinks = cleanup;
  return cleanup;
}
