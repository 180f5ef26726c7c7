import { createReadStream, createWriteStream, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import type { Rig, ServerWindow } from './measure.js';
import { PRODUCT_OPTIONS, productFixture } from './seed/fixtures.js';

/**
 * Bulk import and export (`--scenario import-products,export-products`, part of a full run, after the
 * others: the import adds products). Over HTTP against the server under test, as a migration tool would:
 *
 * - import-products: an NDJSON file of N products (2 options × 3 values, 9 variants with their own price
 *   and stock) POSTed to /imports, timed from the POST to the job's `succeeded` (products/s), while one client
 *   GETs a product by id every 20 ms (p50/p99 against the same client before the import); the server's RSS
 *   before and its peak during the import; then the same file again (every line matched: 0 created).
 * - export-products: GET /exports/products of the whole store, timed to the last byte (products/s).
 *
 * N is the scale's product count (200 with --smoke).
 */

export const BULK_SCENARIOS = ['import-products', 'export-products'] as const;

export interface ImportRun {
  seconds: number;
  perSecond: number;
  created: number;
  updated: number;
  failed: number;
  /** the server's RSS before the POST and its peak until the job ended, MB */
  rssBeforeMb: number;
  rssPeakMb: number;
  /** GET /products/{id} latency during the import, ms */
  getP50: number;
  getP99: number;
}

export interface BulkResult {
  products: number;
  /** GET /products/{id} from the same client before the import, ms */
  idleGetP50?: number;
  idleGetP99?: number;
  import?: ImportRun;
  reimport?: ImportRun;
  export?: { seconds: number; perSecond: number; lines: number; mb: number };
}

const API = '/api/v1';

const variantsOf = (i: number, price: number) =>
  PRODUCT_OPTIONS[0].values.flatMap((size, s) =>
    PRODUCT_OPTIONS[1].values.map((color, c) => ({
      attributes: { Size: size, Color: color },
      price: price + s + c / 10,
      stock: (i + s + c) % 50,
    })),
  );

/** One import line: a product as POST /products takes it, keyed by its handle, with per-variant prices and stock. */
export function importLine(i: number) {
  const { title, description, price, status } = productFixture(i);
  return { title, handle: `import-${i}`, description, status, price, options: PRODUCT_OPTIONS, variants: variantsOf(i, price) };
}

export async function writeImportFile(path: string, count: number): Promise<void> {
  const out = createWriteStream(path);
  for (let i = 0; i < count; i++) {
    if (!out.write(`${JSON.stringify(importLine(i))}\n`)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
  }
  out.end();
  await finished(out);
}

const quantile = (values: number[], q: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * q))] ?? 0;
const round = (value: number, digits = 1) => Number(value.toFixed(digits));
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One API request of a bench client (a streamed body, if any, of `type`); its JSON answer, or a throw. */
export async function callApi(
  serverUrl: string,
  credential: string,
  method: string,
  path: string,
  body?: Readable,
  type = 'application/json',
) {
  const response = await fetch(`${serverUrl}${API}${path}`, {
    method,
    headers: { authorization: `Bearer ${credential}`, ...(body ? { 'content-type': type } : {}) },
    body: body as never,
    ...(body ? { duplex: 'half' } : {}),
  } as RequestInit);
  const text = await response.text();
  if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${text.slice(0, 300)}`);
  return JSON.parse(text);
}

const call = (rig: Rig, method: string, path: string, body?: Readable, type?: string) =>
  callApi(rig.server.url, rig.context.credential, method, path, body, type);

/** GET /products/{id} latencies, one request at a time with 20 ms between them, until `stop`. */
async function getLatencies(rig: Rig, stop: () => boolean, max = Number.POSITIVE_INFINITY): Promise<number[]> {
  const id = rig.context.seed.products[0].id;
  const ms: number[] = [];
  while (!stop() && ms.length < max) {
    const began = performance.now();
    await call(rig, 'GET', `/products/${id}`);
    ms.push(performance.now() - began);
    await pause(20);
  }
  return ms;
}

async function runImport(rig: Rig, file: string, products: number): Promise<ImportRun> {
  await rig.server.peer.request('reset');
  const before = await rig.server.peer.request<ServerWindow>('report');
  const began = performance.now();
  let job = (await call(rig, 'POST', '/imports?resource=products', Readable.from(createReadStream(file)), 'application/x-ndjson')).data;
  let done = false;
  const during = getLatencies(rig, () => done);
  while (job.status === 'queued' || job.status === 'running') {
    await pause(250);
    job = (await call(rig, 'GET', `/jobs/${job.id}`)).data;
  }
  const seconds = (performance.now() - began) / 1000;
  done = true;
  const latencies = await during;
  const window = await rig.server.peer.request<ServerWindow>('report');
  if (job.status !== 'succeeded') throw new Error(`the import job ended ${job.status}`);
  return {
    seconds: round(seconds, 2),
    perSecond: round(products / seconds),
    created: job.created,
    updated: job.updated,
    failed: job.failed,
    rssBeforeMb: round(before.rssMb),
    rssPeakMb: round(window.rssPeakMb),
    getP50: round(quantile(latencies, 0.5), 2),
    getP99: round(quantile(latencies, 0.99), 2),
  };
}

async function runExport(rig: Rig): Promise<BulkResult['export']> {
  const began = performance.now();
  const response = await fetch(`${rig.server.url}${API}/exports/products`, {
    headers: { authorization: `Bearer ${rig.context.credential}` },
  });
  if (!response.ok) throw new Error(`GET /exports/products: ${response.status}`);
  let lines = 0;
  let bytes = 0;
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    bytes += chunk.length;
    for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) lines++;
  }
  const seconds = (performance.now() - began) / 1000;
  return { seconds: round(seconds, 2), perSecond: round(lines / seconds), lines, mb: round(bytes / 1e6) };
}

/** The bulk scenarios asked for (`names` among BULK_SCENARIOS), in order: import, re-import, export. */
export async function measureBulk(rig: Rig, names: readonly string[], products: number): Promise<BulkResult> {
  const result: BulkResult = { products };
  if (names.includes('import-products')) {
    const file = join(tmpdir(), `storefront-bench-import-${process.pid}.ndjson`);
    try {
      await writeImportFile(file, products);
      const idle = await getLatencies(rig, () => false, 100);
      result.idleGetP50 = round(quantile(idle, 0.5), 2);
      result.idleGetP99 = round(quantile(idle, 0.99), 2);
      result.import = await runImport(rig, file, products);
      result.reimport = await runImport(rig, file, products);
    } finally {
      rmSync(file, { force: true });
    }
  }
  if (names.includes('export-products')) result.export = await runExport(rig);
  return result;
}

/** The report's lines, with the ratios that say what the figures mean. */
export function formatBulk(bulk: BulkResult | undefined, createProductRps: number | undefined): string[] {
  if (!bulk) return [];
  const lines = [`bulk (${bulk.products} products of 9 variants; absolute figures from a shared machine):`];
  const describe = (name: string, run: ImportRun) =>
    `  ${name}: ${run.perSecond}/s in ${run.seconds} s (created ${run.created}, updated ${run.updated}, failed ${run.failed})` +
    (createProductRps ? `, ${round(run.perSecond / createProductRps, 2)}x create-product of this run` : '') +
    `; RSS ${run.rssBeforeMb} -> peak ${run.rssPeakMb} MB (+${round(run.rssPeakMb - run.rssBeforeMb)}); get product p50/p99 ${run.getP50}/${run.getP99} ms`;
  if (bulk.import) lines.push(describe('import', bulk.import));
  if (bulk.import && bulk.idleGetP99 !== undefined)
    lines.push(`  get product before the import (same client): p50/p99 ${bulk.idleGetP50}/${bulk.idleGetP99} ms`);
  if (bulk.reimport && bulk.import) {
    lines.push(
      `${describe('re-import', bulk.reimport)}; time ${round(bulk.reimport.seconds / bulk.import.seconds, 2)}x the first import's`,
    );
  }
  if (bulk.export)
    lines.push(`  export: ${bulk.export.perSecond}/s (${bulk.export.lines} lines, ${bulk.export.mb} MB in ${bulk.export.seconds} s)`);
  return lines;
}
