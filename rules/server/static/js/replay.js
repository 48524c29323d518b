// The analysis board (/replay): a log stepped through ply by ply, every hand face up, each
// position evaluated by the server (exact where the solver answers, else an estimate).
//
// Opened from a file (drop or picker), pasted text, or a finished hand of an online table
// (/replay?table=ID&hand=N). "#ply=N" in the address is the position shown; a link to a
// position of any other log carries the log itself, deflated, in the fragment: "#log=…&ply=N".
// The rules run on the server only: POST /api/replay gives every ply's state and legal moves.

import { cardLabel, makeCard, suitName, suitSymbol } from "./cards.js";
import { languagePicker, language, loadLanguage, t } from "./i18n.js";
import { trumpBadge } from "./parts.js";
import { h, showToast } from "./ui.js";
import { errorText, eventLine, notificationLine, seatName } from "./words.js";

const SAVED = "trumps:replay-log";
const LEVEL = "medium";

// The players' names for a hand of an online table (as its page calls them: "You", "Computer", a
// person's name); null for any other log, whose seats are numbered from 0 as the log numbers them.
let seatNames = null;

function seatLabel(seat) {
  return seatNames?.[seat] ?? t("seat.n", { n: seat });
}

/** The seats as the sentences of js/words.js take them, each called by its label on this board (up to four). */
function namedSeats() {
  return [0, 1, 2, 3].map((seat) => ({ kind: "human", name: seatLabel(seat) }));
}

/** The names of an online table's players, from the lobby's record of it (null if it cannot be had). */
/** The table's information (GET /api/tables/ID), or null when it cannot be had. */
async function tableInfo(tableId) {
  try {
    const response = await fetch(`/api/tables/${encodeURIComponent(tableId)}`);
    if (!response.ok) return null;
    const data = await response.json();
    const info = data.table ?? data;
    return Array.isArray(info.seats) ? info : null;
  } catch {
    return null;
  }
}

/** The names the board gives the seats of a table. */
function seatNamesOf(info) {
  const seats = info.seats;
  // Names in the third person ("Ada wins", "Computer wins"): the sentences of the board are about
  // a seat, not addressed to the reader. A person without a name keeps the seat's number.
  return seats.map((seat) => (seat.kind === "free" || (seat.kind === "human" && !seat.name) ? null : seatName(seats, seat.seat, null)));
}

/** A winning chance (0..1) written the language's way ("57%", "57 %"). */
function percent(chance) {
  return new Intl.NumberFormat(language(), { style: "percent", maximumFractionDigits: 0 }).format(chance);
}

/** A move as the evaluation lists it ("lead 9♥", "take"). */
function moveWords(event) {
  if (event.type === "take") return t("replay.move.take");
  return t(`replay.move.${event.type}`, { card: cardLabel(event.card) });
}

/**
 * Why the server refused a log, in the page's language: the server's own English sentence
 * (which names the line) for English readers, the code's message for the others.
 */
function refusal(error) {
  if (error.utf8) return t("replay.not_utf8", { line: error.line });
  if (language() === "en" && error.message) return error.message;
  if (error.code === "too_large") return t("error.log_too_large");
  return error.code === "bad_log" && error.line ? t("error.bad_log_line", { line: error.line }) : errorText(error);
}

/**
 * A log file's text; a file that is not UTF-8 is refused naming its first such line, as trumps replay refuses it
 * (file.text() would put U+FFFD in place of the bad bytes, and the server would read another log).
 */
async function fileText(file) {
  const bytes = new Uint8Array(await file.arrayBuffer());
  const strict = new TextDecoder("utf-8", { fatal: true });
  try {
    return strict.decode(bytes);
  } catch {
    let line = 1;
    let start = 0;
    for (let at = 0; at <= bytes.length; at += 1) {
      if (at < bytes.length && bytes[at] !== 10) continue;
      try {
        strict.decode(bytes.subarray(start, at));
      } catch {
        break;
      }
      line += 1;
      start = at + 1;
    }
    throw Object.assign(new Error(""), { code: "bad_log", line, utf8: true });
  }
}

/** The catalog's sentence for each `reason_code` of an evaluation (docs/protocol.md; its `reason` is English prose). */
const REASONS = {
  blind: "replay.reason.blind",
  not_dealt: "replay.reason.not_dealt",
  duel_only: "replay.reason.duel_only",
  budget: "replay.reason.no_exact",
};

/** Why a position has no exact value, in the page's language. */
function reasonText(found, state) {
  const key = REASONS[found.reason_code];
  if (key) return t(key);
  if (found.kind === "none") return t(state.phase === "trump_choice" ? "replay.reason.blind" : "replay.reason.not_dealt");
  return t(state.hands.length > 2 ? "replay.reason.duel_only" : "replay.reason.no_exact");
}

function sameMove(a, b) {
  return a && b && a.type === b.type && a.seat === b.seat && (a.card ?? null) === (b.card ?? null);
}

async function postJson(url, body) {
  let response;
  try {
    response = await fetch(url, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  } catch {
    throw Object.assign(new Error(""), { code: "offline" }); // no answer at all: the server is away (said as error.offline)
  }
  const data = await response.json().catch(() => ({ message: response.statusText }));
  if (!response.ok) {
    const error = new Error(data.message || response.statusText);
    error.code = data.code;
    error.line = data.line;
    throw error;
  }
  return data;
}

class ReplayBoard {
  constructor(root) {
    this.root = root;
    this.replay = null; // {header, lines, plies}
    this.ply = 0;
    this.source = null; // {table, hand} for a hand of an online table, else null
    this.evaluations = new Map(); // ply -> evaluation
    this.failures = new Map(); // ply -> the error that left it without an evaluation (shown, with a button to ask again)
    this.generation = 0; // bumped when another log is opened: stale answers are dropped
    this.playing = null; // {seat} while playing on against the computer
    this.onKey = (event) => this.key(event);
  }

  async start() {
    document.addEventListener("keydown", this.onKey);
    window.addEventListener("hashchange", () => this.go(this.plyFromHash(), { fromHash: true }));
    const params = new URLSearchParams(location.search);
    if (params.get("table") && params.get("hand")) {
      this.source = { table: params.get("table"), hand: params.get("hand"), last: null };
      this.root.replaceChildren(h("p", { class: "loading" }, t("replay.reading")));
      try {
        const url = `/api/tables/${encodeURIComponent(this.source.table)}/hands/${encodeURIComponent(this.source.hand)}/log`;
        const response = await fetch(url);
        if (!response.ok) {
          const data = await response.json().catch(() => ({}));
          throw Object.assign(new Error(data.message || response.statusText), { code: data.code });
        }
        const text = await response.text();
        const info = await tableInfo(this.source.table);
        seatNames = info ? seatNamesOf(info) : null;
        // A match that is over has no hand after its last one; any other table may yet have it.
        this.source.last = info?.status === "finished" ? Number(info.hand) : null;
        await this.open(text);
      } catch (error) {
        // not_found answers both "no such table" and "no such hand": a table that is there has not had this hand.
        const hand = error.code === "not_found" && (await tableInfo(this.source.table)) !== null;
        this.showOpener(t("replay.no_hand", { reason: hand ? t("replay.no_such_hand", { hand: this.source.hand }) : refusal(error) }));
      }
      return;
    }
    const packed = /(?:^#|&)log=([A-Za-z0-9_-]+)/.exec(location.hash);
    if (packed) {
      let text;
      try {
        text = await unpackLog(packed[1]);
      } catch {
        this.showOpener(t("replay.bad_log", { reason: t("error.bad_log") }));
        return;
      }
      await this.open(text);
      return;
    }
    const saved = sessionStorage.getItem(SAVED);
    if (saved) await this.open(saved, { quiet: true });
    else this.showOpener();
  }

  // --- opening a log ------------------------------------------------------------------------------

  showOpener(problem = "") {
    this.replay = null;
    this.generation += 1; // the evaluations still under way were the closed log's
    const picker = h("input", { type: "file", accept: ".jsonl,.json,.txt,application/x-ndjson,text/plain", class: "file-input", "aria-label": t("replay.pick") });
    picker.addEventListener("change", async () => {
      const file = picker.files?.[0];
      if (file) await this.openFile(file);
    });
    const pickLabel = h("label", { class: "btn small" }, t("replay.pick"), picker);
    // Not a tab stop of its own: a keyboard opens a log by the picker in it (or by pasting, below).
    const zone = h("div", { class: "drop-zone" }, h("p", {}, t("replay.drop"), " ", pickLabel));
    zone.addEventListener("dragover", (event) => {
      event.preventDefault();
      zone.classList.add("over");
    });
    zone.addEventListener("dragleave", () => zone.classList.remove("over"));
    zone.addEventListener("drop", async (event) => {
      event.preventDefault();
      zone.classList.remove("over");
      const file = event.dataTransfer?.files?.[0];
      if (file) return this.openFile(file);
      const text = event.dataTransfer?.getData("text/plain");
      if (text) await this.open(text);
    });
    const area = h("textarea", { class: "paste", rows: "6", spellcheck: "false", "aria-label": t("replay.paste"), placeholder: '{"type":"start","format":1,"players":2,"dealer":0}' });
    const open = h("button", { type: "button", class: "btn primary open-pasted" }, t("replay.open"));
    open.addEventListener("click", () => this.open(area.value));
    this.root.replaceChildren(
      h("section", { class: "opener panel" },
        h("h1", {}, t("replay.title")),
        h("p", {}, t("replay.intro")),
        problem ? h("p", { class: "problem", role: "alert" }, problem) : null,
        zone,
        h("p", {}, t("replay.paste")),
        area,
        h("p", {}, open)),
    );
  }

  async openFile(file) {
    let text;
    try {
      text = await fileText(file);
    } catch (error) {
      this.showOpener(t("replay.bad_log", { reason: refusal(error) }));
      return;
    }
    await this.open(text);
  }

  async open(text, { quiet = false } = {}) {
    let replay;
    try {
      replay = await postJson("/api/replay", { log: text });
    } catch (error) {
      if (quiet) sessionStorage.removeItem(SAVED);
      this.showOpener(t("replay.bad_log", { reason: refusal(error) }));
      return;
    }
    if (!this.source) sessionStorage.setItem(SAVED, text);
    this.generation += 1;
    this.replay = replay;
    this.original = replay;
    this.evaluations = new Map();
    this.failures = new Map();
    this.playing = null;
    this.layout();
    this.go(this.plyFromHash());
    this.evaluateAll(this.generation);
  }

  plyFromHash() {
    const match = /ply=(\d+)/.exec(location.hash);
    const total = this.replay ? this.replay.plies.length - 1 : 0;
    return match ? Math.min(Number(match[1]), total) : total;
  }

  // --- the page's parts ----------------------------------------------------------------------------

  layout() {
    const total = this.replay.plies.length - 1;
    const button = (label, text, action, cls) => {
      const node = h("button", { type: "button", class: `btn small ${cls}`, "aria-label": label, title: label }, text);
      node.addEventListener("click", action);
      return node;
    };
    this.slider = h("input", { type: "range", min: "0", max: String(total), value: String(this.ply), class: "ply-slider", "aria-label": t("replay.slider") });
    this.slider.addEventListener("input", () => this.go(Number(this.slider.value)));
    this.counter = h("span", { class: "ply-counter", "aria-live": "polite" });
    const controls = h("div", { class: "controls" },
      button(t("replay.first"), "|◀", () => this.go(0), "first"),
      button(t("replay.prev"), "◀", () => this.go(this.ply - 1), "prev"),
      this.slider,
      button(t("replay.next"), "▶", () => this.go(this.ply + 1), "next"),
      button(t("replay.last"), "▶|", () => this.go(this.replay.plies.length - 1), "last"),
      this.counter);
    this.board = h("section", { class: "board felt", "aria-label": t("replay.title") });
    this.narration = h("ul", { class: "narration", "aria-live": "polite" });
    this.evaluationBox = h("div", { class: "evaluation", "aria-live": "polite" });
    this.graph = h("div", { class: "graph" });
    this.moveList = h("ol", { class: "move-list", start: "1" });
    this.playBox = h("div", { class: "play-on-box" });
    const linkButton = h("button", { type: "button", class: "btn small copy-link" }, t("replay.link"));
    linkButton.addEventListener("click", () => this.copyLink());
    const another = h("button", { type: "button", class: "btn small another" }, t("replay.open_another"));
    another.addEventListener("click", () => {
      sessionStorage.removeItem(SAVED);
      history.replaceState(null, "", "/replay");
      this.source = null;
      this.showOpener();
    });
    const text = this.replay.lines.join("\n") + "\n";
    const download = h("a", { class: "btn small", download: "game.jsonl", href: URL.createObjectURL(new Blob([text], { type: "application/x-ndjson" })) }, t("replay.download"));
    this.playButton = h("button", { type: "button", class: "btn small play-on" }, t("replay.play_on"));
    this.playButton.addEventListener("click", () => (this.playing ? this.stopPlaying() : this.playOn()));
    // A hand of an online table: the table's other hands are a link away (those not over are refused, saying so).
    const hands = this.source ? h("p", { class: "table-hands" },
      h("strong", {}, t("replay.hand_of", { hand: this.source.hand, table: this.source.table })), " ",
      Number(this.source.hand) > 1 ? h("a", { class: "btn small", href: this.handLink(Number(this.source.hand) - 1) }, t("replay.previous_hand")) : null, " ",
      this.source.last === null || Number(this.source.hand) < this.source.last
        ? h("a", { class: "btn small", href: this.handLink(Number(this.source.hand) + 1) }, t("replay.next_hand")) : null) : null;
    this.root.replaceChildren(
      hands ?? "",
      h("div", { class: "replay-layout" },
        h("div", { class: "replay-main" }, this.board, controls, this.narration),
        h("aside", { class: "replay-side panel" },
          h("h2", {}, t("replay.evaluation")), this.evaluationBox, this.graph,
          h("div", { class: "tools" }, linkButton, this.playButton, download, another),
          this.playBox,
          h("h2", {}, t("replay.moves")), this.moveList)),
    );
    this.drawMoveList();
  }

  handLink(hand) {
    return `/replay?table=${encodeURIComponent(this.source.table)}&hand=${hand}`;
  }

  drawMoveList() {
    this.moveList.replaceChildren();
    this.replay.plies.slice(1).forEach((ply, index) => {
      const item = h("li", { "data-ply": String(index + 1) });
      const link = h("a", { href: `#ply=${index + 1}` }, this.moveText(ply));
      item.append(link);
      this.moveList.append(item);
    });
  }

  moveText(ply) {
    const event = ply.event;
    if (event.type === "deal") return eventLine({ type: "deal", hand_sizes: event.hands.map((hand) => hand.length) }, namedSeats(), null);
    if (event.type === "take") {
      const took = ply.notifications.find((note) => note.type === "took");
      return took ? notificationLine(took, namedSeats(), null) : t("replay.seat_takes", { seat: seatLabel(event.seat) });
    }
    if (event.type === "position") return t("replay.start");
    return eventLine(event, namedSeats(), null) ?? event.type;
  }

  // --- stepping --------------------------------------------------------------------------------------

  key(event) {
    if (!this.replay || event.target.closest?.("input[type=text], textarea")) return;
    const moves = { ArrowLeft: this.ply - 1, ArrowRight: this.ply + 1, Home: 0, End: this.replay.plies.length - 1 };
    if (!(event.key in moves)) return;
    if (event.target === this.slider) return; // the slider steps itself
    event.preventDefault();
    this.go(moves[event.key]);
  }

  go(ply, { fromHash = false } = {}) {
    if (!this.replay) return;
    const total = this.replay.plies.length - 1;
    this.ply = Math.max(0, Math.min(total, ply));
    if (!fromHash && !this.playing) history.replaceState(null, "", `${location.pathname}${location.search}#ply=${this.ply}`);
    this.slider.max = String(total);
    this.slider.value = String(this.ply);
    this.counter.textContent = t("replay.ply", { ply: this.ply, total });
    this.root.querySelector(".replay-layout").dataset.ply = String(this.ply);
    this.drawBoard();
    this.drawNarration();
    this.drawEvaluation();
    this.drawGraph();
    // Playing on needs a player to act: at the end of a finished game there is none.
    const { state } = this.replay.plies[this.ply];
    this.playButton.disabled = !this.playing && (state.to_act === null || state.to_act === undefined);
    for (const item of this.moveList.children) {
      const current = Number(item.dataset.ply) === this.ply;
      item.classList.toggle("current", current);
      if (current) {
        item.setAttribute("aria-current", "step");
        item.scrollIntoView({ block: "nearest" });
      } else item.removeAttribute("aria-current");
    }
    if (this.ply === 0) this.moveList.scrollTop = 0;
  }

  drawBoard() {
    const { state, legal } = this.replay.plies[this.ply];
    const players = state.hands.length;
    const mine = this.playing && state.to_act === this.playing.seat;
    const seats = state.hands.map((hand, seat) => {
      const out = state.outcome ? state.outcome.out_order.includes(seat) : hand.length === 0 && state.phase !== "trump_choice" && state.phase !== "deal";
      const trump = state.trumps[seat];
      const cards = h("div", { class: "open-hand" }, ...hand.map((code) => {
        const move = mine && seat === state.to_act ? legal.find((event) => event.card === code) : null;
        const card = makeCard(code, move ? "button" : "div");
        if (move) {
          card.classList.add("playable");
          card.setAttribute("aria-label", moveWords(move));
          card.addEventListener("click", () => this.playMove(move));
        }
        return card;
      }));
      const count = t("seat.cards", { count: hand.length });
      return h("div", { class: `replay-seat${seat === state.to_act ? " acting" : ""}`, "data-seat": String(seat) },
        h("div", { class: "seat-head" },
          h("strong", {}, seatLabel(seat)),
          h("span", { class: "seat-trump", title: trump ? t("trump.badge", { suit: suitName(trump) }) : t("replay.no_trump") }, trumpBadge(trump), " ", trump ? `${suitSymbol(trump)} ${suitName(trump)}` : t("replay.no_trump")),
          h("span", { class: "seat-count" }, count),
          seat === state.to_act ? h("span", { class: "to-act" }, t("seat.to_play")) : null,
          out ? h("span", { class: "went-out" }, t("replay.out")) : null),
        cards);
    });
    const take = mine ? legal.find((event) => event.type === "take") : null;
    const takeButton = take ? h("button", { type: "button", class: "btn primary take-btn" }, take.count ? t("take.button_n", { count: take.count }) : t("take.button")) : null;
    takeButton?.addEventListener("click", () => this.playMove(take));
    const pile = h("div", { class: "open-pile", "aria-label": t("replay.pile") },
      h("strong", {}, t("replay.pile_count", { count: state.pile.length })),
      state.pile.length ? h("div", { class: "pile-cards" }, ...state.pile.map((code) => makeCard(code))) : h("span", { class: "dim" }, t("replay.empty_pile")),
      takeButton);
    const phase = t(`replay.phase.${state.phase}`);
    const status = state.to_act === null || state.to_act === undefined
      ? (state.phase === "finished" ? t("replay.over") : phase)
      : t("replay.whose_turn", { seat: seatLabel(state.to_act), phase });
    this.board.dataset.phase = state.phase;
    this.board.dataset.toAct = String(state.to_act ?? "");
    this.board.dataset.players = String(players);
    this.board.replaceChildren(h("p", { class: "status" }, status), ...seats.slice(0, 1), pile, ...seats.slice(1));
  }

  drawNarration() {
    const { event, notifications } = this.replay.plies[this.ply];
    const lines = [];
    if (event) {
      const own = event.type === "take" ? null : this.moveText(this.replay.plies[this.ply]);
      if (own) lines.push(own);
    }
    for (const note of notifications) {
      const line = notificationLine(note, namedSeats(), null);
      if (line) lines.push(line);
    }
    this.narration.replaceChildren(...lines.map((line) => h("li", {}, line)));
  }

  // --- evaluation ------------------------------------------------------------------------------------

  logUpTo(ply) {
    return this.replay.lines.slice(0, ply + 1).join("\n") + "\n";
  }

  /** The evaluation of `ply`; a busy server is asked again for half a minute, and a failure is kept to be shown. */
  async evaluate(ply, generation) {
    if (this.evaluations.has(ply)) return this.evaluations.get(ply);
    let failure = null;
    for (let attempt = 0; attempt < 30; attempt += 1) {
      try {
        const result = await postJson("/api/analysis", { log: this.logUpTo(ply) });
        if (generation !== this.generation) return null;
        this.evaluations.set(ply, result);
        return result;
      } catch (error) {
        failure = error;
        if (error.code !== "busy" || generation !== this.generation) break;
        await new Promise((resolve) => setTimeout(resolve, 1000));
      }
    }
    if (generation === this.generation) this.failures.set(ply, failure);
    return null;
  }

  /** The shown position first, then every other one in order, so that the graph fills in. */
  async evaluateAll(generation) {
    if (this.evaluating === generation) return;
    this.evaluating = generation;
    try {
      await this.evaluateMissing(generation);
    } finally {
      if (this.evaluating === generation) this.evaluating = null;
    }
  }

  async evaluateMissing(generation) {
    while (generation === this.generation && this.replay) {
      const missing = this.waiting(this.ply) ? this.ply : this.nextMissing();
      if (missing === null) return;
      await this.evaluate(missing, generation);
      if (generation !== this.generation) return;
      if (missing === this.ply) this.drawEvaluation();
      this.drawGraph();
      this.markMistakes();
    }
  }

  /** Whether `ply` is still to be evaluated: neither evaluated nor failed (a failure waits for "Ask again"). */
  waiting(ply) {
    return !this.evaluations.has(ply) && !this.failures.has(ply);
  }

  nextMissing() {
    for (let ply = 0; ply < this.replay.plies.length; ply += 1) if (this.waiting(ply)) return ply;
    return null;
  }

  drawEvaluation() {
    const found = this.evaluations.get(this.ply);
    const failure = this.failures.get(this.ply);
    this.evaluationBox.dataset.kind = found ? found.kind : failure ? "failed" : "pending";
    if (!found && failure) {
      const again = h("button", { type: "button", class: "btn small ask-again" }, t("replay.retry"));
      again.addEventListener("click", () => {
        this.failures.clear();
        this.drawEvaluation();
        this.evaluateAll(this.generation);
      });
      this.evaluationBox.replaceChildren(h("p", { class: "problem", role: "alert" }, t("replay.no_evaluation", { reason: errorText(failure) })), again);
      return;
    }
    if (!found) {
      this.evaluationBox.replaceChildren(h("p", { class: "dim" }, t("replay.analysing")));
      return;
    }
    const who = found.seat === null || found.seat === undefined ? "" : seatLabel(found.seat);
    const { state } = this.replay.plies[this.ply];
    let headline;
    if (found.kind === "exact") headline = t(`replay.exact.${found.value}`, { seat: who });
    else if (found.kind === "estimate") {
      headline = t("replay.estimate", { seat: who, percent: percent(found.scores[found.seat]), count: found.samples, reason: reasonText(found, state) });
    } else if (found.kind === "none") headline = t("replay.none", { reason: reasonText(found, state) });
    else {
      const loser = found.scores.indexOf(0);
      headline = loser >= 0 && found.scores.some((score) => score === 1) ? t("replay.final_loss", { seat: seatLabel(loser) }) : t("replay.final_draw");
    }
    const parts = [h("p", { class: "headline" }, headline)];
    if (found.best?.length) parts.push(h("p", { class: "best" }, t("replay.best", { moves: found.best.map(moveWords).join(", ") })));
    // Every move with its value, best first for the seat to act as trumps solve lists them (of equal values the best
    // move named first); those the solver's half second left open last, "not settled" (the position's value is exact
    // all the same).
    const named = found.best?.[0];
    const ranked = [...(found.moves ?? [])].sort((a, b) => b.value - a.value || Boolean(sameMove(b.move, named)) - Boolean(sameMove(a.move, named)));
    const rows = [
      ...ranked.map((entry) => [entry.move, found.kind === "exact" ? t(`replay.result.${entry.value}`) : percent(entry.value), {}]),
      ...(found.unsettled ?? []).map((move) => [move, t("replay.unsettled"), { class: "unsettled" }]),
    ];
    if (rows.length) parts.push(h("ul", { class: "move-values" }, ...rows.map(([move, value, attrs]) => h("li", attrs, `${moveWords(move)}: ${value}`))));
    this.evaluationBox.replaceChildren(...parts);
  }

  /** Seat 1's score at each evaluated ply (in a duel; the seat to act's otherwise), drawn as a line. */
  drawGraph() {
    const total = this.replay.plies.length - 1;
    const width = 300;
    const height = 90;
    const x = (ply) => (total ? (ply / total) * width : 0);
    const y = (score) => height - score * height;
    const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
    svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
    svg.setAttribute("role", "img");
    const duel = this.replay.plies[0].state.hands.length === 2;
    const top = duel ? t("replay.axis_wins", { seat: seatLabel(0) }) : t("replay.result.1");
    const bottom = duel ? t("replay.axis_wins", { seat: seatLabel(1) }) : t("replay.result.-1");
    svg.setAttribute("aria-label", t("replay.graph", { top, bottom }));
    svg.setAttribute("class", "eval-graph");
    const points = [];
    for (let ply = 0; ply <= total; ply += 1) {
      const found = this.evaluations.get(ply);
      if (found?.scores?.length) points.push([ply, found.scores[0], found.kind]);
    }
    const line = (x1, y1, x2, y2, cls) => {
      const node = document.createElementNS("http://www.w3.org/2000/svg", "line");
      Object.entries({ x1, y1, x2, y2, class: cls }).forEach(([key, value]) => node.setAttribute(key, String(value)));
      return node;
    };
    svg.append(line(0, height / 2, width, height / 2, "middle"));
    const path = document.createElementNS("http://www.w3.org/2000/svg", "polyline");
    path.setAttribute("points", points.map(([ply, score]) => `${x(ply).toFixed(1)},${y(score).toFixed(1)}`).join(" "));
    path.setAttribute("class", "score-line");
    svg.append(path);
    for (const [ply, score, kind] of points) {
      if (kind !== "exact") continue;
      const dot = document.createElementNS("http://www.w3.org/2000/svg", "circle");
      Object.entries({ cx: x(ply), cy: y(score), r: 2.5, class: "exact-dot" }).forEach(([key, value]) => dot.setAttribute(key, String(value)));
      svg.append(dot);
    }
    for (const ply of this.mistakes().keys()) {
      const mark = document.createElementNS("http://www.w3.org/2000/svg", "circle");
      Object.entries({ cx: x(ply), cy: height - 4, r: 4, class: "blunder-dot" }).forEach(([key, value]) => mark.setAttribute(key, String(value)));
      svg.append(mark);
    }
    svg.append(line(x(this.ply), 0, x(this.ply), height, "cursor"));
    svg.addEventListener("click", (event) => {
      const box = svg.getBoundingClientRect();
      this.go(Math.round(((event.clientX - box.left) / box.width) * total));
    });
    this.graph.dataset.points = String(points.length);
    // The axes in words (the value up and down, the moves across) and what the marks mean.
    const axis = h("div", { class: "graph-axis", "aria-hidden": "true" },
      h("span", { class: "axis-top" }, top), h("span", { class: "axis-middle" }, t("replay.result.0")), h("span", { class: "axis-bottom" }, bottom));
    const across = h("div", { class: "graph-across", "aria-hidden": "true" },
      h("span", {}, t("replay.start")), h("span", {}, t("replay.axis_end", { n: total })));
    const legend = h("ul", { class: "graph-legend" },
      h("li", {}, h("span", { class: "key line" }), t("replay.legend_value")),
      h("li", {}, h("span", { class: "key exact" }), t("replay.legend_exact")),
      h("li", {}, h("span", { class: "key blunder" }), t("replay.legend_mistake")));
    this.graph.replaceChildren(h("div", { class: "graph-body" }, axis, h("div", { class: "graph-plot" }, svg, across)), legend);
  }

  /** Plies whose move lost value, by the exact evaluation of the position before it: ply -> "blunder" or "mistake". */
  mistakes() {
    const found = new Map();
    for (let ply = 1; ply < this.replay.plies.length; ply += 1) {
      const before = this.evaluations.get(ply - 1);
      if (before?.kind !== "exact") continue;
      const played = before.moves.find((entry) => sameMove(entry.move, this.replay.plies[ply].event));
      if (!played || played.value >= before.value) continue;
      found.set(ply, before.value === 1 && played.value === -1 ? "blunder" : "mistake");
    }
    return found;
  }

  markMistakes() {
    const found = this.mistakes();
    for (const item of this.moveList.children) {
      const kind = found.get(Number(item.dataset.ply));
      item.classList.toggle("blunder", kind === "blunder");
      item.classList.toggle("mistake", kind === "mistake");
      item.title = kind ? t(`replay.${kind}`) : "";
    }
  }

  // --- links and playing on --------------------------------------------------------------------------

  /** A link to this position: an online hand by its table and number; any other log travels in the link itself. */
  async copyLink() {
    const log = this.source ? "" : `log=${await packLog(this.original.lines.join("\n") + "\n")}&`;
    const url = `${location.origin}/replay${location.search}#${log}ply=${this.ply}`;
    history.replaceState(null, "", url); // the address bar holds the link too, where the clipboard is not allowed
    try {
      await navigator.clipboard.writeText(url);
      showToast(t("replay.link_copied"));
    } catch {
      showToast(url);
    }
  }

  playOn() {
    const { state } = this.replay.plies[this.ply];
    if (state.to_act === null || state.to_act === undefined) return;
    this.playing = { seat: state.to_act, from: this.ply };
    // The positions after this one will be new: their evaluations are the new game's.
    this.savedEvaluations = this.evaluations;
    this.evaluations = new Map([...this.evaluations].filter(([ply]) => ply <= this.ply));
    this.failures = new Map();
    this.generation += 1;
    this.replay = { ...this.replay, lines: this.replay.lines.slice(0, this.ply + 1), plies: this.replay.plies.slice(0, this.ply + 1) };
    this.playButton.textContent = t("replay.stop_playing");
    this.playBox.replaceChildren(h("p", { class: "playing" }, t("replay.playing_on", { seat: seatLabel(state.to_act), level: t(`level.${LEVEL}`) })));
    this.drawMoveList();
    this.go(this.ply);
  }

  stopPlaying() {
    this.playing = null;
    this.replay = this.original;
    this.evaluations = this.savedEvaluations;
    this.failures = new Map();
    this.generation += 1;
    this.evaluateAll(this.generation);
    this.playButton.textContent = t("replay.play_on");
    this.playBox.replaceChildren();
    this.drawMoveList();
    this.markMistakes();
    this.go(this.plyFromHash());
  }

  async playMove(move) {
    const generation = this.generation;
    await this.extend(move);
    while (this.playing && generation === this.generation) {
      const { state } = this.replay.plies.at(-1);
      if (state.to_act === null || state.to_act === undefined || state.to_act === this.playing.seat) break;
      this.playBox.dataset.thinking = "yes";
      try {
        const answer = await postJson(`/api/analysis/move?level=${LEVEL}`, { log: this.replay.lines.join("\n") + "\n" });
        if (!this.playing || generation !== this.generation) return;
        await this.extend(answer.move);
      } catch (error) {
        showToast(errorText(error), "error");
        break;
      } finally {
        delete this.playBox.dataset.thinking;
      }
    }
  }

  async extend(move) {
    const lines = [...this.replay.lines, JSON.stringify(move)];
    try {
      const replay = await postJson("/api/replay", { log: lines.join("\n") + "\n" });
      this.replay = replay;
      this.drawMoveList();
      this.go(replay.plies.length - 1);
      this.evaluateAll(this.generation);
    } catch (error) {
      showToast(errorText(error), "error");
    }
  }
}

languagePicker(await loadLanguage());
new ReplayBoard(document.getElementById("replay")).start();

// A log in a link: deflated and written in base64url, after the "#" so that it never reaches the server.
async function packLog(text) {
  const stream = new Blob([text]).stream().pipeThrough(new CompressionStream("deflate-raw"));
  const bytes = new Uint8Array(await new Response(stream).arrayBuffer());
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

async function unpackLog(packed) {
  const base64 = packed.replace(/-/g, "+").replace(/_/g, "/");
  const binary = atob(base64 + "=".repeat((4 - (base64.length % 4)) % 4));
  const bytes = Uint8Array.from(binary, (char) => char.charCodeAt(0));
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("deflate-raw"));
  return new Response(stream).text();
}
