// The checks of a finished hand that need no rules engine, following docs/deals.md ("Checking a hand") and nothing else:
// the message's form, the seed's form and hash, the dealer announced, the deal, the outcome's form, and what the
// seat was shown. Replaying the log (its legality, `log`; how it ends, `outcome`) needs the rules, and is left out.

import { dealOf, pack, seedHash } from "./deals.mjs";

/** The checks here, by code, with the step of "Checking a hand" each belongs to, in the page's order. */
export const CHECKS = {
  form: 0, seed_form: 1, not_published: 2, seed_hash: 2, log: 3, dealer: 3, no_deal: 4, deal: 4,
  outcome_form: 5, outcome: 5, hand: 6, events: 6,
};
export const NEEDS_THE_RULES = new Set(["log", "outcome"]);

const PLAYED = new Set(["choose_trump", "lead", "beat", "second", "take", "resign", "agree_draw"]);
const isObject = (value) => value !== null && typeof value === "object" && !Array.isArray(value);
const isSeat = (value, players) => Number.isInteger(value) && value >= 0 && value < players;
const inPackOrder = (cards) => [...cards].sort((a, b) => pack().indexOf(a) - pack().indexOf(b));

/** The codes of every check that fails, in the page's order (the first is the problem), the rules' two left out. */
export function problems(handEnd, kept) {
  const found = [];
  const { seed, seed_hash: hash, log, outcome } = handEnd;
  if (typeof seed !== "string" || typeof hash !== "string" || !Array.isArray(log) || !log.every(isObject)
      || !isObject(outcome)) {
    return ["form"];
  }
  const wellWritten = /^(0|[1-9][0-9]*)$/.test(seed);
  if (!wellWritten) found.push("seed_form");
  if (kept.published !== null && hash !== kept.published) found.push("not_published");
  if (seedHash(seed) !== hash) found.push("seed_hash");
  const header = log[0] ?? {};
  const players = header.players ?? 2;
  const dealer = header.dealer ?? 0;
  if (kept.dealer !== null && dealer !== kept.dealer) found.push("dealer");
  const deals = log.filter((line) => line.type === "deal");
  if (deals.length !== 1) found.push("no_deal");
  else if (wellWritten && JSON.stringify(dealOf(seed, players, dealer)) !== JSON.stringify(deals[0].hands)) {
    found.push("deal");
  }
  if (!outcomeWellFormed(outcome, players)) found.push("outcome_form");
  if (kept.seat !== null && kept.hand !== null && deals.length === 1) {
    const shown = handAfterTheDeal(log, deals[0], kept.seat, header.rules?.pass_sixes ?? true);
    if (JSON.stringify(inPackOrder(shown)) !== JSON.stringify(inPackOrder(kept.hand))) found.push("hand");
  }
  if (kept.events !== null) {
    const played = (events) =>
      events.filter((event) => PLAYED.has(event.type)).map((e) => JSON.stringify([e.type, e.seat, e.card, e.suit]));
    if (JSON.stringify(played(log)) !== JSON.stringify(played(kept.events))) found.push("events");
  }
  return found;
}

/** A seat's hand once the deal is done: the sixes of another seat's trump passed to it (rules §2.2.2). */
function handAfterTheDeal(log, deal, seat, passSixes) {
  const trumps = {};
  for (const line of log.slice(0, log.indexOf(deal))) if (line.type === "choose_trump") trumps[line.seat] = line.suit;
  const owner = (card) => Object.keys(trumps).find((holder) => trumps[holder] === card[1]);
  const cards = deal.hands.flatMap((hand, holder) => hand.map((card) => [card, holder]));
  return cards
    .filter(([card, holder]) => {
      const passedTo = passSixes && card[0] === "6" ? owner(card) : undefined;
      return passedTo === undefined ? holder === seat : Number(passedTo) === seat;
    })
    .map(([card]) => card);
}

/** An outcome of the log format (§L5.1): a loss with its loser, or a draw with its reason; who went out, in order. */
function outcomeWellFormed(outcome, players) {
  const order = outcome.out_order;
  if (!Array.isArray(order) || !order.every((seat) => isSeat(seat, players)) || new Set(order).size !== order.length) {
    return false;
  }
  if (outcome.result === "loss") {
    return isSeat(outcome.loser, players) && [undefined, "resigned"].includes(outcome.reason);
  }
  return outcome.result === "draw" && !("loser" in outcome)
    && ["tie_check", "repetition", "agreement"].includes(outcome.reason);
}
