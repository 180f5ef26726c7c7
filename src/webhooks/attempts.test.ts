import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engine, expectError, setupTestApp, type TestContext, type TestStore, testDatabaseUrl } from '../../test/helpers.js';
import { receiver } from '../../test/support/webhook-receiver.js';
import { KEPT_ATTEMPTS } from './worker.sql.js';

// Each attempt of a delivery, not only the last (GET /webhooks/{id}/deliveries/{deliveryId}, migration 0104):
// a tiny schedule makes three attempts in a fraction of a second.
let t: TestContext;
beforeAll(async () => {
  t = await setupTestApp({
    webhookWorker: true,
    webhookAllowPrivate: true,
    webhookRetrySchedule: [0.05, 0.05],
    webhookTimeoutMs: 2000,
    // not the default timeout + 30 s (32 s): the test of the lease below tells the two apart
    webhookLeaseSeconds: 7,
    databaseUrl: engine === 'postgres' ? testDatabaseUrl() : null,
  });
});
afterAll(() => t.close());

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > end) return value;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

const HOSTILE = '<img src=x onerror=alert(1)> receiver down';

async function failedDelivery(store: TestStore, answer: (n: number) => number | { status: number; body: string }) {
  const hook = await receiver(answer);
  const created = await t.call(store, 'POST', '/webhooks', { url: hook.url, events: ['*'] });
  const webhookId = created.body.data.id as string;
  await t.call(store, 'POST', '/products', { title: 'Tee' });
  const [delivery] = await until(
    async () => (await t.call(store, 'GET', `/webhooks/${webhookId}/deliveries`)).body.data,
    (rows) => rows[0] !== undefined && rows[0].status !== 'pending',
  );
  return { hook, webhookId, delivery };
}

const detail = (store: TestStore, webhookId: string, id: string) => t.call(store, 'GET', `/webhooks/${webhookId}/deliveries/${id}`);

describe('a delivery shows each attempt', () => {
  it('lists every attempt with its time, duration, status, answer and error; a retry adds one', async () => {
    const store = await t.newStore();
    let healthy = false;
    const { hook, webhookId, delivery } = await failedDelivery(store, () => (healthy ? 200 : { status: 500, body: HOSTILE }));
    expect(delivery).toMatchObject({ status: 'failed', attempts: 3, lastResponseStatus: 500 });

    const reply = await detail(store, webhookId, delivery.id);
    expect(reply.status).toBe(200);
    const data = reply.body.data;
    expect(data).toMatchObject({ id: delivery.id, status: 'failed', attempts: 3 });
    expect(JSON.parse(data.payload)).toMatchObject({ id: delivery.eventId, type: 'product.created' });
    expect(data.attemptLog.map((a: { attempt: number }) => a.attempt)).toEqual([1, 2, 3]);
    for (const attempt of data.attemptLog) {
      expect(attempt).toMatchObject({ responseStatus: 500, responseBody: HOSTILE, error: 'HTTP 500' });
      expect(attempt.durationMs).toBeGreaterThanOrEqual(0);
    }
    const times = data.attemptLog.map((a: { startedAt: string }) => Date.parse(a.startedAt));
    expect([...times].sort((a, b) => a - b)).toEqual(times);

    healthy = true;
    expect((await t.call(store, 'POST', `/webhooks/${webhookId}/deliveries/${delivery.id}/retry`)).status).toBe(202);
    const after = await until(
      async () => (await detail(store, webhookId, delivery.id)).body.data,
      (row) => row.status === 'succeeded',
    );
    expect(after.attemptLog).toHaveLength(4);
    expect(after.attemptLog[3]).toMatchObject({ attempt: 4, responseStatus: 200, responseBody: 'thanks', error: null });
    await hook.close();
  });

  it('records a connection that failed with no answer', async () => {
    const store = await t.newStore();
    const down = await receiver();
    await down.close();
    const created = await t.call(store, 'POST', '/webhooks', { url: down.url, events: ['*'] });
    await t.call(store, 'POST', '/products', { title: 'Tee' });
    const webhookId = created.body.data.id;
    const [delivery] = await until(
      async () => (await t.call(store, 'GET', `/webhooks/${webhookId}/deliveries`)).body.data,
      (rows) => rows[0]?.status === 'failed',
    );
    const { attemptLog } = (await detail(store, webhookId, delivery.id)).body.data;
    expect(attemptLog).toHaveLength(3);
    expect(attemptLog[0]).toMatchObject({ responseStatus: null, responseBody: null });
    expect(attemptLog[0].error).toMatch(/ECONNREFUSED/);
  });

  it(`keeps a delivery's newest ${KEPT_ATTEMPTS} attempts, and none once the delivery is gone`, async () => {
    const store = await t.newStore();
    const { hook, webhookId, delivery } = await failedDelivery(store, () => 500);
    const db = t.database.db;
    // As if many retries by hand had run: attempts 4..40 recorded, the delivery at its 40th.
    await sql`INSERT INTO webhook_delivery_attempts (store_id, delivery_id, attempt, started_at, duration_ms, error)
      SELECT ${store.id}, ${delivery.id}, n, now(), 1, 'HTTP 500' FROM generate_series(4, 40) n`.execute(db);
    await sql`UPDATE webhook_deliveries SET attempts = 40 WHERE store_id = ${store.id} AND id = ${delivery.id}`.execute(db);
    await t.call(store, 'POST', `/webhooks/${webhookId}/deliveries/${delivery.id}/retry`);
    const after = await until(
      async () => (await detail(store, webhookId, delivery.id)).body.data,
      (row) => row.attempts === 41 && row.status === 'failed',
    );
    const numbers = after.attemptLog.map((a: { attempt: number }) => a.attempt);
    expect(numbers).toHaveLength(KEPT_ATTEMPTS);
    expect(numbers[0]).toBe(41 - KEPT_ATTEMPTS + 1);
    expect(numbers.at(-1)).toBe(41);

    expect((await t.call(store, 'DELETE', `/webhooks/${webhookId}`)).status).toBe(200);
    const left = await sql<{ n: string }>`SELECT count(*)::text AS n FROM webhook_delivery_attempts
      WHERE store_id = ${store.id} AND delivery_id = ${delivery.id}`.execute(db);
    expect(left.rows[0].n).toBe('0');
    await hook.close();
  });

  it("answers 404 for another store's delivery, another webhook's, or an id that is not one", async () => {
    const a = await t.newStore();
    const b = await t.newStore();
    const { hook, webhookId, delivery } = await failedDelivery(a, () => 500);
    expectError(await detail(b, webhookId, delivery.id), 404, 'NOT_FOUND');
    const other = await t.call(a, 'POST', '/webhooks', { url: hook.url, events: ['order.created'] });
    expectError(await detail(a, other.body.data.id, delivery.id), 404, 'NOT_FOUND');
    expectError(await detail(a, webhookId, 'nope'), 404, 'NOT_FOUND');
    await hook.close();
  });
});

describe('an attempt in flight', () => {
  it('holds its delivery for STOREFRONT_WEBHOOK_LEASE_SECONDS: a process killed mid-attempt resends it after that', async () => {
    const store = await t.newStore();
    const leases: number[] = [];
    // The receiver reads the delivery's claim before it answers, while the attempt waits for it (timeout 2 s).
    const hook = http.createServer(async (_request, response) => {
      const { rows } = await sql<{ seconds: number }>`
        SELECT EXTRACT(EPOCH FROM next_attempt_at - updated_at)::float8 AS seconds
        FROM webhook_deliveries WHERE store_id = ${store.id}`.execute(t.database.db);
      leases.push(...rows.map((row) => Number(row.seconds)));
      response.end('thanks');
    });
    await new Promise<void>((resolve) => hook.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(hook.address() as AddressInfo).port}/hook`;
    const created = await t.call(store, 'POST', '/webhooks', { url, events: ['*'] });
    await t.call(store, 'POST', '/products', { title: 'Tee' });
    const [delivery] = await until(
      async () => (await t.call(store, 'GET', `/webhooks/${created.body.data.id}/deliveries`)).body.data,
      (rows) => rows[0]?.status === 'succeeded',
    );
    expect(delivery).toMatchObject({ status: 'succeeded', attempts: 1 });
    // The claim set both times in one statement (now()): the lease exactly, whatever the machine's load.
    expect(leases).toEqual([7]);
    await new Promise<void>((resolve) => hook.close(() => resolve()));
  });
});
