import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { callApi } from './bulk.js';
import { storeKey } from './csv-import.js';
import { type BenchTarget, createTarget } from './database.js';
import type { ServerWindow } from './measure.js';
import { type BenchOptions, SCALES } from './options.js';
import { type ServerChild, startServer } from './processes.js';
import { writeShopifyCsv } from './seed/shopify-file.js';
import { createSampler } from './system.js';

/**
 * `npm run bench -- --inventory-import`: on one fresh database and server, a Shopify product CSV of the
 * scale's rows / 16 products (8 variants each) is imported and timed; then a Shopify inventory CSV of the
 * scale's rows (each variant at two new locations, made from the store's own `GET /exports/inventory?
 * format=shopify`) is imported and timed; then `POST /inventory-levels/set` of 250 levels, 5 times. Reported
 * as ratios in the same run (the machine is shared): the inventory import's rows/s over the product import's
 * rows/s, and a level of `set` against a row of the product import (ms per level / ms per row). Each import's
 * CPU per row (the server process, and on PostgreSQL the bench database's backends) is reported too: on a
 * loaded machine it says what wall time cannot.
 */

const say = (text: string) => process.stderr.write(`${text}\n`);
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const round = (value: number, digits = 2) => Number(value.toFixed(digits));
const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1];

/** CPU an import took: the server's, the database backends' (0 on PGlite, inside the server), per row (ms). */
interface ImportCpu {
  serverMsPerRow: number;
  dbMsPerRow: number;
  /** busy cores on the machine beyond the server and its database during the import: other work */
  otherCores: number;
}

export interface InventoryImportResult {
  meta: { engine: string; date: string; node: string; loadAverage: number[][] };
  products: { products: number; rows: number; seconds: number; rowsPerSecond: number; cpu: ImportCpu };
  inventory: { rows: number; seconds: number; rowsPerSecond: number; created: number; failed: number; cpu: ImportCpu };
  set250: { runsMs: number[]; medianMs: number; msPerLevel: number };
  /** inventory rows/s over product rows/s */
  importRatio: number;
  /** set's ms per level over the product import's ms per row */
  setRatio: number;
  /** the inventory import's CPU per row (server + database) over the product import's */
  cpuRatio: number;
}

/** POSTs a file to /imports and waits for its job: the job, the seconds it took and the CPU per row of `rows`. */
async function timedImport(server: ServerChild, target: BenchTarget, key: string, resource: string, text: string, rows: number) {
  const sampler = createSampler(target.databaseUrl, { server: server.pid, ceiling: 0, driver: process.pid });
  try {
    await server.peer.request('reset');
    await sampler.start();
    const began = performance.now();
    let job = (await callApi(server.url, key, 'POST', `/imports?resource=${resource}`, Readable.from([text]), 'text/csv')).data;
    while (job.status === 'queued' || job.status === 'running') {
      await pause(250);
      job = (await callApi(server.url, key, 'GET', `/jobs/${job.id}`)).data;
    }
    const seconds = (performance.now() - began) / 1000;
    const system = await sampler.stop();
    const window = await server.peer.request<ServerWindow>('report');
    if (job.status !== 'succeeded') throw new Error(`the ${resource} import ended ${job.status}`);
    const cpu: ImportCpu = {
      serverMsPerRow: round(window.cpuMs / rows, 3),
      dbMsPerRow: round(system.dbCpuMs / rows, 3),
      otherCores: round(system.otherCpuMs / (seconds * 1000), 2),
    };
    return { job, seconds, cpu };
  } finally {
    await sampler.close();
  }
}

/** The store's inventory export (its Default levels) as rows at two new locations, each with a figure. */
async function inventoryFile(server: ServerChild, key: string): Promise<{ text: string; rows: number }> {
  const response = await fetch(`${server.url}/api/v1/exports/inventory?format=shopify`, { headers: { authorization: `Bearer ${key}` } });
  const [header, ...rows] = parse(await response.text()) as string[][];
  const location = header.indexOf('Location');
  const available = header.indexOf('Available (not editable)');
  const out = [header];
  rows.forEach((row, i) => {
    for (const [place, figure] of [
      ['Warehouse A', i % 50],
      ['Shop B', (i * 7) % 13],
    ] as const) {
      const cells = [...row];
      cells[location] = place;
      cells[available] = String(figure);
      cells[available + 1] = String(figure);
      out.push(cells);
    }
  });
  return { text: stringify(out), rows: out.length - 1 };
}

/** POST /inventory-levels/set of the first 250 levels, `times` times (each a new figure): the milliseconds of each. */
async function timedSets(server: ServerChild, key: string, times: number): Promise<number[]> {
  const levels = (await callApi(server.url, key, 'GET', '/inventory-levels?limit=250')).data as Record<string, unknown>[];
  if (levels.length !== 250) throw new Error(`only ${levels.length} levels to set`);
  const runs: number[] = [];
  for (let k = 0; k < times; k++) {
    const items = levels.map((level) => ({
      productId: level.productId,
      ...(level.variantId ? { variantId: level.variantId } : {}),
      locationId: level.locationId,
      available: 100 + k,
    }));
    const body = Readable.from([JSON.stringify({ items, reason: 'bench' })]);
    const began = performance.now();
    await callApi(server.url, key, 'POST', '/inventory-levels/set', body);
    runs.push(round(performance.now() - began, 1));
  }
  return runs;
}

export async function runInventoryImport(options: BenchOptions): Promise<InventoryImportResult> {
  const rows = options.smoke ? 400 : SCALES[options.scale];
  const products = Math.max(1, Math.round(rows / 16));
  const dir = mkdtempSync(join(tmpdir(), 'storefront-bench-inventory-'));
  const target = await createTarget(options.engine, options.databaseUrl);
  const loadAverage = [loadavg().map((n) => round(n))];
  let server: ServerChild | undefined;
  try {
    const key = await storeKey(target);
    mkdirSync(join(options.out, 'logs'), { recursive: true });
    server = await startServer(target, {
      jwtSecret: randomBytes(48).toString('base64url'),
      logFile: join(options.out, 'logs', 'server-inventory-import.log'),
      build: options.build,
      env: options.serverEnv,
    });
    await pause(1000);
    const productCsv = join(dir, 'products_export.csv');
    await writeShopifyCsv(productCsv, products);
    const productText = readFileSync(productCsv, 'utf8');
    const productRows = productText.trimEnd().split('\n').length - 1;
    say(`- product CSV import: ${products} products, ${productRows} rows (${options.engine})`);
    const product = await timedImport(server, target, key, 'products', productText, productRows);
    loadAverage.push(loadavg().map((n) => round(n)));
    const inventory = await inventoryFile(server, key);
    writeFileSync(join(dir, 'inventory_export.csv'), inventory.text);
    say(`- inventory CSV import: ${inventory.rows} rows`);
    const levels = await timedImport(server, target, key, 'inventory', inventory.text, inventory.rows);
    loadAverage.push(loadavg().map((n) => round(n)));
    say('- POST /inventory-levels/set of 250 levels, 5 times');
    const runsMs = await timedSets(server, key, 5);
    loadAverage.push(loadavg().map((n) => round(n)));
    const productRate = productRows / product.seconds;
    const inventoryRate = inventory.rows / levels.seconds;
    const setMedian = median(runsMs);
    return {
      meta: { engine: options.engine, date: new Date().toISOString(), node: process.version, loadAverage },
      products: { products, rows: productRows, seconds: round(product.seconds), rowsPerSecond: round(productRate, 1), cpu: product.cpu },
      inventory: {
        rows: inventory.rows,
        seconds: round(levels.seconds),
        rowsPerSecond: round(inventoryRate, 1),
        created: levels.job.created,
        failed: levels.job.failed,
        cpu: levels.cpu,
      },
      set250: { runsMs, medianMs: setMedian, msPerLevel: round(setMedian / 250, 3) },
      importRatio: round(inventoryRate / productRate, 3),
      setRatio: round(setMedian / 250 / (1000 / productRate), 3),
      cpuRatio: round(cpuPerRow(levels.cpu) / cpuPerRow(product.cpu), 3),
    };
  } finally {
    await server?.stop();
    await target.drop();
    rmSync(dir, { recursive: true, force: true });
  }
}

const cpuPerRow = (cpu: ImportCpu) => cpu.serverMsPerRow + cpu.dbMsPerRow;
const cpuText = (cpu: ImportCpu) => `CPU ${cpu.serverMsPerRow} srv + ${cpu.dbMsPerRow} db ms/row (other work: ${cpu.otherCores} cores)`;

export function formatInventoryImport(result: InventoryImportResult): string {
  const { meta, products, inventory, set250 } = result;
  return [
    `inventory bench (${meta.engine}; load average ${meta.loadAverage.map((l) => l.join('/')).join(' -> ')})`,
    `product CSV import: ${products.products} products, ${products.rows} rows in ${products.seconds} s = ${products.rowsPerSecond} rows/s; ${cpuText(products.cpu)}`,
    `inventory CSV import: ${inventory.rows} rows in ${inventory.seconds} s = ${inventory.rowsPerSecond} rows/s (created ${inventory.created}, failed ${inventory.failed}); ${cpuText(inventory.cpu)}`,
    `set of 250 levels: ${set250.runsMs.join(', ')} ms (median ${set250.medianMs} ms, ${set250.msPerLevel} ms a level)`,
    `inventory rows/s / product rows/s: ${result.importRatio}; CPU per row, inventory / product: ${result.cpuRatio}; set ms a level / product import ms a row: ${result.setRatio}`,
  ].join('\n');
}
