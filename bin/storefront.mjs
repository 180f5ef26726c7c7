#!/usr/bin/env -S MALLOC_ARENA_MAX=2 node --max-semi-space-size=4 --heap-growing-percent=50 --liftoff-only
// Runs the compiled CLI when `npm run build` has produced it from the sources as they are now (its stamp:
// bin/build-stamp.mjs), else the TypeScript sources through tsx: a build older than the checkout never runs.
// --max-semi-space-size=4 (MB; Node 20's default grows to 16): V8's young generation is the part of the
// heap that grows with the request rate; capped at 8 the server measured 9–16 MB less RSS idle and
// 20–40 MB less after the same work, at no measurable CPU per request (docs/performance-history/notebook.md, "Round 2");
// 4 instead of 8 took the peak during 10,000 product creates from 157 to 144 MB (the heap V8 keeps, not data
// held: the live heap after each full collection was 36 MB either way) for 1% of their throughput
// (notebook, "Issue 26, third pass").
// --heap-growing-percent=50: after a full collection V8 lets the old generation grow to 1.5× what survived,
// instead of up to several times as much when the allocation rate is high (the server's peak RSS under load
// came from that: 191–214 MB at 10k products, 116–127 MB with 20–50; docs/performance-history/notebook.md, "Round 3: memory").
// --liftoff-only: the embedded engine's PostgreSQL (PGlite's WASM) is compiled by V8's baseline compiler
// alone, never again by TurboFan as it warms up: an idle embedded server measured 238 → 187 MB resident (with
// 16 MB of shared buffers; compiled build, restarted on a migrated data dir), at a cost in import throughput
// measured in docs/decisions.md, "The embedded engine's memory". On PostgreSQL nothing runs as WASM.
// MALLOC_ARENA_MAX=2: glibc's malloc gives each thread that allocates (V8's compiler and collector threads, libuv's
// pool) an arena of its own, up to 8 per core, and keeps each arena's freed pages; two arenas took the peak RSS of the
// bench's reads from 144 to 135 MB with no measurable CPU per request (docs/decisions.md, "Two malloc arenas").
// V8 reads them only at start, so they are given here (and in `npm start`); `serve --workers` passes them on to
// the workers. Flags given on the command line (`node --max-semi-space-size=16 bin/storefront.mjs serve`)
// replace them.
import { buildState } from './build-stamp.mjs';

const state = buildState();
if (state === 'fresh') {
  await import(new URL('../dist/src/cli/main.js', import.meta.url).href);
} else {
  if (state === 'stale') {
    process.stderr.write('storefront: dist/ was built from older sources; running the sources (npm run build compiles them again)\n');
  }
  const { register } = await import('tsx/esm/api');
  register();
  await import(new URL('../src/cli/main.ts', import.meta.url).href);
}
