/**
 * The server under test: the service's own `storefront serve` (runServe, from the compiled build or the
 * sources, BENCH_SERVER_SRC), given the bench's own after-work, whose events the event-cost rounds switch
 * off and on (bench/instrument.mjs emits `storefront-bench:skip-events` in this process when told over IPC).
 * Nothing in src/ knows about the switch: the after-work is passed in, as src/app.ts passes its own.
 */
const source = process.env.BENCH_SERVER_SRC;
if (!source) throw new Error('bench/serve.mjs runs under the bench (BENCH_SERVER_SRC names the server sources)');
const ext = process.env.BENCH_SERVER_EXT === 'ts' ? 'ts' : 'js';
const [command, flag, workers] = process.argv.slice(2);
if (command !== 'serve' || (flag !== undefined && flag !== '--workers'))
  throw new Error(`bench/serve.mjs: serve [--workers N], not ${process.argv.slice(2)}`);

let appending = true;
process.on('storefront-bench:skip-events', (skip) => {
  appending = skip !== true;
});

const { runServe } = await import(`${source}/cluster.${ext}`);
await runServe(workers, async () => {
  const { appAfterWork } = await import(`${source}/app.${ext}`);
  return { afterWork: appAfterWork({ appendsEvents: () => appending }) };
});
