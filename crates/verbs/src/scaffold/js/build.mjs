// Build the verb: componentize verb.js (with kit.js) for the `verb` world of wit/.
//   node build.mjs [OUT]     (default: <package name without `mur-verb-`>.wasm)
// Every file is found from here, so it runs from any directory. Only `stdio` of
// componentize-js's optional features is kept: a crash's message reaches `mur`
// on stderr. A verb needs no clocks, random or http. The verb's name, as its
// `info` gives it natively, is recorded in the section `mur:verb-name`, where
// `mur devtools verbs add` reads it before compiling; what the tool waits on, when
// the exported `verb` declares `waits`, in the section `mur:verb-waits`
// (`timeoutMs=5000`), which `info` has no field for.
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

/** The component with custom sections naming the verb and what its tool waits on appended. */
async function named(component) {
  let verbName;
  let waits;
  try {
    const loaded = await import(new URL("./verb.js", import.meta.url).href);
    verbName = loaded.info().name;
    waits = loaded.verb?.waits;
  } catch (error) {
    console.error(`build.mjs: not naming the verb nor its wait (verb.js did not load natively: ${error.message}); verbs add will compile it before judging its name`);
    return component;
  }
  const sections = [section("mur:verb-name", verbName)];
  if (waits) sections.push(section("mur:verb-waits", `${waits.argument}=${waits.defaultMs}`));
  return Buffer.concat([component, ...sections]);
}

/** A WebAssembly custom section `name` holding `text` (UTF-8). */
function section(name, text) {
  const utf8 = (string) => new TextEncoder().encode(string);
  const body = [...leb128(utf8(name).length), ...utf8(name), ...utf8(text)];
  return Uint8Array.from([0, ...leb128(body.length), ...body]);
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
