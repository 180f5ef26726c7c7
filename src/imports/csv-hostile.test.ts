import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, setupTestApp, type TestContext } from '../../test/helpers.js';
import { csvRow, importCsv, postCsv, productByHandle } from '../../test/support/csv.fixtures.js';
import { storedUploads } from '../../test/support/jobs.fixtures.js';

/**
 * Hostile CSV files (docs/csv-import.md, "Hostile files"; issue 35 items 1 and 8): a product's rows are capped
 * (2,048 variant rows + 250 image rows; an empty continuation row counts), rows before the first product are
 * errors, a header row naming a column twice is refused. The memory figure of a 30 MB file is held by
 * test/csv-memory.system.test.ts.
 */

let t: TestContext;
beforeAll(async () => {
  t = await setupTestApp();
});
afterAll(() => t.close());

const MAX_PRODUCT_ROWS = 2_048 + 250;
const HEADER = csvRow(['Handle', 'Title', 'Option1 Name', 'Option1 Value', 'Variant Price', 'Image Src']);
const rows = (n: number, row: (i: number) => string) => Array.from({ length: n }, (_, i) => row(i)).join('\n');

describe('Shopify product CSV: the rows of one product are capped', () => {
  it('a product with more rows than it may have (empty continuation rows counted) is one error; the next product imports', async () => {
    const store = await t.newStore();
    const file = [
      HEADER,
      csvRow(['big', 'Big', 'Size', 'S0', '10', '']),
      // a few real variant rows, then empty rows: together one more than a product may have
      rows(9, (i) => csvRow(['big', '', '', `S${i + 1}`, '10', ''])),
      rows(MAX_PRODUCT_ROWS - 9, () => ',,,,,'),
      csvRow(['next', 'Next', 'Title', 'Default Title', '5', '']),
    ].join('\n');
    const { job, errors } = await importCsv(t, store, 'products', file);
    expect(job).toMatchObject({ status: 'succeeded', total: 2, processed: 2, created: 1, failed: 1 });
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ line: 2, column: 'Handle', code: 'VALIDATION_ERROR' });
    expect(errors[0].message).toContain(`${MAX_PRODUCT_ROWS + 1} rows`);
    expect((await t.call(store, 'GET', '/products?handle=big')).body.data).toEqual([]);
    expect(await productByHandle(t, store, 'next')).toMatchObject({ title: 'Next', price: 5 });
  });

  it('a product of exactly the rows it may have (variants, images and empty rows) imports', async () => {
    const store = await t.newStore();
    const file = [
      HEADER,
      csvRow(['full', 'Full', 'Size', 'S0', '10', 'https://cdn.example/0.jpg']),
      rows(2, (i) => csvRow(['full', '', '', `S${i + 1}`, '11', ''])),
      rows(3, (i) => csvRow(['full', '', '', '', '', `https://cdn.example/${i + 1}.jpg`])),
      rows(MAX_PRODUCT_ROWS - 6, () => ',,,,,'),
    ].join('\n');
    const { job, errors } = await importCsv(t, store, 'products', file);
    expect(errors).toEqual([]);
    expect(job).toMatchObject({ total: 1, created: 1, failed: 0 });
    const full = await productByHandle(t, store, 'full');
    expect(full.variants).toHaveLength(3);
    expect(full.image).toHaveLength(4);
  });

  it('rows before the first product are one error of their lines; the products after them import', async () => {
    const store = await t.newStore();
    const file = [
      HEADER,
      rows(5, (i) => csvRow(['', '', '', `S${i}`, '10', ''])),
      csvRow(['first', 'First', 'Title', 'Default Title', '7', '']),
    ].join('\n');
    const { job, errors } = await importCsv(t, store, 'products', file);
    expect(job).toMatchObject({ status: 'succeeded', total: 2, processed: 2, created: 1, failed: 1 });
    expect(errors).toEqual([expect.objectContaining({ line: 2, column: 'Handle', code: 'VALIDATION_ERROR' })]);
    expect(errors[0].message).toMatch(/before the first product/);
    expect(await productByHandle(t, store, 'first')).toMatchObject({ price: 7 });
  });
});

describe('a CSV header row naming a column twice', () => {
  it('is a 400 naming the column (in any case), and keeps no file', async () => {
    const store = await t.newStore();
    const posted = await postCsv(t, store, 'products', 'Handle,Title,title,Variant Price\nshirt,Shirt,Other,10\n');
    const error = expectError(posted, 400, 'VALIDATION_ERROR');
    expect(error.message).toContain('title');
    expect(error.details).toEqual([{ field: 'title', in: 'body', message: 'names a column the header row already has' }]);
    await expect.poll(() => storedUploads(t, store.id), { timeout: 30_000, interval: 100 }).toEqual([]);
    expect((await t.call(store, 'GET', '/jobs')).body.data).toEqual([]);
  });

  it('unnamed columns may repeat (a spreadsheet saves its empty trailing columns)', async () => {
    const store = await t.newStore();
    const { job, errors } = await importCsv(t, store, 'products', 'Handle,Title,Variant Price,,\nshirt,Shirt,10,,\n');
    expect(errors).toEqual([]);
    expect(job).toMatchObject({ created: 1 });
  });
});
