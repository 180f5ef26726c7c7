import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setupTestApp, type TestContext, type TestStore } from '../../test/helpers.js';
import { settled } from '../../test/support/feed.fixtures.js';
import { makeDeliveries } from './feed.sql.js';
import { purgeFinishedDeliveries } from './purge.js';

// No worker: the deliveries' states are set by hand, so nothing sends or changes them meanwhile.
let t: TestContext;
beforeAll(async () => {
  t = await setupTestApp({ webhookWorker: false, webhookAllowPrivate: true });
});
afterAll(() => t.close());

async function deliveriesOf(store: TestStore, count: number) {
  const hook = await t.call(store, 'POST', '/webhooks', { url: 'https://hooks.example.test/a', events: ['*'] });
  expect(hook.status).toBe(201);
  for (let n = 0; n < count; n++) expect((await t.call(store, 'POST', '/products', { title: `Tee ${n}` })).status).toBe(201);
  // No worker here: its first step, making the deliveries from the feed, is run by hand, once the
  // cluster's open transactions (another test file's, on PostgreSQL) no longer hold the feed back.
  await settled(t);
  await makeDeliveries(t.database.db, store.id, 100, 200);
  const reply = await t.call(store, 'GET', `/webhooks/${hook.body.data.id}/deliveries?limit=250`);
  expect(reply.body.data).toHaveLength(count);
  return reply.body.data.map((row: { id: string }) => row.id) as string[];
}

/** Sets a delivery's state and when it last changed, `daysAgo` days back. */
async function age(store: TestStore, id: string, status: string, daysAgo: number) {
  await sql`UPDATE webhook_deliveries SET status = ${status}, updated_at = now() - make_interval(days => ${daysAgo}),
      next_attempt_at = CASE WHEN ${status} = 'pending' THEN now() + interval '1 hour' END
    WHERE store_id = ${store.id} AND id = ${id}`.execute(t.database.db);
}

const remaining = async (store: TestStore) =>
  (await sql<{ id: string }>`SELECT id FROM webhook_deliveries WHERE store_id = ${store.id} ORDER BY id`.execute(t.database.db)).rows.map(
    (row) => row.id,
  );

describe('retention of webhook deliveries', () => {
  it('purges finished deliveries older than the retention, keeps recent ones and every pending one', async () => {
    const store = await t.newStore();
    const [oldSucceeded, oldFailed, oldPending, recentSucceeded, recentFailed] = await deliveriesOf(store, 5);
    await age(store, oldSucceeded, 'succeeded', 31);
    await age(store, oldFailed, 'failed', 45);
    // A delivery of a disabled webhook waits however long: it is not finished.
    await age(store, oldPending, 'pending', 400);
    await age(store, recentSucceeded, 'succeeded', 29);
    await age(store, recentFailed, 'failed', 0);

    expect(await purgeFinishedDeliveries(t.database.db, 30)).toBeGreaterThanOrEqual(2);
    expect(await remaining(store)).toEqual([oldPending, recentSucceeded, recentFailed].sort());

    // A shorter retention reaches further (29 days old is now past it); the pending delivery still stays.
    await purgeFinishedDeliveries(t.database.db, 1);
    expect(await remaining(store)).toEqual([oldPending, recentFailed].sort());
    const list = await t.call(store, 'GET', `/webhooks/${(await t.call(store, 'GET', '/webhooks')).body.data[0].id}/deliveries`);
    expect(list.body.data.map((row: { id: string }) => row.id).sort()).toEqual([oldPending, recentFailed].sort());
  });
});
