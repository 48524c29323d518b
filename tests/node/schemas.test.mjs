// The schemas of spec/ in a validator from another ecosystem: Ajv, draft 2020-12, strict mode.
// Every schema compiles; every vector line, state and example of the docs validates.
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { test } from "node:test";

import Ajv2020 from "ajv/dist/2020.js";

const ROOT = new URL("../../", import.meta.url);
const SPEC = new URL("spec/", ROOT);
const VECTORS = new URL("vectors/", SPEC);

const read = (url) => readFileSync(url, "utf8");
const lines = (text) => text.split("\n").filter((line) => line !== "");

/** The objects of a log, read as docs/log-format.md §L1 says: a byte order mark first, lines at LF, blank lines. */
function logObjects(text) {
  const body = text.startsWith("\ufeff") ? text.slice(1) : text;
  return body
    .split("\n")
    .filter((line) => line.replace(/[ \t\r]/g, "") !== "")
    .map((line) => JSON.parse(line));
}

function compile(name) {
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  const validate = ajv.compile(JSON.parse(read(new URL(name, SPEC))));
  validate.part = (name) => ajv.getSchema(`${validate.schema.$id}#/$defs/${name}`);
  return validate;
}

function assertValid(validate, value, where) {
  assert.ok(validate(value), `${where}: ${JSON.stringify(validate.errors?.slice(0, 3))}`);
}

const log = compile("log.schema.json");
const state = compile("state.schema.json");
const protocol = compile("protocol.schema.json");

test("every schema of spec/ compiles in strict mode", () => {
  const names = readdirSync(SPEC).filter((name) => name.endsWith(".schema.json"));
  assert.deepEqual(names.sort(), ["log.schema.json", "protocol.schema.json", "state.schema.json"]);
  for (const name of names) compile(name);
});

test("every line of every vector is a log line, every state a state", () => {
  let count = 0;
  for (const name of readdirSync(VECTORS)) {
    const text = read(new URL(name, VECTORS));
    if (name.endsWith(".states.jsonl")) {
      // null is the line of a blank line before the header, where there is no game yet (docs/conformance.md)
      const states = lines(text).map((line) => JSON.parse(line));
      const games = states.slice(states.findIndex((value) => value !== null));
      for (const value of games) assertValid(state, value, name);
    } else if (name.endsWith(".bad.jsonl")) {
      // the last line is the bad one; the lines before it are well formed (a valid header, events)
      if (name.startsWith("reader_")) continue; // these are about the text itself, not a line's shape
      for (const line of lines(text).slice(0, -1)) assertValid(log, JSON.parse(line), name);
    } else if (name.endsWith(".jsonl")) {
      for (const line of logObjects(text)) {
        assertValid(log, line, name);
        count++;
      }
    }
  }
  assert.ok(count > 1000, `only ${count} lines`);
});

test("every JSON and JSON Lines example of the docs validates", () => {
  const fence = /^([ \t]*)```([\w-]*)[^\n]*\n([\s\S]*?)^\1```/gm;
  const pages = readdirSync(new URL("docs/", ROOT), { recursive: true }).filter((name) => name.endsWith(".md"));
  let count = 0;
  for (const page of pages) {
    for (const match of read(new URL(`docs/${page}`, ROOT)).matchAll(fence)) {
      if (match[2] !== "json" && match[2] !== "jsonl") continue;
      const body = match[3].replace(new RegExp(`^${match[1]}`, "gm"), "");
      if (match[2] === "jsonl") {
        for (const line of lines(body)) assertValid(log, JSON.parse(line), page);
      } else {
        const value = JSON.parse(body);
        assert.ok(log(value) || state(value) || protocol(value), `${page}: ${body}`);
      }
      count++;
    }
  }
  assert.ok(count >= 20, `only ${count} examples`);
});

/** The whole messages of an exchange shown in a `http` or `text` block: `POST path` then its body, `200 {...}`,
 * `→ {...}` or `← {...}`, each running on over the indented lines below it; those with `...` are cut for space. */
function exchangeMessages(block) {
  const messages = [];
  let request = null;
  for (const line of block.split("\n")) {
    if (/^\s/.test(line) && messages.length) messages.at(-1).text += line;
    else if (/^(POST|GET) /.test(line)) request = line.split(" ")[1];
    else if (line.startsWith("{")) messages.push({ kind: "body", request, text: line });
    else if (/^(\d{3}|←|→) \{/.test(line)) messages.push({ kind: line.split(" ")[0], request, text: line.slice(line.indexOf("{")) });
  }
  return messages.filter((message) => !message.text.includes("..."));
}

test("every whole message of the protocol page's exchanges validates", () => {
  const fence = /^```(http|text)\n([\s\S]*?)^```/gm;
  const bodies = { "/api/tables": "CreateTable", join: "JoinTable", leave: "LeaveTable", rematch: "RematchTable" };
  const answers = { table_created: "TableCreated", joined: "Joined", left: "Left", rematched: "Rematched", error: "HttpError" };
  let count = 0;
  for (const match of read(new URL("docs/protocol.md", ROOT)).matchAll(fence)) {
    for (const message of exchangeMessages(match[2])) {
      const value = JSON.parse(message.text);
      const where = `docs/protocol.md: ${message.text.slice(0, 80)}`;
      if (message.kind === "body") assertValid(protocol.part(bodies[message.request.split("/").at(-1)] ?? bodies[message.request]), value, where);
      else if (/^\d/.test(message.kind)) assertValid(protocol.part(answers[value.type]), value, where);
      else assertValid(protocol, value, where);
      count++;
    }
  }
  assert.ok(count >= 6, `only ${count} whole messages`);
});

test("a message of the protocol must say its type, in every union", () => {
  assertValid(protocol, { type: "move", event: { type: "take", seat: 0 }, last_seen: 1 }, "a move");
  assert.ok(!protocol({ type: "move", event: { seat: 0 }, last_seen: 1 }), "an event without a type");
  assert.ok(!protocol({ event: { type: "take", seat: 0 }, last_seen: 1 }), "a message without a type");
  assert.ok(!protocol({ type: "hello", token: null, last_seen: "1" }), "a mistyped field");
  assert.ok(!log({ seat: 0 }), "a log line without a type");
});

test("a new table's dealer is a seat of its game, and its computer levels are the four", () => {
  const create = protocol.part("CreateTable");
  assertValid(create, { players: 3, dealer: 2, computer: [{ seat: 1, level: "perfect" }] }, "a three-player table");
  assert.ok(!create({ dealer: 2 }), "dealer 2 of a duel (players left out: 2)");
  assert.ok(!create({ players: 2, dealer: 3 }), "dealer 3 of a duel");
  assert.ok(!create({ computer: [{ seat: 1, level: "EASY" }] }), "a level the server does not have");
  assert.ok(!protocol.part("Start")({ type: "start", players: 3, dealer: 3 }), "a hand's header with dealer 3 of 3");
});

test("errors name only the model the type names", () => {
  assert.ok(!log({ type: "beat", seat: 0, card: "1D" }));
  const paths = new Set(log.errors.filter((error) => error.keyword !== "if").map((error) => error.instancePath));
  assert.deepEqual([...paths], ["/card"]);
});

test("an outcome has its loser or its reason, never null", () => {
  const finished = { phase: "finished", to_act: null, trumps: ["S", "H"], hands: [[], ["7C"]], pile: ["9D", "JD"] };
  assertValid(state, { ...finished, outcome: { result: "loss", loser: 1, out_order: [0] } }, "a loss");
  assertValid(state, { ...finished, outcome: { result: "draw", reason: "tie_check", out_order: [0] } }, "a draw");
  assert.ok(!state({ ...finished, outcome: { result: "loss", loser: null, out_order: [0] } }));
  assert.ok(!state({ ...finished, outcome: { result: "loss", out_order: [0] } }));
  assert.ok(!state({ ...finished, outcome: { result: "draw", reason: "tie_check", loser: 1, out_order: [0] } }));
});
