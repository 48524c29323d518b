// Pieces of the table page that do not depend on its state: badges, the score, links.

import { cardLabel, cardName, isRed, suitIcon, suitName } from "./cards.js";
import { t } from "./i18n.js";
import { h, showToast } from "./ui.js";
import { seatName } from "./words.js";

export function trumpBadge(suit) {
  if (!suit) return h("span", { class: "trump-badge none", title: t("trump.none"), "data-word": t("trump.word") }, "?");
  return h("span", { class: "trump-badge", title: t("trump.badge", { suit: suitName(suit) }), "data-word": t("trump.word") }, suitIcon(suit));
}

export function pileLabel(pile, shown) {
  if (pile.length === 0) return t("pile.empty_label");
  return t("pile.label", { count: pile.length, cards: pile.slice(-shown).reverse().map(cardName).join(", ") });
}

export function labelSpans(codes) {
  return h("span", { class: "labels" }, ...codes.map((code) => h("span", { class: `chip ${isRed(code[1]) ? "red" : "black"}` }, cardLabel(code))));
}

/** A text line with its suit symbols coloured. */
export function suitColoured(line) {
  const span = h("span", {});
  for (const part of String(line).split(/([♠♥♦♣])/)) {
    if (part === "♥" || part === "♦") span.append(h("span", { class: "red-suit" }, part));
    else if (part) span.append(part);
  }
  return span;
}

export function scoreTable(score, seats, mySeat) {
  const table = h("table", { class: "score-table" });
  table.append(h("thead", {}, h("tr", {}, h("th", {}, t("score.player")), h("th", { class: "num" }, t("score.hands_lost")))));
  const body = h("tbody", {});
  seats.forEach((_, seat) => {
    body.append(h("tr", {}, h("td", {}, seatName(seats, seat, mySeat)), h("td", { class: "num" }, String(score.hands_lost[seat] ?? 0))));
  });
  table.append(body);
  const played = score.match_hands
    ? t("score.played_of", { count: score.hands_played, total: score.match_hands })
    : t("score.played", { count: score.hands_played });
  const drawn = score.draws ? t("score.drawn", { count: score.draws }) : "";
  table.append(h("caption", {}, [played, drawn].filter(Boolean).join(", ")));
  return table;
}

export function shareBox(tableId) {
  const link = `${location.origin}/?table=${encodeURIComponent(tableId)}`;
  const input = h("input", { type: "text", readonly: "", value: link, "aria-label": t("share.link"), class: "share-link" });
  input.addEventListener("focus", () => input.select());
  const copy = h("button", { type: "button", class: "btn small" }, t("share.copy"));
  copy.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(link);
      showToast(t("share.copied"));
    } catch {
      input.select();
      showToast(t("share.select"));
    }
  });
  return h("div", { class: "share-row" }, input, copy);
}

export function logLink(handEnd, tableId) {
  const text = handEnd.log.map((line) => JSON.stringify(line)).join("\n") + "\n";
  const url = URL.createObjectURL(new Blob([text], { type: "application/x-ndjson" }));
  return h("a", { class: "btn small", href: url, download: `table-${tableId}-hand-${handEnd.hand}.jsonl` }, t("outcome.download_log"));
}

/** A link to the hand on the analysis board: every hand face up, each position evaluated. */
export function reviewLink(handEnd, tableId) {
  const url = `/replay?table=${encodeURIComponent(tableId)}&hand=${handEnd.hand}`;
  return h("a", { class: "btn small review-link", href: url, target: "_blank", rel: "noopener" }, t("outcome.review"));
}

export function capitalize(text) {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
