// Links between the dashboard's pages open in the same tab and the same session, so the
// sidebar's filters stay. Streamlit opens a Markdown link in a new tab, as a new session;
// this takes a plain click on a link to one of our pages and sends its address instead
// ("open"), and Python switches page. A click with a modifier or the middle button still
// opens a new tab, as a person expects.
export default function (component) {
  const { data, setTriggerValue } = component;
  const pages = new Set(data.pages);
  const onClick = (event) => {
    if (event.defaultPrevented || event.button !== 0) return;
    if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    const link = event.target.closest && event.target.closest("a[href]");
    if (!link) return;
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
