import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, setupTestApp, type TestContext } from '../../test/helpers.js';
import { csvRow, importCsv, postCsv, productByHandle } from '../../test/support/csv.fixtures.js';
import { runStoreJobs, runStoreJobsResumed, storedUploads } from '../../test/support/jobs.fixtures.js';

let t: TestContext;
beforeAll(async () => {
  t = await setupTestApp();
});
afterAll(() => t.close());

const HEADER = ['Handle', 'Title', 'Body (HTML)', 'Option1 Name', 'Option1 Value', 'Variant Price', 'Variant Inventory Qty'];

/** A legacy Shopify file of `n` simple products, one record each. */
const simpleProducts = (n: number, delimiter = ',') =>
  [HEADER, ...Array.from({ length: n }, (_, i) => [`p-${i}`, `Product ${i}`, `About ${i}`, 'Title', 'Default Title', `${i}.5`, `${i}`])]
    .map((row) => csvRow(row, delimiter))
    .join('\n');

describe('POST /imports with text/csv', () => {
  it('refuses a header row no layout of the resource knows, naming the missing columns, and keeps no file', async () => {
    const store = await t.newStore();
    const posted = await postCsv(t, store, 'products', 'Name,Price\nShirt,10\n');
    const error = expectError(posted, 400, 'VALIDATION_ERROR');
    expect(error.details).toContainEqual({ field: 'Handle or URL handle', in: 'body', message: 'missing column (shopify products)' });
    expect(error.details).toContainEqual({ field: 'Title', in: 'body', message: 'missing column (shopify products)' });
    expect(await storedUploads(t, store.id)).toEqual([]);
    expect((await t.call(store, 'GET', '/jobs')).body.data).toEqual([]);
  });

  it('refuses a CSV of a resource no layout reads, and an unknown format, before reading the body', async () => {
    const store = await t.newStore();
    expectError(await postCsv(t, store, 'collections', 'Handle,Title\na,A\n'), 400, 'VALIDATION_ERROR');
    const format = expectError(await postCsv(t, store, 'products', simpleProducts(1), '&format=magento'), 400, 'VALIDATION_ERROR');
    expect(format.details[0]).toMatchObject({ field: 'format', in: 'query' });
    // an empty file has no header row
    expectError(await postCsv(t, store, 'products', ''), 400, 'VALIDATION_ERROR');
    // a refused upload's file is removed once its answer is sent (onResponse): polled, with room for a busy machine (vitest's default 1 s was not)
    await expect.poll(() => storedUploads(t, store.id), { timeout: 30_000, interval: 100 }).toEqual([]);
  });

  it('reads a byte-order mark, semicolons, CRLF and newlines inside quoted cells; header names in any case', async () => {
    const store = await t.newStore();
    const rows = [
      ['HANDLE', 'title', 'body (html)', 'Tags', 'Variant Price'],
      ['semi', 'Semi; colon', 'Line one\r\nLine "two"', 'a, b', '12,50'],
    ];
    const file = `\uFEFF${rows.map((row) => csvRow(row, ';')).join('\r\n')}\r\n`;
    const { job, errors } = await importCsv(t, store, 'products', file);
    expect(errors).toEqual([]);
    expect(job).toMatchObject({ status: 'succeeded', total: 1, created: 1 });
    expect(await productByHandle(t, store, 'semi')).toMatchObject({
      title: 'Semi; colon',
      description: 'Line one\r\nLine "two"',
      tags: ['a', 'b'],
      price: 12.5,
    });
  });

  it('counts products, not records, as the total; a killed job resumes after its last batch without duplicates', async () => {
    const store = await t.newStore();
    const posted = await postCsv(t, store, 'products', simpleProducts(250));
    expect(posted.status).toBe(202);
    expect(posted.body.data).toMatchObject({ total: 250, processed: 0 });
    const id = posted.body.data.id;
    await runStoreJobs(t, store, { crashAfterBatches: 1 });
    expect((await t.call(store, 'GET', `/jobs/${id}`)).body.data).toMatchObject({ status: 'running', processed: 100, created: 100 });
    await t.database.db
      .updateTable('jobs')
      .set({ lease_until: new Date(0) })
      .where('store_id', '=', store.id)
      .where('id', '=', id)
      .execute();
    await runStoreJobs(t, store);
    expect((await t.call(store, 'GET', `/jobs/${id}`)).body.data).toMatchObject({
      status: 'succeeded',
      processed: 250,
      created: 250,
      failed: 0,
    });
    expect((await t.call(store, 'GET', '/products?limit=1')).body.pagination.total).toBe(250);
    expect(await productByHandle(t, store, 'p-100')).toMatchObject({ title: 'Product 100', price: 100.5, totalStock: 100 });
    expect(await storedUploads(t, store.id)).toEqual([]);
  });

  it('keeps multi-record products whole across batches (a resume never splits a product)', async () => {
    const store = await t.newStore();
    const rows = [['Handle', 'Title', 'Option1 Name', 'Option1 Value', 'Variant Price']];
    for (let i = 0; i < 120; i++) {
      rows.push([`v-${i}`, `V ${i}`, 'Size', 'S', '1']);
      rows.push([`v-${i}`, '', '', 'M', '2']);
    }
    const posted = await postCsv(t, store, 'products', rows.map((row) => csvRow(row)).join('\n'));
    expect(posted.body.data.total).toBe(120);
    await runStoreJobsResumed(t, store);
    expect((await t.call(store, 'GET', `/jobs/${posted.body.data.id}`)).body.data).toMatchObject({ created: 120, failed: 0 });
    for (const handle of ['v-99', 'v-100', 'v-119']) {
      const product = await productByHandle(t, store, handle);
      expect(product.variants.map((v: { price: number }) => v.price)).toEqual([1, 2]);
    }
  });
});
