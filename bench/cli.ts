import { formatCsvImport, runCsvImport } from './csv-import.js';
import { formatInventoryImport, runInventoryImport } from './inventory-import.js';
import { parseOptions, USAGE } from './options.js';
import { formatResult, writeResult } from './report.js';
import { pendingCleanups, runBench } from './run.js';
import { formatScaling, runScaling } from './scaling.js';

/** `npm run bench -- …`: see bench/options.ts for the flags and README "Benchmarks" for the method. */

async function main(): Promise<number> {
  const options = parseOptions(process.argv.slice(2));
  if (options === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  if (options.csvImport) {
    const result = await runCsvImport(options);
    process.stdout.write(`${formatCsvImport(result)}\n`);
    process.stdout.write(`results: ${writeResult(options.out, `${options.engine}-csv-import-${result.meta.products}`, result)}\n`);
    return 0;
  }
  if (options.inventoryImport) {
    const result = await runInventoryImport(options);
    process.stdout.write(`${formatInventoryImport(result)}\n`);
    process.stdout.write(`results: ${writeResult(options.out, `${options.engine}-inventory-import-${result.inventory.rows}`, result)}\n`);
    return 0;
  }
  if (options.scaling) {
    const result = await runScaling(options);
    for (const run of result.runs) process.stdout.write(`${formatResult(run)}\n`);
    process.stdout.write(`\n${formatScaling(result)}\n`);
    process.stdout.write(`results: ${writeResult(options.out, `${options.engine}-scaling`, result)}\n`);
    return 0;
  }
  const result = await runBench(options, options.scale, options.scenarios);
  if (options.seedOnly) return 0;
  process.stdout.write(`${formatResult(result)}\n`);
  process.stdout.write(`results: ${writeResult(options.out, `${options.engine}-${options.scale}`, result)}\n`);
  // Failed requests mean a scenario measured errors, not the service: the run's numbers are not valid.
  return result.scenarios.some((s) => s.failures.non2xx + s.failures.errors + s.failures.timeouts > 0) ? 1 : 0;
}

/** An interrupted run still stops its children and drops its database. */
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    process.stderr.write(`bench: ${signal}, cleaning up\n`);
    void Promise.allSettled([...pendingCleanups].map((cleanup) => cleanup())).then(() => process.exit(130));
  });
}

main().then(
  (code) => process.exit(code),
  (error) => {
    process.stderr.write(`bench: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
