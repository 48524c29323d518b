// The page's entry: the lobby at "/", a table at "/?table=ID" (the link a friend is sent).
// The player's language is loaded first (js/i18n.js), so every screen is drawn in it.

import { languagePicker, loadLanguage } from "./i18n.js";
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

window.addEventListener("trumps:navigate", (event) => {
  const tableId = event.detail.table;
  history.pushState({}, "", tableId ? `/?table=${encodeURIComponent(tableId)}` : "/");
  show();
});
window.addEventListener("popstate", show);

languagePicker(await loadLanguage());
show();
