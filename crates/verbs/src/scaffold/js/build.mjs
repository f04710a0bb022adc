// Build the verb: componentize verb.js (with kit.js) for the `verb` world of wit/.
//   node build.mjs [OUT]     (default: <package name without `mur-verb-`>.wasm)
// Every file is found from here, so it runs from any directory. Only `stdio` of
// componentize-js's optional features is kept: a crash's message reaches `mur`
// on stderr. A verb needs no clocks, random or http. The verb's name, as its
// `info` gives it natively, is recorded in the section `mur:verb-name`, where
// `mur devtools verbs add` reads it before compiling; what the tool waits on, when
// the exported `verb` declares `waits`, in the section `mur:verb-waits`
// (`timeoutMs=5000`), which `info` has no field for.
import { readFile, writeFile } from "node:fs/promises";
import { relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const here = (path) => fileURLToPath(new URL(path, import.meta.url));
const { name } = JSON.parse(await readFile(here("./package.json"), "utf8"));
const out = resolve(process.argv[2] ?? here(`./${name.replace(/^mur-verb-/, "")}.wasm`));
const loaded = await loadNatively();
// componentize-js is loaded only now: a declaration refused above needs no `npm install`.
// Not installed, Node's 15-line stack trace named no fix: said in one line, as a refusal is.
const { componentize, DEFAULT_FEATURES } = await import(
  "@bytecodealliance/componentize-js"
).catch((error) => {
  if (error?.code !== "ERR_MODULE_NOT_FOUND") throw error;
  console.error("build.mjs: componentize-js is not installed: run `npm install` first");
  process.exit(1);
});
// componentize-js names verb.js, in a crash's frames (`verb.js:12:36`) and in the
// component's bytes, relative to the working directory when that holds it
// (`src/NAME/verb.js:12:36` built from two directories up): built from here, it is
// `verb.js` wherever this runs from.
process.chdir(here("."));
const { component } = await componentize({
  sourcePath: here("./verb.js"),
  witPath: here("./wit"),
  worldName: "verb",
  disableFeatures: DEFAULT_FEATURES.filter((feature) => feature !== "stdio"),
});
const bytes = named(component, loaded);
await writeFile(out, bytes);
console.error(`wrote ${out} (${bytes.length} bytes)`);

/**
 * The verb's name and its `waits`, as verb.js gives them loaded by node. A declaration the kit refuses (a param's kind, a `waits`)
 * ends the build here in one line, `verb.js:LINE: why`: componentize-js would fail on
 * it too, with the reason deep in its trace. Any other failure to load natively is
 * componentize-js's to tell; the verb is then built unnamed.
 */
async function loadNatively() {
  try {
    const loaded = await import(new URL("./verb.js", import.meta.url).href);
    return { verbName: loaded.info().name, waits: loaded.verb?.waits };
  } catch (error) {
    const kit = await import(new URL("./kit.js", import.meta.url).href).catch(() => ({}));
    if (kit.DeclarationError !== undefined && error instanceof kit.DeclarationError) {
      // The line of the param at fault (`error.declared`, where it was made), else of
      // the `new Verb(` that judged it.
      console.error(`build.mjs: ${declaredAt(error.declared) || declaredAt(error.stack)}${error.message}`);
      process.exit(1);
    }
    console.error(`build.mjs: not naming the verb nor its wait (verb.js did not load natively: ${error.message}); verbs add will compile it before judging its name`);
    return undefined;
  }
}

/** `FILE:LINE: ` of the innermost frame of `stack` outside kit.js, else nothing. */
function declaredAt(stack) {
  for (const [, url, line] of String(stack ?? "").matchAll(/(file:\/\/[^\s)]+):(\d+):\d+/g)) {
    const path = fileURLToPath(url);
    if (path !== here("./kit.js")) return `${relative(here("."), path)}:${line}: `;
  }
  return "";
}

/** The component with custom sections naming the verb and what its tool waits on appended. */
function named(component, loaded) {
  if (loaded === undefined) return component;
  const { verbName, waits } = loaded;
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
