// The lobby: create a table, see the open ones, join or watch.

import { api, saveName, savedName, savedSeat, saveSeat } from "./api.js";
import { makeCard } from "./cards.js";
import { clockTime, t } from "./i18n.js";
import { h, showToast } from "./ui.js";
import { errorText, isHeld, openSeats, personName } from "./words.js";

// The computer's levels, as the server names them (rules.players.LEVELS); the page
// shows each as t("level.<name>").
const LEVELS = ["easy", "medium", "hard", "perfect"];
const REFRESH_MS = 4000;

export class LobbyScreen {
  constructor(root) {
    this.root = root;
    this.timer = null;
    this.list = null;
  }

  start() {
    document.title = t("page.lobby_title");
    this.root.replaceChildren(this.build());
    this.refresh();
    this.configured = this.configure();
    this.timer = setInterval(() => this.refresh(), REFRESH_MS);
    this.root.querySelector("#create-name")?.focus({ preventScroll: true });
  }

  stop() {
    clearInterval(this.timer);
  }

  build() {
    const hero = h("section", { class: "hero" },
      h("div", {},
        h("h1", {}, t("lobby.heading")),
        h("p", {}, t("lobby.intro")),
        this.links = h("p", { class: "hero-links" },
          h("a", { class: "btn small board-link", href: "/replay" }, t("lobby.board"))),
      ),
      h("div", { class: "hero-cards", "aria-hidden": "true" },
        ...["AS", "KH", "TD", "QC", "6H"].map((code, i) => {
          const card = makeCard(code);
          card.style.setProperty("--tilt", `${(i - 2) * 7}deg`);
          return card;
        }),
      ),
    );
    this.list = h("ul", { class: "table-list", "aria-live": "polite" });
    const tables = h("section", { class: "panel tables", "aria-labelledby": "tables-title" },
      h("div", { class: "panel-head" }, h("h2", { id: "tables-title" }, t("lobby.open_tables")), this.refreshButton()),
      this.list,
    );
    return h("div", { class: "lobby" }, hero, howToPlay(), this.createForm(), tables);
  }

  /**
   * What the server decides (GET /api/config): the link to the full rules, where it was given their address
   * (trumps serve --rules-url), and the rule options a new table has unless asked otherwise, where the form starts.
   */
  async configure() {
    let config;
    try {
      config = await api.config();
    } catch {
      return; // none reachable: the lobby's own summary of the rules stays, and no table can be made anyway
    }
    const url = config.rules_url;
    if (url) this.links.append(h("a", { class: "btn small rules-link", href: url, rel: "noopener" }, t("lobby.full_rules")));
    if (config.defaults) this.startForm(config.defaults);
  }

  refreshButton() {
    const button = h("button", { type: "button", class: "btn small" }, t("lobby.refresh"));
    button.addEventListener("click", () => this.refresh());
    return button;
  }

  createForm() {
    const form = h("form", { class: "panel create", "aria-labelledby": "create-title" });
    const players = h("fieldset", {}, h("legend", {}, t("form.players")),
      h("div", { class: "segmented" }, ...[2, 3, 4].map((n) => h("label", {},
        h("input", { type: "radio", name: "players", value: n }),
        h("span", {}, n === 2 ? t("form.duel") : String(n)),
      ))),
    );
    const seats = h("div", { class: "seat-config", id: "seat-config" });
    // A friend instead of the computer: every other seat left free, and the table's page gives the link.
    const invite = h("button", { type: "button", class: "btn invite-btn" }, t("form.invite"));
    invite.addEventListener("click", () => {
      for (const select of seats.querySelectorAll("select")) select.value = "free";
      this.create(form);
    });
    form.append(
      h("h2", { id: "create-title" }, t("form.new_table")),
      h("div", { class: "form-grid" },
        h("label", { class: "field" }, h("span", { class: "label" }, t("form.name")),
          h("input", { type: "text", id: "create-name", name: "name", maxlength: 32, value: savedName(), placeholder: t("form.anonymous"), autocomplete: "nickname" })),
        players,
        h("fieldset", {}, h("legend", {}, t("form.other_seats")), seats),
        h("fieldset", {}, h("legend", {}, t("form.rules")),
          h("label", { class: "check" }, h("input", { type: "checkbox", name: "pass_sixes" }),
            h("span", {}, t("form.pass_sixes"), h("small", {}, t("form.pass_sixes_help")))),
          h("label", { class: "check" }, h("input", { type: "checkbox", name: "must_beat" }),
            h("span", {}, t("form.must_beat"), h("small", {}, t("form.must_beat_help")))),
        ),
        h("div", { class: "field-row" },
          h("label", { class: "field" }, h("span", { class: "label" }, t("form.match")),
            h("select", { name: "match_hands" },
              h("option", { value: "" }, t("form.play_on")),
              ...[1, 3, 5, 10].map((n) => h("option", { value: n, selected: n === 5 }, t("form.hands", { count: n }))))),
          h("label", { class: "field" }, h("span", { class: "label" }, t("form.clock")),
            h("select", { name: "clock" },
              h("option", { value: "" }, t("form.no_clock")),
              ...[15, 30, 60].map((n) => h("option", { value: n }, t("form.per_move", { n }))))),
        ),
        h("div", { class: "create-actions" },
          h("button", { type: "submit", class: "btn primary create-btn" }, t("form.create")),
          invite,
        ),
      ),
    );
    const drawSeats = () => {
      const n = Number(form.elements.players.value);
      const old = [...seats.querySelectorAll("select")].map((select) => select.value);
      seats.replaceChildren(...Array.from({ length: n - 1 }, (_, i) => {
        const seat = i + 1;
        const select = h("select", { name: `seat-${seat}`, "aria-label": t("form.seat", { n: seat }) },
          ...LEVELS.map((level) => h("option", { value: level }, t("form.computer", { level: t(`level.${level}`) }))),
          h("option", { value: "free" }, t("form.person")),
        );
        select.value = old[i] ?? "easy";
        return h("div", { class: "seat-row" }, h("span", {}, t("form.seat", { n: seat })), select);
      }));
    };
    form.addEventListener("change", (event) => {
      this.touched.add(event.target.name);
      if (event.target.name === "players") drawSeats();
    });
    this.drawSeats = drawSeats;
    this.touched = new Set(); // what the player set before the server's defaults came: theirs stays
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      this.create(form);
    });
    return form;
  }

  /** The server's defaults shown in the form (rules/defaults.py), where the player has not chosen already. */
  startForm(defaults) {
    const form = this.root.querySelector("form.create");
    if (!form) return;
    if (!this.touched.has("players")) form.elements.players.value = String(defaults.players);
    for (const option of ["pass_sixes", "must_beat"]) {
      if (!this.touched.has(option)) form.elements[option].checked = defaults[option];
    }
    this.drawSeats();
  }

  async create(form) {
    await this.configured; // the form starts from the server's defaults
    const elements = form.elements;
    const players = Number(elements.players.value);
    const name = elements.name.value.trim();
    saveName(name);
    const computer = [];
    for (let seat = 1; seat < players; seat++) {
      const value = elements[`seat-${seat}`].value;
      if (value !== "free") computer.push({ seat, level: value });
    }
    const body = {
      players,
      // The creator sits in seat 0 and the dealer is the last seat, so the creator chooses
      // a trump and leads first.
      dealer: players - 1,
      pass_sixes: elements.pass_sixes.checked,
      must_beat: elements.must_beat.checked,
      computer,
      clock: elements.clock.value ? Number(elements.clock.value) : null,
      match_hands: elements.match_hands.value ? Number(elements.match_hands.value) : null,
      join: true,
      seat: 0,
      name: name || null,
    };
    const buttons = [...form.querySelectorAll(".create-actions .btn")];
    for (const button of buttons) button.disabled = true;
    try {
      const created = await api.createTable(body);
      saveSeat(created.table.id, created.seat, created.token);
      navigate(created.table.id);
    } catch (error) {
      showToast(errorText(error), "error");
    } finally {
      for (const button of buttons) button.disabled = false;
    }
  }

  async refresh() {
    let lobby;
    try {
      lobby = await api.listTables();
    } catch (error) {
      this.list.replaceChildren(h("li", { class: "empty" }, errorText(error)));
      return;
    }
    const items = lobby.tables.map((table) => this.tableItem(table));
    if (items.length === 0) items.push(h("li", { class: "empty" }, t("lobby.none")));
    this.list.replaceChildren(...items);
  }

  tableItem(table) {
    const free = table.seats.filter((seat) => seat.kind === "free");
    const person = (seat) => {
      const name = seat.name ? personName(seat.name) : t("lobby.a_player");
      return seat.connected ? name : t("lobby.away", { name });
    };
    const level = (seat) => (seat.level ? t(`level.${seat.level}`) : "");
    const freeSeat = (seat) => isHeld(seat)
      ? t("lobby.held_seat", { time: clockTime(seat.held_until) })
      : t(seat.left ? "lobby.free_seat_left" : "lobby.free_seat");
    const who = table.seats.map((seat) => seat.kind === "free" ? freeSeat(seat) : seat.kind === "computer" ? t("lobby.computer", { level: level(seat) }) : person(seat)).join(" · ");
    // A full table is "playing" at hand 0 for the moment before its first hand starts by itself: say hand 1.
    const status = table.status === "waiting" ? t("lobby.waiting", { count: free.length }) : t("lobby.hand", { n: Math.max(table.hand, 1) });
    const mine = savedSeat(table.id);
    const actions = h("div", { class: "actions" });
    if (mine) {
      actions.append(h("a", { class: "btn small primary", href: `/?table=${encodeURIComponent(table.id)}`, "data-table": table.id }, t("lobby.back_to_seat")));
    } else if (openSeats(table.seats).length) { // a seat kept for a rematch's player is no seat to join
      const underway = table.status === "playing";
      const join = h("button", { type: "button", class: "btn small primary join", "data-table": table.id }, t(underway ? "lobby.join_underway" : "lobby.join"));
      join.addEventListener("click", () => this.join(table.id, join));
      actions.append(join);
    }
    actions.append(h("a", { class: "btn small watch", href: `/?table=${encodeURIComponent(table.id)}`, "data-table": table.id }, t("lobby.watch")));
    for (const link of actions.querySelectorAll("a")) link.addEventListener("click", (event) => {
      event.preventDefault();
      navigate(table.id);
    });
    return h("li", { class: "table-item", "data-table": table.id },
      h("div", { class: "what" },
        h("strong", {}, `${table.players === 2 ? t("lobby.duel") : t("lobby.players", { count: table.players })} · ${status}`),
        h("small", {}, who),
        h("small", { class: "rules" }, ruleSummary(table)),
      ),
      actions,
    );
  }

  async join(tableId, button) {
    button.disabled = true;
    try {
      const joined = await api.joinTable(tableId, null, savedName() || null);
      saveSeat(tableId, joined.seat, joined.token);
      navigate(tableId);
    } catch (error) {
      showToast(errorText(error), "error");
      button.disabled = false;
    }
  }
}

function ruleSummary(table) {
  const parts = [
    t(table.rules.pass_sixes ? "lobby.sixes_pass" : "lobby.sixes_stay"),
    t(table.rules.must_beat ? "lobby.must_beat" : "lobby.taking_allowed"),
  ];
  if (table.match_hands) parts.push(t("form.hands", { count: table.match_hands }));
  if (table.clock) parts.push(t("form.per_move", { n: table.clock }));
  if (table.spectators) parts.push(t("lobby.watching", { count: table.spectators }));
  return parts.join(" · ");
}

function navigate(tableId) {
  window.dispatchEvent(new CustomEvent("trumps:navigate", { detail: { table: tableId } }));
}

function howToPlay() {
  return h("section", { class: "panel how-to", "aria-labelledby": "how-title" },
    h("h2", { id: "how-title" }, t("how.title")),
    h("p", { class: "aim" }, t("how.4")), // the aim of the game first
    h("ol", {},
      ...["how.1", "how.2", "how.3", "how.5"].map((key) => h("li", {}, t(key))),
    ),
    h("p", { class: "keys" }, t("how.keys")),
  );
}
