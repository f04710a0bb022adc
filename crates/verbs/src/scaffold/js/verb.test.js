// Native tests of the verb in verb.js: `node --test` (no componentize-js needed).
//
// These are yours: change them as you change the verb. They read what it declares (its
// name, tool and `waits`), so a new tool or a wait breaks none of them; a new `shape` or
// new params may. The kit's own tests are in kit.test.js, on verbs of their own.
import assert from "node:assert/strict";
import { test } from "node:test";

import { VerbError } from "./kit.js";
import { info, parse, shape, verb } from "./verb.js";

test("sends the selector and the timeout", () => {
  const call = verb.parse(["#btn-inc", "--timeout", "900"]);
  const sent = { selector: "#btn-inc" };
  // `--timeout MS` is sent as the argument the tool waits on too.
  if (verb.waits) sent[verb.waits.argument] = 900;
  assert.deepEqual(JSON.parse(call.arguments), sent);
  assert.equal(call.timeoutMs, 900);
});

test("usage errors are one line", () => {
  const message = "missing argument `<selector>`";
  assert.throws(() => verb.parse([]), new VerbError(message));
  // The component's `parse` throws the plain string a `result` error must be.
  assert.throws(() => parse([]), (thrown) => thrown === message);
});

test("prints the result", () => {
  const { val: call } = parse(["#btn-inc"]);
  const result = JSON.stringify({ content: [], structuredContent: { clicked: "#btn-inc" } });
  const out = shape(result, call.state, { pretty: false });
  assert.equal(new TextDecoder().decode(out.stdout), '{"clicked":"#btn-inc"}\n');
});

test("the component exports this verb", () => {
  // `info`, what the component exports and build.mjs names it by.
  const described = info();
  assert.deepEqual([described.name, described.tool], [verb.name, verb.tool]);
});
