// The page's entry: the lobby at "/", a table at "/?table=ID" (the link a friend is sent).
// The player's language is loaded first (js/i18n.js), so every screen is drawn in it.

import { chooseLanguage, LANGUAGES, loadLanguage } from "./i18n.js";
import { LobbyScreen } from "./lobby.js";
import { TableScreen } from "./table.js";

const root = document.getElementById("app");
let screen = null;

function show() {
  const tableId = new URLSearchParams(location.search).get("table");
  screen?.stop();
  screen = tableId ? new TableScreen(root, tableId) : new LobbyScreen(root);
  screen.start();
}

/** The language picker in the top bar: each language under its own name. */
function languagePicker(current) {
  const select = document.getElementById("language");
  if (!select) return;
  select.replaceChildren(...Object.entries(LANGUAGES).map(([code, name]) => {
    const option = document.createElement("option");
    option.value = code;
    option.lang = code;
    option.textContent = name;
    option.selected = code === current;
    return option;
  }));
  select.addEventListener("change", () => chooseLanguage(select.value));
}

window.addEventListener("trumps:navigate", (event) => {
  const tableId = event.detail.table;
  history.pushState({}, "", tableId ? `/?table=${encodeURIComponent(tableId)}` : "/");
  show();
});
window.addEventListener("popstate", show);

languagePicker(await loadLanguage());
show();
