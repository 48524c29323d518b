// Every seed → deal vector of spec/deals.json, reproduced from docs/deals.md by deals.mjs.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import { MersenneTwister, dealOf, keyWords, seedHash } from "./deals.mjs";

const table = JSON.parse(readFileSync(new URL("../../spec/deals.json", import.meta.url), "utf8"));

test("the hash, the key words and the generator's first outputs", () => {
  assert.ok(table.outputs.length >= 5);
  for (const entry of table.outputs) {
    assert.equal(seedHash(entry.seed), entry.seed_hash, `seed_hash of seed ${entry.seed}`);
    assert.deepEqual(keyWords(entry.seed), entry.key, `key of seed ${entry.seed}`);
    const generator = new MersenneTwister(entry.key);
    const outputs = entry.next32.map(() => generator.next32());
    assert.deepEqual(outputs, entry.next32, `outputs of seed ${entry.seed}`);
  }
});

test("every deal of spec/deals.json", () => {
  assert.ok(table.deals.length >= 20);
  for (const entry of table.deals) {
    assert.deepEqual(
      dealOf(entry.seed, entry.players, entry.dealer),
      entry.hands,
      `seed ${entry.seed}, ${entry.players} players, dealer ${entry.dealer}`,
    );
  }
});

test("every number of players with every dealer", () => {
  for (const entry of table.outputs) {
    const tables = table.deals.filter((deal) => deal.seed === entry.seed).map((deal) => `${deal.players}/${deal.dealer}`);
    assert.deepEqual(tables.sort(), ["2/0", "2/1", "3/0", "3/1", "3/2", "4/0", "4/1", "4/2", "4/3"], `seed ${entry.seed}`);
  }
});

test("a wrong seed deals otherwise", () => {
  const entry = table.deals[0];
  assert.notDeepEqual(dealOf(String(BigInt(entry.seed) + 1n), entry.players, entry.dealer), entry.hands);
});
