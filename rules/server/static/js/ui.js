// Small helpers for building the page: elements, the connection badge, the toast.

/**
 * Create an element: `h("p", {class: "x"}, "text", child)`. Attributes whose value is
 * false, null or undefined are left out; children that are "" or null are skipped.
 */
export function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === false || value === null || value === undefined) continue;
    node.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === "" || child === false) continue;
    node.append(child instanceof Node ? child : String(child));
  }
  return node;
}

/** The connection badge in the top bar: state is "online", "connecting", "offline" or "". */
export function setConnection(state, text) {
  const node = document.getElementById("connection");
  if (!node) return;
  node.className = `connection ${state}`;
  node.textContent = text;
}

let toastTimer = null;

/** A short message at the bottom of the screen; kind "error" for refusals and failures. */
export function showToast(text, kind = "info") {
  const node = document.getElementById("toast");
  if (!node) return;
  node.textContent = text;
  node.className = `toast ${kind}`;
  node.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => {
    node.hidden = true;
  }, kind === "error" ? 6000 : 3500);
}
