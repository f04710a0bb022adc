// The kit's own tests, which `node --test` runs with verb.test.js's (no componentize-js
// needed). They hold kit.js to mur's rules, on verbs of their own: no change to verb.js
// changes them. Leave this file as it is; it goes with kit.js (the Rust and Python kits'
// tests run the same tables).
import assert from "node:assert/strict";
import { test } from "node:test";

import {
  HOST_FLAGS, HOST_OPTIONS, VERB_NAME_RULE, Verb, VerbError, WHOLE_HELP, flag, jsonLine, option, positional, selector,
  unusable, unusableWaits,
} from "./kit.js";

// mur's verdict on option names (Rust's `char::is_alphanumeric` first, then that or
// `-`, `_`, `.`), one table in the three kits' tests (mur's tests keep them the same).
// names: begin (the same rows in the Rust and Python kits' tests)
const OPTION_NAMES = [
  ["clear", true],
  ["dx_2.5", true],
  ["item-selector", true],
  ["2x", true],
  ["a.b", true],
  ["é", true],
  ["café", true],
  ["Ünï", true],
  ["хост", true],
  ["日本", true],
  ["हिंदी", true],
  ["٣", true],
  ["Ⅻ", true],
  ["", false],
  ["--clear", false],
  ["-x", false],
  [".a", false],
  ["_a", false],
  ["a b", false],
  ["x=1", false],
  ["a/b", false],
  ["a→b", false],
  ["✓", false],
  ["x\u202ey", false],
  ["a\u200bb", false],
  ["a\u0085b", false],
  ["e\u0301", false],
  ["a\u00a0b", false],
];
// names: end

// A milliseconds value and its verdict, as mur reads its own `--timeout MS` (the text
// trimmed of Rust's white space, then a `u64`, at least 1) and as `wit/verb.wit` carries
// it (a `u32`): one table in the three kits' tests (mur's tests keep them the same, and
// to `mur --timeout`).
// milliseconds: begin (the same rows in the Rust and Python kits' tests)
const MILLISECONDS = [
  ["900", "900"],
  ["+900", "900"],
  ["0900", "900"],
  [" 900\t", "900"],
  ["\u3000+900\n", "900"],
  ["\u0085900\u00a0", "900"],
  ["4294967295", "4294967295"],
  ["abc", "refused"],
  ["-5", "refused"],
  ["0", "refused"],
  ["+0", "refused"],
  ["-0", "refused"],
  ["", "refused"],
  [" ", "refused"],
  ["+", "refused"],
  ["++9", "refused"],
  ["9 00", "refused"],
  ["1.5", "refused"],
  ["5s", "refused"],
  ["0x10", "refused"],
  ["1e3", "refused"],
  ["1_000", "refused"],
  ["²", "refused"],
  ["١٢", "refused"],
  ["\ufeff900", "refused"],
  ["\u001c900", "refused"],
  ["4294967296", "past u32"],
  ["+99999999999", "past u32"],
];
// milliseconds: end

// The verb `verbs new` writes, as these tests know it: a selector verb, and the
// component's exports of it.
const click = new Verb({
  name: "sample",
  tool: "click",
  summary: "Click the element a selector matches",
  positionals: [selector("the element to click")],
});
const { info, parse, shape } = click.exports();

test("sends the selector and the timeout", () => {
  const call = click.parse(["#btn-inc", "--timeout", "900"]);
  assert.deepEqual(JSON.parse(call.arguments), { selector: "#btn-inc" });
  assert.equal(call.timeoutMs, 900);
  assert.deepEqual(call.writes, []);
  // Written inline, an option's name is a value; so is a word that names none.
  for (const [argv, selector] of [[["--selector=--pretty"], "--pretty"], [["--selector", "--x"], "--x"]]) {
    assert.deepEqual(JSON.parse(click.parse(argv).arguments), { selector });
  }
});

test("usage errors are one line", () => {
  for (const [argv, message] of [
    [[], "missing argument `<selector>`"],
    [[" "], "`<selector>` must not be empty"],
    [["#a", "#b"], "unexpected argument `#b`"],
    [["#a", "--force"], "unknown option `--force`"],
    [["#a", "-hello"], "unknown option `-hello`"],
    [["-hx", "#a"], "unknown option `-hx`"],
    [["#a", "-xh"], "unknown option `-x`"],
    [["#a", "--selector", "#b"], "`<selector>` given twice: as `#a` and as `--selector '#b'`"],
    [["--selector", " "], "`--selector` must not be empty"],
    // In the host's words for one of its own options typed twice.
    [["--selector", "#a", "--selector", "#b"], "the argument `--selector <S>` cannot be used multiple times"],
    [["#a", "--timeout", "soon"], "invalid value `soon` for `--timeout <MS>`: `soon` is not a whole number of milliseconds (e.g. `5000`)"],
    [["--selectr", "#a"], "unknown option `--selectr`; did you mean `--selector`?"],
    // Case aside, as mur's own hints and the Rust kit's: caps lock makes no other option.
    [["--Selector", "#a"], "unknown option `--Selector`; did you mean `--selector`?"],
    [["#a", "--PRETY"], "unknown option `--PRETY`; did you mean `--pretty`?"],
    [["-s", "#a"], "unknown option `-s`; did you mean `--selector`?"],
    [["#a", "--timout", "5"], "unknown option `--timout`; did you mean `--timeout`?"],
    // A misspelt host option, which `mur` takes after the verb's name too.
    [["#a", "--projct", "App.csproj"], "unknown option `--projct`; did you mean `--project`?"],
    [["#a", "--max-respons", "1M"], "unknown option `--max-respons`; did you mean `--max-response`?"],
    // Only a likely typo of one, by the host's rule: not `--auto-full`.
    [["#a", "--to", "B"], "unknown option `--to`"],
    // A host flag with a value, which the host leaves to the verb; `-v` and `-q`
    // together, which reach a verb natively or from an older `mur` (this one takes `-vq`).
    [["#a", "--pretty=false"], "`--pretty` takes no value, got `false`"],
    // A host option that takes a value, given one: mur's, not "takes no value".
    [["#a", "--project=/a/App.csproj"], "`--project` is mur's: give it before the verb's name"],
    [["#a", "--answer=k=v"], "`--answer` is mur's: give it before the verb's name"],
    [["#a", "-vq"], "unknown option `-vq`; write mur's `-v` and `-q` apart: `-v -q`"],
    // One of them repeated: mur refuses `-v -v` too, so that is not what to type.
    [["#a", "-vv"], "unknown option `-vv`; mur takes `-v` and `-q` once each"],
    [["#a", "-qvq"], "unknown option `-qvq`; mur takes `-v` and `-q` once each"],
    // The next word one of the verb's options or mur's: the value was left out.
    [["--selector", "--timeout", "5"], "`--selector <S>` needs a value, and `--timeout` is an option (a value that begins with `--` is written `--selector=VALUE`)"],
    [["--selector", "--timeout=5"], "`--selector <S>` needs a value, and `--timeout` is an option (a value that begins with `--` is written `--selector=VALUE`)"],
    [["--selector", "--pretty"], "`--selector <S>` needs a value, and `--pretty` is an option (a value that begins with `--` is written `--selector=VALUE`)"],
    [["--selector", "--project=App.csproj"], "`--selector <S>` needs a value, and `--project` is an option (a value that begins with `--` is written `--selector=VALUE`)"],
  ]) {
    assert.throws(() => click.parse(argv), new VerbError(message));
    // The component's `parse` throws the plain string a `result` error must be.
    assert.throws(() => parse(argv), (thrown) => thrown === message);
  }
  for (const name of HOST_FLAGS) assert.ok(HOST_OPTIONS.includes(name), name);
});

test("usage errors say what was likely meant", () => {
  const typed = new Verb({
    name: "sample",
    tool: "type",
    summary: "Type a text",
    positionals: [selector("the element"), positional("text", "the text")],
    options: [flag("clear", "clear it first"), option("count", "N", "how often", { kind: "integer" })],
  });
  const fired = new Verb({
    name: "sample",
    tool: "fire",
    summary: "Fire an event",
    positionals: [positional("event", "the event", { kind: "name" })],
    options: [option("args", "JSON", "its arguments", { kind: "json" })],
  });
  const shot = new Verb({
    name: "sample",
    tool: "screenshot",
    summary: "Capture",
    options: [
      option("selector", "S", "only S", { kind: "selector", word: true }),
      option("window", "W", "only W", { kind: "name" }),
      option("view", "V", "how much", { kind: "choice", choices: ["summary", "full"] }),
      option("out", "PATH", "where", { kind: "output-path" }),
    ],
  });
  const hint = "to give it as `<text>`, put it after `--`";
  const quote = "quote the words of `<text>` as one";
  for (const [verb, argv, message] of [
    // Text that starts with `-`, for a text positional still to fill: after `--`.
    [typed, ["#x", "-5"], `unknown option \`-5\`; ${hint}: did you mean \`mur devtools sample '#x' -- -5\`?`],
    [typed, ["#x", "-hi there"],
      `unknown option \`-hi there\`; ${hint}: did you mean \`mur devtools sample '#x' -- '-hi there'\`?`],
    [typed, ["--clear", "#x", "-5", "--count", "3"],
      `unknown option \`-5\`; ${hint}: did you mean \`mur devtools sample '#x' --clear --count 3 -- -5\`?`],
    [typed, ["#x", "--zebra"], `unknown option \`--zebra\`; ${hint}: did you mean \`mur devtools sample '#x' -- --zebra\`?`],
    [typed, ["#x", "-5", "--count", "many"], `unknown option \`-5\`; ${hint}`],
    [typed, ["-5", "#x"], "unknown option `-5`"],
    [typed, ["#x", "t", "-5"], "unknown option `-5`"],
    // Several words of text: quoted as one.
    [typed, ["#x", "buy", "milk", "now"],
      `unexpected argument \`milk\`; ${quote}: did you mean \`mur devtools sample '#x' 'buy milk now'\`?`],
    [typed, ["#x", "buy", "--count", "2", "milk"],
      `unexpected argument \`milk\`; ${quote}: did you mean \`mur devtools sample '#x' 'buy milk' --count 2\`?`],
    [typed, ["#x", "--clear", "--", "-5", "more"],
      `unexpected argument \`more\`; ${quote}: did you mean \`mur devtools sample '#x' --clear -- '-5 more'\`?`],
    // `<event>` given as an option: the word, with the command.
    [fired, ["--event", "a.b"],
      "unknown option `--event`; write `<event>` without `--event`: did you mean `mur devtools sample a.b`?"],
    // A choice's nearest word; the option a short `-x` stands for.
    [shot, ["--view", "fll"], "`--view` must be `summary` or `full`, got `fll`; did you mean `full`?"],
    [shot, ["-w", "main"], "unknown option `-w`; did you mean `--window`?"],
    // mur's `-v` or `-q`, then a letter of no flag of mur's: that letter is the unknown
    // one, not `-v`; `-h` is help written apart, and one option's letter is that
    // option, as for `-w` alone.
    [typed, ["#x", "t", "-vx"], "unknown option `-x` in `-vx`"],
    [typed, ["#x", "t", "-vh"], "unknown option `-vh`; write mur's `-v` apart: `-v -h`"],
    [typed, ["#x", "-qv", "t"], "unknown option `-qv`; write mur's `-v` and `-q` apart: `-q -v`"],
    [typed, ["#x", "-vx"], `unknown option \`-x\` in \`-vx\`; ${hint}: did you mean \`mur devtools sample '#x' -- -vx\`?`],
    [shot, ["-qvw", "main"], "unknown option `-w` in `-qvw`; did you mean `--window`?"],
    [shot, ["-vs", "#a"], "unknown option `-s` in `-vs`; did you mean `--selector`?"],
    [shot, ["-vwx"], "unknown option `-w` in `-vwx`"],
    // mur's flags then something else: what is wrong is named, never the valid `-v`;
    // `-vvh` is told what works (mur refuses `-vv -h` as it refuses `-vv`).
    [typed, ["#x", "t", "-vvh"], "unknown option `-vvh`; mur takes `-v` and `-q` once each: `-v -h`"],
    [typed, ["#x", "t", "-qvqh"], "unknown option `-qvqh`; mur takes `-v` and `-q` once each: `-qv -h`"],
    // A number, named whole as `-15` is; a value, as `--quiet=1`; a dash, the word whole.
    [typed, ["#x", "t", "-v1"], "unknown option `-1` in `-v1`"],
    [typed, ["#x", "t", "-vv15"], "unknown option `-15` in `-vv15`"],
    [typed, ["#x", "-v1"], `unknown option \`-1\` in \`-v1\`; ${hint}: did you mean \`mur devtools sample '#x' -- -v1\`?`],
    [typed, ["#x", "t", "-v=x"], "`-v` takes no value, got `x`"],
    [typed, ["#x", "t", "-vq="], "`-q` takes no value, got ``"],
    [typed, ["#x", "-v=x"], `\`-v\` takes no value, got \`x\`; ${hint}: did you mean \`mur devtools sample '#x' -- -v=x\`?`],
    [typed, ["#x", "t", "-v-"], "unknown option `-v-`"],
    [typed, ["#x", "t", "-v-x"], "unknown option `-v-x`"],
    // A letter outside ASCII, or none; `h` and more, named whole as `-hx` is; a letter
    // then digits: the letter, as `-x5` alone names `-x` (`-x` with a value).
    [typed, ["#x", "t", "-vé"], "unknown option `-é` in `-vé`"],
    [typed, ["#x", "t", "-v😀"], "unknown option `-😀` in `-v😀`"],
    [typed, ["#x", "t", "-vhx"], "unknown option `-hx` in `-vhx`"],
    [typed, ["#x", "t", "-x5"], "unknown option `-x`"],
    [typed, ["#x", "t", "-vx5"], "unknown option `-x` in `-vx5`"],
    // A stray word: a choice's, a path's, else the selector's lone word if it starts
    // like one; one word only, never one that reads as an option.
    [shot, ["full"], "unexpected argument `full`; did you mean `--view full`?"],
    [shot, ["shot.png"], "unexpected argument `shot.png`; did you mean `--out shot.png`?"],
    [shot, ["main"], "unexpected argument `main`; did you mean `--selector main` or `--window main`?"],
    [shot, ["#a", "#b"], "unexpected argument `#b`"],
    // Beside `--selector`, in either order, the word it would have taken is the selector
    // given twice; a word it would not have taken is another option's.
    [shot, ["#a", "--selector", "#b"], "`<selector>` given twice: as `#a` and as `--selector '#b'`"],
    [shot, ["--selector=#b", "[a]"], "`<selector>` given twice: as `[a]` and as `--selector '#b'`"],
    [shot, ["main", "--selector", "#b"], "unexpected argument `main`; did you mean `--window main`?"],
    [shot, ["--", "-x"], "unexpected argument `-x`; did you mean `--selector -x` or `--window -x`?"],
    // A JSON object past the positionals: the verb's JSON option, if not given.
    [fired, ["a.b", '{"value": 10}'], "unexpected argument `{\"value\": 10}`; did you mean `--args '{\"value\": 10}'`?"],
    [fired, ["a.b", "[1]"], "unexpected argument `[1]`"],
    [fired, ["a.b", "--args", "{}", '{"a":1}'], 'unexpected argument `{"a":1}`'],
  ]) {
    assert.throws(() => verb.parse(argv), new VerbError(message), argv.join(" "));
  }
  // What those say to type works: `-v -h` is help, `--selector` the option.
  assert.equal(typed.parse(["#x", "t", "-v", "-h"]), null);
  assert.deepEqual(JSON.parse(shot.parse(["--selector", "#a"]).arguments), { selector: "#a" });
  // The selector's lone word, as `--selector S`.
  assert.deepEqual(JSON.parse(shot.parse(["#a"]).arguments), { selector: "#a" });
  assert.deepEqual(JSON.parse(shot.parse(["[b]", "--view", "full"]).arguments), { selector: "[b]", view: "full" });
  assert.deepEqual(
    shot.describe().positionals.map((p) => [p.name, p.required, p.help]),
    [["selector", false, "the same as `--selector S`, where S starts with `#` or `[`"]],
  );
});

test("a negative number for a numeric positional is told to follow double dashes", () => {
  // As a text's: it read as an option, and said only "unknown option `-1`". One the
  // positional refuses is told why, as after `--` (the Rust kit's count: no `-1`).
  const numeric = (kind) => new Verb({
    name: "sample",
    tool: "count",
    summary: "Count",
    positionals: [selector("the element"), positional(kind === "integer" ? "n" : "by", "how many", { kind })],
  });
  const [counted, moved] = [numeric("integer"), numeric("number")];
  const admits = "an integer from -9223372036854775808 to 18446744073709551615";
  for (const [verb, argv, message] of [
    [counted, ["#x", "-1"],
      "unknown option `-1`; to give it as `<n>`, put it after `--`: did you mean `mur devtools sample '#x' -- -1`?"],
    [counted, ["#x", "-15"],
      "unknown option `-15`; to give it as `<n>`, put it after `--`: did you mean `mur devtools sample '#x' -- -15`?"],
    [moved, ["#x", "-1.5"],
      "unknown option `-1.5`; to give it as `<by>`, put it after `--`: did you mean `mur devtools sample '#x' -- -1.5`?"],
    [counted, ["#x", "-99999999999999999999999"],
      `\`<n>\` is out of range: ${admits}, got \`-99999999999999999999999\``],
    [counted, ["#x", "-x"], "unknown option `-x`"],
    [counted, ["#x", "2", "-1"], "unknown option `-1`"],
  ]) {
    assert.throws(() => verb.parse(argv), new VerbError(message), argv.join(" "));
  }
  assert.deepEqual(JSON.parse(counted.parse(["#x", "--", "-1"]).arguments), { selector: "#x", n: -1 });
});

test("a choice positional takes a boolean of --args as its word", () => {
  // A JSON boolean in `--args` is the word it is written as, held to the choices as a
  // word typed is: a required boolean, a choice of `true` and `false`, is taken from
  // `{"on": true}`, which was refused ("must be a string"). Other values than strings
  // and booleans are refused as before (the Rust and Python kits' too).
  const verb = new Verb({
    name: "switch",
    tool: "switch",
    summary: "Switch",
    positionals: [
      positional("on", "(required)", { kind: "choice", choices: ["true", "false"], option: "true|false" }),
      positional("mode", "which", { kind: "choice", choices: ["a", "b"] }),
    ],
  });
  for (const [argv, sent] of [
    [["--args", '{"on": false, "mode": "b"}'], { on: "false", mode: "b" }],
    [["true", "a"], { on: "true", mode: "a" }],
  ]) {
    assert.deepEqual(JSON.parse(verb.parse(argv).arguments), sent, argv.join(" "));
  }
  for (const [args, message] of [
    ['{"on": true, "mode": true}', "`mode` in `--args` must be `a` or `b`, got `true`"],
    ['{"on": 1, "mode": "a"}', "`on` in `--args` must be a string, got `1`"],
    ['{"on": null, "mode": "a"}', "`on` in `--args` must be a string, got `null`"],
  ]) {
    assert.throws(() => verb.parse(["--args", args]), new VerbError(message), args);
  }
});

test("a count is held and sent as the Rust kit's count", () => {
  // Kind `count`, the Rust kit's `Kind::Count`: an integer 0 or more, sent as a number,
  // refused in its words, declared to mur as an `integer`. A verb made for a tool's
  // `"minimum": 0` checked `-1` in its own `arguments`: `-1` as a word was "unknown
  // option `-1`", and the message named `<n>` as its option and showed the number.
  const seen = [];
  const positionals = [positional("n", "how many", { kind: "count", option: "N" })];
  const options = [option("max-results", "N", "at most", { kind: "count", key: "max_results" })];
  const counted = new Verb({
    name: "sample",
    tool: "count",
    summary: "Count",
    positionals,
    options,
    arguments(args) {
      seen.push(args.get("n"));
      return Verb.prototype.arguments.call(this, args);
    },
  });
  for (const [argv, sent, text] of [
    [["3"], { n: 3 }, '{"n":3}'],
    [["+7", "--max-results", "0"], { n: 7, max_results: 0 }, '{"n":7,"max_results":0}'],
    [["--", "-0"], { n: 0 }, '{"n":0}'],
    [["--n", "-0"], { n: 0 }, '{"n":0}'],
    [["18446744073709551615"], undefined, '{"n":18446744073709551615}'],
    [["--args", '{"n": 5}'], { n: 5 }, '{"n":5}'],
  ]) {
    const { arguments: given } = counted.parse(argv);
    assert.equal(given, text, argv.join(" "));
    if (sent !== undefined) assert.deepEqual(JSON.parse(given), sent, argv.join(" "));
  }
  // `args.get` gives the number sent: a count's `-0` is 0, not -0.
  assert.ok(Object.is(seen[2], 0) && Object.is(seen[3], 0), String(seen));
  assert.equal(seen[4], 18446744073709551615n);
  const least = "is out of range: an integer at least 0, got `-1`";
  const top = "is out of range: an integer from 0 to 18446744073709551615";
  for (const [argv, message] of [
    [["-1"], `\`<n>\` ${least}`],
    [["--", "-1"], `\`<n>\` ${least}`],
    [["--n", "-1"], `\`--n\` ${least}`],
    [["--n=-1"], `\`--n\` ${least}`],
    [["3", "--max-results", "-1"], `\`--max-results\` ${least}`],
    [["3", "--max-results=-1"], `\`--max-results\` ${least}`],
    [["--args", '{"n": -1}'], `\`n\` in \`--args\` ${least}`],
    [["--args", '{"n": 1.5}'], "`n` in `--args` needs a non-negative integer, got `1.5`"],
    [["--args", '{"n": true}'], "`n` in `--args` must be a string, got `true`"],
    [["many"], "`<n>` needs a non-negative integer, got `many`"],
    [["3", "--max-results", "1_000"], "`--max-results` needs a non-negative integer, got `1_000`"],
    [["18446744073709551616"], `\`<n>\` ${top}, got \`18446744073709551616\``],
    [["9".repeat(5000)], `\`<n>\` ${top}, got \`${"9".repeat(5000)}\``],
    [["-0"], "unknown option `-0`; to give it as `<n>`, put it after `--`: did you mean `mur devtools sample -- -0`?"],
  ]) {
    assert.throws(() => counted.parse(argv), new VerbError(message), argv.join(" ").slice(0, 40));
  }
  // Declared to mur as an `integer`, the `value-kind` the Rust kit declares its count as.
  const described = counted.describe();
  assert.deepEqual(
    [...described.positionals, ...described.options].slice(0, 3).map((p) => [p.name, p.kind]),
    [["n", "integer"], ["max-results", "integer"], ["n", "integer"]],
  );
  // A wait may be on a count's key, as on an integer's; choices on one are named by the
  // kind `verbs add` reads.
  for (const argument of ["n", "maxResults"]) {
    new Verb({ name: "fine", tool: "t", summary: "Fine", positionals, options, waits: { argument, defaultMs: 5000 } });
  }
  assert.throws(
    () => new Verb({ name: "bad", tool: "t", summary: "Bad", positionals: [positional("n", "", { kind: "count", choices: ["1"] })] }),
    /of kind `integer`: only a `choice` param/,
  );
});

test("a value past its bounds is refused in a derived verb's words", () => {
  // An `integer`, `count` or `number` held to a tool's `minimum`, `maximum`,
  // `exclusiveMinimum` and `exclusiveMaximum` refuses a value past them before any call,
  // typed or in `--args`, in the words a derived verb of that schema says (mur's
  // crates/verbs/src/derived.rs), and the Rust and Python kits' too.
  const verb = new Verb({
    name: "bounded",
    tool: "bounded",
    summary: "Bounded",
    positionals: [positional("limit", "how many", { kind: "integer", option: "N", minimum: 1, maximum: 100 })],
    options: [
      option("delay", "MS", "ms", { kind: "integer", minimum: 0, maximum: 2000 }),
      option("ratio", "R", "r", { kind: "number", exclusiveMinimum: 0, maximum: 1 }),
      option("both", "N", "n", { kind: "integer", minimum: 1, exclusiveMinimum: 5 }),
      option("under", "X", "x", { kind: "number", exclusiveMaximum: 0.5 }),
      option("big", "N", "n", { kind: "integer", maximum: 18446744073709551614n }),
      option("exact", "N", "n", { kind: "integer", minimum: 2, maximum: 2 }),
      option("pages", "N", "n", { kind: "count", maximum: 10 }),
      option("max-results", "N", "n", { kind: "integer", key: "max_results", maximum: 9 }),
    ],
  });
  const huge = "99999999999999999999999";
  for (const [argv, message] of [
    [["0"], "`<limit>` is out of range: an integer from 1 to 100, got `0`"],
    [["--limit", "500"], "`--limit` is out of range: an integer from 1 to 100, got `500`"],
    [["1", "--delay", "-5"], "`--delay` is out of range: an integer from 0 to 2000, got `-5`"],
    [["1", "--delay", "2001"], "`--delay` is out of range: an integer from 0 to 2000, got `2001`"],
    [["1", "--ratio", "0"], "`--ratio` is out of range: a number above 0 and at most 1, got `0`"],
    [["1", "--ratio", "1.5"], "`--ratio` is out of range: a number above 0 and at most 1, got `1.5`"],
    // Of two bounds on a side, the one that admits less holds.
    [["1", "--both", "5"], "`--both` is out of range: an integer above 5, got `5`"],
    [["1", "--under", "0.5"], "`--under` is out of range: a number below 0.5, got `0.5`"],
    [["1", "--big", "18446744073709551615"],
      "`--big` is out of range: an integer at most 18446744073709551614, got `18446744073709551615`"],
    [["1", "--exact", "3"], "`--exact` is out of range: an integer exactly 2, got `3`"],
    // A count's own 0 is its low end: `-1` is told the whole range.
    [["1", "--pages", "-1"], "`--pages` is out of range: an integer from 0 to 10, got `-1`"],
    [["1", "--pages", "11"], "`--pages` is out of range: an integer from 0 to 10, got `11`"],
    // Past what JSON holds: the range JSON holds, within the bounds.
    [["1", "--both", huge],
      `\`--both\` is out of range: an integer above 5 and at most 18446744073709551615, got \`${huge}\``],
    // `--args` is held to them as a typed value is, naming the field by its key.
    [["--args", '{"limit": 0}'], "`limit` in `--args` is out of range: an integer from 1 to 100, got `0`"],
    [["1", "--args", '{"delay": 2001}'], "`delay` in `--args` is out of range: an integer from 0 to 2000, got `2001`"],
    [["1", "--args", '{"ratio": 0}'], "`ratio` in `--args` is out of range: a number above 0 and at most 1, got `0`"],
    [["1", "--args", '{"max_results": 10}'], "`max_results` in `--args` is out of range: an integer at most 9, got `10`"],
    // Not a number at all: the kind's own words, as before.
    [["1", "--delay", "x"], "`--delay` needs an integer, got `x`"],
  ]) {
    assert.throws(() => verb.parse(argv), new VerbError(message), argv.join(" "));
  }
  const argv = ["100", "--delay", "0", "--ratio", "1", "--both", "6", "--under", "0.25",
    "--big", "18446744073709551614", "--exact", "2", "--pages", "10"];
  assert.equal(
    verb.parse(argv).arguments,
    '{"limit":100,"delay":0,"ratio":1,"both":6,"under":0.25,"big":18446744073709551614,"exact":2,"pages":10}',
  );
  // An option given beside `--args` replaces its field, which is not checked.
  const beside = verb.parse(["1", "--delay", "5", "--args", '{"delay": 9999}']);
  assert.deepEqual(JSON.parse(beside.arguments), { limit: 1, delay: 5 });
  // A bound that is no number is refused when declared.
  assert.throws(() => option("n", "N", "n", { kind: "integer", maximum: "1_000" }), /`maximum: 1_000` is no bound/);
});

test("a stray word is told the one option it fits", () => {
  // As the Rust kit's test of this name: a word that holds a selector's marks is no
  // window's name (`--window` was named beside `--selector`); a plain word beside
  // `--selector` given is `--window`'s (it was only "unexpected"; the kit named neither
  // option, where the Rust kit named both).
  const listing = new Verb({
    name: "listing",
    tool: "tree",
    summary: "List",
    options: [
      option("selector", "S", "only S", { kind: "selector", word: true }),
      option("window", "W", "only W", { kind: "name" }),
      option("view", "summary|full", "how much", { kind: "choice", choices: ["summary", "full"] }),
    ],
  });
  for (const [argv, message] of [
    [[':text("x")'], "unexpected argument `:text(\"x\")`; did you mean `--selector ':text(\"x\")'`?"],
    [["ListItem:nth(2)", "--view", "full"],
      "unexpected argument `ListItem:nth(2)`; did you mean `--selector 'ListItem:nth(2)'`?"],
    [["--selector", "#a", "main"], "unexpected argument `main`; did you mean `--window main`?"],
    [["main", "--selector", "#a"], "unexpected argument `main`; did you mean `--window main`?"],
    [["--selector", "#a", ':text("x")'], "unexpected argument `:text(\"x\")`"],
    [["--window", "main", "--selector", "#a", "about"], "unexpected argument `about`"],
  ]) {
    assert.throws(() => listing.parse(argv), new VerbError(message), argv.join(" "));
  }
});

test("a number is never an option's short form", () => {
  // As the Rust kit's test of this name, and as a derived verb reads `-1` (a value,
  // never an option): it was told "did you mean `--1st`?".
  const ranked = new Verb({
    name: "sample",
    tool: "rank",
    summary: "Rank",
    positionals: [selector("the element")],
    options: [option("1st", "N", "the first", { kind: "integer" })],
  });
  for (const [argv, message] of [
    [["#x", "-1"], "unknown option `-1`"],
    [["-1", "#x"], "unknown option `-1`"],
    [["#x", "-15"], "unknown option `-15`"],
  ]) {
    assert.throws(() => ranked.parse(argv), new VerbError(message), argv.join(" "));
  }
});

test("an empty usage is composed as the standard verbs' usage", () => {
  // As the Rust kit's `info::usage`: each argument once, in its first form, without
  // `--timeout MS`, which every verb takes. mur composed `sample <selector> [--selector
  // S] [--timeout MS]` from every option, beside the standard `click <selector>`.
  assert.equal(click.describe().usage, "sample <selector>");
  const made = (name, spec) => new Verb({ name, tool: "t", summary: "s", ...spec });
  for (const [verb, usage] of [
    [made("tree", {
      options: [
        option("selector", "S", "only S", { kind: "selector", word: true }),
        option("window", "W", "only W", { kind: "name" }),
        option("view", "summary|full", "how much", { kind: "choice", choices: ["summary", "full"] }),
        flag("include-reactor-source", "with sources"),
      ],
    }), "tree [<selector>] [--window W] [--view summary|full] [--include-reactor-source]"],
    // A choice's placeholder that does not list its choices gives way to them, as in
    // mur's options list; no placeholder is `VALUE`.
    [made("odd", {
      positionals: [positional("event", "which", { kind: "name" }), positional("n", "how many", { kind: "integer" })],
      options: [
        option("mode", "M", "which", { kind: "choice", choices: ["fast", "New York"] }),
        option("note", "", "a note"),
      ],
    }), "odd <event> <n> [--mode fast|'New York'] [--note VALUE]"],
    [made("given", { usage: "given <what> [--how H]" }), "given <what> [--how H]"],
  ]) {
    assert.equal(verb.describe().usage, usage);
  }
});

test("the selector is taken as an option too", () => {
  for (const argv of [["--selector", "#btn-inc"], ["--selector=#btn-inc"]]) {
    assert.deepEqual(JSON.parse(click.parse(argv).arguments), { selector: "#btn-inc" });
  }
});

test("a JSON option mur could not read is refused, not sent", () => {
  const fired = new Verb({
    name: "sample",
    tool: "fire",
    summary: "Fire an event",
    options: [option("args", "JSON", "its arguments", { kind: "json" })],
  });
  const deep = (levels) => "[".repeat(levels) + "]".repeat(levels);
  // Inside the arguments object, 126 levels are as deep as mur reads.
  assert.deepEqual(JSON.parse(fired.parse(["--args", deep(126)]).arguments), { args: JSON.parse(deep(126)) });
  const told = "`--args` is not JSON mur reads: ";
  for (const [json, why] of [
    [deep(127), "arrays or objects nested deeper than 126 levels"],
    [deep(100000), "arrays or objects nested deeper than 126 levels"],
    ['{"value": "\\ud800"}', "a string with a lone surrogate escape"],
    ['{"\\udc00": 1}', "a string with a lone surrogate escape"],
    ["[1e400]", "a number beyond a 64-bit float"],
  ]) {
    assert.throws(() => fired.parse(["--args", json]), new VerbError(told + why), json.slice(0, 20));
  }
  // A pair of surrogates is one character, sent as it came.
  assert.deepEqual(JSON.parse(fired.parse(["--args", '"\\ud83d\\ude00"']).arguments), { args: "\u{1f600}" });
});

test("an integer option is sent exactly or refused", () => {
  const counted = new Verb({
    name: "sample",
    tool: "fire",
    summary: "Fire an event",
    options: [option("count", "N", "how many", { kind: "integer" })],
  });
  for (const count of [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER, 0]) {
    assert.deepEqual(JSON.parse(counted.parse(["--count", String(count)]).arguments), { count });
  }
  // Past 2^53 - 1 a JavaScript number is no longer exact: 2^53 + 1 would be sent as 2^53.
  // This kit refused those; mur's derived verbs and the Rust and Python kits take what
  // mur's JSON holds (`i64` and `u64`), and so does it, sent as typed and given to
  // `arguments` and `shape` as a BigInt.
  for (const [value, sent] of [
    ["9007199254740993", "9007199254740993"],
    ["-9007199254740992", "-9007199254740992"],
    ["12345678901234567891", "12345678901234567891"],
    ["+18446744073709551615", "18446744073709551615"],
    ["-9223372036854775808", "-9223372036854775808"],
    ["000018446744073709551615", "18446744073709551615"],
  ]) {
    const call = counted.parse(["--count", value]);
    assert.equal(call.arguments, `{"count":${sent}}`, value);
    const shown = Object.assign(Object.create(counted), {
      shape: (result, args) => `${typeof args.get("count")} ${args.get("count")}`,
    });
    assert.equal(new TextDecoder().decode(shown.render("{}", call.state, false).stdout), `bigint ${sent}`, value);
  }
  // Past them, refused in the words of the other kits and the derived verbs.
  const admits = "an integer from -9223372036854775808 to 18446744073709551615";
  for (const value of ["18446744073709551616", "-9223372036854775809", "100000000000000000000", "1" + "0".repeat(400)]) {
    const told = `\`--count\` is out of range: ${admits}, got \`${value}\``;
    assert.throws(() => counted.parse(["--count", value]), new VerbError(told), value.slice(0, 20));
  }
});

test("an integer or a number is read as mur reads it", () => {
  // As Rust's `from_str` reads them (mur's derived verbs, the Rust kit): ASCII digits after
  // at most one sign; Number() took spaces, `0x10`, `0b1` and `0o7` for a number too.
  const counted = new Verb({
    name: "sample",
    tool: "fire",
    summary: "Fire an event",
    options: [
      option("count", "N", "how many", { kind: "integer" }),
      option("by", "X", "how much", { kind: "number" }),
    ],
  });
  for (const [opt, value, sent] of [
    ["count", "+5", 5], ["count", "-5", -5], ["count", "007", 7], ["count", "-0", 0],
    ["by", "+1.5", 1.5], ["by", ".5", 0.5], ["by", "5.", 5], ["by", "-1.e2", -100], ["by", "2E-1", 0.2],
  ]) {
    assert.deepEqual(JSON.parse(counted.parse([`--${opt}`, value]).arguments), { [opt]: sent }, value);
  }
  for (const [opt, needs, values] of [
    ["count", "an integer", ["1_000", " 12", "12 ", "١٢", "１２", "0x10", "+", "", "+-1", "1.0", "1e3"]],
    ["by", "a number", [" 12", "12 ", "\n12", "0x10", "0b1", "0o7", "1_0.5", "٣.٥", ".", "e5", "1e", "Infinity", ""]],
  ]) {
    for (const value of values) {
      const told = `\`--${opt}\` needs ${needs}, got \`${value}\``;
      assert.throws(() => counted.parse([`--${opt}`, value]), new VerbError(told), value);
    }
  }
});

test("a value is given to the verb as the type it is sent as", () => {
  // `args.get("n2")` of an `integer` option was its text `"4"`: an `arguments` passing it
  // on sent `{"n2":"4"}` where the default sent 4, and `+ 1` made `"41"`. As `parse`
  // reads it, and as `shape` does.
  const seen = [];
  const declared = {
    name: "repeat",
    tool: "state",
    summary: "Repeat",
    positionals: [positional("n", "a count", { kind: "integer" })],
    options: [
      option("times", "N", "how often", { kind: "integer", send: false }),
      option("by", "X", "how much", { kind: "number" }),
      option("pause", "MS", "how long", { kind: "milliseconds" }),
      option("args", "JSON", "more", { kind: "json" }),
      option("text", "T", "what"),
    ],
    shape: (result, args) => {
      seen.push(Object.fromEntries(["n", "times", "by", "pause", "args", "text", "timeout"].map((k) => [k, args.get(k)])));
      return "x".repeat(args.get("times"));
    },
  };
  const repeat = new Verb(declared);
  const passedOn = new Verb({ ...declared, arguments: (args) => ({ n: args.get("n"), by: args.get("by") }) });
  const argv = ["+7", "--times", "3", "--by", "2.5", "--pause", " +900 ", "--args", '{"a": 1}', "--text", "4", "--timeout", "50"];
  const call = repeat.parse(argv);
  assert.deepEqual(JSON.parse(call.arguments), { n: 7, by: 2.5, args: { a: 1 }, text: "4" });
  assert.equal(passedOn.parse(argv).arguments, '{"n":7,"by":2.5}');
  assert.equal(new TextDecoder().decode(repeat.render("{}", call.state, false).stdout), "xxx");
  assert.deepEqual(seen, [{ n: 7, times: 3, by: 2.5, pause: 900, args: '{"a": 1}', text: "4", timeout: 50 }]);
  const worded = new Verb({
    name: "worded",
    tool: "state",
    summary: "Worded",
    options: [option("count", "N", "how many", { kind: "integer", word: true })],
    arguments: (args) => ({ count: args.get("count") + 1 }),
  });
  assert.equal(worded.parse(["41"]).arguments, '{"count":42}');
  assert.throws(() => worded.parse(["--count", "2", "3"]), new VerbError("`<count>` given twice: as `3` and as `--count 2`"));
});

test("a milliseconds value is read as mur reads its timeout", () => {
  // `--timeout` and an option of kind `milliseconds` alike; the kit refused `+900` and
  // white space around the digits, which mur's own `--timeout` takes.
  const seen = [];
  const pause = new Verb({
    name: "pause",
    tool: "pause",
    summary: "Pause",
    options: [option("pause", "MS", "how long to pause", { kind: "milliseconds" })],
    shape: (result, args) => {
      seen.push(args.timeoutMs);
      return "";
    },
  });
  for (const [value, verdict] of [...MILLISECONDS, ["9".repeat(5000), "past u32"]]) {
    for (const opt of ["--timeout", "--pause"]) {
      if (verdict !== "refused" && verdict !== "past u32") {
        const call = pause.parse([opt, value]);
        assert.equal(call.timeoutMs, opt === "--timeout" ? Number(verdict) : undefined, value);
        continue;
      }
      // In the host's words for its own `--timeout` before the verb's name.
      const invalid = `invalid value \`${value}\` for \`${opt} <MS>\``;
      let told = `${invalid}: \`${value}\` is not a whole number of milliseconds (e.g. \`5000\`)`;
      if (verdict === "past u32") told = `${invalid}: the bound is at most 4294967295 ms (about 49 days)`;
      else if (value === "") told = `\`${opt} <MS>\` needs a value (it was given empty)`;
      else if (value.trim().replace(/^\+/, "") === "0") told = `${invalid}: the bound must be at least 1 ms`;
      assert.throws(() => pause.parse([opt, value]), new VerbError(told), value.slice(0, 20));
    }
  }
  // The state `shape` gets it from reads it alike (Number() took no `\u0085`).
  pause.render("{}", pause.parse(["--timeout", "\u0085+900 "]).state, false);
  assert.deepEqual(seen, [900]);
});

test("a choice positional takes its choices", () => {
  // As an option does: `positional(…)` dropped them, so a positional of kind `choice` had
  // none, and is refused when declared.
  const modes = positional("mode", "how", { kind: "choice", choices: ["fast", "slow"], option: "M" });
  const toggle = new Verb({ name: "toggle", tool: "toggle", summary: "Toggle", positionals: [modes] });
  assert.deepEqual(JSON.parse(toggle.parse(["fast"]).arguments), { mode: "fast" });
  assert.deepEqual(JSON.parse(toggle.parse(["--mode", "slow"]).arguments), { mode: "slow" });
  for (const [argv, told] of [
    [["fats"], "`<mode>` must be `fast` or `slow`, got `fats`; did you mean `fast`?"],
    [["--mode", "quick"], "`--mode` must be `fast` or `slow`, got `quick`"],
  ]) {
    assert.throws(() => toggle.parse(argv), new VerbError(told), argv.join(" "));
  }
  // Declared to mur with them, as the positional and as its option form.
  const { positionals, options } = toggle.describe();
  const choices = [...positionals, ...options].filter((p) => p.name === "mode").map((p) => p.choices);
  assert.deepEqual(choices, [["fast", "slow"], ["fast", "slow"]]);
});

test("help is asked for with --help or -h", () => {
  assert.deepEqual(parse(["--help"]), { tag: "help" });
  assert.deepEqual(parse(["#a", "#b", "-h"]), { tag: "help" });
});

test("prints the structured result as JSON bytes", () => {
  const { val: call } = parse(["#btn-inc"]);
  const result = JSON.stringify({ content: [], structuredContent: { clicked: "#btn-inc" } });
  const out = shape(result, call.state, { pretty: false });
  assert.ok(out.stdout instanceof Uint8Array);
  assert.equal(new TextDecoder().decode(out.stdout), '{"clicked":"#btn-inc"}\n');
  const pretty = shape(result, call.state, { pretty: true });
  assert.equal(new TextDecoder().decode(pretty.stdout), '{\n  "clicked": "#btn-inc"\n}\n');
});

test("an integer in the result a JavaScript number cannot hold is printed as mur read it", () => {
  // `JSON.parse` printed 12345678901234567890 as 12345678901234567000 (and a text
  // content's too), where mur reads the result exactly within `i64` and `u64`, and
  // mur's derived verbs and the Rust and Python kits print it so.
  const { val: call } = parse(["#btn-inc"]);
  const big = '{"id": 12345678901234567890, "low": -9223372036854775808, "at": [9007199254740993, 1.5, -0, 1e21], ' +
    '"n": 18446744073709551615, "s": "mur-bigint0 12345678901234567890"}';
  const structured = `{"content": [], "structuredContent": ${big}}`;
  const text = JSON.stringify({ content: [{ type: "text", text: big }] });
  for (const result of [structured, text]) {
    const printed = (pretty) => new TextDecoder().decode(shape(result, call.state, { pretty }).stdout);
    assert.equal(
      printed(false),
      '{"id":12345678901234567890,"low":-9223372036854775808,"at":[9007199254740993,1.5,0,1e+21],' +
        '"n":18446744073709551615,"s":"mur-bigint0 12345678901234567890"}\n',
    );
    assert.equal(
      printed(true),
      '{\n  "id": 12345678901234567890,\n  "low": -9223372036854775808,\n  "at": [\n    9007199254740993,\n    1.5,\n' +
        '    0,\n    1e+21\n  ],\n  "n": 18446744073709551615,\n  "s": "mur-bigint0 12345678901234567890"\n}\n',
    );
  }
  // A `shape` of the verb's own is given the BigInt, and `jsonLine` prints it.
  const own = Object.assign(Object.create(click), {
    shape: (result, args, pretty) => jsonLine([typeof result.structuredContent.id, result.structuredContent.id], pretty),
  });
  const stdout = own.render(structured, call.state, false).stdout;
  assert.equal(new TextDecoder().decode(stdout), '["bigint",12345678901234567890]\n');
});

test("a text content nested deeper than mur reads JSON is printed as its string", () => {
  // Read as JSON, one nested some 5000 levels overflowed the stack in `jsonLine`, a
  // crash (exit 6); past serde_json's 127 levels the Rust kit (and mur's derived verbs)
  // read no JSON in it, and print the text as a string. Up to them it is JSON.
  const { val: call } = parse(["#btn-inc"]);
  const printed = (text, pretty = false) => {
    const result = JSON.stringify({ content: [{ type: "text", text }] });
    return new TextDecoder().decode(shape(result, call.state, { pretty }).stdout);
  };
  const nested = (levels, inner = "") => "[".repeat(levels) + inner + "]".repeat(levels);
  for (const levels of [128, 5000, 100000]) {
    for (const text of [nested(levels), nested(levels, "12345678901234567890"), '{"a":'.repeat(levels) + "1" + "}".repeat(levels)]) {
      assert.equal(printed(text), `${JSON.stringify(text)}\n`, `${levels}`);
      assert.equal(printed(text, true), `${JSON.stringify(text)}\n`, `${levels}`);
    }
  }
  assert.equal(printed(nested(127)), `${nested(127)}\n`);
  // Brackets in a string nest nothing; an escaped quote ends no string.
  const quoted = `["${"[".repeat(200)}\\"${"{".repeat(200)}"]`;
  assert.equal(printed(quoted), `${JSON.stringify(JSON.parse(quoted))}\n`);
});

test("notes for stderr: none by default, any a shape returns", () => {
  const { val: call } = parse(["#btn-inc"]);
  const result = JSON.stringify({ structuredContent: { clicked: "#btn-inc" } });
  assert.deepEqual(shape(result, call.state, { pretty: false }).notes, []);
  const hinted = Object.assign(Object.create(click), {
    shape: (value, args, pretty) => ({ stdout: jsonLine(value.structuredContent, pretty), notes: ["next: mur devtools state"] }),
  });
  assert.deepEqual(hinted.render(result, call.state, false).notes, ["next: mur devtools state"]);
});

test("describes itself", () => {
  const described = info();
  assert.equal(described.name, "sample");
  assert.equal(described.tool, "click");
  assert.deepEqual(described.positionals.map((p) => p.name), ["selector"]);
  assert.deepEqual(
    described.options.map((p) => [p.name, p.valueName, p.help]),
    [
      ["selector", "S", "the same as `<selector>`"],
      ["timeout", "MS", "let the call take up to MS milliseconds"],
      ["args", "JSON", WHOLE_HELP],
    ],
  );
});

test("--args gives the whole arguments object as a derived verb takes it", () => {
  // Its fields are sent as typed; the options given beside it override them.
  const call = click.parse(["#x", "--args", '{"delayMs": 5, "selector": "#y", "k": null, "__proto__": 1}']);
  assert.equal(call.arguments, '{"delayMs":5,"k":null,"__proto__":1,"selector":"#x"}');
  assert.deepEqual(JSON.parse(click.parse(["#x", "--args= {} "]).arguments), { selector: "#x" });
  // A positional no word is typed for is taken from it, as a derived verb takes a required property.
  assert.equal(click.parse(["--args", '{"selector": "#y", "k": 1}']).arguments, '{"k":1,"selector":"#y"}');
  assert.throws(() => click.parse(["--args", "{}"]), { message: "missing argument `<selector>`" });
  assert.throws(() => click.parse(["--args", '{"selector": 5}']), {
    message: "`selector` in `--args` must be a string, got `5`",
  });
  assert.throws(() => click.parse(["--args", '{"selector": " "}']), {
    message: "`selector` in `--args` must not be empty",
  });
  assert.throws(() => click.parse(["#x", "--args", "[]"]), { message: "`--args` must be a JSON object" });
  assert.throws(() => click.parse(["#x", "--args", "null"]), { message: "`--args` must be a JSON object" });
  assert.throws(() => click.parse(["#x", "--args", "{"]), { message: /^`--args` is not valid JSON: / });
  // A verb with an option `args` of its own takes the whole object as `--all-args`.
  const fire = new Verb({
    name: "fire",
    tool: "fire",
    summary: "Fire",
    positionals: [positional("target", "the event", { kind: "name" })],
    options: [option("args", "JSON", "the event's arguments", { kind: "json" })],
  });
  const fired = fire.parse(["t", "--args", "[1]", "--all-args", '{"target": "u", "more": 1}']);
  assert.deepEqual(JSON.parse(fired.arguments), { more: 1, target: "t", args: [1] });
  assert.deepEqual(fire.exports().info().options.map((p) => p.name), ["args", "timeout", "all-args"]);
});

test("an integer JavaScript cannot hold is sent as typed; a key given twice, once", () => {
  // `JSON.parse` sent 12345678901234567890 as 12345678901234567000, silently: mur reads it
  // exactly, as the Rust and Python kits send it. A key given twice keeps its first place
  // and its last value, as mur's derived verbs and the other kits read it.
  const whole = '{"id": 12345678901234567890, "a": 1, "low": -98765432109876543210, ' +
    '"a": [9007199254740993, 2.5, 1e3, -0, {"n": 100000000000000000000000}], "s": "mur-bigint0"}';
  assert.equal(
    click.parse(["#x", "--args", whole]).arguments,
    '{"id":12345678901234567890,"a":[9007199254740993,2.5,1000,0,{"n":100000000000000000000000}],' +
      '"low":-98765432109876543210,"s":"mur-bigint0","selector":"#x"}',
  );
  assert.equal(
    click.parse(["--args", '{"selector": "#y", "k": 1, "selector": "#z"}']).arguments,
    '{"k":1,"selector":"#z"}',
  );
  // So is a JSON option's, sent by the default `arguments`.
  const fire = new Verb({
    name: "fire",
    tool: "fire",
    summary: "Fire",
    positionals: [positional("n", "how many", { kind: "integer" })],
    options: [option("args", "JSON", "the event's arguments", { kind: "json" })],
  });
  assert.equal(
    fire.parse(["1", "--args", '{"id": 12345678901234567891, "id": 18446744073709551615}']).arguments,
    '{"n":1,"args":{"id":18446744073709551615}}',
  );
  // An integer positional taken from `--all-args` is sent as typed within mur's range
  // (`i64` and `u64`), and refused past it, naming the value typed.
  assert.equal(fire.parse(["--all-args", '{"n": 12345678901234567891}']).arguments, '{"n":12345678901234567891}');
  assert.throws(() => fire.parse(["--all-args", '{"n": 18446744073709551616}']), {
    message: "`n` in `--all-args` is out of range: an integer from -9223372036854775808 to 18446744073709551615, " +
      "got `18446744073709551616`",
  });
});

// `Bump` and `call` passed these tests and a build; `verbs add` refused them (review
// 314, 7). In its words (mur's crates/verbs/src/names.rs).
test("a name verbs add would refuse is refused when declared", () => {
  const host = "; `mur devtools verbs add` would refuse it";
  const verb = (name) => new Verb({ name, tool: "click", summary: "Click" });
  for (const name of ["Py_Click", "9lives", "x--y", "x-", "a".repeat(65)]) {
    assert.throws(() => verb(name), { message: `the verb names itself \`${name}\`; ${VERB_NAME_RULE}${host}` }, name);
  }
  for (const [name, why] of [
    ["call", "a word `mur devtools` answers itself: a verb by that name could not be called"],
    ["index", "the name of the verb directory's own index: a verb by that name would be taken for it"],
  ]) {
    assert.throws(() => verb(name), { message: `the verb names itself \`${name}\`, ${why}${host}` }, name);
  }
  for (const name of ["py-click", "my-call", "index-of", "a".repeat(64)]) verb(name);
});

test("a param no command line could give is refused when declared", () => {
  const rule = "which no command line can give: an option's name starts with a letter or a digit and " +
    "holds only letters, digits, `-`, `_` and `.`";
  const host = "; `mur devtools verbs add` would refuse it";
  // The kit's own rule, which `verbs add` would let through: never said to be its.
  const kits = (shown) =>
    `positional named \`${shown}\`, which the kit refuses (\`mur devtools verbs add\` would ` +
    `not): shown as \`<${shown}>\`, it reads as an option or as two words in a usage line; ` +
    "a positional's name does not start with `-` and holds no space";
  for (const [positionals, options, why] of [
    [[], [flag("--clear", "")], `option named \`--clear\`, ${rule}${host}`],
    [[], [flag("", "")], `option with an empty name, ${rule}${host}`],
    [[positional(" ", "")], [], `a positional with no name for its usage to show${host}`],
    [[positional("the text", "")], [], kits("the text")],
    [[positional("-x", "")], [], kits("-x")],
    [[], [flag("clear", ""), flag("clear", "")], `two options named \`clear\`${host}`],
    [[selector(""), selector("")], [], `two positionals named \`selector\`${host}`],
    [[], [flag("help", "")], `option \`help\`, which is the host's own \`-h, --help\`${host}`],
    [[], [option("timeout", "S", "")], "option `timeout`, which the kit declares for every verb (`--timeout MS`)"],
    [[selector("")], [flag("selector", "")],
      "positional `<selector>` also given as `--selector`, an option of its own besides, which the kit refuses"],
    [[], [option("all", "", "", { kind: "flag", word: true })],
      "flag `--all` also given as a word, which a flag has no value for, which the kit refuses"],
    [[positional("text", "")], [option("window", "W", "", { word: true })],
      "option `--window` also given as a word beside positionals, which the word would fill, which the kit refuses"],
  ]) {
    const declared = { name: "bad", tool: "click", summary: "Bad", positionals, options };
    assert.throws(() => new Verb(declared), new TypeError("verb `bad` declares " + why), why);
  }
  // What the standard verbs declare is fine (`fire`'s `<Component>.<event>`).
  new Verb({ name: "fine", tool: "fire", summary: "Fine", positionals: [positional("Component>.<event", "")] });
});

test("a kind the kit has not is refused, naming the kind likely meant", () => {
  // As the Python kit says it: `kind: "int"` said only what the kinds are.
  const kinds = "flag, text, selector, name, choice, integer, count, number, json, output-path, milliseconds";
  for (const [kind, why] of [
    ["int", `kind \`int\` is not one of ${kinds}; did you mean \`integer\`?`],
    ["numbr", `kind \`numbr\` is not one of ${kinds}; did you mean \`number\`?`],
    ["boolean", `kind \`boolean\` is not one of ${kinds}; did you mean \`flag\`?`],
    // A type given for its name is named as typed, not by its source.
    [Number, `kind \`Number\` is not one of ${kinds}; did you mean \`number\`?`],
    [String, `kind \`String\` is not one of ${kinds}; did you mean \`text\`?`],
    ["path", `kind \`path\` is not one of ${kinds}`],
  ]) {
    assert.throws(() => option("n", "N", "", { kind }), new TypeError(why), why);
    assert.throws(() => positional("n", "", { kind }), new TypeError(why), why);
  }
});

test("option names are judged as mur judges them, or refused beyond ASCII as the kit's own rule", () => {
  const kits = "which the kit refuses (`mur devtools verbs add` may take it): beyond ASCII";
  for (const [name, host] of OPTION_NAMES) {
    const why = unusable([], [flag(name, "")]);
    if (!host) assert.notEqual(why, undefined, name);
    else if (/^[\x00-\x7f]*$/.test(name)) assert.equal(why, undefined, name);
    else assert.ok(why?.includes(kits), `${name}: ${why}`);
  }
  assert.ok(unusable([], [flag("café", "")]).includes("whether U+00E9 is a letter"));
});

test("a flag not sent is still given to shape", () => {
  const brief = new Verb({
    name: "brief",
    tool: "state",
    summary: "Print the state",
    options: [option("selector", "S", "the element"), flag("brief", "only the text", { send: false })],
    shape: (result, args, pretty) => jsonLine(args.get("brief") ? result.structuredContent.text : result.structuredContent, pretty),
  });
  const call = brief.parse(["--selector", "#count", "--brief"]);
  assert.deepEqual(JSON.parse(call.arguments), { selector: "#count" });
  const result = JSON.stringify({ structuredContent: { text: "2" } });
  assert.equal(new TextDecoder().decode(brief.render(result, call.state, false).stdout), '"2"\n');
  assert.equal(brief.describe().options[1].kind, "flag");
});

test("a tool that waits gets the timeout as its argument, and says how long it waits", () => {
  const waiting = new Verb({
    name: "waiting",
    tool: "waitFor",
    summary: "Wait",
    positionals: [selector("the element")],
    waits: { argument: "timeoutMs", defaultMs: 5000 },
  });
  assert.deepEqual(JSON.parse(waiting.parse(["#s", "--timeout", "900"]).arguments), { selector: "#s", timeoutMs: 900 });
  assert.deepEqual(JSON.parse(waiting.parse(["#s"]).arguments), { selector: "#s" });
  assert.equal(
    waiting.describe().options.find((p) => p.name === "timeout").help,
    "let the wait (default: 5000) and the call take up to MS milliseconds",
  );
  assert.equal(unusableWaits(waiting.waits), undefined);
});

test("choices and a wait verbs add would refuse are refused when declared", () => {
  // In `verbs add`'s words (mur's crates/verbs/src/spec.rs), judged on the params
  // `describe` declares: an option also taken as a word is a positional first.
  const host = "; `mur devtools verbs add` would refuse it";
  const none = (named) =>
    `${named} of kind \`choice\` with no choices, which would refuse every value: give it its choices, or ` +
    `another kind${host}`;
  const wait = (argument, named, kind) =>
    `a wait (\`mur:verb-waits\`) on \`${argument}\`, the argument its ${named} of kind \`${kind}\` is sent ` +
    "as: the host sets a wait's argument to a number of milliseconds, so it must be a key no param of the " +
    `verb declares, or an \`integer\` param's${host}`;
  const neverSent = (argument, named, shown) =>
    `a wait (\`mur:verb-waits\`) on \`${argument}\`, the key its ${named} of kind \`milliseconds\` would be ` +
    "sent under, but a milliseconds value is never sent: the wait's value is the verb's own `--timeout MS`; " +
    `drop \`${shown}\`, or give it kind \`integer\`${host}`;
  const words = [
    option("text-matches", "RE", ""),
    flag("brief", "", { send: false }),
    option("timeout-ms", "N", "", { kind: "integer" }),
    option("delay", "MS", "", { kind: "milliseconds" }),
  ];
  const waits = (argument) => ({ argument, defaultMs: 5000 });
  for (const [positionals, options, waiting, why] of [
    [[positional("mode", "", { kind: "choice" })], [], undefined, none("positional `<mode>`")],
    [[], [option("mode", "M", "", { kind: "choice" })], undefined, none("option `--mode`")],
    [[], [option("mode", "M", "", { kind: "choice", word: true })], undefined, none("positional `<mode>`")],
    [
      [], [option("mode", "M", "", { choices: ["fast", "slow"] })], undefined,
      "choices for option `--mode`, of kind `text`: only a `choice` param is held to its choices; make it kind " +
        `\`choice\`, or leave out its choices${host}`,
    ],
    [
      [positional("n", "", { kind: "integer", choices: ["1", "2"] })], [], undefined,
      "choices for positional `<n>`, of kind `integer`: only a `choice` param is held to its choices; make it " +
        `kind \`choice\`, or leave out its choices${host}`,
    ],
    [[], words, waits("textMatches"), wait("textMatches", "option `--text-matches`", "text")],
    [[], words, waits("brief"), wait("brief", "option `--brief`", "flag")],
    // By its name, not by the key the kit sends it under: `verbs add` cannot know it.
    [[positional("path", "", { key: "file" })], [], waits("path"), wait("path", "positional `<path>`", "text")],
    // Its option form is an option, sent in camelCase.
    [
      [positional("item-selector", "", { kind: "selector", option: "S" })], [], waits("itemSelector"),
      wait("itemSelector", "option `--item-selector`", "selector"),
    ],
    // Declared as `text`: `verbs add` cannot know the kit never sends it.
    [[], [option("limit-ms", "N", "", { send: false })], waits("limitMs"), wait("limitMs", "option `--limit-ms`", "text")],
    // Never sent: the user's `--delay 1000` was dropped.
    [[], words, waits("delay"), neverSent("delay", "option `--delay`", "--delay")],
    [
      [positional("pause", "", { kind: "milliseconds" })], [], waits("pause"),
      neverSent("pause", "positional `<pause>`", "<pause>"),
    ],
  ]) {
    const declared = { name: "bad", tool: "waitFor", summary: "Bad", positionals, options, waits: waiting };
    assert.throws(() => new Verb(declared), new TypeError("verb `bad` declares " + why), why);
  }
  // A wait on a key no param is sent under, however near its name, or on an integer's or
  // the kit's own `--timeout`'s (the value the wait is given), is fine.
  for (const argument of ["text_matches", "TextMatches", "text-matches", "timeoutMs", "timeout"]) {
    new Verb({ name: "fine", tool: "waitFor", summary: "Fine", options: words, waits: waits(argument) });
  }
  const path = [positional("path", "", { key: "file" })];
  new Verb({ name: "fine", tool: "waitFor", summary: "Fine", positionals: path, waits: waits("file") });
  // A string is no list of choices: `ab` made the choices `a` and `b`.
  const letters = 'choices given as the string "ab", which would be one choice a letter: give a list, `choices: ["ab"]`';
  assert.throws(() => option("mode", "M", "", { kind: "choice", choices: "ab" }), new TypeError(letters));
  assert.throws(() => positional("mode", "", { kind: "choice", choices: "ab" }), new TypeError(letters));
});

test("a wait mur could not read is refused when declared", () => {
  const unnamed = "which no tool argument is named: the argument's name is 1 to 128 bytes, without spaces, " +
    "control characters or `=`";
  const whole = "it is a whole number of milliseconds, 0 to 4294967295";
  for (const [waits, why] of [
    [5000, "`waits` as number; declare `{ argument, defaultMs }`"],
    [["timeoutMs", 5000], "`waits` as an array; declare `{ argument, defaultMs }`"],
    [
      { argument: "timeoutMs", default_ms: 5000 },
      "`waits` with `default_ms` (did you mean `defaultMs`?): it takes `argument` and `defaultMs`",
    ],
    [
      { argument: "timeoutMs", defaultMS: 5000, extra: 1 },
      "`waits` with `defaultMS` (did you mean `defaultMs`?), `extra`: it takes `argument` and `defaultMs`",
    ],
    [{ argument: "", defaultMs: 5000 }, `a wait on the argument "", ${unnamed}`],
    [{ defaultMs: 5000 }, `a wait on the argument undefined, ${unnamed}`],
    [{ argument: "timeout ms", defaultMs: 5000 }, `a wait on the argument "timeout ms", ${unnamed}`],
    [{ argument: "a=b", defaultMs: 5000 }, `a wait on the argument "a=b", ${unnamed}`],
    [{ argument: "a\u0007b", defaultMs: 5000 }, `a wait on the argument "a\\u0007b", ${unnamed}`],
    [{ argument: "x".repeat(129), defaultMs: 5000 }, `a wait on the argument "${"x".repeat(129)}", ${unnamed}`],
    [{ argument: "timeoutMs", defaultMs: -1 }, `a default wait of -1 ms for \`timeoutMs\`: ${whole}`],
    [{ argument: "timeoutMs", defaultMs: 2.5 }, `a default wait of 2.5 ms for \`timeoutMs\`: ${whole}`],
    [{ argument: "timeoutMs", defaultMs: "5000" }, `a default wait of "5000" ms for \`timeoutMs\`: ${whole}`],
    [{ argument: "timeoutMs", defaultMs: 2 ** 32 }, `a default wait of 4294967296 ms for \`timeoutMs\`: ${whole}`],
    [{ argument: "timeoutMs" }, `a default wait of undefined ms for \`timeoutMs\`: ${whole}`],
  ]) {
    const declared = { name: "bad", tool: "waitFor", summary: "Bad", waits };
    assert.throws(() => new Verb(declared), new TypeError("verb `bad` declares " + why), why);
  }
});
