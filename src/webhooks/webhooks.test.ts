import { sql } from 'kysely';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engine, setupTestApp, type TestContext, type TestStore, testDatabaseUrl } from '../../test/helpers.js';
import { apiKey } from '../../test/support/collections.fixtures.js';
import { receiver } from '../../test/support/webhook-receiver.js';
import { withTx } from '../db/index.js';
import { newId } from '../shared/index.js';
import { insertDelivery } from './webhooks.sql.js';
import { startDeliveryWorker } from './worker.js';
import { claimDue } from './worker.sql.js';

// A tiny schedule (two retries, 50 ms apart): three attempts in a fraction of a second.
// On PostgreSQL the workers are woken by LISTEN/NOTIFY, on the URL the server would have.
const settings = {
  webhookWorker: true,
  webhookAllowPrivate: true,
  webhookRetrySchedule: [0.05, 0.05],
  webhookTimeoutMs: 2000,
  databaseUrl: engine === 'postgres' ? testDatabaseUrl() : null,
};

let t: TestContext;
beforeAll(async () => {
  t = await setupTestApp(settings);
});
afterAll(() => t.close());

async function subscribe(store: TestStore, url: string, events: string[] = ['*']) {
  const reply = await t.call(store, 'POST', '/webhooks', { url, events });
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  return reply.body.data as { id: string; secret: string };
}

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, ms = 10_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > end) return value;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

// biome-ignore lint/suspicious/noExplicitAny: deliveries are asserted field by field
const deliveries = async (store: TestStore, webhookId: string): Promise<any[]> =>
  (await t.call(store, 'GET', `/webhooks/${webhookId}/deliveries?limit=250`)).body.data;

const newProduct = async (store: TestStore, title = 'Tee') => (await t.call(store, 'POST', '/products', { title })).body.data;

describe('webhook subscriptions', () => {
  it('creates with a secret shown once, reads, lists, updates and deletes', async () => {
    const store = await t.newStore();
    const created = await t.call(store, 'POST', '/webhooks', {
      url: 'https://hooks.example.test/a',
      events: ['product.created', 'order.created'],
      description: 'ERP',
    });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({
      url: 'https://hooks.example.test/a',
      events: ['order.created', 'product.created'],
      enabled: true,
    });
    expect(created.body.data.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(created.body.data.secret.slice(6), 'base64')).toHaveLength(32);
    const { id } = created.body.data;

    const read = await t.call(store, 'GET', `/webhooks/${id}`);
    expect(read.status).toBe(200);
    expect(read.body.data).not.toHaveProperty('secret');
    const list = await t.call(store, 'GET', '/webhooks');
    expect(list.body.data.map((hook: { id: string }) => hook.id)).toEqual([id]);
    expect(list.body.pagination).toMatchObject({ total: 1, page: 1 });

    const patched = await t.call(store, 'PATCH', `/webhooks/${id}`, { events: ['*'], enabled: false, description: null });
    expect(patched.status).toBe(200);
    expect(patched.body.data).toMatchObject({ events: ['*'], enabled: false, description: null });

    const other = await t.newStore();
    expect((await t.call(other, 'GET', `/webhooks/${id}`)).status).toBe(404);
    expect(await t.call(store, 'DELETE', `/webhooks/${id}`)).toMatchObject({ status: 200, body: { data: { id } } });
    expect((await t.call(store, 'GET', `/webhooks/${id}`)).status).toBe(404);
  });

  it('needs webhooks:read to read and webhooks:write to write', async () => {
    const store = await t.newStore();
    const reader = await apiKey(t, store, ['webhooks:read']);
    expect((await t.call(reader, 'GET', '/webhooks')).status).toBe(200);
    expect((await t.call(reader, 'POST', '/webhooks', { url: 'https://a.test/', events: ['*'] })).status).toBe(403);
    // A webhook sends what it subscribes to: its creator needs the read scope of those types too.
    const writer = await apiKey(t, store, ['webhooks:write', 'products:read']);
    expect((await t.call(writer, 'POST', '/webhooks', { url: 'https://a.test/', events: ['product.created'] })).status).toBe(201);
    expect((await t.call(await apiKey(t, store, ['events:read']), 'GET', '/webhooks')).status).toBe(403);
  });

  it('refuses unknown event types and non-http URLs', async () => {
    const store = await t.newStore();
    const badType = await t.call(store, 'POST', '/webhooks', { url: 'https://a.test/', events: ['product.exploded'] });
    expect(badType.status).toBe(400);
    const badUrl = await t.call(store, 'POST', '/webhooks', { url: 'ftp://a.test/', events: ['*'] });
    expect(badUrl.status).toBe(400);
    expect(badUrl.body.error.details[0].field).toBe('url');
  });
});

describe('webhook deliveries', () => {
  it('POSTs each event signed per Standard Webhooks, verified by the reference library', async () => {
    const store = await t.newStore();
    const hook = await receiver();
    const { id, secret } = await subscribe(store, hook.url, ['product.created']);
    const product = await newProduct(store);
    await t.call(store, 'POST', '/customers', { userName: 'ann', email: 'ann@x.test', password: 'long-enough-password' });
    await until(
      async () => hook.hits.length,
      (n) => n >= 1,
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(hook.hits).toHaveLength(1);
    const [hit] = hook.hits;
    const event = new Webhook(secret).verify(hit.body, hit.headers as Record<string, string>) as {
      id: string;
      type: string;
      data: { id: string };
    };
    expect(event).toMatchObject({ type: 'product.created', data: { id: product.id } });
    expect(hit.headers['webhook-id']).toBe(event.id);
    const feed = await t.call(store, 'GET', '/events?types=product.created');
    expect(feed.body.data[0].id).toBe(event.id);
    expect(JSON.parse(hit.body)).toEqual(feed.body.data[0]);
    // Tampering breaks the signature.
    expect(() => new Webhook(secret).verify(hit.body.replace('Tee', 'Tea'), hit.headers as Record<string, string>)).toThrow();
    const [delivery] = await until(
      () => deliveries(store, id),
      (rows) => rows[0]?.status === 'succeeded',
    );
    expect(delivery).toMatchObject({
      eventId: event.id,
      type: 'product.created',
      status: 'succeeded',
      attempts: 1,
      lastResponseStatus: 200,
    });
    expect(delivery.nextAttemptAt).toBeNull();
    await hook.close();
  });

  it('retries a receiver that answers 500 twice, with the same webhook-id, then succeeds', async () => {
    const store = await t.newStore();
    const hook = await receiver((n) => (n <= 2 ? 500 : 200));
    const { id, secret } = await subscribe(store, hook.url);
    await newProduct(store);
    const [delivery] = await until(
      () => deliveries(store, id),
      (rows) => rows[0]?.status === 'succeeded',
    );
    expect(delivery).toMatchObject({ status: 'succeeded', attempts: 3, lastResponseStatus: 200, lastError: null });
    expect(hook.hits).toHaveLength(3);
    expect(new Set(hook.hits.map((hit) => hit.headers['webhook-id']))).toEqual(new Set([delivery.eventId]));
    for (const hit of hook.hits) expect(() => new Webhook(secret).verify(hit.body, hit.headers as Record<string, string>)).not.toThrow();
    await hook.close();
  });

  it('marks a delivery to a receiver that is down failed after n + 1 attempts; a retry sends it again', async () => {
    const store = await t.newStore();
    const down = await receiver();
    await down.close();
    const { id } = await subscribe(store, down.url);
    await newProduct(store);
    const [failed] = await until(
      () => deliveries(store, id),
      (rows) => rows[0]?.status === 'failed',
    );
    expect(failed).toMatchObject({ status: 'failed', attempts: 3, lastResponseStatus: null, nextAttemptAt: null });
    expect(failed.lastError).toMatch(/ECONNREFUSED/);

    // The receiver comes back on another port; the subscription follows it, and a retry delivers.
    const back = await receiver();
    await t.call(store, 'PATCH', `/webhooks/${id}`, { url: back.url });
    const retried = await t.call(store, 'POST', `/webhooks/${id}/deliveries/${failed.id}/retry`);
    expect(retried.status).toBe(202);
    expect(retried.body.data).toMatchObject({ id: failed.id, status: 'pending' });
    const [done] = await until(
      () => deliveries(store, id),
      (rows) => rows[0]?.status === 'succeeded',
    );
    expect(done).toMatchObject({ status: 'succeeded', attempts: 4, lastResponseStatus: 200 });
    expect(back.hits).toHaveLength(1);
    expect(back.hits[0].headers['webhook-id']).toBe(failed.eventId);
    await back.close();
  });

  it('counts a 3xx as a failure (redirects are not followed) and keeps at most 4 KB of the answer', async () => {
    const store = await t.newStore();
    const hook = await receiver(() => 302);
    const { id } = await subscribe(store, hook.url);
    await newProduct(store);
    const [failed] = await until(
      () => deliveries(store, id),
      (rows) => rows[0]?.status === 'failed',
    );
    expect(failed).toMatchObject({ lastResponseStatus: 302, attempts: 3 });
    expect(failed.lastError).toMatch(/redirect/);
    const { rows } = await sql<{ body: string }>`SELECT last_response_body AS body FROM webhook_deliveries WHERE id = ${failed.id}`.execute(
      t.database.db,
    );
    expect(rows[0].body.length).toBe(4096);
    await hook.close();
  });

  it('sends only the types asked for, nothing to a disabled webhook, and webhook.test on demand', async () => {
    const store = await t.newStore();
    const hook = await receiver();
    const orders = await subscribe(store, hook.url, ['order.created']);
    const off = await subscribe(store, hook.url);
    await t.call(store, 'PATCH', `/webhooks/${off.id}`, { enabled: false });
    await newProduct(store);
    expect(await deliveries(store, orders.id)).toEqual([]);
    expect(await deliveries(store, off.id)).toEqual([]);

    const test = await t.call(store, 'POST', `/webhooks/${orders.id}/test`);
    expect(test.status).toBe(202);
    expect(test.body.data).toMatchObject({ type: 'webhook.test', status: 'pending', attempts: 0 });
    await until(
      async () => hook.hits.length,
      (n) => n >= 1,
    );
    const event = new Webhook(orders.secret).verify(hook.hits[0].body, hook.hits[0].headers as Record<string, string>);
    expect(event).toMatchObject({ id: test.body.data.eventId, type: 'webhook.test', data: { webhookId: orders.id } });
    await hook.close();
  });

  it('disables a webhook whose deliveries have all failed for three days', async () => {
    const store = await t.newStore();
    const hook = await receiver(() => 500);
    const { id } = await subscribe(store, hook.url);
    await sql`UPDATE webhooks SET failing_since = now() - interval '3 days 1 minute' WHERE id = ${id}`.execute(t.database.db);
    await newProduct(store);
    const webhook = await until(
      async () => (await t.call(store, 'GET', `/webhooks/${id}`)).body.data,
      (data) => data.enabled === false,
    );
    expect(webhook.enabled).toBe(false);
    // Re-enabled, it starts a new streak.
    await t.call(store, 'PATCH', `/webhooks/${id}`, { enabled: true });
    const { rows } = await sql<{ since: Date | null }>`SELECT failing_since AS since FROM webhooks WHERE id = ${id}`.execute(t.database.db);
    expect(rows[0].since).toBeNull();
    await hook.close();
  });
});

describe('a process killed mid-attempt', () => {
  it('leaves the attempt to be retried, once, when its lease ends', async () => {
    // No worker of its own: the attempt below is claimed by hand, as by a process that then dies.
    const quiet = await setupTestApp({ ...settings, webhookWorker: false });
    const hook = await receiver();
    const store = await quiet.newStore();
    const created = await quiet.call(store, 'POST', '/webhooks', { url: hook.url, events: ['*'] });
    const webhookId: string = created.body.data.id;
    // On PostgreSQL other apps' workers on the same database poll for due deliveries and would claim it
    // first: the delivery is made and claimed in one transaction, so no other worker ever sees it unclaimed.
    const { claimed, leaseEnds } = await withTx(quiet.database.db, async (trx) => {
      // The shared database may hold other tests' due deliveries: the claim's walk of stores starts just
      // before ours (a prefix of its id) and takes one delivery, so it takes ours and nobody else's.
      await insertDelivery(trx, {
        store_id: store.id,
        id: newId(),
        webhook_id: webhookId,
        event_id: newId(),
        type: 'product.created',
        payload: JSON.stringify({ type: 'product.created', data: { id: newId() } }),
        next_attempt_at: new Date(Date.now() - 86_400_000),
      });
      const busy = { stores: [], counts: [] };
      const rows = await claimDue(trx, {
        limit: 1,
        slots: 32,
        maxShare: 24,
        room: 24,
        leaseSeconds: 0.5,
        busy,
        after: store.id.slice(0, -1),
      });
      const lease = await sql<{ at: Date }>`SELECT next_attempt_at AS at FROM webhook_deliveries WHERE store_id = ${store.id}`.execute(trx);
      return { claimed: rows, leaseEnds: new Date(lease.rows[0].at).getTime() };
    });
    expect(claimed.map((row) => [row.store_id, row.attempts])).toEqual([[store.id, 1]]);
    // Another process's worker (on PostgreSQL the main app's is one too) takes it over once the lease ends.
    const stop = startDeliveryWorker({
      db: quiet.database.db,
      listen: quiet.database.listen,
      config: quiet.config,
      log: { warn: () => {}, debug: () => {} },
    });
    const list = () => quiet.call(store, 'GET', `/webhooks/${webhookId}/deliveries`).then((reply) => reply.body.data);
    const [delivery] = await until(list, (rows) => rows[0]?.status === 'succeeded');
    // Not a wall-clock window: the claim is made only once the database's clock passed the lease's end, and
    // the receiver (same machine, same clock) notes the request after that (1 ms: timestamps are in ms).
    expect(hook.hits).toHaveLength(1);
    expect(hook.hits[0].at).toBeGreaterThanOrEqual(leaseEnds - 1);
    expect(delivery).toMatchObject({ status: 'succeeded', attempts: 2 });
    expect(hook.hits).toHaveLength(1);
    await stop();
    await quiet.close();
    await hook.close();
  });
});

describe('webhook targets on the private network', () => {
  let strict: TestContext;
  beforeAll(async () => {
    strict = await setupTestApp({ ...settings, webhookWorker: false, webhookAllowPrivate: false });
  });
  afterAll(() => strict.close());

  it.each([
    'http://127.0.0.1:8080/hook',
    'http://localhost/hook',
    'http://[::1]/hook',
    'http://10.1.2.3/',
    'http://169.254.169.254/latest',
    'http://0.0.0.0/',
    'http://[::ffff:127.0.0.1]/',
    'http://[::127.0.0.1]/',
    'http://[64:ff9b::127.0.0.1]/',
    'http://[2002:7f00:1::]/',
    'http://[::ffff:0:127.0.0.1]/',
    'http://198.18.0.1/',
    'http://[fec0::1]/',
  ])('refuses %s at creation (400 naming url)', async (url) => {
    const store = await strict.newStore();
    const reply = await strict.call(store, 'POST', '/webhooks', { url, events: ['*'] });
    expect(reply.status).toBe(400);
    expect(reply.body.error.details[0].field).toBe('url');
  });

  it('does not say what a name resolved to', async () => {
    const store = await strict.newStore();
    const reply = await strict.call(store, 'POST', '/webhooks', { url: 'http://localhost:9/hook', events: ['*'] });
    expect(reply.status).toBe(400);
    expect(JSON.stringify(reply.body)).not.toMatch(/127\.0\.0\.1|::1/);
  });
});

describe.runIf(engine === 'postgres')('two server processes on one PostgreSQL', () => {
  it('deliver a backlog with each attempt sent exactly once', async () => {
    const { openDatabase } = await import('../db/database.js');
    const { buildApp } = await import('../app.js');
    const second = await openDatabase({ databaseUrl: testDatabaseUrl(), dataDir: '/nonexistent', poolSize: 4 });
    const other = await buildApp({ config: t.config, database: second, redisPrefix: `wh-${Date.now()}:` });
    await other.ready();
    try {
      const store = await t.newStore();
      // Each event's first attempt fails, its second succeeds: two attempts per event, no more.
      const seen = new Map<string, number>();
      const hook = await receiver((_n, hit) => {
        const id = String(hit.headers['webhook-id']);
        seen.set(id, (seen.get(id) ?? 0) + 1);
        return seen.get(id) === 1 ? 503 : 200;
      });
      const { id } = await subscribe(store, hook.url);
      await Promise.all(Array.from({ length: 40 }, (_, i) => newProduct(store, `Tee ${i}`)));
      const rows = await until(
        () => deliveries(store, id),
        (all) => all.length === 40 && all.every((row) => row.status === 'succeeded'),
        90_000,
      );
      expect(rows.map((row) => row.status)).toEqual(Array(40).fill('succeeded'));
      expect(rows.every((row) => row.attempts === 2)).toBe(true);
      expect(seen.size).toBe(40);
      expect([...seen.values()].every((count) => count === 2)).toBe(true);
      expect(hook.hits).toHaveLength(80);
      await hook.close();
    } finally {
      await other.close();
      await second.close();
    }
    // A loaded shared machine: the second app's start and the backlog can take a while.
  }, 120_000);
});
