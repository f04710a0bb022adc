// Build the verb: componentize verb.js (with kit.js) for the `verb` world of wit/.
//   node build.mjs [OUT]     (default: <package name without `mur-verb-`>.wasm)
// Every file is found from here, so it runs from any directory. Only `stdio` of
// componentize-js's optional features is kept: a crash's message reaches `mur`
// on stderr. A verb needs no clocks, random or http.
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
await writeFile(out, component);
console.error(`wrote ${out} (${component.length} bytes)`);
