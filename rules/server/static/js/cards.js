// Card faces drawn as inline SVG (no images, no downloaded fonts); card backs are a CSS pattern.
//
// A card code is rank then suit, as in the logs: "TS" is the ten of spades.
// The suit shapes are <symbol>s defined once in index.html (#suit-S, #suit-H, ...).

import { t } from "./i18n.js";

export const SUITS = ["S", "H", "D", "C"];

const SUIT_SYMBOLS = { S: "♠", H: "♥", D: "♦", C: "♣" };

const SVG = "http://www.w3.org/2000/svg";

/** "T" -> "10", other ranks as written. */
export function rankLabel(rank) {
  return rank === "T" ? "10" : rank;
}

/** The suit's name in the page's language ("hearts", "черви"). */
export function suitName(suit) {
  return t(`suit.${suit}`);
}

export function suitSymbol(suit) {
  return SUIT_SYMBOLS[suit];
}

export function isRed(suit) {
  return suit === "H" || suit === "D";
}

/** A short label such as "10♠". */
export function cardLabel(code) {
  return rankLabel(code[0]) + SUIT_SYMBOLS[code[1]];
}

/** The spoken name, "ten of spades" ("десятка пик"), for screen readers and messages. */
export function cardName(code) {
  return t("card.name", { rank: t(`rank.${code[0]}`), suit: t(`suit_of.${code[1]}`) });
}

function el(name, attrs = {}, children = []) {
  const node = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  for (const child of children) node.append(child);
  return node;
}

function pip(suit, x, y, size, flip = false) {
  const half = size / 2;
  const transform = flip ? `rotate(180 ${x} ${y})` : "";
  return el("use", { href: `#suit-${suit}`, x: x - half, y: y - half, width: size, height: size, transform });
}

// Pip positions on a 200 x 280 card, as (column, row) with columns L C R and rows 0..6
// spanning the middle of the card; pips in the lower half are drawn upside down, as
// on a printed card.
const COLUMNS = { L: 68, C: 100, R: 132 };
const ROW_Y = [62, 87, 100, 140, 180, 193, 218];
const PIPS = {
  6: ["L0", "R0", "L3", "R3", "L6", "R6"],
  7: ["L0", "R0", "C1", "L3", "R3", "L6", "R6"],
  8: ["L0", "R0", "C1", "L3", "R3", "C5", "L6", "R6"],
  9: ["L0", "R0", "L2", "R2", "C3", "L4", "R4", "L6", "R6"],
  T: ["L0", "R0", "C1", "L2", "R2", "L4", "R4", "C5", "L6", "R6"],
};
// Rows 2 and 4 of the nine and ten sit a little further apart than the others.
const ROW_Y_NINE = [62, 87, 114, 140, 166, 193, 218];

function corner(rank, suit, flip) {
  const group = el("g", { class: "corner", transform: flip ? "rotate(180 100 140)" : "" });
  const text = el("text", { x: 24, y: 46, "text-anchor": "middle", class: rank === "T" ? "rank ten" : "rank" });
  text.textContent = rankLabel(rank);
  group.append(text, pip(suit, 24, 70, 26));
  return group;
}

function courtPanel(rank, suit) {
  // A framed panel with the rank letter and a large suit: a court card, simply drawn.
  const group = el("g", { class: "court" });
  group.append(
    el("rect", { x: 44, y: 40, width: 112, height: 200, rx: 10, class: "court-frame" }),
    el("rect", { x: 50, y: 46, width: 100, height: 188, rx: 7, class: "court-fill" }),
  );
  const letter = el("text", { x: 100, y: 104, "text-anchor": "middle", class: "court-letter" });
  letter.textContent = rank;
  const under = el("text", {
    x: 100, y: 104, "text-anchor": "middle", class: "court-letter", transform: "rotate(180 100 140)",
  });
  under.textContent = rank;
  group.append(
    el("line", { x1: 56, y1: 140, x2: 80, y2: 140, class: "court-rule" }),
    el("line", { x1: 120, y1: 140, x2: 144, y2: 140, class: "court-rule" }),
    letter,
    under,
    pip(suit, 100, 140, 40),
  );
  return group;
}

function centre(rank, suit) {
  if (rank === "A") return [pip(suit, 100, 140, 92)];
  if (rank === "J" || rank === "Q" || rank === "K") return [courtPanel(rank, suit)];
  const rows = rank === "9" || rank === "T" ? ROW_Y_NINE : ROW_Y;
  return PIPS[rank].map((spot) => {
    const row = Number(spot[1]);
    return pip(suit, COLUMNS[spot[0]], rows[row], 34, row > 3);
  });
}

/**
 * The face of a card as an <svg> element.
 *
 * Example: `cardFace("QH")` draws the queen of hearts; it is labelled "queen of hearts".
 */
export function cardFace(code) {
  const rank = code[0];
  const suit = code[1];
  const svg = el("svg", {
    viewBox: "0 0 200 280",
    class: `face ${isRed(suit) ? "red" : "black"} suit-${suit}`,
    role: "img",
    "aria-label": cardName(code),
  });
  svg.append(
    el("rect", { x: 2, y: 2, width: 196, height: 276, rx: 16, class: "paper" }),
    corner(rank, suit, false),
    corner(rank, suit, true),
    ...centre(rank, suit),
  );
  return svg;
}

/**
 * A card as an element of the page: `<div class="card">` (or another tag, e.g. a button)
 * holding its face, or its back when `code` is null.
 */
export function makeCard(code, tag = "div") {
  const node = document.createElement(tag);
  node.className = code ? "card" : "card back-card";
  if (code) {
    node.dataset.card = code;
    node.append(cardFace(code));
  } else {
    node.setAttribute("aria-hidden", "true");
  }
  return node;
}

/** A small suit glyph as <svg>, for trump badges and text. */
export function suitIcon(suit) {
  const svg = el("svg", {
    viewBox: "0 0 100 100",
    class: `suit-icon ${isRed(suit) ? "red" : "black"}`,
    role: "img",
    "aria-label": suitName(suit),
  });
  svg.append(el("use", { href: `#suit-${suit}`, x: 0, y: 0, width: 100, height: 100 }));
  return svg;
}
