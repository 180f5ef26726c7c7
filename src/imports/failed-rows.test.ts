import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engine, expectError, setupTestApp, type TestContext, type TestStore, testDatabaseUrl } from '../../test/helpers.js';
import { csvFixture, importCsv, productByHandle } from '../../test/support/csv.fixtures.js';
import { NDJSON, runStoreJobs } from '../../test/support/jobs.fixtures.js';

// "Download failed rows" (GET /jobs/{id}/failed-rows): a file with a bad row → its failed rows → the cell fixed →
// imported as it is → succeeds. On both engines (the sources are kept with the error rows, migration 0105).
let t: TestContext;
beforeAll(async () => {
  t = await setupTestApp({ databaseUrl: engine === 'postgres' ? testDatabaseUrl() : null });
});
afterAll(() => t.close());

const HOSTILE = '<img src=x onerror=alert(1)>';
const records = (text: string): string[][] => parse(text, { relax_column_count: true, bom: true });
const csvText = (rows: string[][]) => rows.map((row) => row.map((cell) => `"${cell.replaceAll('"', '""')}"`).join(',')).join('\n');

async function failedRowsOf(store: TestStore, jobId: string) {
  const reply = await t.call(store, 'GET', `/jobs/${jobId}/failed-rows`);
  expect(reply.status, String(reply.body)).toBe(200);
  return reply;
}

describe('GET /jobs/{id}/failed-rows', () => {
  it("gives a Shopify CSV's failed product with its records as they were and an Error column; fixed, it imports", async () => {
    const store = await t.newStore();
    const original = records(csvFixture('shopify-current.csv'));
    const header = original[0];
    const price = header.indexOf('Price');
    const title = header.indexOf('Title');
    // Record 3 of the file (the trail runner's second row): a price that is not one; its title cell hostile.
    const broken = original.map((row) => [...row]);
    broken[2][price] = 'twelve';
    broken[1][title] = `Trail ${HOSTILE}`;
    const { job, errors } = await importCsv(t, store, 'products', csvText(broken));
    expect(job).toMatchObject({ status: 'succeeded', failed: 1 });
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ line: 3, column: 'Price' });

    const reply = await failedRowsOf(store, job.id);
    expect(reply.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(reply.headers['content-disposition']).toBe(`attachment; filename="${job.id}-failed-rows.csv"`);
    const failed = records(reply.body);
    expect(failed[0]).toEqual([...header, 'Error']);
    // the trail runner's nine records (its first row and the eight after it), cell for cell, and nothing else
    const trail = broken.slice(1, 10);
    expect(failed.slice(1).map((row) => row.slice(0, -1))).toEqual(trail.map((row) => header.map((_, i) => row[i] ?? '')));
    const errorCells = failed.slice(1).map((row) => row.at(-1));
    expect(errorCells[1]).toMatch(/^Price: /);
    expect(errorCells.filter((cell) => cell !== '')).toHaveLength(1);

    // Fixed in place (Error column and all), it imports as it is: the product lands, nothing of the Error column in it.
    failed[2][price] = '120.00';
    const again = await importCsv(t, store, 'products', csvText(failed));
    expect(again.errors).toEqual([]);
    expect(again.job).toMatchObject({ status: 'succeeded', failed: 0, created: 1 });
    const product = await productByHandle(t, store, 'trail-runner');
    expect(product.title).toBe(`Trail ${HOSTILE}`);
    expect(product.variants).toHaveLength(8);
    expect(Object.keys(product.customFields ?? {})).not.toContain('Error');
    // Nothing failed: an empty file of the header alone.
    expect(records((await failedRowsOf(store, again.job.id)).body)).toEqual([[...header, 'Error']]);
  });

  it("gives a WooCommerce CSV's failed row; fixed, it imports", async () => {
    const store = await t.newStore();
    const original = records(csvFixture('woocommerce-sample.csv'));
    const header = original[0];
    const sku = header.indexOf('SKU');
    const row = original.findIndex((cells) => cells[sku] === 'woo-hoodie-with-logo');
    const stock = header.indexOf('Stock');
    const broken = original.map((cells) => [...cells]);
    broken[row][stock] = 'lots';
    const { job, errors } = await importCsv(t, store, 'products', csvText(broken));
    expect(job.failed).toBe(1);
    expect(errors[0]).toMatchObject({ line: row + 1, column: 'Stock' });
    const failed = records((await failedRowsOf(store, job.id)).body);
    expect(failed).toHaveLength(2);
    expect(failed[1].slice(0, -1)).toEqual(header.map((_, i) => broken[row][i] ?? ''));
    expect(failed[1].at(-1)).toMatch(/^Stock: /);
    failed[1][stock] = '12';
    const again = await importCsv(t, store, 'products', csvText(failed));
    expect(again.errors).toEqual([]);
    expect(again.job).toMatchObject({ status: 'succeeded', failed: 0 });
    expect((await productByHandle(t, store, 'hoodie-with-logo')).totalStock).toBe(12);
  });

  it('gives an NDJSON import its failed lines unchanged; fixed, they import', async () => {
    const store = await t.newStore();
    const bad = `{"title": 5, "handle": "bad-one", "note": "${HOSTILE}"}`;
    const body = `{"title":"Good","handle":"good"}\n\n${bad}\nnot json\n`;
    const posted = await t.call(store, 'POST', '/imports?resource=products', body, NDJSON);
    expect(posted.status).toBe(202);
    await runStoreJobs(t, store);
    const job = (await t.call(store, 'GET', `/jobs/${posted.body.data.id}`)).body.data;
    expect(job).toMatchObject({ status: 'succeeded', failed: 2, created: 1 });
    const reply = await failedRowsOf(store, job.id);
    expect(reply.headers['content-type']).toBe('application/x-ndjson; charset=utf-8');
    expect(reply.body).toBe(`${bad}\nnot json\n`);

    const fixed = '{"title": "Five", "handle": "bad-one"}\n';
    const again = await t.call(store, 'POST', '/imports?resource=products', fixed, NDJSON);
    await runStoreJobs(t, store);
    expect((await t.call(store, 'GET', `/jobs/${again.body.data.id}`)).body.data).toMatchObject({
      status: 'succeeded',
      created: 1,
      failed: 0,
    });
  });

  it("answers 404 for another store's job and needs the job's read scope", async () => {
    const a = await t.newStore();
    const b = await t.newStore();
    const { job } = await importCsv(t, a, 'products', csvFixture('shopify-current.csv'));
    expectError(await t.call(b, 'GET', `/jobs/${job.id}/failed-rows`), 404, 'NOT_FOUND');
    expectError(await t.call(a, 'GET', '/jobs/000000000000000000000000/failed-rows'), 404, 'NOT_FOUND');
  });
});
