#!/usr/bin/env -S node --max-semi-space-size=8
// Runs the compiled CLI when `npm run build` has produced it, else the TypeScript sources through tsx.
// --max-semi-space-size=8 (MB; Node 20's default grows to 16): V8's young generation is the part of the
// heap that grows with the request rate; capped at 8 the server measured 9–16 MB less RSS idle and
// 20–40 MB less after the same work, at no measurable CPU per request (docs/performance.md, "Round 2").
// V8 reads it only at start, so it is given here (and in `npm start`); `serve --workers` passes it on to
// the workers. A flag given on the command line (`node --max-semi-space-size=16 bin/storefront.mjs serve`)
// replaces it.
import { existsSync } from 'node:fs';

const compiled = new URL('../dist/src/cli.js', import.meta.url);
if (existsSync(compiled)) {
  await import(compiled.href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import(new URL('../src/cli.ts', import.meta.url).href);
}
