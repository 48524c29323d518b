// The lobby: create a table, see the open ones, join or watch.

import { api, saveName, savedName, savedSeat, saveSeat } from "./api.js";
import { makeCard } from "./cards.js";
import { h, showToast } from "./ui.js";
import { errorText } from "./words.js";

// The computer's levels, as the server names them (rules.players.LEVELS).
const LEVELS = [
  ["easy", "easy"],
  ["medium", "medium"],
  ["hard", "hard"],
  ["perfect", "perfect"],
];
const REFRESH_MS = 4000;

export class LobbyScreen {
  constructor(root) {
    this.root = root;
    this.timer = null;
    this.list = null;
  }

  start() {
    document.title = "Your trumps · play Svoi Kozyri";
    this.root.replaceChildren(this.build());
    this.refresh();
    this.timer = setInterval(() => this.refresh(), REFRESH_MS);
    this.root.querySelector("#create-name")?.focus();
  }

  stop() {
    clearInterval(this.timer);
  }

  build() {
    const hero = h("section", { class: "hero" },
      h("div", {},
        h("h1", {}, "Your trumps"),
        h("p", {}, "Svoi Kozyri, the card game where every player has a trump suit of their own. Play a friend or the computer, right here in the browser."),
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
      h("div", { class: "panel-head" }, h("h2", { id: "tables-title" }, "Open tables"), this.refreshButton()),
      this.list,
    );
    return h("div", { class: "lobby" }, hero, this.createForm(), tables, howToPlay());
  }

  refreshButton() {
    const button = h("button", { type: "button", class: "btn small" }, "Refresh");
    button.addEventListener("click", () => this.refresh());
    return button;
  }

  createForm() {
    const form = h("form", { class: "panel create", "aria-labelledby": "create-title" });
    const players = h("fieldset", {}, h("legend", {}, "Players"),
      h("div", { class: "segmented" }, ...[2, 3, 4].map((n) => h("label", {},
        h("input", { type: "radio", name: "players", value: n, checked: n === 2 }),
        h("span", {}, n === 2 ? "2 · duel" : String(n)),
      ))),
    );
    const seats = h("div", { class: "seat-config", id: "seat-config" });
    form.append(
      h("h2", { id: "create-title" }, "New table"),
      h("div", { class: "form-grid" },
        h("label", { class: "field" }, h("span", { class: "label" }, "Your name"),
          h("input", { type: "text", id: "create-name", name: "name", maxlength: 32, value: savedName(), placeholder: "Anonymous", autocomplete: "nickname" })),
        players,
        h("fieldset", {}, h("legend", {}, "Other seats"), seats),
        h("fieldset", {}, h("legend", {}, "Rules"),
          h("label", { class: "check" }, h("input", { type: "checkbox", name: "pass_sixes", checked: true }),
            h("span", {}, "Pass sixes", h("small", {}, "After the deal, each six of another player's trump goes to that player."))),
          h("label", { class: "check" }, h("input", { type: "checkbox", name: "must_beat" }),
            h("span", {}, "Must beat", h("small", {}, "You may not take while you hold a card that beats the top card."))),
        ),
        h("div", { class: "field-row" },
          h("label", { class: "field" }, h("span", { class: "label" }, "Match"),
            h("select", { name: "match_hands" },
              h("option", { value: "" }, "Play on (no limit)"),
              ...[1, 3, 5, 10].map((n) => h("option", { value: n, selected: n === 5 }, `${n} hand${n === 1 ? "" : "s"}`)))),
          h("label", { class: "field" }, h("span", { class: "label" }, "Clock"),
            h("select", { name: "clock" },
              h("option", { value: "" }, "No clock"),
              ...[15, 30, 60].map((n) => h("option", { value: n }, `${n} s per move`)))),
        ),
        h("button", { type: "submit", class: "btn primary create-btn" }, "Create table and sit down"),
      ),
    );
    const drawSeats = () => {
      const n = Number(form.elements.players.value);
      const old = [...seats.querySelectorAll("select")].map((select) => select.value);
      seats.replaceChildren(...Array.from({ length: n - 1 }, (_, i) => {
        const seat = i + 1;
        const select = h("select", { name: `seat-${seat}`, "aria-label": `Seat ${seat + 1}` },
          ...LEVELS.map(([level, label]) => h("option", { value: level }, `Computer, ${label}`)),
          h("option", { value: "free" }, "A person (free seat)"),
        );
        select.value = old[i] ?? "easy";
        return h("div", { class: "seat-row" }, h("span", {}, `Seat ${seat + 1}`), select);
      }));
    };
    form.addEventListener("change", (event) => {
      if (event.target.name === "players") drawSeats();
    });
    drawSeats();
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      this.create(form);
    });
    return form;
  }

  async create(form) {
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
    const button = form.querySelector(".create-btn");
    button.disabled = true;
    try {
      const created = await api.createTable(body);
      saveSeat(created.table.id, created.seat, created.token);
      navigate(created.table.id);
    } catch (error) {
      showToast(errorText(error), "error");
    } finally {
      button.disabled = false;
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
    if (items.length === 0) items.push(h("li", { class: "empty" }, "No open tables yet. Create one!"));
    this.list.replaceChildren(...items);
  }

  tableItem(table) {
    const free = table.seats.filter((seat) => seat.kind === "free");
    const person = (seat) => `${seat.name || "a player"}${seat.connected ? "" : " (away)"}`;
    const freeSeat = (seat) => (seat.left ? "free seat: its player left" : "free seat");
    const who = table.seats.map((seat) => seat.kind === "free" ? freeSeat(seat) : seat.kind === "computer" ? `computer (${seat.level})` : person(seat)).join(" · ");
    const status = table.status === "waiting" ? `waiting for ${free.length} player${free.length === 1 ? "" : "s"}` : `hand ${table.hand}`;
    const mine = savedSeat(table.id);
    const actions = h("div", { class: "actions" });
    if (mine) {
      actions.append(h("a", { class: "btn small primary", href: `/?table=${encodeURIComponent(table.id)}`, "data-table": table.id }, "Back to your seat"));
    } else if (free.length) {
      const underway = table.status === "playing";
      const join = h("button", { type: "button", class: "btn small primary join", "data-table": table.id }, underway ? "Join the match under way" : "Join");
      join.addEventListener("click", () => this.join(table.id, join));
      actions.append(join);
    }
    actions.append(h("a", { class: "btn small watch", href: `/?table=${encodeURIComponent(table.id)}`, "data-table": table.id }, "Watch"));
    for (const link of actions.querySelectorAll("a")) link.addEventListener("click", (event) => {
      event.preventDefault();
      navigate(table.id);
    });
    return h("li", { class: "table-item", "data-table": table.id },
      h("div", { class: "what" },
        h("strong", {}, `${table.players === 2 ? "Duel" : `${table.players} players`} · ${status}`),
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
  const parts = [table.rules.pass_sixes ? "sixes pass" : "sixes stay", table.rules.must_beat ? "must beat" : "taking allowed"];
  if (table.match_hands) parts.push(`${table.match_hands} hands`);
  if (table.clock) parts.push(`${table.clock} s per move`);
  if (table.spectators) parts.push(`${table.spectators} watching`);
  return parts.join(" · ");
}

function navigate(tableId) {
  window.dispatchEvent(new CustomEvent("trumps:navigate", { detail: { table: tableId } }));
}

function howToPlay() {
  return h("section", { class: "panel how-to", "aria-labelledby": "how-title" },
    h("h2", { id: "how-title" }, "How to play"),
    h("ol", {},
      h("li", {}, "Each player picks a trump suit of their own; the whole pack of 36 cards is dealt."),
      h("li", {}, "Lead any card. The next player beats the top card with a higher card of its suit or with one of their own trumps, then adds a second card of their choice."),
      h("li", {}, "Or they take: the top three cards, five if the top card is their trump, the whole pile for the ace of their trump."),
      h("li", {}, "Get rid of all your cards. The last player holding cards loses the hand."),
    ),
    h("p", { class: "keys" }, "Keys: Tab or ← → to pick a card, Enter to play it, T to take, N for the next hand."),
  );
}
