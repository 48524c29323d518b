// The deal of a seed, written from docs/deals.md alone (no Python, no library): MT19937 seeded by
// init_by_array with the seed's 32-bit words (§D1), Fisher–Yates from the top (§D2), dealt round
// from the dealer's left (§D3); the commitment is the SHA-256 of the seed's digits (§D1.1).

import { createHash } from "node:crypto";

const N = 624;
const M = 397;

/** The published commitment to a seed given in decimal digits: SHA-256 of its ASCII digits, lower-case hex (§D1.1). */
export function seedHash(seed) {
  return createHash("sha256").update(Buffer.from(seed, "ascii")).digest("hex");
}

/** The init_by_array key of a seed given in decimal digits: its 32-bit words, least significant first (§D1.2). */
export function keyWords(seed) {
  let value = BigInt(seed);
  const words = [];
  do {
    words.push(Number(value & 0xffffffffn));
    value >>= 32n;
  } while (value > 0n);
  return words;
}

/** MT19937 as in the reference mt19937ar.c (§D1.2, §D1.3). */
export class MersenneTwister {
  constructor(key) {
    this.mt = new Uint32Array(N);
    this.index = N + 1;
    this.initByArray(key);
  }

  initGenrand(seed) {
    const mt = this.mt;
    mt[0] = seed >>> 0;
    for (let i = 1; i < N; i++) {
      const previous = mt[i - 1] ^ (mt[i - 1] >>> 30);
      mt[i] = (Math.imul(1812433253, previous) + i) >>> 0;
    }
    this.index = N;
  }

  initByArray(key) {
    const mt = this.mt;
    this.initGenrand(19650218);
    let i = 1;
    let j = 0;
    for (let k = Math.max(N, key.length); k > 0; k--) {
      const previous = mt[i - 1] ^ (mt[i - 1] >>> 30);
      mt[i] = ((mt[i] ^ Math.imul(previous, 1664525)) + key[j] + j) >>> 0;
      i++;
      j++;
      if (i >= N) {
        mt[0] = mt[N - 1];
        i = 1;
      }
      if (j >= key.length) j = 0;
    }
    for (let k = N - 1; k > 0; k--) {
      const previous = mt[i - 1] ^ (mt[i - 1] >>> 30);
      mt[i] = ((mt[i] ^ Math.imul(previous, 1566083941)) - i) >>> 0;
      i++;
      if (i >= N) {
        mt[0] = mt[N - 1];
        i = 1;
      }
    }
    mt[0] = 0x80000000;
  }

  next32() {
    const mt = this.mt;
    if (this.index >= N) {
      for (let k = 0; k < N; k++) {
        const y = (mt[k] & 0x80000000) | (mt[(k + 1) % N] & 0x7fffffff);
        mt[k] = mt[(k + M) % N] ^ (y >>> 1) ^ (y & 1 ? 0x9908b0df : 0);
      }
      this.index = 0;
    }
    let y = mt[this.index++];
    y ^= y >>> 11;
    y ^= (y << 7) & 0x9d2c5680;
    y ^= (y << 15) & 0xefc60000;
    y ^= y >>> 18;
    return y >>> 0;
  }

  /** The top k bits of one output, 1 <= k <= 32 (§D1.4). */
  bits(k) {
    return this.next32() >>> (32 - k);
  }

  /** A uniform integer in 0 … n-1 by rejection, k the bit length of n (§D1.5). */
  below(n) {
    const k = 32 - Math.clz32(n);
    let r = this.bits(k);
    while (r >= n) r = this.bits(k);
    return r;
  }
}

const RANKS = "6789TJQKA";
const SUITS = "SHDC";

/** The pack in pack order: 6S 7S … AS 6H … AC (§D2.1). */
export function pack() {
  return [...SUITS].flatMap((suit) => [...RANKS].map((rank) => rank + suit));
}

/** The hands of the deal of `seed` (decimal digits) for `players` seats and `dealer` (§D2, §D3). */
export function dealOf(seed, players, dealer) {
  const generator = new MersenneTwister(keyWords(seed));
  const cards = pack();
  for (let i = cards.length - 1; i >= 1; i--) {
    const j = generator.below(i + 1);
    [cards[i], cards[j]] = [cards[j], cards[i]];
  }
  const hands = Array.from({ length: players }, () => []);
  cards.forEach((card, i) => hands[(dealer + 1 + i) % players].push(card));
  return hands;
}
