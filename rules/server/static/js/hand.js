// Your hand: the order the cards are shown in, the fan they are spread in, and dragging one.

// Suits in hand order: colours alternate, and your own trump goes to the right end.
const HAND_SUIT_ORDER = ["S", "H", "C", "D"];
const FAN_MARGIN = 18;
const FAN_DROP = 12;
const DRAG_START_PX = 10;

/** The hand in the order it is shown: suits of alternating colour, your trump at the right end. */
export function sortHand(hand, trump) {
  const suits = HAND_SUIT_ORDER.filter((suit) => suit !== trump);
  if (trump) suits.push(trump);
  const ranks = "6789TJQKA";
  return [...hand].sort((a, b) => suits.indexOf(a[1]) - suits.indexOf(b[1]) || ranks.indexOf(a[0]) - ranks.indexOf(b[0]));
}

/** Spread the cards of `hand` (a `.hand` element) in a fan that fits its width. */
export function layoutFan(hand) {
  const cards = [...hand.querySelectorAll(".card")];
  const n = cards.length;
  const cardWidth = cards[0].offsetWidth || 80;
  // Leave room at both ends for the tilt of the outer cards.
  const width = hand.clientWidth - 2 * FAN_MARGIN;
  const step = n > 1 ? Math.min(cardWidth * 0.62, (width - cardWidth) / (n - 1)) : 0;
  const start = FAN_MARGIN + Math.max(0, (width - cardWidth - step * (n - 1)) / 2);
  const tilt = Math.min(2.5, 16 / n);
  // Place the cards without animating them in from the left edge; hover lifts still animate.
  hand.classList.add("settling");
  cards.forEach((card, i) => {
    const offset = i - (n - 1) / 2;
    const reach = n > 1 ? offset / ((n - 1) / 2) : 0;
    card.style.setProperty("--x", `${start + i * step}px`);
    card.style.setProperty("--rot", `${offset * tilt}deg`);
    card.style.setProperty("--arc", `${reach * reach * FAN_DROP}px`);
    card.style.zIndex = String(i + 1);
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
