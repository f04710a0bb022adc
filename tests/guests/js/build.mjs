// Componentize shout.js against wit/verb.wit: node build.mjs <out.wasm>
// Every optional feature is disabled, so the component imports nothing: no
// stdio, random, clocks or http — a verb needs none of them.
import { componentize, DEFAULT_FEATURES } from '@bytecodealliance/componentize-js';
import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

const here = (p) => fileURLToPath(new URL(p, import.meta.url));
const out = process.argv[2] ?? here('./shout.wasm');
const { component } = await componentize({
  sourcePath: here('./shout.js'),
  witPath: here('../../../wit/deps/verb-0.1.0'),
  worldName: 'verb',
  disableFeatures: DEFAULT_FEATURES,
});
await writeFile(out, component);
console.error(`wrote ${out} (${component.length} bytes)`);
