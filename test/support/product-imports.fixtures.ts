import { sql } from 'kysely';
import { expect } from 'vitest';
import { type ImportHandlers, importJobKind } from '../../src/imports/import-job.js';
import { createUploadStore } from '../../src/imports/index.js';
import { runOneJob } from '../../src/jobs/runner.js';
import { createMediaStore } from '../../src/media/index.js';
import { importProductLine } from '../../src/products/products.import.js';
import type { ImportHandler } from '../../src/shared/index.js';
import type { TestContext, TestStore } from '../helpers.js';
import { postImport } from './jobs.fixtures.js';

/** Product import lines run through the import job with or without the products' batch applier (src/products/products.import-batch*.test.ts). */

export type Log = { warn(...args: unknown[]): void; error(object: object, message?: string): void };
export const quiet: Log = { warn: () => undefined, error: () => undefined };
export type Mode = 'batch' | 'per-line' | 'throwing';

/** Runs the store's import jobs with the products' batch applier, without it, or with one that writes then throws. */
async function runImports(t: TestContext, store: TestStore, mode: Mode, log: Log, batchMs: number) {
  const real = importProductLine({ config: t.config, media: createMediaStore(t.config, t.database) }) as ImportHandler;
  const products: ImportHandler =
    mode === 'batch'
      ? real
      : mode === 'per-line'
        ? { line: real.line }
        : {
            line: real.line,
            batch: async (...args) => {
              await real.batch?.(...args);
              throw new Error('batch applier bug');
            },
          };
  const handlers: ImportHandlers = { products };
  const kind = importJobKind({
    uploads: createUploadStore(t.config.dataDir, t.database),
    maxLineBytes: t.config.bodyLimit,
    handlers,
    batchLines: 100,
    batchMs,
    log,
    afterWork: t.afterWork,
  });
  const runner = { db: t.database.db, kinds: { import: kind }, leaseSeconds: 30, log: quiet };
  while (await runOneJob(runner, { storeId: store.id })) {}
}

/** POSTs the lines as an import and runs it (mode: see runImports); the finished job and its error rows. */
export async function importLines(
  t: TestContext,
  store: TestStore,
  lines: unknown[],
  mode: Mode = 'batch',
  log = quiet,
  batchMs = 3_600_000,
) {
  const posted = await postImport(t, store, 'products', lines);
  expect(posted.status).toBe(202);
  await runImports(t, store, mode, log, batchMs);
  const job = (await t.call(store, 'GET', `/jobs/${posted.body.data.id}`)).body.data;
  const errors = (await t.call(store, 'GET', `/jobs/${job.id}/errors?limit=100`)).body.data;
  return { job, errors };
}

export const OPTIONS = [
  { name: 'Size', values: ['S', 'M', 'L'] },
  { name: 'Color', values: ['Red', 'Blue', 'Green'] },
];

export function line(handle: string, price = 10, extra: object = {}) {
  return {
    title: ` Product ${handle} `,
    handle,
    description: `About ${handle}`,
    status: price > 50 ? 'disabled' : 'active',
    price,
    comparePrice: price + 5,
    options: OPTIONS,
    variants: [
      { attributes: { Size: 'M', Color: 'Blue' }, price: price + 2, stock: 4, sku: ` ${handle}-special ` },
      { attributes: { color: 'Red', size: 'L' }, salePrice: price + 9, stock: 7 },
    ],
    ...extra,
  };
}

export interface VariantOut {
  id: string;
  attributes: Record<string, string>;
  stock: number;
  [field: string]: unknown;
}
export interface ProductOut {
  id: string;
  handle: string;
  title: string;
  variants: VariantOut[];
  [field: string]: unknown;
}
export interface AttributeOut {
  name: string;
  values: { name: string }[];
}
export interface EventOut {
  type: string;
  data: { id: string; handle?: string; name?: string };
}

export const products = async (t: TestContext, store: TestStore) =>
  (await t.call(store, 'GET', '/products?limit=100&sort=title')).body.data as ProductOut[];
/**
 * The store's events in feed order, read from the table: the feed (GET /events) shows an event only once
 * every transaction of the server that began before it has ended, so on a shared PostgreSQL it can lag.
 */
export const events = async (t: TestContext, store: TestStore) =>
  (await sql<EventOut>`SELECT type, data FROM events WHERE store_id = ${store.id} ORDER BY xid, seq`.execute(t.database.db)).rows;

/** A product without what differs between two writes of the same body: ids and timestamps. */
export function comparable(product: ProductOut) {
  const { id: _id, createdAt: _created, updatedAt: _updated, variants, ...rest } = product;
  return { ...rest, variants: variants.map(({ id: _i, productId: _p, createdAt: _c, updatedAt: _u, ...v }) => v) };
}
export const namesOf = (attributes: AttributeOut[]) => attributes.map((a) => [a.name, a.values.map((v) => v.name)]);
export const isMBlue = (v: VariantOut) => v.attributes.Size === 'M' && v.attributes.Color === 'Blue';

/** Each variant's SKU with the attribute values it is linked to (variant_attribute_values). */
export async function linksOf(t: TestContext, store: TestStore) {
  const rows = await t.database.db
    .selectFrom('variant_attribute_values as l')
    .innerJoin('variants as v', (join) => join.onRef('v.store_id', '=', 'l.store_id').onRef('v.id', '=', 'l.variant_id'))
    .innerJoin('attribute_values as av', (join) => join.onRef('av.store_id', '=', 'l.store_id').onRef('av.id', '=', 'l.attribute_value_id'))
    .innerJoin('attributes as a', (join) => join.onRef('a.store_id', '=', 'av.store_id').onRef('a.id', '=', 'av.attribute_id'))
    .select(['v.sku', 'a.name as attribute', 'av.name as value', 'av.position'])
    .where('l.store_id', '=', store.id)
    .execute();
  return rows.map((row) => `${row.sku}:${row.attribute}=${row.value}@${row.position}`).sort();
}
