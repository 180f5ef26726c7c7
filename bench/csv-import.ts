import { randomBytes } from 'node:crypto';
import { createReadStream, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { createApiKey } from '../src/api-keys/index.js';
import { openDatabase } from '../src/db/database.js';
import { migrate } from '../src/db/migrate.js';
import { createStore } from '../src/stores/index.js';
import { callApi } from './bulk.js';
import { type BenchTarget, createTarget } from './database.js';
import type { ServerWindow } from './measure.js';
import { type BenchOptions, SCALES } from './options.js';
import { type ServerChild, startServer } from './processes.js';
import { formatProfile, summarizeProfile } from './profile.js';
import { writeEquivalentNdjson, writeShopifyCsv } from './seed/shopify-file.js';
import { createSampler } from './system.js';

/**
 * `npm run bench -- --csv-import`: a Shopify product CSV (bench/seed/shopify-file.ts: current headers, 3
 * options, 8 variants, image rows, a metafield column) against the NDJSON file of the same import lines,
 * each POSTed to /imports of a fresh database and a fresh server (so neither import meets the other's rows
 * or heap), timed from the POST to the job's `succeeded`. Reported as the CSV import's products/s over the
 * NDJSON import's in the same run, and per import the server's RSS growth: its peak during the import
 * (the kernel's high-water mark, VmHWM, cleared at the POST) minus its RSS at the POST. CPU per product
 * (server process and, on PostgreSQL, the bench database's backends) is reported too: on a loaded machine
 * the CPU ratio says what the wall ratio cannot. With --rounds N, N pairs in alternating order; with
 * --csv-only, N CSV imports and no NDJSON side.
 */

const say = (text: string) => process.stderr.write(`${text}\n`);
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const round = (value: number, digits = 1) => Number(value.toFixed(digits));
const MB = 1024 * 1024;

export type ImportFormat = 'csv' | 'ndjson';

export interface FormatRun {
  format: ImportFormat;
  seconds: number;
  perSecond: number;
  created: number;
  failed: number;
  serverCpuSeconds: number;
  /** PostgreSQL: CPU of the bench database's backends (0 on PGlite, which runs inside the server) */
  dbCpuSeconds: number;
  /** (server + database CPU) / products, ms */
  cpuMsPerProduct: number;
  /** busy cores on the machine beyond the server and its database during the import: other work */
  otherCores: number;
  rssBeforeMb: number;
  rssPeakMb: number;
  rssGrowthMb: number;
  /** at the POST → when the job ended: V8's heap and the memory outside it (PGlite's WASM memory is an ArrayBuffer, never shrunk) */
  heapTotalMb: [number, number];
  externalMb: [number, number];
}

export interface CsvImportResult {
  meta: { engine: string; products: number; date: string; node: string; csvMb: number; ndjsonMb: number; loadAverage: number[][] };
  /** none with --csv-only */
  pairs: { csv: FormatRun; ndjson: FormatRun; ratio: number; cpuRatio: number }[];
  /** every CSV import (the pairs' or, with --csv-only, the only ones) */
  csvRuns: FormatRun[];
  /** medians over the pairs (the only pair with --rounds 1); null with --csv-only */
  ratio: number | null;
  cpuRatio: number | null;
  maxRssGrowthMb: { csv: number; ndjson: number | null };
  targets: { target: string; value: number; met: boolean }[];
}

/** A store and an API key on the fresh database, written before the server starts. */
export async function storeKey(target: BenchTarget): Promise<string> {
  const database = await openDatabase({ databaseUrl: target.databaseUrl, dataDir: target.dataDir, poolSize: 2 });
  try {
    await migrate(database.db);
    const store = await createStore(database.db, { slug: 'bench', name: 'Bench store' });
    return (await createApiKey(database.db, store.id, { name: 'bench', scopes: ['*'] })).key;
  } finally {
    await database.close();
  }
}

const call = (server: ServerChild, key: string, method: string, path: string, body?: Readable, type?: string) =>
  callApi(server.url, key, method, path, body, type);

const TYPES: Record<ImportFormat, string> = { csv: 'text/csv', ndjson: 'application/x-ndjson' };

/** POST to the job's end, inside a measurement window of the server (RSS peak, CPU) and of the machine. */
export async function timedImport(
  server: ServerChild,
  key: string,
  target: BenchTarget,
  file: string,
  format: ImportFormat,
  products: number,
) {
  const sampler = createSampler(target.databaseUrl, { server: server.pid, ceiling: 0, driver: process.pid });
  try {
    await server.peer.request('reset');
    const before = await server.peer.request<ServerWindow>('report');
    await sampler.start();
    const began = performance.now();
    let job = (await call(server, key, 'POST', '/imports?resource=products', Readable.from(createReadStream(file)), TYPES[format])).data;
    while (job.status === 'queued' || job.status === 'running') {
      await pause(250);
      job = (await call(server, key, 'GET', `/jobs/${job.id}`)).data;
    }
    const seconds = (performance.now() - began) / 1000;
    const system = await sampler.stop();
    const window = await server.peer.request<ServerWindow>('report');
    if (job.status !== 'succeeded') throw new Error(`the ${format} import ended ${job.status}`);
    const cpuMs = window.cpuMs + system.dbCpuMs;
    return {
      format,
      seconds: round(seconds, 2),
      perSecond: round(products / seconds),
      created: job.created as number,
      failed: job.failed as number,
      serverCpuSeconds: round(window.cpuMs / 1000, 2),
      dbCpuSeconds: round(system.dbCpuMs / 1000, 2),
      cpuMsPerProduct: round(cpuMs / products, 3),
      otherCores: round(system.otherCpuMs / (seconds * 1000), 2),
      rssBeforeMb: round(before.rssMb),
      rssPeakMb: round(window.rssPeakMb),
      rssGrowthMb: round(window.rssPeakMb - before.rssMb),
      heapTotalMb: [round(before.heapTotalMb), round(window.heapTotalMb)],
      externalMb: [round(before.externalMb), round(window.externalMb)],
    } satisfies FormatRun;
  } finally {
    await sampler.close();
  }
}

/**
 * A migrated database holding the bench store and its API key, made once: each import runs on a copy of it
 * (BenchTarget.clone), not on a database made and opened again (on PGlite each open is a WASM boot, ~3 s of CPU).
 */
interface BlankStore {
  target: BenchTarget;
  key: string;
}

async function blankStore(options: BenchOptions): Promise<BlankStore> {
  const target = await createTarget(options.engine, options.databaseUrl);
  try {
    return { target, key: await storeKey(target) };
  } catch (error) {
    await target.drop();
    throw error;
  }
}

/** One import on a database (a copy of the blank store's) and server of its own, both gone afterwards. */
async function importFresh(
  options: BenchOptions,
  blank: BlankStore,
  file: string,
  format: ImportFormat,
  products: number,
  logs: string,
): Promise<FormatRun> {
  const target = await blank.target.clone();
  const { key } = blank;
  let server: ServerChild | undefined;
  try {
    server = await startServer(target, {
      jwtSecret: randomBytes(48).toString('base64url'),
      logFile: join(logs, `server-csv-import-${format}.log`),
      build: options.build,
      env: options.serverEnv,
    });
    await pause(1000); // past startup's own work (migrations checked, timers armed)
    const profileFile = join(options.out, 'profiles', `${options.engine}-csv-import-${format}.cpuprofile`);
    if (options.cpuProf) await server.peer.request('profile-start');
    const run = await timedImport(server, key, target, file, format, products);
    if (options.cpuProf) {
      mkdirSync(join(options.out, 'profiles'), { recursive: true });
      await server.peer.request('profile-stop', { file: profileFile });
      say(`${format} import profile ${profileFile}:\n${formatProfile(summarizeProfile(profileFile), 15)}`);
    }
    if (run.created !== products || run.failed !== 0) throw new Error(`the ${format} import created ${run.created}, failed ${run.failed}`);
    return run;
  } finally {
    await server?.stop();
    await target.drop();
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1];

export async function runCsvImport(options: BenchOptions): Promise<CsvImportResult> {
  const products = options.smoke ? 300 : SCALES[options.scale];
  const logs = join(options.out, 'logs');
  mkdirSync(logs, { recursive: true });
  const dir = mkdtempSync(join(tmpdir(), 'storefront-bench-csv-'));
  const csv = join(dir, 'products_export.csv');
  const ndjson = join(dir, 'products.ndjson');
  const loadAverage = [loadavg().map((n) => round(n, 2))];
  let blank: BlankStore | undefined;
  try {
    const began = performance.now();
    const params = await writeShopifyCsv(csv, products);
    const lines = await writeEquivalentNdjson(csv, params, ndjson);
    if (lines !== products) throw new Error(`the CSV reads as ${lines} import lines, not ${products}`);
    const [csvMb, ndjsonMb] = [csv, ndjson].map((file) => round(statSync(file).size / MB));
    say(`wrote ${products} products: CSV ${csvMb} MB, NDJSON ${ndjsonMb} MB in ${((performance.now() - began) / 1000).toFixed(1)} s`);
    const store = await blankStore(options);
    blank = store;
    const pairs: CsvImportResult['pairs'] = [];
    const csvRuns: FormatRun[] = [];
    const importOne = async (format: ImportFormat, k: number) => {
      say(`- ${format} import ${k + 1}/${options.rounds} (${options.engine}, fresh database)`);
      const run = await importFresh(options, store, format === 'csv' ? csv : ndjson, format, products, logs);
      say(`  ${describeRun(run)}`);
      loadAverage.push(loadavg().map((n) => round(n, 2)));
      return run;
    };
    for (let k = 0; k < options.rounds; k++) {
      if (options.csvOnly) {
        csvRuns.push(await importOne('csv', k));
        continue;
      }
      const order: ImportFormat[] = k % 2 === 0 ? ['ndjson', 'csv'] : ['csv', 'ndjson'];
      const runs: Partial<Record<ImportFormat, FormatRun>> = {};
      for (const format of order) runs[format] = await importOne(format, k);
      const { csv: c, ndjson: n } = runs as Record<ImportFormat, FormatRun>;
      csvRuns.push(c);
      pairs.push({
        csv: c,
        ndjson: n,
        ratio: round(c.perSecond / n.perSecond, 3),
        cpuRatio: round(n.cpuMsPerProduct / c.cpuMsPerProduct, 3),
      });
    }
    const ratio = pairs.length ? median(pairs.map((pair) => pair.ratio)) : null;
    const maxRssGrowthMb = {
      csv: Math.max(...csvRuns.map((run) => run.rssGrowthMb)),
      ndjson: pairs.length ? Math.max(...pairs.map((pair) => pair.ndjson.rssGrowthMb)) : null,
    };
    const rssTarget = {
      target: 'server RSS growth during the CSV import <= 100 MB',
      value: maxRssGrowthMb.csv,
      met: maxRssGrowthMb.csv <= 100,
    };
    return {
      meta: { engine: options.engine, products, date: new Date().toISOString(), node: process.version, csvMb, ndjsonMb, loadAverage },
      pairs,
      csvRuns,
      ratio,
      cpuRatio: pairs.length ? median(pairs.map((pair) => pair.cpuRatio)) : null,
      maxRssGrowthMb,
      targets: [
        ...(ratio === null
          ? []
          : [{ target: 'CSV products/s >= 0.8 x NDJSON products/s (median of pairs)', value: ratio, met: ratio >= 0.8 }]),
        rssTarget,
      ],
    };
  } finally {
    await blank?.target.drop();
    rmSync(dir, { recursive: true, force: true });
  }
}

function describeRun(run: FormatRun): string {
  return (
    `${run.format}: ${run.perSecond} products/s (${run.seconds} s; created ${run.created}, failed ${run.failed}); ` +
    `CPU ${run.serverCpuSeconds} s server + ${run.dbCpuSeconds} s database = ${run.cpuMsPerProduct} ms/product; ` +
    `other work ${run.otherCores} cores; RSS ${run.rssBeforeMb} -> peak ${run.rssPeakMb} MB (+${run.rssGrowthMb}; ` +
    `V8 heap ${run.heapTotalMb.join(' -> ')}, external ${run.externalMb.join(' -> ')} MB)`
  );
}

export function formatCsvImport(result: CsvImportResult): string {
  const { meta } = result;
  return [
    `CSV import vs NDJSON import (${meta.engine}, ${meta.products} products of 8 variants; CSV ${meta.csvMb} MB, NDJSON ${meta.ndjsonMb} MB; ` +
      `load average ${meta.loadAverage.map((l) => l.join('/')).join(' -> ')})`,
    ...result.pairs.flatMap((pair, k) => [
      `pair ${k + 1}:`,
      `  ${describeRun(pair.ndjson)}`,
      `  ${describeRun(pair.csv)}`,
      `  CSV / NDJSON: ${pair.ratio} x products/s (wall), ${pair.cpuRatio} x (CPU per product, NDJSON's over CSV's)`,
    ]),
    ...(result.pairs.length ? [] : result.csvRuns.map((run, k) => `CSV import ${k + 1} (no NDJSON side): ${describeRun(run)}`)),
    result.ratio === null
      ? `RSS growth max: CSV +${result.maxRssGrowthMb.csv} MB`
      : `median CSV / NDJSON: ${result.ratio} x products/s, ${result.cpuRatio} x CPU; RSS growth max: CSV +${result.maxRssGrowthMb.csv} MB, NDJSON +${result.maxRssGrowthMb.ndjson} MB`,
    ...result.targets.map((t) => `${t.met ? 'met   ' : 'MISSED'} ${t.target}: ${t.value}`),
  ].join('\n');
}
