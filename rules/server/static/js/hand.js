// Your hand: the order the cards are shown in, the fan they are spread in, and dragging one.

// Suits in hand order: colours alternate, and your own trump goes to the right end.
const HAND_SUIT_ORDER = ["S", "H", "C", "D"];
const FAN_MARGIN = 18;
const ROW_MARGIN = 4;
const FAN_DROP = 12;
const DRAG_START_PX = 10;

/** The hand in the order it is shown: suits of alternating colour, your trump at the right end. */
export function sortHand(hand, trump) {
  const suits = HAND_SUIT_ORDER.filter((suit) => suit !== trump);
  if (trump) suits.push(trump);
  const ranks = "6789TJQKA";
  return [...hand].sort((a, b) => suits.indexOf(a[1]) - suits.indexOf(b[1]) || ranks.indexOf(a[0]) - ranks.indexOf(b[0]));
}

/**
 * The narrowest strip of a card left showing in the fan, in CSS pixels: below it a thumb
 * hits the neighbour, so a long hand is spread over more rows instead (the later rows
 * overlap the lower part of the earlier ones, each card keeps a strip this wide).
 */
export const MIN_STRIP = 34;

/** Spread the cards of `hand` (a `.hand` element) in a fan that fits its width, in rows if need be. */
export function layoutFan(hand) {
  const cards = [...hand.querySelectorAll(".card")];
  const n = cards.length;
  const cardWidth = cards[0].offsetWidth || 80;
  const cardHeight = cards[0].offsetHeight || cardWidth * 1.4;
  // Leave room at both ends for the tilt of the outer cards (rows are not tilted: less room).
  const fits = (margin) => Math.max(2, Math.floor((hand.clientWidth - 2 * margin - cardWidth) / MIN_STRIP) + 1);
  const rows = Math.ceil(n / fits(FAN_MARGIN)) > 1 ? Math.ceil(n / fits(ROW_MARGIN)) : 1;
  const width = hand.clientWidth - 2 * (rows > 1 ? ROW_MARGIN : FAN_MARGIN);
  const perRow = Math.ceil(n / rows);
  // Each row covers the lower part of the one before; the part left showing is the tap target's height.
  const rowGap = Math.round(cardHeight * 0.42);
  hand.style.setProperty("--rows-extra", `${(rows - 1) * rowGap}px`);
  hand.dataset.rows = String(rows);
  // Place the cards without animating them in from the left edge; hover lifts still animate.
  hand.classList.add("settling");
  cards.forEach((card, index) => {
    const row = Math.floor(index / perRow);
    const inRow = Math.min(perRow, n - row * perRow);
    const i = index - row * perRow;
    const step = inRow > 1 ? Math.min(cardWidth * 0.62, (width - cardWidth) / (inRow - 1)) : 0;
    const start = (rows > 1 ? ROW_MARGIN : FAN_MARGIN) + Math.max(0, (width - cardWidth - step * (inRow - 1)) / 2);
    const tilt = rows > 1 ? 0 : Math.min(2.5, 16 / inRow);
    const offset = i - (inRow - 1) / 2;
    const reach = inRow > 1 ? offset / ((inRow - 1) / 2) : 0;
    card.style.setProperty("--x", `${start + i * step}px`);
    card.style.setProperty("--row-y", `${row * rowGap}px`);
    card.style.setProperty("--rot", `${offset * tilt}deg`);
    card.style.setProperty("--arc", `${rows > 1 ? 0 : reach * reach * FAN_DROP}px`);
    card.style.zIndex = String(index + 1);
  });
  void hand.offsetWidth;
  hand.classList.remove("settling");
}

/**
 * Follow a card dragged with the mouse or a finger from `event` (its pointerdown); `onDrop`
 * is called when it is let go over `target()` (the pile). Anywhere else the card goes back.
 */
export function dragCard(event, card, target, onDrop) {
  if (event.button !== 0) return;
  const start = { x: event.clientX, y: event.clientY };
  let dragging = false;
  const overPile = (e) => {
    const pile = target()?.getBoundingClientRect();
    return Boolean(pile) && e.clientX >= pile.left && e.clientX <= pile.right && e.clientY >= pile.top && e.clientY <= pile.bottom + 40;
  };
  const move = (e) => {
    const dx = e.clientX - start.x;
    const dy = e.clientY - start.y;
    if (!dragging && Math.hypot(dx, dy) < DRAG_START_PX) return;
    dragging = true;
    card.classList.add("dragging");
    card.style.setProperty("--dx", `${dx}px`);
    card.style.setProperty("--dy", `${dy}px`);
    target()?.classList.toggle("drop-here", overPile(e));
  };
  const end = (e) => {
    card.removeEventListener("pointermove", move);
    card.removeEventListener("pointerup", end);
    card.removeEventListener("pointercancel", end);
    if (!dragging) return;
    // The click that the browser sends right after the drop is not a second play.
    const swallow = (click) => click.stopPropagation();
    window.addEventListener("click", swallow, { capture: true, once: true });
    setTimeout(() => window.removeEventListener("click", swallow, { capture: true }), 0);
    card.classList.remove("dragging");
    target()?.classList.remove("drop-here");
    if (e.type === "pointerup" && overPile(e)) onDrop();
  };
  card.setPointerCapture(event.pointerId);
  card.addEventListener("pointermove", move);
  card.addEventListener("pointerup", end);
  card.addEventListener("pointercancel", end);
}
