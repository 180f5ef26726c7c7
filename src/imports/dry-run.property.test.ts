import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setupTestApp, type TestContext, type TestStore } from '../../test/helpers.js';
import { csvFixture, csvRow, type JobRow } from '../../test/support/csv.fixtures.js';
import { runOneJob } from '../jobs/index.js';
import { createMediaStore } from '../media/index.js';
import { createUploadStore, importJobKinds } from './index.js';

/**
 * The dry run's promise (docs/imports.md, "Dry runs"): for any file, a dry run's counters and error rows are the
 * ones a real run on the same starting data then gives. Files are generated small, and run in batches of two
 * lines, so what one batch did (rolled back in a dry run) meets the lines of the next ones as often as possible.
 */

let t: TestContext;
beforeAll(async () => {
  t = await setupTestApp();
});
afterAll(() => t.close());

const quiet = { warn: () => undefined, error: () => undefined };

async function runJobs(store: TestStore) {
  const ctx = { config: t.config, media: createMediaStore(t.config, t.database), afterWork: t.afterWork };
  const kinds = importJobKinds(ctx, createUploadStore(t.config.dataDir, t.database), quiet, { lines: 2, ms: 3_600_000 });
  while (await runOneJob({ db: t.database.db, kinds, leaseSeconds: 30, log: quiet }, { storeId: store.id })) {}
}

/** What a run reports: its counters and its error and warning rows. */
async function report(store: TestStore, body: string, contentType: string, dryRun: boolean) {
  const posted = await t.call(store, 'POST', `/imports?resource=products${dryRun ? '&dryRun=true' : ''}`, body, {
    'content-type': contentType,
  });
  expect(posted.status, JSON.stringify(posted.body)).toBe(202);
  await runJobs(store);
  const id = posted.body.data.id;
  const { status, total, processed, created, updated, failed, warnings } = (await t.call(store, 'GET', `/jobs/${id}`)).body.data;
  const errors = (await t.call(store, 'GET', `/jobs/${id}/errors?limit=100`)).body.data;
  return { counters: { status, total, processed, created, updated, failed, warnings }, errors };
}

/** A store holding the starting data: a product `b` with sizes, and `shared` with one variant SKU. */
async function startingStore(): Promise<TestStore> {
  const store = await t.newStore();
  for (const body of [
    { title: 'B', handle: 'b', options: [{ name: 'Size', values: ['S', 'M'] }] },
    { title: 'Shared', handle: 'shared', sku: 'SKU-1', price: 4 },
  ]) {
    const created = await t.call(store, 'POST', '/products', body);
    expect(created.status).toBe(201);
  }
  return store;
}

async function expectSameReports(body: string, contentType: string) {
  const dry = await report(await startingStore(), body, contentType, true);
  const real = await report(await startingStore(), body, contentType, false);
  expect(dry).toEqual(real);
  return real;
}

// Handles that repeat, differ only by case or slug, and name the store's own products.
const handle = fc.constantFrom('a', 'A', 'a ', 'b', 'c', 'shared', 'new-one');
// mostly valid values, so lines get as far as meeting each other; sometimes a bad one
const price = fc.constantFrom(1, 2.5, 1, -1);
const sku = fc.option(fc.constantFrom('SKU-1', 'SKU-2', 'SKU-3'), { nil: undefined });
const sizes = fc.option(fc.subarray(['S', 'M', 'L'], { minLength: 1 }), { nil: undefined });

const ndjsonLine = fc.record(
  {
    handle,
    title: fc.constantFrom('One', 'Two', 'One', ''),
    price,
    sku,
    options: sizes.map((values) => (values ? [{ name: 'Size', values }] : undefined)),
    // valid only where the product has the size: a line that updates may say what a create could not
    variants: fc
      .option(fc.constantFrom('S', 'L'), { nil: undefined })
      .map((size) => (size ? [{ attributes: { Size: size }, price: 3 }] : undefined)),
  },
  { requiredKeys: ['handle', 'title', 'price'] },
);

type NdjsonLine = typeof ndjsonLine extends fc.Arbitrary<infer T> ? T : never;
const sizeOfTheFirst: NdjsonLine[] = [
  { handle: 'a', title: 'One', price: 1, options: [{ name: 'Size', values: ['S', 'M'] }] },
  { handle: 'c', title: 'Two', price: 1 },
  { handle: 'A', title: 'One', price: 1, variants: [{ attributes: { Size: 'S' }, price: 3 }] },
];

const csvRecord = fc.record({ handle, title: fc.constantFrom('One', 'Two', ''), size: fc.constantFrom('S', 'M', ''), price, sku });
type CsvRecord = typeof csvRecord extends fc.Arbitrary<infer T> ? T : never;

function shopifyCsv(records: CsvRecord[]): string {
  const header = ['Handle', 'Title', 'Option1 Name', 'Option1 Value', 'Variant Price', 'Variant SKU'];
  const rows = records.map((r) => [r.handle, r.title, r.size ? 'Size' : 'Title', r.size || 'Default Title', r.price, r.sku ?? '']);
  return [header, ...rows].map((row) => csvRow(row)).join('\n');
}

describe('a dry run reports what the real run then does', () => {
  it.each([
    'woocommerce-sample.csv',
    'woocommerce-sample-products.csv',
  ])("for WooCommerce's own sample (%s), whose variations meet their product again in a later batch", async (name) => {
    const real = await expectSameReports(csvFixture(name), 'text/csv');
    expect(real.counters).toMatchObject({ status: 'succeeded', failed: 0 });
  }, 120_000);

  it('for the warning rows of a Shopify CSV: handles made slugs and SKUs made up, in every batch', async () => {
    const records: CsvRecord[] = [
      { handle: 'A', title: 'One', size: 'S', price: 1, sku: undefined },
      { handle: 'A', title: '', size: 'M', price: 1, sku: undefined },
      { handle: 'c', title: 'Two', size: '', price: 1, sku: undefined },
      { handle: 'a ', title: 'One', size: '', price: 1, sku: 'SKU-2' },
      { handle: 'new-one', title: 'Two', size: 'S', price: -1, sku: undefined },
    ];
    const real = await expectSameReports(shopifyCsv(records), 'text/csv');
    expect(real.counters.warnings).toBeGreaterThan(1);
    expect(real.errors.filter((row: JobRow) => row.level === 'warning')).toHaveLength(real.counters.warnings);
  }, 120_000);

  it('for generated NDJSON files', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(ndjsonLine, { minLength: 1, maxLength: 7 }), async (lines) => {
        const body = lines.map((line) => JSON.stringify(JSON.parse(JSON.stringify(line)))).join('\n');
        await expectSameReports(body, 'application/x-ndjson');
      }),
      // always tried: a size only the product of the first batch has, named by a line of the second
      {
        numRuns: 25,
        examples: [[sizeOfTheFirst]],
      },
    );
  }, 600_000);

  it('for generated Shopify CSV files', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(csvRecord, { minLength: 1, maxLength: 7 }), async (records) => {
        await expectSameReports(shopifyCsv(records), 'text/csv');
      }),
      { numRuns: 25 },
    );
  }, 600_000);
});
