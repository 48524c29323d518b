// Plain words: what the page says about seats, moves, notifications and errors.
//
// The server's messages are already one line of plain English; here card codes become
// card labels ("9H" -> "9♥") and seat numbers become names ("seat 1" -> "Anna" or "you").

import { cardLabel, suitName, suitSymbol } from "./cards.js";

/** The name of a seat as this page shows it: "You", a person's name, "Computer (easy)", "Seat 2". */
export function seatName(seats, seat, mySeat, { capital = true } = {}) {
  if (seat === mySeat) return capital ? "You" : "you";
  const info = seats?.[seat];
  if (info?.kind === "human" && info.name) return info.name;
  if (info?.kind === "computer") {
    const several = seats.filter((other) => other.kind === "computer").length > 1;
    return `Computer${several ? ` ${seat + 1}` : ""}`;
  }
  return `${capital ? "Seat" : "seat"} ${seat + 1}`;
}

const CODE_RE = /\b([6789TJQKA])([SHDC])\b/g;

/** Replace card codes by labels and "seat N" by the seat's name in a server message. */
export function plainText(text, seats = [], mySeat = null) {
  return String(text)
    .replace(CODE_RE, (_, rank, suit) => cardLabel(rank + suit))
    .replace(/\bseat (\d)'s\b/g, (_, n) => (Number(n) === mySeat ? "your" : `${seatName(seats, Number(n), mySeat)}'s`))
    .replace(/\bseat (\d)\b/gi, (_, n) => seatName(seats, Number(n), mySeat, { capital: false }))
    .replace(/^you cannot/, "You cannot")
    .replace(/\bnot in your's hand\b/, "not in your hand");
}

// What each error code means to a person, when the server's own words need framing.
const ERROR_WORDS = {
  bad_json: "The page sent something the server could not read. Reload the page.",
  bad_message: "The page sent a message the server did not understand. Reload the page.",
  unknown_type: "The page and the server do not understand each other. Reload the page.",
  too_large: "That message was too long for the server.",
  rate_limited: "Slow down a little: too many actions at once.",
  hello_first: "The connection was not set up properly. Reconnecting…",
  hello_timeout: "The connection timed out. Reconnecting…",
  already_hello: null,
  bad_token: "This browser's seat at the table is no longer valid; you are watching instead.",
  spectator: "You are watching this table; take a free seat to play.",
  not_your_seat: "That move belongs to another player.",
  not_your_turn: null,
  illegal: null,
  stale: "The table moved on before your move arrived; look again and choose.",
  no_game: "The hand has not started yet.",
  hand_not_over: "The hand is not over yet.",
  match_over: "The match is over.",
  not_found: "There is no such table (it may have finished or the link may be wrong).",
  table_full: "Every seat at that table is taken; you can still watch.",
  seat_taken: "Someone else took that seat first.",
  too_many_tables: "You already have many open tables; finish or leave one first.",
  bad_request: null,
  internal: "Something went wrong on the server. Try again.",
};

/** An error from the server ({code, message}) in plain words for a person. */
export function errorText(error, seats = [], mySeat = null) {
  const framed = ERROR_WORDS[error?.code];
  const own = error?.message ? plainText(error.message, seats, mySeat) : "";
  if (error?.code === "illegal" || error?.code === "not_your_turn") {
    const sentence = own.replace(/^You /, "you ").replace(/\.$/, "");
    return own ? `Not allowed: ${sentence}.` : "That move is not allowed now.";
  }
  if (framed) return framed;
  if (own) return own.charAt(0).toUpperCase() + own.slice(1) + (own.endsWith(".") ? "" : ".");
  return "Something went wrong. Try again.";
}

function cards(codes) {
  return codes.map(cardLabel).join(" ");
}

/** One line for the account of the last actions, or null for events not worth a line. */
export function eventLine(event, seats, mySeat) {
  if (!event) return null;
  const who = event.seat !== undefined ? seatName(seats, event.seat, mySeat) : "";
  switch (event.type) {
    case "seat_taken":
      return `${who} sat down.`;
    case "seat_freed":
      return `${who} left the table.`;
    case "hand_started":
      return `Hand ${event.hand} begins; ${seatName(seats, event.dealer, mySeat, { capital: false })} deal${event.dealer === mySeat ? "" : "s"}.`;
    case "deal":
      return `The cards are dealt: ${event.hand_sizes.join(", ")}.`;
    case "choose_trump":
      return `${who} chose ${suitSymbol(event.suit)} ${suitName(event.suit)} as trump.`;
    case "lead":
      return `${who} led ${cardLabel(event.card)}.`;
    case "beat":
      return `${who} beat with ${cardLabel(event.card)}.`;
    case "second":
      return `${who} added ${cardLabel(event.card)}.`;
    case "take":
      return null; // the "took" notification says which cards
    default:
      return null;
  }
}

const PLACES = ["first", "second", "third", "fourth"];

/** One line per engine notification worth telling. */
export function notificationLine(note, seats, mySeat) {
  const who = note.seat !== undefined ? seatName(seats, note.seat, mySeat) : "";
  switch (note.type) {
    case "six_passed":
      return `${cardLabel(note.card)} passed from ${seatName(seats, note.from_seat, mySeat, { capital: false })} to ${seatName(seats, note.to_seat, mySeat, { capital: false })}.`;
    case "took":
      return `${who} took ${note.cards.length} card${note.cards.length === 1 ? "" : "s"}${note.whole_pile ? " (the whole pile)" : ""}: ${cards(note.cards)}.`;
    case "went_out":
      return `${who} went out ${PLACES[note.place - 1] ?? ""}.`;
    case "game_over":
      if (note.result === "draw") return note.reason === "repetition" ? "Draw: the same position came up three times." : "Draw by the tie check.";
      return `${seatName(seats, note.loser, mySeat)} lost the hand.`;
    default:
      return null;
  }
}

/** The headline of a finished hand for the seat `mySeat` (null: spectator). */
export function outcomeWords(outcome, seats, mySeat) {
  if (!outcome) return { text: "", tone: "" };
  if (outcome.result === "draw") {
    const why = outcome.reason === "repetition" ? "the same position came up three times" : "the last card beats the pile";
    return { text: "Draw", detail: `A draw: ${why}.`, tone: "draw" };
  }
  if (mySeat === null || mySeat === undefined) {
    return { text: `${seatName(seats, outcome.loser, null)} lost`, detail: "", tone: "" };
  }
  if (outcome.loser === mySeat) return { text: "You lost this hand", detail: "You were left holding cards.", tone: "loss" };
  const place = outcome.out_order.indexOf(mySeat);
  const detail = place >= 0 && seats.length > 2 ? `You went out ${PLACES[place]}.` : `${seatName(seats, outcome.loser, mySeat)} was left holding cards.`;
  return { text: "You won this hand!", detail, tone: "win" };
}

/** The last move in a few words, for a bubble on the seat that made it: {seat, text} or null. */
export function lastMove(message) {
  const event = message?.event;
  if (!event || event.seat === undefined) return null;
  switch (event.type) {
    case "lead":
      return { seat: event.seat, text: `led ${cardLabel(event.card)}` };
    case "beat":
      return { seat: event.seat, text: `beat with ${cardLabel(event.card)}` };
    case "second":
      return { seat: event.seat, text: `added ${cardLabel(event.card)}` };
    case "take": {
      const took = (message.notifications ?? []).find((note) => note.type === "took");
      const count = took ? took.cards.length : event.count;
      return { seat: event.seat, text: count ? `took ${count}` : "took" };
    }
    case "choose_trump":
      return { seat: event.seat, text: `chose ${suitSymbol(event.suit)}` };
    default:
      return null;
  }
}
