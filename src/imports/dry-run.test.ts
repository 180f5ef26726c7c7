import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setupTestApp, type TestContext, type TestStore } from '../../test/helpers.js';
import { csvFixture, importCsv } from '../../test/support/csv.fixtures.js';
import { settled } from '../../test/support/feed.fixtures.js';
import { runnerOf, runStoreJobs, storedUploads } from '../../test/support/jobs.fixtures.js';
import { runOneJob } from '../jobs/index.js';

let t: TestContext;
beforeAll(async () => {
  t = await setupTestApp();
});
afterAll(() => t.close());

type Row = { line: number; code: string; details: { field: string }[] };

/** Imports NDJSON lines (dry or real) and runs the job (batches of 100 lines): the job and its error rows. */
async function run(store: TestStore, resource: string, lines: unknown[], dryRun: boolean, crashAfterBatches?: number) {
  const posted = await t.call(
    store,
    'POST',
    `/imports?resource=${resource}${dryRun ? '&dryRun=true' : ''}`,
    lines.map((line) => JSON.stringify(line)).join('\n'),
    { 'content-type': 'application/x-ndjson' },
  );
  expect(posted.status).toBe(202);
  const id = posted.body.data.id;
  if (crashAfterBatches !== undefined) {
    await runStoreJobs(t, store, { crashAfterBatches });
    await t.database.db
      .updateTable('jobs')
      .set({ lease_until: new Date(0) })
      .where('store_id', '=', store.id)
      .where('id', '=', id)
      .execute();
  }
  await runStoreJobs(t, store);
  const job = (await t.call(store, 'GET', `/jobs/${id}`)).body.data;
  const errors = (await t.call(store, 'GET', `/jobs/${id}/errors?limit=100`)).body.data as Row[];
  return { job, errors: errors.map((e) => [e.line, e.code, e.details[0]?.field]) };
}

const counters = (job: Record<string, unknown>) => ({
  status: job.status,
  total: job.total,
  processed: job.processed,
  created: job.created,
  updated: job.updated,
  failed: job.failed,
});

async function storeIsEmpty(store: TestStore) {
  await settled(t);
  for (const path of ['/products', '/customers', '/collections', '/attributes']) {
    expect((await t.call(store, 'GET', `${path}?limit=1`)).body.pagination.total, path).toBe(0);
  }
  expect((await t.call(store, 'GET', '/events?limit=1')).body.data).toEqual([]);
}

// 120 products, then one of them again and a bad line: the repeat is in the second batch
const products = [
  ...Array.from({ length: 120 }, (_, i) => ({ title: `P${i}`, handle: `p-${i}`, options: [{ name: 'Size', values: ['S', 'M'] }] })),
  { title: 'P5 again', handle: 'P-5', price: 3 },
  { title: 'Bad', handle: 'bad', price: -1 },
];

// a customer's email claimed again by another customer in the next batch
const customers = [
  ...Array.from({ length: 110 }, (_, i) => ({ userName: `c${i}`, email: `c${i}@example.test` })),
  { userName: 'late', email: 'C3@example.test' },
  { userName: 'c7', firstName: 'Seven' },
];

describe('dryRun=true', () => {
  it('gives the real run’s counters and errors, across batches, and writes nothing (products)', async () => {
    const dry = await t.newStore();
    const dryRun = await run(dry, 'products', products, true);
    await storeIsEmpty(dry);
    const real = await run(await t.newStore(), 'products', products, false);
    expect(counters(real.job)).toEqual({ status: 'succeeded', total: 122, processed: 122, created: 120, updated: 1, failed: 1 });
    expect(counters(dryRun.job)).toEqual(counters(real.job));
    expect(dryRun.errors).toEqual(real.errors);
  });

  it('sees a unique value taken by an earlier batch (customers’ emails), as the real run does', async () => {
    const dry = await t.newStore();
    const dryRun = await run(dry, 'customers', customers, true);
    await storeIsEmpty(dry);
    const real = await run(await t.newStore(), 'customers', customers, false);
    expect(counters(real.job)).toMatchObject({ created: 110, updated: 1, failed: 1 });
    expect(real.errors).toEqual([[111, 'DUPLICATE_VALUE', 'email']]);
    expect(counters(dryRun.job)).toEqual(counters(real.job));
    expect(dryRun.errors).toEqual(real.errors);
  });

  it('stays exact when resumed after a crash: what earlier batches did is kept with their progress', async () => {
    const dry = await t.newStore();
    const crashed = await run(dry, 'products', products, true, 1);
    expect(counters(crashed.job)).toEqual({ status: 'succeeded', total: 122, processed: 122, created: 120, updated: 1, failed: 1 });
    expect(crashed.errors).toEqual([[122, 'VALIDATION_ERROR', 'price']]);
    await storeIsEmpty(dry);
  });

  it('stays exact when it hands its turn to another store’s job between batches', async () => {
    const dry = await t.newStore();
    const other = await t.newStore();
    const post = (store: TestStore, query: string, lines: unknown[]) =>
      t.call(store, 'POST', `/imports?resource=products${query}`, lines.map((line) => JSON.stringify(line)).join('\n'), {
        'content-type': 'application/x-ndjson',
      });
    const posted = await post(dry, '&dryRun=true', products);
    await post(other, '', products);
    const stores = [dry.id, other.id];
    while (await runOneJob(runnerOf(t), { stores })) {}
    const job = (await t.call(dry, 'GET', `/jobs/${posted.body.data.id}`)).body.data;
    expect(counters(job)).toEqual({ status: 'succeeded', total: 122, processed: 122, created: 120, updated: 1, failed: 1 });
    await storeIsEmpty(dry);
  });

  it('checks a CSV file the same way: counters, errors naming the cell, nothing written', async () => {
    const dry = await t.newStore();
    const file = `${csvFixture('shopify-current.csv')}"Broken",broken,,,,,,,,,,,,,,,,,,,oops\r\n`;
    const dryRun = await importCsv(t, dry, 'products', file, '&dryRun=true');
    await storeIsEmpty(dry);
    const real = await importCsv(t, await t.newStore(), 'products', file);
    expect(counters(real.job)).toEqual({ status: 'succeeded', total: 3, processed: 3, created: 2, updated: 0, failed: 1 });
    expect(counters(dryRun.job)).toEqual(counters(real.job));
    expect(dryRun.errors).toEqual(real.errors);
    expect(real.errors[0]).toMatchObject({ line: 12, column: 'Price', code: 'VALIDATION_ERROR' });
  });

  it('is refused for a value other than true or false', async () => {
    const store = await t.newStore();
    const bad = await t.call(store, 'POST', '/imports?resource=products&dryRun=maybe', '{"title":"x","handle":"x"}', {
      'content-type': 'application/x-ndjson',
    });
    expect(bad.status).toBe(400);
    expect(await storedUploads(t, store.id)).toEqual([]);
  });
});
