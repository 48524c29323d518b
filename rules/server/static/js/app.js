// The page's entry: the lobby at "/", a table at "/?table=ID" (the link a friend is sent).
// The player's language is loaded first (js/i18n.js), so every screen is drawn in it.

import { languagePicker, loadLanguage, t } from "./i18n.js";
import { LobbyScreen } from "./lobby.js";
import { TableScreen } from "./table.js";
import { h } from "./ui.js";

const root = document.getElementById("app");
let screen = null;

/** A wrong link: the server answers any unknown page's address with this page (and 404). */
const nowhere = {
  start() {
    document.title = t("page.title");
    root.replaceChildren(h("div", { class: "lobby" }, h("section", { class: "panel missing" },
      h("h2", {}, t("page.missing")),
      h("p", {}, t("page.missing_detail")),
      h("a", { class: "btn primary", href: "/" }, t("table.go_lobby")))));
  },
  stop() {},
};

function show() {
  if (location.pathname !== "/") {
    screen = nowhere;
    screen.start();
    return;
  }
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
