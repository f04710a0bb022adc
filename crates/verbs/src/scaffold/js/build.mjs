// Build the verb: componentize verb.js (with kit.js) for the `verb` world of wit/.
//   node build.mjs [OUT]     (default: <package name without `mur-verb-`>.wasm)
// Every file is found from here, so it runs from any directory. Only `stdio` of
// componentize-js's optional features is kept: a crash's message reaches `mur`
// on stderr. A verb needs no clocks, random or http. The verb's name, as its
// `info` gives it natively, is recorded in the section `mur:verb-name`, where
// `mur devtools verbs add` reads it before compiling.
import { componentize, DEFAULT_FEATURES } from "@bytecodealliance/componentize-js";
import { readFile, writeFile } from "node:fs/promises";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";

const here = (path) => fileURLToPath(new URL(path, import.meta.url));
const { name } = JSON.parse(await readFile(here("./package.json"), "utf8"));
const out = resolve(process.argv[2] ?? here(`./${name.replace(/^mur-verb-/, "")}.wasm`));
const { component } = await componentize({
  sourcePath: here("./verb.js"),
  witPath: here("./wit"),
  worldName: "verb",
  disableFeatures: DEFAULT_FEATURES.filter((feature) => feature !== "stdio"),
});
const bytes = await named(component);
await writeFile(out, bytes);
console.error(`wrote ${out} (${bytes.length} bytes)`);

/** The component with a custom section `mur:verb-name` naming the verb appended. */
async function named(component) {
  let verbName;
  try {
    const { info } = await import(new URL("./verb.js", import.meta.url).href);
    verbName = info().name;
  } catch (error) {
    console.error(`build.mjs: not naming the verb (verb.js did not load natively: ${error.message}); verbs add will compile it before judging its name`);
    return component;
  }
  const utf8 = (text) => new TextEncoder().encode(text);
  const body = [...leb128(utf8("mur:verb-name").length), ...utf8("mur:verb-name"), ...utf8(verbName)];
  return Buffer.concat([component, Uint8Array.from([0, ...leb128(body.length), ...body])]);
}

/** `n` as an unsigned LEB128, the encoding of every length in WebAssembly. */
function leb128(n) {
  const out = [];
  do {
    const low = n & 0x7f;
    n >>>= 7;
    out.push(n ? low | 0x80 : low);
  } while (n);
  return out;
}
