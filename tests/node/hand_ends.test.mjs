// Every case of spec/hand_ends.json, checked by hand_ends.mjs (docs/deals.md) as far as no rules are needed.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import { CHECKS, NEEDS_THE_RULES, problems } from "./hand_ends.mjs";

const table = JSON.parse(readFileSync(new URL("../../spec/hand_ends.json", import.meta.url), "utf8"));

test("the first problem found is the case's, or comes after a problem only the rules find", () => {
  assert.deepEqual(new Set(table.cases.map((c) => c.problem)), new Set([...Object.keys(CHECKS), null]));
  for (const c of table.cases) {
    const found = problems(c.hand_end, c);
    if (c.problem === null) assert.deepEqual(found, [], c.name);
    else if (NEEDS_THE_RULES.has(c.problem)) {
      assert.ok(found.every((code) => CHECKS[code] > CHECKS[c.problem]), `${c.name}: ${found}`);
    } else assert.equal(found[0], c.problem, `${c.name}: ${found}`);
  }
});
