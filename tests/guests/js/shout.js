// A mur verb written in JavaScript: the same wit/verb.wit world as the Rust
// verbs, componentized with componentize-js (build.mjs). It asks the session
// for its version and answers with the result, marked as JavaScript's work.

const USAGE = "usage: mur devtools shout [--loud]\n\nAsk the session for its version, from a verb written in JavaScript.";

export function info() {
  return {
    name: "shout",
    tool: "version",
    summary: "Answer with the session's version, from JavaScript (test verb)",
    usage: USAGE,
  };
}

// result<parsed, string>: a return is `ok`, a throw is `err`. `--loud` only
// changes the output, which `shape` reads from the same argv.
export function parse(argv) {
  for (const arg of argv) {
    if (arg === "--help" || arg === "-h") return { tag: "help" };
    if (arg !== "--loud") throw `unexpected argument \`${arg}\``;
  }
  return { tag: "call", val: { arguments: "{}", timeoutMs: undefined } };
}

export function shape(argv, result, options) {
  const value = { language: "javascript", loud: argv.includes("--loud"), result: JSON.parse(result) };
  const text = options.pretty ? JSON.stringify(value, null, 2) : JSON.stringify(value);
  return { stdout: new TextEncoder().encode(text + "\n"), files: [] };
}
