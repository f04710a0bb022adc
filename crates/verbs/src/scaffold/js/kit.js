// The verb kit for JavaScript: a verb says what it is and which argv it takes,
// and the kit implements `mur:verb@0.3.0` (wit/verb.wit) from that.
//
//   import { Verb, selector } from "./kit.js";
//   export const verb = new Verb({
//     name: "click2",                        // the word after `mur devtools`
//     tool: "click",                         // the MCP tool it calls
//     summary: "Click the element a selector matches",
//     positionals: [selector("the element to click")],
//   });
//   export const { info, parse, shape } = verb.exports();   // what the component exports
//
// The kit checks argv (every option is declared to `mur`, which renders `--help`
// and completions from it), builds the tool's arguments, and prints the result's
// `structuredContent` as JSON. Give `arguments(args)` or `shape(result, args,
// pretty)` when the defaults do not fit. It is plain JavaScript: `node --test`
// tests a verb without componentize-js.
//
// A verb whose tool waits on a bound of its own (the sample's `waitFor` polls until
// its `timeoutMs`, 5000 ms when not sent) says so, with the argument that sets the
// bound and the tool's default: `waits: { argument: "timeoutMs", defaultMs: 5000 }`.
// Its `--timeout MS` is then sent as that argument too, and build.mjs writes the
// declaration in the component (section `mur:verb-waits`), so that when the call
// would end first, `mur` lowers the wait and prints the tool's own answer that it
// gave up (exit 5) instead of cutting the call off (exit 2).
//
// `shape` may return `{ stdout, files, notes }`: `notes` are lines `mur` prints on
// stderr after stdout, for whoever reads the transcript (the likely next command,
// what was cut) — never part of the result, hidden by `-q`; none by default.
//
// It also takes care of what the component model is strict about:
// - `stdout` must be a Uint8Array: a string from `shape` is encoded as UTF-8,
//   and anything else fails with a message naming it (exit 6), never a silent
//   nothing;
// - a `result` error must be a string: throw `new VerbError("message")` (or a
//   string): a usage error in `parse` (exit 1), a failure in `shape` (exit 6);
// - any other exception is a bug: the kit writes its message and where it was
//   thrown to stderr, then rethrows it, so `mur` reports a crash naming it (exit 6).

/** A message for the user, one lowercase line. */
export class VerbError extends Error {
  constructor(message) {
    super(message);
    this.name = "VerbError";
  }
}

/**
 * A verb declared as the kit cannot take it (a param's kind, its params, its `waits`),
 * thrown where it is declared. build.mjs loads verb.js natively before componentize-js
 * does and says it in one line: componentize-js would bury it in its own trace.
 * `declared` is the stack where the param at fault was made, when one is (`new Verb`
 * judges them all, so its own stack names only the `new Verb(` line).
 */
export class DeclarationError extends TypeError {
  constructor(message, declared = undefined) {
    super(message);
    this.declared = declared;
  }
}

/** Where a param was made: a stack, taken as it is made (see `DeclarationError`). */
const MADE = Symbol("made");

/**
 * The kinds a param may have: those of `wit/verb.wit`'s `value-kind`, and `count`, an
 * integer 0 or more (the Rust kit's `Kind::Count`), declared to `mur` as an `integer`
 * (`hostsKind`).
 */
export const KINDS = [
  "flag", "text", "selector", "name", "choice", "integer", "count", "number", "json",
  "output-path", "milliseconds",
];

// The `value-kind` of `wit/verb.wit` a param of `kind` is declared to `mur` as, the name
// `verbs add` gives it: a `count` is an `integer`, as the Rust kit's is.
function hostsKind(kind) {
  return kind === "count" ? "integer" : kind;
}

// The kinds a type's name may have been meant as, in any case (`kind: "int"`, `kind:
// Boolean`, JSON Schema's `"boolean"`): one table in the Python and JavaScript kits.
const KINDS_AS_TYPES_SAY = {
  int: "integer", float: "number", str: "text", string: "text", bool: "flag",
  boolean: "flag",
};

// "; did you mean `integer`?" for a kind not among `KINDS`, when one is near.
function kindMeant(typed) {
  if (typeof typed !== "string") return "";
  const lower = typed.toLowerCase();
  const meant = Object.hasOwn(KINDS_AS_TYPES_SAY, lower) ? KINDS_AS_TYPES_SAY[lower] : nearest(typed, KINDS)?.[1];
  return meant === undefined ? "" : `; did you mean \`${meant}\`?`;
}

// A second form: a positional's `option` is the placeholder of `--name VALUE`, which
// gives it too; an option with `word: true` is also taken as a lone word.
function param(name, help, kind, { valueName = "", choices = [], key = "", send = true, option = "", word = false, bounds = {} } = {}) {
  if (!KINDS.includes(kind)) {
    // A type given for its name (`kind: Number`) is named as typed, not by its source.
    const typed = typeof kind === "function" ? kind.name : kind;
    throw new DeclarationError(`kind \`${typed}\` is not one of ${KINDS.join(", ")}${kindMeant(typed)}`);
  }
  // A string spreads into its letters: `choices: "ab"` made the choices `a` and `b`,
  // and refused `ab`.
  if (typeof choices === "string") {
    const quoted = JSON.stringify(choices);
    throw new DeclarationError(
      `choices given as the string ${quoted}, which would be one choice a letter: give a list, \`choices: [${quoted}]\``,
    );
  }
  // The bounds of an `integer`, `count` or `number` value, as a tool's schema names them
  // (`checkBounds`): each a number, or a BigInt past what a number holds exactly.
  for (const [end, at] of Object.entries(bounds)) {
    const number = (typeof at === "number" && Number.isFinite(at)) || typeof at === "bigint";
    if (!BOUND_NAMES.includes(end) || !number) {
      throw new DeclarationError(`\`${end}: ${String(at)}\` is no bound: ${BOUND_NAMES.join(", ")} take a number`);
    }
  }
  const made = { name, help, kind, valueName, choices: [...choices], key, send, option, word, bounds: { ...bounds } };
  // Not enumerable: a copy (`{ ...p }`) or a comparison of params never sees it.
  return Object.defineProperty(made, MADE, { value: new Error().stack });
}

/**
 * A required positional, shown as `<name>`, sent under `key` (default: its name);
 * with `option` (its placeholder), also given as `--name VALUE` (`click --selector
 * '#btn-inc'` for `click '#btn-inc'`). Given both ways, it is refused as given twice.
 * `choices` are a `choice` positional's words, as `option`'s are; `minimum`, `maximum`,
 * `exclusiveMinimum` and `exclusiveMaximum` an `integer`, `count` or `number` one's
 * bounds, as `option`'s are.
 */
export function positional(name, help, { kind = "text", choices = [], key = "", option = "", ...bounds } = {}) {
  return param(name, help, kind, { choices, key, option, bounds });
}

/** `<selector>`, sent as `selector`: the element a verb works on; also taken as `--selector S`, as the standard verbs take theirs. */
export function selector(help) {
  return positional("selector", help, { kind: "selector", option: "S" });
}

/**
 * `--name`, sent as `true` when given; `send: false` keeps it out of the arguments
 * (a switch of what `shape` prints; `args.get(name)` is still `true`).
 */
export function flag(name, help, { key = "", send = true } = {}) {
  return param(name, help, "flag", { key, send });
}

/**
 * `--name VALUE`; `kind` says what the value is and how it is sent: `integer`, `count`
 * (an integer 0 or more, the Rust kit's `Kind::Count`) and `number` as numbers, `json`
 * parsed, `output-path` (a file the verb writes, `-` for stdout) and `milliseconds`
 * never; `args.get(name)` gives it typed alike (a number for `integer`, `count`,
 * `number` and `milliseconds`; see `Args`). `send: false` keeps a value out of
 * the arguments, for an `arguments` of your own to read. `word: true` takes it as a
 * lone word too (`state '#count'` for `state --selector '#count'`): only for a verb
 * without positionals, and only the word a usage error would otherwise answer with
 * "did you mean `--name WORD`?" (`tree '#x'`, but not `tree main` where `--window`
 * may be meant). Given both ways, it is refused as given twice. `minimum`, `maximum`,
 * `exclusiveMinimum` and `exclusiveMaximum` hold an `integer`, `count` or `number` value
 * as a tool's schema does (`{ minimum: 1, maximum: 100 }`): one past them is refused
 * before any call, typed or in `--args`, in a derived verb's words ("`--limit` is out of
 * range: an integer from 1 to 100, got `500`").
 */
export function option(name, valueName, help, { kind = "text", choices = [], key = "", send = true, word = false, ...bounds } = {}) {
  return param(name, help, kind, { valueName, choices, key, send, word, bounds });
}

/** The bounds a param may declare, by JSON Schema's names. */
const BOUND_NAMES = ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"];

/** `--timeout MS`, which every verb accepts: the call's time bound, never sent. */
export const TIMEOUT = option("timeout", "MS", "let the call take up to MS milliseconds", { kind: "milliseconds" });

/**
 * The names `--args JSON` takes (`Verb`'s `#whole`): the first the verb does not
 * declare itself, as a derived verb's (`args`, else `all-args`…).
 */
export const WHOLE_NAMES = ["args", "all-args", "all-all-args"];

/**
 * The help of `--args JSON`, a derived verb's words for it: the host adds what `@FILE`
 * and `-` are, as it does for every JSON option, and reads them.
 */
export const WHOLE_HELP = "the whole arguments object, as JSON; options given beside it override its fields";

/** Whether `p` is the option of the whole arguments object (`Verb`'s `#whole`). */
function isWhole(p) {
  return p.kind === "json" && p.help === WHOLE_HELP && WHOLE_NAMES.includes(p.name);
}

/** The longest wait a verb can declare, in ms: mur reads it as a 32-bit count. */
export const WAITS_LIMIT = 2 ** 32 - 1;

/** The keys a verb's `waits` takes. */
const WAITS_KEYS = ["argument", "defaultMs"];

/** A key as it reads whatever its case or separators (`default_ms`, `defaultMS`: `defaultms`). */
const loose = (key) => key.toLowerCase().replace(/[-_]/g, "");

/**
 * What is wrong with a verb's `waits` (`{ argument, defaultMs }`), which `mur devtools
 * verbs add` would refuse (its section `mur:verb-waits` is `ARGUMENT=MS`), or undefined.
 */
export function unusableWaits(waits) {
  if (waits === undefined || waits === null) return undefined;
  if (typeof waits !== "object" || Array.isArray(waits)) {
    return `\`waits\` as ${Array.isArray(waits) ? "an array" : typeof waits}; declare \`{ argument, defaultMs }\``;
  }
  // A key it does not take is named, with the one it likely meant: the Rust and
  // Python kits spell it `default_ms`, which read as no default at all.
  const unknown = Object.keys(waits).filter((key) => !WAITS_KEYS.includes(key));
  if (unknown.length > 0) {
    const named = unknown.map((key) => {
      const meant = WAITS_KEYS.find((known) => loose(known) === loose(key));
      return `\`${key}\`` + (meant ? ` (did you mean \`${meant}\`?)` : "");
    });
    return `\`waits\` with ${named.join(", ")}: it takes \`argument\` and \`defaultMs\``;
  }
  const { argument, defaultMs } = waits;
  if (
    typeof argument !== "string" ||
    argument === "" ||
    new TextEncoder().encode(argument).length > 128 ||
    // Control characters as ranges: componentize-js's engine has no Unicode tables for `\p{Cc}`.
    /[\s=\u0000-\u001f\u007f-\u009f]/u.test(argument)
  ) {
    return `a wait on the argument ${JSON.stringify(argument)}, which no tool argument is named: the ` +
      "argument's name is 1 to 128 bytes, without spaces, control characters or `=`";
  }
  if (!Number.isInteger(defaultMs) || defaultMs < 0 || defaultMs > WAITS_LIMIT) {
    return `a default wait of ${JSON.stringify(defaultMs) ?? String(defaultMs)} ms for \`${argument}\`: it is a ` +
      `whole number of milliseconds, 0 to ${WAITS_LIMIT}`;
  }
  return undefined;
}

/**
 * The rule `mur devtools verbs add` holds a verb's name to, in its words (mur's
 * crates/verbs/src/names.rs). A copy, as are `HOST_VERBS` and the Rust and Python
 * kits' own: the e2e test `scaffold_python::the_kits_hold_a_verbs_name_to_the_hosts_rule`
 * holds them to the host's.
 */
export const VERB_NAME_RULE =
  "a verb name is lowercase letters, digits and inner dashes (never two in a row), " +
  "starting with a letter, at most 64 characters";

/**
 * The words `mur devtools` answers itself (its commands and `help`): `verbs add`
 * refuses a verb of one of these names, which could never be called.
 */
export const HOST_VERBS = [
  "bridge", "call", "catalog", "guide", "help", "parity", "proxy", "session", "usage", "verbs",
];

/**
 * Why `mur devtools verbs add` would refuse a verb named `name`, in its words, or
 * undefined. `new Verb` checks it, so `node --test` says it before a build: a name
 * `verbs add` refuses passed the tests and the build, and showed only there.
 */
export function unusableName(name) {
  const shaped = typeof name === "string" && new TextEncoder().encode(name).length <= 64 &&
    /^[a-z][a-z0-9-]*$/.test(name) && !name.endsWith("-") && !name.includes("--");
  let why;
  if (!shaped) {
    why = `the verb names itself \`${name}\`; ${VERB_NAME_RULE}`;
  } else if (HOST_VERBS.includes(name)) {
    why = `the verb names itself \`${name}\`, a word \`mur devtools\` answers itself: ` +
      "a verb by that name could not be called";
  } else if (name === "index") {
    why = `the verb names itself \`${name}\`, the name of the verb directory's own index: ` +
      "a verb by that name would be taken for it";
  } else {
    return undefined;
  }
  return `${why}; \`mur devtools verbs add\` would refuse it`;
}

/**
 * What these params declare that a command line could not use or the kit refuses,
 * or undefined, saying whose rule it breaks. `mur devtools verbs add` refuses an
 * option name that is not a letter or a digit, then letters, digits, `-`, `_` or
 * `.` (empty, `--clear` with its dashes, `a b`), a positional with no name (only
 * spaces), two positionals or two options of one name, and an option `help` (the
 * host's `-h, --help`). The kit refuses more, as its own rules, which `verbs add`
 * would let through: a positional name that starts with `-` or holds a space
 * (shown as `<name>`, it would read as an option or as two words in a usage line),
 * an option `timeout` (the kit's own `--timeout MS`). `new Verb` checks it, so
 * `node --test` says so.
 */
export function unusable(positionals, options) {
  return unusableParam(positionals, options)?.[0];
}

// `unusable`'s reason and the param it is about (the second of two of one name), whose
// line a refusal names; or undefined.
function unusableParam(positionals, options) {
  const named = (name) => (name ? `named \`${name}\`` : "with an empty name");
  const seenPositionals = new Set();
  for (const p of positionals) {
    const { name } = p;
    if (typeof name !== "string" || name.trim() === "") return [host("a positional with no name for its usage to show"), p];
    if (name.startsWith("-") || /\s/u.test(name)) {
      return [`positional ${named(name)}, which the kit refuses (\`mur devtools verbs add\` would ` +
        `not): shown as \`<${name}>\`, it reads as an option or as two words in a usage line; ` +
        "a positional's name does not start with `-` and holds no space", p];
    }
    if (seenPositionals.has(name)) return [host(`two positionals named \`${name}\``), p];
    seenPositionals.add(name);
  }
  const seenOptions = new Set();
  for (const p of options) {
    const { name } = p;
    const refusal = nameRefusal(name);
    if (refusal === "host") {
      return [host(`option ${named(name)}, which no command line can give: an option's name starts with a ` +
        "letter or a digit and holds only letters, digits, `-`, `_` and `.`"), p];
    }
    if (refusal !== undefined) {
      const code = refusal.codePointAt(0).toString(16).toUpperCase().padStart(4, "0");
      return [`option ${named(name)}, which the kit refuses (\`mur devtools verbs add\` may take it): ` +
        `beyond ASCII it cannot tell whether U+${code} is a letter or a digit as mur does (its engine ` +
        "has no Unicode tables); an option's name here holds only ASCII letters, digits, `-`, `_` and `.`", p];
    }
    if (seenOptions.has(name)) return [host(`two options named \`${name}\``), p];
    seenOptions.add(name);
    if (name === "help") return [host("option `help`, which is the host's own `-h, --help`"), p];
    if (name === TIMEOUT.name) return ["option `timeout`, which the kit declares for every verb (`--timeout MS`)", p];
  }
  const found = alternativesUnusable(positionals, options);
  return found === undefined ? undefined : [`${found[0]}, which the kit refuses`, found[1]];
}

/** `why`, said to be `mur devtools verbs add`'s rule. */
const host = (why) => `${why}; \`mur devtools verbs add\` would refuse it`;

/**
 * What `mur devtools verbs add` refuses of the choices and the wait these declare
 * (beyond what `unusable` and `unusableWaits` judge), or undefined: a `choice` with no
 * choices, which would refuse every value; choices on another kind, never held to; a
 * wait (`waits`) on the key one of the params is sent under, unless that param is an
 * `integer` one (or `--timeout`): the host sets the wait's argument to a number of
 * milliseconds, so each call sent a number for a text, or the wait did nothing; and a
 * `milliseconds` value is never sent, so the user's `--timeout-ms 1000` was dropped and
 * the tool waited what `--timeout` gave it. A `send: false` param is declared to `verbs
 * add` as its kind: it cannot know the param is not sent. The key
 * is `verbs add`'s rule, compared exactly: an option's name in camelCase (an ASCII
 * capital for each word's first letter), a positional's name (not its `key`). Judged on
 * the params `describe` declares, in the order `verbs add` reads them. The wording is
 * `verbs add`'s (mur's crates/verbs/src/spec.rs, `unkept_choices` and `wait_on_words`):
 * it must match it word for word, as the Rust and Python kits' copies must.
 */
export function unkept(positionals, options, waits) {
  return unkeptParam(positionals, options, waits)?.[0];
}

// `unkept`'s reason and the param it is about, whose line a refusal names (a wait's
// too: the `waits`, a plain object, cannot say where it was written); or undefined.
function unkeptParam(positionals, options, waits) {
  const forms = positionals.filter((p) => p.option);
  const declared = [
    ...[...positionals, ...options.filter((o) => o.word)].map((p) => [p, false]),
    ...[...options, ...forms, TIMEOUT].map((p) => [p, true]),
  ];
  const named = ({ name }, option) => (option ? `option \`--${name}\`` : `positional \`<${name}>\``);
  for (const [p, option] of declared) {
    if (p.kind === "choice" && p.choices.length === 0) {
      return [host(`${named(p, option)} of kind \`choice\` with no choices, which would refuse every value: ` +
        "give it its choices, or another kind"), p];
    }
    if (p.kind !== "choice" && p.choices.length > 0) {
      return [host(`choices for ${named(p, option)}, of kind \`${hostsKind(p.kind)}\`: only a \`choice\` param is held to ` +
        "its choices; make it kind `choice`, or leave out its choices"), p];
    }
  }
  if (!waits) return undefined;
  const found = declared.find(([p, option]) => (option ? hostsCamelCase(p.name) : p.name) === waits.argument);
  if (found === undefined || found[0].kind === "integer" || found[0].kind === "count") return undefined;
  const [p, option] = found;
  if (p.kind === "milliseconds") {
    // The kit's own `--timeout`: its value is the wait's.
    if (option && p.name === TIMEOUT.name) return undefined;
    const shown = option ? `--${p.name}` : `<${p.name}>`;
    return [host(`a wait (\`mur:verb-waits\`) on \`${waits.argument}\`, the key its ${named(p, option)} of kind ` +
      "`milliseconds` would be sent under, but a milliseconds value is never sent: the wait's value is the " +
      `verb's own \`--timeout MS\`; drop \`${shown}\`, or give it kind \`integer\``), p];
  }
  return [host(`a wait (\`mur:verb-waits\`) on \`${waits.argument}\`, the argument its ${named(p, option)} of kind ` +
    `\`${hostsKind(p.kind)}\` is sent as: the host sets a wait's argument to a number of milliseconds, so it must be a key ` +
    "no param of the verb declares, or an `integer` param's"), p];
}

// `name` in camelCase as `verbs add` judges it (`wait-idle` as `waitIdle`): only an
// ASCII letter is made a capital, where `camelCase` capitalizes any (`a-é` as `aÉ`).
function hostsCamelCase(name) {
  const [first, ...rest] = name.split("-");
  return first + rest.map((word) => word.replace(/^[a-z]/, (letter) => letter.toUpperCase())).join("");
}

// What is wrong with the second forms declared (`positional(…, { option })`,
// `option(…, { word: true })`), if anything, as the Rust kit says it, and the param it
// is about.
function alternativesUnusable(positionals, options) {
  for (const p of positionals) {
    const { name, option } = p;
    if (!option) continue;
    if (nameRefusal(name) !== undefined || name === "timeout" || name === "help") {
      return [`positional \`<${name}>\` also given as \`--${name}\`, an option no verb can take`, p];
    }
    if (options.some((o) => o.name === name)) {
      return [`positional \`<${name}>\` also given as \`--${name}\`, an option of its own besides`, p];
    }
  }
  for (const p of options) {
    const { name, kind, word } = p;
    if (!word) continue;
    if (kind === "flag") return [`flag \`--${name}\` also given as a word, which a flag has no value for`, p];
    if (positionals.length > 0) {
      return [`option \`--${name}\` also given as a word beside positionals, which the word would fill`, p];
    }
  }
  return undefined;
}

// Undefined where `name` can name an option, by mur's rule (Rust's
// `char::is_alphanumeric`: a letter or a digit first, then letters, digits, `-`, `_`
// or `.`); "host" where mur refuses it too; else the first character beyond ASCII,
// which the kit cannot judge: componentize-js's engine has no Unicode tables (no
// `\p{L}`: a SyntaxError there), so it takes only ASCII letters and digits, though
// mur takes `é` and `हिंदी` too. A space or a control beyond ASCII mur refuses.
function nameRefusal(name) {
  const chars = typeof name === "string" ? [...name] : [];
  if (chars.length === 0) return "host";
  let unsure;
  for (const [at, c] of chars.entries()) {
    if (/^[A-Za-z0-9]$/.test(c) || (at > 0 && "-_.".includes(c))) continue;
    if (c < "\xa0" || /\s/u.test(c)) return "host";
    unsure ??= c;
  }
  return unsure;
}

/** `include-source` → `includeSource`. */
export function camelCase(name) {
  return name.replace(/-(.)/g, (_, letter) => letter.toUpperCase());
}

/**
 * What a tool result means to a script: its `structuredContent`, else its first
 * text content read as JSON (or as a string when it is not JSON, or nests arrays
 * and objects deeper than mur reads JSON, as the Rust kit's `payload` reads it),
 * else the result itself.
 */
export function payload(result) {
  if (result && "structuredContent" in result) return result.structuredContent;
  const text = (Array.isArray(result?.content) ? result.content : []).find((b) => b?.type === "text");
  if (text) {
    const source = text.text ?? "";
    // Read, the text nested some 5000 levels overflowed the stack in `jsonLine`
    // (JSON.stringify recurses), a crash; past serde_json's limit, the Rust kit
    // reads no JSON in it either, and prints the string.
    if (nesting(source) > JSON_LEVELS) return source;
    try {
      return readExact(source);
    } catch {
      return source;
    }
  }
  return result;
}

// The most levels of arrays and objects `text` nests, as JSON (outside its strings),
// counted without recursion, whatever the text: JSON or not. The regular expressions
// leave only the brackets, for a loop over them alone.
function nesting(text) {
  if (typeof text !== "string") return 0;
  const brackets = text.replace(/"[^"\\]*(?:\\.[^"\\]*)*"/gs, "").replace(/[^[\]{}]/g, "");
  let [depth, deepest] = [0, 0];
  for (const c of brackets) {
    depth += c === "[" || c === "{" ? 1 : -1;
    deepest = Math.max(deepest, depth);
  }
  return deepest;
}

/** `value` as JSON, compact or indented, ending in a newline; a BigInt as its digits. */
export function jsonLine(value, pretty = false) {
  return stringifyExact(value, pretty ? 2 : undefined) + "\n";
}

const encoder = new TextEncoder();

function bytes(value, what) {
  if (typeof value === "string") return encoder.encode(value);
  if (value instanceof Uint8Array) return value;
  if (value instanceof ArrayBuffer) return new Uint8Array(value);
  const type = value === null ? "null" : Array.isArray(value) ? "an array" : typeof value;
  throw new VerbError(`\`shape\` returned ${type} for ${what}; return a string or a Uint8Array`);
}

// A number of milliseconds as mur reads its own `--timeout MS` (the text trimmed, then
// Rust's `u64` `from_str`), as the Rust kit reads one: ASCII digits after at most a `+`
// (`+900`), white space around them allowed. The white space is Rust's (`str::trim`):
// String.prototype.trim() takes `\ufeff` too, and not `\u0085`.
const SPACES = "[\\t\\n\\v\\f\\r \\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]*";
const MILLIS = new RegExp(`^${SPACES}\\+?(\\d+)${SPACES}$`);

/** The most milliseconds `wit/verb.wit` carries (a `u32`). */
const MILLIS_MOST = 2 ** 32 - 1;

/** A `milliseconds` value's number, or undefined where it is none (`MILLIS`). */
function millis(value) {
  const digits = MILLIS.exec(value)?.[1];
  return digits === undefined ? undefined : Number(digits);
}

/**
 * The option as mur's host names one of its own in an error (`--timeout <MS>`,
 * `--pretty`), so that a mistake typed after the verb's name reads as it does before it.
 */
function optionNamed(p) {
  return p.kind === "flag" ? `--${p.name}` : `--${p.name} <${p.valueName || "VALUE"}>`;
}

/**
 * What is said of an option typed without its value, or with an empty one where none
 * can be empty: `--selector <S>` needs a value, the option named as mur names one in an
 * error (`named`, `optionNamed`; a positional as `<pause>`). The one wording of a
 * missing value, mur's host's for its own options and the derived verbs' too
 * (`needs_value` in mur's plugins/kit/src/argv.rs), so that one mistake reads alike
 * wherever it is typed.
 */
function needsValue(named) {
  return `${named} needs a value`;
}

/**
 * `needsValue` of an option typed with an empty value (`--timeout=`, `--timeout ''`, a
 * script's `"$UNSET"`): the word was typed, so it is said to be empty, in the host's words
 * for its own options (`given_empty` in mur's plugins/kit/src/argv.rs).
 */
function givenEmpty(named) {
  return `${needsValue(named)} (it was given empty)`;
}

/**
 * `value` held to `milliseconds`, refused in the words mur's host refuses its own
 * `--timeout` in before the verb's name (`named`: `--timeout <MS>`, `<pause>`).
 */
function checkMillis(named, value) {
  if (value === "") throw new VerbError(givenEmpty(named));
  const ms = millis(value);
  let why;
  if (ms === undefined) why = `\`${value}\` is not a whole number of milliseconds (e.g. \`5000\`)`;
  else if (ms === 0) why = "the bound must be at least 1 ms";
  else if (ms > MILLIS_MOST) why = `the bound is at most ${MILLIS_MOST} ms (about 49 days)`;
  else return;
  throw new VerbError(`invalid value \`${value}\` for ${named}: ${why}`);
}

function check(param, shown, value) {
  const { kind } = param;
  checkBounds(param, shown, value);
  if ((kind === "selector" || kind === "name") && value.trim() === "") {
    throw new VerbError(`${shown} must not be empty`);
  }
  if (kind === "choice" && !param.choices.includes(value)) {
    const names = param.choices.map((c) => `\`${c}\``);
    const listed = names.length > 1 ? `${names.slice(0, -1).join(", ")} or ${names.at(-1)}` : names.join("");
    const told = `${shown} must be ${listed}, got \`${value}\``;
    const meant = choiceMeant(value, param.choices);
    throw new VerbError(meant === undefined ? told : `${told}; did you mean \`${meant}\`?`);
  }
  // As mur reads an integer (Rust's `i64` and `u64` `from_str`: a derived verb's options,
  // the Rust kit's counts): ASCII digits (`\d` is only those) after at most one sign.
  if (kind === "integer" && !INTEGER.test(value)) {
    throw new VerbError(`${shown} needs an integer, got \`${value}\``);
  }
  // Sent exactly only within what mur's JSON (serde_json) holds as an integer, `i64` and
  // `u64`, as mur's derived verbs and the Rust and Python kits take one; past 2^53 - 1 as
  // a BigInt (`typed`), a JavaScript number no longer being exact. Past 20 digits refused
  // before BigInt() reads them, which it would do for any number of them.
  if (kind === "integer") {
    const digits = value.replace(/^[+-]/, "").replace(/^0+/, "");
    if (digits.length > 20 || BigInt(value) < INTEGERS[0] || BigInt(value) > INTEGERS[1]) {
      const admits = `an integer from ${INTEGERS[0]} to ${INTEGERS[1]}`;
      throw new VerbError(`${shown} is out of range: ${admits}, got \`${value}\``);
    }
  }
  // As mur reads a number (Rust's `f64::from_str`, a derived verb's options): Number()
  // takes more, which mur refuses: ` 12 ` (spaces), `0x10`, `0b1`, `0o7`.
  if (kind === "count") {
    const why = uncounted(value);
    if (why !== undefined) throw new VerbError(`${shown} ${why}, got \`${value}\``);
  }
  if (kind === "number" && !(NUMBER.test(value) && Number.isFinite(Number(value)))) {
    throw new VerbError(`${shown} needs a number, got \`${value}\``);
  }
  if (kind === "json") {
    let why;
    try {
      why = unreadable(JSON.parse(value));
    } catch (error) {
      if (error instanceof RangeError) why = TOO_DEEP;
      else throw new VerbError(`${shown} is not valid JSON: ${error.message}`);
    }
    if (why !== undefined) throw new VerbError(`${shown} is not JSON mur reads: ${why}`);
    const parsed = JSON.parse(value);
    if (isWhole(param) && (parsed === null || typeof parsed !== "object" || Array.isArray(parsed))) {
      throw new VerbError(`${shown} must be a JSON object`);
    }
  }
  if (kind === "milliseconds") checkMillis(shown.startsWith("`--") ? `\`${optionNamed(param)}\`` : shown, value);
  if (kind === "output-path" && value === "") {
    throw new VerbError(`${shown} needs a file path, or \`-\` for stdout`);
  }
  return value;
}

// `a` against `b` (each a number or a BigInt): -1, 0 or 1, exactly where both are whole,
// as a derived verb compares (`2^64 - 2` and `2^64 - 1` are two, as numbers one).
function compare(a, b) {
  const whole = (n) => typeof n === "bigint" || Number.isInteger(n);
  if (whole(a) && whole(b)) {
    const [x, y] = [BigInt(a), BigInt(b)];
    return x < y ? -1 : x > y ? 1 : 0;
  }
  return Number(a) < Number(b) ? -1 : Number(a) > Number(b) ? 1 : 0;
}

// `[low, high]` of `param`'s bounds, each `[number, open]` or undefined (`open`: the
// number itself is out); of two on a side, the one that admits less, as a derived verb
// takes them.
function boundsOf(param) {
  const { minimum, maximum, exclusiveMinimum, exclusiveMaximum } = param.bounds ?? {};
  const end = (inclusive, exclusive, inward) => {
    const ends = [[inclusive, false], [exclusive, true]].filter(([at]) => at !== undefined);
    if (ends.length === 0) return undefined;
    return ends.reduce((a, b) => {
      const order = compare(b[0], a[0]);
      return order === inward || (order === 0 && b[1]) ? b : a;
    });
  };
  return [end(minimum, exclusiveMinimum, 1), end(maximum, exclusiveMaximum, -1)];
}

// `value` held to `param`'s bounds (`boundsOf`), refused as a derived verb refuses a
// value past its schema's, in its words: "`--delay` is out of range: an integer from 0
// to 2000, got `-5`". An integer past the kind (a count's `-1`, one past what JSON
// holds) is told the range within them, a count's from 0; a word no number is left to
// the kind's own check.
function checkBounds(param, shown, value) {
  let [low, high] = boundsOf(param);
  const { kind } = param;
  if ((low === undefined && high === undefined) || !["integer", "count", "number"].includes(kind)) return;
  const number = kind === "number";
  if (number ? !(NUMBER.test(value) && Number.isFinite(Number(value))) : !INTEGER.test(value)) return;
  if (kind === "count" && low === undefined) low = [0, false];
  const what = number ? "a number" : "an integer";
  const digits = value.replace(/^[+-]/, "").replace(/^0+/, "");
  const n = number ? Number(value) : digits.length > 20 ? undefined : BigInt(value);
  if (!number && (n === undefined || n < INTEGERS[0] || n > INTEGERS[1])) {
    // Past what JSON holds: the range JSON holds, within the bounds.
    const range = rangeWords(low ?? [INTEGERS[0], false], high ?? [INTEGERS[1], false]);
    throw new VerbError(`${shown} is out of range: ${what} ${range}, got \`${value}\``);
  }
  const pastLow = low !== undefined && (compare(n, low[0]) < 0 || (low[1] && compare(n, low[0]) === 0));
  const pastHigh = high !== undefined && (compare(n, high[0]) > 0 || (high[1] && compare(n, high[0]) === 0));
  if (pastLow || pastHigh) {
    throw new VerbError(`${shown} is out of range: ${what} ${rangeWords(low, high)}, got \`${String(n)}\``);
  }
}

// A range in a derived verb's words: `from 0 to 2000`, `exactly 2`, `above 0 and at
// most 1`.
function rangeWords(low, high) {
  if (low !== undefined && high !== undefined && !low[1] && !high[1]) {
    return compare(low[0], high[0]) === 0 ? `exactly ${low[0]}` : `from ${low[0]} to ${high[0]}`;
  }
  const ends = [];
  if (low !== undefined) ends.push(`${low[1] ? "above" : "at least"} ${low[0]}`);
  if (high !== undefined) ends.push(`${high[1] ? "below" : "at most"} ${high[0]}`);
  return ends.join(" and ");
}

// A number as mur reads it: ASCII digits after at most one sign, with a point and an exponent.
const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

// An integer as mur reads it: ASCII digits after at most one sign.
const INTEGER = /^[+-]?\d+$/;

// The integers mur's JSON reads exactly (serde_json's `i64` and `u64`).
const INTEGERS = [-(2n ** 63n), 2n ** 64n - 1n];

// The largest `count` (the Rust kit's `Kind::Count`, a `u64`).
const COUNTS_MOST = 2n ** 64n - 1n;

// Why `value` is no `count`, in the Rust kit's words for its `Kind::Count` (after the
// param's name, before the word), or undefined: an integer as mur reads one (`INTEGER`,
// `-0` being 0) from 0 to `COUNTS_MOST`. `-1` is told "at least 0", as a derived verb
// tells a schema's `"minimum": 0`; a number past the top, the whole range.
function uncounted(value) {
  if (!INTEGER.test(value)) return "needs a non-negative integer";
  const digits = value.replace(/^[+-]/, "").replace(/^0+/, "");
  if (value.startsWith("-") && digits !== "") return "is out of range: an integer at least 0";
  // Past 20 digits refused before BigInt() reads them, which it would do for any number of them.
  if (digits.length > 20 || BigInt(digits || "0") > COUNTS_MOST) {
    return `is out of range: an integer from 0 to ${COUNTS_MOST}`;
  }
  return undefined;
}

// The levels of arrays and objects mur reads in a verb's arguments (serde_json's limit).
const JSON_LEVELS = 127;
const TOO_DEEP = `arrays or objects nested deeper than ${JSON_LEVELS - 1} levels`;

// Why mur could not read `value` sent under a key of the arguments object, or
// undefined (`depth`: the arrays and objects around it, the arguments object first).
// JavaScript reads more than mur, which would refuse the whole call as the verb's
// fault: a number beyond a 64-bit float (`1e400`, which JSON.stringify would even send
// as `null`), a lone surrogate escape (`"\ud800"`) and nesting deeper than mur's limit.
function unreadable(value, depth = 1) {
  if (typeof value === "number" && !Number.isFinite(value)) return "a number beyond a 64-bit float";
  // With `u`, a pair of surrogates is one code point: the class matches lone ones only.
  if (typeof value === "string") {
    return /[\uD800-\uDFFF]/u.test(value) ? "a string with a lone surrogate escape" : undefined;
  }
  if (value === null || typeof value !== "object") return undefined;
  if (depth >= JSON_LEVELS) return TOO_DEEP;
  const items = Array.isArray(value) ? value : [...Object.keys(value), ...Object.values(value)];
  for (const item of items) {
    const why = unreadable(item, depth + 1);
    if (why !== undefined) return why;
  }
  return undefined;
}

// JSON text `text`, checked to be JSON (`check`, `readExact`), as `JSON.parse` reads it
// (a key given twice keeps its first place and its last value; `__proto__` is a key like
// any other) but for an integer beyond ±(2^53 - 1), which a number cannot hold, a BigInt:
// `JSON.parse` made 12345678901234567890 12345678901234567000, silently, where mur
// reads it exactly. `stringifyExact` writes it back as typed. A reviver reads a
// number's source text only from Node 21 on (`context.source`), and the kit runs on
// Node 20 and in the component's engine too, so this reads the text itself; each
// string and each other number is `JSON.parse`d.
function parseExact(text) {
  let at = 0;
  const space = () => {
    while (at < text.length && " \t\n\r".includes(text[at])) at += 1;
  };
  const string = () => {
    const start = at;
    at += 1;
    while (text[at] !== '"') at += text[at] === "\\" ? 2 : 1;
    at += 1;
    return JSON.parse(text.slice(start, at));
  };
  const value = () => {
    space();
    const first = text[at];
    if (first === "{" || first === "[") {
      const object = first === "{";
      const made = object ? {} : [];
      at += 1;
      space();
      if (text[at] === (object ? "}" : "]")) {
        at += 1;
        return made;
      }
      for (;;) {
        if (object) {
          space();
          const key = string();
          space();
          at += 1; // the `:`
          Object.defineProperty(made, key, { value: value(), enumerable: true, writable: true, configurable: true });
        } else {
          made.push(value());
        }
        space();
        at += 1; // a `,`, or the closing `}` or `]`
        if (text[at - 1] !== ",") return made;
      }
    }
    if (first === '"') return string();
    const start = at;
    while (at < text.length && !" \t\n\r,]}".includes(text[at])) at += 1;
    const word = text.slice(start, at);
    const number = JSON.parse(word);
    // Past 2^53 - 1, as `typed` gives an integer option's value: a number no longer exact.
    return INTEGER.test(word) && !Number.isSafeInteger(number) ? BigInt(word) : number;
  };
  return value();
}

// `value` as JSON, compact or indented by `indent`, as `JSON.stringify` writes it but for
// a BigInt (`parseExact`), which is written as its digits: `JSON.stringify` throws on
// one. Each is put in as a string no other string holds (letters, `-` and `!` are never
// escaped), then replaced.
function stringifyExact(value, indent = undefined) {
  const digits = [];
  const plain = JSON.stringify(
    value,
    (key, v) => {
      if (typeof v !== "bigint") return v;
      digits.push(String(v));
      return 0;
    },
    indent,
  );
  if (digits.length === 0) return plain;
  let mark = "mur-bigint";
  while (plain.includes(mark)) mark += "!";
  let n = 0;
  const marked = JSON.stringify(value, (key, v) => (typeof v === "bigint" ? `${mark}${n++}` : v), indent);
  return marked.replace(new RegExp(`"${mark}(\\d+)"`, "g"), (_, i) => digits[Number(i)]);
}

// JSON text `text` as `JSON.parse` reads it, throwing as it throws, but for an integer
// past 2^53 - 1, which is a BigInt (`parseExact`): a tool's result, which mur read
// exactly, was printed 12345678901234567890 as 12345678901234567000. Only a text
// with 16 digits in a row can hold one (2^53 has 16); one nested deeper than
// `parseExact`'s recursion reaches is read as `JSON.parse` reads it.
function readExact(text) {
  const plain = JSON.parse(text);
  if (typeof text !== "string" || !/\d{16}/.test(text)) return plain;
  try {
    return parseExact(text);
  } catch {
    return plain;
  }
}

/**
 * A checked `word` as `args.get(name)` gives it, the value the tool is sent: of kind
 * `integer`, `count` (its `-0` 0) or `number` a number, `milliseconds` a number; of any other kind the word as
 * typed (`json` too: its text). Its text made `args.get("times") + 1` `"31"`, and an
 * `arguments` passing `args.get("n")` on sent `"4"` where the default sent 4. An integer
 * a number cannot hold (beyond ±(2^53 - 1), `check`) is a BigInt, sent as typed (`stringifyExact`).
 */
function typed(param, word) {
  const integer = param.kind === "integer" || param.kind === "count";
  if (integer && !Number.isSafeInteger(Number(word))) return BigInt(word);
  // `+ 0`: a count's `-0` is 0, as the Rust kit sends it (`JSON.stringify(-0)` is `0`
  // too, but `args.get` gives it to `arguments`).
  if (param.kind === "count") return Number(word) + 0;
  if (integer || param.kind === "number") return Number(word);
  if (param.kind === "milliseconds") return millis(word);
  return word;
}

/** A value of `Args` (`typed`) as the tool's arguments carry it: a `json` one parsed (`parseExact`). */
function sent(param, value) {
  return param.kind === "json" ? parseExact(value) : value;
}

// What an unknown `--name` was likely meant as: the positional of that name
// (`--selector S` for `<selector>`), else the nearest of the verb's options, else the
// nearest host option (`--projct`), which the host takes after the verb's name too;
// both by the host's rule, case aside as mur's own hints are (`caselessNearest`:
// `--Selector` is `--selector`); undefined if nothing.
function optionMeant(name, positionals, optionNames) {
  const pos = positionalNamed(positionals, name);
  if (pos !== undefined) return `write \`<${pos.name}>\` without \`--${name}\``;
  const own = caselessNearest(name, optionNames);
  // Not the host option of this very name, which is no typo of it.
  const host = caselessNearest(name, HOST_OPTIONS.filter((o) => o !== name && !optionNames.includes(o)));
  // The verb's own option where a host option is no nearer.
  const meant = host !== undefined && (own === undefined || host[0] > own[0]) ? host : own;
  return meant === undefined ? undefined : `did you mean \`--${meant[1]}\`?`;
}

// The positional `--name` names, case aside, that is given only as a word: one that
// has an option form is among the options.
function positionalNamed(positionals, name) {
  const lower = name.toLowerCase();
  return positionals.find((p) => !p.option && p.name.toLowerCase() === lower);
}

// `[likeness, word]` of the word of `words` that `typed` is but for case (likeness 1),
// else `nearest` of the two in lower case: caps lock makes no other word. The host's
// rule (`caseless_meant` in mur's plugins/kit/src/nearest.rs), copied for the reason
// `nearest` is.
function caselessNearest(typed, words) {
  const lower = typed.toLowerCase();
  const same = words.filter((word) => word.toLowerCase() === lower);
  if (same.length === 1) return [1, same[0]];
  const folded = new Map(words.map((word) => [word.toLowerCase(), word]));
  const near = nearest(lower, [...folded.keys()]);
  return near === undefined ? undefined : [near[0], folded.get(near[1])];
}

// `[likeness, word]` of the word of `words` nearest to `typed`, if near enough: the
// host's rule for every "did you mean", `mur_core::nearest` in mur's
// crates/core/src/words.rs, copied because this kit is one JavaScript file a verb
// vendors, so that its hints agree with the host's and with derived verbs'. Jaro above
// 0.7 (clap's bound), among the words at most a third of `typed`'s letters' edits away
// (at least one) or, three letters or more, starting or ending with it: Jaro alone
// finds short words alike that share a few letters (`fl` and `full`, `--to` and
// `--auto-full`). The last of equals.
function nearest(typed, words) {
  const edits = Math.max(Math.ceil([...typed].length / 3), 1);
  const core = typed.replace(/^-+/, "");
  const longEnough = [...core].length >= 3;
  const near = (word) =>
    (longEnough && (word.startsWith(typed) || word.replace(/^-+/, "").endsWith(core))) ||
    osaDistance(typed, word) <= edits;
  let best;
  for (const word of words) {
    if (word === typed || !near(word)) continue;
    const likeness = jaro(typed, word);
    if (likeness > 0.7 && (best === undefined || likeness >= best[0])) best = [likeness, word];
  }
  return best;
}

// The choice a refused `typed` was likely meant as: the one that differs from it only
// in case (`FULL` for `full`), else the `nearest`. The host's rule for a derived verb's
// choice (`check_choice` in mur's crates/verbs/src/derived.rs), copied for the reason
// `nearest` is.
function choiceMeant(typed, choices) {
  const same = choices.filter((c) => c.toLowerCase() === typed.toLowerCase());
  if (same.length === 1) return same[0];
  return nearest(typed, choices)?.[1];
}

/**
 * The host's long options (`mur devtools --help`), which the host takes after a
 * verb's name where the verb declares no option of that name: `mur devtools verbs
 * new` wrote in the list of the `mur` that made this project.
 */
export const HOST_OPTIONS = ["@host-options@"];

/** The host options that take no value: only these are told they take none when given one (`--pretty=false`). */
export const HOST_FLAGS = ["auto", "auto-full", "pretty", "verbose", "quiet", "refresh"];

// The kinds whose value is a word of the app's: what a stray word may have been meant as.
const THINGS = ["text", "selector", "name", "choice", "integer", "count", "number"];

// The verb's one option, not a choice, that names a thing of the app, if it has only
// one: the option any stray word may have been meant for.
function theOnlyThing(options) {
  const unlisted = options.filter((p) => p.send && THINGS.includes(p.kind) && p.kind !== "choice");
  return unlisted.length === 1 ? unlisted[0] : undefined;
}

// The refusal of `word`, a cluster of mur's `-v` and `-q` (`-vq`), with the words that
// work typed: each flag apart (`-vq`: `-v -q`), or once where one is repeated (`-vv`:
// mur refuses `-v -v` too, as it refuses `--verbose` twice).
function hostClusterRefused(word) {
  const letters = [...word.slice(1)];
  if (new Set(letters).size < letters.length) {
    return `unknown option \`${word}\`; mur takes \`-v\` and \`-q\` once each`;
  }
  const apart = letters.map((letter) => `-${letter}`).join(" ");
  return `unknown option \`${word}\`; write mur's \`-v\` and \`-q\` apart: \`${apart}\``;
}

// The refusal of `word`, mur's flags `flags` (`-v`) and then something else, `rest`:
// what is wrong is named, never mur's valid `-v`. Throws the whole refusal, with what to
// type (`-vh`: `-v -h`, `-vvh` too, since mur takes each flag once); else returns the
// message and the option a lone letter stands for (`-vs`: `--selector`), if any. After
// mur's flags: a letter is named (`-x` in `-vx`); `h` and more, or a number, are named
// whole, as alone (`-hx` in `-vhx`, `-15` in `-v15`); `=` is a value, which mur's flags
// take none of (`-v=x`, as `--quiet=1`); a dash is no option's letter, so the word is
// named whole (`-v-`). `text`: whether the positional still to fill is text. As the Rust
// kit's `host_letters_then`.
function hostLettersThen(word, flags, rest, optionNames, text) {
  if (rest === "h") {
    const once = [...new Set(flags)].join("");
    if (once.length < flags.length) {
      throw new VerbError(`unknown option \`${word}\`; mur takes \`-v\` and \`-q\` once each: \`${once} -h\``);
    }
    throw new VerbError(`unknown option \`${word}\`; write mur's \`${flags}\` apart: \`${flags} -h\``);
  }
  if (rest.startsWith("=")) return [`\`-${flags.at(-1)}\` takes no value, got \`${rest.slice(1)}\``, undefined];
  // A letter, not a UTF-16 unit (`-v😀` names `-😀`).
  const [other, ...after] = [...rest];
  if (other === "-") return [`unknown option \`${word}\``, undefined];
  const number = /^\d$/.test(other);
  const unknown = `unknown option \`-${other === "h" || number ? rest : other}\` in \`${word}\``;
  const alone = after.length === 0;
  return [unknown, alone && !text && !number ? shortMeant(`-${other}`, optionNames) : undefined];
}

// The option `-letter` likely stands for: the one option whose name starts with that
// letter, if only one does. Not `-h` (help), `-v` or `-q` (mur's own).
function shortMeant(word, optionNames) {
  const letter = word.slice(1);
  if (["h", "v", "q"].includes(letter)) return undefined;
  const names = optionNames.filter((name) => name.startsWith(letter));
  return names.length === 1 ? names[0] : undefined;
}

// Whether `word` looks like a file path rather than a selector or a name: it holds a
// `/`, or ends in an extension of one to four letters or digits (`shot.png`), and does
// not start like a selector (`#id`, `[attr]`, `.class`).
function looksLikePath(word) {
  if (/^[#[.]/.test(word)) return false;
  return word.includes("/") || /.\.[A-Za-z0-9]{1,4}$/.test(word);
}

// The option a stray `word` was likely meant for: for a JSON object, the verb's JSON
// option (`--args`); and when the verb takes no positionals, one whose choices hold it,
// else its selector option for a word that starts like one (`#id`, `[attr]`), else its
// output path for a word that looks like a path (`shot.png`, `out/x`), else its one
// option (not a choice) naming a thing of the app. Never an option given already
// (`given`: `[name, value]`) or one that would refuse the word.
function meant(verb, word, given) {
  const fits = (p) => !given.some(([name]) => name === p.name) && takes(p, word);
  let object = false;
  try {
    const value = JSON.parse(word);
    object = value !== null && typeof value === "object" && !Array.isArray(value);
  } catch {
    // Not JSON: no object.
  }
  const jsons = verb.options.filter((p) => p.kind === "json");
  const json = jsons.find((p) => p.name === "args") ?? (jsons.length === 1 ? jsons[0] : undefined);
  if (object && json !== undefined && fits(json)) return json;
  if (verb.positionals.length > 0) return undefined;
  const things = verb.options.filter((p) => p.send && THINGS.includes(p.kind));
  const found =
    things.find((p) => p.choices.includes(word)) ??
    things.find((p) => p.kind === "selector" && (word.startsWith("#") || word.startsWith("["))) ??
    verb.options.find((p) => p.kind === "output-path" && looksLikePath(word)) ??
    theOnlyThing(verb.options);
  return found !== undefined && fits(found) ? found : undefined;
}

// For a stray `word` beside an option given that also takes a lone word (`{ word: true
// }`): the refusal of that argument given twice, where the word is the one the option
// would have taken alone (`meant`, the option not given): `state '#a' --selector '#b'`,
// as `click '#a' --selector '#b'` is told. Undefined for a word no option would have
// taken (`tree main --selector '#a'`, which may mean `--window main`).
function wordGivenToo(verb, word, given) {
  for (const [at, [name, value]] of given.entries()) {
    if (!verb.options.some((p) => p.name === name && p.word)) continue;
    const option = meant(verb, word, given.filter((_, i) => i !== at));
    if (option?.name === name) {
      return `\`<${name}>\` given twice: as \`${word}\` and as \`--${name} ${shellWord(value)}\``;
    }
  }
  return undefined;
}

// `unexpected argument` (the first of `extra`, the words past the positionals), with
// what was likely meant: the words quoted as one where the last positional is text
// (`type '#x' 'buy milk'`), else the option of `meant`. `read`: what `#read` made of
// argv so far.
function unexpected(verb, extra, read) {
  const word = extra[0];
  const told = `unexpected argument \`${word}\``;
  const last = read.positionals.at(-1);
  if (last !== undefined && last[0].kind === "text") {
    const quote = `${told}; quote the words of \`<${last[0].name}>\` as one`;
    const quoted = [...read.positionals.slice(0, -1), [last[0], [last[1], ...extra].join(" ")]];
    return verb.name ? `${quote}: did you mean \`${command(verb.name, quoted, read.given)}\`?` : quote;
  }
  const shown = shellWord(word);
  const option = meant(verb, word, read.given);
  if (option !== undefined) return `${told}; did you mean \`--${option.name} ${shown}\`?`;
  // `tree main`: a window's name, or a selector of that type; `tree ':text("x")'`, or
  // `main` beside `--selector`: the one option it fits.
  const fitting = readings(verb, word, read.given).map((name) => `\`--${name} ${shown}\``);
  return fitting.length === 1 || fitting.length === 2 ? `${told}; did you mean ${fitting.join(" or ")}?` : told;
}

// The options a stray `word` fits where nothing says which it is for (see `meant`): of
// a verb without positionals, its options (not choices) naming a thing of the app, not
// given already (`given`: `[name, value]`), that take the word; none for a word that
// looks like a file path (`b.png`: a path given twice). A name (a window's, a
// component's) never holds a selector's marks (`holdsSelectorMarks`): `:text("x")` is
// read as no window.
function readings(verb, word, given) {
  if (verb.positionals.length > 0 || looksLikePath(word)) return [];
  return verb.options
    .filter((p) => p.send && THINGS.includes(p.kind) && p.kind !== "choice")
    .filter((p) => !(p.kind === "name" && holdsSelectorMarks(word)))
    .filter((p) => !given.some(([name]) => name === p.name) && takes(p, word))
    .map((p) => p.name);
}

// Whether `word` holds a mark of a selector's syntax that no name holds (a window's, a
// component's: `main`, `todo`): `#` (an id), `[` (an attribute), `:` (`:text(…)`,
// `:nth(N)`), `>` (a child), `*` (any element) or white space (a descendant), as the
// Rust kit's `holds_selector_marks`. A plain word (`main`, `Button`, `.done`) may be
// either.
function holdsSelectorMarks(word) {
  return /[#[:>*\s]/u.test(word);
}

// The usage line of verb `name` (after `mur devtools`), which `describe` gives when the
// verb's `usage` is empty, as the Rust kit's `info::usage` composes it and the standard
// verbs show it: the name, each positional (`<selector>`), each option also taken as a
// lone word as that word (`[<selector>]`), then the other options. Each argument once,
// in its first form: not a positional's option form (`--selector S`), nor `--timeout
// MS`, which every verb takes; the help's options list both. (Left empty, mur composed
// the line from every option it was told of: `bump <selector> [--selector S] [--timeout
// MS]` beside the standard `click <selector>`.)
function usage(name, positionals, options) {
  return [
    name,
    ...positionals.map((p) => `<${p.name}>`),
    ...options.filter((p) => p.word).map((p) => `[<${p.name}>]`),
    ...options.filter((p) => !p.word).map((p) => `[${optionLabel(p)}]`),
  ].join(" ");
}

// The longest `a|b|c` mur shows a choice's choices as in its label.
const CHOICES_LABEL_CHARS = 40;

// `--name V` as mur labels an option in its help, so the usage line and the options
// list agree: a choice's placeholder that does not list its choices gives way to them
// (`--mode fast|slow`) when they are short; no placeholder is `VALUE`.
function optionLabel(p) {
  if (p.kind === "flag") return `--${p.name}`;
  let value = p.valueName || "VALUE";
  if (p.kind === "choice" && p.choices.length > 0 && !p.valueName.includes("|")) {
    const listed = p.choices.map(shellWord).join("|");
    if ([...listed].length <= CHOICES_LABEL_CHARS) value = listed;
  }
  return `--${p.name} ${value}`;
}

// A command line for verb `verb`, each word as a shell reads it back: the positionals
// (`[param, word]`), then the options given (`[name, value or undefined]`); from the
// first positional that starts with `-`, after the options and `--` (`mur devtools
// type '#x' --clear -- -5`).
function command(verb, positionals, given) {
  let split = positionals.findIndex(([, word]) => word.startsWith("-") && word !== "-");
  if (split < 0) split = positionals.length;
  const words = ["mur", "devtools", shellWord(verb)];
  words.push(...positionals.slice(0, split).map(([, word]) => shellWord(word)));
  for (const [name, value] of given) {
    words.push(`--${name}`);
    if (value !== undefined) words.push(shellWord(value));
  }
  if (split < positionals.length) words.push("--", ...positionals.slice(split).map(([, word]) => shellWord(word)));
  return words.join(" ");
}

// Whether `param` would take `word` as its value.
function takes(param, word) {
  try {
    check(param, "", word);
    return true;
  } catch {
    return false;
  }
}

// Jaro similarity, the measure `mur` (after clap) takes for "did you mean", written
// out: the kit is one file a verb vendors, with no package to install.
function jaro(a, b) {
  if (a === b) return 1;
  [a, b] = [[...a], [...b]];
  const window = Math.max(0, Math.floor(Math.max(a.length, b.length) / 2) - 1);
  const taken = new Array(b.length).fill(false);
  const aMatched = [];
  for (let i = 0; i < a.length; i++) {
    for (let j = Math.max(0, i - window); j < Math.min(b.length, i + window + 1); j++) {
      if (!taken[j] && b[j] === a[i]) {
        taken[j] = true;
        aMatched.push(a[i]);
        break;
      }
    }
  }
  const m = aMatched.length;
  if (m === 0) return 0;
  const bMatched = b.filter((_, j) => taken[j]);
  // Halved as whole numbers, as strsim (the host's and the Rust kit's Jaro) does.
  const halfTranspositions = Math.floor(aMatched.filter((c, k) => c !== bMatched[k]).length / 2);
  return (m / a.length + m / b.length + (m - halfTranspositions) / m) / 3;
}

// The optimal string alignment distance (edits, a swap of neighbours being one), the
// host's measure beside Jaro, written out as `jaro` is.
function osaDistance(a, b) {
  [a, b] = [[...a], [...b]];
  const rows = [Array.from({ length: b.length + 1 }, (_, j) => j)];
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      const above = rows[i - 1];
      row[j] = Math.min(above[j] + 1, row[j - 1] + 1, above[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        row[j] = Math.min(row[j], rows[i - 2][j - 2] + 1);
      }
    }
    rows.push(row);
  }
  return rows[a.length][b.length];
}

// `word` as a shell reads it back: bare when plain, else in single quotes.
function shellWord(word) {
  if (/^[A-Za-z0-9_.,/:=@%+-]+$/.test(word)) return word;
  return `'${word.replaceAll("'", "'\\''")}'`;
}

function beforeDashes(argv) {
  const end = argv.indexOf("--");
  return end < 0 ? argv : argv.slice(0, end);
}

/**
 * Argv checked against a verb's params: `args.get("selector")`, `args.get("text")`
 * (undefined when not given), `args.get("clear")` (true when the flag was given). A
 * value is of its kind's type, as it is sent: `integer`, `count` and `number` a number
 * (`args.get("times")` is 3, not "3"; beyond ±(2^53 - 1) a BigInt, which a number cannot
 * hold), `milliseconds` a number; the other kinds give the text typed (`json` too:
 * `JSON.parse` it).
 */
export class Args {
  constructor(values, timeoutMs) {
    this.values = { ...values };
    this.timeoutMs = timeoutMs;
  }

  get(name) {
    return this.values[name];
  }
}

/** A verb; see the top of this file. */
export class Verb {
  constructor(spec) {
    // `waits`: `{ argument, defaultMs }` when the tool waits on a bound of its own.
    const defaults = { usage: "", details: "", examples: [], positionals: [], options: [], waits: undefined };
    Object.assign(this, defaults, spec);
    for (const required of ["name", "tool", "summary"]) {
      if (typeof this[required] !== "string" || this[required] === "") {
        throw new DeclarationError(`a verb needs a \`${required}\``);
      }
    }
    const named = unusableName(this.name);
    if (named !== undefined) throw new DeclarationError(named);
    const waits = unusableWaits(this.waits);
    const found = unusableParam(this.positionals, this.options) ?? (waits === undefined ? undefined : [waits]) ??
      unkeptParam(this.positionals, this.options, this.waits);
    if (found !== undefined) {
      // Where the param at fault was made, to name its line; a `waits` unusable in
      // itself, a plain object, cannot say where it was written: then this `new Verb`.
      const [why, p] = found;
      throw new DeclarationError(`verb \`${this.name}\` declares ${why}`, p?.[MADE]);
    }
  }

  /** The tool's arguments object; by default each param under its key. */
  arguments(args) {
    const out = {};
    for (const p of [...this.positionals, ...this.options]) {
      const value = args.get(p.name);
      if (value === undefined || !p.send || p.kind === "output-path" || p.kind === "milliseconds") continue;
      out[p.key || camelCase(p.name)] = p.kind === "flag" ? true : sent(p, value);
    }
    return out;
  }

  /** What to print for a result: a string or Uint8Array, or `{ stdout, files, notes }`. */
  shape(result, args, pretty) {
    return jsonLine(payload(result), pretty);
  }

  /** `info`: the WIT record. */
  describe() {
    const described = (p, required) => ({
      name: p.name,
      valueName: p.valueName,
      kind: hostsKind(p.kind),
      help: p.help,
      required,
      repeatable: false,
      choices: [...p.choices],
    });
    const loneWord = (p) => {
      const which = theOnlyThing(this.options)?.name === p.name ? "" : `, where ${p.valueName} starts with \`#\` or \`[\``;
      return { ...described(p, false), valueName: "", help: `the same as \`--${p.name} ${p.valueName}\`${which}` };
    };
    const optionForm = (p) => {
      if (this.positionals.some((pos) => pos.name === p.name && pos.option)) {
        return { ...described(p, false), help: `the same as \`<${p.name}>\`` };
      }
      if (p === TIMEOUT && this.waits) {
        // It bounds the tool's wait too (see `parse`), as the Rust kit says it.
        const help = `let the wait (default: ${this.waits.defaultMs}) and the call take up to MS milliseconds`;
        return { ...described(p, false), help };
      }
      return described(p, false);
    };
    return {
      name: this.name,
      tool: this.tool,
      summary: this.summary,
      usage: this.usage.trim() ? this.usage : usage(this.name, this.positionals, this.options),
      details: this.details,
      examples: [...this.examples],
      positionals: [...this.positionals.map((p) => described(p, true)), ...this.options.filter((p) => p.word).map(loneWord)],
      options: this.#everyOption().map(optionForm),
    };
  }

  // Every option a command line may give: the ones declared, the option form of each
  // positional that has one (`positional(…, { option })`) and `--timeout`. The one
  // list the parser, the help and "did you mean" read.
  #everyOption() {
    const forms = this.positionals
      .filter((p) => p.option)
      .map((p) => param(p.name, p.help, p.kind, { valueName: p.option, choices: p.choices, key: p.key, send: p.send, bounds: p.bounds }));
    const whole = this.#whole();
    return [...this.options, ...forms, TIMEOUT, ...(whole ? [whole] : [])];
  }

  // `[shown, word]` of positional `p`'s field in `--args JSON`, if it was given with
  // one: the word it stands for (a string's text, a number's or a JSON value's, a
  // boolean's for a choice: `{"on": true}` for the choice `true`), named as mur names a
  // field of `--args`. Throws `VerbError` for a value no word of its kind is.
  // Each option with bounds not given, held to them where `--args` gives its key a
  // number, as a derived verb holds a field of `--args` (`checkBounds`).
  #checkWholeBounds(values) {
    const whole = this.#whole();
    if (!whole || values[whole.name] === undefined) return;
    const given = parseExact(values[whole.name]);
    for (const p of this.options) {
      const key = p.key || camelCase(p.name);
      const value = Object.hasOwn(given, key) ? given[key] : undefined;
      const integral = typeof value === "bigint" || Number.isInteger(value);
      if (Object.hasOwn(values, p.name) || !(integral || (p.kind === "number" && typeof value === "number"))) continue;
      checkBounds(p, `\`${key}\` in \`--${whole.name}\``, stringifyExact(value));
    }
  }

  #wholeField(values, p) {
    const whole = this.#whole();
    if (!whole || values[whole.name] === undefined) return undefined;
    const given = parseExact(values[whole.name]);
    const key = p.key || camelCase(p.name);
    if (!Object.hasOwn(given, key)) return undefined;
    const value = given[key];
    const shown = `\`${key}\` in \`--${whole.name}\``;
    if (p.kind === "json") return [shown, stringifyExact(value)];
    if (typeof value === "string") return [shown, value];
    const numeric = typeof value === "number" || typeof value === "bigint";
    if (["integer", "count", "number"].includes(p.kind) && numeric) return [shown, stringifyExact(value)];
    // The word a boolean is written as, the same in every kit (a number's is not: `1.0`).
    if (p.kind === "choice" && typeof value === "boolean") return [shown, String(value)];
    throw new VerbError(`${shown} must be a string, got \`${stringifyExact(value)}\``);
  }

  // `--args JSON`, the tool's whole arguments object, which every verb takes as a
  // derived verb does: named `all-args` when the verb has an option `args` of its own,
  // as a derived verb's is when its tool has a property `args`.
  #whole() {
    const taken = new Set([...this.options.map((p) => p.name), ...this.positionals.filter((p) => p.option).map((p) => p.name)]);
    const name = WHOLE_NAMES.find((n) => !taken.has(n));
    return name === undefined ? undefined : option(name, "JSON", WHOLE_HELP, { kind: "json", send: false });
  }

  /** A call `{ arguments, timeoutMs, writes, state }`, or null for a help request; throws `VerbError`. */
  parse(argv) {
    let args;
    try {
      args = this.#check([...argv]);
    } catch (error) {
      const asked = beforeDashes(argv);
      if (error instanceof VerbError && (asked.includes("--help") || asked.includes("-h"))) return null;
      throw error;
    }
    if (args === null) return null;
    const made = this.arguments(args);
    if (made === null || typeof made !== "object" || Array.isArray(made)) {
      throw new TypeError(`\`arguments\` must return an object, not ${Array.isArray(made) ? "an array" : typeof made}`);
    }
    if (this.waits && args.timeoutMs !== undefined && !Object.hasOwn(made, this.waits.argument)) {
      // `--timeout MS` bounds the tool's wait too, unless `arguments` set it.
      made[this.waits.argument] = args.timeoutMs;
    }
    const whole = this.#whole();
    let sending = made;
    if (whole && args.get(whole.name) !== undefined) {
      // `--args JSON`, as a derived verb takes it: the options given beside it override its fields.
      const given = parseExact(args.get(whole.name));
      sending = {};
      // Defined, not assigned: a field `__proto__` is a field like any other.
      const define = (key, value) =>
        Object.defineProperty(sending, key, { value, enumerable: true, writable: true, configurable: true });
      for (const [key, value] of Object.entries(given)) if (!Object.hasOwn(made, key)) define(key, value);
      for (const [key, value] of Object.entries(made)) define(key, value);
    }
    const writes = this.options
      .filter((p) => p.kind === "output-path")
      .map((p) => args.get(p.name))
      .filter((path) => path !== undefined && path !== "-");
    return { arguments: stringifyExact(sending), timeoutMs: args.timeoutMs, writes, state: stringifyExact(args.values) };
  }

  /** Shape the JSON text of a result, with the state `parse` returned: `{ stdout, files, notes }`, bytes and lines. */
  render(result, state, pretty) {
    let values;
    let value;
    try {
      values = readExact(state);
      value = readExact(result);
    } catch (error) {
      throw new VerbError(`the tool result or the output state is not JSON: ${error.message}`);
    }
    let shaped = this.shape(value, new Args(values, values.timeout), pretty);
    if (typeof shaped === "string" || shaped instanceof Uint8Array || shaped instanceof ArrayBuffer) {
      shaped = { stdout: shaped };
    }
    if (shaped === null || typeof shaped !== "object") shaped = { stdout: shaped };
    const declared = this.options.filter((p) => p.kind === "output-path").map((p) => values[p.name]);
    const files = (shaped.files ?? []).map(({ path, contents }) => {
      if (!declared.includes(path)) {
        throw new VerbError(`\`shape\` may write only a path the user gave to an output-path option, not \`${path}\``);
      }
      return { path, contents: bytes(contents, path) };
    });
    const notes = shaped.notes ?? [];
    if (!Array.isArray(notes) || notes.some((note) => typeof note !== "string")) {
      throw new VerbError("`shape` returned notes that are not a list of strings");
    }
    return { stdout: bytes(shaped.stdout, "stdout"), files, notes: [...notes] };
  }

  /** The component's exports: `info`, `parse` and `shape` of the `verb` world. */
  exports() {
    return {
      info: () => guarded("info", () => this.describe()),
      parse: (argv) =>
        guarded("parse", () => {
          const call = this.parse(argv);
          return call === null ? { tag: "help" } : { tag: "call", val: call };
        }),
      shape: (result, state, options) => guarded("shape", () => this.render(result, state, options.pretty)),
    };
  }

  #check(argv) {
    const read = this.#read(argv);
    return read === null ? null : new Args(read.values, read.timeoutMs);
  }

  // `{ values, timeoutMs, positionals, given }` (positionals as `[param, word]`, the
  // options given as `[name, value or undefined]`, in order), or null for help.
  #read(argv) {
    const options = new Map(this.#everyOption().map((p) => [p.name, p]));
    const values = {};
    const given = [];
    const words = [];
    let timeoutMs;
    for (let i = 0; i < argv.length; i++) {
      const word = argv[i];
      if (word === "--") {
        words.push(...argv.slice(i + 1));
        break;
      }
      if (word === "--help" || word === "-h") return null;
      if (!word.startsWith("-") || word === "-") {
        words.push(word);
        continue;
      }
      if (!word.startsWith("--")) {
        if (/^-[vq]{2,}$/.test(word)) {
          // The host takes `-vq` after a verb's name too: this reaches a verb natively,
          // or from an older `mur`, which took `-v` and `-q` only apart.
          throw new VerbError(hostClusterRefused(word));
        }
        const text = this.positionals[words.length]?.kind === "text";
        const host = /^-([vq]+)(?![vq])(.+)$/su.exec(word);
        // A letter, not a UTF-16 unit: `-😀` is one letter, as in the Rust and Python kits.
        const letters = [...word];
        let unknown;
        let short;
        if (host !== null) {
          // mur's `-v` or `-q`, then something else: that is what is wrong, not `-v`,
          // which is valid (`hostLettersThen`).
          [unknown, short] = hostLettersThen(word, `-${host[1]}`, host[2], [...options.keys()], text);
        } else {
          // Only `-h` alone is help: `-hello` is an unknown option, named whole, as is
          // a number (`-15`, not `-1`).
          const whole = word.startsWith("-h") || /^-\d/.test(word);
          unknown = `unknown option \`${whole ? word : letters.slice(0, 2).join("")}\``;
          // `-s` for the one option that starts with `s` (`--selector`), where no text
          // still to fill may start with a dash. Never for a number: `-1` is no short
          // `--1st`, as in the Rust kit, and as a derived verb reads it (a value, never
          // an option).
          short = letters.length === 2 && !text && !whole ? shortMeant(word, [...options.keys()]) : undefined;
        }
        if (short !== undefined) throw new VerbError(`${unknown}; did you mean \`--${short}\`?`);
        throw new VerbError(this.#afterDashes(argv, i, words.length, unknown));
      }
      const eq = word.indexOf("=");
      const name = eq < 0 ? word.slice(2) : word.slice(2, eq);
      const p = options.get(name);
      if (p === undefined && eq >= 0 && HOST_OPTIONS.includes(name)) {
        // A host option by its very name reaches a verb with a value only where the
        // host did not take it: a flag the host takes no value for (`--pretty=false`),
        // or any of them in a native test or from an older `mur` (`--project=App.csproj`).
        if (HOST_FLAGS.includes(name)) {
          throw new VerbError(`\`--${name}\` takes no value, got \`${word.slice(eq + 1)}\``);
        }
        throw new VerbError(`\`--${name}\` is mur's: give it before the verb's name`);
      }
      if (p === undefined) {
        const hint = optionMeant(name, this.positionals, [...options.keys()]);
        if (hint !== undefined) {
          const corrected = this.#positionalMeant(argv, i, name);
          throw new VerbError(`unknown option \`--${name}\`; ${hint}${corrected === undefined ? "" : `: did you mean \`${corrected}\`?`}`);
        }
        throw new VerbError(this.#afterDashes(argv, i, words.length, `unknown option \`--${name}\``));
      }
      if (name in values) throw new VerbError(`the argument \`${optionNamed(p)}\` cannot be used multiple times`);
      if (p.kind === "flag") {
        if (eq >= 0) throw new VerbError(`\`--${name}\` takes no value, got \`${word.slice(eq + 1)}\``);
        values[name] = true;
        given.push([name, undefined]);
        continue;
      }
      let value = eq < 0 ? argv[++i] : word.slice(eq + 1);
      if (value === undefined) throw new VerbError(needsValue(`\`${optionNamed(p)}\``));
      // The next word one of the verb's options or mur's: the value was left out
      // (`--selector --pretty`); written inline it is a value (`--selector=--pretty`).
      const option = eq < 0 && value.startsWith("--") ? value.slice(2).split("=")[0] : "";
      if (option !== "" && (options.has(option) || HOST_OPTIONS.includes(option))) {
        throw new VerbError(
          `${needsValue(`\`${optionNamed(p)}\``)}, and \`--${option}\` is an option (a value that begins with \`--\` is written \`--${name}=VALUE\`)`,
        );
      }
      values[name] = typed(p, check(p, `\`--${name}\``, value));
      given.push([name, value]);
      if (name === TIMEOUT.name) timeoutMs = millis(value);
    }
    const positionals = [];
    const textLast = this.positionals.at(-1)?.kind === "text";
    let taken = given;
    for (const [index, p] of this.positionals.entries()) {
      const asOption = p.option ? taken.find(([name]) => name === p.name) : undefined;
      if (asOption !== undefined) {
        // The option form: moved into its place. A word more than the positionals after
        // it take is the same argument typed both ways, unless it is more words of a
        // text (then only a selector that starts like one).
        taken = taken.filter(([name]) => name !== p.name);
        const later = this.positionals.length - index - 1;
        const twice = !textLast || (p.kind === "selector" && words.length > 0 && /^[#[]/.test(words[0]));
        if (words.length > later && twice) {
          throw new VerbError(`\`<${p.name}>\` given twice: as \`${words[0]}\` and as \`--${p.name} ${shellWord(asOption[1])}\``);
        }
        positionals.push([p, asOption[1]]);
        continue;
      }
      // Fewer words than the positionals still to fill: one whose key `--args` gives
      // is taken from there, as a derived verb takes a required property (`click
      // --args '{"selector": "#x"}'`); the words fill the others.
      const unfilled = this.positionals
        .slice(index)
        .filter((later) => !(later.option && taken.some(([name]) => name === later.name))).length;
      const field = words.length < unfilled ? this.#wholeField(values, p) : undefined;
      if (field !== undefined) {
        const [shown, word] = field;
        values[p.name] = typed(p, check(p, shown, word));
        positionals.push([p, word]);
        continue;
      }
      if (words.length === 0) throw new VerbError(`missing argument \`<${p.name}>\``);
      const word = words.shift();
      values[p.name] = typed(p, check(p, `\`<${p.name}>\``, word));
      positionals.push([p, word]);
    }
    this.#checkWholeBounds(values);
    const read = { values, timeoutMs, positionals, given: taken };
    // An option's lone word (`state '#count'`), never one that reads as an option or
    // stdin; a word after it is one too many, as after a positional. The word it would
    // have been beside that option given (`state '#a' --selector '#b'`) is the argument
    // given twice, as a positional's is beside its option form.
    if (words.length > 0 && !words[0].startsWith("-")) {
      const option = meant(this, words[0], taken);
      if (option?.word) {
        const word = words.shift();
        values[option.name] = typed(option, word);
        taken.push([option.name, word]);
      } else {
        const twice = wordGivenToo(this, words[0], taken);
        if (twice !== undefined) throw new VerbError(twice);
      }
    }
    if (words.length > 0) throw new VerbError(unexpected(this, words, read));
    return read;
  }

  // The command this verb would run with `moved` (argv with a word moved where it
  // belongs), when `moved` is right and gives positional `<name>` that `word`: the
  // command a hint names, so it is one that works.
  #corrected(moved, name, word) {
    if (!this.name) return undefined;
    let read;
    try {
      read = this.#read(moved);
    } catch (error) {
      if (error instanceof VerbError) return undefined;
      throw error;
    }
    const filled = read?.positionals.find(([p]) => p.name === name)?.[1] === word;
    return filled ? command(this.name, read.positionals, read.given) : undefined;
  }

  // For `--name VALUE` (or `--name=VALUE`) at `at` in `argv`, where the verb takes
  // `<name>` only as a word: the command with VALUE written as that word, when the rest
  // of argv is right (`mur devtools switch todo` for `switch --component todo`).
  #positionalMeant(argv, at, name) {
    const pos = positionalNamed(this.positionals, name);
    if (pos === undefined) return undefined;
    name = pos.name;
    const eq = argv[at].indexOf("=");
    if (eq >= 0) {
      const value = argv[at].slice(eq + 1);
      return this.#corrected([...argv.slice(0, at), value, ...argv.slice(at + 1)], name, value);
    }
    if (at + 1 >= argv.length) return undefined;
    return this.#corrected([...argv.slice(0, at), ...argv.slice(at + 1)], name, argv[at + 1]);
  }

  // `unknown` (an unknown option's message) with, where the positional still to fill
  // is text, or a number that one of kind `integer`, `count` or `number` takes (`-1`;
  // `-0` for a count), a hint to give the word after `--`, as the command it would make
  // when the rest of argv is right: `mur devtools type '#x' -- -5`. A number it refuses
  // (out of range: a count's `-1`) is told why instead, as after `--`, as the Rust kit
  // tells its count's. `at` is the word's
  // place in `argv`; `filled`, how many positionals the words before it gave.
  #afterDashes(argv, at, filled, unknown) {
    const pos = this.positionals[filled];
    if (pos === undefined) return unknown;
    const [word, rest] = [argv[at], argv.slice(at + 1)];
    const numeric = { integer: INTEGER, count: INTEGER, number: NUMBER }[pos.kind];
    if (numeric?.test(word)) check(pos, `\`<${pos.name}>\``, word);
    else if (pos.kind !== "text") return unknown;
    const told = `${unknown}; to give it as \`<${pos.name}>\`, put it after \`--\``;
    if (rest.includes("--")) return told;
    const corrected = this.#corrected([...argv.slice(0, at), ...rest, "--", word], pos.name, word);
    return corrected === undefined ? told : `${told}: did you mean \`${corrected}\`?`;
  }
}

/**
 * Run export `name`: a `VerbError` (or a thrown string) becomes the `result`
 * error, as the string the component model needs. Anything else thrown is a
 * bug: its message and where it was thrown go to stderr — `mur` reports a
 * crash by that error line and its frame — and it is rethrown, which traps.
 */
function guarded(name, body) {
  try {
    return body();
  } catch (error) {
    if (typeof error === "string") throw error;
    if (error instanceof VerbError) throw error.message;
    const message = error instanceof Error ? `${error.name}: ${error.message}` : `threw ${String(error)}`;
    // The innermost frame: `fn@file:line:col` in SpiderMonkey (the component), `at fn (…)` in V8.
    const lines = String(error?.stack ?? "").split("\n").map((line) => line.trim());
    const frame = lines.find((line) => /^[^\s]*@\S+:\d+/.test(line)) ?? lines.find((line) => line.startsWith("at "));
    const at = frame?.replace(/^([^\s]*)@(\S+)$/, (_, fn, where) => `at ${fn || "<anonymous>"} (${where})`);
    console.error(`${message.split("\n")[0]}\n${at || `in \`${name}\``}`);
    throw error;
  }
}
