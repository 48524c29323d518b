// The table: other players, the pile, your hand, the take button, the last actions, the score.
//
// Everything shown comes from the server's `update` messages (docs/protocol.md): the view's
// `legal_moves` say which cards are playable; no rule is worked out here.

import { api, forgetSeat, saveName, savedName, savedSeat, saveSeat } from "./api.js";
import { cardLabel, cardName, makeCard, suitIcon, suitName, suitSymbol, SUITS } from "./cards.js";
import { TableConnection } from "./connection.js";
import { dragCard, layoutFan, sortHand } from "./hand.js";
import { capitalize, labelSpans, logLink, pileLabel, reviewLink, scoreTable, shareBox, suitColoured, trumpBadge } from "./parts.js";
import { clockTime, t } from "./i18n.js";
import { h, setConnection, showToast } from "./ui.js";
import { about, errorText, eventLine, lastMove, notificationLine, isHeld, openSeats, outcomeWords, placeWord, seatName } from "./words.js";

const HISTORY_LINES = 40;
const PILE_SHOWN = 6;
const PACE_MS = 450;
const REDUCED_MOTION = window.matchMedia("(prefers-reduced-motion: reduce)");
const KNOWN_SHOWN = 8;
const AUTO_TAKE_MS = 1500;
const AUTO_TAKE_KEY = "trumps:auto-take";

const TRACKER_KEY = "trumps:duel-tracker";
const PACK = SUITS.flatMap((suit) => [..."6789TJQKA"].map((rank) => `${rank}${suit}`));

/** Whether the duel's opponent's cards are shown (on unless you turned it off). */
function duelTracking() {
  return localStorage.getItem(TRACKER_KEY) !== "off";
}

/** Whether the page takes by itself when taking is your only move (on unless you turned it off). */
function autoTaking() {
  return localStorage.getItem(AUTO_TAKE_KEY) !== "off";
}
// A person is shown as away once their seat has had no connection for this long: not while a
// page that just joined is still opening, nor for a reload.
const AWAY_AFTER_MS = 1500;

export class TableScreen {
  constructor(root, tableId) {
    this.root = root;
    this.tableId = tableId;
    this.mySeat = null;
    this.update = null;
    this.pending = null;
    this.history = loadHistory(tableId);
    this.queue = [];
    this.pacer = null;
    this.justPlayed = null;
    this.owners = new Map();
    this.clockTimer = null;
    this.awaySince = new Map();
    this.publishedHashes = new Map(); // hand number -> the seed_hash seen while that hand was played
    this.awayTimer = null;
    this.holdTimer = null; // redraws the waiting dialog when the first seat kept for a rematch's player opens
    this.focusDropped = false; // the keyboard's control was redrawn away with nothing in its place (render)
    this.drawOffer = null; // the seats that agree to a draw of this hand (docs/protocol.md), until the next event
    this.rematching = null; // while a rematch is asked for: "make" (none was offered) or "join" (one was)
    const seat = savedSeat(tableId);
    this.connection = new TableConnection(tableId, seat?.token ?? null, {
      onStatus: (state, attempt) => this.onStatus(state, attempt),
      onWelcome: (message) => this.onWelcome(message),
      onUpdate: (message) => this.onUpdate(message),
      onPresence: (message) => this.onPresence(message),
      onDrawOffer: (message) => this.onDrawOffer(message),
      onError: (message) => this.onError(message),
    });
    this.onKey = (event) => this.keyboard(event);
    this.onResize = () => this.layoutHand();
  }

  start() {
    this.root.replaceChildren(h("p", { class: "loading" }, t("table.joining")));
    document.addEventListener("keydown", this.onKey);
    window.addEventListener("resize", this.onResize);
    this.connection.open();
  }

  stop() {
    document.removeEventListener("keydown", this.onKey);
    window.removeEventListener("resize", this.onResize);
    clearInterval(this.clockTimer);
    clearTimeout(this.pacer);
    clearTimeout(this.autoTakeTimer);
    clearTimeout(this.awayTimer);
    clearTimeout(this.holdTimer);
    this.connection.close();
    setConnection("", "");
  }

  // --- messages from the server -----------------------------------------------------------

  onStatus(state, attempt) {
    if (state === "online") setConnection("online", t("conn.online"));
    else if (state === "connecting") setConnection("connecting", t("conn.connecting"));
    else if (state === "reconnecting") setConnection("connecting", t("conn.reconnecting"));
    else setConnection("offline", attempt > 1 ? t("conn.lost_retry", { attempt }) : t("conn.lost"));
    this.pending = null;
    this.root.querySelector(".table-view")?.classList.toggle("disconnected", state !== "online");
  }

  onWelcome(message) {
    this.mySeat = message.seat;
    this.table = message.table;
    if (message.seat === null && this.connection.token) {
      // The server did not accept the saved token as a seat: watch instead.
      forgetSeat(this.tableId);
      this.connection.token = null;
    }
  }

  onUpdate(message) {
    this.drawOffer = null; // any event ends an offer
    // The seed is checked against the fingerprint published while the hand was played, not against the
    // one that comes with the seed at its end (deals.md, "Checking a hand"): a server could change both.
    if (!message.hand_end && message.seed_hash && message.score) this.publishedHashes.set(message.score.hand, message.seed_hash);
    this.queue.push(message);
    if (!this.pacer) this.drain();
  }

  /**
   * Draw the queued updates in order. A computer answers within milliseconds, so its
   * moves are drawn one at a time, PACE_MS apart, for a person to follow them (not with
   * the browser's reduced-motion setting).
   */
  drain() {
    this.pacer = null;
    const message = this.queue.shift();
    if (!message) return;
    const first = this.update === null;
    this.update = message;
    this.pending = null;
    this.justPlayed = message.resync ? null : message.event?.card ?? null;
    this.trackOwners(message);
    this.record(message);
    this.render();
    this.justPlayed = null;
    this.autoTake();
    if (first) this.root.querySelector(".hand .card.legal, .suit-choice:not(:disabled), .btn.primary")?.focus();
    const next = this.queue[0];
    if (!next) return;
    const paced = next.by === "computer" && !next.resync && !REDUCED_MOTION.matches;
    if (paced) this.pacer = setTimeout(() => this.drain(), PACE_MS);
    else this.drain();
  }

  /**
   * Someone's connection opened or closed (no event). The news is newer than every update
   * drawn or waiting to be drawn, so their `connected` flags are brought up to date.
   */
  onPresence(message) {
    for (const update of [this.update, ...this.queue]) {
      if (!update || update.event_no > message.event_no) continue;
      update.seats = update.seats.map((seat, index) => {
        const now = message.seats[index];
        return now && now.kind === seat.kind ? { ...seat, connected: now.connected } : seat;
      });
    }
    this.render();
  }

  /** A draw offer changed (not an event): show it, or say who declined it. */
  onDrawOffer(message) {
    const seats = this.update?.seats ?? [];
    const asked = !this.drawOffer && message.agreed.length > 0 && this.mySeat !== null && !message.agreed.includes(this.mySeat);
    this.drawOffer = message.agreed.length ? message : null;
    if (message.declined !== null && message.declined !== undefined) {
      showToast(about("end.declined", message.declined, this.mySeat, seats));
    }
    this.render();
    this.autoTake(); // held while the offer stood; free again once it is declined
    // An offer waits for your answer, whose buttons are below your hand: on a phone (or a short window) out of
    // sight. It is said where you look, and the buttons are brought into view.
    const answer = asked && this.root.querySelector(".draw-accept");
    if (answer) {
      showToast(about("end.offered", message.agreed[0], this.mySeat, seats));
      answer.closest(".endings-bar").scrollIntoView({ block: "nearest", behavior: REDUCED_MOTION.matches ? "auto" : "smooth" });
    }
  }

  resign() {
    if (!window.confirm(t("end.resign_confirm"))) return;
    if (!this.connection.resign()) showToast(t("table.not_connected"), "error");
  }

  answerDraw(agree) {
    if (!this.connection.draw(agree)) showToast(t("table.not_connected"), "error");
  }

  /**
   * Resign, offer a draw, or answer an offer: while the hand is played and you still hold cards. A spectator, who
   * hears of an offer too (and of its refusal), is told of it.
   */
  endingControls() {
    const view = this.update?.view;
    if (!view || view.outcome || !["lead", "respond", "second"].includes(view.phase)) return [];
    const offer = this.drawOffer;
    if (this.mySeat === null) {
      return offer ? [h("span", { class: "draw-offer", role: "status" }, about("end.offered", offer.agreed[0], null, this.update.seats))] : [];
    }
    if (!view.hand.length) return [];
    const controls = [];
    if (offer && !offer.agreed.includes(this.mySeat)) {
      const offerer = offer.agreed[0];
      const accept = h("button", { type: "button", class: "btn primary draw-accept" }, t("end.accept"));
      accept.addEventListener("click", () => this.answerDraw(true));
      const decline = h("button", { type: "button", class: "btn draw-decline" }, t("end.decline"));
      decline.addEventListener("click", () => this.answerDraw(false));
      controls.push(h("span", { class: "draw-offer", role: "status" }, about("end.offered", offerer, this.mySeat, this.update.seats), " ", accept, " ", decline));
    } else if (offer) {
      controls.push(h("span", { class: "draw-offer", role: "status" }, t("end.offered.you")));
    } else {
      const draw = h("button", { type: "button", class: "btn draw-btn" }, t("end.offer_draw"));
      draw.addEventListener("click", () => this.answerDraw(true));
      controls.push(draw);
    }
    const resign = h("button", { type: "button", class: "btn resign-btn", title: t("end.resign_title") }, t("end.resign"));
    resign.addEventListener("click", () => this.resign());
    controls.push(resign);
    return controls;
  }

  /** Whether a seat's person has been without a connection for AWAY_AFTER_MS (redraws when that time comes). */
  isAway(seat) {
    const info = this.update.seats[seat];
    if (info.kind !== "human" || info.connected || seat === this.mySeat) {
      this.awaySince.delete(seat);
      return false;
    }
    const since = this.awaySince.get(seat) ?? Date.now();
    this.awaySince.set(seat, since);
    const left = since + AWAY_AFTER_MS - Date.now();
    if (left <= 0) return true;
    if (!this.awayTimer) {
      this.awayTimer = setTimeout(() => {
        this.awayTimer = null;
        this.render();
      }, left + 20);
    }
    return false;
  }

  /** Who laid each card of the pile, as far as this page saw it happen (for the cards' tooltips). */
  trackOwners(message) {
    const event = message.event;
    if (event?.type === "hand_started") this.owners.clear();
    if (!message.resync && event?.card && ["lead", "beat", "second"].includes(event.type)) {
      this.owners.set(event.card, { seat: event.seat, type: event.type });
    }
  }

  onError(message) {
    this.pending = null;
    if (message.code === "not_found") {
      // No such table: retrying cannot help.
      this.connection.close();
      setConnection("", "");
      this.root.replaceChildren(h("div", { class: "lobby" }, h("section", { class: "panel missing" },
        h("h2", {}, t("table.missing")),
        h("p", {}, errorText(message)),
        h("a", { class: "btn primary", href: "/" }, t("table.go_lobby")))));
      return;
    }
    if (message.code === "bad_token") {
      forgetSeat(this.tableId);
      this.connection.useToken(null);
    }
    showToast(errorText(message), "error");
    this.render();
  }

  // --- the account of the last actions ----------------------------------------------------

  /**
   * Keep what happened as data (the event or notification, the seats as they were, whose page it
   * was), not as words: the lines are written when drawn, in the language the page has then.
   */
  record(message) {
    if (message.event_no <= this.history.no) return;
    const seats = message.seats;
    const me = this.mySeat;
    const lines = [];
    if (message.resync && this.history.lines.length === 0 && message.event_no > 0) {
      lines.push({ joined: true, me });
    } else if (message.event && eventLine(message.event, seats, me)) {
      lines.push({ event: message.event, by: message.by, seats, me });
    }
    for (const note of message.notifications ?? []) {
      if (notificationLine(note, seats, me)) lines.push({ note, seats, me });
    }
    this.history = { no: message.event_no, lines: [...this.history.lines, ...lines].slice(-HISTORY_LINES) };
    saveHistory(this.tableId, this.history);
  }

  // --- actions ----------------------------------------------------------------------------

  play(code) {
    const view = this.update?.view;
    if (!view || this.pending || this.queue.length) return;
    const legal = view.legal_moves.find((move) => move.card === code);
    // A card that is not among the legal moves still goes to the server, which refuses it
    // and says why in its own words (the page never second-guesses the rules).
    const event = legal ?? { type: moveType(view.phase), seat: this.mySeat ?? 0, card: code };
    this.send(event, code);
  }

  take() {
    const view = this.update?.view;
    if (!view || this.pending || this.queue.length) return;
    const legal = view.legal_moves.find((move) => move.type === "take");
    const event = legal ?? { type: "take", seat: this.mySeat ?? 0 };
    this.send(event, "take");
  }

  chooseTrump(suit) {
    if (this.pending) return;
    this.send({ type: "choose_trump", seat: this.mySeat ?? 0, suit }, suit);
  }

  send(event, what) {
    if (this.mySeat === null) {
      showToast(t("error.spectator"), "error");
      return;
    }
    if (!this.connection.move(event)) {
      showToast(t("table.not_sent"), "error");
      return;
    }
    this.pending = what;
    this.render();
  }

  nextHand() {
    if (!this.connection.nextHand()) showToast(t("table.not_connected"), "error");
  }

  /**
   * The same match again at a new table (the same rules, clock and length, the computers at the same
   * levels), you in your seat. The server makes it for whoever asks first and tells this table, so the
   * others' pages offer to join it (update.rematch); asking then seats you there (docs/protocol.md).
   */
  async rematch() {
    const seat = savedSeat(this.tableId);
    if (!seat || this.rematching) return;
    // Marked busy, not disabled: the keyboard's focus stays on the button (and on it when redrawn meanwhile).
    this.rematching = this.update?.rematch ? "join" : "make";
    this.root.querySelector(".rematch")?.setAttribute("aria-disabled", "true");
    try {
      await this.askRematch(this.tableId, seat.token);
    } catch (error) {
      showToast(errorText(error), "error");
      this.rematching = null;
      this.render();
    }
  }

  /**
   * Asks for the rematch of `finished` with this browser's `token` there: you sit in your seat at its new table,
   * this one (come to by its link) or the one the page then goes to.
   */
  async askRematch(finished, token) {
    const made = await api.rematch(finished, token, savedName() || null);
    saveSeat(made.table.id, made.seat, made.token);
    if (made.table.id === this.tableId) {
      this.connection.useToken(made.token);
      showToast(t("table.sat_down", { n: made.seat }));
    } else {
      window.dispatchEvent(new CustomEvent("trumps:navigate", { detail: { table: made.table.id } }));
    }
  }

  /**
   * At a rematch's new table come to by its link rather than by the finished table's dialog: the seat kept there for
   * this browser's player of the match before (it holds a token of the table `rematch_of` names), to take.
   */
  keptSeatButton(held) {
    const before = this.update.rematch_of ? savedSeat(this.update.rematch_of) : null;
    if (this.mySeat !== null || !before || !held.some((seat) => seat.seat === before.seat)) return null;
    const button = h("button", { type: "button", class: "btn primary take-kept-seat" }, t("wait.take_kept", { n: before.seat }));
    button.addEventListener("click", () => this.askRematch(this.update.rematch_of, before.token).catch((error) => {
      showToast(errorText(error), "error");
    }));
    return button;
  }

  async takeSeat(seat) {
    const name = this.root.querySelector(".join-name");
    if (name) saveName(name.value.trim());
    try {
      const joined = await api.joinTable(this.tableId, seat, savedName() || null);
      saveSeat(this.tableId, joined.seat, joined.token);
      this.connection.useToken(joined.token);
      showToast(t("table.sat_down", { n: joined.seat }));
    } catch (error) {
      showToast(errorText(error), "error");
    }
  }

  async leave() {
    const seat = savedSeat(this.tableId);
    const playing = this.update?.status === "playing";
    if (seat && playing && !window.confirm(t("table.confirm_leave"))) return;
    if (seat) {
      try {
        await api.leaveTable(this.tableId, seat.token);
      } catch (error) {
        if (error.code !== "not_found" && error.code !== "bad_token") {
          showToast(errorText(error), "error");
          return;
        }
      }
      forgetSeat(this.tableId);
    }
    window.dispatchEvent(new CustomEvent("trumps:navigate", { detail: { table: null } }));
  }

  keyboard(event) {
    if (event.target instanceof HTMLInputElement || event.target instanceof HTMLSelectElement) return;
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const hand = [...this.root.querySelectorAll(".hand .card")];
    const index = hand.indexOf(document.activeElement);
    if ((event.key === "ArrowRight" || event.key === "ArrowLeft") && hand.length) {
      const step = event.key === "ArrowRight" ? 1 : -1;
      const next = index < 0 ? 0 : (index + step + hand.length) % hand.length;
      hand[next].focus();
      event.preventDefault();
    } else if (event.code === "KeyT") {
      const button = this.root.querySelector(".take-btn:not([disabled])");
      if (button) {
        button.click();
        event.preventDefault();
      }
    } else if (event.code === "KeyN") {
      this.root.querySelector(".next-hand")?.click();
    }
  }

  // --- drawing ----------------------------------------------------------------------------

  render() {
    const message = this.update;
    if (!message) return;
    const focused = describeFocus(document.activeElement);
    const wasOver = this.root.querySelector(".outcome-dialog") !== null;
    const wasMyTurn = this.root.querySelector(".table-view")?.dataset.myTurn === "yes";
    const view = message.view;
    const seats = message.seats;
    const players = seats.length;
    const me = this.mySeat;
    const order = seatOrder(players, me);

    const screen = h("section", { class: "table-view", "aria-label": t("table.label", { table: this.tableId }) });
    if (this.connection.socket === null) screen.classList.add("disconnected");
    if (view && (message.hand_end || view.outcome)) screen.classList.add("over");
    // A summary of the state on the root element, for styling and for the browser tests.
    Object.assign(screen.dataset, {
      status: message.status,
      eventNo: String(message.event_no),
      phase: view?.phase ?? "none",
      seat: me === null ? "spectator" : String(me),
      myTurn: this.myTurn() && !this.pending ? "yes" : "no",
      hand: String(message.score.hand),
    });

    screen.append(
      h("h1", { class: "visually-hidden" }, t("table.label", { table: this.tableId })),
      h("div", { class: `opponents${players - (me === null ? 0 : 1) > 2 ? " many" : ""}`, "aria-label": t("table.players") },
        order.filter((s) => s !== me).map((s) => this.seatBox(s))),
      this.felt(),
      this.mine(),
      this.side(),
    );
    this.root.replaceChildren(screen);
    this.layoutHand();
    restoreFocus(this.root, focused);
    // A hand that has just ended: the keyboard goes from the hand (or from nowhere) to its dialog's button.
    const ended = this.root.querySelector(".outcome-dialog .btn.primary");
    const inPlay = focused?.card || focused?.ending || focused?.selector === ".take-btn" || document.activeElement === document.body;
    if (ended && !wasOver && inPlay) ended.focus();
    // The focused control went away with nothing to take its place (the next hand's trumps are still being
    // chosen by others): the first thing there is to do takes it once there is one.
    if (this.focusDropped && document.activeElement === document.body) this.root.querySelector(PLAYABLE)?.focus({ preventScroll: true });
    this.focusDropped = (focused !== null || this.focusDropped) && document.activeElement === document.body;
    if (!wasMyTurn && screen.dataset.myTurn === "yes") revealHand(this.root);
    this.tickClock();
    document.title = this.titleText(view);
  }

  titleText(view) {
    const mine = view && this.mySeat !== null && view.to_act === this.mySeat && view.legal_moves.length > 0;
    return t(mine ? "page.turn_title" : "page.table_title", { table: this.tableId });
  }

  seatBox(seat) {
    const message = this.update;
    const view = message.view;
    const seats = message.seats;
    const info = seats[seat];
    const trump = view?.trumps?.[seat] ?? null;
    const count = view?.hand_counts?.[seat] ?? 0;
    const out = view?.out_order?.includes(seat);
    const toAct = view && view.to_act === seat && !view.outcome;
    const away = this.isAway(seat);
    const box = h("div", {
      class: `seat-box${toAct ? " to-act" : ""}${out ? " out" : ""}${away ? " away" : ""}`,
      "data-seat": seat,
      "aria-label": [seatName(seats, seat, this.mySeat), away && t("seat.away"), toAct && t("seat.to_play")].filter(Boolean).join(", "),
    });
    if (away) box.append(h("span", { class: "away-tag", title: t("seat.away_title") }, t("seat.away")));
    box.append(trumpBadge(trump));
    box.append(h("span", { class: "name" }, seatName(seats, seat, this.mySeat)));
    box.append(h("span", { class: "status" }, this.seatStatus(seat)));
    const last = lastMove(message);
    if (last && last.seat === seat && seat !== this.mySeat && !view?.outcome) {
      box.append(h("span", { class: "said", "aria-hidden": "true" }, suitColoured(last.text)));
    }
    if (seat !== this.mySeat && view && view.phase !== "trump_choice" && count > 0) {
      const fan = h("div", { class: "back-fan", "aria-label": t("seat.cards", { count }) });
      for (let i = 0; i < Math.min(count, 12); i++) fan.append(makeCard(null));
      fan.append(h("span", { class: "count" }, String(count)));
      box.append(fan);
      const tracked = this.duelTracker(seat);
      const known = view.known?.[seat] ?? [];
      if (tracked) {
        box.append(h("div", { class: "known tracker", title: t("tracker.title") },
          `${t("tracker.holds")} `, labelSpans(sortHand(tracked, trump))));
      } else if (known.length && !out) {
        const shown = known.length > KNOWN_SHOWN ? [...known.slice(0, KNOWN_SHOWN - 1)] : known;
        const more = known.length - shown.length;
        box.append(h("div", { class: "known", title: t("seat.holds_title") },
          `${t("seat.holds")} `, labelSpans(shown), more ? ` +${more}` : ""));
      }
    }
    return box;
  }

  /**
   * In the duel every card is dealt, so the opponent holds exactly the cards that are neither in
   * your hand nor in the pile (rules §5.1): the page shows them, unless you hide them to count
   * yourself. Null when there is nothing to show (watching, three or four players, before the deal).
   */
  duelTracker(seat) {
    const view = this.update.view;
    if (!duelTracking() || this.mySeat === null || seat === this.mySeat || !view || view.players !== 2) return null;
    if (view.phase === "trump_choice" || view.phase === "deal") return null;
    const seen = new Set([...view.hand, ...view.pile]);
    const theirs = PACK.filter((code) => !seen.has(code));
    return theirs.length === view.hand_counts[seat] ? theirs : null;
  }

  seatStatus(seat) {
    const message = this.update;
    const view = message.view;
    const info = message.seats[seat];
    if (info.kind === "free" && !(view && view.to_act === seat && !view.outcome)) return t("status.free");
    if (!view) return t("status.ready");
    const place = view.out_order.indexOf(seat);
    // Your own box says it of you ("You lost the hand"): a sentence of its own where the verb is conjugated.
    const said = (key, params = {}) => about(key, seat, this.mySeat, message.seats, params);
    if (place >= 0) return said("status.out", { place: placeWord(place + 1) });
    if (view.outcome) return view.outcome.loser === seat ? said("status.lost") : "";
    const level = info.kind === "computer" && info.level ? `${t(`level.${info.level}`)} · ` : "";
    if (view.phase === "trump_choice" && view.to_act !== seat) {
      const suit = view.trumps[seat];
      return `${level}${suit ? t("status.chose", { suit: suitName(suit) }) : said("status.waits")}`;
    }
    if (view.to_act !== seat) return `${level}${t("seat.cards", { count: view.hand_counts[seat] })}`;
    // The seat to act, with its time left when the table has a clock: the trump's choice runs on it too.
    // A seat left free keeps its turn (the game waits for someone to take it, or the clock plays it).
    const doing = info.kind === "free" ? t("status.free") : view.phase === "trump_choice" ? said("status.choosing")
      : t(info.kind === "computer" ? "status.thinking" : seat === this.mySeat ? "status.your_turn" : "status.to_play");
    return message.deadline ? h("span", {}, doing, " · ", h("span", { class: "clock" })) : doing;
  }

  felt() {
    const message = this.update;
    const view = message.view;
    const felt = h("div", { class: "felt", "data-lost": t("table.lost") });
    if (message.status === "waiting" || !view) {
      felt.append(this.waitingDialog());
      return felt;
    }
    if (message.hand_end || view.outcome) {
      felt.append(this.outcomeDialog());
      return felt;
    }
    if (view.phase === "trump_choice") {
      felt.append(this.trumpDialog());
      return felt;
    }
    felt.append(this.pile(), h("p", { class: `prompt${this.myTurn() ? " mine" : ""}`, id: "prompt", "aria-live": "polite" }, this.promptText()));
    return felt;
  }

  myTurn() {
    const view = this.update?.view;
    return Boolean(view && this.mySeat !== null && view.to_act === this.mySeat && view.legal_moves.length);
  }

  takeCount() {
    const view = this.update?.view;
    const take = view?.legal_moves.find((move) => move.type === "take");
    if (!take) return null;
    if (Number.isInteger(take.count)) return take.count;
    return Number.isInteger(this.update.take_count) ? this.update.take_count : null;
  }

  promptText() {
    const message = this.update;
    const view = message.view;
    const seats = message.seats;
    if (this.pending) return t("prompt.sending");
    const top = view.pile.at(-1);
    const card = top ? cardLabel(top) : "";
    if (this.myTurn()) {
      if (view.phase === "lead") return t("prompt.lead");
      if (view.phase === "second") return t("prompt.second");
      const canBeat = view.legal_moves.some((move) => move.type === "beat");
      return t(canBeat ? "prompt.beat_or_take" : "prompt.cannot_beat", { card });
    }
    if (view.to_act === null) return "";
    const who = seatName(seats, view.to_act, this.mySeat);
    if (seats[view.to_act].kind === "free") return t("prompt.free_seat", { who });
    if (view.phase === "lead") return t("prompt.other_lead", { who });
    if (view.phase === "second") return t("prompt.other_second", { who });
    return t("prompt.other_respond", { who, card });
  }

  pile() {
    const view = this.update.view;
    const zone = h("div", { class: "pile-zone" });
    const pile = h("div", { class: "pile", "aria-label": pileLabel(view.pile, PILE_SHOWN) });
    if (view.pile.length === 0) {
      pile.append(h("div", { class: "pile-empty" }, t("pile.empty")));
    } else {
      const shown = view.pile.slice(-PILE_SHOWN);
      if (view.pile.length > shown.length) {
        pile.append(h("div", { class: "stack-edge", title: t("pile.more", { count: view.pile.length - shown.length }) }));
      }
      const reach = this.takeCount() ?? 0;
      const myTrump = this.mySeat === null ? null : view.trumps[this.mySeat];
      shown.forEach((code, i) => {
        const card = makeCard(code);
        const owner = this.owners.get(code);
        if (owner) {
          card.title = about(`pile.owner_${owner.type}`, owner.seat, this.mySeat, this.update.seats, { card: cardLabel(code) });
        }
        if (myTrump && code[1] === myTrump) card.append(h("span", { class: "trump-mark", title: t("pile.your_trump") }, suitSymbol(code[1])));
        const fromTop = shown.length - 1 - i;
        if (fromTop === 0) card.classList.add("top");
        if (fromTop === 0 && code === this.justPlayed) {
          card.classList.add(this.update.event.seat === this.mySeat ? "arrive-up" : "arrive-down");
        }
        if (fromTop < reach) card.classList.add("in-reach");
        pile.append(card);
      });
    }
    zone.append(pile);
    const caption = view.pile.length === 0 ? "" : t("pile.caption", { count: view.pile.length, card: cardLabel(view.pile.at(-1)) });
    return h("div", { class: "pile-wrap" }, zone, h("p", { class: "pile-caption" }, caption));
  }

  trumpDialog() {
    const message = this.update;
    const view = message.view;
    const seats = message.seats;
    const mine = this.myTurn();
    const owners = {};
    view.trumps.forEach((suit, seat) => {
      if (suit) owners[suit] = seat;
    });
    const dialog = h("div", { class: "dialog trump-dialog", role: "group", "aria-labelledby": "trump-title" });
    dialog.append(
      h("h2", { id: "trump-title" }, t(mine ? "trump.choose" : "trump.being_chosen")),
      h("p", {}, mine
        ? t("trump.explain")
        : view.to_act === this.mySeat ? t("trump.you_choosing")
          : t(seats[view.to_act].kind === "free" ? "prompt.free_seat" : "trump.other_choosing", { who: seatName(seats, view.to_act, this.mySeat) })),
    );
    const choices = h("div", { class: "suit-choices" });
    for (const suit of SUITS) {
      const owner = owners[suit];
      const legal = mine && view.legal_moves.some((move) => move.type === "choose_trump" && move.suit === suit);
      const button = h("button", {
        type: "button",
        class: "suit-choice",
        "data-suit": suit,
        "aria-label": owner !== undefined ? about("trump.taken_by", owner, this.mySeat, seats, { suit: suitName(suit) }) : suitName(suit),
      }, suitIcon(suit), h("span", {}, capitalize(suitName(suit))), h("small", {}, owner !== undefined ? about("trump.owner", owner, this.mySeat, seats) : "\u00a0"));
      if (!legal) button.disabled = true;
      if (this.pending === suit) button.classList.add("pending");
      button.addEventListener("click", () => this.chooseTrump(suit));
      choices.append(button);
    }
    dialog.append(choices);
    return dialog;
  }

  outcomeDialog() {
    const message = this.update;
    const view = message.view;
    const seats = message.seats;
    const outcome = message.hand_end?.outcome ?? view.outcome;
    const words = outcomeWords(outcome, seats, this.mySeat);
    const score = message.score;
    const dialog = h("div", { class: "dialog outcome-dialog", role: "group", "aria-labelledby": "outcome-title" });
    dialog.append(
      h("p", { class: "hand-no" }, score.match_hands ? t("outcome.hand_of_over", { hand: score.hand, total: score.match_hands }) : t("outcome.hand_over", { hand: score.hand })),
      h("h2", { id: "outcome-title", class: `outcome-big ${words.tone}` }, words.text),
      h("p", {}, words.detail ?? ""),
      scoreTable(score, seats, this.mySeat),
    );
    const buttons = h("div", { class: "dialog-actions" });
    if (score.match_over || message.status === "finished") {
      dialog.append(h("p", { class: "match-over" }, t("outcome.match_over")));
      // Another player asked for a rematch (not this page, which is on its way there): its table waits for you.
      const link = Boolean(message.rematch) && this.rematching !== "make";
      if (link) dialog.append(h("p", { class: "rematch-ready", role: "status" }, t("outcome.rematch_ready")));
      if (this.mySeat !== null) {
        const again = h("button", { type: "button", class: `btn primary rematch${link ? " join-rematch" : ""}` },
          t(link ? "outcome.join_rematch" : "outcome.rematch"));
        if (this.rematching) again.setAttribute("aria-disabled", "true");
        again.addEventListener("click", () => this.rematch());
        buttons.append(again);
      } else if (link) {
        // A spectator is told of the rematch's table too: a way there to watch it.
        const watch = h("a", { class: "btn primary watch-rematch", href: `/?table=${encodeURIComponent(message.rematch)}` }, t("lobby.watch"));
        watch.addEventListener("click", (event) => {
          event.preventDefault();
          window.dispatchEvent(new CustomEvent("trumps:navigate", { detail: { table: message.rematch } }));
        });
        buttons.append(watch);
      }
      buttons.append(h("a", { class: "btn", href: "/" }, t("side.back")));
    } else if (this.mySeat !== null) {
      const next = h("button", { type: "button", class: "btn primary next-hand" }, t("outcome.next_hand"));
      next.addEventListener("click", () => this.nextHand());
      buttons.append(next);
    } else {
      buttons.append(h("p", {}, t("outcome.waiting_next")));
    }
    if (message.hand_end?.log) buttons.append(logLink(message.hand_end, this.tableId));
    dialog.append(buttons);
    if (message.hand_end?.log) {
      dialog.append(h("p", { class: "review-line" }, t("outcome.review_hint"), " ", reviewLink(message.hand_end, this.tableId)));
    }
    return dialog;
  }

  waitingDialog() {
    const message = this.update;
    const seats = message.seats;
    const free = seats.filter((seat) => seat.kind === "free");
    const open = openSeats(seats); // not those a rematch keeps for its players of the match before
    const dialog = h("div", { class: "dialog waiting-dialog" });
    dialog.append(h("h2", {}, t(free.length ? "wait.title" : "wait.starting")));
    if (open.length) {
      dialog.append(
        h("p", {}, t("wait.free", { count: open.length })),
        shareBox(this.tableId),
      );
    }
    const held = free.filter((seat) => isHeld(seat));
    for (const seat of held) {
      dialog.append(h("p", { class: "held-seat" }, t("wait.held", { n: seat.seat, time: clockTime(seat.held_until) })));
    }
    const kept = this.keptSeatButton(held);
    if (kept) dialog.append(kept);
    if (held.length && !this.holdTimer) {
      const opens = Math.min(...held.map((seat) => seat.held_until * 1000));
      this.holdTimer = setTimeout(() => {
        this.holdTimer = null;
        this.render();
      }, opens - Date.now() + 50);
    }
    if (this.mySeat === null && open.length) dialog.append(this.joinButtons(open));
    return dialog;
  }

  joinButtons(free) {
    const name = h("input", {
      type: "text", class: "join-name", maxlength: 32, value: savedName(), placeholder: t("join.name"), "aria-label": t("join.name"),
    });
    name.addEventListener("change", () => saveName(name.value.trim()));
    const row = h("div", { class: "join-row" }, name);
    for (const seat of free) {
      const button = h("button", { type: "button", class: "btn primary take-seat", "data-seat": seat.seat }, t("join.sit", { n: seat.seat }));
      button.addEventListener("click", () => this.takeSeat(seat.seat));
      row.append(button);
    }
    return row;
  }

  /**
   * The free seats someone may join: none once the match is over (a seat its player left then stays free for good,
   * and a join is refused with match_over), nor those a rematch keeps for its players (openSeats).
   */
  seatsToTake() {
    return this.update.status === "finished" ? [] : openSeats(this.update.seats);
  }

  mine() {
    const message = this.update;
    const view = message.view;
    const me = this.mySeat;
    const area = h("div", { class: "me" });
    const endings = this.endingControls();
    if (me === null) {
      const free = this.seatsToTake();
      area.append(h("div", { class: "me-bar watching" }, h("span", {}, t("table.watching_table")), free.length && message.status !== "waiting" ? this.joinButtons(free) : ""));
      if (endings.length) area.append(h("div", { class: "endings-bar" }, ...endings));
      return area;
    }
    const bar = h("div", { class: "me-bar" }, this.seatBox(me));
    const actions = h("div", { class: "actions-bar" });
    const takeLegal = view?.legal_moves.some((move) => move.type === "take");
    // Only when you may take: a greyed button while the others decide was read as an offer.
    if (view && takeLegal && !view.outcome) {
      const count = this.takeCount();
      const label = count === null ? t("take.button") : t("take.button_n", { count });
      const button = h("button", {
        type: "button",
        class: `btn take-btn${takeLegal ? " primary" : ""}`,
        "aria-keyshortcuts": "T",
        title: count === null ? t("take.title") : t("take.title_n", { count }),
      }, label);
      if (!takeLegal || this.pending) button.disabled = true;
      button.addEventListener("click", () => this.take());
      const showReach = (on) => this.root.querySelector(".pile")?.classList.toggle("show-reach", on);
      button.addEventListener("mouseenter", () => showReach(true));
      button.addEventListener("mouseleave", () => showReach(false));
      button.addEventListener("focus", () => showReach(true));
      button.addEventListener("blur", () => showReach(false));
      actions.append(button);
    }
    bar.append(actions);
    area.append(bar, this.hand());
    // Resigning and a draw are no moves: below the hand, so that on a phone Take and the hand share the first screen.
    if (endings.length) area.append(h("div", { class: "endings-bar" }, ...endings));
    return area;
  }

  hand() {
    const view = this.update.view;
    const wrap = h("div", { class: "hand", role: "group", "aria-label": t("hand.label") });
    if (!view || view.hand.length === 0) {
      const phase = view?.phase;
      wrap.append(h("p", { class: "hand-empty" }, phase === "trump_choice" ? t("hand.before_deal") : view?.out_order.includes(this.mySeat) ? t("hand.out") : ""));
      wrap.classList.add("empty");
      return wrap;
    }
    const trump = view.trumps[this.mySeat];
    const mine = this.myTurn();
    if (!mine) wrap.classList.add("waiting");
    const legal = new Set(view.legal_moves.filter((move) => move.card).map((move) => move.card));
    for (const code of sortHand(view.hand, trump)) {
      const playable = mine && legal.has(code);
      const card = makeCard(code, "button");
      card.type = "button";
      card.classList.add(playable ? "legal" : "not-legal");
      if (code[1] === trump) {
        card.classList.add("trump");
        card.append(h("span", { class: "trump-mark", "aria-hidden": "true" }, suitSymbol(code[1])));
      }
      if (this.pending === code) card.classList.add("pending");
      const traits = [cardName(code), code[1] === trump && t("hand.your_trump"), mine && t(playable ? "hand.playable" : "hand.not_playable")];
      card.setAttribute("aria-label", traits.filter(Boolean).join(", "));
      if (mine && !playable) card.setAttribute("aria-disabled", "true");
      card.addEventListener("click", () => this.play(code));
      if (mine) {
        card.addEventListener("pointerdown", (event) => {
          if (!this.pending) dragCard(event, card, () => this.root.querySelector(".pile-wrap"), () => this.play(code));
        });
      }
      wrap.append(card);
    }
    return wrap;
  }

  /**
   * When taking is your only move and the option is on, take after a short pause (time to see why). Not while a
   * draw offer stands: the take is an event, which would end the offer before anyone could answer it (and end
   * yours silently).
   */
  autoTake() {
    clearTimeout(this.autoTakeTimer);
    const legal = this.update?.view?.legal_moves ?? [];
    if (!autoTaking() || !this.myTurn() || this.pending || this.drawOffer || legal.length !== 1 || legal[0].type !== "take") return;
    const eventNo = this.update.event_no;
    this.autoTakeTimer = setTimeout(() => {
      if (this.update?.event_no === eventNo && !this.pending && !this.drawOffer && this.queue.length === 0 && autoTaking()) this.take();
    }, AUTO_TAKE_MS);
  }

  layoutHand() {
    const hand = this.root.querySelector(".hand:not(.empty)");
    if (hand) layoutFan(hand);
  }

  side() {
    const message = this.update;
    const aside = h("aside", { class: "side", "aria-label": t("side.label") });
    const history = h("ol", { class: "history", "aria-label": t("side.history") });
    for (const entry of this.history.lines.slice(-12)) history.append(h("li", {}, suitColoured(historyLine(entry))));
    aside.append(h("section", {}, h("h2", {}, t("side.history")), history));
    aside.append(h("section", {}, h("h2", {}, t("side.match")), scoreTable(message.score, message.seats, this.mySeat)));
    const free = this.seatsToTake().length > 0;
    aside.append(h("section", { class: "share" }, h("h2", {}, t(free ? "side.invite" : "side.watch_link")), shareBox(this.tableId)));
    if (message.hand_end) {
      aside.append(this.seedCheck(message.hand_end));
    } else if (message.seed_hash) {
      aside.append(h("p", { class: "seed", title: t("side.seed_title") }, t("side.fingerprint", { hash: message.seed_hash.slice(0, 12) })));
    }
    if (this.mySeat !== null) {
      const box = h("input", { type: "checkbox", class: "auto-take-option", checked: autoTaking() });
      box.addEventListener("change", () => {
        localStorage.setItem(AUTO_TAKE_KEY, box.checked ? "on" : "off");
        this.autoTake();
      });
      aside.append(h("label", { class: "check auto-take" }, box, " ", t("side.auto_take")));
      if (message.seats.length === 2) {
        const tracker = h("input", { type: "checkbox", class: "tracker-option", checked: duelTracking() });
        tracker.addEventListener("change", () => {
          localStorage.setItem(TRACKER_KEY, tracker.checked ? "on" : "off");
          this.render();
        });
        aside.append(h("label", { class: "check tracker-check" }, tracker, " ", t("side.tracker")));
      }
      aside.append(h("p", { class: "keys" }, t("side.keys")));
    }
    const leave = h("button", { type: "button", class: "btn small leave" }, t(this.mySeat === null ? "side.back" : "side.leave"));
    leave.addEventListener("click", () => this.leave());
    aside.append(leave);
    return aside;
  }

  /** The revealed seed, and whether its SHA-256 is the fingerprint published before the deal. */
  seedCheck(handEnd) {
    const line = h("p", { class: "seed" }, t("seed.revealed", { seed: handEnd.seed }));
    const digest = globalThis.crypto?.subtle?.digest("SHA-256", new TextEncoder().encode(handEnd.seed));
    digest?.then((buffer) => {
      const hex = [...new Uint8Array(buffer)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
      const published = this.publishedHashes.get(handEnd.hand) ?? handEnd.seed_hash; // a page opened after the hand: only this
      line.append(hex === published && published === handEnd.seed_hash
        ? h("span", { class: "seed-ok" }, ` ${t("seed.ok")}`)
        : h("span", { class: "seed-bad" }, ` ${t("seed.bad")}`));
    });
    return line;
  }

  tickClock() {
    clearInterval(this.clockTimer);
    const deadline = this.update?.deadline;
    if (!deadline) return;
    const draw = () => {
      const left = Math.max(0, Math.round(deadline - Date.now() / 1000));
      for (const node of this.root.querySelectorAll(".clock")) node.textContent = t("status.seconds", { n: left });
    };
    draw();
    this.clockTimer = setInterval(draw, 1000);
  }
}

// --- helpers --------------------------------------------------------------------------------

function moveType(phase) {
  return phase === "lead" ? "lead" : phase === "second" ? "second" : "beat";
}

/** The seats starting with mine (or seat 0 for a spectator), in turn order. */
function seatOrder(players, me) {
  const first = me ?? 0;
  return Array.from({ length: players }, (_, i) => (first + i) % players);
}

function describeFocus(node) {
  if (!node || node === document.body) return null;
  if (node.dataset?.card) return { card: node.dataset.card, index: [...(node.parentNode?.children ?? [])].indexOf(node) };
  if (node.dataset?.suit) return { selector: `.suit-choice[data-suit="${node.dataset.suit}"]` };
  if (node.classList?.contains("take-btn")) return { selector: ".take-btn" };
  if (node.classList?.contains("next-hand")) return { selector: ".next-hand" };
  if (node.classList?.contains("rematch")) return { selector: ".rematch" }; // the same control when it turns into "Join"
  // Resigning and the draw's buttons: the same one again after any update; once an answer or an offer has taken it
  // away, the move to make (else the bar's first button).
  const ending = ENDINGS.find((name) => node.classList?.contains(name));
  if (ending) return { selector: `.${ending}`, ending: true };
  const steady = STEADY.find((name) => node.classList?.contains(name));
  return steady ? { selector: `.${steady}` } : null;
}

const ENDINGS = ["draw-btn", "draw-accept", "draw-decline", "resign-btn"];
/** The side's controls, which stay where they were through every update. */
const STEADY = ["auto-take-option", "tracker-option", "leave"];

/**
 * Your turn has come and your cards are below the bottom of the screen (a phone at a table of three or
 * four, whose opponents take its height): scroll them up into sight.
 */
function revealHand(root) {
  const hand = root.querySelector(".hand");
  const first = hand?.querySelector(".card");
  if (!first || first.getBoundingClientRect().bottom <= window.innerHeight) return;
  hand.scrollIntoView({ block: "nearest", behavior: REDUCED_MOTION.matches ? "auto" : "smooth" });
}

/** What the keyboard is given when the control it was on is gone: a move, or the trump to choose. */
const PLAYABLE = ".hand .card.legal, .take-btn:not([disabled]), .suit-choice:not(:disabled)";

function restoreFocus(root, focused) {
  if (!focused) return;
  if (focused.card) {
    const cards = [...root.querySelectorAll(".hand .card")];
    const same = cards.find((card) => card.dataset.card === focused.card);
    const near = same ?? cards[Math.min(focused.index, cards.length - 1)];
    near?.focus({ preventScroll: true });
    return;
  }
  const node = root.querySelector(focused.selector);
  if (node && !node.disabled) node.focus({ preventScroll: true });
  else (root.querySelector(PLAYABLE) ?? (focused.ending ? root.querySelector(".endings-bar .btn") : null))?.focus({ preventScroll: true });
}

/** One remembered entry of the last actions (see record) in the page's language now. */
function historyLine(entry) {
  if (entry.joined) return t(entry.me === null ? "table.watching" : "table.at_table");
  if (entry.note) return notificationLine(entry.note, entry.seats, entry.me);
  const line = eventLine(entry.event, entry.seats, entry.me);
  return entry.by === "clock" ? t("event.by_clock", { line: line.replace(/[.。]$/, "") }) : line;
}

function loadHistory(tableId) {
  try {
    const value = JSON.parse(sessionStorage.getItem(`trumps.history.${tableId}`) ?? "null");
    // Entries are objects; lines kept as words by an older page are dropped (they were in one language).
    if (value && Array.isArray(value.lines) && Number.isInteger(value.no)) return { ...value, lines: value.lines.filter((line) => line && typeof line === "object") };
  } catch {
    // A damaged entry is simply dropped.
  }
  return { no: 0, lines: [] };
}

function saveHistory(tableId, history) {
  sessionStorage.setItem(`trumps.history.${tableId}`, JSON.stringify(history));
}
