import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, setupTestApp, type TestContext, type TestStore } from '../../test/helpers.js';
import { importAndRun, postImport, runnerOf, storedUploads } from '../../test/support/jobs.fixtures.js';
import { purgeFinishedJobs } from './purge.js';
import { type JobKind, runOneJob } from './runner.js';

let t: TestContext;
beforeAll(async () => {
  t = await setupTestApp();
});
afterAll(() => t.close());

const jobOf = async (store: TestStore, id: string) => (await t.call(store, 'GET', `/jobs/${id}`)).body.data;
const products = (count: number, prefix: string) =>
  Array.from({ length: count }, (_, i) => ({ handle: `${prefix}-${i}`, title: `${prefix} ${i}`, price: 1 }));

describe('error rows', () => {
  it('a job keeps at most 1,000 error rows; its counters count every failed line', async () => {
    const store = await t.newStore();
    const job = await importAndRun(
      t,
      store,
      'products',
      Array.from({ length: 1_250 }, () => '{}'),
    );
    expect(job).toMatchObject({ status: 'succeeded', processed: 1_250, failed: 1_250 });
    const errors = await t.call(store, 'GET', `/jobs/${job.id}/errors?limit=250&page=4`);
    expect(errors.body.pagination.total).toBe(1_000);
    // the first 1,000 failed lines are the ones kept
    expect(errors.body.data.at(-1).line).toBe(1_000);
  }, 120_000);
});

describe('retention', () => {
  const kinds = () => runnerOf(t).kinds;

  it('finished jobs past STOREFRONT_JOB_RETENTION_DAYS go with their errors and uploads; newer and unfinished ones stay', async () => {
    const store = await t.newStore();
    const old = await importAndRun(t, store, 'products', ['{}', '{"handle":"kept","title":"Kept","price":1}']);
    const recent = await importAndRun(t, store, 'products', ['{}']);
    // a job whose upload outlived it (its process died before the cleanup): failed long ago, file still there
    const orphan = (await postImport(t, store, 'products', ['{}'])).body.data;
    const queued = (await postImport(t, store, 'products', ['{}'])).body.data;
    expect(await storedUploads(t, store.id)).toHaveLength(2);
    await sql`UPDATE jobs SET status = 'failed', finished_at = now() WHERE store_id = ${store.id} AND id = ${orphan.id}`.execute(
      t.database.db,
    );
    await sql`UPDATE jobs SET finished_at = now() - interval '31 days', created_at = now() - interval '32 days'
      WHERE store_id = ${store.id} AND id IN (${old.id}, ${orphan.id})`.execute(t.database.db);

    expect(await purgeFinishedJobs(t.database.db, kinds(), 30)).toBeGreaterThanOrEqual(3);
    expectError(await t.call(store, 'GET', `/jobs/${old.id}`), 404, 'NOT_FOUND');
    expectError(await t.call(store, 'GET', `/jobs/${orphan.id}`), 404, 'NOT_FOUND');
    const errors = await sql<{ n: number }>`SELECT count(*)::int AS n FROM job_errors WHERE store_id = ${store.id}`.execute(t.database.db);
    expect(errors.rows[0].n).toBe(1);
    expect((await jobOf(store, recent.id)).status).toBe('succeeded');
    expect((await jobOf(store, queued.id)).status).toBe('queued');
    // the orphan's upload is gone; the queued job's is kept
    expect(await storedUploads(t, store.id)).toHaveLength(1);
    // the records the old job made are not the job's: they stay
    expect((await t.call(store, 'GET', '/products')).body.data.map((p: { title: string }) => p.title)).toEqual(['Kept']);
  });
});

describe('jobs take turns across stores', () => {
  it("store B's one-line import, posted after A's long one started, finishes while A's is still running", async () => {
    const [a, b] = [await t.newStore(), await t.newStore()];
    const long = (await postImport(t, a, 'products', products(1_000, 'A'))).body.data;
    let short: { id: string } | undefined;
    const batches: string[] = [];
    let aWhenBFinished: { status: string; processed: number } | undefined;
    const settings = runnerOf(t);
    const inner = settings.kinds.import as JobKind;
    // Watches each batch; B posts its import once A's first batch has committed (A has started).
    const kinds = {
      import: {
        cleanup: inner.cleanup,
        run: (run) =>
          inner.run({
            job: run.job,
            commitBatch: async (work) => {
              const going = await run.commitBatch(work);
              batches.push(run.job.store_id === a.id ? 'A' : 'B');
              if (!short) short = (await postImport(t, b, 'products', products(1, 'B'))).body.data;
              return going;
            },
          }),
      } satisfies JobKind,
    };
    const stores = [a.id, b.id];
    for (let turns = 0; turns < 100 && (await runOneJob({ ...settings, kinds }, { stores })); turns++) {
      if (short && !aWhenBFinished && (await jobOf(b, short.id)).status === 'succeeded') aWhenBFinished = await jobOf(a, long.id);
    }
    expect(aWhenBFinished).toMatchObject({ status: 'running' });
    expect(aWhenBFinished?.processed).toBeLessThan(1_000);
    // B waited for A's batch in progress (the second: B arrived during the first), then went before A's third
    expect(batches.slice(0, 4)).toEqual(['A', 'A', 'B', 'A']);
    expect(await jobOf(a, long.id)).toMatchObject({ status: 'succeeded', processed: 1_000, created: 1_000 });
    expect(await jobOf(b, short?.id as string)).toMatchObject({ status: 'succeeded', created: 1 });
  }, 120_000);
});
