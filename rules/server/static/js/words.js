// Plain words: what the page says about seats, moves, notifications and errors, in the
// player's language (js/i18n.js).
//
// Each line is one whole translated sentence with placeholders; a sentence about "you"
// has its own message (key + ".you"), since most languages conjugate the verb for it.
// Card codes become card labels ("9H" -> "9♥"), seat numbers become names.

import { cardLabel, suitName, suitSymbol } from "./cards.js";
import { has, t } from "./i18n.js";

/**
 * A person's name as the page writes it into its sentences, between FIRST STRONG ISOLATE and POP DIRECTIONAL ISOLATE
 * (docs/protocol.md, *Names*): a right-to-left name would otherwise take the neutral characters next to it along
 * ("עדי · דנה" in the lobby read with the seats swapped).
 */
export function personName(name) {
  return `\u2068${name}\u2069`;
}

/** The name of a seat as this page shows it: "You", a person's name, "Computer 2", "Seat 2" (numbered from 0, as logs and the analysis board number seats). */
export function seatName(seats, seat, mySeat) {
  if (seat === mySeat) return t("seat.you");
  const info = seats?.[seat];
  if (info?.kind === "human" && info.name) return personName(info.name);
  if (info?.kind === "computer") {
    const several = seats.filter((other) => other.kind === "computer").length > 1;
    return several ? t("seat.computer_n", { n: seat }) : t("seat.computer");
  }
  return t("seat.n", { n: seat });
}

/** The message `key` about `seat`: its ".you" form when the seat is the reader's. */
export function about(key, seat, mySeat, seats, params = {}) {
  if (seat === mySeat && has(`${key}.you`)) return t(`${key}.you`, params);
  return t(key, { ...params, who: seatName(seats, seat, mySeat) });
}

/** A place in the order of going out, in words ("first"). */
export function placeWord(place) {
  return t(`place.${place}`);
}

/** The sub-key of a refusal whose sentence depends on the phase (its rule clause says which). */
const WRONG_MOVE = { "2.3": "lead", "2.4": "respond", "2.5": "second" };

/**
 * An error from the server ({code, message, refusal}) in the player's language, from its data:
 * a refused move by its refusal's code (`refusal.<code>` in the catalogs, with the cards it
 * names as `{top}` and `{card}`), anything else by its error code. The server's English
 * sentence is never shown or parsed.
 */
/**
 * Whether a free seat is kept for its player of the match before, at a rematch's new table (`held_until`, a Unix
 * time, docs/protocol.md: anyone else's join is refused with seat_held until then). The server leaves a hold out once
 * it is over; this page's clock ends it on the page meanwhile (a clock a little ahead only earns a refusal).
 */
export function isHeld(seat, now = Date.now()) {
  return seat.kind === "free" && seat.held_until != null && seat.held_until * 1000 > now;
}

/** The free seats anyone may take: not those kept for a rematch's players (isHeld). */
export function openSeats(seats) {
  return seats.filter((seat) => seat.kind === "free" && !isHeld(seat));
}

export function errorText(error) {
  const refusal = error?.refusal;
  if (refusal) {
    const key = refusal.code === "wrong_move" ? `refusal.wrong_move.${WRONG_MOVE[refusal.clause] ?? "respond"}` : `refusal.${refusal.code}`;
    const [first, second] = (refusal.cards ?? []).map(cardLabel);
    if (has(key)) return t(key, { top: first ?? "", card: second ?? first ?? "" });
  }
  const code = error?.code;
  if (code && has(`error.${code}`)) return t(`error.${code}`);
  return t("error.unknown");
}

function cards(codes) {
  return codes.map(cardLabel).join(" ");
}

function suitWords(suit) {
  return `${suitSymbol(suit)} ${suitName(suit)}`;
}

/** One line for the account of the last actions, or null for events not worth a line. */
export function eventLine(event, seats, mySeat) {
  if (!event) return null;
  const say = (key, params = {}) => about(key, event.seat, mySeat, seats, params);
  switch (event.type) {
    case "seat_taken":
      return say("event.seat_taken");
    case "seat_freed":
      return say("event.seat_freed");
    case "hand_started":
      return about("event.hand_started", event.dealer, mySeat, seats, { hand: event.hand });
    case "deal":
      return t("event.deal", { sizes: event.hand_sizes.join(", ") });
    case "choose_trump":
      return say("event.choose_trump", { suit: suitWords(event.suit) });
    case "lead":
      return say("event.lead", { card: cardLabel(event.card) });
    case "beat":
      return say("event.beat", { card: cardLabel(event.card) });
    case "second":
      return say("event.second", { card: cardLabel(event.card) });
    case "resign":
      return say("event.resign");
    case "agree_draw":
      return t("event.agree_draw");
    case "rematch":
      return say("event.rematch");
    default:
      return null; // a take: the "took" notification says which cards
  }
}

/** One line per engine notification worth telling. */
export function notificationLine(note, seats, mySeat) {
  switch (note.type) {
    case "six_passed": {
      const params = { card: cardLabel(note.card), from: seatName(seats, note.from_seat, mySeat), to: seatName(seats, note.to_seat, mySeat) };
      if (note.from_seat === mySeat) return t("note.six_passed.from_you", params);
      if (note.to_seat === mySeat) return t("note.six_passed.to_you", params);
      return t("note.six_passed", params);
    }
    case "took":
      return about(note.whole_pile ? "note.took_pile" : "note.took", note.seat, mySeat, seats, { count: note.cards.length, cards: cards(note.cards) });
    case "went_out":
      return about("note.went_out", note.seat, mySeat, seats, { place: placeWord(note.place) });
    case "game_over":
      if (note.result === "draw") {
        const draws = { repetition: "note.draw_repetition", agreement: "outcome.draw_agreement" };
        return t(draws[note.reason] ?? "note.draw_tie");
      }
      return about("note.lost", note.loser, mySeat, seats);
    default:
      return null;
  }
}

/** The headline of a finished hand for the seat `mySeat` (null: spectator). */
export function outcomeWords(outcome, seats, mySeat) {
  if (!outcome) return { text: "", tone: "" };
  if (outcome.result === "draw") {
    const reasons = { repetition: "outcome.draw_repetition", agreement: "outcome.draw_agreement" };
    const detail = t(reasons[outcome.reason] ?? "outcome.draw_tie");
    return { text: t("outcome.draw"), detail, tone: "draw" };
  }
  const resigned = outcome.reason === "resigned" ? about("outcome.resigned", outcome.loser, mySeat, seats) : null;
  if (mySeat === null || mySeat === undefined) {
    return { text: t("outcome.lost_by", { who: seatName(seats, outcome.loser, null) }), detail: resigned ?? "", tone: "" };
  }
  if (outcome.loser === mySeat) return { text: t("outcome.you_lost"), detail: resigned ?? t("outcome.you_lost_detail"), tone: "loss" };
  if (resigned) return { text: t("outcome.you_won"), detail: resigned, tone: "win" };
  const place = outcome.out_order.indexOf(mySeat);
  const detail = place >= 0 && seats.length > 2
    ? t("outcome.you_went_out", { place: placeWord(place + 1) })
    : t("outcome.left_holding", { who: seatName(seats, outcome.loser, mySeat) });
  return { text: t("outcome.you_won"), detail, tone: "win" };
}

/** The last move in a few words, for a bubble on the seat that made it: {seat, text} or null. */
export function lastMove(message) {
  const event = message?.event;
  if (!event || event.seat === undefined) return null;
  switch (event.type) {
    case "lead":
      return { seat: event.seat, text: t("move.lead", { card: cardLabel(event.card) }) };
    case "beat":
      return { seat: event.seat, text: t("move.beat", { card: cardLabel(event.card) }) };
    case "second":
      return { seat: event.seat, text: t("move.second", { card: cardLabel(event.card) }) };
    case "take": {
      const took = (message.notifications ?? []).find((note) => note.type === "took");
      const count = took ? took.cards.length : event.count;
      return { seat: event.seat, text: count ? t("move.took_n", { count }) : t("move.took") };
    }
    case "choose_trump":
      return { seat: event.seat, text: t("move.chose", { suit: suitSymbol(event.suit) }) };
    default:
      return null;
  }
}
